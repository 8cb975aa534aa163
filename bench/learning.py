"""How fast does the bot become unbeatable? ``python -m bench.learning [--game ...]``

For each game, losses and games until the bot cannot be beaten, against the worst-case
teacher and against random players. "Unbeatable" is checked after every game that
changed the memory, by exhaustive search over every opponent line against the bot's
current policy. Tic-tac-toe's table puts seed 000's method (raw positions, losses only)
beside ours (canonical positions, proven wins and losses). Connect Four 5×4 is too large
to be perfected in a benchmark's time: it prints its learning curve against random
players instead (losses per thousand games, lessons, memory size). The classic board,
Connect Four 7×6, has its own benchmark (:mod:`bench.classic`): ``--game connect4-7x6``,
not part of ``all``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import engine
from engine import Game, Mark, Memory, count_losing_lines, get_game, winning_replies
from engine.memory import learn_path
from engine.policy import choose_code

ROLES = {"X": (Mark.X,), "O": (Mark.O,), "both": (Mark.X, Mark.O)}


class OurMethod:
    name = "ours"

    def __init__(self, game: Game) -> None:
        self.game = game
        self.memory = Memory(game=game)

    def policy(self, code: int) -> int:
        return choose_code(self.memory, code)

    def observe(self, codes: list[int], bot: Mark) -> bool:
        return learn_path(self.memory, codes) > 0

    def beatable(self, roles: tuple[Mark, ...]) -> bool:
        return any(engine.analyse(self.memory, role).beatable for role in roles)

    def __len__(self) -> int:
        return len(self.memory)


class Seed000Method:
    """Seed 000 as published: remember the raw position after each losing move, and when
    every move in a position is remembered, the position after the bot's move before."""

    name = "seed 000"

    def __init__(self, game: Game) -> None:
        self.game = game
        self.losing: set[int] = set()

    def _safe(self, code: int) -> list[int]:
        return [move for move, child, _ in self.game.moves(code) if child not in self.losing]

    def policy(self, code: int) -> int:
        safe = self._safe(code)
        return safe[0] if safe else self.game.moves(code)[0][0]

    def observe(self, codes: list[int], bot: Mark) -> bool:
        game = self.game
        before = len(self.losing)
        previous = game.empty  # position before the opponent's last move
        for i, code in enumerate(codes):
            mover = 1 if i % 2 == 0 else 2
            if mover != bot and game.moves(code) is not None and not self._safe(code):
                self.losing.add(previous)  # stuck: flag the bot's move before
            if mover == bot:
                previous = code
        won = game.winner(codes[-1])
        if won and won != bot:
            self.losing.add(codes[-2])  # the bot's last move lost
        return len(self.losing) != before

    def beatable(self, roles: tuple[Mark, ...]) -> bool:
        return any(count_losing_lines(self.policy, role, self.game) for role in roles)

    def __len__(self) -> int:
        return len(self.losing)


Method = OurMethod | Seed000Method
OpponentFn = Callable[[Method, Mark, int], int]


def play(method: Method, bot: Mark, opponent: OpponentFn) -> list[int]:
    game = method.game
    code, codes = game.empty, []
    while game.moves(code) is not None:
        mark = game.turn(code)
        move = method.policy(code) if mark == bot else opponent(method, bot, code)
        code = game.play(code, move)
        codes.append(code)
    return codes


def teacher(method: Method, bot: Mark, code: int) -> int:
    """The worst case: a move that keeps a forced win against the current policy."""
    wins = winning_replies(method.policy, bot, code, method.game)
    return wins[0] if wins else method.game.moves(code)[0][0]


def random_opponent(rng: random.Random) -> OpponentFn:
    return lambda method, bot, code: rng.choice(method.game.moves(code))[0]


def until_unbeatable(
    make: type, game: Game, roles: tuple[Mark, ...], opponent: OpponentFn, cap: int
):
    """(games, losses, facts) when the bot first cannot be beaten; games is None past cap."""
    method = make(game)
    losses = 0
    for played in range(cap):
        bot = roles[played % len(roles)]
        codes = play(method, bot, opponent)
        won = game.winner(codes[-1])
        if won and won != bot:
            losses += 1
        if method.observe(codes, bot) and not method.beatable(roles):
            return played + 1, losses, len(method)
    return None, losses, len(method)


def training_speed(make: type, game: Game, games: int, seed: int) -> float:
    """Games per second against the random player, learning from each, no verification."""
    method, rng = make(game), random.Random(seed)
    opponent = random_opponent(rng)
    started = time.perf_counter()
    for played in range(games):
        bot = Mark.X if played % 2 == 0 else Mark.O
        method.observe(play(method, bot, opponent), bot)
    return games / (time.perf_counter() - started)


def median_run(runs: list[tuple], cap: int) -> tuple[str, str, str]:
    """Median (games, losses, facts) of the runs, or '>cap' when most did not finish."""
    done = [r for r in runs if r[0] is not None]
    if len(done) * 2 <= len(runs):
        return f">{cap:,}", "-", "-"
    return tuple(f"{statistics.median(r[i] for r in done):,g}" for i in range(3))


