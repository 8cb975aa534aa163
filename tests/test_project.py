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
    for collaborator in ("challenges", "running", "servers", "scores", "endings", "facade"):
        assert f".{collaborator}" in imports_of(ROOT / "gameflow" / "service.py")


# the migration histories only grow, one step at a time, and are read as a history
HISTORIES = {"data/migrations.py", "data/postgres_migrations.py"}
LONGEST = 550


def test_no_file_but_the_tests_benches_and_migration_histories_passes_550_lines():
    """Split by concern before a file passes the bound (issue 32: three had)."""
    sources = [ROOT / "bot.py"]
    for package in (*LAYERS, "terminal"):
        sources += (ROOT / package).rglob("*.py")
    long = {
        str(path.relative_to(ROOT)): lines
        for path in sources
        if (lines := len(path.read_text().splitlines())) > LONGEST
    }
    assert long.keys() <= HISTORIES, long
    assert len(sources) > 80 and {"cogs/table.py", "gameflow/service.py"} <= {
        str(path.relative_to(ROOT)) for path in sources
    }


def test_no_name_is_defined_in_two_parts_of_the_cog_or_of_the_service():
    """The TicTacToe cog and the game service are each built from mixins: a name in two of
    them would hide one of the two (the first in the bases wins), with no error. And what
    each part says it needs, the whole has."""
    import inspect

    from cogs.table import Table
    from gameflow.service import GameService

    for whole in (Table, GameService):
        parts = [c for c in whole.__mro__ if c.__module__.split(".")[0] in LAYERS]
        assert len(parts) >= 3, whole
        owner: dict[str, str] = {}
        for part in parts:
            for name in vars(part):
                if name.startswith("__"):
                    continue
                assert name not in owner, f"{name} is in {owner[name]} and in {part.__name__}"
                owner[name] = part.__name__
        made = inspect.getsource(whole.__init__)
        for part in parts[1:]:
            for need in vars(part).get("__annotations__", {}):
                assigned = re.search(rf"self\.{need}\b[^=\n]*=", made)
                assert need in owner or assigned, f"{part.__name__} needs {need}"


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
    assert {"engine.games", "gameflow.service", "cogs.table"} <= graph.keys()
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
