"""/ttt-admin settings and end-game, and /ttt forget-me, through the real bot."""

import pytest
import simcord

from cogs.servers.render import WELCOME, WELCOME_PUZZLES
from gameflow.places import own_bot
from tests.cogs.admin.test_admin import lessons
from tests.cogs.conftest import board_of, message_by_id
from tests.cogs.play.test_games import play_line


def fields_of(result) -> dict[str, str]:
    return {f.name: f.value for f in result.response.embeds[0].fields}


async def settings(w, **options):
    result = await w.admin.slash(w.channel, "ttt-admin settings", **options)
    assert result.ephemeral
    return result


# --- settings -------------------------------------------------------------------------
async def test_settings_show_the_defaults(world):
    shown = fields_of(await settings(world))
    assert shown["A game without a move is abandoned after"] == "10 minutes (the bot's default)"
    assert shown["Games may start in"] == "every channel"


async def test_a_servers_timeout_applies_to_its_games_only_and_survives_a_restart(world, new_bot):
    w = world
    result = await settings(w, timeout=1)
    assert result.response.content == "✅ Saved."
    assert fields_of(result)["A game without a move is abandoned after"] == "1 minute"
    await w.env.restart_bot(new_bot())
    other = w.env.create_guild("Elsewhere")
    other_channel = other.create_text_channel("games")
    carol = other.add_member(w.env.create_user("carol"))
    await w.alice.slash(w.channel, "ttt play")
    await carol.slash(other_channel, "ttt play")
    await w.env.advance_time(2 * 60)
    notice = w.channel.last_message.content
    assert "abandoned after 1 minute without a move" in notice
    assert w.env.bot.service.running.running_game(w.channel.id) is None
    assert w.env.bot.service.running.running_game(other_channel.id) is not None  # 10 minutes there


@pytest.mark.parametrize("minutes", [0, 1441])
async def test_discord_refuses_a_timeout_out_of_range_before_the_bot_sees_it(world, minutes):
    with pytest.raises(simcord.OptionError, match="must be"):
        await world.admin.slash(world.channel, "ttt-admin settings", timeout=minutes)


async def test_games_start_only_in_the_allowed_channels(world):
    w = world
    lounge = w.guild.create_text_channel("lounge")
    result = await settings(w, allow_channel=lounge)
    assert fields_of(result)["Games may start in"] == f"<#{lounge.id}>"
    refused = await w.alice.slash(w.channel, "ttt play")
    assert refused.ephemeral and f"Play in <#{lounge.id}>" in refused.response.content
    assert not (await w.alice.slash(lounge, "ttt play")).ephemeral
    last = await settings(w, disallow_channel=lounge)
    assert last.ephemeral and "the only channel" in last.response.content
    assert not last.response.embeds  # refused: nothing to show as saved
    await settings(w, every_channel=True)
    assert not (await w.alice.slash(w.channel, "ttt play")).ephemeral


async def test_contradictory_settings_change_nothing(world):
    w = world
    result = await settings(w, timeout=5, every_channel=True, allow_channel=w.channel)
    assert (
        "not both" in result.response.content and "Nothing was changed" in result.response.content
    )
    shown = fields_of(await settings(w))
    assert shown["A game without a move is abandoned after"] == "10 minutes (the bot's default)"


async def test_a_refused_setting_leaves_the_daily_puzzle_as_it_was(world):
    """The daily puzzle is one of the settings: when another of them is refused, it is not
    set either."""
    w = world
    daily = w.guild.create_text_channel("puzzles")
    result = await settings(w, daily_puzzle=daily, every_channel=True, allow_channel=w.channel)
    assert "Nothing was changed" in result.response.content
    assert fields_of(await settings(w))["🧩 Daily puzzle"].startswith("Off")


async def test_settings_are_refused_to_members_even_if_regranted(world):
    w = world
    root = next(
        c
        for c in w.env.backend.visible_commands(user_id=w.admin.id, channel_id=w.channel.id)
        if c["name"] == "ttt-admin"
    )
    w.guild.set_command_permissions(int(root["id"]), {w.alice: True})
    for command, options in (("ttt-admin settings", {"timeout": 1}), ("ttt-admin end-game", {})):
        result = await w.alice.slash(w.channel, command, **options)
        assert result.ephemeral and "Manage Server" in result.response.content
    assert "10 minutes" in fields_of(await settings(w))["A game without a move is abandoned after"]


