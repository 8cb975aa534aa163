"""How the bot learns the classic board, Connect Four 7×6 (issue 25):
``python -m bench.learning --game connect4-7x6 [--games N] [--perfect N]``.

Side by side, the bot with the certified post-mortem and without it (one move ahead and
the three rules only), against:

* a club player: a depth-4 search with a line heuristic, 10 % random moves;
* a weak player: wins, blocks 70 % of threats, else random;
  (the bot as X and O in turn: losses per 100 games in blocks of 100, facts and bytes)
* the perfect player, at random among the solver's best columns, the bot as X and as O
  separately: losses per block of 50.

The post-mortems run in a worker process, as in the bot (the solver holds the GIL): their
CPU per game (median, p99, max) and the worker's peak RSS are printed at the end.
"""

from __future__ import annotations

import random
import resource
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from engine import Mark, Memory, get_game, solver
from engine.memory import learn_path
from engine.policy import choose_classic
from engine.postmortem import post_mortem

GAME = get_game("connect4-7x6")
CLUB_DEPTH = 4
CLUB_RANDOM = 0.1
WEAK_BLOCKS = 0.7
WIN_SCORE = 1_000_000


# --- opponents ---------------------------------------------------------------------------
def _threes(own: int, empty: int) -> int:
    """Windows of four in a row holding three of ``own`` and one empty cell (bitboards in
    the engine's layout: columns of 7 bits, so lines never wrap)."""
    count = 0
    for step in (1, 7, 6, 8):
        p1, p2, p3 = own >> step, own >> 2 * step, own >> 3 * step
        e1, e2, e3 = empty >> step, empty >> 2 * step, empty >> 3 * step
        count += (
            (empty & p1 & p2 & p3)
            | (own & e1 & p2 & p3)
            | (own & p1 & e2 & p3)
            | (own & p1 & p2 & e3)
        ).bit_count()
    return count


BOARD = sum(((1 << 6) - 1) << 7 * c for c in range(7))
CENTRE = ((1 << 6) - 1) << 21


def heuristic(code: int) -> int:
    """The line heuristic, for the player to move: open threes and centre stones."""
    xs, stones, count = GAME._boards(code)
    os = stones ^ xs
    empty = BOARD & ~stones
    mine, theirs = (xs, os) if count % 2 == 0 else (os, xs)
    return 5 * (_threes(mine, empty) - _threes(theirs, empty)) + 2 * (
        (mine & CENTRE).bit_count() - (theirs & CENTRE).bit_count()
    )


def _negamax(code: int, depth: int, alpha: int, beta: int) -> int:
    moves = GAME.moves(code)
    if moves is None:
        return -WIN_SCORE - depth if GAME.winner(code) else 0  # the mover has lost or drawn
    if depth == 0:
        return heuristic(code)
    best = -2 * WIN_SCORE
    for _move, child, _key in moves:
        value = -_negamax(child, depth - 1, -beta, -alpha)
        if value > best:
            best = value
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    break
    return best


def club_player(rng: random.Random):
    def move(code: int) -> int:
        moves = GAME.moves(code)
        if rng.random() < CLUB_RANDOM:
            return rng.choice(moves)[0]
        best, chosen = -3 * WIN_SCORE, []
        for column, child, _key in moves:
            value = -_negamax(child, CLUB_DEPTH - 1, -3 * WIN_SCORE, 3 * WIN_SCORE)
            if value > best:
                best, chosen = value, [column]
            elif value == best:
                chosen.append(column)
        return rng.choice(chosen)

    return move


def weak_player(rng: random.Random):
    def move(code: int) -> int:
        mover = GAME.turn(code)
        wins = GAME.fours(code, mover)
        if wins:
            return wins[0]
        threats = GAME.fours(code, 3 - mover)
        if threats and rng.random() < WEAK_BLOCKS:
            return threats[0]
        return rng.choice(GAME.moves(code))[0]

    return move


def perfect_player(rng: random.Random):
    def move(code: int) -> int:
        return rng.choice(solver.best_columns(code))

    return move


