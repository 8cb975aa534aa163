"""How fast does the bot become unbeatable? ``python -m bench.learning``

Prints one table, side by side, for seed 000's method (raw positions, losses only) and
for ours (canonical positions, proven wins and losses). "Unbeatable" is checked after
every game that changed the memory, by exhaustive search over every opponent line
against the bot's current policy.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import engine
from engine import Mark, Memory, count_losing_lines, winning_replies
from engine.memory import learn_path
from engine.policy import choose_code
from engine.rules import EMPTIES, POW3, WINNER

ROLES = {"X": (Mark.X,), "O": (Mark.O,), "both": (Mark.X, Mark.O)}


class OurMethod:
    name = "ours"

    def __init__(self) -> None:
        self.memory = Memory()
        self._table = self.memory.table

    def policy(self, code: int) -> int:
        return choose_code(self._table, code)

    def observe(self, codes: list[int], bot: Mark) -> bool:
        return learn_path(self.memory, codes) > 0

    def __len__(self) -> int:
        return len(self.memory)


class Seed000Method:
    """Seed 000 as published: remember the raw position after each losing move, and when
    every move in a position is remembered, the position after the bot's move before."""

    name = "seed 000"

    def __init__(self) -> None:
        self.losing: set[int] = set()

    def _safe(self, code: int) -> list[int]:
        mark = 1 if len(EMPTIES[code]) % 2 else 2
        return [c for c in EMPTIES[code] if code + mark * POW3[c] not in self.losing]

    def policy(self, code: int) -> int:
        safe = self._safe(code)
        return safe[0] if safe else EMPTIES[code][0]

    def observe(self, codes: list[int], bot: Mark) -> bool:
        before = len(self.losing)
        previous = 0  # position before the opponent's last move
        for i, code in enumerate(codes):
            mover = 1 if i % 2 == 0 else 2
            if mover != bot and not WINNER[code] and EMPTIES[code] and not self._safe(code):
                self.losing.add(previous)  # stuck: flag the bot's move before
            if mover == bot:
                previous = code
        if WINNER[codes[-1]] and WINNER[codes[-1]] != bot:
            self.losing.add(codes[-2])  # the bot's last move lost
        return len(self.losing) != before

    def __len__(self) -> int:
        return len(self.losing)


Method = OurMethod | Seed000Method
OpponentFn = Callable[[Method, Mark, int], int]


def play(method: Method, bot: Mark, opponent: OpponentFn) -> list[int]:
    code, codes = 0, []
    while not (WINNER[code] or not EMPTIES[code]):
        mark = 1 if len(EMPTIES[code]) % 2 else 2
        cell = method.policy(code) if mark == bot else opponent(method, bot, code)
        code += mark * POW3[cell]
        codes.append(code)
    return codes


def teacher(method: Method, bot: Mark, code: int) -> int:
    """The worst case: a move that keeps a forced win against the current policy."""
    wins = winning_replies(method.policy, bot, code)
    return wins[0] if wins else EMPTIES[code][0]


def random_opponent(rng: random.Random) -> OpponentFn:
    return lambda method, bot, code: rng.choice(EMPTIES[code])


def beatable(method: Method, roles: tuple[Mark, ...]) -> bool:
    return any(count_losing_lines(method.policy, role) for role in roles)


def until_unbeatable(make: type, roles: tuple[Mark, ...], opponent: OpponentFn, cap: int):
    """(games, losses, facts) when the bot first cannot be beaten; games is None past cap."""
    method = make()
    losses = 0
    for game in range(cap):
        bot = roles[game % len(roles)]
        codes = play(method, bot, opponent)
        if WINNER[codes[-1]] and WINNER[codes[-1]] != bot:
            losses += 1
        if method.observe(codes, bot) and not beatable(method, roles):
            return game + 1, losses, len(method)
    return None, losses, len(method)


def training_speed(make: type, games: int, seed: int) -> float:
    """Games per second against the random player, learning from each, no verification."""
    method, rng = make(), random.Random(seed)
    opponent = random_opponent(rng)
    started = time.perf_counter()
    for game in range(games):
        bot = Mark.X if game % 2 == 0 else Mark.O
        method.observe(play(method, bot, opponent), bot)
    return games / (time.perf_counter() - started)


def median_run(runs: list[tuple], cap: int) -> tuple[str, str, str]:
    """Median (games, losses, facts) of the runs, or '>cap' when most did not finish."""
    done = [r for r in runs if r[0] is not None]
    if len(done) * 2 <= len(runs):
        return f">{cap}", "-", "-"
    return tuple(f"{statistics.median(r[i] for r in done):g}" for i in range(3))


def row(*cells: object) -> str:
    method, opponent, role, losses, games, facts = (str(c) for c in cells)
    return f"{method:9} {opponent:17} {role:5} {losses:>7} {games:>7} {facts:>6}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=11, help="random-opponent runs per row")
    parser.add_argument("--cap", type=int, default=50_000, help="games before giving up")
    args = parser.parse_args(argv)

    print("Until the bot cannot be beaten (checked by exhaustive search after each game):")
    print(row("method", "opponent", "role", "losses", "games", "facts"))
    for make in (Seed000Method, OurMethod):
        for role_name, roles in ROLES.items():
            games, losses, facts = until_unbeatable(make, roles, teacher, args.cap)
            games = f">{args.cap}" if games is None else games
            print(row(make.name, "worst-case", role_name, losses, games, facts))
            runs = [
                until_unbeatable(make, roles, random_opponent(random.Random(s)), args.cap)
                for s in range(args.seeds)
            ]
            games, losses, facts = median_run(runs, args.cap)
            label = f"random, median {args.seeds}"
            print(row(make.name, label, role_name, losses, games, facts))
    print("\nTraining speed against the random player, learning from every game (median of 5):")
    seed_speed = statistics.median(training_speed(Seed000Method, 20_000, s) for s in range(5))
    print(f"  seed 000: {seed_speed:>9,.0f} games/s")
    ours = statistics.median(
        engine.train(Memory(), 20_000, seed=s).games_per_second for s in range(5)
    )
    print(f"  ours:     {ours:>9,.0f} games/s (engine.train)")


if __name__ == "__main__":
    main()
