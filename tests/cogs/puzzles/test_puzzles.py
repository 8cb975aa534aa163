"""Puzzles through Discord (SimCord): cut from the positions of real 7×6 games the bot
looked back at (its solver in its worker process), posed privately, answered, shown, never
twice to a member while others are left, posted daily, forgotten with forget-me. Every
puzzle posed here is checked to have exactly one answer by the tests' own solver."""

from __future__ import annotations

import itertools
import os
import sqlite3

from data import Store
from engine import get_game
from tests.cogs.conftest import message_by_id
from tests.engine.connect4_7x6_oracle import column_values

CLASSIC = "connect4-7x6"
RULES = get_game(CLASSIC)
# A game against the bot (it moves first, from an empty memory): the member wins, and at
# move 31 the bot had one column that held (1) and played another (5); columns 2 to 4 are
# full there. Columns 0-based.
AGAINST_THE_BOT = [3, 3, 3, 3, 3, 0, 3, 1, 2, 5, 2, 2, 1, 5, 2, 1, 2, 5, 5, 1, 4, 2, 4, 1, 1, 4]
AGAINST_THE_BOT += [6, 5, 4, 0, 4, 0, 0, 0]
MISSED = 30  # that move's index
# A game between members that 🟡 wins: at moves 34 and 36 🟡 had one winning column, and
# found it each time.
BETWEEN_MEMBERS = [3, 0, 2, 1, 6, 3, 3, 5, 5, 2, 1, 3, 4, 2, 3, 2, 2, 5, 2, 5, 1, 0, 1, 1, 0]
BETWEEN_MEMBERS += [3, 0, 4, 0, 0, 5, 1, 5, 6, 6, 6, 4, 4]


def custom_ids(message) -> list[str]:
    return [b.custom_id for row in message.components for b in row.children]


def puzzle_id(message) -> int:
    return int(next(c for c in custom_ids(message) if c.startswith("ttt-puzzle:")).split(":")[1])


def column_button(message, column: int) -> str:
    """The custom id of a puzzle's column (1-based)."""
    return next(c for c in custom_ids(message) if c.rsplit(":", 1)[1][1:] == str(column))


def labels(message) -> list[str]:
    return [b.label for row in message.components for b in row.children]


def labelled(message, label: str) -> str:
    return next(b.custom_id for row in message.components for b in row.children if b.label == label)


def emoji_button(message, emoji: str) -> str:
    return next(
        b.custom_id for row in message.components for b in row.children if str(b.emoji) == emoji
    )


async def stored_puzzle(db_path, puzzle: int):
    store = await Store.open(db_path)
    try:
        return await store.puzzle(puzzle)
    finally:
        await store.close()


def assert_one_answer(record) -> None:
    """The tests' own solver (no bitbully, no engine) finds exactly the puzzle's answer."""
    code = RULES.replay(list(record.moves))[-1]
    values = column_values(RULES.spell(code))
    wins = [c for c, value in values.items() if value is not None and value[0] == "win"]
    if record.kind == "win":
        assert wins == [record.answer], values
    else:
        draws = [c for c, value in values.items() if value is None]
        assert wins == [] and draws == [record.answer], values


async def posed(db_path, member, channel=None):
    """``/connect4 puzzle``: the private puzzle, checked by the tests' solver."""
    result = await (
        member.slash(channel, "connect4 puzzle") if channel else member.slash("connect4 puzzle")
    )
    assert result.ephemeral, result.response.content
    message = result.response.message
    assert message.embeds, message.content
    assert_one_answer(await stored_puzzle(db_path, puzzle_id(message)))
    return message


async def beat_the_bot(w, member, channel=None):
    """Play :data:`AGAINST_THE_BOT` (the bot first), checking the bot's replies."""
    slash = (lambda *a, **o: member.slash(channel, *a, **o)) if channel else member.slash
    result = await slash("connect4 play", board="7x6", first="bot")
    assert not result.ephemeral, result.response.content
    for ply in range(1, len(AGAINST_THE_BOT), 2):
        result = await slash("connect4 move", column=AGAINST_THE_BOT[ply] + 1)
        assert not result.ephemeral, result.response.content
    await w.env.settle()  # the post-mortem, in the solver's worker
    with sqlite3.connect(os.environ["DATABASE_PATH"]) as db:  # the db_path fixture's
        moves, result = db.execute("SELECT moves, result FROM games ORDER BY id DESC").fetchone()
    assert ([int(c) for c in moves], result) == (AGAINST_THE_BOT, "player_won")


