"""The project's own promises about itself."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ci_runs_exactly_the_readmes_test_command():
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Run the tests", 1)[1]
    command = re.search(r"```bash\n(.+?)\n```", section, re.S).group(1).strip()
    ci_lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    assert command in ci_lines
    assert "pytest" in command and 'install -e ".[test]"' in command


def test_the_runtime_database_and_the_env_file_are_ignored_by_git():
    ignored = (ROOT / ".gitignore").read_text().splitlines()
    assert ".env" in ignored
    assert any(line.startswith("data/") and "sqlite3" in line for line in ignored)


def test_discord_py_reads_json_with_orjson():
    """An installed bot reads Discord's JSON with orjson, as bench.lean measured it: a
    fifth of its CPU per move goes without it."""
    import discord.utils

    assert discord.utils.HAS_ORJSON


def imports_of(path: Path) -> set[str]:
    """The modules a Python file imports (``from .x import`` as ``.x``), at any depth."""
    import ast

    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            found.add("." * node.level + (node.module or ""))
    return found


# What each layer may import of the project, and of the libraries that belong to one
# layer: the engine and the languages know nothing of the others, only data speaks SQL,
# only the Discord face knows Discord (the command line and bot.py sit above them all).
LAYERS = {
    "engine": set(),
    "i18n": set(),
    "data": {"engine"},
    "gameflow": {"data", "engine", "i18n"},
    "cogs": {"gameflow", "data", "engine", "i18n"},
}
PROJECT = {*LAYERS, "terminal", "bench", "bot", "tests"}
OWNED = {"discord": "cogs", "aiosqlite": "data", "asyncpg": "data"}


def layer_imports(package: str) -> dict[str, set[str]]:
    """Each module of ``package`` (at any depth): the packages it imports, anywhere in it
    (a function's own import too), its own package left out."""
    found = {}
    for path in (ROOT / package).rglob("*.py"):
        tops = {name.split(".")[0] for name in imports_of(path) if not name.startswith(".")}
        found[str(path.relative_to(ROOT))] = tops - {package}
    return found


def test_the_layers_import_one_way():
    """Each layer imports only the layers below it, i18n included: the message extractor
    reads the slash commands where they are declared, without importing the Discord face."""
    for package, below in LAYERS.items():
        for module, imported in layer_imports(package).items():
            assert imported & PROJECT <= below, module
            assert all(OWNED[lib] == package for lib in imported & OWNED.keys()), module
    assert "cogs" not in imports_of(ROOT / "i18n" / "extract.py")


def test_inside_the_game_flow_the_service_imports_its_collaborators_one_way():
    """The service imports its collaborators and the parts it is built from; none of them
    imports the service."""
    for path in (ROOT / "gameflow").glob("*.py"):
        if path.stem not in ("__init__", "service"):
            assert ".service" not in imports_of(path), path
    for collaborator in ("challenges", "running", "servers", "scores", "endings", "puzzles"):
        assert f".{collaborator}" in imports_of(ROOT / "gameflow" / "service.py")


LONGEST = 550


def test_no_file_but_the_tests_and_benches_passes_550_lines():
    """Split by concern before a file passes the bound (issue 32: three had)."""
    sources = [ROOT / "bot.py"]
    for package in (*LAYERS, "terminal"):
        sources += (ROOT / package).rglob("*.py")
    long = {
        str(path.relative_to(ROOT)): lines
        for path in sources
        if (lines := len(path.read_text().splitlines())) > LONGEST
    }
    assert not long, long  # the schema histories too: split by era (data/sqlite_steps*.py)
    assert len(sources) > 80 and {"cogs/play/cog.py", "gameflow/service.py"} <= {
        str(path.relative_to(ROOT)) for path in sources
    }


def test_no_name_is_defined_in_two_parts_of_the_service():
    """The game service is built from its flow and how a game ends (gameflow.endings): a
    name in both would hide one of the two (the first in the bases wins), with no error.
    And what each part says it needs, the whole has."""
    import inspect

    from gameflow.service import GameService

    parts = [c for c in GameService.__mro__ if c.__module__.split(".")[0] in LAYERS]
    assert len(parts) >= 2
    owner: dict[str, str] = {}
    for part in parts:
        for name in vars(part):
            if name.startswith("__"):
                continue
            assert name not in owner, f"{name} is in {owner[name]} and in {part.__name__}"
            owner[name] = part.__name__
    made = inspect.getsource(GameService.__init__)
    for part in parts[1:]:
        for need in vars(part).get("__annotations__", {}):
            assigned = re.search(rf"self\.{need}\b[^=\n]*=", made)
            assert need in owner or assigned, f"{part.__name__} needs {need}"


# The Discord face by feature: feature X is cogs/X/ (+ gameflow/X.py, data/X.py); utils/
# is what every feature shares, commands.py declares the slash groups over them.
FEATURES = {"play", "replays", "scores", "puzzles", "brain", "admin", "servers", "pictures"}


def test_the_discord_face_is_a_package_per_feature():
    loose = {p.name for p in (ROOT / "cogs").glob("*.py")}
    assert loose == {"__init__.py", "commands.py"}
    packages = {p.name for p in (ROOT / "cogs").iterdir() if p.is_dir() and p.name[0] != "_"}
    assert packages == FEATURES | {"utils"}
    for package in packages:
        assert (ROOT / "cogs" / package / "__init__.py").exists(), package
    # what every feature shares knows none of them
    for path in (ROOT / "cogs" / "utils").glob("*.py"):
        uses = {name for name in imports_of(path) if name.startswith("cogs.")}
        assert {name.split(".")[1] for name in uses} <= {"utils"}, path


def test_no_cog_is_built_from_another_class_of_the_project():
    """A cog holds what it needs; what two features share is an object both are given
    (bot.py), never a mixin, nor another cog looked up by name."""
    import importlib
    import inspect

    from discord.ext import commands

    cogs = []
    for path in (ROOT / "cogs").rglob("*.py"):
        module = importlib.import_module(".".join(path.relative_to(ROOT).with_suffix("").parts))
        cogs += [c for _, c in inspect.getmembers(module, inspect.isclass)
                 if issubclass(c, commands.Cog) and c.__module__ == module.__name__]  # fmt: skip
    assert len(cogs) >= len(FEATURES) - 1  # pictures is a process, not a cog
    for cog in cogs:
        ours = [c for c in cog.__mro__[1:] if c.__module__.split(".")[0] in PROJECT]
        assert not ours, f"{cog.__name__} derives from {ours}"
    for path in (ROOT / "cogs").rglob("*.py"):
        assert "get_cog(" not in path.read_text(), path


def test_no_module_but_a_package_init_only_passes_names_on():
    """A module that only re-exports is a second door to one room (gameflow.facade was
    one): callers import from where a thing is defined."""
    import ast

    for package in (*LAYERS, "terminal", "bench"):
        for path in (ROOT / package).rglob("*.py"):
            if path.name == "__init__.py":
                continue
            body = ast.parse(path.read_text()).body
            own = [
                node
                for node in body
                if not isinstance(node, ast.Import | ast.ImportFrom)
                and not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))
                and not (
                    isinstance(node, ast.Assign)
                    and [getattr(t, "id", None) for t in node.targets] == ["__all__"]
                )
            ]
            assert own, f"{path.relative_to(ROOT)} only passes names on"


