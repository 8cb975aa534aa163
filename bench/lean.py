"""The whole path through discord.py: ``python -m bench.lean``

The real bot (``python bot.py``, built by ``create_bot``) runs as its own process against
the small fake Discord of the tests (HTTP and a gateway websocket on loopback), and
``--players`` members play at once, each in a channel of their own, nobody pausing:
half of the moves by button, half by ``/ttt move``. Printed with the issue's targets:

* the bot process's CPU per move (user + system time, from /proc), and moves per second;
* the latency a player sees (from sending the interaction to its first answer);
* the longest event-loop callback in the bot process, and how many took over 20 ms: a
  probe the launcher installs times every callback the loop runs.

``--pictures SECONDS``: instead, the members play for SECONDS, a few of them asking
``/ttt stats`` between their games: the curve has a new point whenever a game
taught, and its picture is drawn afresh (in the bot's pictures process). The longest
loop callback meanwhile, with how many answers came with their picture; then the same
without pictures, for comparison.

``--against PATH``: instead, the CPU per click and per ``/ttt move`` of this checkout's bot
beside another checkout's (an older commit in a temporary folder), both playing the same
moves at the same time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from contextlib import asynccontextmanager
from multiprocessing import get_context
from pathlib import Path

from bench._common import percentile
from tests import fakediscord
from tests.classic_board import LOOKING_BACK, classic_position, looking_back
from tests.fakediscord import FakeDiscord, User, board_of, game_id_of, launch_bot, snowflake

# Runs bot.py as `python bot.py` would (or BENCH_SCRIPT), pointed at the fake, with a probe
# that times each event-loop callback and writes the longest to BENCH_LOOP_REPORT twice a
# second. A callback is timed twice: by the clock (what a person waits, including any time
# the machine gave to other processes meanwhile) and by the bot's own CPU (what it did).
LAUNCHER = """
import asyncio, cProfile, json, os, runpy, sys, threading, time
import discord.gateway, discord.http, yarl
profile = cProfile.Profile() if os.environ.get("BENCH_PROFILE") else None
discord.http.Route.BASE = sys.argv[1] + "/api/v10"
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(sys.argv[1] + "/gateway")
report = os.environ["BENCH_LOOP_REPORT"]
seen = {"longest_ms": 0.0, "over_20ms": 0, "longest_cpu_ms": 0.0, "over_20ms_cpu": 0,
        "callbacks": 0, "longest": ""}
run = asyncio.events.Handle._run
# BENCH_RUN_DELAY: also by the clock less the time the loop's thread was ready to run but
# the machine ran something else (/proc's schedstat): what is left is its own work and its
# waits, for the GIL too, whatever else runs on the machine. Off by default: two reads of
# /proc a callback would count in the CPU per move.
schedstat = None
if os.environ.get("BENCH_RUN_DELAY"):
    schedstat = os.open(f"/proc/self/task/{threading.get_native_id()}/schedstat", os.O_RDONLY)
    seen.update(longest_own_ms=0.0, over_20ms_own=0, longest_own="")
def run_delay():
    return int(os.pread(schedstat, 64, 0).split()[1]) / 1e6
def named(handle):
    task = getattr(handle._callback, "__self__", None)
    coro = task.get_coro() if isinstance(task, asyncio.Task) else None
    return getattr(coro, "__qualname__", None) or repr(handle)[:300]
def timed(handle):
    delayed = run_delay() if schedstat is not None else 0.0
    started, cpu = time.perf_counter(), time.thread_time()
    run(handle)
    took = (time.perf_counter() - started) * 1000
    cpu = (time.thread_time() - cpu) * 1000
    if schedstat is not None:
        own = took - (run_delay() - delayed)
        if own > seen["longest_own_ms"]:
            seen["longest_own_ms"], seen["longest_own"] = own, named(handle)
        seen["over_20ms_own"] += own > 20
    seen["callbacks"] += 1
    if took > seen["longest_ms"]:
        seen["longest_ms"] = took
    if cpu > seen["longest_cpu_ms"]:
        seen["longest_cpu_ms"], seen["longest"] = cpu, named(handle)
    seen["over_20ms"] += took > 20
    seen["over_20ms_cpu"] += cpu > 20
    if counting_tasks and seen["callbacks"] % 256 == 0:  # the loop's live tasks, now and then
        seen["live_tasks"] = len(asyncio.all_tasks())
        seen["most_tasks"] = max(seen.get("most_tasks", 0), seen["live_tasks"])