async def members_play(w):
    """Alice (🔴) and Bob (🟡) play :data:`BETWEEN_MEMBERS`."""
    from tests.cogs.play.test_challenges import button

    invitation = await w.alice.slash(
        w.channel, "connect4 challenge", opponent=w.bob, first="me", board="7x6"
    )
    accepted = await w.bob.click(
        invitation.response.message, custom_id=button(invitation.response.message, "Accept")
    )
    assert not accepted.ephemeral, accepted.response.content
    for ply, column in enumerate(BETWEEN_MEMBERS):
        member = w.alice if ply % 2 == 0 else w.bob
        result = await member.slash(w.channel, "connect4 move", column=column + 1)
        assert not result.ephemeral, result.response.content
    await w.env.settle()


async def test_a_puzzle_from_a_game_the_bot_lost_is_posed_and_answers_say_why(world, db_path):
    w = world
    empty = await w.alice.slash(w.channel, "connect4 puzzle")
    assert empty.ephemeral
    assert "This server has 0 puzzles so far" in empty.response.content
    assert "need about 2 more such games" in empty.response.content
    assert "Ten games that strong players win against me give about 7 puzzles" in (
        empty.response.content
    )
    assert "`/connect4 play`" in empty.response.content
    await beat_the_bot(w, w.alice, w.channel)
    message = await posed(db_path, w.bob, w.channel)
    embed = message.embeds[0]
    assert embed.title == "🧩 🔴: find the only move that holds"
    assert f"against <@{w.alice.id}>: I missed it here." in embed.description
    assert "1️⃣" in embed.description  # the board as the game's board
    record = await stored_puzzle(db_path, puzzle_id(message))
    assert record.moves == tuple(AGAINST_THE_BOT[:MISSED]) and record.answer == 0
    # a wrong answer: why in one line, and the answer
    assert AGAINST_THE_BOT[MISSED] == 4
    wrong = await w.bob.click(message, custom_id=column_button(message, 5))  # what I played
    assert wrong.response.message.id == message.id  # the private puzzle, edited
    text = wrong.response.message.embeds[0].description
    assert "❌ Not this one: column 5 loses: 🟡 then forces a win in" in text
    assert "Try again, or see the answer played out with Show me." in text
    assert "The answer" not in text and "column 1" not in text  # not given away
    assert "Your puzzles: 0 solved, 1 tried" in text and "🔥" not in text
    assert wrong.response.message.embeds[0].colour.value == 0xED4245
    assert "The game" not in labels(wrong.response.message)  # the game would show it
    # Try again: the puzzle once more, and a right answer now counts nothing
    retried = await w.bob.click(
        wrong.response.message, custom_id=labelled(wrong.response.message, "Try again")
    )
    message = retried.response.message
    assert "Try again: only your first answer counts." in message.embeds[0].description
    assert_one_answer(await stored_puzzle(db_path, puzzle_id(message)))
    right = await w.bob.click(message, custom_id=column_button(message, 1))
    text = right.response.message.embeds[0].description
    assert "✅ Right: column 1 draws with best play." in text
    assert "only your first answer counts" in text and "0 solved, 1 tried" in text
    # the game it came from, opened at the puzzle's move (after the answer: it shows it)
    game = await w.bob.click(
        right.response.message, custom_id=labelled(right.response.message, "The game")
    )
    assert game.ephemeral and f"**Move {MISSED} of {len(AGAINST_THE_BOT)}**" in (
        game.response.embeds[0].description
    )
    stats = await w.bob.slash(w.channel, "connect4 stats", board="7x6")
    field = next(f for f in stats.response.message.embeds[0].fields if f.name == "🧩 Puzzles")
    assert "0 solved, 1 tried" in field.value and "🔥" not in field.value  # no streak: unsaid
    # alice's own position a move later: her only winning column, which she found
    message = await posed(db_path, w.bob, w.channel)
    assert f"<@{w.alice.id}> found the win here." in message.embeds[0].description
    assert message.embeds[0].title == "🧩 🟡 to play and win"
    record = await stored_puzzle(db_path, puzzle_id(message))
    assert record.moves == tuple(AGAINST_THE_BOT[: MISSED + 1]) and record.answer == 0
    # the server's first puzzle again (said so), and answering it again counts nothing
    message = await posed(db_path, w.bob, w.channel)
    assert "You have met every puzzle here" in message.embeds[0].description
    again = await w.bob.click(message, custom_id=column_button(message, 1))
    text = again.response.message.embeds[0].description
    assert "✅ Right: column 1 draws with best play. Every other column loses." in text
    assert "only your first answer counts" in text and "0 solved, 1 tried" in text


