"""Words that say who means whom (issue 26): the footer names the memory it counts, the
help names what a new player needs next, Connect Four speaks of red and yellow, a game
between members names its players, and a declined challenge does not look like an OK."""

from tests.cogs.conftest import message_by_id
from tests.cogs.play.test_challenges import accept, button, challenge
from tests.cogs.play.test_connect4 import win_once
from tests.cogs.play.test_games import play_line


async def test_the_footer_names_the_game_and_board_and_invites_at_zero(world, simcord_bot):
    """Each game and board has its own memory: a bare count read as the bot forgetting
    between games (item 1)."""
    w = world
    won = await play_line(w, w.alice, [1, 4, 7])
    known = len(await simcord_bot.service.memory(w.guild.id))
    footer = won.response.message.embeds[0].footer.text
    assert footer == f"I know {known} tic-tac-toe lessons here." and known > 1
    await win_once(w)
    four = len(await simcord_bot.service.memory(w.guild.id, "connect4"))
    board = w.channel.last_message.embeds[0]
    assert board.footer.text == f"I know {four} Connect Four (4×4) lessons here."
    await w.env.advance_time(61)  # a minute's allowance of public posts
    fresh = await w.alice.slash(w.channel, "connect4 play", board="5x4")
    assert fresh.response.embeds[0].footer.text == "Nothing learned here yet: beat me to teach me."


async def test_help_names_what_a_new_player_needs_next_and_nothing_discord_says(world):
    """Item 4: level, first, board, every game's stats, leaderboard, brain and resign; no
    "(you move first)", which ``first: the bot`` contradicts; no "Only you can see this"."""
    w = world
    shown = (await w.alice.slash(w.channel, "ttt help")).response.embeds[0]
    commands = {f.name: f.value for f in shown.fields}["Commands"]
    assert commands.startswith("Under `/ttt` (tic-tac-toe) and `/connect4` (Connect Four) alike:")
    for needed in ("`first`", "`level`", "`board`", "stats", "leaderboard", "brain", "resign"):
        assert needed in commands, needed
    assert "you move first" not in commands
    assert not shown.footer or not shown.footer.text
    assert len(shown.description) + len(commands) < 1500  # short enough for a phone


async def test_connect_four_says_red_and_yellow_never_x_and_o(world):
    """Item 3: the brain's answer for a finished Connect Four game names the winner by
    colour."""
    w = world
    result = await w.alice.slash(w.channel, "connect4 brain", moves="1 2 1 2 1 2 1", board="4x4")
    assert result.ephemeral and "(red wins)" in result.response.content
    tic = await w.alice.slash(w.channel, "ttt brain", moves="1 4 2 5 3")
    assert "(X wins)" in tic.response.content


async def test_a_member_game_names_its_players_and_says_the_bot_watches(world):
    """Item 17: "alice vs bob · I'm watching", where mentions show names (an embed title
    cannot); a declined challenge is 🚫, not a green ❎."""
    w = world
    board = await accept(w, w.bob, await challenge(w, w.alice, w.bob, first="me"))
    embed = board.embeds[0]
    assert embed.title == "Tic-tac-toe"
    watching = f"❌ <@{w.alice.id}> vs ⭕ <@{w.bob.id}> · I'm watching"
    # first: while the game runs, the buttons are the board (no grid above)
    assert embed.description.splitlines()[0] == watching
    await w.alice.slash(w.channel, "ttt resign")
    invitation = await challenge(w, w.alice, w.bob)
    await w.bob.click(invitation, custom_id=button(invitation, "Decline"))
    declined = message_by_id(w.channel, invitation.id).embeds[0].description
    assert declined.startswith(f"🚫 <@{w.bob.id}> declined")


async def test_autocomplete_names_each_move_once(world):
    """Item 17: "the centre (5)", not "5: the centre (5)"."""
    w = world
    await w.alice.slash(w.channel, "ttt play")
    offered = await w.alice.autocomplete(w.channel, "ttt move", "cell", "5")
    assert [(c["name"], c["value"]) for c in offered] == [("the centre (5)", 5)]
