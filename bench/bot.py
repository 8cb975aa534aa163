"""The game flow under load: ``python -m bench.bot``

1,000 servers play 10,000 games at once through the real game flow (``GameService``)
on a real SQLite file: a person's move, the bot's reply, learning, storing. Discord
itself is not in the loop: this measures our side of each move.

Three runs:

* **paced**: each person pauses before each move (uniform 0..2x ``--think`` seconds), as
  people do; this is the latency a server sees under that load;
* **flat out**: nobody pauses, so 1,000 moves always wait in line; this is the most
  moves per second one process can store;
* **flat out, synchronous=FULL**: the same with SQLite's fsync on every commit, which
  would also keep the last moves through a power loss: the price of that promise;
* **hot stats**: the paced run again while one more server, with ``--history`` finished
  games behind it, answers ``/ttt stats`` (the game flow's part, without the chart)
  every 100 ms: stats must not cost more as the history grows, nor slow everyone else;
* **both games mixed**: the paced run with each game drawn at random among tic-tac-toe,
  Connect Four 4x4 and 5x4 (the same servers play all three);
* **the classic board's stats** (``--only-classic`` for this alone, ``bench/classic_scale.py``):
  ``/connect4 stats`` on a 7×6 server with ``--history`` finished games and 200,000 facts,
  asked every 100 ms while 200 servers play: its p99, the longest loop callback, how long
  a small query waited behind it, and the other moves' p99 beside a run without it;
* **replays and history** (``--only-replays`` for this alone): on a server with
  ``--history`` finished games of every board (random games, a third of them with lessons
  credited, some between members), a replay step and ``history`` each through the game
  flow and drawn as Discord gets them, with the longest event-loop stall meanwhile.

Every game that teaches the bot something also stores a point of the learning curve
(lessons, ways to beat it as X and O): the cost of that point is printed too, from the
live analysis the game flow uses against a full one, and so is the time to draw the
curve's picture, which ``/ttt stats`` does in a thread.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import statistics
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

from bench._common import GAMES, StallProbe, percentile, play_server, run_benchmark
from data import Store
from data.sqlite import SYNCHRONOUS
from gameflow import GameService

MIXED = ("tictactoe", "connect4", "connect4-5x4")


def add_history(path: Path, guild_id: int, games: int) -> None:
    """Give a server ``games`` finished games, as its own play would have (the counters'
    triggers included), straight through SQLite: minutes of play in a second."""
    with sqlite3.connect(path) as db:
        db.executemany(
            "INSERT INTO games (guild_id, channel_id, player_id, bot_mark, moves, result,"
            " started_at, updated_at) VALUES (?, ?, ?, 'O', '4', 'running', 0, 0)",
            ((guild_id, -1 - n, n % 500) for n in range(games)),
        )
        db.execute(
            "UPDATE games SET result = CASE id % 3 WHEN 0 THEN 'bot_won' WHEN 1 THEN 'draw'"
            " ELSE 'player_won' END, ended_at = 1 WHERE guild_id = ?",
            (guild_id,),
        )


async def ask_stats(service, guild_id: int, timings: list[float], stop: asyncio.Event) -> None:
    while not stop.is_set():
        started = time.perf_counter()
        await service.scoreboard.stats(guild_id, 1)
        timings.append(time.perf_counter() - started)
        await asyncio.sleep(0.1)


def curve_point_costs(games: int = 3000, seed: int = 1) -> tuple[int, float, float]:
    """Per game that teaches: the learning curve's figures from the live analysis and from
    a full one (median ms), over ``games`` random games on one memory."""
    import engine
    from engine import LiveAnalysis, Mark, Memory

    rng = random.Random(seed)
    memory = Memory()
    live = LiveAnalysis(memory)
    incremental, full = [], []
    for _ in range(games):
        moves, board = [], engine.Board()
        while not board.is_game_over():
            moves.append(rng.choice(board.legal_moves))
            board.push(moves[-1])
        lessons = memory.learn(moves)
        if not lessons:
            continue
        started = time.perf_counter()
        live.learned(lesson.after for lesson in lessons)
        figures = live.losing_lines(Mark.X), live.losing_lines(Mark.O)
        incremental.append(time.perf_counter() - started)
        started = time.perf_counter()
        again = engine.analyse(memory, Mark.X), engine.analyse(memory, Mark.O)
        full.append(time.perf_counter() - started)
        assert figures == tuple(v.losing_lines for v in again)
    return len(incremental), percentile(incremental, 0.5), percentile(full, 0.5)


def chart_costs(points: int = 500, repeats: int = 5) -> tuple[float, float]:
    """Drawing the curve's picture: the first time (matplotlib's import included) and
    the median of ``repeats`` more, in ms, for a curve of ``points`` points."""
    from cogs.pictures import chart
    from gameflow import CurvePoint

    curve = [
        CurvePoint(n * 20, n, max(0, 60 - n // 5), max(0, 450 - n), n == points // 2)
        for n in range(points)
    ]
    started = time.perf_counter()
    chart.draw(curve, "bench")
    first = (time.perf_counter() - started) * 1000
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        chart.draw(curve, "bench")
        times.append(time.perf_counter() - started)
    return first, percentile(times, 0.5)


REPLAY_KINDS = ("tictactoe", "connect4", "connect4-5x4", "connect4-7x6")
MEMBERS, BUSY_MEMBER = 500, 1000  # the busy member plays a tenth of the server's games


def add_replayable_history(path: Path, guild_id: int, games: int, seed: int = 1) -> None:
    """Give a server ``games`` finished random games of every board, with their moves, a
    third of them credited with the lessons at their last two moves, a fifth between
    members; straight through SQLite."""
    import engine
    from gameflow.memories import classic_facts

    rng = random.Random(seed)
    rows, facts, classic = [], [], []
    for n in range(games):
        kind = REPLAY_KINDS[n % len(REPLAY_KINDS)]
        board = engine.Board(game=kind)
        while not board.is_game_over():
            board.push(rng.choice(board.legal_moves))
        moves = board.moves
        player = BUSY_MEMBER if n % 10 == 0 else BUSY_MEMBER + 1 + n % MEMBERS
        opponent = BUSY_MEMBER + 1 + (n * 7) % MEMBERS if n % 5 == 1 else None
        result = "player_won" if board.winner is engine.Mark.X else "draw"
        rows.append((n + 1, guild_id, -1 - n, player, "O", "".join(map(str, moves)), result,
                     float(n), float(n), float(n), opponent, kind))  # fmt: skip
        if n % 3 == 0:
            taught = [
                (engine.canonical(board.position, kind), "loss")
                for board in (
                    engine.Board.from_moves(moves[: ply + 1], game=kind)
                    for ply in (len(moves) - 1, len(moves) - 2)
                )
            ]
            if kind == "connect4-7x6":  # packed, a batch for the game
                packed = classic_facts(kind, taught).taught
                classic.append((guild_id, kind, n + 1, 0.0, len(taught), packed))
            else:
                facts += [(guild_id, kind, *fact, n + 1) for fact in taught]
    with sqlite3.connect(path) as db:
        db.executemany(
            "INSERT INTO games (id, guild_id, channel_id, player_id, bot_mark, moves, result,"
            " started_at, updated_at, ended_at, opponent_id, game)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            rows,
        )
        db.executemany(
            "INSERT OR IGNORE INTO facts (guild_id, game, position, outcome, learned_at,"
            " game_id) VALUES (?, ?, ?, ?, 0, ?)",
            facts,
        )
        db.executemany(
            "INSERT INTO classic_facts (guild_id, game, game_id, learned_at, taught, facts)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            classic,
        )


async def replay_costs(history: int, asks: int = 2000, seed: int = 1) -> dict:
    """A replay step and ``history`` on a server with ``history`` games, through the game
    flow and drawn (embed and components as Discord gets them): p50 and p99 in ms, and
    the longest loop stall over all of them."""
    from bot import freeze_start_up_objects
    from cogs.replays.render import history_embed, history_view, replay_embed, replay_view
    from i18n import ENGLISH

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.sqlite3"
        await (await Store.open(path)).close()  # the schema, then the games straight in
        guild = 1
        # in a process of its own: random games fill the engine's caches of positions, which
        # this process must meet as a bot does after a restart, not full to the brim
        with ProcessPoolExecutor(1, mp_context=get_context("spawn")) as pool:
            pool.submit(add_replayable_history, path, guild, history, seed).result()
        store = await Store.open(path)
        service = GameService(store, timeout_seconds=3600)
        freeze_start_up_objects()  # as the bot does once started
        rng = random.Random(seed)
        steps, histories, busy = [], [], []
        longest_held = 0.0
        # once before measuring, as a bot that has drawn anything already has: the first
        # words said in a process load the locale's number formats (about 40 ms, once)
        replay_embed(await service.replays.step(1, 1, guild, None), ENGLISH).to_dict()
        with StallProbe() as probe:
            probe.take()
            for n in range(asks):
                game_id = rng.randrange(1, history + 1)
                held = time.thread_time()  # the CPU this request takes on the loop's thread
                started = time.perf_counter()
                shown = await service.replays.step(game_id, rng.randrange(0, 43), guild, None)
                replay_embed(shown, ENGLISH).to_dict()
                replay_view(shown, ENGLISH).to_components()
                steps.append(time.perf_counter() - started)
                member = BUSY_MEMBER if n % 4 == 0 else BUSY_MEMBER + 1 + rng.randrange(MEMBERS)
                kinds = REPLAY_KINDS[:1] if n % 2 else REPLAY_KINDS[1:]  # /ttt, /connect4
                started = time.perf_counter()
                pasts = await service.replays.history(guild, member, kinds)
                history_embed(pasts, member, "bench", ENGLISH).to_dict()
                history_view(pasts, member, ENGLISH).to_components()
                (busy if member == BUSY_MEMBER else histories).append(time.perf_counter() - started)
                longest_held = max(longest_held, time.thread_time() - held)
                await asyncio.sleep(0)  # the probe's turn, as other requests would get
            stall = probe.take()
        await store.close()
    return {
        "step_p50": percentile(steps, 0.5),
        "step_p99": percentile(steps, 0.99),
        "history_p50": percentile(histories, 0.5),
        "history_p99": percentile(histories, 0.99),
        "busy_p50": percentile(busy, 0.5),
        "busy_p99": percentile(busy, 0.99),
        "stall": stall,
        "held": longest_held * 1000,
        "asks": asks,
    }


def print_replay_costs(history: int) -> None:
    r = asyncio.run(replay_costs(history))
    print(f"replays on a server with {history:,} finished games (every board), {r['asks']} "
          f"of each, through the game flow and drawn:")  # fmt: skip
    print(f"  replay step: p50 {r['step_p50']:.2f} ms, p99 {r['step_p99']:.2f} ms")
    print(f"  history: p50 {r['history_p50']:.2f} ms, p99 {r['history_p99']:.2f} ms; of the "
          f"member with {history // 10:,} games: p50 {r['busy_p50']:.2f} ms, "
          f"p99 {r['busy_p99']:.2f} ms")  # fmt: skip
    print(f"  longest event-loop stall: {r['stall']:.1f} ms; the most CPU one step and one "
          f"history took together on the loop's thread: {r['held']:.1f} ms (a stall longer "
          f"than that is the machine's other work)")  # fmt: skip
    print("targets: replay step and history p99 <= 20 ms, no loop stall over 20 ms")


async def run(
    servers: int,
    games: int,
    think: float,
    seed: int,
    synchronous: str = SYNCHRONOUS,
    history: int = 0,
    kinds: tuple[str, ...] = GAMES,
) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.sqlite3"
        store = await Store.open(path, synchronous=synchronous)
        hot = servers + 1
        if history:
            add_history(path, hot, history)
        service = GameService(store, timeout_seconds=3600)
        rng = random.Random(seed)
        latencies: list[float] = []
        stats_timings: list[float] = []
        stop = asyncio.Event()
        asking = (
            asyncio.create_task(ask_stats(service, hot, stats_timings, stop)) if history else None
        )
        per_server = [games // servers + (i < games % servers) for i in range(servers)]
        started = time.perf_counter()
        await asyncio.gather(*(
            play_server(service, s + 1, n, think, random.Random(rng.random()), latencies, kinds)
            for s, n in enumerate(per_server)
        ))  # fmt: skip
        elapsed = time.perf_counter() - started
        stop.set()
        if asking is not None:
            await asking
            assert (await store.record(hot)).games == history
        record = await store.record(1)
        facts = sum([len(await service.memory(s + 1, k)) for s in range(servers) for k in kinds])
        stored = sum(
            [(await store.record(s + 1, game=k)).games for s in range(servers) for k in kinds]
        )
        await store.close()
    latencies.sort()
    return {
        "moves": len(latencies),
        "games": stored,
        "seconds": elapsed,
        "p50": statistics.median(latencies) * 1000,
        "p99": latencies[int(len(latencies) * 0.99)] * 1000,
        "max": latencies[-1] * 1000,
        "moves_per_s": len(latencies) / elapsed,
        "facts": facts,
        "first_server": record,
        "stats_p50": percentile(stats_timings, 0.5) if stats_timings else None,
        "stats_p99": percentile(stats_timings, 0.99) if stats_timings else None,
        "stats_asked": len(stats_timings),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--servers", type=int, default=1000)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--think", type=float, default=1.0, help="mean pause before a move (s)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--history", type=int, default=100_000, help="the hot server's games")
    parser.add_argument("--only-mixed", action="store_true", help="only the run of both games")
    parser.add_argument(
        "--only-replays", action="store_true", help="only the replays and history figures"
    )
    parser.add_argument(
        "--only-puzzles", action="store_true", help="only the puzzles' figures (bench.puzzles)"
    )
    parser.add_argument(
        "--only-classic", action="store_true",
        help="only /connect4 stats on a 7x6 server with --history games and 200,000 facts",
    )  # fmt: skip
    args = parser.parse_args(argv)
    if args.servers < 1 or args.games < args.servers or args.think < 0:
        parser.error("need at least 1 server, at least one game per server, and think >= 0")

    if args.only_replays:
        print_replay_costs(args.history)
        return
    if args.only_puzzles:
        run_benchmark("bench.puzzles")
        return
    if args.only_classic:
        from bench.classic_scale import stats_figures

        for line in stats_figures(args.history):
            print(line)
        return
    print(f"{args.servers} servers, {args.games} games, one SQLite file (WAL), one process;"
          f" synchronous={SYNCHRONOUS} unless named")  # fmt: skip
    print(f"{'run':30} {'moves':>7} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} {'moves/s':>8}")
    runs = (
        (f"paced (mean pause {args.think:g} s)", args.think, SYNCHRONOUS),
        ("flat out", 0.0, SYNCHRONOUS),
        # the durability choice: FULL also survives a power loss, at this price per move
        ("flat out, synchronous=FULL", 0.0, "FULL"),
    )
    hot = f"paced, hot stats ({args.history:,} games)"
    for label, think, synchronous, history, kinds in (
        *((*r, 0, GAMES) for r in runs),
        (hot, args.think, SYNCHRONOUS, args.history, GAMES),
        ("paced, both games mixed", args.think, SYNCHRONOUS, 0, MIXED),
    ):
        if args.only_mixed and kinds != MIXED:
            continue
        r = asyncio.run(
            run(args.servers, args.games, think, args.seed, synchronous, history, kinds)
        )
        assert r["games"] == args.games, "every game must be stored"
        print(f"{label:30} {r['moves']:>7} {r['p50']:>7.2f} {r['p99']:>7.2f} {r['max']:>7.1f} "
              f"{r['moves_per_s']:>8.0f}")  # fmt: skip
        if history:
            print(f"  /ttt stats on the hot server: {r['stats_asked']} asked, "
                  f"p50 {r['stats_p50']:.2f} ms, p99 {r['stats_p99']:.2f} ms")  # fmt: skip
    print("targets: move p99 <= 10 ms (paced, with or without hot stats, and with both "
          "games mixed); at least 500 moves/s; stats p99 <= 5 ms")  # fmt: skip
    if args.only_mixed:
        return
    taught, live_ms, full_ms = curve_point_costs()
    print(f"learning-curve point, per game that teaches ({taught} of 3,000 random games): "
          f"live analysis {live_ms:.3f} ms, full analysis {full_ms:.3f} ms (medians), "
          f"{full_ms / live_ms:.1f}x")  # fmt: skip
    first, again = chart_costs()
    print(f"drawing the curve's picture (500 points, in a thread): first {first:.0f} ms "
          f"(importing matplotlib), then {again:.0f} ms (median of 5)")  # fmt: skip
    print_replay_costs(args.history)
    run_benchmark("bench.puzzles")
    from bench.classic_scale import stats_figures

    for line in stats_figures(args.history):
        print(line)


if __name__ == "__main__":
    main()
