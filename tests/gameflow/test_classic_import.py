"""The classic board's (7×6) import through the game flow: re-proven by the solver in a
worker process, never on the event loop or in the bot's own process."""

import asyncio
import json
import multiprocessing
import os
import threading
import time
from itertools import pairwise

import pytest

import engine
from gameflow import GameError
from tests.engine.test_classic_transport import CLASSIC, forged, learned_memory, with_plies
from tests.gameflow.test_service import GUILD


@pytest.fixture(scope="module")
def memory():
    return learned_memory(games=12, seed=8)


async def test_an_import_is_checked_in_a_worker_process_with_progress_and_kept(service, memory):
    data = json.dumps(engine.export_memory(memory)).encode()
    told, beats = [], []

    async def heartbeat():  # the loop keeps running while the solver works elsewhere
        while True:
            beats.append(time.monotonic())
            await asyncio.sleep(0.05)

    beating = asyncio.create_task(heartbeat())
    try:
        plan = await service.brain.plan_import(
            GUILD, data, "merge", CLASSIC, lambda done, total: told.append((done, total))
        )
    finally:
        beating.cancel()
    assert plan.checked_by != os.getpid()  # the solver ran in another process
    assert told and told[-1][0] == told[-1][1] == 2 * len(memory)
    assert max(b - a for a, b in pairwise(beats)) < 0.5
    assert plan.new == len(memory) and plan.after.lessons == len(memory)
    assert plan.after.ways_to_beat_as_x is None  # not counted on 7x6
    await service.brain.apply_import(plan)
    imported = await service.memory(GUILD, CLASSIC)
    assert [fact[:2] for fact in imported.distances()] == [fact[:2] for fact in memory.distances()]
    assert all(plies is not None for _key, _value, plies in imported.distances())


async def test_a_forged_import_is_refused_from_the_worker_naming_the_entry(service, memory):
    document = engine.export_memory(memory)
    index = with_plies(document)
    flipped = "loss" if document["facts"][index]["outcome"] == "win" else "win"
    data = json.dumps(forged(document, index, outcome=flipped)).encode()
    with pytest.raises(GameError, match=rf"facts\[{index}\].*Nothing was changed"):
        await service.brain.plan_import(GUILD, data, "merge", CLASSIC)
    assert len(await service.memory(GUILD, CLASSIC)) == 0


async def test_one_classic_import_is_re_proved_at_a_time(service, memory):
    """Each check takes a process of about 200 MB for minutes: a second one, asked while
    the first runs, is refused (and changes nothing) rather than started beside it."""
    data = json.dumps(engine.export_memory(memory)).encode()
    first = asyncio.create_task(service.brain.plan_import(GUILD, data, "merge", CLASSIC))
    await asyncio.sleep(0)  # the first check has started
    with pytest.raises(GameError, match="already checking another"):
        await service.brain.plan_import(GUILD, data, "merge", CLASSIC)
    plan = await first
    assert plan.new == len(memory)
    again = await service.brain.plan_import(GUILD, data, "merge", CLASSIC)  # its turn now
    assert again.new == len(memory)


async def test_an_import_given_up_midway_leaves_no_process_nor_thread(service, memory):
    """Cancelled while the solver re-proves the file (a test that ends, a bot that closes):
    the check's process is ended and joined, its reader gone, and the next import runs."""
    data = json.dumps(engine.export_memory(memory)).encode()
    told = asyncio.Event()
    checking = asyncio.create_task(
        service.brain.plan_import(GUILD, data, "merge", CLASSIC, lambda *_: told.set())
    )
    await asyncio.wait_for(told.wait(), 120)  # the process runs and reports
    checking.cancel()
    with pytest.raises(asyncio.CancelledError):
        await checking
    assert [p for p in multiprocessing.active_children() if p.name == "ttt-import-check"] == []
    assert [t.name for t in threading.enumerate() if t.name.endswith(" reports")] == []
    plan = await service.brain.plan_import(GUILD, data, "merge", CLASSIC)
    assert plan.new == len(memory)


async def test_an_export_too_big_for_one_discord_file_is_written_compact_and_reads_back(
    service, memory
):
    """A widened 7×6 memory passes Discord's 10 MiB a file at about 95,000 facts as people
    read it: past the limit the export is the compact document, which an import re-proves
    whole, distances included."""
    await service.brain.apply_import(
        await service.brain.plan_import(
            GUILD, json.dumps(engine.export_memory(memory)).encode(), "merge", CLASSIC
        )
    )
    readable, count = await service.brain.export_file(GUILD, CLASSIC)
    assert count == len(memory) and json.loads(readable)["version"] == 1
    small, _ = await service.brain.export_file(GUILD, CLASSIC, max_bytes=len(readable) - 1)
    assert json.loads(small)["version"] == 2 and len(small) < len(readable) / 5
    # far past the limit, the readable one is not even written: the same compact file
    tiny, _ = await service.brain.export_file(GUILD, CLASSIC, max_bytes=42 * count - 1)
    assert tiny == small
    plan = await service.brain.plan_import(GUILD + 1, small, "merge", CLASSIC)
    await service.brain.apply_import(plan)
    again = await service.memory(GUILD + 1, CLASSIC)
    assert list(again.distances()) == list((await service.memory(GUILD, CLASSIC)).distances())


async def test_a_merged_import_stores_the_distances_it_gives_facts_known_without_them(
    service, memory
):
    """A fact the rules taught has no distance; a merged file that proves it gives it one
    in the bot's memory, and in the store too: a restart keeps it."""
    from gameflow.memories import classic_facts

    key, value, plies = next(fact for fact in memory.distances() if fact[2] is not None)
    await service.store.add_facts(  # known here, as the rules teach it: without its plies
        GUILD, classic_facts(CLASSIC, [(key, value, None)]), game=CLASSIC, now=1.0
    )
    assert (await service.memory(GUILD, CLASSIC)).plies(key) is None
    data = json.dumps(engine.export_memory(memory)).encode()
    await service.brain.apply_import(await service.brain.plan_import(GUILD, data, "merge", CLASSIC))
    assert (await service.memory(GUILD, CLASSIC)).plies(key) == plies
    stored = {fact[0]: fact[2] for fact in await service.store.load_facts(GUILD, CLASSIC)}
    assert stored[key] == plies
    assert len(stored) == len(memory) == await service.store.count_facts(GUILD, CLASSIC)