async def test_no_puzzle_twice_until_the_server_runs_out_then_right_answers_count(world, db_path):
    w = world
    await beat_the_bot(w, w.alice, w.channel)
    await members_play(w)
    message = await posed(db_path, w.alice, w.channel)
    seen, sources = [], []
    for count in range(1, 5):
        record = await stored_puzzle(db_path, puzzle_id(message))
        seen.append(record.id)
        sources.append(message.embeds[0].description)
        right = await w.alice.click(message, custom_id=column_button(message, record.answer + 1))
        text = right.response.message.embeds[0].description
        assert f"✅ Right: column {record.answer + 1} " in text
        assert f"Your puzzles: {count} solved, {count} tried, 🔥 {count} in a row" in text
        shown = await w.alice.click(
            right.response.message, custom_id=labelled(right.response.message, "Next puzzle")
        )
        message = shown.response.message
        assert_one_answer(await stored_puzzle(db_path, puzzle_id(message)))
    assert len(set(seen)) == 4  # the server's four, each once, from the game that beat me
    assert "against <@" in sources[0] and "I missed it here." in sources[0]
    # then the members' game, and the two games' puzzles alternate: alice's own win in
    # the game that beat me, and bob's two
    assert f"<@{w.bob.id}> found the win here." in sources[1]
    assert f"<@{w.alice.id}> found the win here." in sources[2]
    assert f"<@{w.bob.id}> found the win here." in sources[3]
    # the server has run out for alice: the one she met longest ago, said so
    assert puzzle_id(message) == seen[0]
    assert "You have met every puzzle here" in message.embeds[0].description
    # stats and the leaderboard show the records
    stats = await w.alice.slash(w.channel, "connect4 stats", board="7x6")
    field = next(f for f in stats.response.message.embeds[0].fields if f.name == "🧩 Puzzles")
    assert "4 solved, 4 tried, 🔥 4 in a row" in field.value
    assert "4 puzzles, 4 solved, 4 tried, 🔥 1 day in a row" in field.value
    board = await w.bob.slash(w.channel, "connect4 leaderboard", by="puzzles")
    text = board.response.message.embeds[0].description
    assert f"1. <@{w.alice.id}>: 4 solved (4 tried)" in text and "You: 0 solved (0 tried)" in text


async def test_show_me_plays_the_solution_to_the_end_step_by_step(world, db_path, new_bot):
    w = world
    await beat_the_bot(w, w.alice, w.channel)
    message = await posed(db_path, w.bob, w.channel)
    answered = await w.bob.click(message, custom_id=column_button(message, 1))
    shown = await w.bob.click(
        answered.response.message, custom_id=labelled(answered.response.message, "Show me")
    )
    solution = shown.response.message
    assert "**Move 1 of " in solution.embeds[0].description and "🔴 column 1" in (
        solution.embeds[0].description
    )
    record = await stored_puzzle(db_path, puzzle_id(message))
    line = record.line  # kept with the puzzle
    assert line[0] == record.answer
    finished = RULES.replay([*record.moves, *line])[-1]
    assert RULES.moves(finished) is None  # played to the end
    # the line is perfect play by the tests' own solver: each move keeps the value
    code = RULES.replay(list(record.moves))[-1]
    for column in line[:3]:
        values = column_values(RULES.spell(code))
        best = max(values, key=lambda c: _rank(values[c]))
        assert _rank(values[column]) == _rank(values[best]), (column, values)
        code = RULES.play(code, column)
    last = await w.bob.click(solution, custom_id=emoji_button(solution, "⏭️"))
    text = last.response.message.embeds[0].description
    assert f"**Move {len(line)} of {len(line)}**" in text
    assert "A draw: the board is full." in text or "wins." in text
    # after a restart, the steps still work (the line is kept: no solver needed)
    await w.env.restart_bot(new_bot())
    back = await w.bob.click(
        last.response.message, custom_id=emoji_button(last.response.message, "⏮️")
    )
    assert "The puzzle, before the answer." in back.response.message.embeds[0].description


def _rank(value) -> int:
    if value is None:
        return 0
    outcome, plies = value
    return 100 - plies if outcome == "win" else plies - 100