def row(*cells: object) -> str:
    method, opponent, role, losses, games, facts = (str(c) for c in cells)
    return f"{method:9} {opponent:17} {role:5} {losses:>7} {games:>7} {facts:>6}"


def until_unbeatable_table(game: Game, makes: tuple[type, ...], seeds: int, cap: int) -> None:
    print(f"{game.title}: until the bot cannot be beaten (exhaustive search after each game):")
    print(row("method", "opponent", "role", "losses", "games", "facts"))
    for make in makes:
        for role_name, roles in ROLES.items():
            games, losses, facts = until_unbeatable(make, game, roles, teacher, cap)
            games = f">{cap:,}" if games is None else f"{games:,}"
            print(row(make.name, "worst-case", role_name, f"{losses:,}", games, f"{facts:,}"))
            runs = [
                until_unbeatable(make, game, roles, random_opponent(random.Random(s)), cap)
                for s in range(seeds)
            ]
            games, losses, facts = median_run(runs, cap)
            print(row(make.name, f"random, median {seeds}", role_name, losses, games, facts))


def curve(game: Game, checkpoints: tuple[int, ...], seed: int) -> None:
    """The learning curve against random players, the bot alternating X and O."""
    print(f"{game.title}: learning curve against random players (the bot as X and O in turn):")
    print(f"{'games':>9} {'losses':>8} {'loss rate since last':>21} {'lessons':>8} {'bytes':>8}")
    memory, done, lost = Memory(game=game), 0, 0
    for checkpoint in checkpoints:
        report = engine.train(memory, checkpoint - done, seed=seed + done)
        rate = report.losses / report.games
        done, lost = checkpoint, lost + report.losses
        print(f"{done:>9,} {lost:>8,} {rate:>20.1%} {len(memory):>8,} {memory.nbytes:>8,}")


def speed(game: Game, seed_method: bool) -> None:
    print(f"{game.title}: training speed against the random player (median of 5):")
    if seed_method:
        speeds = [training_speed(Seed000Method, game, 20_000, s) for s in range(5)]
        print(f"  seed 000: {statistics.median(speeds):>9,.0f} games/s")
    ours = statistics.median(
        engine.train(Memory(game=game), 20_000, seed=s).games_per_second for s in range(5)
    )
    print(f"  ours:     {ours:>9,.0f} games/s (engine.train)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--game",
        choices=[*engine.GAMES, "all"],
        default="all",
        help="which game's table (default: all but the classic connect4-7x6)",
    )
    parser.add_argument(
        "--seeds",
        type=int,
        default=None,
        help="random-opponent runs per row (default 11); connect4-7x6: seeds to run (default 2)",
    )
    parser.add_argument(
        "--first-seed", type=int, default=1, help="connect4-7x6: the first seed (default 1)"
    )
    parser.add_argument("--cap", type=int, default=50_000, help="games before giving up")
    parser.add_argument(
        "--games", type=int, default=2000, help="connect4-7x6: games against each player"
    )
    parser.add_argument(
        "--perfect", type=int, default=500, help="connect4-7x6: games as X against perfect"
    )
    parser.add_argument(
        "--opponents",
        default="club,weak,perfect",
        help="connect4-7x6: which opponents, comma-separated (club, weak, perfect; also "
        "lancebot, pool)",
    )
    parser.add_argument(
        "--designs",
        default="today,careful,widen,both",
        help="connect4-7x6: which designs, comma-separated (today, careful, widen, both; also "
        "rules, the experiment wins, and issue 43's learned, fixed, blend, sides, blendsides)",
    )
    args = parser.parse_args(argv)
    if args.game == "connect4-7x6":
        from . import classic

        opponents = tuple(name for name in args.opponents.split(",") if name)
        designs = tuple(name for name in args.designs.split(",") if name)
        unknown = [n for n in opponents if n not in classic.OPPONENTS] + [
            n for n in designs if n not in classic.DESIGNS
        ]
        if unknown or not opponents or not designs:
            parser.error(f"unknown or no opponents or designs: {', '.join(unknown) or 'none'}")
        seeds = args.seeds or 2
        classic.main(
            games=args.games,
            perfect=args.perfect,
            seeds=tuple(range(args.first_seed, args.first_seed + seeds)),
            opponents=opponents,
            designs=designs,
        )
        return
    args.seeds = args.seeds or 11
    names = (
        [n for n in engine.GAMES if not get_game(n).classic] if args.game == "all" else [args.game]
    )
    for name in names:
        game = get_game(name)
        if name == "tictactoe":
            until_unbeatable_table(game, (Seed000Method, OurMethod), args.seeds, args.cap)
        elif name == "connect4":
            # its random runs take about a minute each: fewer of them by default
            seeds = min(args.seeds, 3)
            until_unbeatable_table(game, (OurMethod,), seeds, max(args.cap, 200_000))
        else:
            curve(game, (300, 1_000, 3_000, 10_000, 30_000, 100_000, 300_000), seed=1)
        print()
        speed(game, seed_method=name == "tictactoe")
        print()


if __name__ == "__main__":
    main()
