"""No mutable state at module or class level in the engine (docs/style.md, "The state is the only
state"): a web process plays many games on many threads, and one game must never see what
another left behind. Tables are tuples, frozensets or ``MappingProxyType``; caches belong to
one game (``State.caches``)."""

import ast
from pathlib import Path

import pytest

from tests.python_source import parsed

PACKAGE = Path(__file__).resolve().parents[3] / "game" / "engine"
MODULES = sorted(PACKAGE.glob("*.py"))
MUTABLE_LITERALS = (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)
MUTABLE_TYPES = {"dict", "list", "set", "bytearray", "defaultdict", "OrderedDict", "Counter"}


def shared_statements(body: list[ast.stmt]):
    """The statements run once for the whole process: a module's, and its classes' bodies."""
    for statement in body:
        yield statement
        if isinstance(statement, ast.ClassDef | ast.If | ast.Try):
            yield from shared_statements(statement.body)
        if isinstance(statement, ast.If | ast.Try):
            yield from shared_statements(statement.orelse)


def is_mutable(value: ast.expr | None) -> bool:
    if isinstance(value, MUTABLE_LITERALS):
        return True
    if isinstance(value, ast.Call):
        called = value.func
        name = called.attr if isinstance(called, ast.Attribute) else getattr(called, "id", "")
        return name in MUTABLE_TYPES
    return False


def mutable_state(source: str) -> list[str]:
    tree = parsed(source)
    found = [
        f"line {node.lineno}: global {', '.join(node.names)}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Global)
    ]
    for statement in shared_statements(tree.body):
        if isinstance(statement, ast.Assign | ast.AnnAssign | ast.AugAssign) and is_mutable(
            statement.value
        ):
            found.append(f"line {statement.lineno}: {ast.unparse(statement)[:60]}")
    return found


@pytest.mark.parametrize("module", MODULES, ids=[module.stem for module in MODULES])
def test_an_engine_module_keeps_no_mutable_state_outside_the_game(module):
    assert mutable_state(module.read_text()) == []


def test_mutable_state_at_module_or_class_level_is_found():
    source = (
        "TABLE = {'a': 1}\n"
        "SEEN: list[int] = []\n"
        "class Cache:\n"
        "    entries = dict()\n"
        "def remember():\n"
        "    global SEEN\n"
        "    local = {}\n"
    )

    assert mutable_state(source) == [
        "line 6: global SEEN",
        "line 1: TABLE = {'a': 1}",
        "line 2: SEEN: list[int] = []",
        "line 4: entries = dict()",
    ]


def test_read_only_tables_are_not_mutable_state():
    source = (
        "from types import MappingProxyType\n"
        "KINDS = ('keep', 'pass')\n"
        "TABLE = MappingProxyType({'a': 1})\n"
        "NAMES = frozenset({'a'})\n"
    )

    assert mutable_state(source) == []
