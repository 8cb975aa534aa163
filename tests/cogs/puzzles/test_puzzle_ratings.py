"""Puzzle ratings through Discord (SimCord): a puzzle shows its rating, a member's first
answer (right, wrong or hinted; on a private puzzle or the daily post) says their change
and moves both ratings, a second answer and Try again's change nothing, stats shows the
member's, an established member is posed the puzzle nearest their rating, a rebuild gives
the same numbers, and forget-me deletes the member's."""

from __future__ import annotations

import sqlite3

from tests.cogs.conftest import message_by_id
from tests.cogs.puzzles.test_puzzles import (
    beat_the_bot,
    column_button,
    daily_posts,
    daily_set_up,
    labelled,
    members_play,
    posed,
    puzzle_id,
    stored_puzzle,
    yes_id,
)
from tests.test_terminal import terminal

PUZZLES = 4  # data.ratings.PUZZLES: the members' puzzle ratings' board


def points(mu: int) -> str:
    return f"{round(mu / 100):,}"


def member_rating(db_path, member) -> tuple[int, int] | None:
    with sqlite3.connect(db_path) as db:
        return db.execute(
            "SELECT mu, sigma FROM ratings WHERE board = ? AND player_id = ?", (PUZZLES, member.id)
        ).fetchone()


def everything(db_path) -> tuple:
    """Every puzzle rating: the members' and the puzzles'."""
    with sqlite3.connect(db_path) as db:
        members = db.execute(
            "SELECT player_id, mu, sigma FROM ratings WHERE board = ? ORDER BY 1", (PUZZLES,)
        ).fetchall()
        puzzles = db.execute("SELECT id, mu, sigma, answers FROM puzzles ORDER BY id").fetchall()
    return members, puzzles


def change_line(text: str) -> str | None:
    return next((line for line in text.splitlines() if line.startswith("Your puzzle rating")), None)


async def test_first_answers_move_both_ratings_and_second_answers_change_nothing(world, db_path):
    w = world
    await beat_the_bot(w, w.alice, w.channel)
    message = await posed(db_path, w.bob, w.channel)
    record = await stored_puzzle(db_path, puzzle_id(message))
    assert f"This puzzle's rating: {points(record.mu)}?" in message.embeds[0].description
    # a wrong first answer: the member falls, the puzzle rises
    wrong = await w.bob.click(message, custom_id=column_button(message, 5))
    text = wrong.response.message.embeds[0].description
    mu, _ = member_rating(db_path, w.bob)
    assert mu < 150000
    assert change_line(text) == f"Your puzzle rating: −{1500 - round(mu / 100)} → {points(mu)}?"
    harder = await stored_puzzle(db_path, record.id)
    assert harder.mu > record.mu and harder.answers == 1
    # Try again, and a right answer now: nothing moves, nothing said of a change
    before = everything(db_path)
    retried = await w.bob.click(
        wrong.response.message, custom_id=labelled(wrong.response.message, "Try again")
    )
    message = retried.response.message
    assert f"This puzzle's rating: {points(harder.mu)}?" in message.embeds[0].description
    right = await w.bob.click(message, custom_id=column_button(message, 1))
    text = right.response.message.embeds[0].description
    assert "✅ Right" in text and change_line(text) is None
    assert everything(db_path) == before
    stats = await w.bob.slash(w.channel, "connect4 stats", board="7x6")
    field = next(f for f in stats.response.message.embeds[0].fields if f.name == "🧩 Puzzles")
    assert f"puzzle rating {points(mu)}?" in field.value
    ratings = next(f for f in stats.response.message.embeds[0].fields if f.name == "Ratings")
    assert "Puzzle" not in ratings.value  # no game's board
    # the next puzzle, right the first time: the member rises, the puzzle falls
    shown = await w.bob.click(
        right.response.message, custom_id=labelled(right.response.message, "Next puzzle")
    )
    message = shown.response.message
    record = await stored_puzzle(db_path, puzzle_id(message))
    solved = await w.bob.click(message, custom_id=column_button(message, record.answer + 1))
    risen, _ = member_rating(db_path, w.bob)
    assert risen > mu
    assert change_line(solved.response.message.embeds[0].description) == (
        f"Your puzzle rating: +{round(risen / 100) - round(mu / 100)} → {points(risen)}?"
    )
    assert (await stored_puzzle(db_path, record.id)).mu < record.mu
    # a hint: the member's first answer, lost; said with the hint
    message = await posed(db_path, w.admin, w.channel)
    record = await stored_puzzle(db_path, puzzle_id(message))
    hinted = await w.admin.click(message, custom_id=labelled(message, "Hint"))
    line = change_line(hinted.response.message.embeds[0].description)
    assert line is not None and line.startswith("Your puzzle rating: −")
    assert (await stored_puzzle(db_path, record.id)).mu > record.mu
    # a rebuild from the stored first answers gives the same numbers: the terminal's
    live = everything(db_path)
    with sqlite3.connect(db_path) as db:
        db.execute("UPDATE puzzles SET mu = 1, sigma = 1, answers = 0")
        db.execute("DELETE FROM ratings WHERE board = ?", (PUZZLES,))
    code, out, err = terminal(db_path.parent, "ratings", "--rebuild")
    assert code == 0, err
    assert "Rebuilt 2 puzzle ratings of members, and their puzzles', in 1 place." in out
    assert everything(db_path) == live


