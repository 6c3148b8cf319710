"""The compiled engine and its sources: ``make engine`` compiles the busiest modules with
mypyc; the package imports the sources instead when one changed since, or when asked to."""

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
PACKAGE = ROOT / "game" / "engine"
COMPILED = sorted(PACKAGE.glob("*.so"))
# What `make engine` last compiled, by the stamp it leaves.
STAMP = PACKAGE / ".compiled"
COMPILED_SINCE_EDIT = STAMP.exists() and all(
    source.stat().st_mtime <= STAMP.stat().st_mtime for source in PACKAGE.glob("*.py")
)

needs_compiled = pytest.mark.skipif(not COMPILED, reason="the engine is not compiled")


def loaded_from(root: Path, module: str, **environment: str) -> tuple[str, str]:
    """The file ``module`` is imported from in a fresh interpreter, and what it warned."""
    result = subprocess.run(  # noqa: S603 (this interpreter, a fixed module name)
        [sys.executable, "-c", f"import {module} as m; print(m.__file__)"],
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root), **environment},
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout.strip(), result.stderr


@pytest.mark.skipif(not COMPILED_SINCE_EDIT, reason="an engine source changed since make engine")
def test_the_compiled_modules_are_imported_when_current():
    loaded, warned = loaded_from(ROOT, "game.engine.rules", ENGINE_SOURCES="")

    assert loaded.endswith(".so")
    assert warned == ""


def test_engine_sources_set_imports_the_sources():
    loaded, _ = loaded_from(ROOT, "game.engine.rules", ENGINE_SOURCES="1")

    assert loaded == str(PACKAGE / "rules.py")


@needs_compiled
def test_a_source_changed_since_compiling_is_imported_instead_with_a_warning(tmp_path):
    copy = tmp_path / "game" / "engine"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "game" / "__init__.py", tmp_path / "game" / "__init__.py")
    # The engine imports the helpers both games share.
    shutil.copytree(
        ROOT / "gamekit", tmp_path / "gamekit", ignore=shutil.ignore_patterns("__pycache__")
    )
    for shared in ROOT.glob("*__mypyc.*.so"):
        shutil.copy(shared, tmp_path)
    for source in copy.glob("*.py"):
        os.utime(source, (0, 0))
    later = time.time() + 60
    os.utime(copy / "select.py", (later, later))

    loaded, warned = loaded_from(tmp_path, "game.engine.rules", ENGINE_SOURCES="")

    assert loaded == str(copy / "rules.py")
    assert "older than their sources (select)" in warned
    assert "make engine" in warned