def test_the_terminal_stands_apart_from_the_discord_face():
    """``python -m terminal`` imports neither bot.py nor cogs/, nor discord.py: what it
    shares with Discord (board names, the words of a replay and a verdict, the settings)
    lives below both."""
    import os
    import subprocess
    import sys

    for module, imported in layer_imports("terminal").items():
        assert not imported & {"bot", "cogs", "discord"}, module
    env = {**os.environ, "DATABASE_PATH": "", "PYTHONPATH": str(ROOT)}
    played = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "terminal", "--board", "7x6", "play"],
        input="4\nq\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**env, "HOME": str(ROOT / ".no-home")},
        timeout=120,
    )
    assert played.returncode == 0, played.stderr[-2000:]
    assert "1 2 3 4 5 6 7" in played.stdout  # it played
    imported = {line.split("|")[-1].strip() for line in played.stderr.splitlines() if "|" in line}
    assert "engine" in imported and "gameflow" in imported
    assert not {m for m in imported if m.split(".")[0] in ("discord", "cogs", "bot")}


def test_every_registry_of_boards_names_exactly_the_engines_boards():
    """A new board is its rules module, one entry in engine.GAMES, one record in the game
    flow (gameflow.game.BOARDS) and one look in the Discord face (cogs.utils.boards.LOOKS):
    no other map names boards."""
    from cogs.commands import FACES
    from cogs.utils.boards import LOOKS
    from engine import GAMES
    from gameflow.game import BOARDS
    from terminal.common import BOARDS as SIZES

    assert set(BOARDS) == set(LOOKS) == set(GAMES)
    assert all(record.game == game for game, record in BOARDS.items())
    assert [g for face in FACES for g in face.boards.values()] == list(BOARDS)
    assert set(SIZES.values()) == set(GAMES)
    # no module but those names a board's engine name as a key of a map of its own
    names = "|".join(map(re.escape, GAMES))
    named = re.compile(rf'^\s*"({names})"\s*:', re.M)
    for package in ("cogs", "gameflow", "terminal", "data"):
        for path in (ROOT / package).rglob("*.py"):
            if str(path.relative_to(ROOT)) != "cogs/utils/boards.py":
                assert not named.search(path.read_text()), path


