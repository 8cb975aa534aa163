"""How the bot learns the classic board, Connect Four 7×6 (issues 25, 33 and 43):
``python -m bench.learning --game connect4-7x6 [--games N] [--perfect N] [--seeds N]
[--first-seed S] [--opponents club,weak,perfect,lancebot,pool] [--designs ...]``.

Side by side, with the same opponents and seeds, the designs of issue 33: today's (one
move ahead: take a four, block one; and the post-mortem of every column of the bot's
positions), + never dropping a stone under the opponent's four, + the widened
post-mortem (each other reply of the opponent too), both; and the rules alone
(``--designs rules``, not by default), and an experiment: both, looking back at the games
the bot won too (``--designs wins``). Issue 43's: both, with a board model ordering the
columns its facts and rules leave open (:mod:`engine.ordering`): ``learned`` (one table
of windows, from nothing), ``fixed`` (the control: a fixed evaluation counting open
windows, never trained), ``blend`` (that evaluation, corrected by the lessons), and a
table for each side of the mover, ``sides`` (from nothing) and ``blendsides`` (the bot's).
Against:

* a club player: a depth-4 search with a line heuristic, 10 % random moves;
* a weak player: wins, blocks 70 % of threats, else random;
* sir-lancebot's AI (``lancebot``, 200 games): its four (skipped 1 time in 10), else
  yours to block (1 time in 4), else random;
* a varied pool (``pool``): 7 players in turn, a new one each game;
  (the bot as X and O in turn: losses per 100 games in blocks of 100)
* the perfect player, at random among the solver's best columns, the bot as X: losses
  per block of 50 (as O the bot loses every game, as it must).

Facts and bytes after each run; each run's post-mortems run in a worker process of their
own, as in the bot (the solver holds the GIL): their CPU per game (median, p99, max) per
run and per design; with a model, its bytes, its refit's CPU per game, a move's CPU, how
many moves it changed and a fit from scratch on the final memory; and the goals of issue
43 per seed, at the end. The club and perfect players keep their searches by position,
shared by every run: their moves stay those of their seed, only faster.
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
from engine.ordering import BoardModel, fit_memory, refit_memory
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


def club_player(
    rng: random.Random,
    searched: dict[int, list[int]] | None = None,
    depth: int = CLUB_DEPTH,
    noise: float = CLUB_RANDOM,
):
    """The club player; ``searched`` keeps its searches by position (a search's result
    depends on the position alone, and the dice are thrown as without it, so its moves
    stay the same for the same seed: the benchmark shares one between its runs)."""
    searched = {} if searched is None else searched

    def move(code: int) -> int:
        moves = GAME.moves(code)
        if rng.random() < noise:
            return rng.choice(moves)[0]
        chosen = searched.get(code)
        if chosen is None:
            best, chosen = -3 * WIN_SCORE, []
            for column, child, _key in moves:
                value = -_negamax(child, depth - 1, -3 * WIN_SCORE, 3 * WIN_SCORE)
                if value > best:
                    best, chosen = value, [column]
                elif value == best:
                    chosen.append(column)
            searched[code] = chosen
        return rng.choice(chosen)

    return move


def weak_player(rng: random.Random, _searched=None):
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


def lancebot_player(rng: random.Random, _searched=None):
    """Sir-lancebot's AI (python-discord's bot): a four it can make (skipped one time in
    10), else a four of yours to block (skipped one time in 4), else a random column."""

    def move(code: int) -> int:
        mover = GAME.turn(code)
        if rng.randint(1, 10) != 1:
            wins = GAME.fours(code, mover)
            if wins:
                return min(wins)
        if rng.randint(1, 4) != 1:
            threats = GAME.fours(code, 3 - mover)
            if threats:
                return min(threats)
        return rng.choice(GAME.moves(code))[0]

    return move


def pool_player(rng: random.Random, searched: dict | None = None):
    """A varied pool of players, one per game in turn (the game's number picks): club
    players of depth 4 and 2 with 5, 10 or 25 % random moves, one that opens at random
    for its first 4 moves, the weak player and sir-lancebot's AI. Their searches are kept
    by depth."""
    searched = {} if searched is None else searched
    by_depth = {d: searched.setdefault(d, {}) for d in (2, 4)}
    players = [
        club_player(rng, by_depth[4], 4, 0.10),
        club_player(rng, by_depth[2], 2, 0.05),
        club_player(rng, by_depth[4], 4, 0.25),
        weak_player(rng),
        club_player(rng, by_depth[4], 4, 0.05),
        lancebot_player(rng),
    ]
    opener = club_player(rng, by_depth[4], 4, 0.0)
    state = {"game": -1, "player": players[0]}

    def move(code: int) -> int:
        stones = GAME._boards(code)[2]
        if stones < 2:  # a new game (the bot may have opened it)
            state["game"] += 1
            k = state["game"] % (len(players) + 1)
            state["player"] = players[k] if k < len(players) else None
        player = state["player"]
        if player is None:  # the random opener, then the club player
            return rng.choice(GAME.moves(code))[0] if stones < 4 else opener(code)
        return player(code)

    return move


def perfect_player(rng: random.Random, searched: dict[int, list[int]] | None = None):
    """The perfect player, at random among the solver's best columns (kept by position in
    ``searched``, as the club player's)."""
    searched = {} if searched is None else searched

    def move(code: int) -> int:
        best = searched.get(code)
        if best is None:
            best = searched[code] = solver.best_columns(code)
        return rng.choice(best)

    return move


# --- the designs compared -----------------------------------------------------------------
@dataclass(frozen=True)
class Design:
    title: str
    careful: bool  # never drops a stone under the opponent's four (policy step 4)
    post_mortem: bool
    widen: bool = False
    wins_too: bool = False  # an experiment: games the bot won are looked back at too (both
    # sides' positions, as for a game between members); the bot does not
    ordering: str | None = None  # issue 43: a board model orders the open columns


DESIGNS = {
    "rules": Design("rules only", careful=False, post_mortem=False),
    "today": Design("today", careful=False, post_mortem=True),
    "careful": Design("+never a 4", careful=True, post_mortem=True),
    "widen": Design("+widening", careful=False, post_mortem=True, widen=True),
    "both": Design("both", careful=True, post_mortem=True, widen=True),
    "wins": Design("both+wins", careful=True, post_mortem=True, widen=True, wins_too=True),
    # issue 43: the bot ("both") with a learned ordering of its open columns, the control
    # (a fixed evaluation counting open windows) and the evaluation the lessons correct
    "learned": Design("+learned", careful=True, post_mortem=True, widen=True, ordering="learned"),
    "fixed": Design("+fixed eval", careful=True, post_mortem=True, widen=True, ordering="fixed"),
    "blend": Design("+blend", careful=True, post_mortem=True, widen=True, ordering="blend"),
    # experiments: a table of windows for each side of the player who moved (parity)
    "sides": Design(
        "+learned/side", careful=True, post_mortem=True, widen=True, ordering="learned-sides"
    ),
    "blendsides": Design(
        "+blend/side", careful=True, post_mortem=True, widen=True, ordering="blend-sides"
    ),
}
DEFAULT_DESIGNS = ("today", "careful", "widen", "both")


@dataclass(frozen=True)
class Opponent:
    title: str
    make: object  # (rng, searched) -> a player
    roles: tuple[Mark, ...]
    block: int
    games: int | None = None  # its own number of games, whatever --games says


OPPONENTS = {
    "club": Opponent("Club player (depth 4, 10 % random)", club_player, (Mark.X, Mark.O), 100),
    "weak": Opponent("Weak player (wins, blocks 70 %)", weak_player, (Mark.X, Mark.O), 100),
    "perfect": Opponent("Perfect player, the bot as X", perfect_player, (Mark.X,), 50),
    "lancebot": Opponent("Sir-lancebot's AI", lancebot_player, (Mark.X, Mark.O), 100, 200),
    "pool": Opponent("A varied pool of 7 players", pool_player, (Mark.X, Mark.O), 100),
}


# --- the post-mortem worker --------------------------------------------------------------
def _worker_post_mortem(moves: list[int], bot: int | None, widen: bool) -> tuple[list, float, int]:
    """In the worker: the facts, the CPU seconds they took, and the worker's peak RSS."""
    started = time.process_time()
    facts = post_mortem(GAME.name, moves, bot, widen=widen)
    seconds = time.process_time() - started
    return facts, seconds, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _start_worker() -> None:
    solver.load()  # the book, before the first game's clock starts


@dataclass
class Run:
    """One design against one opponent with one seed."""

    losses: list[int]
    facts: int
    nbytes: int
    seconds: list[float] = field(default_factory=list)  # post-mortem CPU per game
    rss_kb: int = 0
    refits: list[float] = field(default_factory=list)  # the model's CPU per refit
    moves: list[float] = field(default_factory=list)  # CPU of a move the model ordered
    ordered: int = 0  # bot moves the model ordered (two open columns or more)
    bot_moves: int = 0
    model_bytes: int = 0
    fit_seconds: float = 0.0  # a fit from scratch on the run's final memory


# --- the bot -----------------------------------------------------------------------------
def play(
    memory: Memory, bot: Mark, opponent, careful: bool = True, model=None, run: Run | None = None
) -> tuple[list[int], list[int]]:
    """A game of the bot (its lookahead policy) against ``opponent``: moves and codes."""
    known, plies = memory.known, memory.plies
    code, moves, codes = GAME.empty, [], []
    while GAME.moves(code) is not None:
        if GAME.turn(code) == bot:
            if model is None:
                move = choose_classic(GAME, known, plies, code, careful=careful)[0]
            else:
                started = time.thread_time()
                move = choose_classic(GAME, known, plies, code, careful=careful, model=model)[0]
                seconds = time.thread_time() - started
                run.bot_moves += 1
                if move != choose_classic(GAME, known, plies, code, careful=careful)[0]:
                    run.ordered += 1
                run.moves.append(seconds)
        else:
            move = opponent(code)
        moves.append(move)
        code = GAME.play(code, move)
        codes.append(code)
    return moves, codes


def series(design: Design, opponent, games: int, roles: tuple[Mark, ...], block: int) -> Run:
    """Losses per block of ``block`` games, the bot's role cycling through ``roles``; the
    post-mortem (if the design has one) runs in a worker process of this run's own after
    every game the bot did not win, as in the bot."""
    memory = Memory(game=GAME)
    run = Run([], 0, 0)
    model = BoardModel(design.ordering) if design.ordering else None
    known = memory.known
    pool = ProcessPoolExecutor(max_workers=1, initializer=_start_worker)
    try:
        for played in range(games):
            if played % block == 0:
                run.losses.append(0)
            bot = roles[played % len(roles)]
            moves, codes = play(memory, bot, opponent, design.careful, model, run)
            unknown = [k for k in {GAME.key(c) for c in codes} if not known(k)]
            learn_path(memory, codes)  # the three rules
            taught = [k for k in unknown if known(k)]
            won = GAME.winner(codes[-1])
            if won and won != bot:
                run.losses[-1] += 1
            if design.post_mortem and (won != bot or design.wins_too):
                side = int(bot) if won != bot else None
                facts, seconds, rss = pool.submit(
                    _worker_post_mortem, moves, side, design.widen
                ).result()
                taught.extend(key for key, _outcome, _plies in facts if not known(key))
                memory.add_proven(facts)
                run.seconds.append(seconds)
                run.rss_kb = max(run.rss_kb, rss)
            if model is not None and taught and model.kind != "fixed":
                started = time.thread_time()
                model = refit_memory(model, memory, taught)
                run.refits.append(time.thread_time() - started)
    finally:
        pool.shutdown()
    run.facts, run.nbytes = len(memory), memory.nbytes
    if model is not None:
        run.model_bytes = model.nbytes
        started = time.thread_time()
        fit_memory(memory, model.kind)
        run.fit_seconds = time.thread_time() - started
    return run


# --- what it prints ----------------------------------------------------------------------
def cpu(seconds: list[float]) -> str:
    """Median, p99 and max of a list of CPU seconds, in seconds."""
    if not seconds:
        return "-"
    ordered = sorted(seconds)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"median {statistics.median(ordered):.3f} s, p99 {p99:.2f} s, max {ordered[-1]:.2f} s"


def ms(seconds: list[float], scale: int = 1) -> str:
    """Median and p99 of CPU seconds, in ms (or µs, ``scale`` 1000)."""
    if not seconds:
        return "-"
    ordered = sorted(seconds)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    unit = 1000 * scale
    return f"median {statistics.median(ordered) * unit:.2f}, p99 {p99 * unit:.2f}"


def losses_in(run: Run, block: int, first: int, last: int) -> int:
    """The run's losses in games ``first``..``last`` (1-based, whole blocks)."""
    return sum(run.losses[(first - 1) // block : last // block])


def table(opponent: Opponent, games: int, seed: int, runs: dict[str, Run]) -> None:
    block = opponent.block
    print(f"{opponent.title}, seed {seed}: losses per {block} games")
    print(f"{'games':>13} " + " ".join(f"{DESIGNS[name].title:>11}" for name in runs))
    for i in range(len(next(iter(runs.values())).losses)):
        span = f"{i * block + 1:>6,}–{min((i + 1) * block, games):<6,}"
        print(f"{span} " + " ".join(f"{run.losses[i]:>11}" for run in runs.values()))
    print(f"{'all':>13} " + " ".join(f"{sum(run.losses):>11,}" for run in runs.values()))
    for name, run in runs.items():
        per = run.nbytes / run.facts if run.facts else 0
        print(
            f"  {DESIGNS[name].title}: {run.facts:,} facts, {run.nbytes:,} bytes ({per:.0f} a "
            f"fact); post-mortem CPU per game {cpu(run.seconds)} ({len(run.seconds):,} games)"
        )
        if DESIGNS[name].ordering:
            print(
                f"    model: {run.model_bytes:,} bytes; refit CPU {ms(run.refits)} "
                f"({len(run.refits):,} refits); a move's CPU {ms(run.moves, 1000)} µs; "
                f"moves it changed {run.ordered:,} of {run.bot_moves:,}; a fit from scratch "
                f"on the final memory {run.fit_seconds * 1000:,.0f} ms"
            )
    print(flush=True)


GOALS = {  # opponent: (label, first game, last game, most losses), from issue 43
    "club": (("games 1,901–2,000", 1901, 2000, 10),),
    "weak": (("games 1,901–2,000", 1901, 2000, 3),),
    "perfect": (("games 451–500", 451, 500, 4),),
    "lancebot": (("games 1–200", 1, 200, 10),),
    "pool": (),
}


def goals(results: dict[tuple[str, int], dict[str, Run]], games: int, perfect: int) -> None:
    """Each goal of issue 43, per seed and design: the figure, and whether it is met."""
    print("The goals, per seed (✓ met, ✗ not):")
    for (name, seed), runs in results.items():
        opponent = OPPONENTS[name]
        played = perfect if name == "perfect" else opponent.games or games
        for label, first, last, most in GOALS[name]:
            if last > played:
                continue
            cells = []
            for design, run in runs.items():
                lost = losses_in(run, opponent.block, first, last)
                cells.append(f"{DESIGNS[design].title} {lost}{'✓' if lost <= most else '✗'}")
            print(f"  {name}, seed {seed}, {label} (≤ {most}): " + ", ".join(cells))
        if name == "club" and "both" in runs and games >= 600:
            today = losses_in(runs["both"], opponent.block, 1, 600)
            cells = [
                f"{DESIGNS[design].title} {lost}{'✓' if 3 * lost <= 2 * today else '✗'}"
                for design, run in runs.items()
                if design != "both"
                for lost in (losses_in(run, opponent.block, 1, 600),)
            ]
            part = f"  club, seed {seed}, games 1–600 (≤ 2/3 of the bot's today, {today}): "
            print(part + ", ".join(cells))
    print(
        "Post-mortem CPU per game, every run of a design (goal with widening: median ≤ 0.3 s, "
        "p99 ≤ 3 s):"
    )
    by_design: dict[str, list[float]] = {}
    rss = 0
    for runs in results.values():
        for design, run in runs.items():
            by_design.setdefault(design, []).extend(run.seconds)
            rss = max(rss, run.rss_kb)
    for design, seconds in by_design.items():
        if DESIGNS[design].post_mortem:
            print(f"  {DESIGNS[design].title}: {cpu(seconds)} ({len(seconds):,} games)")
    print(f"Solver worker's peak RSS: {rss / 1024:,.0f} MB (book {solver.BOOK})")


def main(
    games: int = 2000,
    perfect: int = 500,
    seeds: tuple[int, ...] = (1, 2),
    opponents: tuple[str, ...] = tuple(OPPONENTS),
    designs: tuple[str, ...] = DEFAULT_DESIGNS,
) -> None:
    if not solver.solver_available():
        raise SystemExit("this benchmark needs the solver: pip install bitbully bitbully-databases")
    print(
        "Designs: today = one move ahead (take a four, block yours) + the post-mortem of "
        "every column; +never a 4 = never drops a stone under the opponent's four; "
        "+widening = the post-mortem also values each other reply of the opponent; both; "
        "+learned, +fixed eval, +blend, +learned/side, +blend/side = both with a board "
        "model ordering its open columns (issue 43).",
        flush=True,
    )
    searched: dict[str, dict] = {name: {} for name in OPPONENTS}  # shared: same moves
    results: dict[tuple[str, int], dict[str, Run]] = {}
    for seed in seeds:
        for name in opponents:
            opponent = OPPONENTS[name]
            played = perfect if name == "perfect" else opponent.games or games
            started = time.perf_counter()
            runs = results[name, seed] = {}
            for design in designs:
                player = opponent.make(random.Random(seed), searched[name])
                run = runs[design] = series(
                    DESIGNS[design], player, played, opponent.roles, opponent.block
                )
                print(
                    f"  ({name}, seed {seed}, {DESIGNS[design].title}: {sum(run.losses):,} "
                    f"losses, {time.perf_counter() - started:,.0f} s)",
                    flush=True,
                )
            table(opponent, played, seed, runs)
            print(f"  ({time.perf_counter() - started:,.0f} s)", flush=True)
    goals(results, games, perfect)
