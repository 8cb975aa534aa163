"""A position as the memory sees it (``/ttt brain``, ``/connect4 brain``): each legal move
a proven win, a proven loss or unknown, and the move the bot would play there."""

from __future__ import annotations

import discord

from cogs.utils.boards import KEYCAPS, look_of
from cogs.utils.render import NEUTRAL
from engine import LOSS, WIN
from gameflow import BrainView
from gameflow.brain_view import ClassicView
from gameflow.words import listed, ranking_text
from i18n import ENGLISH, Language


def brain_embed(view: BrainView, title: str, lang: Language = ENGLISH) -> discord.Embed:
    """A position as the memory sees it: each legal move a proven win, a proven loss or
    unknown for the player to move, and the move the bot would play there."""
    board = view.board
    look = look_of(board.game.name)
    rows = look.brain_rows(board, view.outlook)
    if isinstance(view, ClassicView):
        legend = "\n".join(
            f"{KEYCAPS[column]} {column_verdict(known, view.plies.get(column), lang)}"
            for column, known in sorted(view.outlook.items())
        )
    else:
        legend = moves_legend(view, lang)
    explained = lang.t(
        "For {mark}, the player to move:\n{legend}\n\nI would play **{move}** here: {why}.",
        mark=look.mark(board.turn),
        legend=legend,
        move=look.short(view.choice),
        why=view.why,
    )
    if isinstance(view, ClassicView) and view.ranking:  # the board model chose (issue 43)
        explained += "\n\n" + ranking_text(view.ranking, view.trained_on, lang)
    embed = discord.Embed(title=title, description=f"{rows}\n\n{explained}", colour=NEUTRAL)
    embed.set_footer(text=lang.say(look.brain_footer))
    return embed


def column_verdict(known, plies: int | None, lang: Language) -> str:
    """One column of the classic board's brain: a proven win or loss, and how many moves
    (both players') the game lasts after it under perfect play, when the solver proved it."""
    if known is None:
        return lang.t("⬜ unknown")
    if plies is None:
        return lang.t("🟩 a proven win") if known is WIN else lang.t("🚫 a proven loss")
    if known is WIN:
        return lang.tn("🟩 wins in {count} more move", "🟩 wins in {count} more moves", plies)
    return lang.tn("🚫 loses in {count} more move", "🚫 loses in {count} more moves", plies)


def moves_legend(view: BrainView, lang: Language) -> str:
    """The moves known to win, known to lose, and unknown, each in a line."""

    def moves(outcome) -> str:
        found = [str(c + 1) for c, known in view.outlook.items() if known is outcome]
        return listed(found, lang) if found else lang.t("none")

    return lang.t(
        "🟩 proven win: {wins}\n🚫 proven loss: {losses}\n⬜ unknown: {unknown}",
        wins=moves(WIN),
        losses=moves(LOSS),
        unknown=moves(None),
    )
