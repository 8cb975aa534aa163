"""The memory of proven facts, and learning them from finished games.

A fact says, for the position right after a move, that the move is a proven WIN or a
proven LOSS for the player who made it. Keys are canonical codes, so one lesson covers
all 8 orientations, and one memory serves X and O alike.

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
    CANON,
    EMPTIES,
    POW3,
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


class Memory:
    """A set of proven facts, keyed by canonical position."""

    __slots__ = ("_facts",)

    def __init__(self, facts: Iterable[Fact | tuple[str, Outcome | str]] = ()) -> None:
        self._facts: dict[int, Outcome] = {}
        for fact in facts:
            if isinstance(fact, Fact):
                self.add(fact.position, fact.outcome)
            else:
                self.add(*fact)

    # --- reading ------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._facts)

    def __iter__(self) -> Iterator[Fact]:
        """The facts in a stable order, each in its canonical orientation."""
        for code in sorted(self._facts):
            yield Fact(code_to_string(code), self._facts[code])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Memory) and other._facts == self._facts

    def __repr__(self) -> str:
        wins = sum(o is WIN for o in self._facts.values())
        return f"<Memory {len(self)} facts: {wins} wins, {len(self) - wins} losses>"

    def outcome(self, position: str) -> Outcome | None:
        """The known outcome of the move that produced ``position``, in any orientation."""
        return self._facts.get(CANON[string_to_code(position)])

    def copy(self) -> Memory:
        clone = Memory()
        clone._facts = dict(self._facts)
        return clone

    # --- writing ------------------------------------------------------------------
    def add(self, position: str, outcome: Outcome | str) -> bool:
        """Record a fact from outside (a stored or imported memory).

        Returns whether it was new. Raises ``ValueError`` for an illegal position, an
        unknown outcome, a fact the rules contradict, or one that contradicts a known fact.
        """
        code = string_to_code(position)
        outcome = Outcome(outcome)
        if code == 0:
            raise ValueError("the empty board comes after no move, so it has no outcome")
        if WINNER[code] and outcome is not WIN:
            raise ValueError(
                f"position {position!r} completes a line, so it is a win for its mover"
            )
        if not WINNER[code] and not EMPTIES[code]:
            raise ValueError(f"position {position!r} is a finished draw, neither a win nor a loss")
        key = CANON[code]
        known = self._facts.get(key)
        if known is not None and known is not outcome:
            raise ValueError(f"position {position!r} is already known as a {known.value}")
        self._facts[key] = outcome
        return known is None

    def clear(self) -> None:
        self._facts.clear()

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
        for ply in range(len(codes) - 1, -1, -1):
            outcome = infer(self._facts, codes[ply])
            if outcome is not None:
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


def learn_path(facts: dict[int, Outcome], codes: list[int]) -> int:
    """Learn from a finished game given as its position codes; return how many facts are new.

    The fast path of training: no Lesson objects, no validation.
    """
    return sum(infer(facts, code) is not None for code in reversed(codes))


def infer(facts: dict[int, Outcome], code: int) -> Outcome | None:
    """Record and return a newly provable fact about ``code``, or ``None``.

    The hot path of learning: it works on codes and the raw fact table.
    """
    key = CANON[code]
    if key in facts:
        return None
    outcome = prove(facts, code)
    if outcome is not None:
        facts[key] = outcome
    return outcome


def prove(facts: dict[int, Outcome], code: int) -> Outcome | None:
    """What the three rules prove about the move that produced ``code``, from ``facts``.

    Each rule looks only at ``code`` and the positions one move later, so a table in which
    every fact proves itself this way is true by induction from the finished games: the
    whole check of an imported memory, with no search.
    """
    if WINNER[code]:
        return WIN
    free = EMPTIES[code]
    if not free:
        return None  # a draw proves nothing
    reply = 2 if len(free) % 2 == 0 else 1  # the opponent of the mover
    all_lose = True
    for cell in free:
        known = facts.get(CANON[code + reply * POW3[cell]])
        if known is WIN:
            return LOSS
        if known is not LOSS:
            all_lose = False
    return WIN if all_lose else None
