"""A server's brain as a whole: its figures, export, and proof-checked import.

An import is two steps, because an admin sees what would change before anything does:
:meth:`Brain.plan_import` reads and checks the file and says what it would do;
:meth:`Brain.apply_import` does it under the server's lock, against the memory as it
is by then (games may have taught the bot something in between).
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, Literal

import engine
from data import ClassicFacts, Snapshot, Store
from engine import Board, Mark, Memory
from engine.memory import OUTCOMES, WON
from engine.transport import NotJSONError, TooManyFacts, memory_of
from i18n import N_, Msg, Nn_

from . import worker
from .brain_view import BrainView, view_of
from .errors import GameError, busy_means_unchanged
from .game import BOARDS
from .memories import IN_THREAD_FROM, TICTACTOE, ServerMemories, classic_facts
from .ratings import imported

ImportMode = Literal["merge", "replace"]
IMPORT_MODES = ("merge", "replace")
Progress = Callable[[int, int], None]  # (steps done, steps in all), told on the event loop


@dataclass(frozen=True, slots=True)
class BrainFigures:
    """What people want to know about a memory: lessons, and the ways to beat it."""

    lessons: int
    ways_to_beat_as_x: int | None  # opponent lines that beat the bot playing X (None:
    ways_to_beat_as_o: int | None  # not counted, see engine.Game.searchable_per_game)

    def snapshot(self) -> Snapshot:
        """These figures as a point of the learning curve."""
        return Snapshot(self.lessons, self.ways_to_beat_as_x, self.ways_to_beat_as_o)

    @classmethod
    def of(cls, memory: Memory) -> BrainFigures:
        """Counted in full, whatever the game (Connect Four 5x4: about 70 ms); the classic
        board has no count (``None``: its tree is too large to search)."""
        if not memory.game.searchable:
            return cls(len(memory), None, None)
        return cls(
            len(memory),
            engine.analyse(memory, Mark.X).losing_lines,
            engine.analyse(memory, Mark.O).losing_lines,
        )

    @classmethod
    async def counted(cls, memory: Memory) -> BrainFigures:
        """:meth:`of`, in a thread on a copy for a game too large to search on the event
        loop (the loop goes on meanwhile, and the memory may learn). The figures of the
        last memories counted so are kept until they learn: a 5x4 count takes about
        70 ms, and stats are asked again and again of a memory that has not changed."""
        if memory.game.searchable_per_game and len(memory) < IN_THREAD_FROM:
            return cls.of(memory)
        kept = _COUNTED.get(id(memory))
        if kept is not None and kept[0] is memory and kept[1] == memory.changes:
            _COUNTED.move_to_end(id(memory))
            return kept[2]
        changes = memory.changes
        figures = await asyncio.to_thread(cls.of, memory.copy())
        if memory.changes == changes:
            # the memory itself is kept with its figures, so that its id is not reused
            _COUNTED[id(memory)] = (memory, changes, figures)
            _COUNTED.move_to_end(id(memory))
            if len(_COUNTED) > COUNTED_KEPT:
                _COUNTED.popitem(last=False)
        return figures


COUNTED_KEPT = 16  # memories whose figures are kept (a 5x4 memory: 4 bytes a lesson)
_COUNTED: OrderedDict[int, tuple[Memory, int, BrainFigures]] = OrderedDict()


@dataclass(frozen=True, slots=True)
class ImportPlan:
    guild_id: int
    mode: ImportMode
    document: Memory  # the imported facts, each proven by the document itself
    new: int  # facts the server does not know yet
    known: int  # facts it knows already
    before: BrainFigures
    after: BrainFigures
    checked_by: int  # the id of the process that checked the file (the classic board's:
    # a worker's, since the solver holds the GIL)

    @property
    def dropped(self) -> int:
        """The server's lessons a replace would forget (none for a merge)."""
        return self.before.lessons - self.known if self.mode == "replace" else 0

    @property
    def changes_nothing(self) -> bool:
        return self.new == 0 and self.dropped == 0


