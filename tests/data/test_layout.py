"""How data/ is laid out: one module per family of queries, mixed into one Store."""

from pathlib import Path

from data import Store
from tests.test_project import imports_of

DATA = Path(__file__).resolve().parents[2] / "data"


def test_no_name_is_defined_in_two_families_of_queries():
    """Store is built from mixins: a name in two of them would hide one of the two (the
    first in Store's bases wins), with no error."""
    owner: dict[str, str] = {}
    for family in Store.__mro__[:-1]:  # Store and its mixins, not object
        for name in vars(family):
            if name.startswith("__"):
                continue
            assert name not in owner, f"{name} is in {owner[name]} and in {family.__name__}"
            owner[name] = family.__name__
    assert owner["_write"] == "Store"
    assert owner["start_game"] == "GameQueries" and owner["record"] == "StatsQueries"


def test_what_each_family_needs_the_store_has():
    for family in Store.__mro__[1:-1]:
        for need in vars(family).get("__annotations__", {}):
            assert callable(getattr(Store, need, None)), f"{family.__name__} needs {need}"


def test_the_data_modules_import_each_other_one_way():
    """Inside data/, modules import their siblings, never the package (whose __init__
    imports them all), and no two import each other, however indirectly."""
    modules = {path.stem: imports_of(path) for path in DATA.glob("*.py")}
    siblings: dict[str, set[str]] = {}
    for name, imports in modules.items():
        assert not {"data", "."} & imports, f"data/{name}.py imports the package"
        inside = (i for i in imports if i.startswith((".", "data.")))
        siblings[name] = {i.removeprefix("data.").removeprefix(".") for i in inside}
    assert siblings["store"] >= {"games", "memory", "stats", "servers", "challenges"}

    def follow(path: tuple[str, ...]) -> None:
        for sibling in siblings[path[-1]]:
            assert sibling not in path, f"an import circle: {' → '.join([*path, sibling])}"
            follow((*path, sibling))

    for name in siblings:
        follow((name,))


def test_no_data_module_is_over_550_lines():
    long = {
        path.name: lines
        for path in DATA.glob("*.py")
        if (lines := len(path.read_text().splitlines())) > 550
    }
    assert not long, long
