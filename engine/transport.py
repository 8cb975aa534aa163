"""Moving a memory between bots as a JSON document (seed 000's "memory dump").

Version 1 names each fact by its position, as people read it:

{"format": "ttt-memory", "version": 1,
 "facts": [{"position": "XO..X....", "outcome": "win"}, ...]}

That is tic-tac-toe's document, which this bot still writes. Any other game's names its
game and board, and writes positions as its game does (Connect Four: width × height
characters, row by row from the top):

{"format": "ttt-memory", "version": 1, "game": "connect4", "board": "4x4", "facts": [...]}

Version 2, which this bot writes for every game but tic-tac-toe, is compact: about 3
bytes a fact written without spaces, 7 with one a line, instead of 68 (a 5x4 memory of
285,000 lessons is 0.9 MB, not 19.5 MB). Its
facts are the positions' codes (``engine.Game.parse``: for Connect Four the bitboard of
:mod:`engine.connect4`), each in its canonical orientation, in increasing order; each
entry is ``(code - previous code - 1) * 2``, plus 1 for a loss (the previous code of the
first is -1):

{"format": "ttt-memory", "version": 2, "game": "connect4", "board": "5x4",
 "facts": [4183, 26, 3, ...]}

This bot reads both versions, of every game.

A document is accepted only if every fact proves itself from the document's own facts by
the learning rules (see :func:`engine.memory.prove`), about a position legal play can
reach. Every memory this engine learns or exports does; a forged or mistaken fact does
not, and would otherwise make a trained bot beatable again. The check reads a document
fact by fact (even its JSON, so that a thread doing it lets others run), and can report
its progress.
"""

from __future__ import annotations

import heapq
import json
from array import array
from collections.abc import Callable
from typing import Any

from .games import GAMES, Game, get_game
from .memory import LOST, OUTCOMES, WON, Memory, Outcome, new_table, prove
from .tables import sparse_data

FORMAT = "ttt-memory"
VERSION = 1
COMPACT = 2  # the compact version
VERSIONS = (VERSION, COMPACT)
Progress = Callable[[int, int], None]  # (facts checked, facts in all)
PROGRESS_EVERY = 10_000


class MemoryFormatError(ValueError):
    """A document that is not a valid memory; the message names the bad entry."""


def export_memory(memory: Memory, *, compact: bool | None = None) -> dict[str, Any]:
    """The memory as a document: compact (version 2) by default for every game but
    tic-tac-toe, whose documents stay as they always were."""
    game = memory.game
    if compact is None:
        compact = game.name != "tictactoe"
    document: dict[str, Any] = {"format": FORMAT, "version": COMPACT if compact else VERSION}
    if game.name != "tictactoe" or compact:
        document["game"] = game.document_game
        document["board"] = game.board
    if not compact:
        document["facts"] = [{"position": f.position, "outcome": f.outcome.value} for f in memory]
        return document
    facts, previous = [], -1
    for code, value in sorted((game.key_code(key), value) for key, value in memory.items()):
        facts.append((code - previous - 1) * 2 + (value == LOST))
        previous = code
    document["facts"] = facts
    return document


def document_game(document: dict[str, Any]) -> Game:
    """The game a document's ``"game"`` and ``"board"`` name (tic-tac-toe if neither)."""
    name = document.get("game", "tictactoe")
    board = document.get("board", "3x3" if name == "tictactoe" else None)
    for candidate in GAMES:
        game = get_game(candidate)
        if (game.document_game, game.board) == (name, board):
            return game
    raise MemoryFormatError(
        f'unknown "game" {name!r} on "board" {board!r}: this bot reads tictactoe (3x3) '
        "and connect4 (4x4 or 5x4)"
    )


def import_memory(
    document: dict[str, Any] | str | bytes,
    game: str | Game | None = None,
    *,
    max_facts: int | None = None,
    progress: Progress | None = None,
) -> Memory:
    """Build a memory from a document (a dict or its JSON text). With ``game``, the document
    must be of that game; with ``max_facts``, have at most that many facts. ``progress``
    is told how many facts are checked, now and then.

    Raises :class:`MemoryFormatError` naming the first bad entry; nothing is built then.
    """
    if isinstance(document, (str, bytes, bytearray)):
        document = read_document(document)
    if not isinstance(document, dict):
        raise MemoryFormatError("a memory document must be a JSON object")
    if document.get("format") != FORMAT:
        raise MemoryFormatError(f'"format" must be "{FORMAT}", got {document.get("format")!r}')
    version = document.get("version")
    if version not in VERSIONS or isinstance(version, bool):
        raise MemoryFormatError(f"unknown version {version!r}; this bot reads versions 1 and 2")
    found = document_game(document)
    if game is not None and get_game(game) is not found:
        raise MemoryFormatError(f"this is a {found.title} memory, not a {get_game(game).title} one")
    facts = document.get("facts")
    if not isinstance(facts, list):
        raise MemoryFormatError('"facts" must be a list')
    if max_facts is not None and len(facts) > max_facts:
        raise TooManyFacts(len(facts), max_facts)
    entries = (_compact if version == COMPACT else _spelled)(found, facts)
    return _checked(found, entries, progress)


