"""Moving a memory between bots as a JSON document (seed 000's "memory dump").

Version 1 names each fact by its position, as people read it:

{"format": "ttt-memory", "version": 1,
 "facts": [{"position": "XO..X....", "outcome": "win"}, ...]}

That is tic-tac-toe's document, which this bot still writes. Any other game's names its
game and board, and writes positions as its game does (Connect Four: width × height
characters, row by row from the top):

{"format": "ttt-memory", "version": 1, "game": "connect4", "board": "4x4", "facts": [...]}

Version 2, which this bot writes for every game but tic-tac-toe and the classic board,
is compact: about 3 bytes a fact written without spaces, 7 with one a line, instead of 68
(a 5x4 memory of 285,000 lessons is 0.9 MB, not 19.5 MB). Its facts are the positions'
codes (``engine.Game.parse``: for Connect Four the bitboard of :mod:`engine.connect4`),
each in its canonical orientation, in increasing order; each entry is
``(code - previous code - 1) * 2``, plus 1 for a loss (the previous code of the first is
-1):

{"format": "ttt-memory", "version": 2, "game": "connect4", "board": "5x4",
 "facts": [4183, 26, 3, ...]}

This bot reads both versions, of every game (a version 2 document of the classic board
has no distances: the solver gives them).

The classic board (7×6) is written in version 1, as people read it, each fact with its
distance: ``"plies"``, from the position to the end under perfect play (version 2 when
asked for, ``compact=True``: a memory too big for one file as people read it, about 106
bytes a fact, loses nothing by it, since an import re-proves every distance):

{"format": "ttt-memory", "version": 1, "game": "connect4", "board": "7x6",
 "facts": [{"position": "...42 characters...", "outcome": "loss", "plies": 9}, ...]}

Its facts are too far from the end for the rules to prove, so an import re-proves each
with the exact solver (:mod:`engine.solver`): its outcome and its distance (a fact without
one takes the solver's). That is about 1 ms of CPU a fact, in the calling process; the
bot runs it in a worker process, since the solver holds the GIL.

Any other game's document is accepted only if every fact proves itself from the document's
own facts by the learning rules (see :func:`engine.memory.prove`), about a position legal play can
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

from . import solver  # it loads bitbully only when first asked
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


class WrongGameError(MemoryFormatError):
    """A memory of another game than the one asked for: ``found`` is the file's."""

    def __init__(self, found: Game, wanted: Game) -> None:
        super().__init__(f"this is a {found.title} memory, not a {wanted.title} one")
        self.found = found


def export_memory(memory: Memory, *, compact: bool | None = None) -> dict[str, Any]:
    """The memory as a document: compact (version 2) by default for every game but
    tic-tac-toe, whose documents stay as they always were, and the classic board, whose
    version 1 keeps each fact's distance (``compact=True``: version 2, without them)."""
    game = memory.game
    if compact is None:
        compact = game.name != "tictactoe" and not game.classic
    document: dict[str, Any] = {"format": FORMAT, "version": COMPACT if compact else VERSION}
    if game.name != "tictactoe" or compact:
        document["game"] = game.document_game
        document["board"] = game.board
    if game.classic and not compact:
        document["facts"] = [_classic_entry(f) for f in memory]
        return document
    if not compact:
        document["facts"] = [{"position": f.position, "outcome": f.outcome.value} for f in memory]
        return document
    facts, previous = [], -1
    for code, value in sorted((game.key_code(key), value) for key, value in memory.items()):
        facts.append((code - previous - 1) * 2 + (value == LOST))
        previous = code
    document["facts"] = facts
    return document


def _classic_entry(fact) -> dict[str, Any]:
    entry = {"position": fact.position, "outcome": fact.outcome.value}
    if fact.distance is not None:
        entry["plies"] = fact.distance
    return entry


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
        "and connect4 (4x4, 5x4 or 7x6)"
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
        raise WrongGameError(found, get_game(game))
    facts = document.get("facts")
    if not isinstance(facts, list):
        raise MemoryFormatError('"facts" must be a list')
    if max_facts is not None and len(facts) > max_facts:
        raise TooManyFacts(len(facts), max_facts)
    entries = (_compact if version == COMPACT else _spelled)(found, facts)
    if found.classic:
        return _solved(found, entries, progress)
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

    __slots__ = ("codes", "plies", "positions", "values")

    def __init__(self, spelled: bool) -> None:
        self.codes: list[int] = []
        self.values = bytearray()
        self.positions: list[str] | None = [] if spelled else None
        self.plies: list[int | None] = []  # the classic board's distances, None if not given

    def position(self, index: int, game: Game) -> str:
        if self.positions is not None:
            return self.positions[index]
        return game.spell(self.codes[index])


