"""Can the bot's current policy still be beaten? For reporting only, never for choosing.

The bot is deterministic, so against it a game is fixed by the opponent's moves alone.
The search branches over every opponent move and follows the bot's single choice;
results are memoised per position, since the policy depends on the position only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .memory import Memory
from .policy import choose_child
from .rules import (
    EMPTIES,
    MOVES,
    POW3,
    SYMMETRIES,
    WINNER,
    Mark,
    digits,
    last_mover,
    string_to_code,
)

Policy = Callable[[int], int]  # position code -> cell 0..8


@dataclass(frozen=True, slots=True)
class Vulnerability:
    """How a policy fares in one role against every possible opponent."""

    role: Mark
    losing_lines: int  # distinct opponent move sequences that beat the bot

    @property
    def beatable(self) -> bool:
        return self.losing_lines > 0


def _line_counter(policy: Policy | bytearray, role: Mark) -> Callable[[int], int]:
    """A memoised count of the opponent lines that beat the bot playing ``role`` from a
    position on. ``policy`` is a memory's table (the bot's own policy, the fast path) or
    any function from a position code to a cell.

    Written for speed: a point of the learning curve runs it at the end of every game
    that teaches the bot something.
    """
    memo: dict[int, int] = {}
    memo_get = memo.get
    opponent = int(role.other)
    my_parity = 1 if role is Mark.X else 0  # X moves when an odd number of cells is free
    if isinstance(policy, bytearray):
        table = policy

        def choice(code: int) -> int:
            return choose_child(table, code)[1]
    else:

        def choice(code: int) -> int:
            return code + int(role) * POW3[policy(code)]

    def lines(code: int) -> int:
        result = memo_get(code)
        if result is not None:
            return result
        moves = MOVES[code]
        if moves is None:  # over: did the opponent win?
            result = 1 if WINNER[code] == opponent else 0
        elif len(moves) % 2 == my_parity:
            result = lines(choice(code))
        else:
            result = 0
            for move in moves:
                result += lines(move[1])
        memo[code] = result
        return result

    return lines


def count_losing_lines(policy: Policy, role: Mark) -> int:
    """How many distinct opponent lines beat ``policy`` playing ``role``."""
    return _line_counter(policy, role)(0)


def winning_replies(policy: Policy, role: Mark, code: int) -> list[int]:
    """The opponent's moves in ``code`` that keep a forced win against ``policy``."""
    lines = _line_counter(policy, role)
    opponent = int(role.other)
    return [c for c in EMPTIES[code] if lines(code + opponent * POW3[c])]


def analyse(memory: Memory, role: Mark) -> Vulnerability:
    """Whether the bot, playing ``role`` with this memory, can still be beaten, and how often."""
    return Vulnerability(role, _line_counter(memory._table, role)(0))


def _orientations(code: int) -> set[int]:
    """The codes of a position in each of its 8 orientations."""
    cells = digits(code)
    return {sum(cells[i] * POW3[perm[i]] for i in range(9)) for perm in SYMMETRIES}


class LiveAnalysis:
    """The ways to beat a memory's policy as X and as O, kept up to date as it learns.

    A full :func:`analyse` walks the whole tree of the bot's games (about 0.2 ms a role).
    This keeps that walk's results and, when facts are learned, redoes only what they can
    change: a new fact changes the bot's choice at most in the positions one move before
    it (in any orientation), and a changed choice changes the count of those positions and
    of their ancestors alone. Every other position's count is reused. Facts that reach the
    memory some other way (an import, a training's merge) are noticed by its size, and
    the next count starts afresh. Results equal :func:`analyse` always (tested).
    """

    __slots__ = ("_roles", "_size", "memory")

    def __init__(self, memory: Memory) -> None:
        self.memory = memory
        self._size = len(memory)
        # per role: counts by position, the bot's choice at its own decision positions,
        # and each position's parents in the walk (to drop the ancestors of a change)
        self._roles: dict[Mark, tuple[dict[int, int], dict[int, int], dict[int, set[int]]]] = {}

    def losing_lines(self, role: Mark) -> int:
        if len(self.memory) != self._size:  # changed behind our back: start afresh
            self._roles.clear()
            self._size = len(self.memory)
        if role not in self._roles:
            self._roles[role] = ({}, {}, {})
        return self._count(role, 0)

    def learned(self, positions: Iterable[str]) -> None:
        """Tell it the positions (after a move) of the facts just learned."""
        positions = list(positions)
        table = self.memory._table
        if len(self.memory) != self._size + len(positions):  # more changed than it was told
            self._roles.clear()
        self._size = len(self.memory)
        for position in positions:
            for variant in _orientations(string_to_code(position)):
                mover = last_mover(variant)
                for cell in range(9):
                    if variant // POW3[cell] % 3 != mover:
                        continue
                    before = variant - mover * POW3[cell]
                    for memo, choices, parents in self._roles.values():
                        chosen = choices.get(before)
                        if chosen is not None and chosen != choose_child(table, before)[1]:
                            _drop(before, memo, choices, parents)

    def _count(self, role: Mark, root: int) -> int:
        memo, choices, parents = self._roles[role]
        table = self.memory._table
        opponent = int(role.other)
        my_parity = 1 if role is Mark.X else 0

        def link(child: int, parent: int) -> None:
            known = parents.get(child)
            if known is None:
                parents[child] = parent + 1
            elif parent not in _unpack(known):
                parents[child] = known << _BITS | parent + 1

        def lines(code: int) -> int:
            result = memo.get(code)
            if result is not None:
                return result
            moves = MOVES[code]
            if moves is None:
                result = 1 if WINNER[code] == opponent else 0
            elif len(moves) % 2 == my_parity:
                choices[code] = child = choose_child(table, code)[1]
                link(child, code)
                result = lines(child)
            else:
                result = 0
                for move in moves:
                    link(move[1], code)
                    result += lines(move[1])
            memo[code] = result
            return result

        return lines(root)


# A position's parents in the walk, packed into one int (15 bits each, holding code + 1 so
# that the empty board is not 0: 3**9 < 2**15), so the tables hold ints only and the
# garbage collector never has to look at them.
_BITS = 15
_MASK = (1 << _BITS) - 1


def _unpack(packed: int) -> list[int]:
    codes = []
    while packed:
        codes.append((packed & _MASK) - 1)
        packed >>= _BITS
    return codes


def _drop(code: int, memo: dict, choices: dict, parents: dict) -> None:
    """Forget the counts of ``code`` and of every position above it in the walk."""
    stack = [code]
    choices.pop(code, None)
    while stack:
        current = stack.pop()
        if memo.pop(current, None) is None and current != code:
            continue  # already dropped, and its ancestors with it
        stack.extend(_unpack(parents.get(current, 0)))
