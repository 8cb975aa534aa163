"""Connect Four's heavy work stays off the event loop (issue 23): reading a big memory,
and counting the ways to beat it for stats, run in a thread; the loop only looks up."""

import threading
from collections import Counter

import pytest

import engine
from engine import Memory, get_game
from gameflow import BrainFigures


def trained(game: str, games: int) -> Memory:
    memory = Memory(game=game)
    engine.train(memory, games, opponent="self", seed=3)
    return memory


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
    stats = await service.stats(1, 7, game)
    again = await service.stats(1, 7, game)
    assert stats.facts == again.facts == len(memory)
    assert (stats.beatable_as_x.losing_lines, stats.beatable_as_o.losing_lines) == (
        expected.ways_to_beat_as_x,
        expected.ways_to_beat_as_o,
    )
    assert calls["parse"] < 10 and calls["moves"] < 100, calls
