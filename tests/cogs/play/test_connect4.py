"""``/connect4`` through Discord: the real bot against SimCord, on a real SQLite file.
Every lesson stored is judged by the exact solver."""

import sqlite3

import discord
import pytest

from tests.cogs.conftest import message_by_id
from tests.cogs.play.test_challenges import button
from tests.engine.connect4_oracle import solver

# a stone, a winning four's square, the last stone's heart
STONES = {"🔴": "X", "🟡": "O", "🟥": "X", "🟨": "O", "❤️": "X", "💛": "O", "⚪": "."}
KEYCAPS = [f"{n}\N{VARIATION SELECTOR-16}\N{COMBINING ENCLOSING KEYCAP}" for n in range(1, 10)]


def board_of(message, width: int = 4, height: int = 4) -> str:
    """The emoji board read back as width × height characters, row by row from the top;
    the line under it must number the columns."""
    lines = message.embeds[0].description.splitlines()
    rows = [line.split() for line in lines[:height]]
    assert all(len(row) == width for row in rows), lines
    assert lines[height].split() == KEYCAPS[:width], lines
    return "".join(STONES[s] for row in rows for s in row)


def winning_squares(message, height: int = 4) -> int:
    lines = message.embeds[0].description.splitlines()[:height]
    return sum(line.count("🟥") + line.count("🟨") for line in lines)


def columns_of(message) -> dict[int, dict]:
    """Column number -> {'disabled', 'custom_id'}: a button per column, in one row (two on
    the classic board), and on a finished board a row with Rematch and Replay."""
    rows = list(message.components)
    if rows[-1].children[0].label == "Rematch":
        rematch, replay = (b.label for b in rows.pop().children)  # "Replay move 4": the
        assert rematch == "Rematch" and replay.startswith("Replay")  # lesson's move
    return {
        int(b.custom_id.rsplit(":", 1)[1]): {"disabled": b.disabled, "custom_id": b.custom_id}
        for row in rows
        for b in row.children
    }


def stored(db_path, guild_id: int, game: str = "connect4") -> list[tuple[str, str]]:
    with sqlite3.connect(db_path) as db:
        return db.execute(
            "SELECT position, outcome FROM facts WHERE guild_id = ? AND game = ?",
            (guild_id, game),
        ).fetchall()


def assert_true(facts, width=4, height=4) -> None:
    judge = solver(width, height)
    assert facts and all(judge.true_outcome(p) == o for p, o in facts), facts


async def drop(w, member, column, *, click=False):
    if click:
        board = w.channel.last_message
        result = await member.click(board, custom_id=columns_of(board)[column]["custom_id"])
    else:
        result = await member.slash(w.channel, "connect4 move", column=column)
    assert not result.ephemeral, result.response.content
    return result


@pytest.mark.parametrize("click", [False, True], ids=["slash", "buttons"])
async def test_a_game_won_against_the_naive_bot_is_learned_from(world, db_path, click):
    w = world
    result = await w.alice.slash(w.channel, "connect4 play", board="4x4")
    assert not result.ephemeral
    message = result.response.message
    assert board_of(message) == "." * 16 and "Connect Four (4×4)" in message.embeds[0].title
    assert "pick a column" in message.embeds[0].description
    assert not any(c["disabled"] for c in columns_of(message).values())
    for _ in range(3):  # alice stacks column 2; the naive bot takes the leftmost column
        result = await drop(w, w.alice, 2, click=click)
    assert "I dropped in column 1" in w.channel.last_message.embeds[0].description
    result = await drop(w, w.alice, 2, click=click)
    final = w.channel.last_message
    assert board_of(final) == ".X..OX..OX..OX.."
    assert "wins!" in final.embeds[0].description
    assert winning_squares(final) == 4  # the winning four stand out
    assert columns_of(final) == {}  # the game is over: the board is the picture above
    learned = next(f for f in final.embeds[0].fields if f.name == "What I learned")
    assert "column" in learned.value and "cell" not in learned.value
    assert_true(stored(db_path, w.guild.id))
    assert stored(db_path, w.guild.id, "tictactoe") == []


async def test_a_game_lost_to_the_bot_on_the_5x4_board(world):
    w = world
    result = await w.alice.slash(w.channel, "connect4 play", board="5x4", first="bot")
    assert board_of(result.response.message, 5) == "." * 15 + "X...."  # it opens on the left
    for column in (5, 5, 5):  # the bot stacks column 1 and wins
        result = await drop(w, w.alice, column)
    final = w.channel.last_message
    assert board_of(final, 5)[::5] == "XXXX" and "I win" in final.embeds[0].description
    assert columns_of(final) == {}  # no column to play any more, nor buttons for them


