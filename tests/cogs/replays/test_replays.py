"""Replays and histories through Discord: the Replay button of a finished board, stepping
through a game privately, ``history`` and its menu, after a restart and after forget-me."""

from simcord import actors as simcord_actors

from data import Store
from gameflow.replays import lessons_by_step
from tests.cogs.conftest import board_of
from tests.cogs.play.test_challenges import accept, challenge
from tests.cogs.play.test_games import play_line

LAST = "⏭️"


def button(message, emoji: str):
    """A replay's button (⏮ ◀ ▶ ⏭ 📤), or the board's Replay (🎞️), by its emoji."""
    return next(
        b
        for row in message.components
        for b in row.children
        if b.emoji is not None and b.emoji.name == emoji
    )


def custom_id(message, emoji: str) -> str:
    return button(message, emoji).custom_id


def disabled(message, emoji: str) -> bool:
    return button(message, emoji).disabled


def learned(message) -> str | None:
    return next(
        (f.value for f in message.embeds[0].fields if f.name == "📘 What I learned here"), None
    )


async def open_replay(member, board):
    shown = await member.click(board, custom_id=custom_id(board, "🎞️"))
    assert shown.ephemeral, shown.response.content  # only the asker sees it
    return shown.response.message


async def step(member, replay, emoji):
    result = await member.click(replay, custom_id=custom_id(replay, emoji))
    assert result.response is not None, result
    return result.response.message


async def stored(db_path, game_id):
    store = await Store.open(db_path)
    try:
        return await store.finished_game(game_id)
    finally:
        await store.close()


def game_of(board) -> int:
    return int(custom_id(board, "🎞️").split(":")[1])


async def test_a_tictactoe_game_is_replayed_step_by_step_with_its_lesson(world, db_path):
    w = world
    await play_line(w, w.alice, [1, 4, 7])  # X wins down the left column; O's 3 loses
    board = w.channel.last_message
    replay = await open_replay(w.bob, board)  # anyone in the channel may watch it
    assert board_of(replay) == "........."
    assert "**The start**, before 5 moves" in replay.embeds[0].description
    assert disabled(replay, "⏮️") and disabled(replay, "◀️") and not disabled(replay, "▶️")
    seen, lessons = [], {}
    for n in range(1, 6):
        replay = await step(w.bob, replay, "▶️")
        description = replay.embeds[0].description
        assert f"**Move {n} of 5**" in description
        seen.append(board_of(replay))
        if learned(replay):
            lessons[n] = learned(replay)
    assert seen == ["X........", "XO.......", "XO.X.....", "XOOX.....", "XOOX..X.."]
    assert disabled(replay, "▶️") and disabled(replay, LAST)
    assert f"<@{w.alice.id}> played the bottom-left corner (7)" in description
    assert f"<@{w.alice.id}> won." in description
    # the move the bot learned from is its 3, move 4: the lesson the store credits the game
    finished = await stored(db_path, game_of(board))
    assert len(finished.facts) == len(lessons) >= 1
    # the step's line says which move it was; the lesson says what it does, and why
    assert lessons[4] == "🚫 This move loses. You then had a winning reply."
    back = await step(w.bob, await step(w.bob, replay, "⏮️"), LAST)
    assert board_of(back) == "XOOX..X.."


async def test_a_connect_four_game_is_replayed_and_its_lessons_are_the_stored_ones(world, db_path):
    w = world
    await w.alice.slash(w.channel, "connect4 play", board="4x4")
    result = None
    for column in (1, 1, 1, 1):  # the bot answers in column 2 each time, or it blocks
        if w.env.bot.service.running.running_game(w.channel.id) is None:
            break
        result = await w.alice.slash(w.channel, "connect4 move", column=column)
    while w.env.bot.service.running.running_game(w.channel.id) is not None:
        running = w.env.bot.service.running.running_game(w.channel.id)
        column = running.board.legal_moves[0] + 1
        result = await w.alice.slash(w.channel, "connect4 move", column=column)
    board = w.channel.last_message
    game = await stored(db_path, game_of(board))
    replay = await open_replay(w.alice, board)
    assert replay.embeds[0].title == "Connect Four (4×4): replay"
    taught = 0
    for n in range(1, len(game.game.moves) + 1):
        replay = await step(w.alice, replay, "▶️")
        assert f"**Move {n} of {len(game.game.moves)}**" in replay.embeds[0].description
        rows = replay.embeds[0].description.split("\n\n")[0]
        assert rows.count("⚪") == 16 - n  # the board drawn as the game's board is
        if learned(replay) is not None:  # about the column dropped in at that move, which
            taught += 1  # the step's line names, and the lesson never again
            assert f"column {game.game.moves[n - 1] + 1}." in replay.embeds[0].description
            assert "column" not in learned(replay).split("\n")[0]
            assert learned(replay).startswith(("🟩 This move wins.", "🚫 This move loses."))
    assert result is not None and game.facts  # a game played out teaches the bot
    assert taught == len(lessons_by_step(game.game.game, game.game.moves, game.facts)) >= 1


