"""The memory of proven facts, and learning them from finished games.

A fact says, for the position right after a move, that the move is a proven WIN or a
proven LOSS for the player who made it. Facts are kept per position up to symmetry, so
one lesson covers every orientation (tic-tac-toe's 8, Connect Four's mirror), and one
memory serves X and O alike. A memory is of one game (:mod:`engine.games`).

Learning walks the played path backwards and applies three sound rules (issue 2):

* a move that completes a line is a WIN for its mover;
* a move after which the opponent has a known winning reply is a LOSS for its mover;
* a move after which every reply of the opponent is a known LOSS is a WIN for its mover.

Every fact therefore holds under perfect play; nothing is ever guessed or overwritten.

On the classic board (Connect Four 7×6) a fact also carries its distance: the plies from
the position to the end under perfect play, when it is proven (by the solver's
post-mortem, :mod:`engine.postmortem`); a fact the rules proved has its outcome only,
until the solver proves the same position and adds the distance.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from .games import Game, Mark, get_game
from .tables import DenseTable, DistanceTable, SparseTable, sparse_data, sparse_typecode

Table = DenseTable | SparseTable | DistanceTable


class Outcome(enum.Enum):
    """What a move is proven to be for the player who made it."""

    WIN = "win"
    LOSS = "loss"


WIN = Outcome.WIN
LOSS = Outcome.LOSS


@dataclass(frozen=True, slots=True)
class Fact:
    """One entry of a memory: a position right after a move, and that move's outcome."""

    position: str
    outcome: Outcome
    distance: int | None = None  # plies to the end, on the classic board, when proven

    @property
    def row(self) -> tuple[str, str] | tuple[str, str, int]:
        """As a store keeps it, and :meth:`Memory.stored` reads it back: ``(position,
        outcome)``, and its plies when known."""
        if self.distance is None:
            return (self.position, self.outcome.value)
        return (self.position, self.outcome.value, self.distance)


@dataclass(frozen=True, slots=True)
class Lesson:
    """A fact learned from a game, told in the game's own orientation."""

    ply: int  # 0-based index of the move in the game
    cell: int  # the move the fact is about: a cell 0..8, a column 0..W-1
    player: Mark  # who made that move
    outcome: Outcome
    before: str  # the position the move was played in
    after: str  # the position right after it (what the memory stores, up to symmetry)

    @property
    def move(self) -> int:
        return self.cell


# A table holds per key 0 unknown, 1 a WIN, 2 a LOSS (engine.tables).
UNKNOWN, WON, LOST = 0, 1, 2
OUTCOMES = (None, WIN, LOSS)
VALUES = {WIN: WON, LOSS: LOST}
_OUTCOME_OF = {WIN: WIN, LOSS: LOSS, WIN.value: WIN, LOSS.value: LOSS}


def new_table(game: Game, data=None) -> Table:
    """An empty table for ``game``'s memory, or one over ``data`` (shared, not copied)."""
    if game.slots is not None:
        return DenseTable(game.slots, data)
    if game.classic:
        return DistanceTable(data)
    return SparseTable(sparse_typecode(game.code_bits), data)


