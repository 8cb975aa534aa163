"""Every message the bot says in Discord, as the code writes it, gathered for translators.

``python -m i18n.extract`` writes the template ``i18n/messages.pot`` and brings every
catalog in ``i18n/locales/`` up to date with it: a new message is added untranslated, a
message the code no longer says is dropped. ``tests/test_i18n.py`` fails while any
catalog lacks a translation.

Messages come from two places:

- the code of :data:`SOURCES`: the first arguments of ``N_``, ``Nn_``, ``.t`` and ``.tn``
  (see :mod:`i18n`), which must be written out as strings, so that they can be found;
- the slash commands: their descriptions, their options' descriptions and choices
  (translated by :mod:`cogs.utils.translator`), read where :data:`COMMANDS` declares them. They
  are read, never imported: this package is below the Discord face, which imports it.
"""

from __future__ import annotations

import ast
import io
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("cogs", "gameflow")
TEMPLATE = Path(__file__).with_name("messages.pot")
LOCALES = Path(__file__).with_name("locales")
MARKERS = {"N_": 1, "Nn_": 2, "t": 1, "tn": 2}  # function name: how many texts it takes
COMMANDS = "cogs"  # where the slash commands are declared
# The calls that declare a slash command's texts, and which of their keywords hold texts
# (None: every one): discord.py's (app_commands.command, Group, describe, Choice; a
# GroupCog's group_description is a class keyword), and cogs.commands.GameFace's.
# A group's boards are the choices of its board option (a single board gives none): read
# from the game flow's records of them (BOARDS in gameflow/game.py).
DECLARING = {
    "command": {"description"},
    "Group": {"description"},
    "describe": None,
    "Choice": {"name"},
    "GameFace": {"about", "texts", "boards"},
}


@dataclass
class Message:
    text: str
    plural: str | None = None
    places: list[tuple[str, int]] = field(default_factory=list)
    command: bool = False  # a slash command's text: Discord takes at most 100 characters

    @property
    def key(self) -> tuple[str, str | None]:
        return self.text, self.plural


class Unfindable(Exception):
    """A marked message that is not written out as a string, so no tool can find it."""


def _name(call: ast.Call) -> str | None:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def in_code(root: Path = ROOT) -> Iterator[Message]:
    for source in SOURCES:
        for path in sorted((root / source).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
            where = str(path.relative_to(root))
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call) or _name(node) not in MARKERS:
                    continue
                if _name(node) in ("t", "tn") and not isinstance(node.func, ast.Attribute):
                    continue
                texts = node.args[: MARKERS[_name(node)]]
                if len(texts) < MARKERS[_name(node)] or not all(
                    isinstance(t, ast.Constant) and isinstance(t.value, str) for t in texts
                ):
                    raise Unfindable(f"{where}:{node.lineno}: a message must be a literal string")
                plural = texts[1].value if len(texts) > 1 else None
                yield Message(texts[0].value, plural, [(where, node.lineno)])


def in_commands(root: Path = ROOT) -> Iterator[Message]:
    """The slash commands' texts, as written where they are declared (a text made by code
    there is not found: ``tests/cogs/test_command_texts.py`` compares these with what
    Discord is sent)."""
    for path in sorted((root / COMMANDS).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        where = str(path.relative_to(root))
        # a module's own names, for a declaration that names a value set above it
        named = {
            target.id: node.value
            for node in tree.body
            if isinstance(node, ast.Assign)
            for target in node.targets
            if isinstance(target, ast.Name)
        }
        for node in ast.walk(tree):
            for keyword in _declaring(node):
                value = keyword.value
                if isinstance(value, ast.Name):
                    value = named.get(value.id, value)
                for text in _texts(keyword.arg, value):
                    yield Message(text.value, places=[(where, text.lineno)], command=True)
    if (root / BOARD_RECORDS).exists():
        yield from board_choices(root)


BOARD_RECORDS = "gameflow/game.py"


def board_choices(root: Path = ROOT) -> Iterator[Message]:
    """Each board's size as members pick it (``7x6``), where its command group has several
    boards: ``BoardRecord(game, size, command, …)`` as :data:`BOARD_RECORDS` writes them."""
    path = root / BOARD_RECORDS
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    groups: dict[str, list[ast.Constant]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _name(node) == "BoardRecord":
            _game, size, command = node.args[:3]
            groups.setdefault(command.value, []).append(size)
    for sizes in groups.values():
        for size in sizes if len(sizes) > 1 else ():
            yield Message(size.value, places=[(BOARD_RECORDS, size.lineno)], command=True)


def _declaring(node: ast.AST) -> list[ast.keyword]:
    """The keywords of ``node`` that hold a slash command's texts."""
    if isinstance(node, ast.ClassDef):
        return [k for k in node.keywords if k.arg == "group_description"]
    if not isinstance(node, ast.Call) or _name(node) not in DECLARING:
        return []
    wanted = DECLARING[_name(node)]
    return [k for k in node.keywords if k.arg and (wanted is None or k.arg in wanted)]


def _texts(keyword: str, value: ast.AST) -> list[ast.Constant]:
    nodes = [value]
    if isinstance(value, ast.Dict):  # the texts by command, or the boards: their choices
        several = len(value.keys) > 1
        nodes = value.values if keyword != "boards" else value.keys if several else []
    return [n for n in nodes if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def messages() -> list[Message]:
    """Every message, once, with every place that says it: in the template's order, new
    messages after, so that moving code to another file does not reorder the catalogs."""
    found: dict[tuple[str, str | None], Message] = {}
    for message in (*in_code(), *in_commands()):
        if message.key in found:
            found[message.key].places += message.places
            found[message.key].command |= message.command
        else:
            found[message.key] = message
    known = _template_order()
    return sorted(found.values(), key=lambda m: known.get(m.key, len(known)))


def _template_order() -> dict[tuple[str, str | None], int]:
    if not TEMPLATE.exists():
        return {}
    with TEMPLATE.open("rb") as f:
        ids = [m.id for m in read_po(f) if m.id]
    return {(i, None) if isinstance(i, str) else (i[0], i[1]): n for n, i in enumerate(ids)}


def template() -> Catalog:
    catalog = Catalog(
        project="ttt-learning-bot",
        version="0.1.0",
        fuzzy=False,
        header_comment="# The bot's messages, as the code writes them: a new language starts as a\n"
        "# copy of this file (see docs/languages.md). Made by python -m i18n.extract.",
    )
    for m in messages():
        catalog.add(m.text if m.plural is None else (m.text, m.plural), locations=m.places)
    return catalog


def _po(catalog: Catalog, **options) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=100, omit_header=False, **options)
    return out.getvalue()


def _dated(text: bytes) -> bytes:
    return b"\n".join(line for line in text.split(b"\n") if b"-Date:" not in line)


def main() -> int:
    pot = template()
    written = _po(pot, no_location=False)
    if not TEMPLATE.exists() or _dated(TEMPLATE.read_bytes()) != _dated(written):
        TEMPLATE.write_bytes(written)  # its date changes only with its messages
    for path in sorted(LOCALES.glob("*.po")):
        with path.open("rb") as f:
            catalog = read_po(f, locale=path.stem.replace("-", "_"))
        catalog.update(pot, no_fuzzy_matching=True)
        path.write_bytes(_po(catalog, no_location=True, ignore_obsolete=True))
    print(
        f"{len(pot)} messages; {TEMPLATE.relative_to(ROOT)} and "
        f"{len(list(LOCALES.glob('*.po')))} catalogs updated"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