async def test_a_full_column_is_refused_privately_and_its_button_is_off(world):
    w = world
    await w.alice.slash(w.channel, "connect4 play", board="4x4")
    await drop(w, w.alice, 1)  # the bot answers in column 1 too
    await drop(w, w.alice, 1)
    board = w.channel.last_message
    assert columns_of(board)[1]["disabled"] and not columns_of(board)[2]["disabled"]
    result = await w.alice.slash(w.channel, "connect4 move", column=1)
    assert result.ephemeral and "Column 1 is full. Free columns: 2, 3, 4." in (
        result.response.content
    )
    result = await w.alice.slash(w.channel, "connect4 move", column=7)
    assert result.ephemeral and "There is no column 7" in result.response.content
    assert w.channel.last_message.id == board.id  # nothing posted


async def test_one_game_per_channel_across_both_games(world):
    w = world
    await w.alice.slash(w.channel, "connect4 play", board="4x4")
    refused = await w.bob.slash(w.channel, "ttt play")
    assert refused.ephemeral and "already playing in this channel" in refused.response.content
    mine = await w.alice.slash(w.channel, "ttt play")
    assert mine.ephemeral and "`/connect4 resign`" in mine.response.content
    wrong = await w.alice.slash(w.channel, "ttt move", cell=1)
    assert wrong.ephemeral and "play it with `/connect4 move`" in wrong.response.content
    await w.alice.slash(w.channel, "connect4 resign")
    await w.alice.slash(w.channel, "ttt play")
    refused = await w.alice.slash(w.channel, "connect4 play", board="4x4")
    assert refused.ephemeral and "`/ttt board`" in refused.response.content
    wrong = await w.alice.slash(w.channel, "connect4 move", column=1)
    assert wrong.ephemeral and "play it with `/ttt move`" in wrong.response.content


async def test_a_member_game_of_connect4_is_watched_and_learned_from(world, db_path):
    w = world
    result = await w.alice.slash(
        w.channel, "connect4 challenge", opponent=w.bob, first="me", board="4x4"
    )
    invitation = result.response.message
    assert "Connect Four (4×4) challenge" in invitation.embeds[0].title
    assert "(🔴)" in invitation.embeds[0].description
    accepted = await w.bob.click(invitation, custom_id=button(invitation, "Accept"))
    assert not accepted.ephemeral
    board = message_by_id(w.channel, invitation.id)
    assert board_of(board) == "." * 16
    for n, column in enumerate([1, 2, 1, 2, 1, 2, 1]):  # alice stacks column 1
        await drop(w, (w.alice, w.bob)[n % 2], column, click=n % 2 == 1)
    final = w.channel.last_message
    assert f"<@{w.alice.id}> (🔴) wins" in final.embeds[0].description
    assert next(f for f in final.embeds[0].fields if f.name == "I watched and learned")
    assert_true(stored(db_path, w.guild.id))


async def test_a_restart_mid_game_keeps_the_board_and_its_buttons(world, new_bot):
    w = world
    await w.alice.slash(w.channel, "connect4 play", board="4x4")
    await drop(w, w.alice, 3)  # the bot answers 1
    board = w.channel.last_message
    await w.env.restart_bot(new_bot())
    result = await w.alice.click(board, custom_id=columns_of(board)[3]["custom_id"])
    assert not result.ephemeral
    assert board_of(message_by_id(w.channel, board.id)) == "........O.X.O.X."
    shown = await w.alice.slash(w.channel, "connect4 board")
    assert board_of(shown.response.message) == "........O.X.O.X."


async def test_stats_and_leaderboard_are_per_game(world):
    w = world
    await w.alice.slash(w.channel, "connect4 play", board="4x4")
    for _ in range(4):
        await drop(w, w.alice, 2)
    stats = await w.alice.slash(w.channel, "connect4 stats", board="4x4")
    embed = stats.response.embeds[0]
    assert "Connect Four (4×4)" in embed.title
    fields = {f.name: f.value for f in embed.fields}
    assert int(fields["Lessons learned"]) > 0 and "When I play 🔴 (first)" in fields
    assert "1 game" in fields["This server"]
    tic = await w.alice.slash(w.channel, "ttt stats")
    tic_fields = {f.name: f.value for f in tic.response.embeds[0].fields}
    assert tic_fields["Lessons learned"] == "0"
    assert tic_fields["This server"] == "No games against me yet."
    other = await w.alice.slash(w.channel, "connect4 stats", board="5x4")
    assert "Connect Four (5×4)" in other.response.embeds[0].title
    board = await w.alice.slash(w.channel, "connect4 leaderboard", board="4x4")
    assert f"<@{w.alice.id}>" in board.response.embeds[0].description
    empty = await w.alice.slash(w.channel, "ttt leaderboard")
    assert "Nobody yet" in empty.response.embeds[0].description