class TooManyFacts(MemoryFormatError):
    def __init__(self, facts: int, limit: int) -> None:
        super().__init__(f"{facts} facts, more than {limit}")
        self.facts, self.limit = facts, limit


class NotJSONError(MemoryFormatError):
    """A document that is not JSON text (``detail``: the reader's reason), or is nested
    too deeply to read (``nested``)."""

    def __init__(self, detail: str, *, nested: bool = False) -> None:
        super().__init__(
            "not a memory: its JSON is nested too deeply" if nested else f"not JSON: {detail}"
        )
        self.detail, self.nested = detail, nested


def read_document(text: str | bytes | bytearray) -> Any:
    """A document's JSON, read value by value at its top level and fact by fact in its
    list of facts: no single step holds the interpreter long (reading a 20 MB document at
    once would hold it 0.2 s, and stall every other thread)."""
    if not isinstance(text, str):
        try:
            text = bytes(text).decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise NotJSONError(str(exc)) from None
    decode = json.JSONDecoder().raw_decode
    try:
        at = _skip(text, 0)
        if not text.startswith("{", at):
            document, at = decode(text, at)  # not an object: refused by the caller
        else:
            document, at = {}, _skip(text, at + 1)
            while not text.startswith("}", at):
                if document:
                    at = _skip(text, _expect(text, at, ","))
                key, at = decode(text, at)
                if not isinstance(key, str):
                    raise ValueError(f"a key must be a string at char {at}")
                at = _skip(text, _expect(text, _skip(text, at), ":"))
                if text.startswith("[", at):
                    document[key], at = _array(text, at, decode)
                else:
                    document[key], at = decode(text, at)
                at = _skip(text, at)
            at += 1
        if _skip(text, at) != len(text):
            raise ValueError(f"extra data at char {_skip(text, at)}")
    except RecursionError:
        raise NotJSONError("", nested=True) from None
    except ValueError as exc:
        raise NotJSONError(str(exc)) from None
    return document


def _skip(text: str, at: int) -> int:
    while at < len(text) and text[at] in " \t\n\r":
        at += 1
    return at


def _expect(text: str, at: int, char: str) -> int:
    if not text.startswith(char, at):
        raise ValueError(f"expected {char!r} at char {at}")
    return at + 1


def _array(text: str, at: int, decode) -> tuple[list, int]:
    """A JSON array, element by element."""
    values: list = []
    at = _skip(text, at + 1)
    while not text.startswith("]", at):
        if values:
            at = _skip(text, _expect(text, at, ","))
        value, at = decode(text, at)
        values.append(value)
        at = _skip(text, at)
    return values, at + 1


class Entries:
    """The entries to check, in flat lists (not an object each: 285,000 objects would make
    each of the garbage collector's full passes, which stall every thread, slow): each
    position's code, its value (WON or LOST), and the position as the document spells it
    (version 1; version 2's are spelled by the game when an error needs it)."""

    __slots__ = ("codes", "positions", "values")

    def __init__(self, spelled: bool) -> None:
        self.codes: list[int] = []
        self.values = bytearray()
        self.positions: list[str] | None = [] if spelled else None

    def position(self, index: int, game: Game) -> str:
        if self.positions is not None:
            return self.positions[index]
        return game.spell(self.codes[index])


def _spelled(game: Game, facts: list) -> Entries:
    """Version 1's entries, each read once: what is proven is exactly what is stored."""
    entries = Entries(spelled=True)
    for index, entry in enumerate(list(facts)):
        if not isinstance(entry, dict) or set(entry) != {"position", "outcome"}:
            raise MemoryFormatError(
                f'facts[{index}] must be an object with exactly "position" and "outcome"'
            )
        position, outcome = entry["position"], entry["outcome"]
        if outcome not in ("win", "loss"):
            raise MemoryFormatError(
                f'facts[{index}]: outcome must be "win" or "loss", got {outcome!r}'
            )
        try:
            code = game.parse(position, checked=False)  # reachability: checked below, faster
        except ValueError as exc:
            raise MemoryFormatError(f"facts[{index}]: {exc}") from None
        entries.codes.append(code)
        entries.values.append(WON if outcome == "win" else LOST)
        entries.positions.append(position)
    return entries