def parse_moves(text: str, game: str = TICTACTOE) -> tuple[int, ...]:
    """Moves in play order as people type them (cells 1..9, "5 1 9"; columns 1..W,
    "2 3 3"), as 0-based moves of a position that is not over yet; raise
    :class:`GameError` saying what is wrong."""
    board = Board(game=game)
    rules = board.game
    word, names = rules.move_word, [str(n) for n in range(1, rules.move_count + 1)]
    tokens = text.replace(",", " ").split()
    for index, token in enumerate(tokens):
        if token not in names:
            raise GameError(
                N_(
                    "`{token}` is not a cell. Give cells 1 to {last} in play order, "
                    "such as `{example}`.",
                    token=token,
                    last=rules.move_count,
                    example=BOARDS[game].example,
                )
                if word == "cell"
                else N_(
                    "`{token}` is not a column. Give columns 1 to {last} in play order, "
                    "such as `{example}`.",
                    token=token,
                    last=rules.move_count,
                    example=BOARDS[game].example,
                )
            )
        if board.is_game_over():
            raise GameError(
                Nn_(
                    "The game is over after {count} move ({outcome}), so `{moves}` goes too far.",
                    "The game is over after {count} moves ({outcome}), so `{moves}` goes too far.",
                    index,
                    outcome=outcome_text(board),
                    moves=text,
                )
            )
        move = int(token) - 1
        if move not in board.legal_moves:
            if rules.move_word == "cell":
                raise GameError(
                    N_("Cell {cell} is played twice in `{moves}`.", cell=token, moves=text)
                )
            raise GameError(
                N_(
                    "Column {column} is full by move {index} of `{moves}`.",
                    column=token,
                    index=index + 1,
                    moves=text,
                )
            )
        board.push(move)
    if board.is_game_over():
        raise GameError(
            N_(
                "After `{moves}` the game is over ({outcome}): nothing is left to decide.",
                moves=text,
                outcome=outcome_text(board),
            )
        )
    return board.moves


def outcome_text(board: Board) -> Msg:
    if board.winner is None:
        return N_("a draw")
    if board.game.name.startswith("connect4"):  # its players are red and yellow, never X and O
        return N_("red wins") if board.winner is Mark.X else N_("yellow wins")
    return N_("X wins") if board.winner is Mark.X else N_("O wins")


@dataclass(frozen=True, slots=True)
class BrainChange:
    before: BrainFigures
    after: BrainFigures


def check_file_size(size: int, max_bytes: int) -> None:
    """Refuse a memory file too big to read (before it is even downloaded)."""
    if size > max_bytes:
        raise GameError(
            N_(
                "That file has {size} bytes; a memory file may have at most {mib} MiB "
                "({limit} bytes). Nothing was changed.",
                size=size,
                mib=max_bytes >> 20,
                limit=max_bytes,
            )
        )


def read_memory_file(
    data: bytes, game: str = TICTACTOE, progress: Progress | None = None
) -> Memory:
    """Check an uploaded memory file of ``game`` completely; raise :class:`GameError`
    saying what is wrong. Seconds for a big one: call it in a thread (``progress`` is
    told from there)."""
    max_bytes, max_facts = BOARDS[game].import_bytes, BOARDS[game].import_facts
    check_file_size(len(data), max_bytes)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise GameError(
            N_(
                "That file is not UTF-8 text. Import a file made by `/ttt-admin export`. "
                "Nothing was changed."
            )
        ) from None
    try:
        return engine.import_memory(text, game=game, max_facts=max_facts, progress=progress)
    except NotJSONError as error:
        raise GameError(
            N_(
                "That file is not a memory: its JSON is nested too deeply. Import a file "
                "made by `/ttt-admin export`. Nothing was changed."
            )
            if error.nested
            else N_(
                "That file is not JSON ({error}). Import a file made by `/ttt-admin export`. "
                "Nothing was changed.",
                error=error.detail,
            )
        ) from None
    except TooManyFacts as error:
        raise GameError(
            N_(
                "That file has {facts} facts; a memory file may have at most {limit}. "
                "Nothing was changed.",
                facts=error.facts,
                limit=error.limit,
            )
        ) from None
    except engine.MemoryFormatError as error:
        # the engine's reason stays in English: it names the file's fields and positions
        # (and, as the cause, tells the terminal which game a file of another game is of)
        raise GameError(
            N_("I can't import that file: {error}. Nothing was changed.", error=str(error))
        ) from error


def combine(current: Memory, document: Memory, mode: ImportMode) -> Memory:
    """The server's memory after the import; a contradiction refuses it. Seconds for a big
    memory: call it in a thread, on memories nobody changes meanwhile."""
    if mode == "replace":
        return document.copy()
    if current.game.classic:  # the facts keep their distances
        known = current.known
        _contradiction(lambda key, value: known(key) or value, document)
        result = current.copy()
        _add_distances(result, document.distances())
        return result
    values = dict(current.items())
    _contradiction(values.setdefault, document)
    return memory_of(current.game, values)