async def test_the_brain_view_names_columns_and_changes_nothing(world, db_path):
    w = world
    await w.alice.slash(w.channel, "connect4 play", board="4x4")
    for _ in range(4):
        await drop(w, w.alice, 2)
    before = stored(db_path, w.guild.id)
    result = await w.alice.slash(w.channel, "connect4 brain", moves="2 1 2 1 2", board="4x4")
    assert result.ephemeral
    text = result.response.embeds[0].description
    assert "I would play **column 2** here" in text  # it blocks the four it lost to
    bad = await w.alice.slash(w.channel, "connect4 brain", moves="2 2 2 2 2", board="4x4")
    assert bad.ephemeral and "Column 2 is full" in bad.response.content
    assert stored(db_path, w.guild.id) == before


async def win_once(w, member=None):
    await (member or w.alice).slash(w.channel, "connect4 play", board="4x4")
    for _ in range(4):
        await drop(w, member or w.alice, 2)


async def test_admin_reset_of_connect4_forgets_only_its_memory_even_after_a_restart(
    world, db_path, new_bot
):
    from tests.cogs.play.test_games import play_line

    w = world
    await win_once(w)
    await play_line(w, w.alice, [1, 4, 7])
    tic = stored(db_path, w.guild.id, "tictactoe")
    question = await w.admin.slash(w.channel, "ttt-admin reset", game="connect4")
    assert question.ephemeral and "Connect Four (4×4) lesson" in question.response.content
    await w.env.restart_bot(new_bot())  # the question's game rides on its buttons
    label = question.response.message.components[0].children[0].label
    assert label.startswith("Forget ") and label.endswith(" Connect Four (4×4) lessons")
    done = await w.admin.click(question.response.message, label=label)
    assert "Connect Four (4×4) lessons" in done.response.content
    assert stored(db_path, w.guild.id) == [] and stored(db_path, w.guild.id, "tictactoe") == tic


async def test_admin_export_and_import_of_connect4_per_server(world, db_path):
    import json

    from tests.cogs.admin.test_brain_tools import file_of

    w = world
    await win_once(w)
    result = await w.admin.slash(w.channel, "ttt-admin export", game="connect4")
    (attachment,) = result.response.attachments
    assert attachment.filename.startswith("connect4-memory-home-")
    document = json.loads(w.env.backend.cdn.get(attachment.url))
    assert (document["game"], document["board"]) == ("connect4", "4x4")
    refused = await w.admin.slash(w.channel, "ttt-admin import", file=file_of(document))
    assert refused.ephemeral and "not a Tic-tac-toe one" in refused.response.content
    other = w.env.create_guild("Other")
    admins = other.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = other.add_member(w.env.create_user("other-admin"), roles=[admins])
    channel = other.create_text_channel("games")
    question = await admin.slash(
        channel, "ttt-admin import", file=file_of(document), game="connect4"
    )
    assert question.ephemeral and "When I play 🔴 (first)" in question.response.content
    await admin.click(question.response.message, label="Import")
    assert sorted(stored(db_path, other.id)) == sorted(stored(db_path, w.guild.id))


async def test_admin_training_of_connect4_shows_progress_and_saves_only_true_lessons(
    world, db_path
):
    from tests.cogs.admin.test_training import until

    w = world
    started = await w.admin.slash(
        w.channel, "ttt-admin train", opponent="random", games=3_000, game="connect4"
    )
    assert not started.ephemeral, started.response.content
    title = started.response.embeds[0].title
    assert title == "🏋️ Training at Connect Four (4×4): a random player"
    done = await until(w, started.response.message.id, "✅ Done: 3,000 games")
    facts = stored(db_path, w.guild.id)
    assert f"Lessons: 0 → **{len(facts):,}**" in done.embeds[0].description
    assert "When I play 🔴 (first)" in done.embeds[0].description
    assert_true(facts)
    assert stored(db_path, w.guild.id, "tictactoe") == []