class Memory:
    """A set of proven facts about one game's positions up to symmetry.

    ``Memory()`` is tic-tac-toe's; ``Memory(game="connect4")`` (or ``"connect4-5x4"``)
    Connect Four's.
    """

    __slots__ = ("_changes", "_size", "_table", "game")

    def __init__(
        self,
        facts: Iterable[Fact | tuple[str, Outcome | str]] = (),
        *,
        game: str | Game = "tictactoe",
    ) -> None:
        self.game = get_game(game)
        self._table = new_table(self.game)
        self._size = 0
        self._changes = 0
        for fact in facts:
            if isinstance(fact, Fact):
                self.add(fact.position, fact.outcome, fact.distance)
            else:
                self.add(*fact)

    @classmethod
    def stored(
        cls, facts: Iterable[tuple[str, str] | tuple[str, str, int | None]], *, game="tictactoe"
    ) -> Memory:
        """A memory of facts this engine proved and a store kept (``(position, outcome)``,
        and on the classic board ``(position, outcome, plies or None)``): each is read for
        its key, without the search of a legal order of play that :meth:`add` makes for a
        position from outside, and the table is built at once. A server's memory is read
        back this way whenever it is not cached."""
        memory = cls(game=game)
        game = memory.game
        parse, key = game.parse, game.key
        if game.classic:
            entries = {}
            for position, outcome, *plies in facts:  # a store keeps the key itself
                code = position if type(position) is int else key(parse(position, checked=False))
                entries[code] = (VALUES[_OUTCOME_OF[outcome]], plies[0] if plies else None)
            memory._table.merge(entries)
            memory._size = len(memory._table.data)
            return memory
        values = {
            key(parse(position, checked=False)): VALUES[_OUTCOME_OF[outcome]]
            for position, outcome in facts
        }
        if game.slots is None:
            memory._table = new_table(game, sparse_data(memory._table.data.typecode, values))
        else:
            for slot, value in values.items():
                memory._table.set(slot, value)
        memory._size = len(values)
        return memory

    @classmethod
    def from_stored(cls, runs: list[bytes], *, game="connect4-7x6") -> Memory:
        """The classic board's memory from a store's runs of entries, taken off the list
        (see :meth:`engine.tables.DistanceTable.from_stored`: built in short steps, for a
        thread)."""
        game = get_game(game)
        if not game.classic:
            raise ValueError(f"{game.title} facts are not stored in runs")
        return cls.over(DistanceTable.from_stored(runs).data, game)

    # --- reading ------------------------------------------------------------------
    def __len__(self) -> int:
        return self._size

    def __iter__(self) -> Iterator[Fact]:
        """The facts in a stable order, each in its canonical orientation."""
        for key, value in self.items():
            yield self.fact(key, value)

    def items(self) -> Iterator[tuple[int, int]]:
        """The facts as ``(key, value)``, in the order of :meth:`__iter__`, unspelled."""
        game = self.game
        return self._table.items(game.keys() if game.slots is not None else None)

    def fact(self, key: int, value: int) -> Fact:
        """An item of :meth:`items` as a :class:`Fact` (with its distance if known)."""
        distance = self._table.distance(key) if self.game.classic else None
        return Fact(self.game.spell(self.game.key_code(key)), OUTCOMES[value], distance)

    def distances(self) -> Iterator[tuple[int, int, int | None]]:
        """On the classic board, every fact as ``(key, value, plies or None)``, in key order
        (the key is the canonical position's 49-bit code; value 1 WON, 2 LOST)."""
        if not self.game.classic:
            raise ValueError(f"{self.game.title} facts carry no distances")
        return self._table.distances()

    def distance_count(self) -> int:
        """On the classic board, how many facts carry their plies (counted in C)."""
        if not self.game.classic:
            raise ValueError(f"{self.game.title} facts carry no distances")
        return self._table.distance_count()

    @property
    def plies(self) -> Callable[[int], int | None]:
        """The classic board's lookup of a key's plies to the end (``None``: unknown)."""
        if not self.game.classic:
            raise ValueError(f"{self.game.title} facts carry no distances")
        return self._table.distance

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Memory)
            and other.game is self.game
            and other._table.data == self._table.data
        )

    def __repr__(self) -> str:
        wins = sum(fact.outcome is WIN for fact in self)
        losses = len(self) - wins
        return f"<Memory of {self.game.name}, {len(self)} facts: {wins} wins, {losses} losses>"

    def outcome(self, position: str) -> Outcome | None:
        """The known outcome of the move that produced ``position``, in any orientation."""
        code = self.game.parse(position)
        return OUTCOMES[self._table.get(self.game.key(code))] if code != self.game.empty else None

    @property
    def known(self) -> Callable[[int], int]:
        """The lookup of the hot paths: a key's value, 0 unknown, 1 WON, 2 LOST."""
        return self._table.get

    @property
    def changes(self) -> int:
        """How many times this object's facts have changed: a version for caches (a memory
        over a shared table counts only what goes through it)."""
        return self._changes

    @property
    def table(self):
        """The facts' flat buffer itself, shared (see :meth:`over`)."""
        return self._table.data

    @property
    def nbytes(self) -> int:
        """The bytes its facts take."""
        return self._table.nbytes

    @classmethod
    def over(cls, table, game: str | Game = "tictactoe") -> Memory:
        """A memory over another's :attr:`table`, shared, not copied: what is learned through
        either is in both (their sizes are each counted as they learn). A cache can keep
        bare tables, which Python's garbage collector does not track, and wrap one only when
        it is used."""
        memory = cls.__new__(cls)
        memory.game = get_game(game)
        memory._table = new_table(memory.game, table)
        memory._size = memory._table.count()
        memory._changes = 0
        return memory

    def copy(self) -> Memory:
        clone = Memory.__new__(Memory)
        clone.game = self.game
        clone._table = self._table.copy()
        clone._size = self._size
        clone._changes = 0
        return clone

    # --- writing ------------------------------------------------------------------
    def add(self, position: str, outcome: Outcome | str, distance: int | None = None) -> bool:
        """Record a fact from outside (a stored or imported memory); ``distance``, its
        plies to the end, on the classic board only.

        Returns whether it was new. Raises ``ValueError`` for an illegal position, an
        unknown outcome, a fact the rules contradict, or one that contradicts a known fact.
        """
        return self.add_code(self.game.parse(position), outcome, position, distance)

    def add_code(
        self, code: int, outcome: Outcome | str, position: str, distance: int | None = None
    ) -> bool:
        """:meth:`add` for a position already parsed into ``code``."""
        game = self.game
        # a stored "win" or "loss" is one lookup; anything else gets Outcome's own error
        outcome = (_OUTCOME_OF.get(outcome) if isinstance(outcome, str) else None) or Outcome(
            outcome
        )
        if code == game.empty:
            raise ValueError("the empty board comes after no move, so it has no outcome")
        if game.moves(code) is None:
            if not game.winner(code):
                raise ValueError(
                    f"position {position!r} is a finished draw, neither a win nor a loss"
                )
            if outcome is not WIN:
                raise ValueError(
                    f"position {position!r} completes a line, so it is a win for its mover"
                )
        if distance is not None and not (
            game.classic and type(distance) is int and 0 <= distance <= game.move_count * 6
        ):
            raise ValueError(f"position {position!r}: {distance!r} is not a distance here")
        key = game.key(code)
        known = OUTCOMES[self._table.get(key)]
        if known is not None and known is not outcome:
            raise ValueError(f"position {position!r} is already known as a {known.value}")
        if known is None:
            if game.classic:
                self._table.set(key, VALUES[outcome], distance)
            else:
                self._table.set(key, VALUES[outcome])
            self._size += 1
            self._changes += 1
        elif distance is not None and self._table.distance(key) is None:
            self._table.set_distance(key, distance)
            self._changes += 1
        return known is None

    def add_proven(self, facts: Iterable[tuple[int, str, int]]) -> int:
        """On the classic board, record facts the solver proved, as ``(key, outcome,
        plies)`` (what :func:`engine.postmortem.post_mortem` returns); return how many are
        new. A known fact with no distance gets one. Raises ``ValueError`` (and changes
        nothing) if one contradicts a known fact: a proven fact never does."""
        if not self.game.classic:
            raise ValueError(f"{self.game.title} facts carry no distances")
        table = self._table
        new: dict[int, tuple[int, int]] = {}
        upgrades = []
        for key, outcome, plies in facts:
            value = VALUES[_OUTCOME_OF[outcome]]
            known = table.get(key) or (new[key][0] if key in new else 0)
            if known and known != value:
                raise ValueError(f"the proven fact about key {key} contradicts the memory")
            if not known:
                new[key] = (value, plies)
            elif key not in new and table.distance(key) is None:
                upgrades.append((key, plies))
        table.merge(new)
        for key, plies in upgrades:
            table.set_distance(key, plies)
        self._size += len(new)
        self._changes += len(new) + len(upgrades)
        return len(new)

    def record(self, key: int, value: int, distance: int | None = None) -> None:
        """Record a value for a key known to be unknown and proven (training's merge), and
        on the classic board its plies to the end when proven."""
        if distance is not None:
            self._table.set(key, value, distance)
            self._size += 1
            self._changes += 1
            return
        self._table.set(key, value)
        self._size += 1
        self._changes += 1

    def clear(self) -> None:
        self._table.clear()  # in place: policies may hold the table
        self._size = 0
        self._changes += 1

    def learn(self, moves: Iterable[int]) -> list[Lesson]:
        """Learn from one finished game (moves in play order, X first: cells 0..8, or
        columns 0..W-1).

        Returns the new facts, last move first. Raises ``ValueError`` (and learns
        nothing) if the moves are not a legal, finished game.
        """
        moves = list(moves)
        game = self.game
        codes = game.replay(moves)
        if not codes or game.moves(codes[-1]) is not None:
            raise ValueError("only a finished game can be learned from")
        lessons = []
        table = self._table
        for ply in range(len(codes) - 1, -1, -1):
            outcome = infer(game, table, codes[ply])
            if outcome is not None:
                self._size += 1
                self._changes += 1
                before = codes[ply - 1] if ply else game.empty
                lessons.append(
                    Lesson(
                        ply,
                        moves[ply],
                        game.last_mover(codes[ply]),
                        outcome,
                        game.spell(before),
                        game.spell(codes[ply]),
                    )
                )
        return lessons


