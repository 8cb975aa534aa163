"""The real bot on PostgreSQL (DATABASE_URL): a game, what it taught, and a restart."""

import copy
import logging

import asyncpg

from tests.cogs.conftest import board_of, buttons_of
from tests.conftest import postgres_schema


async def test_the_bot_plays_learns_and_restarts_on_postgresql(world, new_bot, monkeypatch):
    w = world
    async with postgres_schema() as (url, schema):
        monkeypatch.setenv("DATABASE_URL", f"{url}?search_path={schema}")
        await w.env.restart_bot(new_bot())  # the world's bot, now on PostgreSQL
        await w.alice.slash(w.channel, "ttt play")
        for cell in (1, 4):
            await w.alice.slash(w.channel, "ttt move", cell=cell)
        await w.env.restart_bot(new_bot())  # the running game comes back from PostgreSQL
        won = await w.alice.slash(w.channel, "ttt move", cell=7)
        assert "wins!" in won.response.embeds[0].description
        stats = await w.bob.slash(w.channel, "ttt stats")
        fields = {f.name: f.value for f in stats.response.embeds[0].fields}
        assert int(fields["Lessons learned"]) > 0
        assert "**1 game** against me: 1 win" in fields["This server"]
        again = await w.alice.slash(w.channel, "ttt play")
        assert board_of(again.response.message) == "........."
        db = await asyncpg.connect(url, server_settings={"search_path": schema})
        try:  # it all went to PostgreSQL
            assert await db.fetchval("SELECT COUNT(*) FROM games") == 2
            assert await db.fetchval("SELECT COUNT(*) FROM facts") > 0
        finally:
            await db.close()


async def test_an_outage_skips_sweeps_quietly_and_the_sweep_works_after_it(
    world, new_bot, monkeypatch, caplog
):
    """Issue 23, item 8: in a PostgreSQL outage the timeout sweep failed, restarted at
    once and failed again: thousands of "the timeout sweep failed" a second, and a busy
    core. Now a failed round is skipped until the next tick, and the outage is logged
    once, when it starts (and once when it ends)."""
    from tests.pgproxy import Proxy

    w = world
    monkeypatch.setenv("GAME_TIMEOUT_MINUTES", "1")
    async with postgres_schema() as (url, schema):
        proxy = await Proxy(url).start()
        try:
            monkeypatch.setenv("DATABASE_URL", f"{proxy.url}?search_path={schema}")
            await w.env.restart_bot(new_bot())
            await w.alice.slash(w.channel, "ttt play")
            await proxy.cut()
            with caplog.at_level(logging.INFO):
                await w.env.advance_time(5 * 60)  # ten ticks of the sweep, all failing
                about_it = [r for r in caplog.records if r.levelno >= logging.WARNING]
                proxy.restore()
                await w.env.advance_time(2 * 60)  # the next tick abandons the idle game
        finally:
            await proxy.stop()
    assert len(about_it) <= 2, [r.getMessage() for r in about_it]
    assert "cannot reach PostgreSQL" in about_it[0].getMessage()
    notice = w.channel.last_message
    assert "was abandoned after 1 minute without a move" in notice.content


async def test_a_click_on_an_old_board_in_an_outage_gets_the_answer_a_move_gets(
    world, new_bot, monkeypatch, caplog
):
    """Issue 32, defect 2: a click whose game is not in the cache (an old board; after a
    restart) looked the channel's game up in the store before anything that answers: in a
    PostgreSQL outage nobody was answered, and discord.py logged "Ignoring exception in
    on_interaction". It now gets the private answer ``/ttt move`` gets, and once the
    database is back, the old board's answer."""
    from simcord import actors

    from tests.pgproxy import Proxy

    w = world
    async with postgres_schema() as (url, schema):
        proxy = await Proxy(url).start()
        try:
            monkeypatch.setenv("DATABASE_URL", f"{proxy.url}?search_path={schema}")
            await w.env.restart_bot(new_bot())
            started = await w.alice.slash(w.channel, "ttt play")
            shown = started.response.message
            old = copy.deepcopy(w.env.backend.get_message(w.channel.id, shown.id))
            cell = {"custom_id": buttons_of(shown)[5]["custom_id"], "component_type": 2}
            await w.alice.slash(w.channel, "ttt resign")  # over: this process keeps it no more
            await proxy.cut()
            with caplog.at_level(logging.WARNING):
                clicked = await actors._component_interaction(w.alice, old, cell)
                moved = await w.alice.slash(w.channel, "ttt move", cell=5)
            proxy.restore()
            after = await actors._component_interaction(w.alice, old, cell)
        finally:
            await proxy.stop()
    assert clicked.response is not None, "the click was never answered"
    assert clicked.ephemeral and "can't reach my database" in clicked.response.content
    assert clicked.response.content == moved.response.content
    assert not [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert after.ephemeral and "That game is over" in after.response.content


async def test_board_and_brain_in_an_outage_get_the_answer_a_move_gets(
    world, new_bot, monkeypatch, caplog
):
    """As a click (above): ``board`` looks the channel's game up in the store when this
    process does not keep it, and ``brain`` reads a memory; in an outage each gets the
    private answer a move gets, not an apology for an error nobody foresaw; so does an
    admin's ``reset``, which reads the memory to name what it would forget."""
    from tests.pgproxy import Proxy

    w = world
    async with postgres_schema() as (url, schema):
        proxy = await Proxy(url).start()
        try:
            monkeypatch.setenv("DATABASE_URL", f"{proxy.url}?search_path={schema}")
            await w.env.restart_bot(new_bot())  # nothing read yet: no game, no memory
            await proxy.cut()
            with caplog.at_level(logging.WARNING):
                moved = await w.alice.slash(w.channel, "ttt move", cell=5)
                board = await w.alice.slash(w.channel, "ttt board")
                brain = await w.alice.slash(w.channel, "connect4 brain", moves="4 4")
                reset = await w.admin.slash(w.channel, "ttt-admin reset")
            proxy.restore()
            shown = await w.alice.slash(w.channel, "connect4 brain", moves="4 4")
        finally:
            await proxy.stop()
    assert "can't reach my database" in moved.response.content
    for answer in (board, brain, reset):
        assert answer.ephemeral and answer.response.content == moved.response.content
    assert not [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert shown.ephemeral and shown.response.embeds[0].title.endswith("after 4 4")