# --- end-game -------------------------------------------------------------------------
async def test_a_moderator_ends_a_stuck_game_and_the_board_and_channel_say_who(world):
    w = world
    await play_line(w, w.alice, [1, 4, 7])  # one lesson set, then a new game that gets stuck
    before = await lessons(w, w.alice)
    await w.alice.slash(w.channel, "ttt play")
    await w.alice.slash(w.channel, "ttt move", cell=5)
    board = w.channel.last_message
    ended = await w.admin.slash(w.channel, "ttt-admin end-game")
    assert ended.ephemeral and f"Ended <@{w.alice.id}>'s game" in ended.response.content
    notice = w.channel.last_message.content
    assert f"<@{w.admin.id}> ended <@{w.alice.id}>'s game" in notice
    redrawn = message_by_id(w.channel, board.id)
    assert f"Ended by <@{w.admin.id}>" in redrawn.embeds[0].description
    assert board_of(redrawn) == board_of(board)  # the position it showed
    # a finished board names its player for whoever comes by: "❌ @alice vs me ⭕"
    sides = f"<@{w.alice.id}> vs me"
    boards = [
        m for m in w.channel.history() if m.embeds and sides in (m.embeds[0].description or "")
    ]
    assert len(boards) == 2  # the first game's final board, and this one's
    gone = await w.alice.slash(w.channel, "ttt move", cell=1)
    assert gone.ephemeral and "No game is running" in gone.response.content
    assert await lessons(w, w.alice) == before  # nothing learned


async def test_end_game_names_another_channel_and_refuses_an_empty_one(world):
    w = world
    lounge = w.guild.create_text_channel("lounge")
    await w.bob.slash(lounge, "ttt play")
    nothing = await w.admin.slash(w.channel, "ttt-admin end-game")
    assert nothing.ephemeral and "nothing to end" in nothing.response.content
    ended = await w.admin.slash(w.channel, "ttt-admin end-game", channel=lounge)
    assert f"in <#{lounge.id}>" in ended.response.content
    assert w.env.bot.service.running.running_game(lounge.id) is None


# --- forget-me ------------------------------------------------------------------------
async def test_forget_me_deletes_the_callers_games_after_asking_and_keeps_the_lessons(world):
    w = world
    await play_line(w, w.alice, [1, 4, 7])
    await play_line(w, w.bob, [2, 5, 8], first="bot")
    learned = await lessons(w, w.alice)
    question = await w.alice.slash(w.channel, "ttt forget-me")
    assert question.ephemeral
    # a title, a bullet per thing deleted, and one closing line (issue 26, item 14)
    assert question.response.content.splitlines() == [
        "**Delete your games and records in this server?**",
        "• your 1 finished game against me (1 win)",
        "What I learned from those games stays, but no longer names you.",
        "This cannot be undone.",
    ]
    done = await w.alice.click(question.response.message, label="Delete my games")
    assert "• your 1 finished game against me (1 win)" in done.response.content
    stats = fields_of(await w.alice.slash(w.channel, "ttt stats"))
    assert stats["You (alice)"] == "No games yet: try `/ttt play`."
    assert stats["This server"].startswith("**1 game**")  # bob's stays
    assert await lessons(w, w.alice) == learned


async def test_forget_me_refuses_with_a_running_game_or_no_games(world):
    w = world
    nothing = await w.alice.slash(w.channel, "ttt forget-me")
    assert nothing.ephemeral and "nothing to delete" in nothing.response.content
    await play_line(w, w.alice, [1, 4, 7])
    await w.alice.slash(w.channel, "ttt play")
    question = await w.alice.slash(w.channel, "ttt forget-me")
    refused = await w.alice.click(question.response.message, label="Delete my games")
    assert "Finish it or `/ttt resign` first" in refused.response.content
    stats = fields_of(await w.alice.slash(w.channel, "ttt stats"))
    assert stats["You (alice)"] == "You vs me: 1 win"


@pytest.mark.parametrize("option", ["allow_channel", "end-game channel"])
async def test_a_channel_missing_from_the_bots_cache_is_taken_by_its_id(world, simcord_bot, option):
    """Issue 16, item 9: a channel option naming a channel the bot has not cached (a
    thread it has not seen, a channel it cannot view) failed with a TransformerError and
    "Something went wrong"."""
    w = world
    lounge = w.guild.create_text_channel("lounge")
    if option == "end-game channel":
        await w.alice.slash(lounge, "ttt play")
    guild = simcord_bot.get_guild(w.guild.id)
    guild._remove_channel(guild.get_channel(lounge.id))  # as if the bot never saw it
    if option == "allow_channel":
        result = await settings(w, allow_channel=lounge)
        assert fields_of(result)["Games may start in"] == f"<#{lounge.id}>"
    else:
        result = await w.admin.slash(w.channel, "ttt-admin end-game", channel=lounge)
        assert result.ephemeral and f"Ended <@{w.alice.id}>'s game in <#{lounge.id}>" in (
            result.response.content
        )
    assert "Something went wrong" not in str(result.response.content)


async def test_help_is_private_and_shows_admins_their_commands_too(world):
    """Issue 17: ``/ttt help``, a private, short guide: the commands a person may use
    (admins also see theirs), and how the bot learns."""
    w = world
    member = await w.alice.slash(w.channel, "ttt help")
    assert member.ephemeral
    fields = {f.name: f.value for f in member.response.embeds[0].fields}
    assert "`/connect4`" in fields["Commands"] and "For server managers" not in fields
    assert "remember the position that cost me" in member.response.embeds[0].description
    admin = await w.admin.slash(w.channel, "ttt help")
    assert (
        "/ttt-admin train"
        in {f.name: f.value for f in admin.response.embeds[0].fields}["For server managers"]
    )


