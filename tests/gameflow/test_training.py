"""Training in a worker process: progress saved as it goes, cancel, one run per server."""

import asyncio
import os
import sqlite3
from pathlib import Path

import pytest

import engine
from engine import Mark, Memory
from gameflow import GameError
from tests.engine.oracle import true_outcome
from tests.gameflow.test_service import ALICE, CHANNEL, GUILD

ADMIN = 300


async def stored(svc) -> Memory:
    return Memory(await svc.store.load_facts(GUILD))


async def run_to_end(run) -> list:
    return [progress async for progress in run.updates()]


async def test_a_training_saves_its_lessons_and_reports_before_and_after(service):
    run = await service.trainer.start(GUILD, CHANNEL, ADMIN, "random", 20_000)
    updates = await run_to_end(run)
    final = updates[-1]
    assert final.state == "done" and final.played == 20_000
    assert [u.played for u in updates] == sorted(u.played for u in updates)
    memory = await stored(service)
    assert memory == service.cached_memory(GUILD) and final.learned == len(memory) > 300
    assert final.before.lessons == 0 and final.after.lessons == len(memory)
    assert final.after.ways_to_beat_as_x == engine.analyse(memory, Mark.X).losing_lines == 0
    assert all(f.outcome.value == true_outcome(f.position) for f in memory)
    assert service.trainer.running(GUILD) is None
    (point,) = await service.store.curve(GUILD)  # one point, at its end, marked training
    assert point.training and (point.games, point.lessons, point.beat_x) == (0, len(memory), 0)


@pytest.mark.parametrize("opponent", ["self", "teacher"])
async def test_every_opponent_teaches_only_truths(service, opponent):
    final = (await run_to_end(await service.trainer.start(GUILD, CHANNEL, ADMIN, opponent, 3000)))[
        -1
    ]
    assert final.state == "done" and final.learned > 0
    assert all(f.outcome.value == true_outcome(f.position) for f in await stored(service))


async def test_a_cancelled_training_keeps_what_it_learned(service):
    run = await service.trainer.start(GUILD, CHANNEL, ADMIN, "random", 1_000_000)
    updates = []
    async for progress in run.updates():
        updates.append(progress)
        if len(updates) == 1:
            assert run.cancel(ADMIN + 1)
    final = updates[-1]
    assert final.state == "cancelled" and final.ended_by == ADMIN + 1
    assert 0 < final.played < 1_000_000
    assert len(await stored(service)) == final.learned == final.after.lessons
    with sqlite3.connect(service.store_path) as db:
        row = db.execute("SELECT status, played, ended_by FROM trainings").fetchone()
    assert row == ("cancelled", final.played, ADMIN + 1)


async def test_one_training_per_server_and_bad_requests_are_refused(service):
    run = await service.trainer.start(GUILD, CHANNEL, ADMIN, "random", 1000)
    with pytest.raises(GameError, match="already training in this server"):
        await service.trainer.start(GUILD, CHANNEL, ADMIN, "random", 1000)
    for opponent, games, says in (
        ("random", 0, "1 to 1,000,000"),
        ("random", 1_000_001, "1 to"),
        ("random", 2_000_000, r"not 2,000,000\."),  # issue 17, item 9: "not 2000000"
        ("genius", 5, "opponent"),
    ):
        with pytest.raises(GameError, match=says):
            await service.trainer.start(GUILD + 1, CHANNEL, ADMIN, opponent, games)
    await run_to_end(run)
    assert service.trainer.running(GUILD) is None


async def test_games_go_on_and_keep_learning_during_a_training(service):
    run = await service.trainer.start(GUILD, CHANNEL, ADMIN, "random", 300_000)
    training = asyncio.create_task(run_to_end(run))
    await asyncio.sleep(0.2)  # the worker is training; nothing is merged yet
    await service.start(GUILD, CHANNEL, ALICE, bot_first=False)
    for cell in (1, 4, 7):  # the naive bot loses this line
        turn = await service.move(CHANNEL, ALICE, cell)
    assert turn.lessons and not turn.game.running
    final = (await training)[-1]
    assert final.state == "done"
    memory = await stored(service)
    assert memory == service.cached_memory(GUILD)
    assert all(memory.outcome(lesson.after) is lesson.outcome for lesson in turn.lessons)


async def test_a_run_left_running_by_a_stopped_process_is_marked_interrupted(service):
    run = await service.trainer.start(GUILD, CHANNEL, ADMIN, "random", 1_000_000)
    progress = await anext(run.updates())  # one saved update, then the process "dies"
    run.stop()
    (interrupted,) = await service.trainer.recover()
    assert (interrupted.status, interrupted.played) == ("interrupted", progress.played)
    assert interrupted.learned == len(await stored(service)) == progress.learned
    assert await service.trainer.recover() == []


def test_an_orphaned_worker_stops_and_exits_quietly(tmp_path):
    """Issue 16, item 12: after the bot's SIGKILL, its training worker printed chained
    BrokenPipeError tracebacks. Here the bot's ends of both pipes are gone, as after a
    kill, and the worker (in a process of its own) must end without a word."""
    import subprocess
    import sys

    script = """
import multiprocessing, os
from gameflow import training_worker
reports_in, reports_out = multiprocessing.Pipe(duplex=False)
cancels_in, cancels_out = multiprocessing.Pipe(duplex=False)
reports_in.close()
cancels_out.close()
training_worker.run("connect4", [], "random", 1_000_000, 1, 0.05, reports_out, cancels_in,
                    os.getppid() + 1_000_000)
print("ended")
"""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60,
        cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])},
    )  # fmt: skip
    assert done.returncode == 0 and done.stdout == "ended\n"
    assert done.stderr == "", done.stderr
