"""Defects found by trying the bot from outside (issue 8), each shown fixed through Discord."""

import sqlite3

import discord

from cogs.utils.render import duration_text
from tests.cogs.admin.test_admin import lessons, yes_label
from tests.cogs.conftest import board_of
from tests.cogs.play.test_games import play_line


async def test_a_board_that_cannot_be_shown_after_the_move_was_saved_says_it_was_saved(world):
    w = world
    await w.alice.slash(w.channel, "ttt play")
    # Discord refuses the board (once) after the move is already stored
    w.env.inject_error("POST", "/interactions/*/callback", status=500)
    result = await w.alice.slash(w.channel, "ttt move", cell=5)
    assert result.ephemeral
    assert "went through and is saved" in result.response.content
    assert "nothing was changed" not in result.response.content
    shown = await w.alice.slash(w.channel, "ttt board")  # and it was indeed saved
    assert board_of(shown.response.message) == "O...X...."


async def test_board_on_a_locked_database_shows_the_board_and_no_false_apology(world, db_path):
    w = world
    await w.alice.slash(w.channel, "ttt play")
    other = sqlite3.connect(db_path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # nothing can be written while /ttt board runs
    try:
        result = await w.bob.slash(w.channel, "ttt board")
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert not result.ephemeral and board_of(result.response.message) == "........."
    assert not result.followups  # no apology for a board that was shown


async def test_the_reset_question_still_answers_after_a_restart(world, new_bot):
    w = world
    await play_line(w, w.alice, [1, 4, 7])
    learned = await lessons(w, w.alice)
    question = await w.admin.slash(w.channel, "ttt-admin reset")
    await w.env.restart_bot(new_bot())
    done = await w.admin.click(question.response.message, label=yes_label(question))
    assert f"forgot {learned} tic-tac-toe lessons" in done.response.content
    assert await lessons(w, w.alice) == 0


async def test_a_reset_question_past_its_time_says_so_when_clicked_after_a_restart(world, new_bot):
    w = world
    await play_line(w, w.alice, [1, 4, 7])
    learned = await lessons(w, w.alice)
    question = await w.admin.slash(w.channel, "ttt-admin reset")
    await w.env.restart_bot(new_bot())  # the restart cancels the old process's expiry
    await w.env.advance_time(61)
    late = await w.admin.click(question.response.message, label=yes_label(question))
    assert late.response.content == "No answer in time: I forgot nothing."
    assert not late.response.components
    assert await lessons(w, w.alice) == learned
    assert not w.env.errors  # closing the bot with a question open raised nothing


async def test_autocomplete_answers_a_number_typed_in_the_cell_option(world):
    w = world
    await w.alice.slash(w.channel, "ttt play")
    choices = await w.alice.autocomplete(w.channel, "ttt move", "cell", 8)
    assert [c["value"] for c in choices] == [8]
    assert not w.env.errors


async def test_the_abandon_notice_speaks_in_whole_words(world, new_bot, monkeypatch):
    w = world
    monkeypatch.setenv("GAME_TIMEOUT_MINUTES", "1")
    await w.env.restart_bot(new_bot())
    await w.alice.slash(w.channel, "ttt play")
    await w.env.advance_time(2 * 60)
    assert "abandoned after 1 minute without a move" in w.channel.last_message.content


def test_durations_read_as_people_say_them():
    assert duration_text(30) == "30 seconds"
    assert duration_text(1) == "1 second"
    assert duration_text(60) == "1 minute"
    assert duration_text(600) == "10 minutes"
    assert duration_text(150) == "2.5 minutes"
    assert duration_text(0.4) == "under a second"  # issue 17, item 6: "in 0 seconds"


def test_a_finished_training_says_so_in_final_words():
    """Issue 17, item 6: "✅ Done: 20,000 games in 0 seconds" above "Lessons learned so
    far"."""
    from cogs.admin.render import training_embed
    from gameflow import BrainFigures, TrainingProgress

    figures = BrainFigures(0, 8, 8)
    done = training_embed(
        TrainingProgress(1, 1, "random", 20_000, 20_000, 461, 0.3, "done", figures, figures)
    )
    assert "✅ Done: 20,000 games in under a second." in done.description
    assert "Lessons learned (saved)" not in done.description  # the change says it
    assert "Lessons: 0 → **0**" in done.description
    assert "so far" not in done.description
    running = training_embed(
        TrainingProgress(1, 1, "random", 20_000, 5_000, 120, 0.1, "running", figures)
    )
    assert "Lessons learned so far (saved): **120**" in running.description


async def test_a_question_answers_once_even_from_a_board_not_redrawn(world):
    """Cancel, then "Forget" from the question as first shown (a quick second
    click, or a client that has not redrawn): the second click changes nothing (issue 16,
    item 8)."""
    import copy

    from simcord import actors as simcord_actors

    from tests.cogs.admin.test_admin import lessons
    from tests.cogs.play.test_games import play_line

    w = world
    await play_line(w, w.alice, [1, 4, 7])
    learned = await lessons(w, w.alice)
    question = await w.admin.slash(w.channel, "ttt-admin reset")
    message = question.response.message
    first_shown = copy.deepcopy(w.env.backend.get_message(w.channel.id, message.id))
    labels = {b.label: b.custom_id for row in message.components for b in row.children}
    yes = labels[f"Forget {learned} tic-tac-toe lessons"]
    cancelled = await w.admin.click(message, label="Cancel")
    assert "Cancelled" in cancelled.response.content
    data = {"custom_id": yes, "component_type": 2}
    again = await simcord_actors._component_interaction(w.admin, first_shown, data)
    assert again.ephemeral and "already answered" in again.response.content
    assert await lessons(w, w.alice) == learned > 0


def first_responses(monkeypatch) -> list[str]:
    """Every first response the bot tries (a deferral or a message), in order."""
    tried = []
    for name in ("defer", "send_message"):
        real = getattr(discord.InteractionResponse, name)

        async def trying(self, *args, _real=real, _name=name, **kwargs):
            tried.append(_name)
            return await _real(self, *args, **kwargs)

        monkeypatch.setattr(discord.InteractionResponse, name, trying)
    return tried


async def test_stats_defers_before_its_slow_work(world, monkeypatch):
    """Issue 23, item 6: stats read the figures, then the curve, then drew it, each with
    its own deferral timer; the second came past Discord's deadline."""
    w = world
    tried = first_responses(monkeypatch)
    service = w.env.bot.service
    real_stats = service.scoreboard.stats

    async def stats(*args, **kwargs):
        tried.append("read")
        return await real_stats(*args, **kwargs)

    monkeypatch.setattr(service.scoreboard, "stats", stats)
    result = await w.alice.slash(w.channel, "ttt stats", member=w.bob)
    assert tried == ["defer", "read"]
    assert result.response.message.embeds[0].title and not result.ephemeral


async def test_an_expired_interaction_gets_no_second_first_response(world, monkeypatch, caplog):
    """Issue 23, item 6: past Discord's deadline (10062 Unknown interaction), the apology
    was sent as a second first response."""
    w = world
    tried = first_responses(monkeypatch)
    w.env.inject_error(
        "POST", "/interactions/*/callback", status=404, code=10062, message="Unknown interaction"
    )
    await w.alice.slash(w.channel, "ttt stats", member=w.bob)
    assert tried == ["defer"]
    # what Discord answered (SimCord keeps every error the bot saw)
    assert ["10062" in str(e) for e in w.env.errors] == [True]
    assert "came past Discord's deadline" in caplog.text
