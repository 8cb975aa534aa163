"""The memory of proven facts, and learning them from finished games.

A fact says, for the position right after a move, that the move is a proven WIN or a
proven LOSS for the player who made it. Facts are kept per position up to symmetry, so
one lesson covers all 8 orientations, and one memory serves X and O alike.

Learning walks the played path backwards and applies three sound rules (issue 2):

* a move that completes a line is a WIN for its mover;
* a move after which the opponent has a known winning reply is a LOSS for its mover;
* a move after which every reply of the opponent is a known LOSS is a WIN for its mover.

Every fact therefore holds under perfect play; nothing is ever guessed or overwritten.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from .rules import (
    EMPTIES,
    MOVES,
    SLOT,
    SLOT_CODES,
    SLOTS,
    WINNER,
    Mark,
    code_to_string,
    last_mover,
    replay,
    string_to_code,
)


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


@dataclass(frozen=True, slots=True)
class Lesson:
    """A fact learned from a game, told in the game's own orientation."""

    ply: int  # 0-based index of the move in the game
    cell: int  # 0..8, the move the fact is about
    player: Mark  # who made that move
    outcome: Outcome
    before: str  # the position the move was played in
    after: str  # the position right after it (what the memory stores, up to symmetry)


# A memory is 2 bits per slot (see rules.SLOT): 0 unknown, 1 a WIN, 2 a LOSS. The whole
# of what a server knows fits in 191 bytes.
UNKNOWN, WON, LOST = 0, 1, 2
OUTCOMES = (None, WIN, LOSS)
VALUES = {WIN: WON, LOSS: LOST}
_OUTCOME_OF = {WIN: WIN, LOSS: LOSS, WIN.value: WIN, LOSS.value: LOSS}
TABLE_BYTES = (SLOTS + 3) // 4
# how many of a table byte's four 2-bit slots hold a fact
_FACTS_IN_BYTE = bytes(sum(1 for shift in (0, 2, 4, 6) if b >> shift & 3) for b in range(256))


def read(table: bytearray, code: int) -> int:
    """The 2-bit value a table holds for ``code`` (any orientation, any legal code)."""
    slot = SLOT[code]
    return table[slot >> 2] >> ((slot & 3) << 1) & 3


def _write(table: bytearray, code: int, value: int) -> None:
    slot = SLOT[code]
    table[slot >> 2] |= value << ((slot & 3) << 1)


