"""The board's buttons, built as JSON once per position, against discord.ui's own."""

import discord
import pytest

from cogs.play.render import board_view, cell_click
from engine import Mark
from gameflow import Game
from tests.cogs.conftest import buttons_of
from tests.cogs.play.test_games import play_line


def game(moves, result="running", game_id=7) -> Game:
    return Game(game_id, 1, 2, 3, Mark.O, tuple(moves), result, None, 0.0)


def discord_ui_board(g: Game, *, frozen: bool, wins: set[int]) -> list[dict]:
    """The same board from discord.ui Buttons: free cells blue and clickable while the game
    runs, marks grey; once it is over, Rematch alone (the embed draws the final position),
    or on an old board every cell disabled, a winning line green."""
    view = discord.ui.View(timeout=None)
    position = g.board.position
    for cell in range(9 if g.running or frozen else 0):
        mark = position[cell] if position[cell] != "." else None
        done = frozen or not g.running
        style = (
            discord.ButtonStyle.success
            if cell in wins
            else discord.ButtonStyle.secondary
            if mark or done
            else discord.ButtonStyle.primary
        )
        view.add_item(
            discord.ui.Button(
                custom_id=f"ttt:{g.id}:{g.ply}:{cell + 1}",
                style=style,
                label=None if mark else str(cell + 1),
                emoji={"X": "❌", "O": "⭕"}[mark] if mark else None,
                disabled=bool(mark) or done,
                row=cell // 3,
            )
        )
    if not g.running and not frozen:  # a finished board offers a rematch
        view.add_item(
            discord.ui.Button(
                custom_id=f"ttt-rematch:{g.id}",
                style=discord.ButtonStyle.primary,
                label="Rematch",
                row=3,
            )
        )
        if g.moves:  # and to watch it again
            view.add_item(
                discord.ui.Button(
                    custom_id=f"ttt-replay:{g.id}:0:open",
                    style=discord.ButtonStyle.secondary,
                    label="Replay",
                    emoji="🎞️",
                    row=3,
                )
            )
    return view.to_components()


@pytest.mark.parametrize(
    ("moves", "result", "frozen", "wins"),
    [
        ((), "running", False, set()),
        ((4, 0), "running", False, set()),
        ((4, 0), "running", True, set()),  # an old board
        ((0, 3, 1, 4, 2), "player_won", False, {0, 1, 2}),
        ((0, 3, 1, 4, 2), "player_won", True, {0, 1, 2}),
        ((0, 3, 1, 4, 8, 5), "bot_won", False, {3, 4, 5}),
        ((0, 3, 1, 4, 8, 5), "bot_won", True, {3, 4, 5}),
        ((4, 0, 8), "abandoned", False, set()),
    ],
)
def test_the_board_is_what_discord_ui_would_send(moves, result, frozen, wins):
    g = game(moves, result)
    assert board_view(g, frozen=frozen).to_components() == discord_ui_board(
        g, frozen=frozen, wins=wins
    )
    again = game(moves, result, game_id=8)  # the cached position, another game's ids
    assert board_view(again, frozen=frozen).to_components() == discord_ui_board(
        again, frozen=frozen, wins=wins
    )


@pytest.mark.parametrize(
    ("custom_id", "click"),
    [("ttt:12:3:9", (12, 3, 9)), ("ttt:12:3:0", None), ("ttt:12:3", None), ("xttt:1:2:3", None)],
)
def test_a_cell_click_is_read_from_its_custom_id(custom_id, click):
    assert cell_click(custom_id) == click


async def test_boards_leave_nothing_behind_in_discord_py(world, simcord_bot):
    """discord.ui keeps every view it must dispatch, forever; a board's clicks are routed
    by their custom ids instead, so a long day of games keeps nothing."""
    w = world
    await play_line(w, w.alice, [1, 4, 7], click=True)
    await play_line(w, w.alice, [2, 5], click=False)
    assert buttons_of(w.channel.last_message)  # a live board
    store = simcord_bot._connection._view_store
    assert store._dynamic_items  # the live bot's store: its other buttons are registered
    assert not store._synced_message_views and not any(store._views.values())


def test_the_classic_boards_lately_speaks_from_the_players_side():
    """Issue 35: "12 games against me: 12 losses" (the players') beside "I lost 0 of the
    last 12 games" (the bot's). Every figure of stats is the players'."""
    from cogs.scores.render import lately_text
    from gameflow.scores import ClassicFigures
    from i18n import ENGLISH, LANGUAGES

    lately = ClassicFigures(by_post_mortem=20, by_rules=3, recent_losses=0, recent_games=12)
    assert lately_text(lately, False, ENGLISH) == "members won 0 of the last 12 games"
    assert lately_text(lately, True, ENGLISH) == "you won 0 of the last 12 games"  # own bot
    german = lately_text(lately, False, LANGUAGES["de"])
    assert german == "Siege der Mitglieder in den letzten Partien: 0 von 12"
    none = ClassicFigures(0, 0, 0, 0)
    assert lately_text(none, False, ENGLISH) == "no game against me yet"
