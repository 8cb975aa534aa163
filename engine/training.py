"""Training: play many games against an opponent and learn from each (seeds 001 and 004).

Opponents:

* ``"random"``: seed 001's "artificially stupid" player, uniform over the legal moves;
* ``"self"``: the bot against itself through the same memory, each move random with
  probability ``explore`` so that a deterministic policy does not replay one game forever;
* ``"teacher"``: plays, whenever one exists, a line that beats the bot's current policy
  (the first such move in the naive order), and a random move otherwise. It chooses
  only its own moves; the bot still plays from its memory alone;
* any callable taking a :class:`Board` and returning a legal move.

Every game of the engine trains the same way (:mod:`engine.games`). On the classic board
(7×6) the bot plays its lookahead policy, the teacher is the perfect player (at random
among the solver's best columns: no search of the bot's tree is possible there), and
after each game the bot did not win the certified post-mortem runs too, widened to the
opponent's other replies as in the bot (:mod:`engine.postmortem`), when the solver is
installed.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from . import solver
from .analysis import _line_counter
from .board import Board
from .games import Game, Mark
from .memory import VALUES, Memory, Outcome, prove
from .ordering import fit_memory, refit_memory
from .policy import choose_child, choose_classic
from .postmortem import post_mortem

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
    ordered: bool = True,
) -> TrainingReport:
    """Play ``games`` games, the bot as ``role`` (alternating X and O for ``"both"``);
    ``memory`` learns from each as it ends. On the classic board the bot plays as at the
    learning level (``ordered``): a board model fitted on ``memory`` orders its open
    columns, refitted after each game that taught (``ordered=False``: centre-out)."""
    if not isinstance(games, int) or games < 0:
        raise ValueError(f"games must be a whole number of at least 0, got {games!r}")
    if role not in (Mark.X, Mark.O, "both"):
        raise ValueError(f"role must be Mark.X, Mark.O or 'both', got {role!r}")
    game = memory.game
    moves_of = game.moves
    rng = random.Random(seed)
    rand = rng.random
    # While it trains, the facts are also a dict: a lookup is one call in C, in any game.
    # What a game teaches is added to both at its end.
    known = dict(memory._table.items(game.keys() if game.slots is not None else None))
    get = known.get
    # the classic board's plies by key, and whether its post-mortem can run here
    plies = {key: d for key, _value, d in memory.distances()} if game.classic else {}
    certify = game.classic and solver.solver_available()

    def random_move(code: int, moves) -> int:
        return moves[int(rand() * len(moves))]

    # the classic board's model, in a list: refitted after each game that taught
    model = [fit_memory(memory) if game.classic and ordered else None]

    if game.classic:

        def bot_move(code: int, moves):
            return choose_classic(game, get, plies.get, code, model=model[0])
    else:

        def bot_move(code: int, moves):
            return choose_child(game, get, code)

    if opponent == "random":
        opponent_move = random_move
    elif opponent == "self":
        policy = bot_move  # bound now: the name is rebound below, and a late lookup recursed

        def opponent_move(code: int, moves):
            return random_move(code, moves) if rand() < explore else policy(code, moves)

        bot_move = opponent_move
    elif opponent == "teacher" and game.classic:
        if not solver.solver_available():
            raise ValueError(f"the teacher of {game.title} is its solver, not installed here")

        def opponent_move(code: int, moves):
            best = solver.best_columns(code)
            column = best[int(rand() * len(best))]
            return next(move for move in moves if move[0] == column)

    elif opponent == "teacher":
        opponent_move = _teacher(game, get, lambda: len(known), random_move)

    elif callable(opponent):

        def opponent_move(code: int, moves):
            move = opponent(Board.from_code(code, game=game))
            for legal in moves:
                if legal[0] == move and type(move) is int:
                    return legal
            raise ValueError(f"opponent played {move!r}, which is not a free {game.move_word}")

    else:
        raise ValueError(
            f"opponent must be 'random', 'self', 'teacher' or a callable, got {opponent!r}"
        )

    every = progress_every or max(1, games // 100)
    before = len(memory)
    wins = losses = 0
    started = time.perf_counter()
    for played in range(games):
        bot = int(role) if role != "both" else (1 if played % 2 == 0 else 2)
        code = game.empty
        mark = 1
        path = []
        moves = moves_of(code)
        while moves is not None:
            move = bot_move(code, moves) if mark == bot else opponent_move(code, moves)
            code = move[1]
            path.append(move)
            mark = 3 - mark
            moves = moves_of(code)
        taught = []
        for _move, child, key in reversed(path):  # learn, last move first
            if get(key) is None:
                outcome = prove(game, get, child)
                if outcome is not None:
                    known[key] = value = VALUES[outcome]
                    memory.record(key, value)
                    taught.append(key)
        won = game.winner(code)
        if certify and won != bot:
            facts = post_mortem(game, [move[0] for move in path], bot)
            taught.extend(key for key, _outcome, _plies in facts if key not in known)
            memory.add_proven(facts)
            for key, outcome, distance in facts:
                known[key] = VALUES[Outcome(outcome)]
                plies[key] = distance
        if model[0] is not None and taught:
            model[0] = refit_memory(model[0], memory, taught)
        if won == bot:
            wins += 1
        elif won:
            losses += 1
        if progress is not None and ((played + 1) % every == 0 or played + 1 == games):
            progress(played + 1, games)
    return TrainingReport(
        games,
        wins,
        losses,
        games - wins - losses,
        len(memory) - before,
        time.perf_counter() - started,
    )


def _teacher(
    game: Game,
    known: Callable[[int], int | None],
    version: Callable[[], int],
    fallback: Callable,
) -> Callable:
    """The worst-case opponent: a winning line against the bot's current policy if any.

    The search is memoised per position and kept while the facts are unchanged (they are
    only ever added, so their count is a version); once the bot is unbeatable, each move
    costs a lookup.
    """
    counters: dict[int, Callable[[int], int]] = {}
    seen = [-1]

    def move(code: int, moves):
        bot = 3 - game.turn(code)  # the side not to move
        if seen[0] != version():
            counters.clear()
            seen[0] = version()
        lines = counters.get(bot)
        if lines is None:
            lines = counters[bot] = _line_counter(game, known, Mark(bot))
        for legal in moves:
            if lines(legal[1]):
                return legal
        return fallback(code, moves)

    return move