async def test_forged_button_ids_are_refused_and_change_nothing(world, db_path):
    from tests.cogs.test_bad_input import forged_click

    w = world
    await beat_the_bot(w, w.alice, w.channel)
    board = await posed(db_path, w.bob, w.channel)  # bob's own, as a modified client sends
    puzzle = 1
    cases = [
        (f"ttt-puzzle:{puzzle}:c9", "That column is not open"),
        (f"ttt-puzzle:{puzzle}:c4", "That column is not open"),  # a full column
        (f"ttt-puzzle:{puzzle}:c0", "not one of mine"),
        (f"ttt-puzzle:{puzzle + 99}:c1", "That puzzle is gone"),
        (f"ttt-puzzle:{2**63}:c1", "That puzzle is gone"),
        (f"ttt-puzzle:{puzzle}:n5", "not one of mine"),
        (f"ttt-puzzle:{puzzle + 99}:s3", "That puzzle is gone"),
    ]
    for custom_id, said in cases:
        result = await forged_click(w, w.bob, board, custom_id)
        assert result.ephemeral and said in result.response.content, (custom_id, result)
    other = w.env.create_guild("Elsewhere")
    elsewhere = other.create_text_channel("games")
    carol = other.add_member(w.env.create_user("carol"))
    other_board = await carol.slash(elsewhere, "connect4 play", board="7x6")
    result = await forged_click(w, carol, other_board.response.message, f"ttt-puzzle:{puzzle}:d1")
    assert result.ephemeral and "belongs somewhere else" in result.response.content
    with sqlite3.connect(db_path) as db:  # nothing was counted
        assert db.execute("SELECT COUNT(*) FROM puzzle_records").fetchone() == (0,)
        tries = db.execute("SELECT COUNT(*) FROM puzzle_tries WHERE answer IS NOT NULL")
        assert tries.fetchone() == (0,)


async def test_forget_me_unnames_the_member_and_deletes_their_puzzle_records(world, db_path):
    w = world
    await members_play(w)
    message = await posed(db_path, w.alice, w.channel)
    assert f"<@{w.bob.id}> found the win here." in message.embeds[0].description
    record = await stored_puzzle(db_path, puzzle_id(message))
    await w.alice.click(message, custom_id=column_button(message, record.answer + 1))
    question = await w.bob.slash(w.channel, "ttt forget-me")
    await w.bob.click(question.response.message, custom_id=yes_id(question))
    again = await posed(db_path, w.alice, w.channel)  # the other one, from the same game
    text = again.embeds[0].description
    assert f"<@{w.bob.id}>" not in text and "a former member found the win here." in text
    with sqlite3.connect(db_path) as db:
        assert db.execute(
            "SELECT COUNT(*) FROM puzzles WHERE player_id = ?", (w.bob.id,)
        ).fetchone() == (0,)
        assert (
            db.execute(
                "SELECT COUNT(*) FROM puzzle_records WHERE member_id = ?", (w.alice.id,)
            ).fetchone()[0]
            == 1
        )
    question = await w.alice.slash(w.channel, "ttt forget-me")
    await w.alice.click(question.response.message, custom_id=yes_id(question))
    with sqlite3.connect(db_path) as db:
        for table in ("puzzle_records", "puzzle_tries"):
            rows = db.execute(f"SELECT COUNT(*) FROM {table} WHERE member_id = ?", (w.alice.id,))
            assert rows.fetchone() == (0,), table


def yes_id(question) -> str:
    """A question's yes button."""
    return question.response.message.components[0].children[0].custom_id


async def test_in_a_dm_the_puzzle_comes_from_the_players_own_bot(world, db_path):
    w = world
    alice = w.alice.user
    await beat_the_bot(w, alice)
    message = await posed(db_path, alice)
    assert message.embeds[0].footer.text == "Puzzles from your own bot's games: 2"
    record = await stored_puzzle(db_path, puzzle_id(message))
    assert record.guild_id == -w.alice.id  # the player's own bot's
    # the server has none of it
    empty = await w.bob.slash(w.channel, "connect4 puzzle")
    assert "This server has 0 puzzles so far" in empty.response.content


async def test_the_daily_puzzle_is_posted_once_a_day_across_restarts(world, db_path, new_bot):
    w = world
    await beat_the_bot(w, w.alice, w.channel)
    daily = w.guild.create_text_channel("puzzles")
    shown = await w.admin.slash(w.channel, "ttt-admin settings", daily_puzzle=daily)
    field = next(f for f in shown.response.message.embeds[0].fields if f.name == "🧩 Daily puzzle")
    assert f"<#{daily.id}>" in field.value
    await w.env.restart_bot(new_bot())  # before its first round
    await w.env.advance_time(61)
    posts = [m for m in daily.history() if m.embeds]
    assert len(posts) == 1
    post = posts[0]
    assert post.embeds[0].title == "🧩 Puzzle of the day: 🔴: find the only move that holds"
    assert post.embeds[0].footer.text == "Nobody has answered yet."
    assert_one_answer(await stored_puzzle(db_path, puzzle_id(post)))
    answered = await w.bob.click(post, custom_id=column_button(post, 1))
    assert answered.ephemeral and "✅ Right" in answered.response.message.embeds[0].description
    await w.alice.click(post, custom_id=column_button(post, 5))  # a wrong answer counts too
    await w.env.advance_time(3)
    post = message_by_id(daily, post.id)
    assert post.embeds[0].footer.text == "Solved by 1 of 2 who answered"
    await w.env.restart_bot(new_bot())
    await w.env.advance_time(61)
    assert len([m for m in daily.history() if m.embeds]) == 1  # once a day
    off = await w.admin.slash(w.channel, "ttt-admin settings", no_daily_puzzle=True)
    field = next(f for f in off.response.message.embeds[0].fields if f.name == "🧩 Daily puzzle")
    assert field.value.startswith("Off")


