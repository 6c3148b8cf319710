"""What a pure library's tests check of it (docs/design.md, "How code is written"): it imports
nothing of Django's nor of the apps, and keeps no mutable state at module level (it runs on many
threads)."""

import importlib
import json
import pkgutil
import subprocess
import sys
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROJECT_APPS = ("django", "tcgsite", "collection", "game", "guilds", "tournaments")


def modules_of(package: str) -> list[str]:
    path = importlib.import_module(package).__path__
    return sorted(info.name for info in pkgutil.walk_packages(path, prefix=f"{package}."))


def apps_imported(package: str, apps: tuple[str, ...] = PROJECT_APPS) -> list[str]:
    """The ``apps`` that importing every module of ``package`` loads, in a fresh interpreter."""
    code = (
        f"import json, sys\nfor name in {modules_of(package)!r}: __import__(name)\n"
        f"print(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}} & set({apps!r}))))"
    )
    result = subprocess.run(  # noqa: S603 (our own interpreter and code)
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return json.loads(result.stdout)


def mutable_module_state(package: str) -> list[str]:
    """Module attributes of ``package`` holding a list, dict, set or bytearray."""
    mutable = []
    for name in modules_of(package):
        module = importlib.import_module(name)
        for attribute, value in vars(module).items():
            if attribute.startswith("__") or isinstance(value, types.ModuleType):
                continue
            if isinstance(value, (list, dict, set, bytearray)):
                mutable.append(f"{name}.{attribute}")
    return mutable
