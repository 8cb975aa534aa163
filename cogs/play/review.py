"""The classic board's post-mortem on the final board: "looking back" while the solver
runs in its worker, then the lesson in a line, its move counted as the replay counts
them (one edit of the board); the rest of it is the replay's, at that move."""

from __future__ import annotations

import discord

from cogs.play.render import board_view
from cogs.utils.boards import BoardView
from gameflow import Game
from gameflow.reviews import ReviewOutcome
from gameflow.words import sentences, suggested_text, verdict_text
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
    said = [verdict_text(verdict, lang)]
    if (suggested := suggested_text(outcome.game, verdict, lang)) is not None:
        said.append(suggested)
    # how far the win was from there is the replay's to tell, at that move; at easier
    # levels it may play it again on purpose, so it promises nothing
    if game.level == "learning":
        said.append(
            lang.t("I'll play column {held} there next time.", held=verdict.held + 1)
            if verdict.played == "draw"
            else lang.t("I won't play column {column} there again.", column=verdict.column + 1)
        )
    # the widened post-mortem (engine.post_mortem) valued each other reply of theirs too
    said.append(lang.t("I also worked out my answer to each of your other replies there."))
    return sentences(said, lang)


def lesson_step(outcome: ReviewOutcome | None) -> int | None:
    """The replay's step that shows the post-mortem's lesson (the game's own count of
    moves, from 1), or ``None`` if it has none."""
    if outcome is None or outcome.verdict is None:
        return None
    return outcome.verdict.ply + 1


def review_view(game: Game, outcome: ReviewOutcome | None, lang: Language) -> BoardView:
    """A final board's buttons once its post-mortem is done: Replay opens at the move
    its lesson is about."""
    return board_view(game, lang=lang, lesson=lesson_step(outcome))


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
