"""What every drawing shares: the colours of a game's states, spans of time in words,
mentions."""

from __future__ import annotations

from collections.abc import Callable

import discord

from cogs.utils.boards import look_of
from i18n import ENGLISH, Language

TICTACTOE = "tictactoe"
COLOURS = {
    "running": 0x5865F2,
    "bot_won": 0xED4245,
    "player_won": 0x57F287,
    "opponent_won": 0x57F287,
    "draw": 0xFEE75C,
}
NEUTRAL = 0x99AAB5


def duration_text(seconds: float, lang: Language = ENGLISH) -> str:
    """A span in people's words: "under a second", "30 seconds", "1 minute", "2.5 minutes"."""
    if seconds < 1:
        return lang.t("under a second")
    if seconds < 60:
        return lang.tn("{count} second", "{count} seconds", round(seconds))
    minutes = round(seconds / 60, 1)
    if minutes == int(minutes):
        return lang.tn("{count} minute", "{count} minutes", int(minutes))
    return lang.t("{minutes} minutes", minutes=minutes)


def step_buttons(step: int, last: int, custom_id: Callable[[int, str], str]) -> list[dict]:
    """⏮ ◀ ▶ ⏭ over steps 0 to ``last`` (a replay's, a puzzle's solution), each naming the
    step it shows through ``custom_id(step, how)``; those going nowhere are disabled."""
    buttons = []
    for how, emoji, to in (
        ("first", "⏮️", 0),
        ("back", "◀️", step - 1),
        ("next", "▶️", step + 1),
        ("last", "⏭️", last),
    ):
        to = max(0, min(to, last))
        buttons.append(
            {
                "type": 2,
                "style": discord.ButtonStyle.secondary.value,
                "emoji": {"id": None, "name": emoji},
                "custom_id": custom_id(to, how),
                "disabled": to == step,
            }
        )
    return buttons


def leaderboard_title(server: str, ranking: str, game: str, lang: Language = ENGLISH) -> str:
    """A leaderboard's title: the server, what it ranks by, and the game (a Connect Four
    board by its name; tic-tac-toe, the first game, unnamed)."""
    if game == TICTACTOE:
        return lang.t("🏆 {server}: {ranking}", server=server, ranking=ranking)
    return lang.t(
        "🏆 {server}: {ranking} at {game}",
        server=server,
        ranking=ranking,
        game=look_of(game).title,
    )
