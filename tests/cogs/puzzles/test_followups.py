"""A short win played on to its end through Discord (SimCord): after the right answer,
the bot plays the slowest defence and the member finds the next winning column, to four
in a row. Every position posed along the way is checked by the tests' own solver (no
bitbully, no engine): the columns accepted are exactly its fastest wins, the defence is
one of its slowest. Only the first answer counts: playing on changes no record."""

from __future__ import annotations

import sqlite3

from tests.cogs.puzzles.test_puzzles import (
    BETWEEN_MEMBERS,
    RULES,
    assert_one_answer,
    beat_the_bot,
    column_button,
    custom_ids,
    labelled,
    labels,
    members_play,
    posed,
    puzzle_id,
    stored_puzzle,
)
from tests.cogs.test_bad_input import forged_click
from tests.engine.connect4_7x6_oracle import column_values

PLAY_ON = "Play it to the end"
SOLVED = "✅ Solved to the end: four in a row."
NO_RECORD = "Playing it out changes none of your records: only your first answer counts."


def _rank(value) -> int:
    if value is None:
        return 0
    outcome, plies = value
    return 100 - plies if outcome == "win" else plies - 100


def best(code: int) -> tuple[dict, list[int]]:
    """The tests' own solver's values of a position, and its best columns (the fastest
    win, else a draw, else the slowest loss)."""
    values = column_values(RULES.spell(code))
    top = max(map(_rank, values.values()))
    return values, [column for column, value in values.items() if _rank(value) == top]


def open_columns(message) -> list[int]:
    """The step's column buttons that can be clicked (0-based)."""
    return [
        int(b.custom_id.rsplit(":f", 1)[1][-1]) - 1
        for row in message.components
        for b in row.children
        if ":f" in (b.custom_id or "") and not b.disabled and b.label != "Try again"
    ]


def follow_prefix(message) -> str:
    """The step's own id: its columns' ids without their last digit."""
    column = next(c for c in custom_ids(message) if ":f" in c)
    return column[:-1]


def records(db_path) -> list:
    """Every puzzle record and every answer kept."""
    with sqlite3.connect(db_path) as db:
        kept = db.execute("SELECT member_id, solved, tried, streak FROM puzzle_records")
        tries = db.execute("SELECT member_id, puzzle_id, answer FROM puzzle_tries")
        return sorted(kept.fetchall()) + sorted(tries.fetchall())


async def short_win(w, db_path):
    """The members' game, and its first puzzle posed to alice: 🟡 to play and win in 4
    moves (🟡 found it in the game, and 🔴 defended faster than it could have)."""
    await members_play(w)
    message = await posed(db_path, w.alice, w.channel)
    record = await stored_puzzle(db_path, puzzle_id(message))
    assert record.moves == tuple(BETWEEN_MEMBERS[:33]) and record.kind == "win"
    values, fastest = best(RULES.replay(list(record.moves))[-1])
    assert fastest == [record.answer] and values[record.answer] == ("win", 6)  # 4 moves
    return message, record


def defence_of(step) -> int:
    """The column a step says the bot defended with (0-based)."""
    said = step.embeds[0].description.split("🔴 plays column ", 1)[1]
    return int(said.split(":", 1)[0]) - 1


def checked_step(step, code: int, move: int) -> tuple[int, dict, list[int]]:
    """A step of the line, after the member's column (``code``), checked by the tests'
    own solver: the defence said is one of its slowest, and the fastest win asked for is
    its own. The position after the defence, its values and its fastest wins."""
    assert step.embeds[0].footer.text == NO_RECORD
    _, defences = best(code)
    assert defence_of(step) in defences, (defence_of(step), defences)
    code = RULES.play(code, defence_of(step))
    values, fastest = best(code)
    assert values[fastest[0]][0] == "win"
    moves_left = values[fastest[0]][1] // 2 + 1
    plural = "s" if moves_left > 1 else ""
    assert step.embeds[0].title == f"🧩 🟡 to play and win in {moves_left} move{plural}"
    text = step.embeds[0].description
    assert f"Your move {move} of 4: find the next winning column." in text
    return code, values, fastest