def _contradiction(known: Callable[[int, int], int], document: Memory) -> None:
    """Refuse a document that contradicts the memory ``known`` looks up: a key's value, or
    the document's ``value`` if it is unknown (``dict.setdefault`` gathers the values)."""
    for key, value in document.items():
        if known(key, value) != value:
            position = document.fact(key, value).position
            raise GameError(
                N_(
                    "That file says the move to {position} is a win, but this server's "
                    "memory knows it as a loss. Nothing was changed; importing it to replace "
                    "my memory would take the file's instead.",
                    position=position,
                )
                if value == WON
                else N_(
                    "That file says the move to {position} is a loss, but this server's "
                    "memory knows it as a win. Nothing was changed; importing it to replace "
                    "my memory would take the file's instead.",
                    position=position,
                )
            )


def new_facts(current: Memory, document: Memory) -> list[tuple] | ClassicFacts:
    """The facts of ``document`` that ``current`` does not know, as the store takes them;
    on the classic board with the distances it gives facts ``current`` knows without one
    (as :func:`combine` does in the memory)."""
    known = current.known
    if document.game.classic:
        plies = current.plies
        taught, upgrades = [], []
        for fact in document.distances():
            if not known(fact[0]):
                taught.append(fact)
            elif fact[2] is not None and plies(fact[0]) is None:
                upgrades.append(fact)
        return classic_facts(document.game.name, taught, upgrades)
    return [document.fact(key, value).row for key, value in document.items() if not known(key)]


def document_file(memory: Memory, max_bytes: int | None = None) -> bytes:
    """A memory's document as a file: one line a fact for version 1, which people read;
    the compact version 2 as compact as JSON writes it. A classic board's version 1 past
    ``max_bytes`` (about 106 bytes a fact: Discord takes 10 MiB a file in most servers,
    which a widened memory passes at about 95,000 facts) is written compact instead: its
    distances are left out, and an import re-proves them all the same."""
    # a classic fact takes more than its 42-character position as people read it: past
    # that, version 1 cannot fit, and is not written only to be thrown away
    if memory.game.classic and max_bytes is not None and len(memory) * 42 > max_bytes:
        return _compact_file(engine.export_memory(memory, compact=True))
    document = engine.export_memory(memory)
    if document["version"] == 1:
        data = json.dumps(document, indent=1).encode()
        if max_bytes is None or len(data) <= max_bytes or not memory.game.classic:
            return data
        document = engine.export_memory(memory, compact=True)
    return _compact_file(document)


def _compact_file(document: dict) -> bytes:
    return json.dumps(document, separators=(",", ":")).encode()


def _check_in_worker(data: bytes, game: str, reports: Connection) -> None:
    """A worker process's whole life: check an uploaded file of the classic board (the
    solver holds the GIL, so no thread of the bot may run it), sending on ``reports`` its
    progress, then ``("done", (key, value, plies) of each fact, this process's id)`` or
    ``("refused", the message)``."""
    try:
        memory = read_memory_file(
            data, game, lambda done, total: reports.send(("progress", done, total))
        )
    except GameError as error:
        reports.send(("refused", error.message))
    else:
        reports.send(("done", list(memory.distances()), os.getpid()))
    finally:
        reports.close()


def _add_distances(memory: Memory, facts) -> None:
    """Add a classic board's proven facts, as :meth:`engine.Memory.distances` gives them."""
    memory.add_proven((key, OUTCOMES[value].value, plies) for key, value, plies in facts)


ONE_CHECK_AT_A_TIME = N_(
    "I'm already checking another Connect Four (7×6) memory file, which takes a few minutes. "
    "Try again once it is done; nothing was changed."
)


async def check_in_process(
    data: bytes, game: str, progress: Progress | None = None
) -> tuple[Memory, int]:
    """:func:`read_memory_file` in a process of its own, started for this import and ended
    after it (the solver's book costs about 200 MB, and imports are rare); the loop goes
    on meanwhile and ``progress`` is told on it. Returns the memory and the process id
    that checked it."""
    context = multiprocessing.get_context("spawn")  # no fork of a process with threads
    reports, sender = context.Pipe(duplex=False)
    process = context.Process(
        target=_check_in_worker, args=(data, game, sender), daemon=True, name="ttt-import-check"
    )
    async with worker.reporting(process, reports, sender) as next_report:
        while (report := await next_report()) is not None:
            if report[0] == "progress":
                if progress is not None:
                    progress(*report[1:])
            elif report[0] == "refused":
                raise GameError(report[1])
            else:
                memory = Memory(game=game)
                await asyncio.to_thread(_add_distances, memory, report[1])  # 0.2 s for 120k
                return memory, report[2]
    raise RuntimeError(f"the import's check ended ({process.exitcode})")


