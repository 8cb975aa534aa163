"""Connect Four's heavy work stays off the event loop (issue 23): reading a big memory,
and counting the ways to beat it for stats, run in a thread; the loop only looks up."""

import asyncio
import json
import random
import threading
from collections import Counter

import pytest

import engine
from engine import Memory, get_game
from gameflow import BrainFigures
from tests.engine.random_play import learn_random_games


def trained(game: str, games: int) -> Memory:
    return learn_random_games(Memory(game=game), games, random.Random(3))


@pytest.mark.parametrize("game, games", [("connect4", 2_500), ("connect4-5x4", 2_000)])
async def test_stats_of_a_big_memory_read_and_count_it_off_the_event_loop(
    service, monkeypatch, game, games
):
    memory = trained(game, games)
    assert len(memory) >= 2_000  # big enough to be worth a thread
    facts = [(fact.position, fact.outcome.value) for fact in memory]
    await service.store.add_facts(1, facts, game=game, replace=True, now=1.0)
    expected = BrainFigures.of(memory)
    rules = get_game(game)
    calls: Counter[str] = Counter()
    loop_thread = threading.current_thread()

    def counted(name, real):
        def call(*args, **kwargs):
            if threading.current_thread() is loop_thread:
                calls[name] += 1
            return real(*args, **kwargs)

        return call

    # a position read (loading) and a position's moves (counting): on the loop, a few
    for name in ("parse", "moves"):
        monkeypatch.setattr(rules, name, counted(name, getattr(rules, name)))
    stats = await service.scoreboard.stats(1, 7, game)
    again = await service.scoreboard.stats(1, 7, game)
    assert stats.facts == again.facts == len(memory)
    assert (stats.beatable_as_x.losing_lines, stats.beatable_as_o.losing_lines) == (
        expected.ways_to_beat_as_x,
        expected.ways_to_beat_as_o,
    )
    assert calls["parse"] < 10 and calls["moves"] < 100, calls


async def test_an_import_is_checked_off_the_loop_telling_its_progress(service, monkeypatch):
    memory = trained("connect4-5x4", 6_000)
    data = json.dumps(engine.export_memory(memory)).encode()
    loop_thread = threading.current_thread()
    checked_on, told = [], []
    real = engine.import_memory

    def spy(*args, **kwargs):
        checked_on.append(threading.current_thread())
        return real(*args, **kwargs)

    monkeypatch.setattr(engine, "import_memory", spy)

    def progress(done: int, total: int) -> None:
        told.append((done, total, threading.current_thread() is loop_thread))

    plan = await service.brain.plan_import(1, data, "replace", "connect4-5x4", progress)
    assert plan.new == len(memory) and plan.document == memory
    assert checked_on and loop_thread not in checked_on
    await asyncio.sleep(0)  # the last word, sent from the thread, is heard
    assert told[-1] == (2 * len(memory), 2 * len(memory), True)
    assert all(on_loop for *_, on_loop in told)
    change = await service.brain.apply_import(plan)
    assert change.after.lessons == len(memory)
    assert await service.memory(1, "connect4-5x4") == memory
    exported, lessons = await service.brain.export_file(1, "connect4-5x4")
    assert lessons == len(memory) and engine.import_memory(exported) == memory


async def test_a_classic_memory_is_read_back_off_the_loop_and_counted_in_c(service, monkeypatch):
    """A 7×6 memory read back from the store is built in a thread (issue 34), and its
    stats count its facts with a distance without a loop over them on the event loop."""
    from engine.tables import DistanceTable
    from gameflow.memories import classic_facts

    rules, rng = get_game("connect4-7x6"), random.Random(4)
    facts: dict[int, tuple[str, int | None]] = {}
    while len(facts) < 5_000:
        code = rules.empty
        while options := rules.moves(code):
            _move, code, key = rng.choice(options)
            facts.setdefault(key, (rng.choice(("win", "loss")), rng.choice((None, 7, 12))))
    rows = [(key, outcome, plies) for key, (outcome, plies) in facts.items()]
    for at in range(0, len(rows), 100):  # a batch a game, as the store gets them
        packed = classic_facts("connect4-7x6", rows[at : at + 100])
        await service.store.add_facts(1, packed, game="connect4-7x6", now=1.0)
    built_on = []
    real = DistanceTable.from_stored.__func__

    def spy(cls, runs, *args, **kwargs):
        built_on.append(threading.current_thread())
        return real(cls, runs, *args, **kwargs)

    monkeypatch.setattr(DistanceTable, "from_stored", classmethod(spy))
    monkeypatch.setattr(DistanceTable, "distances", None)  # no loop over the facts for stats
    stats = await service.scoreboard.stats(1, 7, "connect4-7x6")
    assert built_on and threading.current_thread() not in built_on
    assert stats.facts == len(rows)
    with_plies = sum(plies is not None for _, _, plies in rows)
    assert stats.classic.by_post_mortem == with_plies
    assert stats.classic.by_rules == len(rows) - with_plies


async def test_a_curve_is_read_again_only_once_it_has_changed(service, monkeypatch):
    """Stats asked again and again of a server whose curve has not moved read one stamp,
    not the curve (issue 34); a game that ends changes the stamp, and the curve is read."""
    from data import Snapshot

    async def a_game(n: int) -> None:
        game = await service.store.start_game(1, 2, 3, "O", [], now=float(n))
        await service.store.finish_game(
            game.id, 1, [], [4], "draw", now=float(n), snapshot=Snapshot(n, 1, 1)
        )

    await a_game(1)
    reads = []
    real = service.store.curve

    async def counted(*args, **kwargs):
        reads.append(args)
        return await real(*args, **kwargs)

    monkeypatch.setattr(service.store, "curve", counted)
    first = await service.scoreboard.curve(1)
    assert await service.scoreboard.curve(1) == first and len(reads) == 1
    await a_game(2)
    again = await service.scoreboard.curve(1)
    assert len(reads) == 2 and [p.lessons for p in again] == [1, 2]
