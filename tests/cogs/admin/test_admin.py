"""/ttt-admin reset: hidden from members by default, checked for real, confirmed by a button."""

from tests.cogs.play.test_games import play_line


async def lessons(w, member) -> int:
    result = await member.slash(w.channel, "ttt stats")
    return int(
        next(f.value for f in result.response.embeds[0].fields if f.name == "Lessons learned")
    )


def yes_label(question) -> str:
    """A question's yes button: a reset's names the game and the count it forgets."""
    return question.response.message.components[0].children[0].label


async def test_reset_is_hidden_from_members_without_manage_server(world):
    w = world
    assert "ttt-admin reset" in w.admin.available_commands(w.channel)
    assert "ttt-admin reset" not in w.alice.available_commands(w.channel)


async def test_the_bot_checks_the_permission_itself_even_if_the_command_is_regranted(world):
    """A server can let anyone see the command (Integrations settings); the bot still refuses."""
    w = world
    await play_line(w, w.alice, [1, 4, 7])
    learned = await lessons(w, w.alice)
    command = next(
        c
        for c in w.env.backend.visible_commands(user_id=w.admin.id, channel_id=w.channel.id)
        if c["name"] == "ttt-admin"
    )
    w.guild.set_command_permissions(int(command["id"]), {w.alice: True})
    assert "ttt-admin reset" in w.alice.available_commands(w.channel)
    result = await w.alice.slash(w.channel, "ttt-admin reset")
    assert result.ephemeral and "Manage Server" in result.response.content
    assert await lessons(w, w.alice) == learned > 0


async def test_reset_asks_first_and_cancel_forgets_nothing(world):
    w = world
    await play_line(w, w.alice, [1, 4, 7])
    learned = await lessons(w, w.alice)
    question = await w.admin.slash(w.channel, "ttt-admin reset")
    assert question.ephemeral and f"Forget {learned} tic-tac-toe lessons" in (
        question.response.content
    )
    assert await lessons(w, w.alice) == learned  # asking changed nothing
    answer = await w.admin.click(question.response.message, label="Cancel")
    assert answer.response.content == "Cancelled: I forgot nothing."
    assert not answer.response.components  # the buttons are gone
    assert await lessons(w, w.alice) == learned


async def test_confirmed_reset_wipes_this_servers_memory_and_nothing_else(world):
    w = world
    other = w.env.create_guild("Elsewhere")
    other_channel = other.create_text_channel("games")
    carol = other.add_member(w.env.create_user("carol"))
    await play_line(w, w.alice, [1, 4, 7])
    learned = await lessons(w, w.alice)
    await carol.slash(other_channel, "ttt play")
    for cell in (1, 4, 7):
        await carol.slash(other_channel, "ttt move", cell=cell)
    other_lessons = int(
        next(
            f.value
            for f in (await carol.slash(other_channel, "ttt stats")).response.embeds[0].fields
            if f.name == "Lessons learned"
        )
    )
    await w.alice.slash(w.channel, "ttt play")  # a running game survives the reset

    question = await w.admin.slash(w.channel, "ttt-admin reset")
    done = await w.admin.click(
        question.response.message, label=f"Forget {learned} tic-tac-toe lessons"
    )
    assert f"forgot {learned} tic-tac-toe lessons" in done.response.content
    assert await lessons(w, w.alice) == 0
    stats = await w.alice.slash(w.channel, "ttt stats")
    history = next(f.value for f in stats.response.embeds[0].fields if f.name == "This server")
    assert "**1 game**" in history  # game history is kept
    result = await w.alice.slash(w.channel, "ttt move", cell=5)
    assert not result.ephemeral  # and so is the running game
    after = await carol.slash(other_channel, "ttt stats")
    assert (
        int(next(f.value for f in after.response.embeds[0].fields if f.name == "Lessons learned"))
        == other_lessons
        > 0
    )


async def test_an_unanswered_question_expires_and_forgets_nothing(world):
    w = world
    await play_line(w, w.alice, [1, 4, 7])
    learned = await lessons(w, w.alice)
    question = await w.admin.slash(w.channel, "ttt-admin reset")
    await w.env.advance_time(61)
    assert question.response.content == "No answer in time: I forgot nothing."
    assert await lessons(w, w.alice) == learned


async def test_delete_server_data_asks_then_deletes_everything_about_the_server(
    world, db_path, simcord_bot
):
    """Issue 18: ``/ttt-admin delete-server-data`` deletes everything about this server
    now, after a confirmation; members may not; and removal from a server starts its 30
    days (then the sweep deletes it)."""
    import sqlite3

    from data.servers import SERVER_TABLES

    w = world
    await play_line(w, w.alice, [1, 4, 7])
    await w.alice.slash(w.channel, "ttt play")  # a running game too
    assert "ttt-admin delete-server-data" not in w.alice.available_commands(w.channel)
    question = await w.admin.slash(w.channel, "ttt-admin delete-server-data")
    assert question.ephemeral and "cannot be undone" in question.response.content
    cancelled = await w.admin.click(question.response.message, label="Cancel")
    assert "nothing was deleted" in cancelled.response.content
    assert await lessons(w, w.alice) > 0
    question = await w.admin.slash(w.channel, "ttt-admin delete-server-data")
    done = await w.admin.click(question.response.message, label="Delete everything")
    assert "Deleted everything" in done.response.content
    with sqlite3.connect(db_path) as db:
        for table in SERVER_TABLES:
            count = db.execute(f"SELECT COUNT(*) FROM {table} WHERE guild_id = ?", (w.guild.id,))
            assert count.fetchone()[0] == 0, table
    assert simcord_bot.service.running.running_game(w.channel.id) is None
    played = await w.alice.slash(w.channel, "ttt play")  # it starts again as if new
    assert not played.ephemeral
    cog = simcord_bot.get_cog("Servers")
    await cog.on_guild_remove(simcord_bot.get_guild(w.guild.id))
    with sqlite3.connect(db_path) as db:
        assert db.execute("SELECT guild_id FROM departures").fetchall() == [(w.guild.id,)]
