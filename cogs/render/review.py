"""The classic board's post-mortem on the final board: "looking back" while the solver
runs in its worker, then the lesson in one or two sentences (one edit of the board)."""

from __future__ import annotations

import discord

from gameflow import Game
from gameflow.reviews import ReviewOutcome
from i18n import ENGLISH, Language


def _field_name(lang: Language) -> str:
    return lang.t("Looking back")


def _lesson(outcome: ReviewOutcome | None, game: Game, lang: Language) -> str:
    """The post-mortem's lesson, columns as people number them (1 to 7)."""
    if outcome is None:  # the worker could not finish it: it stays pending in the store
        return lang.t("I couldn't look back at this game just now: I will in a few minutes.")
    verdict = outcome.verdict
    if verdict is None:
        if outcome.new_facts == 0:
            return lang.t("I looked back: nothing new to learn from this game.")
        if not game.vs_bot:
            return lang.tn(
                "I looked back at both sides' moves and learned {count} new lesson.",
                "I looked back at both sides' moves and learned {count} new lessons.",
                outcome.new_facts,
            )
        return lang.tn(
            "I looked back: I played every move as well as it could be played, and learned "
            "{count} new lesson about the columns I didn't play.",
            "I looked back: I played every move as well as it could be played, and learned "
            "{count} new lessons about the columns I didn't play.",
            outcome.new_facts,
        )
    move, column, held = verdict.move_number, verdict.column + 1, verdict.held + 1
    learning = game.level == "learning"  # at easier levels it may play it again on purpose
    # the widened post-mortem (engine.post_mortem): each other reply of the member's too
    also = lang.t("I also worked out my answer to each of your other replies there.")
    if verdict.played == "draw":  # a draw in which it let a win go
        first = lang.t(
            "I looked back: my move {move} (column {column}) let a win go, column {held} "
            "would have won.",
            move=move,
            column=column,
            held=held,
        )
        then = (
            lang.t("I'll play it there next time.")
            if learning
            else lang.t("I now know column {held} wins there.", held=held)
        )
        return f"{first} {then} {also}"
    first = (
        lang.t(
            "I looked back: my move {move} (column {column}) lost, and column {held} would "
            "have won.",
            move=move,
            column=column,
            held=held,
        )
        if verdict.held_outcome == "win"
        else lang.t(
            "I looked back: my move {move} (column {column}) lost, and column {held} would "
            "have held.",
            move=move,
            column=column,
            held=held,
        )
    )
    then = lang.tn(
        "From there you could force a win in {count} move.",
        "From there you could force a win in {count} moves.",
        verdict.opponent_moves,
    )
    last = (
        lang.t("I won't play it there again.")
        if learning
        else lang.t("I now know column {column} loses there.", column=column)
    )
    return f"{first} {then} {last} {also}"


def add_review(
    embed: discord.Embed,
    game: Game,
    outcome: ReviewOutcome | None,
    *,
    done: bool,
    lang: Language = ENGLISH,
) -> discord.Embed:
    """The final board's post-mortem field: "looking back" until ``done``, then its
    lesson (``outcome``, or ``None`` if it could not run)."""
    value = _lesson(outcome, game, lang) if done else lang.t("🔍 looking back at this game…")
    return embed.add_field(name=_field_name(lang), value=value, inline=False)


def add_rules_only(embed: discord.Embed, lang: Language = ENGLISH) -> discord.Embed:
    """A classic board's final board where no solver is installed: it learned by the three
    rules alone, and says so."""
    return embed.add_field(
        name=_field_name(lang),
        value=lang.t(
            "No solver is installed here, so I learn from the last moves of a game only, "
            "not by looking back at all of it."
        ),
        inline=False,
    )