# --- the post-mortem worker --------------------------------------------------------------
def _worker_post_mortem(moves: list[int], bot: int) -> tuple[list, float, int]:
    """In the worker: the facts, the CPU seconds they took, and the worker's peak RSS."""
    started = time.process_time()
    facts = post_mortem(GAME.name, moves, bot)
    seconds = time.process_time() - started
    return facts, seconds, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


@dataclass
class Costs:
    seconds: list[float] = field(default_factory=list)
    rss_kb: int = 0


# --- the bot -----------------------------------------------------------------------------
def play(memory: Memory, bot: Mark, opponent) -> tuple[list[int], list[int]]:
    """A game of the bot (its lookahead policy) against ``opponent``: moves and codes."""
    known, plies = memory.known, memory.plies
    code, moves, codes = GAME.empty, [], []
    while GAME.moves(code) is not None:
        if GAME.turn(code) == bot:
            move = choose_classic(GAME, known, plies, code)[0]
        else:
            move = opponent(code)
        moves.append(move)
        code = GAME.play(code, move)
        codes.append(code)
    return moves, codes


def series(
    opponent, games: int, roles: tuple[Mark, ...], block: int, pool, costs: Costs | None
) -> tuple[list[int], Memory]:
    """Losses per block of ``block`` games, the bot's role cycling through ``roles``; with
    ``pool``, the post-mortem runs there after every game the bot did not win."""
    memory = Memory(game=GAME)
    losses = []
    for played in range(games):
        if played % block == 0:
            losses.append(0)
        bot = roles[played % len(roles)]
        moves, codes = play(memory, bot, opponent)
        learn_path(memory, codes)  # the three rules
        won = GAME.winner(codes[-1])
        if won and won != bot:
            losses[-1] += 1
        if pool is not None and won != bot:
            facts, seconds, rss = pool.submit(_worker_post_mortem, moves, int(bot)).result()
            memory.add_proven(facts)
            costs.seconds.append(seconds)
            costs.rss_kb = max(costs.rss_kb, rss)
    return losses, memory


def compare(title: str, make, games: int, roles, block: int, pool, costs: Costs, seed: int):
    started = time.perf_counter()
    plain, plain_memory = series(make(random.Random(seed)), games, roles, block, None, None)
    certified, memory = series(make(random.Random(seed)), games, roles, block, pool, costs)
    print(f"{title}: losses per {block} games (the same opponent's dice for both)")
    print(f"{'games':>13} {'rules only':>11} {'post-mortem':>12}")
    for i, (a, b) in enumerate(zip(plain, certified, strict=True)):
        print(f"{i * block + 1:>6,}–{min((i + 1) * block, games):<6,} {a:>11} {b:>12}")
    for name, mem in (("rules only", plain_memory), ("post-mortem", memory)):
        per = mem.nbytes / len(mem) if len(mem) else 0
        print(f"  {name}: {len(mem):,} facts, {mem.nbytes:,} bytes ({per:.0f} a fact)")
    print(f"  ({time.perf_counter() - started:,.0f} s)")
    print()


def main(games: int = 2000, perfect: int = 300, seed: int = 1) -> None:
    if not solver.solver_available():
        raise SystemExit("this benchmark needs the solver: pip install bitbully bitbully-databases")
    costs = Costs()
    with ProcessPoolExecutor(max_workers=1) as pool:
        both = (Mark.X, Mark.O)
        compare(
            "Club player (depth 4, 10 % random)", club_player, games, both, 100, pool, costs, seed
        )
        compare("Weak player (wins, blocks 70 %)", weak_player, games, both, 100, pool, costs, seed)
        for role in both:
            title = f"Perfect player, the bot as {role.name}"
            compare(title, perfect_player, perfect, (role,), 50, pool, costs, seed)
    seconds = sorted(costs.seconds)
    if seconds:
        p99 = seconds[min(len(seconds) - 1, int(len(seconds) * 0.99))]
        print(
            f"Post-mortem CPU per game ({len(seconds):,} games, worker process): median "
            f"{statistics.median(seconds) * 1000:,.0f} ms, p99 {p99 * 1000:,.0f} ms, "
            f"max {seconds[-1] * 1000:,.0f} ms"
        )
    print(f"Solver worker's peak RSS: {costs.rss_kb / 1024:,.0f} MB (book {solver.BOOK})")