async def test_without_the_solver_puzzles_are_posed_and_answered_but_not_played_out(
    world, db_path, simcord_bot
):
    from tests.cogs.test_bad_input import forged_click

    w = world
    await beat_the_bot(w, w.alice, w.channel)
    simcord_bot.service.reviews.worker.available = False  # as TTT_SOLVER=off makes it
    message = await posed(db_path, w.bob, w.channel)
    answered = await w.bob.click(message, custom_id=column_button(message, 1))
    shown_labels = [b.label for row in answered.response.message.components for b in row.children]
    assert shown_labels == ["The game", "Next puzzle"]  # no Show me (the right answer: The game)
    shown = await forged_click(
        w, w.bob, answered.response.message, f"ttt-puzzle:{puzzle_id(message)}:s1"
    )
    assert shown.ephemeral and "the solver is not installed" in shown.response.content


async def test_one_servers_broken_puzzle_never_holds_up_the_others_daily_post(
    world, db_path, new_bot, caplog
):
    """The daily round goes server by server: a fault in one (here its stored puzzle's
    moves damaged by hand) is logged, and the servers after it still get their post."""
    from tests.cogs.admin.test_classic_tools import other_server

    w = world
    other, other_channel, other_admin = other_server(w)
    player = other.add_member(w.env.create_user("carol"))
    await beat_the_bot(w, w.alice, w.channel)
    await beat_the_bot(w, player, other_channel)
    dailies = []
    for admin, guild, channel in (
        (w.admin, w.guild, w.channel),
        (other_admin, other, other_channel),
    ):
        daily = guild.create_text_channel("puzzles")
        await admin.slash(channel, "ttt-admin settings", daily_puzzle=daily)
        dailies.append(daily)
    assert w.guild.id < other.id  # the broken server comes first in the round
    with sqlite3.connect(db_path) as db:
        db.execute("UPDATE puzzles SET moves = 'not moves' WHERE guild_id = ?", (w.guild.id,))
    await w.env.restart_bot(new_bot())  # nothing of the puzzles kept in memory
    await w.env.advance_time(61)
    assert [m for m in dailies[0].history() if m.embeds] == []
    (post,) = [m for m in dailies[1].history() if m.embeds]
    assert post.embeds[0].title.startswith("🧩 Puzzle of the day")
    assert f"daily puzzle of server {w.guild.id}" in caplog.text