def _told_on(loop: asyncio.AbstractEventLoop, progress: Progress | None):
    """``progress`` as a thread may call it: told on ``loop``."""
    if progress is None:
        return None
    return lambda done, total: loop.call_soon_threadsafe(progress, done, total)


class Brain:
    def __init__(self, store: Store, memories: ServerMemories, clock) -> None:
        self.store = store
        self.memories = memories
        self.clock = clock
        # a classic board's file being re-proved (minutes, and a process of 200 MB): one
        # at a time, or a few imports at once could exhaust the machine
        self._reproving = False

    async def figures(self, guild_id: int, game: str = TICTACTOE) -> BrainFigures:
        return await BrainFigures.counted(await self.memories.get(guild_id, game))

    async def view(self, guild_id: int, moves: tuple[int, ...], game: str = TICTACTOE) -> BrainView:
        """What the bot knows after ``moves`` (a position not over yet). Changes nothing."""
        board = Board.from_moves(moves, game=game)
        model = await self.memories.model(guild_id, game)  # None but on the classic board
        return view_of(await self.memories.get(guild_id, game), board, model)

    async def export(self, guild_id: int, game: str = TICTACTOE) -> dict[str, Any]:
        """The server's memory of ``game`` as a ``ttt-memory`` document (version 1 for
        tic-tac-toe, the compact version 2 for the others)."""
        return engine.export_memory(await self.memories.get(guild_id, game))

    async def export_file(
        self, guild_id: int, game: str = TICTACTOE, max_bytes: int | None = None
    ) -> tuple[bytes, int]:
        """:meth:`export` as a file's bytes (at most ``max_bytes`` where a compact document
        serves: see :func:`document_file`), made in a thread (a big memory takes a while),
        and its count of lessons."""
        memory = (await self.memories.get(guild_id, game)).copy()  # the loop may teach it
        return await asyncio.to_thread(document_file, memory, max_bytes), len(memory)

    async def plan_import(
        self,
        guild_id: int,
        data: bytes,
        mode: ImportMode,
        game: str = TICTACTOE,
        progress: Progress | None = None,
    ) -> ImportPlan:
        """What importing ``data`` into the memory of ``game`` would change; nothing
        changes yet. The file is checked in a thread (seconds for a big one; the classic
        board's, re-proven by the solver, in a worker process), and
        ``progress`` told how far the check is, now and then."""
        if mode not in IMPORT_MODES:  # a forged request: a wrong mode would merge, said replace
            raise GameError(
                N_(
                    "The mode must be one of {choices}, not `{mode}`.",
                    choices=", ".join(IMPORT_MODES),
                    mode=str(mode),
                )
            )
        if engine.get_game(game).classic:
            if self._reproving:
                raise GameError(ONE_CHECK_AT_A_TIME)
            self._reproving = True
            try:
                document, checked_by = await check_in_process(data, game, progress)
            finally:
                self._reproving = False
        else:
            told = _told_on(asyncio.get_running_loop(), progress)
            document = await asyncio.to_thread(read_memory_file, data, game, told)
            checked_by = os.getpid()
        current = (await self.memories.get(guild_id, game)).copy()  # the loop may teach it
        result = await asyncio.to_thread(combine, current, document, mode)
        known = current.known
        new = await asyncio.to_thread(sum, (not known(key) for key, _ in document.items()))
        return ImportPlan(
            guild_id,
            mode,
            document,
            new,
            len(document) - new,
            await BrainFigures.counted(current),
            await BrainFigures.counted(result),
            checked_by,
        )

    async def apply_import(self, plan: ImportPlan) -> BrainChange:
        """Import, in one transaction, into the memory as it is now."""
        game = plan.document.game.name
        async with self.memories.changing(plan.guild_id, game) as current:
            # nobody changes it while its lock is held: a thread may read it
            result = await asyncio.to_thread(combine, current, plan.document, plan.mode)
            replace = plan.mode == "replace"
            changed = result if replace else plan.document
            empty = Memory(game=game)
            facts = await asyncio.to_thread(new_facts, empty if replace else current, changed)
            before, after = await BrainFigures.counted(current), await BrainFigures.counted(result)
            with busy_means_unchanged():
                version = await self.store.add_facts(
                    plan.guild_id,
                    facts,
                    game=game,
                    replace=replace,
                    now=self.clock(),
                    snapshot=after.snapshot(),
                )
            self.memories.replace(plan.guild_id, result, version)
            with busy_means_unchanged():
                await imported(self.store, plan.guild_id, game, self.clock())
            return BrainChange(before, after)
