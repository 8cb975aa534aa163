"""Every kind of custom id the bot has written into a message still works when clicked.

A message posted once keeps its buttons for good: a refactor of the Discord face must
answer every id already out there. So each id here is written as a literal string, the
way the bot formats it today (nothing is imported from ``cogs``), found on the message
the bot posted (SimCord's click fails if the message does not carry exactly that id),
clicked (most after a restart, by a bot that never saw the message posted), and the bot's
real answer is checked.

The custom ids the bot writes today (``custom_id`` and the DynamicItem templates in
``cogs/``):

* ``ttt:<game>:<ply>:<move>``: a board's cell (tic-tac-toe 1-9) or column (Connect Four
  1-W); the ply makes a click on an out-of-date board a refusal;
* ``ttt-rematch:<game>``: a finished board's Rematch;
* ``ttt-replay:<game>:<step>:<how>``: a finished board's Replay (``open``, at step 0 or
  at the lesson's move), a replay's ⏮ ◀ ▶ ⏭ (``first``, ``back``, ``next``, ``last``)
  and its Share (``share``);
* ``ttt-lessons:<game>``: a replay's menu of the moves that taught the bot (the value is
  the step);
* ``ttt-history``: the history's menu (the value is the game);
* ``ttt-puzzle:<puzzle>:<what><number><how>``: a private puzzle's column (``c<column>``),
  the daily post's column (``d<column>``), Show me and the solution's steps
  (``s<step>`` and ``s<step>first|back|next|last``), Next puzzle (``n``), a short win
  played on (``f<columns>``: the member's columns after the answer, 1-based);
* ``ttt-challenge:<challenge>:<answer>``: an invitation's Accept, Decline and Withdraw
  (``accept``, ``decline``, ``withdraw``; the challenger's ``decline`` withdraws, as on
  invitations posted before Withdraw had a button);
* ``ttt-train:cancel:<run>``: a training's Cancel;
* ``ttt-<kind>:<yes|no>:<asker>:<until>:<question>[:<subject>]``: a question's answers,
  ``kind`` being ``reset`` (its subject the game), ``import`` (its subject the mode),
  ``erase`` (``/ttt-admin delete-server-data``) or ``forget`` (``/ttt forget-me``).
"""

from __future__ import annotations

import sqlite3

from tests.cogs.admin.test_admin import lessons
from tests.cogs.admin.test_brain_tools import file_of, stored_memory, trained_document
from tests.cogs.admin.test_training import train, until
from tests.cogs.conftest import board_of, message_by_id
from tests.cogs.play.test_connect4 import board_of as columns_of_board
from tests.cogs.play.test_games import play_line
from tests.cogs.puzzles.test_puzzles import beat_the_bot, posed, puzzle_id, stored_puzzle
from tests.cogs.test_bad_input import forged_click

QUESTION_SECONDS = 60  # a question's answers are in time until then


def newest(db_path, table: str) -> int:
    """The id of the newest row of ``table``: the game, challenge, training or puzzle an
    id names."""
    with sqlite3.connect(db_path) as db:
        return db.execute(f"SELECT MAX(id) FROM {table}").fetchone()[0]


async def ask(w, member, command: str, **options):
    """A question asked by ``command``: its message, the deadline of its answers (the
    clock when asked, plus a minute) and its own id (the interaction that asked it)."""
    asked_at = int(w.env.now().timestamp())
    question = await member.slash(w.channel, command, **options)
    message = question.response.message
    assert question.ephemeral and message.interaction_metadata is not None, question
    return message, asked_at + QUESTION_SECONDS, message.interaction_metadata.id