def _compact(game: Game, facts: list) -> Entries:
    """Version 2's entries: codes in increasing order, told by their gaps."""
    entries, code, limit = Entries(spelled=False), -1, 1 << game.code_bits
    codes, values = entries.codes, entries.values
    for index, entry in enumerate(facts):
        if type(entry) is not int or entry < 0:
            raise MemoryFormatError(f"facts[{index}] must be a whole number of at least 0")
        code += (entry >> 1) + 1
        if code >= limit:
            raise MemoryFormatError(f"facts[{index}] names a code beyond the {game.board} board's")
        codes.append(code)
        values.append(LOST if entry & 1 else WON)
    return entries


def _checked(game: Game, entries: Entries, progress: Progress | None) -> Memory:
    """The memory of ``entries``, each about a position legal play reaches and proven by
    the others; or :class:`MemoryFormatError` naming the first that is not."""
    codes, claims = entries.codes, entries.values
    total = 2 * len(codes)  # each is looked at twice: read, then proven
    seen: dict[int, int] = {}
    values: dict[int, int] = {}
    empty, moves_of, winner, key_of = game.empty, game.moves, game.winner, game.key

    def refuse(index: int, why: str) -> MemoryFormatError:
        position = entries.position(index, game)
        return MemoryFormatError(f"facts[{index}]: position {position!r} {why}")

    for index, code in enumerate(codes):
        if progress is not None and index % PROGRESS_EVERY == 0:
            progress(index, total)
        value = claims[index]
        if code == empty:
            raise MemoryFormatError(
                f"facts[{index}]: the empty board comes after no move, so it has no outcome"
            )
        if _reachable(game, code, seen) == UNREACHED:
            raise refuse(index, "cannot arise in a legal game")
        if moves_of(code) is None:
            if not winner(code):
                raise refuse(index, "is a finished draw, neither a win nor a loss")
            if value != WON:
                raise refuse(index, "completes a line, so it is a win for its mover")
        known = values.setdefault(key_of(code), value)
        if known != value:
            raise refuse(index, f"is already known as a {OUTCOMES[known].value}")
    seen.clear()
    known = values.get
    for index, code in enumerate(codes):
        if progress is not None and index % PROGRESS_EVERY == 0:
            progress(len(codes) + index, total)
        if prove(game, known, code) is not OUTCOMES[claims[index]]:
            why = _unproven(game, known, code)
            raise refuse(index, f"as a {OUTCOMES[claims[index]].value} is not proven by the "
                         f"document's own facts ({why})")  # fmt: skip
    if progress is not None:
        progress(total, total)
    return memory_of(game, values)


def memory_of(game: str | Game, values: dict[int, int]) -> Memory:
    """A memory of these keys' values (1 WON, 2 LOST), its table built at once: adding
    facts one by one to a memory that keeps only what it knows moves its whole table each
    time (hours for 285,000 facts). Its sorted table is made of sorted runs merged, so
    that no single step holds the interpreter long (one sort of 285,000: about 0.1 s)."""
    game = get_game(game)
    if game.slots is None:
        typecode = new_table(game).data.typecode
        items = list(values.items())
        runs = [
            sparse_data(typecode, dict(items[start : start + SORTED_RUN]))
            for start in range(0, len(items), SORTED_RUN)
        ]
        table = runs[0] if len(runs) == 1 else array(typecode, heapq.merge(*runs))
        return Memory.over(table if runs else new_table(game).data, game)
    table = new_table(game)
    for key, value in values.items():
        table.set(key, value)
    return Memory.over(table.data, game)


SORTED_RUN = 20_000


# what is known of a position reached or not
UNREACHED, OVER, OPEN = 0, 1, 2


def _reachable(game: Game, code: int, seen: dict[int, int]) -> int:
    """Whether legal play reaches ``code``, and goes on from it: :data:`UNREACHED`,
    :data:`OVER` or :data:`OPEN`. Play reaches a position from one a move before it that
    it reaches and that is open. ``seen`` keeps every answer, and a parent already
    seen is tried first: the facts of a memory share many of their ancestors."""
    found = seen.get(code)
    if found is not None:
        return found
    if code == game.empty:
        found = OPEN
    else:
        parents = game.parents(code)
        get = seen.get
        found = UNREACHED
        if any(get(parent) == OPEN for parent in parents):
            found = OPEN
        else:
            for parent in parents:
                if get(parent) is None and _reachable(game, parent, seen) == OPEN:
                    found = OPEN
                    break
        if found and game.winner(code):
            found = OVER
    seen[code] = found
    return found


def _unproven(game: Game, known, code: int) -> str:
    """Why the fact about ``code`` does not follow from ``known`` (it does not)."""
    if OUTCOMES[known(game.key(code))] is Outcome.LOSS:
        return "no reply to it is a known win"
    open_reply = next(child for _, child, key in game.moves(code) if known(key) != LOST)
    return f"the reply that gives {game.spell(open_reply)!r} is not a known loss"
