"""Two processes on one database, on SQLite and on PostgreSQL: an overlapping deploy, a
re-shard, a reset in one process while the other holds the server's memory."""

from contextlib import AsyncExitStack

import pytest

from data import Store
from gameflow import GameError, GameService
from tests.conftest import postgres_schema
from tests.engine.oracle import true_outcome

GUILD, CHANNEL, ALICE = 1, 10, 100


@pytest.fixture(params=["sqlite", "postgres"])
async def two_processes(request, tmp_path):
    """Two game services (as two bot processes would hold) on one database."""
    clock = [1_000_000.0]
    async with AsyncExitStack() as stack:
        if request.param == "sqlite":
            urls = [tmp_path / "shared.sqlite3"] * 2
            schema = None
        else:
            url, schema = await stack.enter_async_context(postgres_schema())
            urls = [url, url]
        services = []
        for url in urls:
            store = await Store.connect(url, schema=schema)
            stack.push_async_callback(store.close)
            service = GameService(store, timeout_seconds=600, clock=lambda: clock[0])
            await service.load()
            services.append(service)
        yield services


async def test_racing_on_one_channel_exactly_one_move_applies(two_processes):
    first, second = two_processes
    await first.start(GUILD, CHANNEL, ALICE, bot_first=False)
    await second.load()  # both hold the game, as during a deploy
    announced = await first.move(CHANNEL, ALICE, 5)
    with pytest.raises(GameError, match="another copy of me got there first"):
        await second.move(CHANNEL, ALICE, 9)
    assert (await first.store.running_game(CHANNEL)).moves == announced.game.moves == (4, 0)
    assert second.running.running_game(CHANNEL).moves == (4, 0)  # it now sees the true game


async def test_a_running_game_moves_to_another_process_and_goes_on(two_processes):
    first, second = two_processes
    await first.start(GUILD, CHANNEL, ALICE, bot_first=False)
    await first.move(CHANNEL, ALICE, 1)
    await second.load()  # a re-shard: the server's shard now runs in the second process
    await second.move(CHANNEL, ALICE, 4)
    turn = await second.move(CHANNEL, ALICE, 7)  # beats the naive bot down the left column
    assert turn.game.result == "player_won" and turn.lessons
    assert (await first.store.record(GUILD)).bot_losses == 1


async def test_a_reset_in_one_process_is_respected_by_the_others_next_learning(two_processes):
    first, second = two_processes
    for service in (first, second):  # each process learns, and caches the memory
        await service.start(GUILD, CHANNEL, ALICE, bot_first=False)
        for cell in (1, 4, 7):
            await service.move(CHANNEL, ALICE, cell)
    assert len(await second.memory(GUILD)) > 0
    await first.reset_memory(GUILD)  # the second process's cached memory is now stale
    await second.start(GUILD, CHANNEL, ALICE, bot_first=False)
    turn = None
    while turn is None or turn.game.running:  # 5, 9, 3, 7 beat an empty memory
        free = turn.game.board.legal_moves if turn else range(9)
        cell = next(c for c in (4, 8, 2, 6, 0, 1, 3, 5, 7) if c in free)
        turn = await second.move(CHANNEL, ALICE, cell + 1)
    stored = await second.store.load_facts(GUILD)
    # only what this last game teaches an empty memory: nothing from before the reset
    assert {p for p, _ in stored} == {p for p, _ in await _taught_from_scratch(turn.game.moves)}
    assert all(true_outcome(position) == outcome for position, outcome in stored)
    assert second.cached_memory(GUILD) is None or len(second.cached_memory(GUILD)) == len(stored)


async def _taught_from_scratch(moves) -> list[tuple[str, str]]:
    from engine import Memory, canonical

    memory = Memory()
    return [(canonical(ls.after), ls.outcome.value) for ls in memory.learn(moves)]


async def test_each_process_of_a_cluster_picks_up_only_its_own_servers(two_processes):
    from data import Shards

    first, second = two_processes
    on_shard = {0: (0 << 22) + 7, 1: (1 << 22) + 7}  # server ids on shards 0 and 1 of 2
    for shard, guild_id in on_shard.items():
        await first.start(guild_id, 100 + shard, ALICE, bot_first=False)
        await first.store.start_training(guild_id, 100 + shard, ALICE, "random", 10, now=1.0)
    await first.challenges.issue(on_shard[1], 200, ALICE, None, "me")
    for service, shard in ((first, 0), (second, 1)):  # a restart as a cluster of two
        service.shards = service.trainer.shards = Shards(2, (shard,))
        await service.load()
        assert [g.guild_id for g in service.running.all()] == [on_shard[shard]]
        assert [r.guild_id for r in await service.trainer.recover()] == [on_shard[shard]]
    assert first.challenges.all() == [] and len(second.challenges.all()) == 1


async def test_invitations_expire_once_each_and_never_over_a_game_another_process_started(
    two_processes,
):
    """Issue 16, item 1: each timer used to expire every due invitation (N invitations
    expiring together made about N² edits), and a process expired an invitation the other
    had already turned into a running game's board."""
    import asyncio

    first, second = two_processes
    invitations = [
        await first.challenges.issue(GUILD, 100 + n, ALICE, 200 + n, "me") for n in range(20)
    ]
    await second.load()  # both hold every invitation, as during a deploy
    await second.challenges.accept(invitations[0].id, 200)  # becomes a game in the second
    clock = first.clock
    first.clock = second.clock = lambda: clock() + 3600
    rounds = await asyncio.gather(*(first.challenges.expire_due() for _ in range(20)))
    expired = [c.id for r in rounds for c in r]
    assert sorted(expired) == sorted(c.id for c in invitations[1:])  # once each, not the game
    assert await second.challenges.expire_due() == []  # the other process: nothing left
    assert first.running.running_game(100) is None and second.running.running_game(100) is not None


async def test_a_process_that_missed_a_game_asks_the_store_before_saying_there_is_none(
    two_processes,
):
    """Issue 16, item 5: with two processes on one server, moves were told "No game is
    running in this channel" while the other process's game ran, and stats lagged."""
    first, second = two_processes
    await second.memory(GUILD)  # the second has read the server's memory already
    await first.start(GUILD, CHANNEL, ALICE, bot_first=False)
    assert second.running.running_game(CHANNEL) is None  # it has not seen the game start
    turn = await second.move(CHANNEL, ALICE, 1)  # yet the move is played there
    assert turn.game.moves == (0, 1)
    for cell in (4, 7):
        turn = await second.move(CHANNEL, ALICE, cell)
    assert turn.game.result == "player_won" and turn.lessons
    await first.start(GUILD, CHANNEL, ALICE, bot_first=False)
    for cell in (3, 5, 7, 9):
        turn = await first.move(CHANNEL, ALICE, cell)
        if not turn.game.running:
            break
    stored = len(await first.store.load_facts(GUILD))
    assert (
        await second.scoreboard.stats(GUILD, ALICE)
    ).facts == stored  # not the cache's older count
    assert (await first.scoreboard.stats(GUILD, ALICE)).facts == stored
