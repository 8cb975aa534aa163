"""PostgreSQL outages, through a proxy the tests cut, pause and restore (tests/pgproxy.py):
what a person is told during one, and what is stored after it (issue 16)."""

import asyncio
import logging

import asyncpg
import pytest

from data import Store, StoreUnavailableError
from gameflow import GameError, GameService
from tests.conftest import postgres_schema
from tests.pgproxy import Proxy

GUILD, CHANNEL, ALICE = 1, 10, 100
UNREACHABLE = "can't reach my database right now, so nothing was played or changed"


@pytest.fixture
async def outage():
    """A game service on PostgreSQL through a proxy: ``(service, proxy, direct)``, with
    ``direct`` a connection that bypasses the proxy, to see what is stored."""
    async with postgres_schema() as (url, schema):
        proxy = await Proxy(url).start()
        store = await Store.connect(proxy.url, schema=schema)
        direct = await asyncpg.connect(url, server_settings={"search_path": schema})
        clock = [1_000_000.0]
        service = GameService(store, timeout_seconds=600, clock=lambda: clock[0])
        await service.load()
        try:
            yield service, proxy, direct
        finally:
            service.trainer.stop_all()
            await direct.close()
            await proxy.stop()
            proxy.restore()
            await store.close()


async def stored_moves(direct) -> str:
    return await direct.fetchval("SELECT moves FROM games ORDER BY id DESC LIMIT 1")


async def test_a_move_during_an_outage_is_refused_truthfully_and_the_next_one_plays(outage, caplog):
    service, proxy, direct = outage
    await service.start(GUILD, CHANNEL, ALICE, bot_first=False)
    await proxy.cut()
    with caplog.at_level(logging.WARNING, logger="data.postgres"):
        for cell in (5, 5, 9):  # asked again and again while it is down
            with pytest.raises(GameError, match=UNREACHABLE):
                await service.move(CHANNEL, ALICE, cell)
    assert await stored_moves(direct) == ""  # nothing was stored
    assert service.running.running_game(CHANNEL).moves == ()  # nor kept as if it had been
    outages = [r for r in caplog.records if "cannot reach PostgreSQL" in r.getMessage()]
    assert len(outages) == 1  # logged once per outage, not once per request
    proxy.restore()
    turn = await service.move(CHANNEL, ALICE, 5)  # the pool reconnects by itself
    assert turn.game.moves == (4, 0) and await stored_moves(direct) == "40"


async def test_reads_during_an_outage_say_the_database_cannot_be_reached(outage):
    service, proxy, _direct = outage
    await proxy.cut()
    with pytest.raises(StoreUnavailableError):
        await service.scoreboard.stats(GUILD, ALICE)
    with pytest.raises(StoreUnavailableError):
        await service.scoreboard.leaderboard(GUILD, ALICE)
    proxy.restore()
    assert (await service.scoreboard.stats(GUILD, ALICE)).facts == 0


async def test_a_pause_holds_a_move_until_the_database_answers_and_it_is_stored(outage):
    service, proxy, direct = outage
    await service.start(GUILD, CHANNEL, ALICE, bot_first=False)
    proxy.pause()
    moving = asyncio.create_task(service.move(CHANNEL, ALICE, 5))
    await asyncio.sleep(0.5)
    assert not moving.done()  # waiting for the database, not answered falsely
    proxy.resume()
    turn = await moving
    assert turn.game.moves == (4, 0) and await stored_moves(direct) == "40"


async def test_a_training_survives_an_outage_and_saves_when_the_database_is_back(outage):
    """PostgreSQL killed during a training used to leave it "running" forever: every
    later training was refused until a restart, and a cancel saved nothing."""
    service, proxy, direct = outage
    trainer = service.trainer
    trainer.update_seconds = 0.2
    run = await trainer.start(GUILD, CHANNEL, ALICE, "random", 1_000_000)
    run.start()
    polls = 0
    await proxy.cut()
    while run.progress().state == "running" or run._unsaved:
        if polls == 10:  # about a second into the outage: the database is back
            proxy.restore()
        if polls == 15:
            run.cancel(ALICE)
        await run.poll()
        polls += 1
        await asyncio.sleep(0.1)
        assert polls < 600, "the training never ended"
    progress = run.progress()
    assert progress.state == "cancelled" and progress.ended_by == ALICE
    row = await direct.fetchrow("SELECT status, played, learned FROM trainings")
    assert row["status"] == "cancelled" and row["played"] == progress.played > 0
    facts = await direct.fetchval("SELECT COUNT(*) FROM facts")
    assert facts == row["learned"] == progress.learned > 0
    assert trainer.running(GUILD) is None  # a new training may start
    again = await trainer.start(GUILD, CHANNEL, ALICE, "random", 10)
    again.stop()


async def test_a_connection_lost_while_committing_is_not_called_unchanged(outage):
    """A move whose COMMIT reached PostgreSQL just as the connection was lost may have
    been saved: the player is told it cannot be known yet (not "nothing changed"), and the
    next request reads the game as the store has it."""
    service, proxy, direct = outage
    await service.start(GUILD, CHANNEL, ALICE, bot_first=False)
    # a trigger that runs at COMMIT and takes its time: the connection is cut meanwhile
    await direct.execute(
        "CREATE FUNCTION slow_commit() RETURNS trigger LANGUAGE plpgsql AS"
        " $$ BEGIN PERFORM pg_sleep(0.6); RETURN NULL; END $$"
    )
    await direct.execute(
        "CREATE CONSTRAINT TRIGGER slow_commit AFTER UPDATE ON games"
        " DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION slow_commit()"
    )
    moving = asyncio.create_task(service.move(CHANNEL, ALICE, 5))
    await asyncio.sleep(0.3)
    await proxy.cut()
    with pytest.raises(GameError, match="can't tell yet whether it was saved"):
        await moving
    await direct.execute("DROP TRIGGER slow_commit ON games")
    await asyncio.sleep(0.5)  # the server finishes the commit it was given
    assert await stored_moves(direct) == "40"  # it was saved after all
    proxy.restore()
    with pytest.raises(GameError, match="Cell 5 is taken"):  # the game as it really is
        await service.move(CHANNEL, ALICE, 5)
    turn = await service.move(CHANNEL, ALICE, 9)
    assert turn.game.moves[:2] == (4, 0) and turn.game.moves[2] == 8


async def test_a_challenge_across_an_outage_is_refused_truthfully_then_goes_on(outage):
    service, proxy, direct = outage
    await proxy.cut()
    with pytest.raises(GameError, match=UNREACHABLE):
        await service.challenges.issue(GUILD, CHANNEL, ALICE, 200, "me")
    assert await direct.fetchval("SELECT COUNT(*) FROM challenges") == 0
    proxy.restore()
    invitation = await service.challenges.issue(GUILD, CHANNEL, ALICE, 200, "me")
    await proxy.cut()
    with pytest.raises(GameError, match=UNREACHABLE):
        await service.challenges.accept(invitation.id, 200, CHANNEL)
    assert await direct.fetchval("SELECT COUNT(*) FROM games") == 0  # no game started
    proxy.restore()
    turn = await service.challenges.accept(invitation.id, 200, CHANNEL)  # still open
    assert turn.game.running and await direct.fetchval("SELECT COUNT(*) FROM games") == 1
