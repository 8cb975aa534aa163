"""The real bot on PostgreSQL (DATABASE_URL): a game, what it taught, and a restart."""

import asyncpg

from tests.cogs.conftest import board_of
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
        assert "**1 game** against me: I won 0, lost 1" in fields["This server"]
        again = await w.alice.slash(w.channel, "ttt play")
        assert board_of(again.response.message) == "........."
        db = await asyncpg.connect(url, server_settings={"search_path": schema})
        try:  # it all went to PostgreSQL
            assert await db.fetchval("SELECT COUNT(*) FROM games") == 2
            assert await db.fetchval("SELECT COUNT(*) FROM facts") > 0
        finally:
            await db.close()
