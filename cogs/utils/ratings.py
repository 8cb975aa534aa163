"""Ratings as people read them: a change ("+14 → 1,512"), a rating with its provisional
mark, the stats' lines, the leaderboard by rating, and puzzle ratings (a puzzle's, and a
member's change by their first answer). Numbers as the reader's language writes them."""

from __future__ import annotations

import discord

from cogs.utils.boards import look_of
from cogs.utils.render import NEUTRAL, TICTACTOE, leaderboard_title
from engine.ratings import BOT, Rating
from gameflow.ratings import BotRating, RatingChange
from i18n import ENGLISH, Language

PROVISIONAL = "?"  # lichess's mark of a provisional rating


def rating_text(rating: Rating, lang: Language = ENGLISH) -> str:
    return lang.number(rating.points) + (PROVISIONAL if rating.provisional else "")


def signed(delta: int, lang: Language = ENGLISH) -> str:
    return ("+" if delta >= 0 else "−") + lang.number(abs(delta))


def changes_text(changes, lang: Language = ENGLISH) -> str | None:
    """The finished board's line per member: "<@id>: +14 → 1,512"."""
    lines = [
        lang.t(
            "{member}: {change} → {rating}",
            member=f"<@{change.player_id}>",
            change=signed(change.delta, lang),
            rating=rating_text(change.after, lang),
        )
        for change in changes
        if change.player_id != BOT
    ]
    return "\n".join(lines) or None


def puzzle_rating_text(rating: Rating, lang: Language = ENGLISH) -> str:
    """A puzzle's rating, under its board."""
    return lang.t("This puzzle's rating: {rating}", rating=rating_text(rating, lang))


def puzzle_change_text(change: RatingChange | None, lang: Language = ENGLISH) -> str | None:
    """A member's puzzle rating after their first answer ("+12 → 1,512"); ``None`` for an
    answer that changed nothing (not their first)."""
    if change is None:
        return None
    return lang.t(
        "Your puzzle rating: {change} → {rating}",
        change=signed(change.delta, lang),
        rating=rating_text(change.after, lang),
    )


def member_ratings_text(ratings: dict[str, Rating], lang: Language = ENGLISH) -> str | None:
    """A member's rating on each board played (``None``: no rated game yet)."""
    if not ratings:
        return None
    return "\n".join(
        lang.t("{board}: {rating}", board=look_of(game).title, rating=rating_text(r, lang))
        for game, r in ratings.items()
    )


def bot_rating_text(bot: BotRating, lang: Language = ENGLISH) -> str:
    return lang.t(
        "Mine: {rating} ({change} in 30 days)",
        rating=rating_text(bot.rating, lang),
        change=signed(bot.change, lang),
    )


def provisional_note(lang: Language = ENGLISH) -> str:
    return lang.t("? provisional: too few games yet to be sure")


def rating_leaderboard_embed(
    top, own, guild_name: str, player_id: int, game: str = TICTACTOE, lang: Language = ENGLISH
) -> discord.Embed:
    """The top 10 established ratings, and the caller's own line (with its mark, if
    provisional) when they are not in it."""

    def line(row) -> str:
        place, member, mu, sigma = row
        return f"**{lang.number(place)}.** <@{member}>: **{rating_text(Rating(mu, sigma), lang)}**"

    lines = [line(row) for row in top] or [
        lang.t("Nobody has an established rating yet: it takes about 16 rated games.")
    ]
    if own is not None and all(row[1] != player_id for row in top):
        lines += ["…", line(own)]
    ranking = lang.t("rating")
    title = leaderboard_title(guild_name, ranking, game, lang)
    embed = discord.Embed(title=title, description="\n".join(lines), colour=NEUTRAL)
    embed.set_footer(
        text=lang.t(
            "Only established ratings are ranked; provisional ones (marked ?) are left out "
            "until about 16 rated games."
        )
    )
    return embed