async def test_a_forged_click_answers_shows_or_follows_only_a_puzzle_posed_to_the_member(
    world, db_path
):
    """A modified client sends another puzzle's id: on its own private puzzle, or on a
    public board. Only a puzzle posed to the member (or posted for everyone) is answered,
    shown or followed; a public message is never edited; nothing else changes a record."""
    from tests.cogs.test_bad_input import forged_click

    w = world
    await beat_the_bot(w, w.alice, w.channel)
    await members_play(w)  # the server has three puzzles
    mine = await posed(db_path, w.bob, w.channel)
    given = puzzle_id(mine)
    with sqlite3.connect(db_path) as db:
        others = [
            row[0]
            for row in db.execute("SELECT id FROM puzzles WHERE id != ? ORDER BY id", (given,))
        ]
    never = others[0]
    answer = (await stored_puzzle(db_path, never)).answer + 1
    public = w.channel.last_message  # a finished public board of the bot's
    before = [(m.id, m.embeds[0].to_dict() if m.embeds else None) for m in w.channel.history()]
    for message, custom_id, said in [
        (mine, f"ttt-puzzle:{never}:s3", "not given to you"),  # read the answer first
        (mine, f"ttt-puzzle:{never}:c{answer}", "not given to you"),  # then forge it
        (mine, f"ttt-puzzle:{never}:n", "not given to you"),
        (mine, f"ttt-puzzle:{given}:s1", "Give your answer first"),  # Show me comes after
        (public, f"ttt-puzzle:{never}:c{answer}", "not one of mine"),
        (public, f"ttt-puzzle:{given}:c1", "not one of mine"),  # even her own: public
        (public, f"ttt-puzzle:{never}:s3", "not one of mine"),
        (public, f"ttt-puzzle:{given}:n", "not one of mine"),
        (public, f"ttt-puzzle:{never}:d{answer}", "not given to you"),  # never posted
    ]:
        result = await forged_click(w, w.bob, message, custom_id)
        assert result.ephemeral and said in result.response.content, (custom_id, result)
        assert result.response.message is None or result.response.message.id != message.id
    after = [(m.id, m.embeds[0].to_dict() if m.embeds else None) for m in w.channel.history()]
    assert after == before  # no public message was touched
    with sqlite3.connect(db_path) as db:  # nothing was counted, nothing was posed
        assert db.execute("SELECT COUNT(*) FROM puzzle_records").fetchone() == (0,)
        assert db.execute(
            "SELECT COUNT(*) FROM puzzle_tries WHERE answer IS NOT NULL"
        ).fetchone() == (0,)
        tries = db.execute("SELECT puzzle_id FROM puzzle_tries WHERE member_id = ?", (w.bob.id,))
        assert tries.fetchall() == [(given,)]
    # her own puzzle is answered, then shown, as ever
    right = await w.bob.click(
        mine, custom_id=column_button(mine, (await stored_puzzle(db_path, given)).answer + 1)
    )
    assert "✅ Right" in right.response.message.embeds[0].description
    shown = await forged_click(w, w.bob, right.response.message, f"ttt-puzzle:{given}:s1")
    assert "**Move 1 of " in shown.response.message.embeds[0].description


async def test_a_puzzle_never_gives_the_next_one_away(world, db_path):
    """The members' game gives two puzzles, two plies apart, 🟡 finding the win at both:
    the later board shows the earlier one's answer, so the earlier comes first. Checked
    by the tests' own rule: no puzzle's position is an earlier one of the puzzle just
    posed, played on with its answer."""
    w = world
    await members_play(w)
    message = await posed(db_path, w.alice, w.channel)
    shown = [await stored_puzzle(db_path, puzzle_id(message))]
    for _ in range(3):
        right = await w.alice.click(message, custom_id=column_button(message, shown[-1].answer + 1))
        following = await w.alice.click(
            right.response.message, custom_id=labelled(right.response.message, "Next puzzle")
        )
        message = following.response.message
        shown.append(await stored_puzzle(db_path, puzzle_id(message)))
        assert_one_answer(shown[-1])
    assert len({p.id for p in shown[:2]}) == 2
    for before, after in itertools.pairwise(shown):
        earlier = len(after.moves) < len(before.moves)
        played_on = before.moves[: len(after.moves)] == after.moves
        assert not (earlier and played_on and before.moves[len(after.moves)] == after.answer), (
            before.moves,
            after.moves,
        )


async def test_every_garbage_id_under_the_bots_prefixes_gets_a_private_answer(
    world, db_path, caplog
):
    """Ids outside every button's pattern, on a private puzzle and on a public board:
    each is refused privately (no "This interaction failed"), and nothing changes."""
    from tests.cogs.test_bad_input import forged_click

    w = world
    await beat_the_bot(w, w.alice, w.channel)
    mine = await posed(db_path, w.bob, w.channel)
    public = w.channel.last_message
    before = [(m.id, m.embeds[0].to_dict() if m.embeds else None) for m in w.channel.history()]
    garbage = [
        "ttt-puzzle:abc:c1",
        "ttt-puzzle:1:c1234",
        "ttt-puzzle:1:z1",
        "ttt-puzzle:1:c1:x",
        "ttt-puzzle:",
        "ttt-puzzle",
        "ttt-puzzle:-1:c1",
        "ttt-puzzle:1:c²",
        "ttt-rematch:abc",
        "ttt-replay:1:x:open",
        "ttt:1:2",
        "ttt-nothing:1",
        "ttt-history:1",
    ]
    for message in (mine, public):
        for custom_id in garbage:
            result = await forged_click(w, w.bob, message, custom_id)
            assert result.ephemeral and "not one of mine" in result.response.content, custom_id
    after = [(m.id, m.embeds[0].to_dict() if m.embeds else None) for m in w.channel.history()]
    assert after == before
    with sqlite3.connect(db_path) as db:
        assert db.execute(
            "SELECT COUNT(*) FROM puzzle_tries WHERE answer IS NOT NULL"
        ).fetchone() == (0,)
    assert "Traceback" not in caplog.text
    # an id of another bot's is no business of this one
    other = await forged_click(w, w.bob, public, "another-bot:1")
    assert not other.acknowledged


