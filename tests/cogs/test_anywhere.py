"""Played anywhere (issue 18, part 2): ``/ttt`` and ``/connect4`` installed to a member's
own account work in DMs, where each player teaches their own bot; ``/ttt-admin`` stays a
server's. (A group DM and a server without the bot: tests/test_user_installs.py, on the
fake Discord, as SimCord has neither.)"""

from gameflow.places import own_bot
from tests.cogs.conftest import board_of


async def test_a_dm_game_teaches_the_players_own_bot_and_not_the_server(world, simcord_bot):
    w = world
    alice = w.alice.user
    started = await alice.slash("ttt play")
    assert not started.ephemeral and board_of(started.response.message) == "........."
    for cell in (1, 4):
        await alice.slash("ttt move", cell=cell)
    won = await alice.slash("ttt move", cell=7)  # the naive bot loses down the left column
    board = won.response.message
    assert board_of(board) == "XOOX..X.."
    learned = next(f for f in board.embeds[0].fields if f.name == "What I learned")
    assert "won't play the top-right corner (3) in that position again" in learned.value
    memory = len(await simcord_bot.service.memory(own_bot(alice.id)))
    assert board.embeds[0].footer.text == f"Your own bot knows {memory} tic-tac-toe lessons."

    service = simcord_bot.service
    assert len(await service.memory(own_bot(alice.id))) > 0  # her own bot learned
    assert len(await service.memory(w.guild.id)) == 0  # the server's did not

    stats = (await alice.slash("ttt stats")).response.embeds[0]
    assert stats.title == "Tic-tac-toe with your own bot"
    # in a DM, one record (the server's would be the same) and no line between members
    assert [(f.name, f.value) for f in stats.fields][:2] == [
        ("You (alice)", "You vs me: 1 win"),
        ("Lessons learned", str(memory)),
    ]
    bobs = (await w.bob.user.slash("ttt stats")).response.embeds[0]
    assert {f.name: f.value for f in bobs.fields}["Lessons learned"] == "0"  # his is his own


async def test_what_needs_a_server_says_so_in_a_dm(world):
    alice = world.alice.user
    challenge = await alice.slash("ttt challenge")
    assert challenge.ephemeral
    assert challenge.response.content.startswith("Challenges between members need a server")
    board = await alice.slash("connect4 leaderboard")
    assert board.ephemeral and "`/connect4 stats`" in board.response.content
    assert not any(c.startswith("ttt-admin") for c in alice.available_commands())
    assert "ttt play" in alice.available_commands()
    # a server manager's help in a DM names no server tools: they are not offered there
    admin_help = (await world.admin.user.slash("ttt help")).response.embeds[0]
    assert "For server managers" not in {f.name for f in admin_help.fields}
    in_server = (await world.admin.slash(world.channel, "ttt help")).response.embeds[0]
    assert "For server managers" in {f.name for f in in_server.fields}


async def test_forget_me_in_a_dm_deletes_the_players_own_bot(world, simcord_bot):
    alice = world.alice.user
    nothing = await alice.slash("ttt forget-me")
    assert nothing.ephemeral and "nothing to delete" in nothing.response.content
    await alice.slash("ttt play")
    for cell in (1, 4, 7):
        await alice.slash("ttt move", cell=cell)
    service = simcord_bot.service
    assert len(await service.memory(own_bot(alice.id))) > 0
    question = await alice.slash("ttt forget-me")
    assert question.response.content.startswith("Delete your own bot")
    done = await alice.click(question.response.message, label="Delete my games")
    assert "Deleted your own bot" in done.response.content
    assert len(await service.memory(own_bot(alice.id))) == 0
    assert (await service.scoreboard.record(own_bot(alice.id))).games == 0


async def test_the_commands_say_where_they_can_be_installed_and_used(world):
    synced = world.env.backend.commands[None]
    for name in ("ttt", "connect4"):
        command = synced[(name, 1)]
        assert sorted(command["integration_types"]) == [0, 1]  # a server, a member's account
        assert sorted(command["contexts"]) == [0, 1, 2]  # servers, DMs, group DMs
    admin = synced[("ttt-admin", 1)]
    assert admin["integration_types"] == [0] and admin["contexts"] == [0]


async def test_a_dm_game_times_out_quietly_where_the_bot_may_not_post(world, new_bot, monkeypatch):
    """The sweep ends an idle DM game like any other, but posts and edits nothing there
    (only interactions may answer outside servers that added the bot); the old board's
    buttons then say the game is over."""
    monkeypatch.setenv("GAME_TIMEOUT_MINUTES", "1")
    await world.env.restart_bot(new_bot())
    alice = world.alice.user
    started = await alice.slash("ttt play")
    board = started.response.message
    await world.env.advance_time(2 * 60)
    assert alice.dm_channel.last_message.id == board.id  # no notice after it
    late = await alice.slash("ttt move", cell=1)
    assert late.ephemeral and late.response.content.startswith("No game is running")
    assert not world.env.errors