async def test_joining_a_server_says_hello_once_where_it_may(world, simcord_bot):
    """Issue 17: when the bot joins a server, a short welcome pointing to /ttt play and
    /ttt help, in the first channel it may post in. (SimCord's new servers have no channel
    when the bot joins them, so the listener is given the server once it has some.)"""
    w = world
    cog = simcord_bot.get_cog("Servers")
    assert "on_guild_join" in [name for name, _ in cog.get_listeners()]
    joined = w.env.create_guild("New home")
    lobby = joined.create_text_channel("lobby")
    second = joined.create_text_channel("second")
    await w.env.settle()
    await cog.on_guild_join(simcord_bot.get_guild(joined.id))
    await w.env.settle()
    posted = [m for c in (lobby, second) for m in c.history() if "Hello!" in m.content]
    assert len(posted) == 1 and posted[0] in lobby.history()
    assert "/ttt play" in posted[0].content and "/ttt help" in posted[0].content


async def test_the_welcome_joins_its_sentences_as_the_servers_language_does(
    simcord_env, locales, simcord_bot
):
    """Japanese ends a sentence with 。 and puts no space after it."""
    from i18n import language
    from tests.cogs.test_languages import server

    s = server(simcord_env, "ja", locales, member_locale="ja")
    await simcord_env.settle()
    await simcord_bot.get_cog("Servers").on_guild_join(simcord_bot.get_guild(s.guild.id))
    await simcord_env.settle()
    (hello,) = [m.content for m in s.channel.history()]
    ja = language("ja")
    welcome, puzzles = ja.say(WELCOME), ja.say(WELCOME_PUZZLES)
    assert welcome.endswith("。") and hello == welcome + puzzles


async def test_a_member_cannot_flood_a_channel_but_moves_are_never_limited(world):
    """Issue 17: past a sensible rate (6 public posts a minute per member and channel,
    PUBLIC_POSTS_PER_MINUTE), a private answer with the time left; moves and clicks are
    never limited."""
    w = world
    for command in ("ttt stats", "ttt leaderboard", "connect4 stats", "ttt stats"):
        assert not (await w.alice.slash(w.channel, command)).ephemeral
    for column in (2, 3):  # two games (never counted), each won in four moves
        assert not (await w.alice.slash(w.channel, "connect4 play", board="4x4")).ephemeral
        # the fifth and sixth posts: the board, shown again
        assert not (await w.alice.slash(w.channel, "connect4 board")).ephemeral
        for _ in range(4):  # eight moves in the minute in all: never limited
            move = await w.alice.slash(w.channel, "connect4 move", column=column)
            assert not move.ephemeral, move.response.content
    limited = await w.alice.slash(w.channel, "ttt leaderboard")
    assert limited.ephemeral and "You're posting a lot in this channel" in (
        limited.response.content
    )
    assert "try again <t:" in limited.response.content
    assert not (await w.bob.slash(w.channel, "ttt stats")).ephemeral  # others are not
    await w.env.advance_time(61)
    assert not (await w.alice.slash(w.channel, "ttt leaderboard")).ephemeral


async def test_refused_requests_do_not_use_up_the_posting_limit(world):
    """Issue 23, item 10: six `/ttt board` with no game posted nothing, yet the next
    `/ttt play` was refused "You're posting a lot"."""
    w = world
    for _ in range(7):
        board = await w.alice.slash(w.channel, "ttt board")
        assert board.ephemeral and "No game is running" in board.response.content
    played = await w.alice.slash(w.channel, "ttt play")
    assert not played.ephemeral, played.response.content
    await w.alice.slash(w.channel, "ttt resign")
    for _ in range(6):  # six posts in the minute (the game is not one): the seventh is refused
        assert not (await w.alice.slash(w.channel, "ttt stats")).ephemeral
    limited = await w.alice.slash(w.channel, "ttt stats")
    assert limited.ephemeral and "You're posting a lot" in limited.response.content


async def test_forget_me_covers_connect_four_in_a_server_and_in_a_dm(world, simcord_bot):
    """Issue 23, item 7: a member who played only Connect Four was told there was nothing
    to delete, and their games stayed, in a server and in their DM."""
    w = world
    service = simcord_bot.service
    alice = w.alice
    for where in (w.channel, None):  # a server's channel; then alice's DM with her own bot
        here = w.guild.id if where is not None else own_bot(alice.id)

        async def slash(command, _where=where, **options):
            if _where is None:
                return await alice.user.slash(command, **options)
            return await alice.slash(_where, command, **options)

        await slash("connect4 play")
        await slash("connect4 move", column=2)
        await slash("connect4 resign")
        assert (await service.servers.player_totals(here, alice.id))[0].games == 1
        question = await slash("ttt forget-me")
        assert question.ephemeral and "nothing to delete" not in question.response.content
        clicker = alice.user if where is None else alice
        done = await clicker.click(question.response.message, label="Delete my games")
        assert "Deleted" in done.response.content
        assert (await service.servers.player_totals(here, alice.id))[0].games == 0
        assert (await service.scoreboard.record(here, alice.id, game="connect4")).games == 0
