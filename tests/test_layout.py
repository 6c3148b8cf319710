"""The code keeps docs/design.md's shape: apps import only from the apps below them, no module
imports itself in a circle, and the edges (views) leave reads to selectors."""

import ast
from pathlib import Path

from tests.python_source import parsed

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("tcgsite", "guilds", "collection", "game", "tournaments", "starholds", "gamekit")
# docs/design.md, "Layout and layering": each app may import only from the apps before it.
APP_RANKS = {
    "tcgsite.accounts": 0,
    "tcgsite.lobbies": 1,
    "guilds": 2,
    "collection.cards": 3,
    "tcgsite.help": 3,
    "collection": 4,
    "collection.decks": 5,
    "collection.trades": 5,
    "collection.earnings": 5,
    "game": 6,
    "tournaments": 7,
}
LIBRARIES = ("game.engine", "game.ai", "starholds", "gamekit")
SKIPPED_FOLDERS = {"migrations", "__pycache__"}


def project_modules() -> dict[str, Path]:
    modules = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if SKIPPED_FOLDERS & set(path.parts):
                continue
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def imported_modules(path: Path, known: set[str]) -> set[str]:
    """The project modules ``path`` imports at any depth (function-level imports included)."""
    found = set()
    for node in ast.walk(parsed(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [f"{node.module}.{alias.name}" for alias in node.names] + [node.module]
        else:
            continue
        for name in names:
            while name and name not in known:
                name = name.rpartition(".")[0]
            if name:
                found.add(name)
    return found


def app_of(module: str) -> str | None:
    if module.startswith(LIBRARIES):
        return None
    apps = [app for app in APP_RANKS if module == app or module.startswith(app + ".")]
    return max(apps, key=len, default=None)


def import_graph() -> dict[str, set[str]]:
    modules = project_modules()
    return {name: imported_modules(path, set(modules)) - {name} for name, path in modules.items()}


def test_no_app_imports_from_an_app_above_it():
    upward = [
        f"{module} imports {target}"
        for module, targets in import_graph().items()
        for target in targets
        if (low := app_of(module)) and (high := app_of(target)) and APP_RANKS[high] > APP_RANKS[low]
    ]
    assert upward == []


def test_the_engine_and_the_computer_players_import_no_app():
    graph = import_graph()
    reaching = [
        f"{module} imports {target}"
        for module, targets in graph.items()
        if module.startswith(LIBRARIES)
        for target in targets
        if not target.startswith(LIBRARIES)
    ]
    assert reaching == []


def test_starholds_imports_only_itself_and_what_both_games_share():
    """The second game is a library of its own: not even the first game's engine. What both
    games share is in gamekit, which imports nothing else of the project."""
    reaching = [
        f"{module} imports {target}"
        for module, targets in import_graph().items()
        for package, allowed in (("starholds", ("starholds", "gamekit")), ("gamekit", ("gamekit",)))
        if module.startswith(package)
        for target in targets
        if not target.startswith(allowed)
    ]
    assert reaching == []


def test_no_import_circle():
    graph = import_graph()
    # A package's __init__ naturally "imports" nothing of its submodules here, so any cycle
    # found is a real circle between modules.
    circles = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for target in sorted(graph.get(module, ())):
            if state.get(target) == 1:
                circles.append(" -> ".join([*path[path.index(target) :], target]))
            elif target not in state:
                visit(target, [*path, target])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    assert circles == []


def test_views_leave_reads_to_selectors():
    """docs/design.md, "How code is written": no ORM query in a view."""
    querying = []
    for name, path in project_modules().items():
        if not (name.endswith(".views") or ".views." in name):
            continue
        for node in ast.walk(parsed(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr == "objects":
                querying.append(f"{name}:{node.lineno} uses .objects")
            if isinstance(node, ast.Name) and node.id == "get_object_or_404":
                querying.append(f"{name}:{node.lineno} uses get_object_or_404")
    assert querying == []


def test_which_cards_a_player_may_see_is_written_once():
    """The rule "printed, or made by this player" lives in Card's query set alone."""
    home = ROOT / "collection" / "cards" / "models.py"
    spelled = [
        f"{path.relative_to(ROOT)}"
        for path in project_modules().values()
        if path != home and "creator__isnull" in path.read_text(encoding="utf-8")
    ]
    assert spelled == []
