"""The brain tools without Discord: export, proof-checked import, real SQLite files."""

import json
import sqlite3

import pytest

import engine
from engine import Memory
from gameflow import BrainFigures, GameError
from gameflow.brain import read_memory_file
from tests.gameflow.test_service import ALICE, CHANNEL, GUILD


def document_bytes(games=2000, seed=1) -> bytes:
    memory = Memory()
    engine.train(memory, games, seed=seed)
    return json.dumps(engine.export_memory(memory)).encode()


async def stored(svc) -> Memory:
    return Memory(await svc.store.load_facts(GUILD))


async def test_an_import_applies_to_the_memory_as_it_is_when_confirmed(service):
    plan = await service.brain.plan_import(GUILD, document_bytes(), "merge")
    await service.start(GUILD, CHANNEL, ALICE, bot_first=False)
    for cell in (1, 4, 7):  # a game taught in between: its lessons must survive the import
        turn = await service.move(CHANNEL, ALICE, cell)
    assert turn.lessons
    change = await service.brain.apply_import(plan)
    memory = await stored(service)
    assert memory == service.cached_memory(GUILD)
    assert all(memory.outcome(lesson.after) is lesson.outcome for lesson in turn.lessons)
    assert all(memory.outcome(fact.position) is fact.outcome for fact in plan.document)
    assert change.after.lessons == len(memory) > change.before.lessons


async def test_a_busy_database_imports_nothing_and_says_so(service, tmp_path):
    plan = await service.brain.plan_import(GUILD, document_bytes(), "replace")
    other = sqlite3.connect(tmp_path / "flow.sqlite3", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(GameError, match="database is busy"):
            await service.brain.apply_import(plan)
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert await stored(service) == Memory() == await service.memory(GUILD)


async def test_replace_leaves_exactly_the_files_memory(service):
    await service.brain.apply_import(
        await service.brain.plan_import(GUILD, document_bytes(), "merge")
    )
    small = document_bytes(20, seed=5)
    await service.brain.apply_import(await service.brain.plan_import(GUILD, small, "replace"))
    assert await stored(service) == engine.import_memory(small) == await service.memory(GUILD)


def test_a_byte_order_mark_is_fine_and_other_encodings_are_named():
    data = document_bytes(50)
    assert read_memory_file(b"\xef\xbb\xbf" + data) == engine.import_memory(data)
    with pytest.raises(GameError, match="not UTF-8"):
        read_memory_file(data.decode().encode("utf-16"))


def test_the_export_of_a_server_reads_back_as_the_same_memory():
    data = document_bytes(3000, seed=8)
    assert engine.export_memory(read_memory_file(data)) == json.loads(data)


async def test_games_imports_and_resets_add_points_to_the_learning_curve(service):
    await service.start(GUILD, CHANNEL, ALICE, bot_first=False)
    for cell in (1, 4, 7):  # the naive bot loses: counted, with its lessons
        await service.move(CHANNEL, ALICE, cell)
    await service.brain.apply_import(
        await service.brain.plan_import(GUILD, document_bytes(), "merge")
    )
    await service.reset_memory(GUILD)
    curve = await service.store.curve(GUILD)
    assert [(p.games, p.lessons > 0, p.training) for p in curve] == [
        (1, True, False),  # the game
        (1, True, False),  # the import
        (1, False, False),  # the reset
    ]
    assert curve[1].lessons > curve[0].lessons
    empty = BrainFigures.of(Memory())
    assert (curve[-1].lessons, curve[-1].beat_x, curve[-1].beat_o) == (
        0,
        empty.ways_to_beat_as_x,
        empty.ways_to_beat_as_o,
    )
    assert (await service.brain.figures(GUILD)).lessons == 0
