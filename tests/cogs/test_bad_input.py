"""Every bad request gets a private answer that says what to do, and changes nothing."""

import copy
import logging

import pytest
from simcord import actors as simcord_actors

from tests.cogs.conftest import board_of, buttons_of, simultaneous_slashes


async def started(w, cells=(5,)):
    await w.alice.slash(w.channel, "ttt play")
    for cell in cells:
        await w.alice.slash(w.channel, "ttt move", cell=cell)
    return w.channel.last_message


async def assert_refused(result, *phrases):
    assert result.ephemeral, "a refusal must be private"
    text = result.response.content
    for phrase in phrases:
        assert phrase in text, text
    return text


@pytest.mark.parametrize(
    ("cell", "phrases"),
    [
        (5, ["Cell 5 is taken", "Free cells: 2, 3, 4, 6, 7, 8, 9"]),
        (1, ["Cell 1 is taken"]),
        (0, ["There is no cell 0", "1 to 9"]),
        (10, ["There is no cell 10"]),
        (-3, ["There is no cell -3"]),
    ],
)
async def test_a_taken_or_out_of_range_cell_is_refused(world, cell, phrases):
    w = world
    board = await started(w)  # alice 5, the bot 1
    before = board_of(board)
    await assert_refused(await w.alice.slash(w.channel, "ttt move", cell=cell), *phrases)
    assert board_of(w.channel.last_message) == before == "O...X...."
    # the game goes on as if nothing happened
    result = await w.alice.slash(w.channel, "ttt move", cell=9)
    assert board_of(result.response.message) == "OO..X...X"


async def test_someone_not_in_the_game_cannot_move_resign_or_click(world):
    w = world
    board = await started(w)
    await assert_refused(
        await w.bob.slash(w.channel, "ttt move", cell=9), w.alice.mention, "`/ttt play`"
    )
    await assert_refused(await w.bob.slash(w.channel, "ttt resign"), w.alice.mention)
    await assert_refused(
        await w.bob.click(board, custom_id=buttons_of(board)[9]["custom_id"]), w.alice.mention
    )
    assert board_of(w.channel.last_message) == "O...X...."


async def test_a_second_challenge_names_the_running_games_player(world):
    w = world
    await started(w)
    text = await assert_refused(await w.bob.slash(w.channel, "ttt play"), w.alice.mention)
    assert "already playing" in text
    # the player themselves is spoken to, and shown the way on
    await assert_refused(
        await w.alice.slash(w.channel, "ttt play"), "You already have a game", "`/ttt resign`"
    )
    assert board_of(w.channel.last_message) == "O...X...."


@pytest.mark.parametrize("command", ["ttt move", "ttt resign", "ttt board"])
async def test_no_game_running(world, command):
    w = world
    options = {"cell": 5} if command == "ttt move" else {}
    await assert_refused(
        await w.alice.slash(w.channel, command, **options), "No game is running", "`/ttt play`"
    )
    assert w.channel.last_message is None  # nothing was posted


async def test_a_click_on_an_out_of_date_board_is_refused(world):
    """If an old board could not be deleted, its buttons carry an old move count."""
    w = world
    await w.alice.slash(w.channel, "ttt play")
    old = w.channel.last_message
    w.env.inject_error("DELETE", "/channels/*/messages/*", status=500)
    await w.alice.slash(w.channel, "ttt board")  # a fresh board; deleting the old one fails
    await w.alice.slash(w.channel, "ttt move", cell=5)  # the bot answers 1
    old = next(m for m in w.channel.history() if m.id == old.id)
    assert not buttons_of(old)[9]["disabled"]
    await assert_refused(
        await w.alice.click(old, custom_id=buttons_of(old)[9]["custom_id"]),
        "out of date",
        "`/ttt board`",
    )
    assert board_of(w.channel.last_message) == "O...X...."


