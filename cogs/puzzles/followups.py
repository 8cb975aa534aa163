"""A short win played on to its end (:mod:`gameflow.puzzle_followups`): after the
member's right column, the bot's defence and the board, asking for the next winning
column; a wrong one and why; four in a row at the end.

Its buttons name the member's columns after the answer: ``ttt-puzzle:<puzzle>:f<columns>``
(each 1-based; none: the answer's own step, the Play it to the end button of an answer),
so a line goes on working after a restart (see :data:`cogs.puzzles.render.PUZZLE_CLICK`).
"""

from __future__ import annotations

import discord

from cogs.puzzles.render import (
    RIGHT_COLOUR,
    WRONG_COLOUR,
    answer_view,
    board_text,
    follow_id,
    puzzle_button,
    title_text,
    value_text,
    your_moves,
)
from cogs.utils.boards import BoardView, look_of
from cogs.utils.render import NEUTRAL
from engine.puzzles import WIN
from gameflow.puzzle_followups import FollowUp
from i18n import ENGLISH, Language


def asked_text(shown: FollowUp, lang: Language) -> str:
    """What a step asks: "🔴 to play and win in 3 moves"."""
    mark = look_of(shown.posed.puzzle.game).mark(shown.posed.mover)
    return "🧩 " + lang.tn(
        "{mark} to play and win in {count} move",
        "{mark} to play and win in {count} moves",
        your_moves(shown.fastest),
        mark=mark,
    )


def step_text(shown: FollowUp, lang: Language) -> str:
    """Why the member's last column is what it is: a win, but not the fastest, is wrong."""
    posed = shown.posed
    value = shown.values[shown.given]
    if not shown.right and value[0] == WIN:
        return lang.tn(
            "{where} still wins, but in {count} move: there is a faster one.",
            "{where} still wins, but in {count} moves: there is a faster one.",
            your_moves(value[1]),
            where=look_of(posed.puzzle.game).where(shown.given),
        )
    return value_text(shown.given, value, posed.mover, posed.puzzle.game, lang)


def follow_embed(shown: FollowUp, lang: Language = ENGLISH) -> discord.Embed:
    """A step of the line: the board after the defence and the next column asked; a wrong
    column and why (the board after it); or four in a row, solved to the end."""
    puzzle = shown.posed.puzzle
    look = look_of(puzzle.game)
    why = step_text(shown, lang)
    if shown.finished:
        title, colour = title_text(puzzle, lang), RIGHT_COLOUR
        said = [lang.t("✅ Solved to the end: four in a row.")]
    elif shown.right:
        title, colour = asked_text(shown, lang), NEUTRAL
        total = your_moves(shown.posed.values[puzzle.answer][1])
        said = [
            lang.t("✅ Right: {why}", why=why),
            lang.t(
                "{mark} plays {where}: the longest defence.",
                mark=look.mark(shown.posed.mover.other),
                where=look.where(shown.line[-1]),
            ),
            lang.t(
                "Your move {move} of {total}: find the next winning column.",
                move=shown.move,
                total=total,
            ),
        ]
    else:
        title, colour = asked_text(shown, lang), WRONG_COLOUR
        said = [
            lang.t("❌ Not this one: {why}", why=why),
            lang.t("Try again, or see the answer played out with Show me."),
        ]
    embed = discord.Embed(
        title=title,
        description="\n".join([board_text(puzzle, shown.code, shown.line[-1]), "", *said]),
        colour=colour,
    )
    embed.set_footer(
        text=lang.t("Playing it out changes none of your records: only your first answer counts.")
    )
    return embed


def follow_view(shown: FollowUp, solver: bool, lang: Language = ENGLISH) -> BoardView:
    """A button per open column to go on; after a wrong column, Try again at that step;
    at the end, as after an answer (Show me, The game, Next puzzle)."""
    puzzle = shown.posed.puzzle
    if shown.finished:
        return answer_view(puzzle.id, solver, lang, puzzle, right=True)
    after = shown.columns[1:]  # the member's columns after the answer
    rows = []
    if shown.right:
        prefix = follow_id(puzzle.id, after)
        rows = look_of(puzzle.game).component_rows(prefix, shown.code, False)
        buttons = []
    else:
        buttons = [puzzle_button(follow_id(puzzle.id, after[:-1]), lang.t("Try again"), "↩️")]
    buttons.append(puzzle_button(f"ttt-puzzle:{puzzle.id}:s1", lang.t("Show me"), "🔎"))
    buttons.append(puzzle_button(f"ttt-puzzle:{puzzle.id}:n", lang.t("Next puzzle"), "🧩"))
    return BoardView([*rows, {"type": 1, "components": buttons}])


__all__ = ["follow_embed", "follow_view"]
