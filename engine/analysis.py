"""Can the bot's current policy still be beaten? For reporting only, never for choosing.

The bot is deterministic, so against it a game is fixed by the opponent's moves alone.
The search branches over every opponent move and follows the bot's single choice;
results are memoised per position, since the policy depends on the position only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .memory import Memory
from .policy import choose_code
from .rules import EMPTIES, POW3, WINNER, Mark

Policy = Callable[[int], int]  # position code -> cell 0..8


@dataclass(frozen=True, slots=True)
class Vulnerability:
    """How a policy fares in one role against every possible opponent."""

    role: Mark
    losing_lines: int  # distinct opponent move sequences that beat the bot

    @property
    def beatable(self) -> bool:
        return self.losing_lines > 0


def _line_counter(policy: Policy, role: Mark) -> Callable[[int], int]:
    """A memoised count of the opponent lines that beat ``policy`` from a position on.

    Written for speed: a point of the learning curve runs it at the end of every game
    that teaches the bot something.
    """
    memo: dict[int, int] = {}
    opponent = int(role.other)
    mine = int(role)
    my_parity = 1 if role is Mark.X else 0  # X moves when an odd number of cells is free
    memo_get = memo.get

    def lines(code: int) -> int:
        result = memo_get(code)
        if result is not None:
            return result
        won = WINNER[code]
        free = EMPTIES[code]
        if won or not free:
            result = 1 if won == opponent else 0
        elif len(free) % 2 == my_parity:
            result = lines(code + mine * POW3[policy(code)])
        else:
            result = 0
            for cell in free:
                result += lines(code + opponent * POW3[cell])
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
    facts = memory._facts
    return Vulnerability(role, count_losing_lines(lambda code: choose_code(facts, code), role))