def _spelled(game: Game, facts: list) -> Entries:
    """Version 1's entries, each read once: what is proven is exactly what is stored."""
    entries = Entries(spelled=True)
    fields = {"position", "outcome"}
    for index, entry in enumerate(list(facts)):
        if not isinstance(entry, dict) or not (
            set(entry) == fields or (game.classic and set(entry) == {*fields, "plies"})
        ):
            raise MemoryFormatError(
                f'facts[{index}] must be an object with exactly "position" and "outcome"'
                + (' (and "plies")' if game.classic else "")
            )
        position, outcome = entry["position"], entry["outcome"]
        plies = entry.get("plies")
        if plies is not None and (type(plies) is not int or not 0 <= plies <= game.move_count * 6):
            raise MemoryFormatError(f"facts[{index}]: plies must be a whole number, got {plies!r}")
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
        entries.plies.append(plies)
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
        entries.plies.append(None)
    return entries


def _refusal(game: Game, entries: Entries):
    def refuse(index: int, why: str) -> MemoryFormatError:
        position = entries.position(index, game)
        return MemoryFormatError(f"facts[{index}]: position {position!r} {why}")

    return refuse


def _read(
    game: Game, entries: Entries, progress: Progress | None, seen: dict[int, int]
) -> dict[int, int]:
    """The first look at every entry (half of the progress): each about a position legal
    play reaches, not a draw, not claimed both ways; its values by key."""
    codes, claims = entries.codes, entries.values
    total = 2 * len(codes)  # each is looked at twice: read, then proven
    values: dict[int, int] = {}
    empty, moves_of, winner, key_of = game.empty, game.moves, game.winner, game.key
    refuse = _refusal(game, entries)
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
    return values


def _checked(game: Game, entries: Entries, progress: Progress | None) -> Memory:
    """The memory of ``entries``, each about a position legal play reaches and proven by
    the others; or :class:`MemoryFormatError` naming the first that is not."""
    codes, claims = entries.codes, entries.values
    total = 2 * len(codes)
    seen: dict[int, int] = {}
    values = _read(game, entries, progress, seen)
    refuse = _refusal(game, entries)
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


def _solved(game: Game, entries: Entries, progress: Progress | None) -> Memory:
    """The classic board's memory of ``entries``, each re-proven by the exact solver, its
    outcome and its distance; or :class:`MemoryFormatError` naming the first that is not."""
    if not solver.solver_available():
        raise MemoryFormatError(
            "the classic board's facts are re-proven by the solver, and this machine has none "
            "(bitbully is not installed)"
        )
    codes, claims, distances = entries.codes, entries.values, entries.plies
    total = 2 * len(codes)
    seen: dict[int, int] = {}
    _read(game, entries, progress, seen)
    refuse = _refusal(game, entries)
    scored: dict[int, dict] = {}  # by canonical parent: a post-mortem's facts are siblings
    proven: list[tuple[int, str, int]] = []
    for index, code in enumerate(codes):
        if progress is not None and index % PROGRESS_EVERY == 0:
            progress(len(codes) + index, total)
        truth = _solver_fact(game, code, seen, scored, solver)
        claim, plies = OUTCOMES[claims[index]].value, distances[index]
        if truth is None:
            raise refuse(index, f"as a {claim} is a draw under perfect play (the solver)")
        if truth[0] != claim:
            raise refuse(index, f"as a {claim} is a {truth[0]} for its mover (the solver)")
        if plies is not None and plies != truth[1]:
            raise refuse(
                index, f"as a {claim} in {plies} plies ends in {truth[1]} under perfect play "
                "(the solver)"
            )  # fmt: skip
        proven.append((game.key(code), claim, truth[1]))
    if progress is not None:
        progress(total, total)
    memory = Memory(game=game)
    memory.add_proven(proven)
    return memory


def _solver_fact(game: Game, code: int, seen: dict[int, int], scored: dict, solver):
    """The solver's fact about the reachable position ``code``: ``(outcome for its mover,
    plies to the end)``, or ``None`` for a draw. It scores a parent that play reaches and
    that goes on (once for all the children of a canonical parent)."""
    if game.moves(code) is None:
        return ("win", 0)  # reachable and finished, not a draw: the read checked it
    parents = [parent for parent in game.parents(code) if seen.get(parent) == OPEN]
    parents.sort(key=lambda parent: game.canonical(parent) not in scored)
    parent = parents[0]
    column = next(move for move, child, _ in game.moves(parent) if child == code)
    canonical = game.canonical(parent)
    if canonical != parent:
        column = game.width - 1 - column  # the mirror's column
    if canonical not in scored:
        scored[canonical] = solver.score_all(canonical)
    return scored[canonical][column]


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