counting_tasks = bool(os.environ.get("BENCH_TASKS"))
asyncio.events.Handle._run = timed
import gc
collecting = [0.0, 0.0]
seen["longest_gc_ms"], seen["longest_gc_cpu_ms"], seen["full_collections"] = 0.0, 0.0, 0
def collected(phase, info):
    if phase == "start":
        collecting[:] = time.perf_counter(), time.thread_time()
        return
    took = (time.perf_counter() - collecting[0]) * 1000
    seen["longest_gc_ms"] = max(seen["longest_gc_ms"], took)
    cpu = (time.thread_time() - collecting[1]) * 1000  # its own work: not the machine's others
    seen["longest_gc_cpu_ms"] = max(seen["longest_gc_cpu_ms"], cpu)
    seen["full_collections"] += info["generation"] == 2
gc.callbacks.append(collected)
def write():
    while True:
        time.sleep(0.5)
        if os.path.exists(report + ".start"):  # the bench starts measuring: from zero
            seen.update(dict.fromkeys(seen, 0), longest="")
            if schedstat is not None:
                seen["longest_own"] = ""
            os.remove(report + ".start")
        with open(report, "w") as out:
            json.dump(seen, out)
        if profile is not None:
            profile.dump_stats(os.environ["BENCH_PROFILE"])
threading.Thread(target=write, daemon=True).start()
sys.argv = sys.argv[2:]
if profile is not None:
    profile.enable()
runpy.run_path(os.environ.get("BENCH_SCRIPT", sys.argv[0]), run_name="__main__")
"""


# discord.py's own cost, for comparison: a bare client that answers each click, and each
# `/ttt move`, with a board made in advance (the same embed and buttons as a real move's),
# and does nothing else: no game, no database, no deletion of the board before.
FLOOR_CLIENT = """
import os, discord
from discord import app_commands
from cogs.play.render import board_embed, board_view
from engine import Mark
from gameflow import Game, Turn
game = Game(1, 1, 1, 1, Mark.O, (4, 0), "running", None, 0.0)
embed, view = board_embed(Turn(game, 0, (), 3)), board_view(game)
class Floor(discord.Client):
    async def setup_hook(self):
        await tree.sync()
client = Floor(intents=discord.Intents.none())
tree = app_commands.CommandTree(client)
ttt = app_commands.Group(name="ttt", description="floor")
@ttt.command(description="floor")
async def move(interaction: discord.Interaction, cell: int):
    await interaction.response.send_message(embed=embed, view=view)
tree.add_command(ttt)
@client.event
async def on_interaction(interaction):
    if interaction.type is discord.InteractionType.component:
        await interaction.response.edit_message(embed=embed, view=view)
