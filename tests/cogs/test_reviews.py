"""The classic board's post-mortem through Discord (SimCord): the final board says it is
looking back while the solver runs in its worker, then is edited once with the lesson."""

import pytest

from cogs.boards import LOOKS, ConnectFourLook
from cogs.connect4 import CONNECT4
from tests.gameflow.test_reviews import best_column


class RowsOfFour(ConnectFourLook):
    """The 7×6 board's buttons in rows of at most 5, as Discord wants them (the board's
    own look is another change's)."""

    def component_rows(self, prefix, code, disabled):
        buttons = [
            b for row in super().component_rows(prefix, code, disabled) for b in row["components"]
        ]
        return [{"type": 1, "components": buttons[i : i + 4]} for i in range(0, len(buttons), 4)]


@pytest.fixture(autouse=True)
def classic_board(monkeypatch):
    """The 7×6 board offered by /connect4 for these tests only: its face (buttons, default,
    look) is another change's; this one needs the board to be playable."""
    monkeypatch.setitem(CONNECT4.boards, "7x6", "connect4-7x6")
    monkeypatch.setitem(LOOKS, "connect4-7x6", RowsOfFour("connect4-7x6"))


def review_field(message):
    return next((f.value for f in message.embeds[0].fields if f.name == "Looking back"), None)


async def test_a_lost_7x6_game_says_looking_back_then_the_lesson_in_one_edit(
    world, simcord_bot, monkeypatch
):
    w = world
    edits = []  # each edit of a board by the bot: the message as it was just before
    http = simcord_bot.http
    edit_message = http.edit_message

    async def edit_spied(channel_id, message_id, **fields):
        edits.append(review_field(next(m for m in w.channel.history() if m.id == message_id)))
        return await edit_message(channel_id, message_id, **fields)

    monkeypatch.setattr(http, "edit_message", edit_spied)
    await w.alice.slash(w.channel, "connect4 play", board="7x6", first="bot")
    while True:
        board = w.channel.last_message
        assert review_field(board) is None  # no post-mortem before the end
        running = simcord_bot.service.running_game(w.channel.id)
        moves, game_id = list(running.moves), running.id
        result = await w.alice.slash(w.channel, "connect4 move", column=best_column(moves))
        assert not result.ephemeral, result.response.content
        if simcord_bot.service.running_game(w.channel.id) is None:
            break
    await w.env.settle()
    final = w.channel.last_message
    assert "🔍 looking back at this game…" in edits  # what it said while the solver ran
    lesson = review_field(final)
    assert lesson.startswith("I looked back: my move ") and "From there you could force" in lesson
    assert lesson.endswith("I won't play it there again.")
    assert edits.count("🔍 looking back at this game…") == 1  # one edit, with the lesson
    game = await simcord_bot.service.store.game(game_id)
    assert game.review == "done" and game.message_id == final.id
