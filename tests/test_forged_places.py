"""Forged requests that name another place (issue 23, security): a channel option or an id
in a custom id must belong to the place the interaction comes from, and `/ttt-admin`
acts only in a server that added the bot. Through the real bot process and the fake
Discord, which has group DMs and servers without the bot (SimCord has neither)."""

import sqlite3

import pytest

from tests.fakediscord import MANAGE_GUILD, ChannelOption, User
from tests.test_user_installs import play


def snapshot(path) -> list[tuple]:
    """Everything stored that a forged request could change."""
    with sqlite3.connect(path) as db:
        return [
            *db.execute("SELECT id, result, moves, ended_by FROM games ORDER BY id"),
            *db.execute("SELECT * FROM facts ORDER BY guild_id, position"),
            *db.execute("SELECT * FROM guild_settings ORDER BY guild_id"),
        ]


async def running_games_elsewhere(fake):
    """A game in a group DM and one in a server that has not added the bot, each one
    move in, and their channels as a client could name them in an option."""
    group = fake.group_dm()
    outside = fake.server_without_the_bot()
    ann = User(4101, "ann")
    await fake.answered(await fake.slash(ann, "ttt play", group))
    await fake.answered(await fake.slash(ann, "ttt move", group, cell=1))
    await fake.answered(await fake.slash(ann, "ttt play", outside.channel_id))
    await fake.answered(await fake.slash(ann, "ttt move", outside.channel_id, cell=1))
    return [
        ChannelOption(group, type=3),
        ChannelOption(outside.channel_id, guild_id=outside.guild_id),
        # forged as a thread of one of the server's own channels
        ChannelOption(group, type=11, guild_id=fake.guild_id, parent_id=fake.channel_ids[0]),
    ]


async def test_an_admin_cannot_end_or_allow_another_places_game_or_channel(fake, bot):
    group, outside, as_a_thread = await running_games_elsewhere(fake)
    before = snapshot(bot)
    assert sum(1 for row in before if row[1:2] == ("running",)) == 2
    for channel in (group, outside, as_a_thread):
        refused = await fake.answered(
            await fake.slash(fake.owner, "ttt-admin end-game", channel=channel)
        )
        assert refused.ephemeral and "not one of this server's" in refused.text, refused.text
    for channel in (group, outside):
        for option in ("allow_channel", "disallow_channel"):
            refused = await fake.answered(
                await fake.slash(fake.owner, "ttt-admin settings", **{option: channel})
            )
            assert refused.ephemeral and "not one of this server's" in refused.text, option
    assert snapshot(bot) == before
    # A thread the bot has not seen counts by its parent channel, which is this server's
    # (archived and private threads are not in its cache): allowing it changes only this
    # server's own settings, and ending a game there is still refused above.
    saved = await fake.answered(
        await fake.slash(fake.owner, "ttt-admin settings", allow_channel=as_a_thread)
    )
    assert saved.ephemeral and "Saved" in saved.text
    assert [row for row in snapshot(bot) if row not in before] == [
        row for row in snapshot(bot) if row[0] == fake.guild_id
    ]


async def test_server_tools_are_refused_where_the_server_has_not_added_the_bot(fake, bot):
    outside = fake.server_without_the_bot()
    manager = User(4102, "manager", permissions=(1 << 10) | (1 << 11) | MANAGE_GUILD)
    # a game there first, so that there is something to reset or delete
    await play(fake, manager, outside.channel_id, 1, 4, 7)
    before = snapshot(bot)
    for command, options in (
        ("ttt-admin reset", {}),
        ("ttt-admin delete-server-data", {}),
        ("ttt-admin settings", {"timeout": 5}),
        ("ttt-admin end-game", {}),
        ("ttt-admin export", {}),
    ):
        refused = await fake.answered(
            await fake.slash(manager, command, outside.channel_id, **options)
        )
        assert refused.ephemeral, command
        assert "works only in a server that has added me" in refused.text, (command, refused)
    assert snapshot(bot) == before
    group = fake.group_dm()
    refused = await fake.answered(await fake.slash(manager, "ttt-admin settings", group))
    assert refused.ephemeral and "works only in a server that has added me" in refused.text


async def test_a_forged_click_naming_another_places_game_changes_nothing(fake, bot):
    """Issue 23: an id inside a custom id must belong to the place the click comes from.
    From a board in the bot's server: Rematch of a finished game and a cell of a running
    game, of a group DM and of a server without the bot. (Invitations exist only in servers
    that added the bot: the stateful SimCord test forges those from another server.)"""
    options = await running_games_elsewhere(fake)
    ann = User(4101, "ann")
    await fake.answered(await fake.slash(ann, "ttt resign", options[1].id))  # a Rematch
    own = await fake.answered(await fake.slash(fake.owner, "ttt play"))
    with sqlite3.connect(bot) as db:
        games = list(db.execute("SELECT id, LENGTH(moves), result FROM games WHERE guild_id != ?",
                                (fake.guild_id,)))  # fmt: skip
    assert sorted(r for _, _, r in games) == ["resigned", "running"]
    before = snapshot(bot)
    for game_id, moves, _result in games:
        for custom_id in (f"ttt-rematch:{game_id}", f"ttt:{game_id}:{moves}:5"):
            # discord.py routes only ids found on the clicked message: a forged client sends
            # the board as if it carried that button
            board = fake.messages[int(own.message["id"])]
            board["components"][0]["components"][0]["custom_id"] = custom_id
            clicked = await fake.answered(await fake.click(fake.owner, int(board["id"]), custom_id))
            assert clicked.ephemeral, (custom_id, clicked.text)
    assert snapshot(bot) == before


@pytest.mark.parametrize("command", ["ttt play", "connect4 play", "ttt challenge"])
async def test_a_forged_first_is_refused_and_starts_nothing(fake, bot, command):
    """Issue 23, item 3: `first:nobody` is no choice of the command's; it started a game."""
    refused = await fake.answered(await fake.slash(fake.owner, command, first="nobody"))
    assert refused.ephemeral and "`first` must be one of" in refused.text, refused.text
    assert snapshot(bot) == []


async def test_a_forged_channel_option_from_a_member_or_elsewhere_asks_discord_nothing(fake, bot):
    """Options are read before the command runs: who and where are checked first, so a
    forged option sends no request that Discord would refuse (and count against the bot)."""
    outside = fake.server_without_the_bot()
    unseen = ChannelOption(outside.channel_id, guild_id=outside.guild_id)
    member = User(4103, "member")
    manager = User(4104, "manager", permissions=(1 << 10) | (1 << 11) | MANAGE_GUILD)
    for who, where, says in (
        (member, None, "Manage Server"),
        (manager, outside.channel_id, "works only in a server that has added me"),
    ):
        before = len(fake.requests)
        refused = await fake.answered(
            await fake.slash(who, "ttt-admin settings", where, allow_channel=unseen)
        )
        assert refused.ephemeral and says in refused.text, refused.text
        assert not [r for r in fake.requests[before:] if str(outside.channel_id) in r[1]]


@pytest.mark.parametrize("command", ["connect4 play", "connect4 stats", "connect4 brain"])
async def test_a_forged_board_is_refused_plainly(fake, bot, command):
    """Discord offers only the face's boards; a forged one got "Something went wrong"."""
    refused = await fake.answered(await fake.slash(User(4105, "ann"), command, board="9x9"))
    assert refused.ephemeral and "The board must be one of 7x6, 4x4, 5x4" in refused.text, refused
    assert snapshot(bot) == []