# --- the daily post cut short: the state a kill (or a failed send) leaves ------------------
RESUMED = 301  # a claim older than a send takes (gameflow.puzzles.DAILY_RESUME_SECONDS)


async def daily_set_up(w):
    await beat_the_bot(w, w.alice, w.channel)  # one puzzle: its answer is column 1
    daily = w.guild.create_text_channel("puzzles")
    await w.admin.slash(w.channel, "ttt-admin settings", daily_puzzle=daily)
    return daily


def daily_posts(daily) -> list:
    return [m for m in daily.history() if m.embeds]


async def assert_one_live_post(w, db_path, daily, *, answered: int = 0):
    """Exactly one post, whose count is live: it says the answers given so far, and an
    answer now brings it up to date; further rounds post nothing more."""
    (post,) = daily_posts(daily)
    assert post.embeds[0].title.startswith("🧩 Puzzle of the day")
    assert_one_answer(await stored_puzzle(db_path, puzzle_id(post)))
    said = "Nobody has answered yet." if not answered else f"Solved by {answered} of {answered}"
    assert post.embeds[0].footer.text.startswith(said), post.embeds[0].footer.text
    right = await w.carol.click(post, custom_id=column_button(post, 1))
    assert right.ephemeral and "✅ Right" in right.response.message.embeds[0].description
    await w.env.advance_time(3)
    post = message_by_id(daily, post.id)
    assert post.embeds[0].footer.text == f"Solved by {answered + 1} of {answered + 1} who answered"
    await w.env.advance_time(RESUMED * 2)
    assert len(daily_posts(daily)) == 1
    with sqlite3.connect(db_path) as db:
        saved = db.execute("SELECT message_id FROM daily_puzzles").fetchone()
    assert saved == (post.id,)