async def test_the_daily_posts_answers_count_each_members_first(world, db_path):
    w = world
    daily = await daily_set_up(w)
    await w.env.advance_time(61)
    (post,) = daily_posts(daily)
    record = await stored_puzzle(db_path, puzzle_id(post))
    assert f"This puzzle's rating: {points(record.mu)}?" in post.embeds[0].description
    right = await w.bob.click(post, custom_id=column_button(post, 1))
    assert right.ephemeral
    assert change_line(right.response.message.embeds[0].description).startswith(
        "Your puzzle rating: +"
    )
    before = everything(db_path)
    again = await w.bob.click(post, custom_id=column_button(post, 5))
    assert change_line(again.response.message.embeds[0].description) is None
    assert everything(db_path) == before
    wrong = await w.alice.click(post, custom_id=column_button(post, 5))
    assert change_line(wrong.response.message.embeds[0].description).startswith(
        "Your puzzle rating: −"
    )
    (_, mu, _, answers), *_ = everything(db_path)[1]
    assert answers == 2
    await w.env.advance_time(3)  # the post's count, and its rating, brought up to date
    post = message_by_id(daily, post.id)
    assert f"This puzzle's rating: {points(mu)}?" in post.embeds[0].description


async def test_an_established_member_is_posed_the_puzzle_nearest_their_rating(world, db_path):
    w = world
    await beat_the_bot(w, w.alice, w.channel)
    await members_play(w)
    with sqlite3.connect(db_path) as db:
        # the members' game's first puzzle: by default the game that beat me comes first
        (target,) = db.execute(
            "SELECT id FROM puzzles WHERE other_id IS NOT NULL AND player_id IS NOT NULL"
            " ORDER BY LENGTH(moves) LIMIT 1"
        ).fetchone()
        db.execute("UPDATE puzzles SET mu = CASE id WHEN ? THEN 190000 ELSE 100000 END", (target,))
        db.executemany(
            "INSERT INTO ratings (guild_id, board, player_id, mu, sigma) VALUES (?, ?, ?, ?, ?)",
            [
                (w.guild.id, PUZZLES, w.bob.id, 185000, 8000),  # established
                (w.guild.id, PUZZLES, w.alice.id, 185000, 20000),  # provisional
            ],
        )
    assert puzzle_id(await posed(db_path, w.bob, w.channel)) == target
    default = puzzle_id(await posed(db_path, w.alice, w.channel))
    assert default != target and (await stored_puzzle(db_path, default)).beat_bot


async def test_forget_me_deletes_the_members_puzzle_rating(world, db_path):
    w = world
    await beat_the_bot(w, w.alice, w.channel)
    for member in (w.alice, w.bob):
        message = await posed(db_path, member, w.channel)
        await member.click(message, custom_id=column_button(message, 1))
        assert member_rating(db_path, member) is not None
    # bob never played here: his puzzle record and rating are what forget-me deletes
    question = await w.bob.slash(w.channel, "ttt forget-me")
    asked = question.response.message.content
    assert "• your puzzle record and your puzzle rating" in asked and "finished game" not in asked
    done = await w.bob.click(question.response.message, custom_id=yes_id(question))
    assert "• your puzzle record and your puzzle rating" in done.response.message.content
    assert member_rating(db_path, w.bob) is None
    assert member_rating(db_path, w.alice) is not None
    stats = await w.bob.slash(w.channel, "connect4 stats", board="7x6")
    field = next(f for f in stats.response.message.embeds[0].fields if f.name == "🧩 Puzzles")
    assert "puzzle rating" not in field.value and "0 solved, 0 tried" in field.value
    # alice's games and puzzles go together
    question = await w.alice.slash(w.channel, "ttt forget-me")
    asked = question.response.message.content
    assert "finished game against me" in asked and "your puzzle record" in asked
    await w.alice.click(question.response.message, custom_id=yes_id(question))
    assert member_rating(db_path, w.alice) is None