async def test_a_boards_cell_and_column_ids(world, db_path, new_bot):
    w = world
    await w.alice.slash(w.channel, "ttt play", first="me")
    board = w.channel.last_message
    game = newest(db_path, "games")
    await w.env.restart_bot(new_bot())
    moved = await w.alice.click(board, custom_id=f"ttt:{game}:0:5")
    assert not moved.ephemeral, moved.response.content
    assert board_of(message_by_id(w.channel, board.id)) == "O...X...."  # redrawn in place
    # a client that has not redrawn sends the cell of the board as it was: refused
    stale = await forged_click(w, w.alice, board, f"ttt:{game}:0:9")
    assert stale.ephemeral and "That board is out of date" in stale.response.content
    assert board_of(message_by_id(w.channel, board.id)) == "O...X...."
    moved = await w.alice.click(board, custom_id=f"ttt:{game}:2:9")
    assert not moved.ephemeral, moved.response.content
    assert board_of(message_by_id(w.channel, board.id)) == "OO..X...X"
    # Connect Four's columns, on a board of its own
    other = w.guild.create_text_channel("connect-four")
    await w.bob.slash(other, "connect4 play", board="4x4", first="me")
    columns = other.last_message
    game = newest(db_path, "games")
    dropped = await w.bob.click(columns, custom_id=f"ttt:{game}:0:1")
    assert not dropped.ephemeral, dropped.response.content
    stones = columns_of_board(message_by_id(other, columns.id))  # row by row, from the top
    assert stones[12] == "X" and stones.count("X") == stones.count("O") == 1  # and the reply


async def test_a_finished_boards_rematch_id(world, db_path, new_bot):
    w = world
    await play_line(w, w.alice, [1, 4, 7])  # alice went first, and won
    final = w.channel.last_message
    game = newest(db_path, "games")
    await w.env.restart_bot(new_bot())
    again = await w.alice.click(final, custom_id=f"ttt-rematch:{game}")
    assert not again.ephemeral, again.response.content
    board = w.channel.last_message
    assert board.id != final.id and newest(db_path, "games") == game + 1
    assert board_of(board) == "X........"  # the sides swapped: the bot moves first now
    assert "Your turn" in board.embeds[0].description


async def test_a_replays_open_step_and_share_ids(world, db_path, new_bot, pictures):
    w = world
    await play_line(w, w.alice, [1, 4, 7])
    board = w.channel.last_message
    game = newest(db_path, "games")
    await w.env.restart_bot(new_bot())
    opened = await w.bob.click(board, custom_id=f"ttt-replay:{game}:0:open")
    replay = opened.response.message
    assert opened.ephemeral and "**The start**, before 5 moves" in replay.embeds[0].description
    for custom_id, says, cells in [
        (f"ttt-replay:{game}:1:next", "**Move 1 of 5**", "X........"),
        (f"ttt-replay:{game}:5:last", "**Move 5 of 5**", "XOOX..X.."),
        (f"ttt-replay:{game}:4:back", "**Move 4 of 5**", "XOOX....."),
        (f"ttt-replay:{game}:0:first", "**The start**", "........."),
    ]:
        stepped = (await w.bob.click(replay, custom_id=custom_id)).response.message
        assert stepped.id == replay.id, custom_id  # in place
        assert says in stepped.embeds[0].description and board_of(stepped) == cells, custom_id
        replay = stepped
    shared = await w.bob.click(replay, custom_id=f"ttt-replay:{game}:0:share")
    assert not shared.ephemeral, shared.response.content
    post = w.channel.last_message
    assert post.content == f"<@{w.bob.id}> shares this game."
    assert [a.filename for a in post.attachments] == ["game.png"]


async def test_a_replays_lessons_menu_id(world, db_path, new_bot):
    w = world
    await play_line(w, w.alice, [1, 4, 7])  # the bot's move 4 (cell 3) lost: a lesson
    game = newest(db_path, "games")
    board = w.channel.last_message
    replay = (await w.bob.click(board, custom_id=f"ttt-replay:{game}:0:open")).response.message
    await w.env.restart_bot(new_bot())
    picked = await w.bob.select(replay, ["4"], custom_id=f"ttt-lessons:{game}")
    shown = picked.response.message
    assert shown.id == replay.id and "**Move 4 of 5**" in shown.embeds[0].description
    learned = {f.name: f.value for f in shown.embeds[0].fields}["📘 What I learned here"]
    assert learned == "🚫 This move loses. You then had a winning reply."


async def test_the_history_menus_id(world, db_path, new_bot):
    w = world
    await play_line(w, w.alice, [1, 4, 7])
    game = newest(db_path, "games")
    history = await w.bob.slash(w.channel, "ttt history", member=w.alice)
    await w.env.restart_bot(new_bot())
    chosen = await w.bob.select(history.response.message, [str(game)], custom_id="ttt-history")
    assert chosen.ephemeral and chosen.response.message.id != history.response.message.id
    assert "**The start**, before 5 moves" in chosen.response.embeds[0].description


