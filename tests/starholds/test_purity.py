"""Starholds is a pure library (docs/design.md, "How code is written"): it imports nothing of
Django's nor of any app, and keeps no mutable state at module level (it runs on many threads)."""

import importlib
import pkgutil
import subprocess
import sys
import types
from pathlib import Path

import starholds

ROOT = Path(__file__).resolve().parents[2]
PROJECT_APPS = ("django", "tcgsite", "collection", "game", "guilds", "tournaments")


def starholds_modules() -> list[str]:
    return sorted(
        info.name for info in pkgutil.walk_packages(starholds.__path__, prefix="starholds.")
    )


def test_starholds_imports_nothing_of_django_nor_of_any_app():
    code = (
        f"import sys\nfor name in {starholds_modules()!r}: __import__(name)\n"
        f"print(sorted({{m.split('.')[0] for m in sys.modules}} & set({PROJECT_APPS!r})))"
    )

    result = subprocess.run(  # noqa: S603 (our own interpreter and code)
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )

    assert result.stdout.strip() == "[]"


def test_no_module_keeps_mutable_state():
    mutable = []
    for name in starholds_modules():
        module = importlib.import_module(name)
        for attribute, value in vars(module).items():
            if attribute.startswith("__") or isinstance(value, types.ModuleType):
                continue
            if isinstance(value, (list, dict, set, bytearray)):
                mutable.append(f"{name}.{attribute}")
    assert mutable == []
