"""The rules engine: pure Python that imports nothing from Django (docs/design.md, "The rules
engine contract"). State is plain data, randomness comes from a seed, so a seed and the
applied actions reproduce a game exactly.

``make engine`` compiles the busiest modules to C extensions with mypyc, from these same
sources (README.md, "Development"). The sources are imported instead whenever one of
them is newer than its compiled module, so an edit always takes effect before the next
``make``, or when ``ENGINE_SOURCES=1`` is set (to profile or debug the Python).
"""

import os
import sys
import warnings
from importlib.abc import MetaPathFinder
from importlib.util import spec_from_file_location
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def _stale_modules() -> list[str]:
    """The compiled modules whose source changed after they were compiled."""
    stale = []
    for compiled in _PACKAGE.glob("*.so"):
        source = _PACKAGE / f"{compiled.name.split('.')[0]}.py"
        if not source.exists() or source.stat().st_mtime > compiled.stat().st_mtime:
            stale.append(source.stem)
    return stale


class _Sources(MetaPathFinder):
    """Finds the engine's modules as Python sources, ahead of the compiled ones."""

    def find_spec(self, name, path=None, target=None):
        package, _, module = name.rpartition(".")
        source = _PACKAGE / f"{module}.py"
        if package != __name__ or not source.exists():
            return None
        return spec_from_file_location(name, source)


def _use_sources() -> bool:
    if os.environ.get("ENGINE_SOURCES"):
        return True
    stale = _stale_modules()
    if stale:
        warnings.warn(
            f"the engine's compiled modules are older than their sources ({', '.join(stale)}):"
            " running the sources; `make engine` compiles them again",
            stacklevel=2,
        )
    return bool(stale)


if _use_sources():
    sys.meta_path.insert(0, _Sources())
