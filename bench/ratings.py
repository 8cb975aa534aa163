"""Ratings: the anchors, the costs, and a month of a learning bot. ``python -m bench.ratings``

``--anchors``: the easy and medium levels' ratings per board (``engine.ratings.ANCHORS``).
The levels play a server's memory with random moves at their rate: here a memory taught
until unbeatable on tic-tac-toe and 4×4 (where a server's levels end up), a new server's
on 5×4 and 7×6 (the rules alone; no benchmark teaches those to the end). A round robin
on each board between the uniformly random player (pinned at 1000), easy, medium, and
the exact player with ε-random moves (ε 0.5 and 0.2: an exact solver
picks among its best moves otherwise: tic-tac-toe's and the minis' are tests/engine's
independent solvers, 7×6's is bitbully), ``--games`` games per pair, colours
alternating. The ratings are the maximum-likelihood fit of those results under the
rating model's own win probability (OpenSkill's Plackett-Luce for two players is a
logistic in the difference, over c = √(2β² + 2σ²) with the anchors' σ of 30), a draw
half a win: the number a member's games against a level would converge to.

``--costs``: the rating update's CPU on the loop at a game's end (the model and the
statements; the store's read and write run in its thread), median and p99; ``by:rating``
on a server of 10,000 rated members (SQLite, a real file), median and p99, with the
query plan; the bytes per member and board on disk.

``--month``: a 7×6 learning bot (rules and post-mortem, as a server's) against a pool of
varied members over four simulated weeks; members also play medium and easy, which pin
the scale. Prints the bot's rating at the end of each week.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import random
import statistics
import tempfile
import time
from pathlib import Path

import engine
from bench._common import percentile, unbeatable
from data import Store
from data.ratings import rating_statements
from engine import Board, Memory
from engine.ratings import BETA, BOT, START, Rating
from gameflow.ratings import new_ratings
from gameflow.service import LEVELS

BOARDS = ("tictactoe", "connect4", "connect4-5x4", "connect4-7x6")
RANDOM_PINNED = 1000.0
ANCHOR_SIGMA = 30.0


# --- players ----------------------------------------------------------------------------
def exact_values(game: str):
    """The value of each legal move for the player to move: +1 win, 0 draw, -1 loss."""
    if game == "connect4-7x6":
        from engine import solver

        def values(board: Board) -> dict[int, int]:
            return {m: (s > 0) - (s < 0) for m, s in solver.raw_scores(board.code).items()}

        return values
    if game == "tictactoe":
        from tests.engine import oracle

        def child_value(position: str) -> int:
            return -oracle.value(position)

    else:
        from tests.engine.connect4_oracle import solver as oracle_solver

        rules = engine.get_game(game)
        exact = oracle_solver(rules.width, rules.height)

        def child_value(position: str) -> int:
            if exact.has_four(position):
                return 1
            return 0 if "." not in position else -exact.value(position)

    def values(board: Board) -> dict[int, int]:
        result = {}
        for move in board.legal_moves:
            child = board.copy()
            child.push(move)
            result[move] = child_value(child.position)
        return result

    return values


def exact_player(game: str, epsilon: float, rng: random.Random):
    values = exact_values(game)

    def move(board: Board) -> int:
        if rng.random() < epsilon:
            return rng.choice(board.legal_moves)
        scored = values(board)
        best = max(scored.values())
        return rng.choice([m for m, v in scored.items() if v == best])

    return move


def level_player(game: str, level: str, rng: random.Random, memory: Memory | None = None):
    memory = memory if memory is not None else Memory(game=game)

    def move(board: Board) -> int:
        if rng.random() < LEVELS[level]:
            return rng.choice(board.legal_moves)
        return engine.choose_move(memory, board)

    return move


def random_player(rng: random.Random):
    return lambda board: rng.choice(board.legal_moves)


def play(game: str, first, second) -> tuple[float, tuple[int, ...]]:
    """1 if ``first`` (X) won, 0.5 a draw, 0 a loss; and the moves."""
    board = Board(game=game)
    while not board.is_game_over():
        board.push((first if board.turn is engine.Mark.X else second)(board))
    if board.winner is None:
        return 0.5, board.moves
    return (1.0 if board.winner is engine.Mark.X else 0.0), board.moves


# --- the anchors ------------------------------------------------------------------------
def fit(names: list[str], results: list[tuple[int, int, float]], pinned: int) -> list[float]:
    """Maximum likelihood ratings under P(a beats b) = 1 / (1 + exp(-(a - b) / c)), a draw
    half a win (Hunter's MM iterations for Bradley-Terry), ``pinned`` at 1000."""
    c = math.sqrt(2 * BETA**2 + 2 * ANCHOR_SIGMA**2)
    size = len(names)
    wins = [0.5] * size  # half a win each beforehand: a player who never won stays finite
    pairs = [[0] * size for _ in range(size)]
    for a, b, score in results:
        wins[a] += score
        wins[b] += 1 - score
        pairs[a][b] += 1
        pairs[b][a] += 1
    strength = [1.0] * size
    for _ in range(2000):
        strength = [
            wins[i]
            / max(
                1e-12,
                sum(pairs[i][j] / (strength[i] + strength[j]) for j in range(size) if j != i),
            )
            for i in range(size)
        ]
    shift = RANDOM_PINNED - c * math.log(strength[pinned])
    return [shift + c * math.log(p) for p in strength]


def taught(game: str, seed: int) -> Memory:
    """The memory the levels play with: taught until unbeatable where the teacher gets it
    there in a benchmark's time (tic-tac-toe, 4×4), which is where a server's levels end
    up; a new server's elsewhere (5×4, 7×6: the rules, and on 7×6 no lesson yet)."""
    if game in ("tictactoe", "connect4"):
        return unbeatable(game, seed)
    return Memory(game=game)


def anchors(games: int, seed: int, boards: tuple[str, ...]) -> None:
    print(f"Anchors: a round robin, {games} games a pair, colours alternating; random = 1000")
    print(f"{'board':14} {'easy':>6} {'medium':>7} {'exact ε.5':>10} {'exact ε.2':>10} {'s':>5}")
    for game in boards:
        started = time.process_time()
        rng = random.Random(seed)
        memory = taught(game, seed)
        players = {
            "random": random_player(rng),
            "easy": level_player(game, "easy", rng, memory),
            "medium": level_player(game, "medium", rng, memory),
            "exact ε.5": exact_player(game, 0.5, rng),
            "exact ε.2": exact_player(game, 0.2, rng),
        }
        names = list(players)
        results = []
        for a in range(len(names)):
            for b in range(a + 1, len(names)):
                for n in range(games):
                    x, o = (a, b) if n % 2 == 0 else (b, a)
                    score, _ = play(game, players[names[x]], players[names[o]])
                    results.append((x, o, score))
        rated = dict(zip(names, fit(names, results, 0), strict=True))
        seconds = time.process_time() - started
        print(
            f"{game:14} {rated['easy']:>6.0f} {rated['medium']:>7.0f}"
            f" {rated['exact ε.5']:>10.0f} {rated['exact ε.2']:>10.0f} {seconds:>5.0f}"
        )


# --- the costs ---------------------------------------------------------------------------
def update_cost(updates: int, seed: int) -> None:
    rng = random.Random(seed)
    times = []
    for n in range(-200, updates):  # the first 200: warming up, not counted
        known = {
            7: Rating(rng.randint(120000, 180000), rng.randint(4000, 35000)),
            BOT: Rating(rng.randint(120000, 180000), rng.randint(3000, 35000)),
        }
        level = rng.choice(("learning", "learning", "medium", "easy"))
        opponent = 8 if n % 5 == 0 else None
        started = time.perf_counter()
        changes = new_ratings(known, "connect4-7x6", 7, opponent, level, rng.choice((0, 0.5, 1)))
        rating_statements(
            1, "connect4-7x6", {c.player_id: (c.after.mu, c.after.sigma) for c in changes},
            BOT, now=1.0,
        )  # fmt: skip
        if n >= 0:
            times.append(time.perf_counter() - started)
    print(
        f"rating update on the loop, {updates:,} games: median "
        f"{statistics.median(times) * 1e3:.3f} ms, p99 {percentile(times, 0.99):.3f} ms"
    )


async def leaderboard_cost(members: int, asks: int, seed: int) -> None:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "ratings.sqlite3"
        store = await Store.open(path)
        empty = path.stat().st_size + _wal(path)
        guild = 1234567890123456789
        batch, rated = [], []
        for n in range(members):
            member = 100000000000000000 + rng.randrange(10**17)
            rated.append(member)
            sigma = rng.choice((rng.randint(5000, 10999), rng.randint(11000, 35000)))
            batch += rating_statements(
                guild, "connect4-7x6", {member: (rng.randint(100000, 200000), sigma)}, now=1.0
            )
            if len(batch) >= 1000 or n == members - 1:
                await store._write(batch)
                batch = []
        plan = await store._fetch(
            "EXPLAIN QUERY PLAN SELECT player_id, mu, sigma FROM ratings WHERE guild_id = ?"
            " AND board = ? AND sigma < 11000 AND player_id + 0 > 0 ORDER BY mu DESC, player_id"
            " LIMIT 10",
            (guild, 3),
        )
        times = []
        for _ in range(asks):  # a rated member asks: their own place is counted too
            asker = rng.choice(rated)
            started = time.perf_counter()
            await store.rating_leaderboard(guild, "connect4-7x6", player_id=asker)
            times.append(time.perf_counter() - started)
        await store.close()
        db = await Store.open(path)
        await db._driver._db.execute("VACUUM")
        await db.close()
        size = path.stat().st_size + _wal(path)
    print(
        f"by:rating, {members:,} rated members: median {statistics.median(times) * 1e3:.2f} ms,"
        f" p99 {percentile(times, 0.99):.2f} ms; plan: {'; '.join(row[-1] for row in plan)}"
    )
    print(f"on disk: {(size - empty) / members:.1f} bytes per member and board (after VACUUM)")


def _wal(path: Path) -> int:
    wal = path.with_name(path.name + "-wal")
    return wal.stat().st_size if wal.exists() else 0


# --- a month -----------------------------------------------------------------------------
def month(games: int, seed: int) -> None:
    """The 7×6 learning bot against a varied pool: its rating at the end of each week."""
    from bench.classic import club_player, weak_player

    game = "connect4-7x6"
    rng = random.Random(seed)
    memory = Memory(game=game)

    def by_code(player):
        return lambda board: player(board.code)

    pool = {  # eight members: two of each kind
        member: kind
        for member, kind in enumerate(
            [
                by_code(weak_player(rng)),
                by_code(weak_player(rng)),
                exact_player(game, 0.6, rng),
                exact_player(game, 0.4, rng),
                by_code(club_player(rng)),
                by_code(club_player(rng)),
                exact_player(game, 0.2, rng),
                exact_player(game, 0.1, rng),
            ],
            start=1,
        )
    }
    known: dict[int, Rating] = {}
    week = games // 4
    print(f"A month on 7×6: {games} games, {week} a week, 8 members (weak, ε-exact, club)")
    print(f"{'week':>4} {'bot':>6} {'± σ':>5} {'lost of learning games':>23} {'lessons':>8}")
    lost = played = 0
    started = time.process_time()
    for n in range(games):
        member = rng.choice(list(pool))
        level = rng.choices(("learning", "medium", "easy"), (0.7, 0.2, 0.1))[0]
        bot = level_player(game, level, rng, memory)
        bot_first = n % 2 == 0
        score, moves = play(game, bot, pool[member]) if bot_first else play(game, pool[member], bot)
        member_score = 1 - score if bot_first else score
        if level == "learning":
            played += 1
            lost += member_score == 1
        engine.learn(memory, moves, bot=engine.Mark.X if bot_first else engine.Mark.O)
        for change in new_ratings(known, game, member, None, level, member_score):
            known[change.player_id] = change.after
        if (n + 1) % week == 0:
            rating = known.get(BOT, START)
            print(
                f"{(n + 1) // week:>4} {rating.points:>6,} {rating.sigma / 100:>5.0f}"
                f" {f'{lost} of {played}':>23} {len(memory):>8,}"
            )
            lost = played = 0
    members = ", ".join(f"{known[m].points:,}" for m in sorted(pool) if m in known)
    print(f"members at the end (weak … ε .1): {members}; {time.process_time() - started:.0f} s")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--anchors", action="store_true")
    parser.add_argument("--costs", action="store_true")
    parser.add_argument("--month", action="store_true")
    parser.add_argument("--games", type=int, default=40, help="a pair's games (--anchors)")
    parser.add_argument("--boards", nargs="*", default=list(BOARDS), choices=BOARDS)
    parser.add_argument("--month-games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    every = not (args.anchors or args.costs or args.month)
    if args.anchors or every:
        anchors(args.games, args.seed, tuple(args.boards))
    if args.costs or every:
        update_cost(5000, args.seed)
        asyncio.run(leaderboard_cost(10_000, 500, args.seed))
    if args.month or every:
        month(args.month_games, args.seed)


if __name__ == "__main__":
    main()