client.run(os.environ["DISCORD_TOKEN"], log_handler=None)
"""


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def play(
    fake: FakeDiscord, player: User, channel: int, games: int, rng, record, by: str
) -> None:
    """Play ``games`` games in ``channel``: random free cells, by button or by command
    (``by``: "button", "slash", or "both", half and half at random)."""
    for _ in range(games):
        started = await fake.answered(await fake.slash(player, "ttt play", channel))
        board = started.message
        while True:
            position = board_of(board)
            buttons = [b for row in board["components"] for b in row["components"]]
            # cells only: a finished board offers a rematch, which would play on forever
            free = [b["custom_id"] for b in buttons
                    if not b.get("disabled") and b["custom_id"].startswith("ttt:")]  # fmt: skip
            if not free or position is None:
                break
            custom_id = rng.choice(free)
            sent = time.monotonic()
            if by == "button" or (by == "both" and rng.random() < 0.5):
                asked = await fake.click(player, int(board["id"]), custom_id)
                kind = "button"
            else:
                cell = int(custom_id.rsplit(":", 1)[1])
                asked = await fake.slash(player, "ttt move", channel, cell=cell)
                kind = "slash"
            answered = await fake.answered(asked)
            record[kind].append(time.monotonic() - sent)
            board = answered.message
            if game_id_of(board) is None:
                break


def perfect_column(position: str) -> int:
    """A perfect player's column (1-based) in a 7×6 position (in the solver's process)."""
    from engine import get_game, solver

    return solver.best_columns(get_game("connect4-7x6").parse(position))[0] + 1


async def play_classic(
    fake: FakeDiscord, player: User, channel: int, games: int, record, boards: list, solving
) -> None:
    """Play ``games`` 7×6 games in ``channel``, the bot first, each move a perfect player's
    (the solver's, in a process of the bench's own, ``solving``: in the bench's loop, it
    held the fake Discord up, and the bot's latency with it), so the bot loses and
    post-mortems run. Each final board goes to ``boards`` with when it was answered."""
    loop = asyncio.get_running_loop()
    for _ in range(games):
        asked = await fake.slash(player, "connect4 play", channel, board="7x6", first="bot")
        board = (await fake.answered(asked)).message
        while True:
            buttons = [b for row in board["components"] for b in row["components"]]
            if not any(b["custom_id"].startswith("ttt:") and not b.get("disabled")
                       for b in buttons):  # fmt: skip
                break
            column = await loop.run_in_executor(solving, perfect_column, classic_position(board))
            sent = time.monotonic()
            asked = await fake.slash(player, "connect4 move", channel, column=column)
            board = (await fake.answered(asked)).message
            record["slash"].append(time.monotonic() - sent)
        if looking_back(board) == LOOKING_BACK:
            boards.append((int(board["id"]), time.monotonic()))


def rss_of(pid: int) -> int:
    """A process's resident memory, in bytes (0 if it is gone)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def processes_rss(pid: int) -> dict[str, int]:
    """The bot's RSS and its worker processes' (started by spawn, in the order started:
    the pictures' process with the bot, the solver's at the first post-mortem)."""
    children = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as found:
            children += [int(child) for child in found.read().split()]
    workers = []
    for child in sorted(children):
        with open(f"/proc/{child}/cmdline", "rb") as command:
            if b"spawn_main" in command.read():
                workers.append(child)
    names = ["pictures", "solver", *(f"worker {n}" for n in range(3, len(workers) + 1))]
    found = zip(names, workers, strict=False)
    return {"bot": rss_of(pid), **{name: rss_of(worker) for name, worker in found}}


async def run_classic(players: int, games: int, timeout: float = 300, solver: bool = True) -> dict:
    """``players`` members each beat the bot ``games`` times on 7×6 at once, then wait for
    every final board's lesson: the post-mortems run in the bot's worker meanwhile. Without
    ``solver`` (``TTT_SOLVER=off``): the same games, learned from by the rules alone."""
    env = {"BENCH_TASKS": "1", **({} if solver else {"TTT_SOLVER": "off"})}
    async with bot_process(players, env) as (fake, process, loop_report):
        await asyncio.wait_for(fake.synced.wait(), 60)
        members = [User(snowflake(), f"player{i}") for i in range(players)]
        record: dict[str, list[float]] = {"button": [], "slash": []}
        boards: list[tuple[int, float]] = []
        cpu_before, started = cpu_seconds(process.pid), time.perf_counter()
        with ProcessPoolExecutor(1, mp_context=get_context("spawn")) as solving:
            await asyncio.gather(*(
                play_classic(fake, member, channel, games, record, boards, solving)
                for member, channel in zip(members, fake.channel_ids, strict=True)
            ))  # fmt: skip
        waits, deadline = {}, time.monotonic() + timeout
        while len(waits) < len(boards) and time.monotonic() < deadline:
            for message_id, ended in boards:
                said = looking_back(fake.messages.get(message_id))
                if message_id not in waits and said != LOOKING_BACK:
                    waits[message_id] = time.monotonic() - ended
            await asyncio.sleep(0.05)
        elapsed = time.perf_counter() - started
        cpu = cpu_seconds(process.pid) - cpu_before
        loop = await loop_report()
        rss = processes_rss(process.pid)
    return {"games": players * games, "reviewed": len(boards), "lessons": list(waits.values()),
            "record": record, "loop": loop, "cpu": cpu, "elapsed": elapsed,
            "rss": rss}  # fmt: skip


def report_classic(r: dict) -> list[str]:
    loop, lessons = r["loop"], r["lessons"]
    lines = [
        f"{r['games']} games of 7×6 lost by the bot to a perfect player: {r['reviewed']} "
        f"final boards said they were looking back, {len(lessons)} were edited with their "
        f"lesson"
        + (f" (after p50 {percentile(lessons, 0.5):.0f} ms, max {max(lessons) * 1000:.0f} ms)"
           if lessons else ""),
        f"latency of a move: p50 {percentile(r['record']['slash'], 0.5):.1f} ms, p99 "
        f"{percentile(r['record']['slash'], 0.99):.1f} ms; the bot process's CPU "
        f"{r['cpu']:.2f} s in {r['elapsed']:.1f} s (the solver's worker not counted)",
        f"longest event-loop callback in the bot, by its own CPU: {loop['longest_cpu_ms']:.1f} "
        f"ms; {loop['over_20ms_cpu']} of {loop['callbacks']:,} over 20 ms (target: none); by "
        f"the clock: {loop['longest_ms']:.1f} ms, {loop['over_20ms']} over 20 ms; the longest "
        f"garbage collection by its own CPU {loop['longest_gc_cpu_ms']:.1f} ms (target <= 20),"
        f" by the clock {loop['longest_gc_ms']:.1f} ms; {loop['full_collections']} full ones",
        f"live tasks once the lessons were shown: {loop.get('live_tasks', 0)} (at most "
        f"{loop.get('most_tasks', 0)} meanwhile); resident memory: "
        + ", ".join(f"{name} {size / 2**20:.0f} MB" for name, size in r["rss"].items()),
    ]  # fmt: skip
    return lines


ASKERS = 4  # members asking for the learning curve in --pictures


async def ask_stats(
    fake: FakeDiscord, player: User, channel: int, until: float, rng, record
) -> None:
    """Until ``until`` (by ``time.monotonic``), at least once: a game in ``channel`` (it
    may teach: a new point on the curve), then ``/ttt stats``. Whether each answer came
    with its picture, and after a new point."""
    lessons = None
    while True:
        await play(fake, player, channel, 1, rng, record, "both")
        sent = time.monotonic()
        answer = await fake.answered(await fake.slash(player, "ttt stats", channel), 60)
        record["stats"].append(time.monotonic() - sent)
        (embed,) = answer.message["embeds"]
        known = next(f["value"] for f in embed["fields"] if f["name"] == "Lessons learned")
        record["fresh"].append(known != lessons)
        record["pictures"].append("image" in embed)
        lessons = known
        if time.monotonic() >= until:
            return


async def run_pictures(players: int, seconds: float, seed: int, drawn: bool = True) -> dict:
    """``players`` members play at once for ``seconds``, :data:`ASKERS` of them asking for
    stats between their games. Not ``drawn``: the same without pictures
    (``TTT_PICTURES=off``), for comparison."""
    env = {"BENCH_RUN_DELAY": "1", "TTT_PICTURES": "on" if drawn else "off"}
    members = [User(snowflake(), f"player{i}") for i in range(players)]

    async def first_picture(fake: FakeDiscord) -> None:
        """Before measuring: games until a picture comes (the pictures' process started,
        a second or more after the bot), as on a bot that has run for a while."""
        await asyncio.wait_for(fake.synced.wait(), 60)
        rng = random.Random(seed)
        for _ in range(100 if drawn else 1):
            record = {"button": [], "slash": [], "stats": [], "fresh": [], "pictures": []}
            await ask_stats(fake, members[0], fake.channel_ids[0], 0, rng, record)
            if record["pictures"][0]:
                return
        if drawn:
            raise SystemExit("no picture came in 100 asks: is the pictures' process running?")

    async with bot_process(players, env, first_picture) as (fake, process, loop_report):
        await asyncio.wait_for(fake.synced.wait(), 60)
        record: dict[str, list] = {"button": [], "slash": [], "stats": [], "fresh": [],
                                   "pictures": []}  # fmt: skip
        rng, done = random.Random(seed), asyncio.Event()

        async def keep_playing(member: User, channel: int, rng) -> None:
            while not done.is_set():
                await play(fake, member, channel, 1, rng, record, "both")

        askers = min(ASKERS, players)
        cpu_before, started = cpu_seconds(process.pid), time.perf_counter()
        playing = [
            asyncio.ensure_future(keep_playing(member, channel, random.Random(rng.random())))
            for member, channel in zip(members[askers:], fake.channel_ids[askers:], strict=True)
        ]
        until = time.monotonic() + seconds
        await asyncio.gather(*(
            ask_stats(fake, member, channel, until, random.Random(rng.random()), record)
            for member, channel in zip(members[:askers], fake.channel_ids[:askers], strict=True)
        ))  # fmt: skip
        done.set()
        await asyncio.gather(*playing)
        elapsed = time.perf_counter() - started
        cpu = cpu_seconds(process.pid) - cpu_before
        loop = await loop_report()
    return {"askers": askers, "record": record, "loop": loop, "cpu": cpu,
            "elapsed": elapsed}  # fmt: skip


def report_pictures(r: dict) -> list[str]:
    loop, record = r["loop"], r["record"]
    moves = record["button"] + record["slash"]
    return [
        f"/ttt stats asked {len(record['stats'])} times: {sum(record['fresh'])} after a "
        f"game had taught (a new picture to draw), {sum(record['pictures'])} answered with "
        f"their picture; answered in p50 {percentile(record['stats'], 0.5):.0f} ms, p99 "
        f"{percentile(record['stats'], 0.99):.0f} ms",
        f"moves meanwhile: {len(moves):,}, latency p50 {percentile(moves, 0.5):.1f} ms, p99 "
        f"{percentile(moves, 0.99):.1f} ms; the bot process's CPU {r['cpu']:.2f} s in "
        f"{r['elapsed']:.1f} s (the pictures' process not counted)",
        f"longest event-loop callback in the bot, by its own CPU: {loop['longest_cpu_ms']:.1f} "
        f"ms (target <= 20), {loop['over_20ms_cpu']} of {loop['callbacks']:,} over 20 ms; by "
        f"the clock less the time the machine ran other processes: "
        f"{loop['longest_own_ms']:.1f} ms, {loop['over_20ms_own']} over 20 ms; by the clock: "
        f"{loop['longest_ms']:.1f} ms; the longest garbage collection {loop['longest_gc_ms']:.1f}"
        f" ms, {loop['full_collections']} full ones",
    ]  # fmt: skip


@asynccontextmanager
async def bot_process(players: int, env: dict[str, str], prepare=None, root: Path | None = None):
    """A fake Discord with ``players`` channels, and the bot process started against it
    and ready (the bot of checkout ``root``, by default this one; and ``prepare(fake)``
    done). Yields the fake, the process, and a function giving the probe's report."""
    fake = await FakeDiscord().start()
    fake.channel_ids = [snowflake() for _ in range(players)]
    with tempfile.TemporaryDirectory() as folder:
        home, report = Path(folder), Path(folder) / "loop.json"
        # each player starts a game every few seconds: far past the public posting limit
        # (PUBLIC_POSTS_PER_MINUTE), which would refuse most of them after the first minute
        env = {
            "LOG_LEVEL": "WARNING",
            "BENCH_LOOP_REPORT": str(report),
            "PUBLIC_POSTS_PER_MINUTE": "0",
            **env,
        }
        process = await launch_bot(
            fake, home, env=env, launcher=LAUNCHER, output=asyncio.subprocess.DEVNULL,
            **({"root": root} if root else {}),
        )  # fmt: skip

        async def loop_report() -> dict:
            await asyncio.sleep(1.2)  # the probe's last report
            return json.loads(report.read_text())

        try:
            await asyncio.wait_for(fake.ready.wait(), 60)
            # discord.py declares itself ready 2 seconds (guild_ready_timeout) after the last
            # server arrived; the bot then freezes its start-up objects. Play starts after.
            await asyncio.sleep(3)
            if prepare is not None:
                await prepare(fake)
            start = Path(f"{report}.start")
            start.touch()  # the probe counts from zero from now on
            while start.exists():
                await asyncio.sleep(0.05)
            yield fake, process, loop_report
        finally:
            process.kill()
            await process.wait()
            await fake.stop()


async def chatter(fake: FakeDiscord, members: list[User], per_second: float) -> None:
    """Members talk in the game channels meanwhile, ``per_second`` messages in all (sent
    to the bot only if it asked for servers' messages, as Discord does)."""
    rng, tick = random.Random(0), 0.01
    while True:
        for _ in range(round(per_second * tick) or 1):
            await fake.chat(rng.choice(members), rng.choice(fake.channel_ids), "nice move!")
        await asyncio.sleep(max(tick, 1 / per_second))


async def run(
    players: int,
    games: int,
    seed: int,
    profile: str | None = None,
    by: str = "both",
    chat: float = 0,
    rounds: int = 3,
) -> dict:
    """The bot, ``players`` members playing ``games`` games each at once (and ``chat``
    ordinary messages a second in their channels), ``rounds`` times over: the CPU per move
    and the moves per second are the medians of the rounds."""
    env = {"BENCH_PROFILE": profile} if profile else {}
    async with bot_process(players, env) as (fake, process, loop_report):
        await asyncio.wait_for(fake.synced.wait(), 60)
        members = [User(snowflake(), f"player{i}") for i in range(players)]
        record: dict[str, list[float]] = {"button": [], "slash": []}
        rng = random.Random(seed)
        talking = asyncio.ensure_future(chatter(fake, members, chat)) if chat else None
        per_move, per_second = [], []
        for _ in range(rounds):
            moves_before = len(record["button"]) + len(record["slash"])
            cpu_before, started = cpu_seconds(process.pid), time.perf_counter()
            await asyncio.gather(*(
                play(fake, member, channel, games, random.Random(rng.random()), record, by)
                for member, channel in zip(members, fake.channel_ids, strict=True)
            ))  # fmt: skip
            elapsed = time.perf_counter() - started
            moves = len(record["button"]) + len(record["slash"]) - moves_before
            per_move.append((cpu_seconds(process.pid) - cpu_before) / moves * 1000)
            per_second.append(moves / elapsed)
        if talking is not None:
            talking.cancel()
        loop = await loop_report()
    return {
        "moves": len(record["button"]) + len(record["slash"]), "rounds": rounds,
        "per_move_ms": statistics.median(per_move),
        "per_second": statistics.median(per_second),
        "record": record, "loop": loop, "chatter": (chat, fake.chatter_sent),
    }  # fmt: skip


async def run_floor(players: int, moves: int, rounds: int = 3) -> dict[str, float]:
    """discord.py's own CPU per move (ms), by button and by command: :data:`FLOOR_CLIENT`
    answering ``moves`` of each kind in each of ``players`` channels at once (medians of
    ``rounds``)."""
    floor = {}
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "floor.py"
        script.write_text(FLOOR_CLIENT)
        async with bot_process(players, {"BENCH_SCRIPT": str(script)}) as (fake, process, _):
            await asyncio.wait_for(fake.synced.wait(), 60)
            player = User(snowflake(), "player")
            boards = [fake._new_message(channel, {"embeds": [{"description": "board"}]})
                      for channel in fake.channel_ids]  # fmt: skip

            async def click(board: dict) -> None:
                for _ in range(moves):
                    await fake.answered(await fake.click(player, int(board["id"]), "ttt:1:2:5"))

            async def command(channel: int) -> None:
                for _ in range(moves):
                    await fake.answered(await fake.slash(player, "ttt move", channel, cell=5))

            for kind, each in (("button", click), ("slash", command)):
                places = boards if kind == "button" else fake.channel_ids
                costs = []
                for _ in range(rounds):
                    cpu_before = cpu_seconds(process.pid)
                    await asyncio.gather(*(each(place) for place in places))
                    costs.append((cpu_seconds(process.pid) - cpu_before) / (players * moves))
                floor[kind] = statistics.median(costs) * 1000
    return floor


async def run_against(other: Path, players: int, games: int, seed: int, rounds: int) -> dict:
    """This bot and ``other``'s (a checkout's folder), each with its own fake Discord,
    ``players`` members playing ``games`` games on each at once, all by button and then
    all by ``/ttt move``, the same random choices on both: the CPU per move of each, in
    ``rounds`` rounds. Both play at the same time, so that whatever else the machine does
    weighs on both alike (rounds one after the other differed by 20 % on a busy machine).
    A first round, not counted, warms both up."""
    per_move: dict[tuple[str, str], list[float]] = {
        (side, by): [] for side in ("before", "now") for by in ("button", "slash")
    }
    # CPU is measured here, not latency: on a busy machine one fake Discord serving two bots
    # let some answers pass Discord's 3 seconds, and a lost answer stalled the run
    fakediscord.RESPONSE_DEADLINE = 60.0
    async with (
        bot_process(players, {}, root=other) as before,
        bot_process(players, {}) as now,
    ):
        bots = {"before": before, "now": now}
        for fake, _, _ in bots.values():
            await asyncio.wait_for(fake.synced.wait(), 60)
        members = [User(snowflake(), f"player{i}") for i in range(players)]
        rng = random.Random(seed)
        for round_ in range(rounds + 1):
            for by in ("button", "slash"):
                seeds = [rng.random() for _ in members]
                records = {side: {"button": [], "slash": []} for side in bots}
                cpu_before = {side: cpu_seconds(bots[side][1].pid) for side in bots}
                await asyncio.gather(*(
                    play(fake, member, channel, games, random.Random(s), records[side], by)
                    for side, (fake, _, _) in bots.items()
                    for member, channel, s in zip(members, fake.channel_ids, seeds, strict=True)
                ))  # fmt: skip
                for side, (_, process, _) in bots.items():
                    cpu = (cpu_seconds(process.pid) - cpu_before[side]) * 1000
                    if round_:  # the first round only warms up
                        per_move[side, by].append(cpu / len(records[side][by]))
    return {"per_move": per_move, "rounds": rounds, "label": checkout_label(other)}


def checkout_label(folder: Path) -> str:
    """The short commit hash of the checkout in ``folder`` (its name if it has none)."""
    found = subprocess.run(
        ["git", "-C", str(folder), "rev-parse", "--short", "HEAD"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    return found.stdout.strip() or folder.name


def report_against(r: dict) -> list[str]:
    """The side-by-side table of :func:`run_against`: medians, and the median of the rounds'
    ratios of now over before."""
    label, per_move = r["label"], r["per_move"]
    lines = [
        f"bot CPU per move, median of {r['rounds']} rounds (both bots playing at once):",
        f"{'':12}{label:>10}{'now':>10}{'now/' + label:>14}",
    ]
    for by, name in (("button", "a click"), ("slash", "/ttt move")):
        rounds = list(zip(per_move["before", by], per_move["now", by], strict=True))
        before, now = (statistics.median(side) for side in zip(*rounds, strict=True))
        ratio = statistics.median(n / b for b, n in rounds)  # each round's pair: same load
        each = ", ".join(f"{b:.3f}/{n:.3f}" for b, n in rounds)
        lines.append(f"{name:12}{before:>7.3f} ms{now:>7.3f} ms{ratio:>14.3f}   (rounds: {each})")
    return lines


def report(r: dict, floor: dict[str, float] | None = None) -> list[str]:
    """The figures of :func:`run` (and of :func:`run_floor`), each with its target."""
    loop, per_move = r["loop"], r["per_move_ms"]
    lines = [
        f"bot CPU per move: {per_move:.2f} ms (target <= 0.6), median of {r['rounds']} rounds",
        f"moves per second: {r['per_second']:,.0f} (target >= 1,200; here the fake Discord "
        f"shares the 2 cores; one core of the bot's alone: {1000 / per_move:,.0f})",
    ]
    for kind, latencies in r["record"].items():
        if latencies:
            lines.append(
                f"latency by {kind}: p50 {percentile(latencies, 0.5):.1f} ms, "
                f"p99 {percentile(latencies, 0.99):.1f} ms ({len(latencies):,} moves)"
            )
    lines.append(
        f"longest event-loop callback in the bot, by its own CPU: {loop['longest_cpu_ms']:.1f} "
        f"ms; {loop['over_20ms_cpu']} of {loop['callbacks']:,} over 20 ms (target: none); by "
        f"the clock: {loop['longest_ms']:.1f} ms, {loop['over_20ms']} over 20 ms"
    )
    chat, sent = r["chatter"]
    if chat:
        lines.append(
            f"members' chatter meanwhile: {chat:,.0f} messages a second in the game channels; "
            f"{sent:,} of them were sent to the bot"
        )
    if floor is not None:
        lines.append(
            f"discord.py's own floor, a bare client answering with a ready board: "
            f"{floor['button']:.2f} ms of CPU per click, {floor['slash']:.2f} ms per /ttt move"
        )
        mix = {kind: len(latencies) for kind, latencies in r["record"].items()}
        floor_per_move = sum(floor[k] * n for k, n in mix.items()) / sum(mix.values())
        lines.append(
            f"  the bot's move costs {per_move / floor_per_move:.1f}× that floor for the "
            f"same mix of moves (it also stores each move, and deletes the board a command "
            f"replaces)"
        )
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=100, help="members playing at once")
    parser.add_argument("--games", type=int, default=5, help="games each, in each round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds, for medians")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--by", choices=("both", "button", "slash"), default="both",
        help="how moves are made: half by button and half by /ttt move, or all one way",
    )  # fmt: skip
    parser.add_argument(
        "--chatter", type=float, default=0, metavar="PER_SECOND",
        help="ordinary messages a second in the game channels meanwhile",
    )  # fmt: skip
    parser.add_argument("--no-floor", action="store_true", help="skip discord.py's floor")
    parser.add_argument("--verbose", action="store_true", help="name the longest callback")
    parser.add_argument("--profile", help="write the bot process's cProfile stats to this file")
    parser.add_argument(
        "--classic", type=int, default=0, metavar="GAMES",
        help="instead: each player loses GAMES games of Connect Four 7×6 to the bot (a perfect "
        "player's moves), so post-mortems run; the longest loop callback meanwhile",
    )  # fmt: skip
    parser.add_argument(
        "--pictures", type=float, default=0, metavar="SECONDS",
        help=f"instead: the members play for SECONDS, {ASKERS} of them asking /ttt stats "
        "between their games (a new point, a new picture); the longest loop callback, then "
        "the same without pictures",
    )  # fmt: skip
    parser.add_argument(
        "--against", type=Path, metavar="PATH",
        help="instead: CPU per click and per /ttt move beside the bot of the checkout in PATH "
        "(e.g. `git worktree add /tmp/old COMMIT`), both playing the same moves at once",
    )  # fmt: skip
    args = parser.parse_args(argv)
    if args.pictures:
        for drawn in (True, False):
            r = asyncio.run(run_pictures(args.players, args.pictures, args.seed, drawn))
            without = "" if drawn else "; the same without pictures (TTT_PICTURES=off)"
            print(f"{args.players} players at once for {args.pictures:g} s, {r['askers']} of "
                  f"them asking /ttt stats between games, one bot process on loopback"
                  f"{without}")  # fmt: skip
            for line in report_pictures(r):
                print(line)
            if args.verbose:
                print(f"  the longest: by CPU {r['loop']['longest']}; by the clock less the "
                      f"others' time {r['loop']['longest_own']}")  # fmt: skip
        return
    if args.against:
        if not (args.against / "bot.py").is_file():
            parser.error(f"no bot.py in {args.against}")
        r = asyncio.run(run_against(args.against, args.players, args.games, args.seed, args.rounds))
        print(f"{args.players} players at once on each bot, {args.games} games each by button "
              f"and then by /ttt move in each round, two bot processes on loopback")  # fmt: skip
        for line in report_against(r):
            print(line)
        return
    if args.classic:
        runs = {}
        for solver in (True, False):
            r = runs[solver] = asyncio.run(run_classic(args.players, args.classic, solver=solver))
            print(f"{args.players} players at once, {args.classic} games of 7×6 each, one bot "
                  f"process on loopback" + ("" if solver else ", the solver off"))  # fmt: skip
            for line in report_classic(r):
                print(line)
            if args.verbose:
                print(f"  the longest: {r['loop']['longest']}")
        p99 = {solver: percentile(r["record"]["slash"], 0.99) for solver, r in runs.items()}
        print(f"move latency p99 with post-mortems / with the solver off: "
              f"{p99[True] / p99[False]:.2f} (target <= 1.5)")  # fmt: skip
        return
    if args.players < 1 or args.games < 1 or args.rounds < 1:
        parser.error("need at least 1 player, 1 game and 1 round")
    r = asyncio.run(
        run(args.players, args.games, args.seed, args.profile, args.by, args.chatter, args.rounds)
    )
    floor = None if args.no_floor else asyncio.run(run_floor(args.players, 20, args.rounds))
    print(f"{args.players} players at once, {args.games} games each in each of {args.rounds} "
          f"rounds, {r['moves']:,} moves ({args.by}), one bot process on loopback")  # fmt: skip
    for line in report(r, floor):
        print(line)
    if args.verbose:
        loop = r["loop"]
        print(f"  the longest: {loop['longest']}; the longest garbage collection: "
              f"{loop['longest_gc_ms']:.1f} ms, {loop['full_collections']} full ones")  # fmt: skip


if __name__ == "__main__":
    main()
