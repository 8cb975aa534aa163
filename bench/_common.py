"""What the benchmarks share: how they measure (percentiles, the event loop's stalls, the
process's RSS) and the load they make (servers playing through the game flow, memories
taught by random games and kept on disk, PostgreSQL schemas of their own), and how one
benchmark runs another.

Each ``python -m bench.X`` is an entry point, and none imports another: what two of them
need lives here, and a benchmark that prints another's figures runs it in a process of
its own (:func:`run_benchmark`), as it would run alone.
"""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
import tempfile
import time
import uuid
from contextlib import asynccontextmanager
from pathlib import Path

import engine
from engine import Mark, Memory
from tests.engine.random_play import learn_random_games

ROOT = Path(__file__).resolve().parent.parent


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] * 1000


class StallProbe:
    """The longest the event loop was late to wake a task that sleeps 2 ms at a time, and
    the CPU the whole process used meanwhile: far less than the stall means the process
    was not running (a machine others share), not that the loop was held."""

    def __init__(self) -> None:
        self.longest = 0.0
        self.longest_cpu = 0.0
        # the longest less the time the loop's thread was ready but the machine ran others
        # (/proc's schedstat): a wait for the GIL counts, a busy machine does not
        self.longest_own = 0.0
        self._task: asyncio.Task | None = None

    async def _run(self) -> None:
        import threading

        loop = asyncio.get_running_loop()
        path = f"/proc/self/task/{threading.get_native_id()}/schedstat"

        def waited() -> float:
            with open(path) as stats:
                return int(stats.read().split()[1]) / 1e9

        while True:
            asked, cpu, delay = loop.time(), time.process_time(), waited()
            await asyncio.sleep(0.002)
            late = loop.time() - asked - 0.002
            if late > self.longest:
                self.longest, self.longest_cpu = late, time.process_time() - cpu
            self.longest_own = max(self.longest_own, late - (waited() - delay))

    def __enter__(self) -> StallProbe:
        self._task = asyncio.ensure_future(self._run())
        return self

    def __exit__(self, *exc) -> None:
        self._task.cancel()

    def take(self) -> float:
        """The longest stall since the last take, in ms."""
        return self.take_with_cpu()[0]

    def take_with_cpu(self) -> tuple[float, float]:
        """The longest stall since the last take and the process's CPU during it, in ms."""
        taken = self.longest * 1000, self.longest_cpu * 1000
        self.longest = self.longest_cpu = 0.0
        return taken

    def take_own(self) -> tuple[float, float]:
        """The longest stall since the last take, by the clock and less the time the
        machine ran other processes instead, in ms."""
        taken = self.longest * 1000, self.longest_own * 1000
        self.longest = self.longest_cpu = self.longest_own = 0.0
        return taken


def rss_bytes() -> int:
    with open(f"/proc/{os.getpid()}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS in /proc: this benchmark needs Linux")


GAMES = ("tictactoe",)


async def play_server(
    service, server: int, games: int, think: float, rng, latencies, kinds=GAMES
) -> None:
    for _ in range(games):
        kind = kinds[rng.randrange(len(kinds))] if len(kinds) > 1 else kinds[0]
        turn = await service.start(server, server, server, bot_first=rng.random() < 0.5, game=kind)
        board = turn.game.board
        while turn.game.running:
            if think:
                await asyncio.sleep(rng.uniform(0, 2 * think))
            cell = rng.choice(board.legal_moves) + 1
            started = time.perf_counter()
            turn = await service.move(server, server, cell)
            latencies.append(time.perf_counter() - started)
            board = turn.game.board


CACHE = Path(tempfile.gettempdir()) / "ttt-bench-memories"


def trained(game: str, lessons: int, step: int = 200) -> Memory:
    """A memory of ``game`` with about ``lessons`` lessons, taught by games of random
    moves, read from the disk cache when it was made before."""
    path = CACHE / f"{game}-{lessons}.bin"
    memory = Memory(game=game)
    if path.exists():
        table = memory.table  # an empty table of the game's kind, filled from the file
        table.frombytes(path.read_bytes())
        return Memory.over(table, game)
    rng = random.Random(0)
    while len(memory) < lessons:
        learn_random_games(memory, step, rng)
    CACHE.mkdir(exist_ok=True)
    path.write_bytes(bytes(memory.table))
    return memory


def unbeatable(game: str, seed: int) -> Memory:
    """A memory taught by the teacher until nobody can beat it (tic-tac-toe, 4×4)."""
    memory = Memory(game=game)
    for _ in range(200):
        engine.train(memory, 2000, opponent="teacher", seed=seed)
        if not any(engine.analyse(memory, role).beatable for role in (Mark.X, Mark.O)):
            return memory
    raise RuntimeError(f"{game}: not unbeatable after the teacher's games")


@asynccontextmanager
async def postgres_schema(url: str):
    import asyncpg

    schema = f"ttt_bench_{uuid.uuid4().hex[:10]}"
    admin = await asyncpg.connect(url)
    try:
        await admin.execute(f"CREATE SCHEMA {schema}")
        yield schema
    finally:
        await admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        await admin.close()


def run_benchmark(module: str, *args: str, indent: str = "") -> None:
    """``python -m module args`` of this checkout in a process of its own, its lines
    printed as they come (each after ``indent``); an error if it fails."""
    command = [sys.executable, "-m", module, *args]
    sys.stdout.flush()  # what this one printed first comes first
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}  # each line as soon as it is printed
    with subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True) as process:
        for line in process.stdout:
            print(indent + line, end="", flush=True)
    if process.returncode:
        raise subprocess.CalledProcessError(process.returncode, command)