async def test_a_game_between_members_is_replayed_with_both_names(world, db_path):
    w = world
    world.env_db_path = db_path
    board = await accept(w, w.bob, await challenge(w, w.alice, w.bob, first="me"))
    for n, cell in enumerate([1, 4, 2, 5, 3]):  # alice (X) takes the top row
        player = w.alice if n % 2 == 0 else w.bob
        await player.slash(w.channel, "ttt move", cell=cell)
    board = w.channel.last_message
    replay = await open_replay(w.alice, board)
    assert f"❌ <@{w.alice.id}> vs ⭕ <@{w.bob.id}>" in replay.embeds[0].description
    assert f"❌ <@{w.alice.id}> moves first." in replay.embeds[0].description
    replay = await step(w.alice, replay, "▶️")
    replay = await step(w.alice, replay, "▶️")
    assert f"⭕ <@{w.bob.id}> played the left edge (4)." in replay.embeds[0].description
    replay = await step(w.alice, replay, LAST)
    assert board_of(replay) == "XXXOO...."
    assert f"<@{w.alice.id}> won." in replay.embeds[0].description
    assert learned(replay) == "🟩 This move wins."


async def test_only_the_asker_sees_a_replay_and_a_restart_keeps_boards_and_replays_working(
    world, new_bot
):
    w = world
    await play_line(w, w.alice, [1, 4, 7])
    board = w.channel.last_message
    replay = await open_replay(w.alice, board)
    assert w.channel.last_message.id == board.id  # nothing was posted in the channel
    replay = await step(w.alice, replay, "▶️")
    await w.env.restart_bot(new_bot())
    replay = await step(w.alice, replay, "▶️")  # a replay opened before the restart
    assert "**Move 2 of 5**" in replay.embeds[0].description
    again = await open_replay(w.bob, board)  # and the old board's Replay
    assert "**The start**" in again.embeds[0].description


async def test_history_lists_the_games_and_its_menu_opens_a_replay(world):
    w = world
    await play_line(w, w.alice, [1, 4, 7])
    await play_line(w, w.alice, [4, 5, 7])  # the bot wins this one
    history = await w.bob.slash(w.channel, "ttt history", member=w.alice)
    assert history.ephemeral
    lines = history.response.embeds[0].description.splitlines()
    # the result straight after the game, the level after whom: never "level: **lost**"
    assert lines[2].startswith("1. <t:")
    assert "Tic-tac-toe: **lost** against me (learning level)" in lines[2]
    assert "Tic-tac-toe: **won** against me (learning level) · 📘 taught me" in lines[3]
    menu = history.response.message
    chosen = await w.bob.select(menu, [menu.components[0].children[0].options[1].value])
    assert (
        chosen.ephemeral
        and "**The start**, before 5 moves" in chosen.response.embeds[0].description
    )
    none = await w.bob.slash(w.channel, "connect4 history", member=w.alice, board="4x4")
    assert "No finished games of" in none.response.embeds[0].description
    every = await w.alice.slash(w.channel, "connect4 history")
    assert every.response.embeds[0].title == "📜 History: Connect Four, every board"
    # a modified client's choice, which no menu offered
    stored_menu = w.env.backend.get_message(menu.channel.id, menu.id)
    data = {"custom_id": "ttt-history", "component_type": 3, "values": ["not-a-game"]}
    forged = await simcord_actors._component_interaction(w.bob, stored_menu, data)
    assert forged.ephemeral and "That menu names no game" in forged.response.content
    for value in ("²", "9" * 5000, str(2**63), "-1"):  # str.isdigit() takes the first two
        data = {"custom_id": "ttt-history", "component_type": 3, "values": [value]}
        forged = await simcord_actors._component_interaction(w.bob, stored_menu, data)
        assert forged.ephemeral and "That menu names no game" in forged.response.content