async def test_a_puzzles_column_show_me_steps_next_and_daily_ids(world, db_path, new_bot):
    w = world
    await beat_the_bot(w, w.alice, w.channel)  # a game whose puzzle's answer is column 1
    # its final board's Replay opens at the move of its post-mortem's lesson (the 7th)
    game, final = newest(db_path, "games"), w.channel.last_message
    opened = await w.bob.click(final, custom_id=f"ttt-replay:{game}:7:open")
    assert opened.ephemeral and "**Move 7 of 34**" in opened.response.embeds[0].description
    daily = w.guild.create_text_channel("puzzles")
    await w.admin.slash(w.channel, "ttt-admin settings", daily_puzzle=daily)
    message = await posed(db_path, w.bob, w.channel)
    puzzle = puzzle_id(message)  # the game's first: where I missed the hold
    record = await stored_puzzle(db_path, puzzle)
    assert record.answer == 0 and record.player_id is None
    await w.env.restart_bot(new_bot())
    right = await w.bob.click(message, custom_id=f"ttt-puzzle:{puzzle}:c1")
    text = right.response.message.embeds[0].description
    assert "✅ Right: column 1 draws with best play." in text and "1 solved, 1 tried" in text
    shown = await w.bob.click(right.response.message, custom_id=f"ttt-puzzle:{puzzle}:s1")
    solution = shown.response.message
    total = len((await stored_puzzle(db_path, puzzle)).line)  # kept once shown
    assert f"**Move 1 of {total}**" in solution.embeds[0].description
    for custom_id, says in [
        (f"ttt-puzzle:{puzzle}:s{total}last", f"**Move {total} of {total}**"),
        (f"ttt-puzzle:{puzzle}:s{total - 1}back", f"**Move {total - 1} of {total}**"),
        (f"ttt-puzzle:{puzzle}:s0first", "The puzzle, before the answer."),
        (f"ttt-puzzle:{puzzle}:s1next", f"**Move 1 of {total}**"),
    ]:
        solution = (await w.bob.click(solution, custom_id=custom_id)).response.message
        assert says in solution.embeds[0].description, custom_id
    following = await w.bob.click(solution, custom_id=f"ttt-puzzle:{puzzle}:n")
    # the game's other puzzle: the member's own winning move, a short win played on to its
    # end (``f`` and the member's columns after the answer)
    assert "found the win here" in following.response.embeds[0].description
    other = puzzle_id(following.response.message)
    step = await w.bob.click(following.response.message, custom_id=f"ttt-puzzle:{other}:c1")
    await w.env.restart_bot(new_bot())
    for custom_id, says in [
        (f"ttt-puzzle:{other}:f", "🔴 plays column 5: the longest defence."),
        (f"ttt-puzzle:{other}:f6", "column 6 still wins, but in 2 moves"),
        (f"ttt-puzzle:{other}:f", "Your move 2 of 2: find the next winning column."),
        (f"ttt-puzzle:{other}:f1", "✅ Solved to the end: four in a row."),
    ]:
        step = await w.bob.click(step.response.message, custom_id=custom_id)
        assert says in step.response.message.embeds[0].description, custom_id
    await w.env.advance_time(61)  # the daily round
    (post,) = [m for m in daily.history() if m.embeds]
    answered = await w.alice.click(post, custom_id=f"ttt-puzzle:{puzzle}:d1")
    assert answered.ephemeral and "✅ Right" in answered.response.message.embeds[0].description