def learn_path(memory: Memory, codes: list[int]) -> int:
    """Learn from a finished game given as its position codes; return how many facts are new.

    The fast path of benchmarks: no Lesson objects, no validation.
    """
    game, table = memory.game, memory._table
    new = sum(infer(game, table, code) is not None for code in reversed(codes))
    memory._size += new
    memory._changes += new
    return new


def infer(game: Game, table: Table, code: int) -> Outcome | None:
    """Record and return a newly provable fact about ``code``, or ``None``; the caller
    counts it. The hot path of learning: it works on codes and the raw table."""
    key = game.key(code)
    if table.get(key):
        return None
    outcome = prove(game, table.get, code)
    if outcome is not None:
        table.set(key, VALUES[outcome])
    return outcome


def prove(game: Game, known, code: int) -> Outcome | None:
    """What the three rules prove about the move that produced ``code``, from ``known``
    (a key's value: 1 WON, 2 LOST, anything else unknown).

    Each rule looks only at ``code`` and the positions one move later, so a table in which
    every fact proves itself this way is true by induction from the finished games: the
    whole check of an imported memory, with no search.
    """
    replies = game.moves(code)
    if replies is None:
        return WIN if game.winner(code) else None  # a draw proves nothing
    all_lose = True
    for _move, _child, key in replies:
        value = known(key)
        if value == WON:
            return LOSS
        if value != LOST:
            all_lose = False
    return WIN if all_lose else None