async def test_a_click_on_a_finished_board_is_refused(world):
    """Discord may fail to grey out a board (here: the edit after a timeout fails);
    a click on it then gets a clear answer instead of touching any game."""
    w = world
    board = await started(w)
    w.env.inject_error("PATCH", "/channels/*/messages/*", status=500)
    await w.env.advance_time(11 * 60)  # the game is abandoned, the board edit fails
    stale = next(m for m in w.channel.history() if m.id == board.id)
    assert not buttons_of(stale)[9]["disabled"]  # still looks live
    await assert_refused(
        await w.alice.click(stale, custom_id=buttons_of(stale)[9]["custom_id"]),
        "That game is over",
        "`/ttt play`",
    )
    await assert_refused(await w.alice.slash(w.channel, "ttt move", cell=9), "No game is running")


async def test_two_simultaneous_moves_exactly_one_applies(world):
    w = world
    await started(w, cells=())
    first, second = await simultaneous_slashes(
        w.env,
        (w.alice, w.channel, "ttt move", {"cell": 5}),
        (w.alice, w.channel, "ttt move", {"cell": 9}),
    )
    applied = [r for r in (first, second) if not r.ephemeral]
    refused = [r for r in (first, second) if r.ephemeral]
    assert len(applied) == 1 and len(refused) == 1
    assert "Wait for my reply" in refused[0].response.content
    assert board_of(w.channel.last_message) == "O...X...."  # 5 was played, 9 was not


async def test_a_move_out_of_turn_while_the_bot_replies_is_refused(world):
    """Against the bot, it is the person's turn again as soon as the bot has replied; the only
    moment it is not is while the bot is replying, and a move then is refused."""
    w = world
    await started(w, cells=())
    results = await simultaneous_slashes(
        w.env,
        (w.alice, w.channel, "ttt move", {"cell": 5}),
        (w.alice, w.channel, "ttt resign", {}),
    )
    assert [r.ephemeral for r in results] == [False, True]
    assert "still being played" in results[1].response.content
    assert board_of(w.channel.last_message) == "O...X...."


async def test_games_are_offered_in_servers_and_dms_and_admin_tools_only_in_servers(world):
    w = world
    assert {"ttt play", "ttt move", "ttt stats"} <= set(w.alice.available_commands(w.channel))
    loner = w.env.create_user("loner")  # a user installs, and plays in DMs (issue 18)
    in_dms = loner.available_commands()
    assert {"ttt play", "connect4 play"} <= set(in_dms)
    assert not any(c.startswith("ttt-admin") for c in in_dms)


async def forged_click(w, member, message, custom_id):
    """A modified client's click: ``custom_id`` sent as if it were on ``message``
    (discord.py only dispatches ids found on the message)."""
    forged = copy.deepcopy(w.env.backend.get_message(message.channel.id, message.id))
    forged.components[0]["components"][0]["custom_id"] = custom_id
    data = {"custom_id": custom_id, "component_type": 2}
    return await simcord_actors._component_interaction(member, forged, data)


TOO_BIG = 2**63  # one past the largest id a row can have (SQLite INTEGER, PostgreSQL BIGINT)


@pytest.mark.parametrize(
    ("custom_id", "phrase"),
    [
        (f"ttt-rematch:{TOO_BIG}", "That board has no game to play again"),
        (f"ttt-challenge:{TOO_BIG}:accept", "no longer open"),
        (f"ttt:{TOO_BIG}:1:9", "That game is over"),
        (f"ttt:1:{TOO_BIG}:9", "out of date"),
        (f"ttt-forget:yes:{TOO_BIG}:{TOO_BIG}:{TOO_BIG}", "Only the person who asked"),
        (f"ttt-replay:{TOO_BIG}:0:open", "That game is gone"),
        (f"ttt-replay:{TOO_BIG}:{TOO_BIG}:next", "That game is gone"),
        (f"ttt-replay:{TOO_BIG}:0:share", "That game is gone"),
    ],
)
async def test_an_id_no_row_can_have_is_refused_plainly(world, caplog, custom_id, phrase):
    """Issue 23, item 3: digits past 2**63 - 1 in a custom id named no game; they raised
    OverflowError at the database (logged at ERROR, "Something went wrong")."""
    w = world
    board = await started(w)
    before = board_of(w.channel.last_message)
    with caplog.at_level(logging.WARNING):
        result = await forged_click(w, w.alice, board, custom_id)
    await assert_refused(result, phrase)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    assert board_of(w.channel.last_message) == before