class Memory:
    """A set of proven facts about positions up to symmetry, as a 2-bit table."""

    __slots__ = ("_size", "_table")

    def __init__(self, facts: Iterable[Fact | tuple[str, Outcome | str]] = ()) -> None:
        self._table = bytearray(TABLE_BYTES)
        self._size = 0
        for fact in facts:
            if isinstance(fact, Fact):
                self.add(fact.position, fact.outcome)
            else:
                self.add(*fact)

    # --- reading ------------------------------------------------------------------
    def __len__(self) -> int:
        return self._size

    def __iter__(self) -> Iterator[Fact]:
        """The facts in a stable order, each in its canonical orientation."""
        table = self._table
        for code in SLOT_CODES:
            value = read(table, code)
            if value:
                yield Fact(code_to_string(code), OUTCOMES[value])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Memory) and other._table == self._table

    def __repr__(self) -> str:
        wins = sum(fact.outcome is WIN for fact in self)
        return f"<Memory {len(self)} facts: {wins} wins, {len(self) - wins} losses>"

    def outcome(self, position: str) -> Outcome | None:
        """The known outcome of the move that produced ``position``, in any orientation."""
        code = string_to_code(position)
        return OUTCOMES[read(self._table, code)] if code else None

    @property
    def table(self) -> bytearray:
        """The facts as the 2-bit table itself, shared (see :meth:`over`)."""
        return self._table

    @classmethod
    def over(cls, table: bytearray) -> Memory:
        """A memory over another's :attr:`table`, shared, not copied: what is learned through
        either is in both (their sizes are each counted as they learn). A cache can keep
        bare tables, which Python's garbage collector does not track, and wrap one only when
        it is used."""
        if len(table) != TABLE_BYTES:
            raise ValueError(f"a memory table is {TABLE_BYTES} bytes, not {len(table)}")
        memory = cls.__new__(cls)
        memory._table = table
        memory._size = sum(table.translate(_FACTS_IN_BYTE))
        return memory

    def copy(self) -> Memory:
        clone = Memory()
        clone._table = bytearray(self._table)
        clone._size = self._size
        return clone

    # --- writing ------------------------------------------------------------------
    def add(self, position: str, outcome: Outcome | str) -> bool:
        """Record a fact from outside (a stored or imported memory).

        Returns whether it was new. Raises ``ValueError`` for an illegal position, an
        unknown outcome, a fact the rules contradict, or one that contradicts a known fact.
        """
        code = string_to_code(position)
        # a stored "win" or "loss" is one lookup; anything else gets Outcome's own error
        outcome = (_OUTCOME_OF.get(outcome) if isinstance(outcome, str) else None) or Outcome(
            outcome
        )
        if code == 0:
            raise ValueError("the empty board comes after no move, so it has no outcome")
        if WINNER[code] and outcome is not WIN:
            raise ValueError(
                f"position {position!r} completes a line, so it is a win for its mover"
            )
        if not WINNER[code] and not EMPTIES[code]:
            raise ValueError(f"position {position!r} is a finished draw, neither a win nor a loss")
        known = OUTCOMES[read(self._table, code)]
        if known is not None and known is not outcome:
            raise ValueError(f"position {position!r} is already known as a {known.value}")
        if known is None:
            _write(self._table, code, VALUES[outcome])
            self._size += 1
        return known is None

    def clear(self) -> None:
        self._table[:] = bytes(TABLE_BYTES)  # in place: policies may hold the table
        self._size = 0

    def learn(self, moves: Iterable[int]) -> list[Lesson]:
        """Learn from one finished game (cells 0..8 in play order, X first).

        Returns the new facts, last move first. Raises ``ValueError`` (and learns
        nothing) if the moves are not a legal, finished game.
        """
        moves = list(moves)
        codes = replay(moves)
        if not codes or not (WINNER[codes[-1]] or not EMPTIES[codes[-1]]):
            raise ValueError("only a finished game can be learned from")
        lessons = []
        table = self._table
        for ply in range(len(codes) - 1, -1, -1):
            outcome = infer(table, codes[ply])
            if outcome is not None:
                self._size += 1
                before = codes[ply - 1] if ply else 0
                lessons.append(
                    Lesson(
                        ply,
                        moves[ply],
                        last_mover(codes[ply]),
                        outcome,
                        code_to_string(before),
                        code_to_string(codes[ply]),
                    )
                )
        return lessons


def learn_path(memory: Memory, codes: list[int]) -> int:
    """Learn from a finished game given as its position codes; return how many facts are new.

    The fast path of training: no Lesson objects, no validation.
    """
    table = memory._table
    new = sum(infer(table, code) is not None for code in reversed(codes))
    memory._size += new
    return new


def infer(table: bytearray, code: int) -> Outcome | None:
    """Record and return a newly provable fact about ``code``, or ``None``; the caller
    counts it. The hot path of learning: it works on codes and the raw table."""
    slot = SLOT[code]
    byte, shift = slot >> 2, (slot & 3) << 1
    if table[byte] >> shift & 3:
        return None
    outcome = prove(table, code)
    if outcome is not None:
        table[byte] |= VALUES[outcome] << shift
    return outcome


def prove(table: bytearray, code: int) -> Outcome | None:
    """What the three rules prove about the move that produced ``code``, from ``table``.

    Each rule looks only at ``code`` and the positions one move later, so a table in which
    every fact proves itself this way is true by induction from the finished games: the
    whole check of an imported memory, with no search.
    """
    if WINNER[code]:
        return WIN
    replies = MOVES[code]
    if replies is None:
        return None  # a draw proves nothing
    all_lose = True
    for _cell, _child, byte, shift in replies:
        known = table[byte] >> shift & 3
        if known == WON:
            return LOSS
        if known != LOST:
            all_lose = False
    return WIN if all_lose else None