PACKAGES = ("engine", "data", "gameflow", "cogs", "i18n", "terminal", "bench")


def project_modules() -> dict[str, Path]:
    """Each project module by its dotted name, and its file."""
    modules = {"bot": ROOT / "bot.py"}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


def module_imports(anywhere: bool = False) -> dict[str, set[str]]:
    """Each project module's imports of other project modules, as its top level makes
    them (``anywhere``: a function's own imports too; ``from . import x`` imports the
    submodule ``x``, not the package again)."""
    import ast

    modules = project_modules()
    graph = {}
    for name, path in modules.items():
        deps = set()
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree) if anywhere else tree.body:
            if isinstance(node, ast.Import):
                deps.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
                    here = here[: len(here) - node.level + 1]
                    base = ".".join(here + ([node.module] if node.module else []))
                subs = {f"{base}.{alias.name}" for alias in node.names} & modules.keys()
                deps |= subs if len(subs) == len(node.names) else {base, *subs}
        graph[name] = {dep for dep in deps if dep in modules and dep != name}
    return graph


def assert_no_circle(graph: dict[str, set[str]]) -> None:
    """No module of ``graph`` reaches itself again through its imports."""
    done: set[str] = set()

    def walk(module: str, path: list[str]) -> None:
        if module in path:
            raise AssertionError(" -> ".join([*path[path.index(module) :], module]))
        if module in done:
            return
        for dep in sorted(graph[module]):
            walk(dep, [*path, module])
        done.add(module)

    for module in sorted(graph):
        walk(module, [])


def test_no_module_imports_itself_back_through_others():
    """Imports run one way inside and between the packages: a circle would make a
    module's meaning depend on which one was imported first (issue 24)."""
    graph = module_imports()
    assert {"engine.games", "gameflow.service", "cogs.play.cog"} <= graph.keys()
    assert_no_circle(graph)


def test_no_benchmark_imports_another_nor_itself_back():
    """In bench/, a function's own imports counted too (issue 39: six benchmarks imported
    each other, bench/bot.py both an entry point and the others' library): the entry points
    (``python -m bench.X``) share their helpers through modules of their own, none imports
    another (one runs another in a process of its own), and no import circle runs through
    bench/."""
    modules = project_modules()
    graph = {
        name: {dep for dep in deps if dep.startswith("bench.")}
        for name, deps in module_imports(anywhere=True).items()
        if name.startswith("bench.")
    }
    entry_points = {
        name for name in graph if 'if __name__ == "__main__":' in modules[name].read_text()
    }
    assert {"bench.bot", "bench.scale", "bench.lean", "bench.loop"} <= entry_points
    for module, deps in graph.items():
        assert not deps & entry_points, f"{module} imports {sorted(deps & entry_points)}"
    assert_no_circle(graph)