async def test_a_short_win_is_played_to_its_end_each_step_checked_by_the_oracle(
    world, db_path, new_bot
):
    w = world
    message, record = await short_win(w, db_path)
    right = await w.alice.click(message, custom_id=column_button(message, record.answer + 1))
    answered = right.response.message
    assert "✅ Right: column 7 wins in 4 moves." in answered.embeds[0].description
    assert labels(answered) == [PLAY_ON, "Show me", "The game", "Next puzzle"]
    kept = records(db_path)
    assert (w.alice.id, 1, 1, 1) in kept  # the first answer counted, once
    step = (await w.alice.click(answered, custom_id=labelled(answered, PLAY_ON))).response.message
    assert step.id == message.id  # the private puzzle, edited
    line = [record.answer]
    code = RULES.play(RULES.replay(list(record.moves))[-1], record.answer)
    restarted = False
    while True:
        text = step.embeds[0].description
        code, values, fastest = checked_step(step, code, (len(line) + 1) // 2 + 1)
        line.append(defence_of(step))
        columns = open_columns(step)
        assert columns == sorted(values), (columns, values)  # every open column, only those
        for column in columns:  # each one: accepted exactly if the oracle's fastest
            if column in fastest:
                continue
            wrong = await w.alice.click(step, custom_id=f"{follow_prefix(step)}{column + 1}")
            shown = wrong.response.message
            assert shown.id == message.id
            assert (
                shown.embeds[0]
                .description.split("\n\n", 1)[1]
                .startswith(f"❌ Not this one: column {column + 1} ")
            ), shown.embeds[0].description
            assert labels(shown) == ["Try again", "Show me", "Next puzzle"]
            back = await w.alice.click(shown, custom_id=labelled(shown, "Try again"))
            assert back.response.message.embeds[0].description == text  # the same step
            step = back.response.message
        if not restarted:  # a restart mid-line: the buttons name all they need
            await w.env.restart_bot(new_bot())
            restarted = True
        for column in fastest[1:]:  # every fastest column is right (then back to the step)
            other = await w.alice.click(step, custom_id=f"{follow_prefix(step)}{column + 1}")
            assert "✅" in other.response.message.embeds[0].description
            back = await forged_click(w, w.alice, other.response.message, follow_prefix(step))
            step = back.response.message
        column = fastest[0]
        clicked = await w.alice.click(step, custom_id=f"{follow_prefix(step)}{column + 1}")
        step = clicked.response.message
        code = RULES.play(code, column)
        line.append(column)
        if RULES.moves(code) is None:
            break
        assert f"✅ Right: column {column + 1} wins in " in step.embeds[0].description
    assert RULES.winner(code)  # four in a row
    assert len(line) == 7 and step.embeds[0].title == "🧩 🟡 to play and win"
    assert SOLVED in step.embeds[0].description
    assert labels(step) == ["Show me", "The game", "Next puzzle"]
    assert records(db_path) == kept  # no record changed
    # Show me from the end: the line the member played is the solution's
    shown = await w.alice.click(step, custom_id=labelled(step, "Show me"))
    solution = await stored_puzzle(db_path, record.id)
    assert list(solution.line) == line
    assert "**Move 1 of 7**" in shown.response.message.embeds[0].description


async def test_forged_follow_up_ids_are_refused_privately_and_change_nothing(world, db_path):
    """A modified client's follow-up ids: a line with a wrong column, a column not open,
    another member's puzzle, a puzzle not answered, a hold, a public message. Each is
    refused privately; no message is edited and no record changes."""
    w = world
    await beat_the_bot(w, w.alice, w.channel)
    await members_play(w)
    hold = await posed(db_path, w.alice, w.channel)  # the bot's miss comes first: a hold
    assert (await stored_puzzle(db_path, puzzle_id(hold))).kind == "hold"
    shown = await w.alice.click(hold, custom_id=column_button(hold, 1))  # right: no playing on
    assert "✅ Right" in shown.response.message.embeds[0].description
    assert PLAY_ON not in labels(shown.response.message)
    following = await w.alice.click(
        shown.response.message, custom_id=labelled(shown.response.message, "Next puzzle")
    )
    message = following.response.message
    record = await stored_puzzle(db_path, puzzle_id(message))
    assert record.moves == tuple(BETWEEN_MEMBERS[:33])  # the short win
    assert_one_answer(record)
    right = await w.alice.click(message, custom_id=column_button(message, record.answer + 1))
    answered = right.response.message
    unanswered = await posed(db_path, w.bob, w.channel)
    assert puzzle_id(unanswered) != record.id
    short = record.id
    kept = records(db_path)
    public = w.channel.last_message
    before = [(m.id, m.embeds[0].to_dict() if m.embeds else None) for m in w.channel.history()]
    for member, on, custom_id, said in [
        (w.alice, answered, f"ttt-puzzle:{short}:f51", "not a move of this puzzle's line"),
        (w.alice, answered, f"ttt-puzzle:{short}:f3", "not a move of this puzzle's line"),  # full
        (w.alice, answered, f"ttt-puzzle:{short}:f9", "not a move of this puzzle's line"),
        (w.alice, answered, f"ttt-puzzle:{short}:f0", "not a move of this puzzle's line"),
        (w.alice, answered, f"ttt-puzzle:{short}:f755", "not a move of this puzzle's line"),
        (w.bob, unanswered, f"ttt-puzzle:{short}:f7", "not given to you"),
        (w.bob, unanswered, f"ttt-puzzle:{puzzle_id(unanswered)}:f", "Give your answer first"),
        (w.alice, answered, f"ttt-puzzle:{puzzle_id(hold)}:f", "Only a short win"),
        (w.alice, public, f"ttt-puzzle:{short}:f7", "not one of mine"),
        (w.alice, answered, f"ttt-puzzle:{short}:f7777", "not one of mine"),
    ]:
        seen = message_text(on)
        result = await forged_click(w, member, on, custom_id)
        assert result.ephemeral and said in result.response.content, (custom_id, result)
        assert message_text(on) == seen
    after = [(m.id, m.embeds[0].to_dict() if m.embeds else None) for m in w.channel.history()]
    assert after == before and records(db_path) == kept


def message_text(message) -> str:
    """What a private message shows now (its last edit)."""
    return message.embeds[0].description if message.embeds else message.content


async def test_without_the_solver_a_short_win_is_not_played_on(world, db_path, simcord_bot):
    w = world
    message, record = await short_win(w, db_path)
    simcord_bot.service.reviews.worker.available = False  # as TTT_SOLVER=off makes it
    right = await w.alice.click(message, custom_id=column_button(message, record.answer + 1))
    assert labels(right.response.message) == ["The game", "Next puzzle"]
    forged = await forged_click(w, w.alice, right.response.message, f"ttt-puzzle:{record.id}:f")
    assert forged.ephemeral and "the solver is not installed" in forged.response.content


async def test_the_daily_posts_private_answer_plays_on_and_never_edits_the_post(world, db_path):
    w = world
    await members_play(w)
    daily = w.guild.create_text_channel("puzzles")
    await w.admin.slash(w.channel, "ttt-admin settings", daily_puzzle=daily)
    await w.env.advance_time(61)
    (post,) = [m for m in daily.history() if m.embeds]
    record = await stored_puzzle(db_path, puzzle_id(post))
    assert record.moves == tuple(BETWEEN_MEMBERS[:33])  # the short win
    assert_one_answer(record)
    seen = post.embeds[0].to_dict()
    right = await w.alice.click(post, custom_id=column_button(post, record.answer + 1))
    answered = right.response.message
    assert right.ephemeral and answered.id != post.id
    step = await w.alice.click(answered, custom_id=labelled(answered, PLAY_ON))
    assert step.response.message.id == answered.id
    code = RULES.replay([*record.moves, record.answer])[-1]
    checked_step(step.response.message, code, 2)
    # playing on is never on the public post itself (it would edit it)
    forged = await forged_click(w, w.bob, post, f"ttt-puzzle:{record.id}:f")
    assert forged.ephemeral and "not one of mine" in forged.response.content
    await w.env.advance_time(3)
    post = next(m for m in daily.history() if m.id == post.id)
    assert post.embeds[0].footer.text == "Solved by 1 of 1 who answered"
    # only its count and its puzzle's rating were brought up to date: no answer, no step
    assert unrated(post.embeds[0].to_dict()) == unrated(seen)


def unrated(embed: dict) -> dict:
    """A daily post's embed without what its answers bring up to date (the count in the
    footer, the puzzle's rating)."""
    lines = embed["description"].split("\n")
    kept = [line for line in lines if not line.startswith("This puzzle's rating:")]
    assert len(kept) == len(lines) - 1, lines
    return {**{k: v for k, v in embed.items() if k != "footer"}, "description": kept}


def test_a_slower_win_at_a_step_is_wrong_and_either_threat_goes_on():
    """At a step with two threats (either completes four) and a slower win, as the
    solver plays it on: the slower win is wrong and said so, both threats go on."""
    from cogs.puzzles.followups import follow_embed, follow_view
    from data.puzzles import PuzzleRecord
    from engine.puzzles import played_on
    from gameflow.puzzle_followups import followed
    from gameflow.puzzles import Posed
    from tests.engine.test_puzzles import TWO_THREATS

    oracle = column_values(RULES.spell(RULES.replay(TWO_THREATS)[-1]))
    values = {c: v if v is not None else ("draw", None) for c, v in oracle.items()}

    def step(first: int):
        record = PuzzleRecord(
            1, 1, "connect4-7x6", tuple(TWO_THREATS), "win", first, 0, None, 2, 3, True,
            False, 0.0, None,
        )  # fmt: skip
        posed = Posed(record, values, False, 0)
        return followed(posed, (), played_on(RULES, TWO_THREATS, [first]))

    slower = step(1)
    assert not slower.right and slower.ahead is None
    embed = follow_embed(slower)
    assert embed.title == "🧩 🔴 to play and win in 2 moves"
    assert "❌ Not this one: column 2 still wins, but in 3 moves: there is a faster one." in (
        embed.description
    )
    assert [b["label"] for b in follow_view(slower, True).to_components()[-1]["components"]] == [
        "Try again",
        "Show me",
        "Next puzzle",
    ]
    for threat in (2, 5):
        shown = step(threat)
        assert shown.right and not shown.finished and shown.ahead is not None
        assert f"✅ Right: column {threat + 1} wins in 2 moves." in follow_embed(shown).description
