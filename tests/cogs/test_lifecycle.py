"""Servers, restarts, the clock and command syncing."""

from tests.cogs.admin.test_admin import lessons
from tests.cogs.conftest import board_of, buttons_of, is_over, message_by_id
from tests.cogs.play.test_games import play_line


def syncs(env) -> int:
    return sum(1 for r in env.http_requests if r.method == "PUT" and r.path.endswith("/commands"))


async def test_two_servers_learn_separately(world):
    w = world
    other = w.env.create_guild("Elsewhere")
    channel = other.create_text_channel("games")
    carol = other.add_member(w.env.create_user("carol"))
    await play_line(w, w.alice, [1, 4, 7])  # the bot loses here, and learns
    assert await lessons(w, w.alice) > 0
    result = await carol.slash(channel, "ttt stats")
    fields = {f.name: f.value for f in result.response.embeds[0].fields}
    assert fields["Lessons learned"] == "0" and fields["This server"] == "No games against me yet."
    # elsewhere the bot is still naive: the same line, the same losing reply (3)
    await carol.slash(channel, "ttt play")
    await carol.slash(channel, "ttt move", cell=1)
    reply = await carol.slash(channel, "ttt move", cell=4)
    assert board_of(reply.response.message) == "XOOX....."
    # while at home it has learned not to answer that way
    await w.alice.slash(w.channel, "ttt play")
    await w.alice.slash(w.channel, "ttt move", cell=1)
    home = await w.alice.slash(w.channel, "ttt move", cell=4)
    assert board_of(home.response.message)[2] == "."


async def test_a_restart_keeps_the_memory_and_the_running_game(world, new_bot):
    w = world
    await play_line(w, w.alice, [1, 4, 7])
    learned = await lessons(w, w.alice)
    await w.alice.slash(w.channel, "ttt play")
    await w.alice.slash(w.channel, "ttt move", cell=5)  # the bot answers 1
    board = w.channel.last_message
    synced = syncs(w.env)

    await w.env.restart_bot(new_bot())

    assert syncs(w.env) == synced  # same commands: no needless sync on start
    assert await lessons(w, w.alice) == learned
    # the board message from before the restart still takes clicks
    result = await w.alice.click(board, custom_id=buttons_of(board)[9]["custom_id"])
    assert not result.ephemeral
    assert board_of(message_by_id(w.channel, board.id)) == "OO..X...X"
    shown = await w.alice.slash(w.channel, "ttt board")
    assert board_of(shown.response.message) == "OO..X...X"
    assert not buttons_of(shown.response.message)[3]["disabled"]


async def test_a_game_left_idle_is_abandoned_and_teaches_nothing(world):
    w = world
    await w.alice.slash(w.channel, "ttt play")
    await w.alice.slash(w.channel, "ttt move", cell=1)
    board = w.channel.last_message
    await w.env.advance_time(9 * 60)
    assert w.channel.last_message.id == board.id  # not yet: 10 minutes by default
    await w.alice.slash(w.channel, "ttt move", cell=4)  # a move resets the clock
    board = w.channel.last_message
    await w.env.advance_time(9 * 60)
    assert w.channel.last_message.id == board.id
    await w.env.advance_time(2 * 60)
    notice = w.channel.last_message
    assert "abandoned" in notice.content and w.alice.mention in notice.content
    assert "Nothing was learned" in notice.content
    old = next(m for m in w.channel.history() if m.id == board.id)
    assert is_over(old) and "abandoned" in old.embeds[0].description.lower()
    assert await lessons(w, w.alice) == 0
    result = await w.alice.slash(w.channel, "ttt play")  # the channel is free again
    assert not result.ephemeral


async def test_an_idle_game_from_before_a_restart_still_times_out(world, new_bot):
    w = world
    await w.alice.slash(w.channel, "ttt play")
    await w.env.restart_bot(new_bot())
    await w.env.advance_time(11 * 60)
    assert "abandoned" in w.channel.last_message.content


async def test_changed_command_definitions_are_synced_on_start(world, new_bot, db_path):
    w = world
    import sqlite3

    synced = syncs(w.env)
    with sqlite3.connect(db_path) as db:  # as if an older version had synced other commands
        db.execute("UPDATE meta SET value = 'stale' WHERE key LIKE 'commands_synced:%'")
    await w.env.restart_bot(new_bot())
    assert syncs(w.env) == synced + 1
    await w.env.restart_bot(new_bot())
    assert syncs(w.env) == synced + 1


async def test_an_unexpected_failure_gets_a_private_apology_and_changes_nothing(
    world, simcord_bot, new_bot, caplog
):
    w = world
    await w.alice.slash(w.channel, "ttt play")
    await w.alice.slash(w.channel, "ttt move", cell=5)
    await simcord_bot.store.close()  # the database goes away under the bot
    result = await w.alice.slash(w.channel, "ttt move", cell=9)
    assert result.ephemeral and "nothing was changed" in result.response.content
    # the failure was logged with its cause, not hidden
    (record,) = [r for r in caplog.records if r.levelname == "ERROR"]
    assert "before anything was saved" in record.getMessage() and record.exc_info
    simcord_bot.store = None
    await w.env.restart_bot(new_bot())
    shown = await w.alice.slash(w.channel, "ttt board")
    assert board_of(shown.response.message) == "O...X...."  # the failed move left no trace


async def test_the_memory_caches_byte_bound_comes_from_the_settings(world, new_bot, monkeypatch):
    monkeypatch.setenv("MEMORY_CACHE_MB", "3")
    bot = new_bot()
    await world.env.restart_bot(bot)
    assert bot.service.memories.bytes_kept == 3 << 20
