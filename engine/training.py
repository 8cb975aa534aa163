"""Training: play many games against an opponent and learn from each (seeds 001 and 004).

Opponents:

* ``"random"``: seed 001's "artificially stupid" player, uniform over free cells;
* ``"self"``: the bot against itself through the same memory, each move random with
  probability ``explore`` so that a deterministic policy does not replay one game forever;
* ``"teacher"``: plays, whenever one exists, a line that beats the bot's current policy
  (the lowest such cell), and a random move otherwise. It chooses only its own moves;
  the bot still plays from its memory alone;
* any callable taking a :class:`Board` and returning a cell 0..8.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from .analysis import _line_counter
from .board import Board
from .memory import Memory, learn_path
from .policy import choose_code
from .rules import EMPTIES, POW3, WINNER, Mark

Opponent = Literal["random", "self", "teacher"] | Callable[[Board], int]
Role = Mark | Literal["both"]
Progress = Callable[[int, int], object]  # (games done, games in all)


@dataclass(frozen=True, slots=True)
class TrainingReport:
    games: int
    wins: int  # the bot's, counted for the side the bot was given
    losses: int
    draws: int
    new_facts: int
    seconds: float

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")


def train(
    memory: Memory,
    games: int,
    *,
    opponent: Opponent = "random",
    role: Role = "both",
    seed: int | None = None,
    explore: float = 0.1,
    progress: Progress | None = None,
    progress_every: int | None = None,
) -> TrainingReport:
    """Play ``games`` games, the bot as ``role`` (alternating X and O for ``"both"``)."""
    if not isinstance(games, int) or games < 0:
        raise ValueError(f"games must be a whole number of at least 0, got {games!r}")
    if role not in (Mark.X, Mark.O, "both"):
        raise ValueError(f"role must be Mark.X, Mark.O or 'both', got {role!r}")
    rng = random.Random(seed)
    rand = rng.random
    table = memory._table

    def random_move(code: int) -> int:
        free = EMPTIES[code]
        return free[int(rand() * len(free))]

    if opponent == "random":
        opponent_move = random_move
    elif opponent == "self":

        def opponent_move(code: int) -> int:
            return random_move(code) if rand() < explore else choose_code(table, code)

    elif opponent == "teacher":
        opponent_move = _teacher(memory, random_move)

    elif callable(opponent):

        def opponent_move(code: int) -> int:
            cell = opponent(Board.from_code(code))
            if cell not in EMPTIES[code]:
                raise ValueError(f"opponent played {cell!r}, which is not a free cell")
            return cell

    else:
        raise ValueError(
            f"opponent must be 'random', 'self', 'teacher' or a callable, got {opponent!r}"
        )

    bot_move = opponent_move if opponent == "self" else (lambda code: choose_code(table, code))
    every = progress_every or max(1, games // 100)
    before = len(memory)
    wins = losses = 0
    started = time.perf_counter()
    for game in range(games):
        bot = int(role) if role != "both" else (1 if game % 2 == 0 else 2)
        code = 0
        path = []
        while True:
            free = EMPTIES[code]
            mark = 1 if len(free) % 2 else 2
            code += mark * POW3[bot_move(code) if mark == bot else opponent_move(code)]
            path.append(code)
            if WINNER[code] or len(free) == 1:
                break
        won = WINNER[code]
        learn_path(memory, path)
        if won == bot:
            wins += 1
        elif won:
            losses += 1
        if progress is not None and ((game + 1) % every == 0 or game + 1 == games):
            progress(game + 1, games)
    return TrainingReport(
        games,
        wins,
        losses,
        games - wins - losses,
        len(memory) - before,
        time.perf_counter() - started,
    )


def _teacher(memory: Memory, fallback: Callable[[int], int]) -> Callable[[int], int]:
    """The worst-case opponent: a winning line against the bot's current policy if any.

    The search is memoised per position and kept while the memory is unchanged (facts are
    only ever added, so their count is a version); once the bot is unbeatable, each move
    costs a lookup.
    """
    counters: dict[Mark, Callable[[int], int]] = {}
    version = [-1]

    table = memory._table

    def move(code: int) -> int:
        bot = Mark(3 - (1 if len(EMPTIES[code]) % 2 else 2))  # the side not to move
        if version[0] != len(memory):
            counters.clear()
            version[0] = len(memory)
        lines = counters.get(bot)
        if lines is None:
            lines = counters[bot] = _line_counter(table, bot)
        me = 3 - int(bot)
        for cell in EMPTIES[code]:
            if lines(code + me * POW3[cell]):
                return cell
        return fallback(code)

    return move