async def test_an_invitations_accept_decline_and_withdraw_ids(world, db_path, new_bot):
    w = world
    channels = [w.channel, *(w.guild.create_text_channel(f"games-{n}") for n in range(3))]
    invitations = []
    for channel in channels:
        result = await w.alice.slash(channel, "ttt challenge", opponent=w.bob, first="me")
        assert not result.ephemeral, result.response.content
        invitations.append((channel, result.response.message, newest(db_path, "challenges")))
    await w.env.restart_bot(new_bot())
    (one, first, a), (two, second, b), (three, third, c), (four, fourth, d) = invitations
    accepted = await w.bob.click(first, custom_id=f"ttt-challenge:{a}:accept")
    assert not accepted.ephemeral, accepted.response.content
    board = message_by_id(one, first.id)  # the invitation became the board
    assert board_of(board) == "........."
    assert f"Your turn, <@{w.alice.id}> (❌)" in board.embeds[0].description
    await w.bob.click(second, custom_id=f"ttt-challenge:{b}:decline")
    assert "declined" in message_by_id(two, second.id).embeds[0].description
    await w.alice.click(third, custom_id=f"ttt-challenge:{c}:withdraw")
    assert "withdrew" in message_by_id(three, third.id).embeds[0].description
    # the challenger's Decline, as on invitations posted before Withdraw had a button
    await w.alice.click(fourth, custom_id=f"ttt-challenge:{d}:decline")
    assert "withdrew" in message_by_id(four, fourth.id).embeds[0].description


async def test_a_trainings_cancel_id(world, db_path):
    w = world
    started = await train(w, games=1_000_000)
    message_id = started.response.message.id
    run = newest(db_path, "trainings")
    running = message_by_id(w.channel, message_id)
    await w.admin.click(running, custom_id=f"ttt-train:cancel:{run}")
    cancelled = await until(w, message_id, f"Cancelled by <@{w.admin.id}>")
    assert not cancelled.components


async def test_a_reset_questions_answer_ids(world, new_bot):
    w = world
    await play_line(w, w.alice, [1, 4, 7])
    learned = await lessons(w, w.alice)
    assert learned > 0
    question, deadline, asked = await ask(w, w.admin, "ttt-admin reset")
    no = f"ttt-reset:no:{w.admin.id}:{deadline}:{asked}:tictactoe"
    cancelled = await w.admin.click(question, custom_id=no)
    assert cancelled.response.content == "Cancelled: I forgot nothing."
    assert await lessons(w, w.alice) == learned
    question, deadline, asked = await ask(w, w.admin, "ttt-admin reset")
    await w.env.restart_bot(new_bot())
    yes = f"ttt-reset:yes:{w.admin.id}:{deadline}:{asked}:tictactoe"
    done = await w.admin.click(question, custom_id=yes)
    assert f"forgot {learned} tic-tac-toe lessons" in done.response.content
    assert await lessons(w, w.alice) == 0


async def test_an_import_questions_answer_ids(world, db_path):
    w = world
    document = trained_document(500, seed=2)
    question, deadline, asked = await ask(
        w, w.admin, "ttt-admin import", file=file_of(document), mode="replace"
    )
    no = f"ttt-import:no:{w.admin.id}:{deadline}:{asked}:replace"
    cancelled = await w.admin.click(question, custom_id=no)
    assert cancelled.response.content == "Cancelled: nothing was imported."
    question, deadline, asked = await ask(w, w.admin, "ttt-admin import", file=file_of(document))
    yes = f"ttt-import:yes:{w.admin.id}:{deadline}:{asked}:merge"
    done = await w.admin.click(question, custom_id=yes)
    assert "Imported (merge)" in done.response.content
    assert len(stored_memory(db_path, w.guild.id)) == len(document["facts"]) > 0


async def test_a_delete_server_data_questions_answer_id(world, db_path, new_bot):
    w = world
    await play_line(w, w.alice, [1, 4, 7])
    question, deadline, asked = await ask(w, w.admin, "ttt-admin delete-server-data")
    await w.env.restart_bot(new_bot())
    done = await w.admin.click(question, custom_id=f"ttt-erase:yes:{w.admin.id}:{deadline}:{asked}")
    assert "Deleted everything" in done.response.content
    with sqlite3.connect(db_path) as db:
        assert db.execute("SELECT COUNT(*) FROM games").fetchone() == (0,)


async def test_a_forget_me_questions_answer_id(world, new_bot):
    w = world
    await play_line(w, w.alice, [1, 4, 7])
    question, deadline, asked = await ask(w, w.alice, "ttt forget-me")
    await w.env.restart_bot(new_bot())
    done = await w.alice.click(
        question, custom_id=f"ttt-forget:yes:{w.alice.id}:{deadline}:{asked}"
    )
    assert "Deleted, with your records" in done.response.content
    history = await w.alice.slash(w.channel, "ttt history")
    assert "No finished games of" in history.response.embeds[0].description
