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


def test_the_layers_import_one_way():
    """The engine knows no Discord and no database; only data speaks SQL; the game flow
    knows no Discord; inside it, the service imports its collaborators and none of them
    imports the service."""
    outside_engine = {"discord", "data", "gameflow", "cogs", "aiosqlite", "asyncpg"}
    for path in (ROOT / "engine").glob("*.py"):
        assert not {i for i in imports_of(path) if i.split(".")[0] in outside_engine}, path
    for path in (ROOT / "gameflow").glob("*.py"):
        assert not {i for i in imports_of(path) if i.split(".")[0] in ("discord", "cogs")}, path
    for path in (ROOT / "gameflow").glob("*.py"):
        if path.stem not in ("__init__", "service"):
            assert ".service" not in imports_of(path), path
    for collaborator in ("challenges", "running", "servers", "scores"):
        assert f".{collaborator}" in imports_of(ROOT / "gameflow" / "service.py")


PACKAGES = ("engine", "data", "gameflow", "cogs", "i18n", "terminal", "bench")


def module_imports() -> dict[str, set[str]]:
    """Each project module's imports of other project modules, as its top level makes
    them (``from . import x`` imports the submodule ``x``, not the package again)."""
    import ast

    modules = {"bot": ROOT / "bot.py"}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph = {}
    for name, path in modules.items():
        deps = set()
        for node in ast.parse(path.read_text()).body:
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


def test_no_module_imports_itself_back_through_others():
    """Imports run one way inside and between the packages: a circle would make a
    module's meaning depend on which one was imported first (issue 24)."""
    graph = module_imports()
    assert {"engine.games", "gameflow.service", "cogs.table"} <= graph.keys()
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