async def test_forget_me_takes_the_games_out_of_history_and_their_replays_say_gone(world):
    w = world
    await play_line(w, w.alice, [1, 4, 7])
    board = w.channel.last_message
    question = await w.alice.slash(w.channel, "ttt forget-me")
    await w.alice.click(question.response.message, label="Delete my games")
    history = await w.alice.slash(w.channel, "ttt history")
    assert "No finished games of" in history.response.embeds[0].description
    gone = await w.bob.click(board, custom_id=custom_id(board, "🎞️"))
    assert gone.ephemeral and "That game is gone" in gone.response.content


async def test_share_posts_the_games_picture_for_the_channel(world, pictures):
    w = world
    await play_line(w, w.alice, [1, 4, 7])
    board = w.channel.last_message
    replay = await open_replay(w.bob, board)
    shared = await w.bob.click(replay, custom_id=custom_id(replay, "📤"))
    assert not shared.ephemeral  # the one public part of a replay
    post = w.channel.last_message
    assert post.id != board.id and post.content == f"<@{w.bob.id}> shares this game."
    (picture,) = post.attachments
    assert picture.filename == "game.png" and picture.size < 1_000_000
    png = await picture.read()
    assert png.startswith(b"\x89PNG") and len(png) == picture.size


async def test_share_without_the_pictures_process_posts_nothing_and_says_so(world):
    w = world  # TTT_PICTURES=off here: no process draws
    await play_line(w, w.alice, [1, 4, 7])
    board = w.channel.last_message
    replay = await open_replay(w.bob, board)
    refused = await w.bob.click(replay, custom_id=custom_id(replay, "📤"))
    assert w.channel.last_message.id == board.id
    assert refused.ephemeral and "couldn't draw this game's picture" in refused.response.content


async def test_share_of_a_forgotten_game_posts_nothing_and_says_why_privately(world):
    w = world
    await play_line(w, w.alice, [1, 4, 7])
    board = w.channel.last_message
    replay = await open_replay(w.alice, board)
    question = await w.alice.slash(w.channel, "ttt forget-me")
    await w.alice.click(question.response.message, label="Delete my games")
    before = w.channel.last_message.id
    refused = await w.alice.click(replay, custom_id=custom_id(replay, "📤"))
    assert w.channel.last_message.id == before
    assert refused.ephemeral and "That game is gone" in refused.response.content


async def test_in_a_dm_history_is_the_players_own_games_with_their_own_bot(world):
    alice = world.alice.user
    await alice.slash("ttt play")
    for cell in (1, 4, 7):
        result = await alice.slash("ttt move", cell=cell)
    history = await alice.slash("ttt history")
    told = history.response.embeds[0].description
    assert history.ephemeral and "Tic-tac-toe: **won** against me" in told
    replay = await open_replay(alice, result.response.message)
    assert "**The start**" in replay.embeds[0].description
    refused = await alice.slash("ttt history", member=world.bob)
    assert refused.ephemeral and "Outside a server" in refused.response.content


async def test_a_servers_deletion_empties_history_and_a_game_between_members_is_gone(world):
    w = world
    board = await accept(w, w.bob, await challenge(w, w.alice, w.bob, first="me"))
    for n, cell in enumerate([1, 4, 2, 5, 3]):
        await (w.alice if n % 2 == 0 else w.bob).slash(w.channel, "ttt move", cell=cell)
    board = w.channel.last_message
    replay = await open_replay(w.bob, board)
    question = await w.admin.slash(w.channel, "ttt-admin delete-server-data")
    await w.admin.click(question.response.message, label="Delete everything")
    history = await w.bob.slash(w.channel, "ttt history")
    assert "No finished games of" in history.response.embeds[0].description
    gone = await w.bob.click(replay, custom_id=custom_id(replay, "▶️"))  # an open replay too
    assert gone.ephemeral and "That game is gone" in gone.response.content