async def test_a_daily_post_killed_before_its_send_is_posted_when_resumed(world, db_path, new_bot):
    w = world
    w.carol = w.guild.add_member(w.env.create_user("carol"))
    daily = await daily_set_up(w)
    now = w.env.now().timestamp()
    store = await Store.open(db_path)  # the process claimed the day, and was killed
    try:
        puzzle = min(await store.fresh_puzzles(w.guild.id, CLASSIC, 0, 10), key=lambda p: p.id)
        assert await store.claim_daily(w.guild.id, int(now // 86_400), puzzle.id, now)
    finally:
        await store.close()
    await w.env.restart_bot(new_bot())
    await w.env.advance_time(61)
    assert daily_posts(daily) == []  # a claim this fresh may still be posting
    await w.env.advance_time(RESUMED)
    await assert_one_live_post(w, db_path, daily)


async def test_a_daily_post_whose_send_failed_is_posted_when_resumed(world, db_path):
    """Discord fails the send (repeated 5xx, or the process killed as it went out,
    before Discord kept it): the day is resumed, and posted once."""
    w = world
    w.carol = w.guild.add_member(w.env.create_user("carol"))
    daily = await daily_set_up(w)
    w.env.inject_error("POST", f"/channels/{daily.id}/messages", status=503, times=None)
    await w.env.advance_time(61)
    assert daily_posts(daily) == []
    w.env.backend.faults.clear()  # Discord is back
    await w.env.advance_time(61)
    assert daily_posts(daily) == []  # claimed: not posted again at once
    await w.env.advance_time(RESUMED)
    await assert_one_live_post(w, db_path, daily)


async def test_a_daily_post_killed_before_its_message_was_saved_is_adopted(world, db_path, new_bot):
    """Discord has the post, the database not its message: answers are counted but the
    post's count is stale. Resumed, the post is found by its buttons and adopted, not
    posted again, and its count is live."""
    w = world
    w.carol = w.guild.add_member(w.env.create_user("carol"))
    daily = await daily_set_up(w)
    await w.env.advance_time(61)
    (post,) = daily_posts(daily)
    with sqlite3.connect(db_path) as db:  # as if killed before saving it
        db.execute("UPDATE daily_puzzles SET message_id = NULL")
    await w.env.restart_bot(new_bot())
    right = await w.bob.click(post, custom_id=column_button(post, 1))
    assert "✅ Right" in right.response.message.embeds[0].description
    await w.env.advance_time(3)
    assert message_by_id(daily, post.id).embeds[0].footer.text == "Nobody has answered yet."
    await w.env.advance_time(RESUMED)
    await assert_one_live_post(w, db_path, daily, answered=1)


def test_a_long_wins_distance_is_not_claimed():
    """Past 8 moves a distance nobody can check reads as a claim: "a long win", and Show
    me proves it."""
    from cogs.puzzles.render import value_text
    from engine import Mark
    from i18n import ENGLISH

    def said(value):
        return value_text(2, value, Mark.X, CLASSIC, ENGLISH)

    assert said(("loss", 15)) == "column 3 loses: 🟡 then forces a win in 8."
    assert said(("loss", 17)) == "column 3 loses with best play (a long win)."
    assert said(("win", 14)) == "column 3 wins in 8 moves."
    assert said(("win", 16)) == "column 3 wins with best play (a long win)."


async def test_one_hint_per_puzzle_drawn_from_its_answer_counts_as_not_solved(world, db_path):
    w = world
    await beat_the_bot(w, w.alice, w.channel)
    message = await posed(db_path, w.bob, w.channel)
    record = await stored_puzzle(db_path, puzzle_id(message))
    assert record.answer == 0  # column 1: its neighbour, column 2, is the hint
    hinted = await w.bob.click(message, custom_id=labelled(message, "Hint"))
    shown = hinted.response.message
    assert shown.id == message.id  # in place
    text = shown.embeds[0].description
    assert "💡 Hint: look at column 2's neighbours." in text and "counts as not solved" in text
    assert "Hint" not in labels(shown)  # one per puzzle
    right = await w.bob.click(shown, custom_id=column_button(shown, 1))
    text = right.response.message.embeds[0].description
    assert "✅ Right" in text and "Your puzzles: 0 solved, 1 tried" in text
    # said as it was: the hint, not an earlier answer
    assert "You took the hint on this one: it counts as not solved." in text
    assert "You had answered this one before" not in text
    with sqlite3.connect(db_path) as db:
        records = db.execute(
            "SELECT solved, tried FROM puzzle_records WHERE member_id = ?", (w.bob.id,)
        )
        assert records.fetchone() == (0, 1)


async def test_why_not_the_wrong_column_plays_it_and_its_refutation(world, db_path):
    """After a wrong column, its Show me: that column, then the fastest win against it
    (the loser's slowest defence), each move checked by the tests' own solver."""
    w = world
    await beat_the_bot(w, w.alice, w.channel)
    message = await posed(db_path, w.bob, w.channel)
    record = await stored_puzzle(db_path, puzzle_id(message))
    wrong = await w.bob.click(message, custom_id=column_button(message, 5))
    assert "❌ Not this one" in wrong.response.message.embeds[0].description
    why = await w.bob.click(
        wrong.response.message, custom_id=labelled(wrong.response.message, "Why not column 5?")
    )
    shown = why.response.message
    assert shown.embeds[0].title == "❓ Why not column 5: 🔴: find the only move that holds"
    assert "**Move 1 of " in shown.embeds[0].description and "🔴 column 5" in (
        shown.embeds[0].description
    )
    last = await w.bob.click(shown, custom_id=emoji_button(shown, "⏭️"))
    text = last.response.message.embeds[0].description
    assert "🟡 wins." in text  # the refutation, to the end
    total = int(text.split("**Move ", 1)[1].split(" of ", 1)[1].split("**", 1)[0])
    step = (
        await w.bob.click(last.response.message, custom_id=emoji_button(last.response.message, "⏮️"))
    ).response.message
    assert "The puzzle, before the answer." in step.embeds[0].description
    code = RULES.replay(list(record.moves))[-1]
    for n in range(1, min(total, 5) + 1):  # the line's first moves: perfect play after it
        step = (await w.bob.click(step, custom_id=emoji_button(step, "▶️"))).response.message
        said = step.embeds[0].description
        assert f"**Move {n} of {total}**" in said, said
        column = int(said.split("column ", 1)[1].split()[0].rstrip(".")) - 1
        if n == 1:
            assert column == 4  # the member's own wrong column
        else:
            values = column_values(RULES.spell(code))
            best = max(values, key=lambda c: _rank(values[c]))
            assert _rank(values[column]) == _rank(values[best]), (n, column, values)
        code = RULES.play(code, column)


async def test_a_hint_on_the_daily_post_comes_privately_and_counts_as_tried(world, db_path):
    w = world
    daily = await daily_set_up(w)
    await w.env.advance_time(61)
    (post,) = daily_posts(daily)
    hinted = await w.bob.click(post, custom_id=labelled(post, "Hint"))
    assert hinted.ephemeral and hinted.response.message.id != post.id
    assert "💡 Hint: look at column 2's neighbours." in (
        hinted.response.message.embeds[0].description
    )
    await w.env.advance_time(3)
    assert message_by_id(daily, post.id).embeds[0].footer.text == "Solved by 0 of 1 who answered"
