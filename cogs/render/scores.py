"""Records: ``stats`` (the server's and a member's), what ``forget-me`` deletes, and the
leaderboard."""

from __future__ import annotations

import discord

from engine import Mark
from gameflow import COMMANDS, LEVELS, MemberRecord, Record, Standing, Stats
from i18n import ENGLISH, N_, Language

from ..boards import look_of
from .common import NEUTRAL, TICTACTOE
from .play import LEVEL_NAMES


def record_text(record: Record, lang: Language = ENGLISH) -> str:
    """How games against the bot went, from its side: "I won 2, lost 1, drew 0"."""
    text = lang.t(
        "I won {won}, lost {lost}, drew {drawn}",
        won=record.bot_wins,
        lost=record.bot_losses,
        drawn=record.draws,
    )
    if record.unfinished:
        text += lang.t("; {count} abandoned", count=record.unfinished)
    return text


def games_text(record: Record, lang: Language = ENGLISH) -> str:
    return lang.tn(
        "**{count} game** against me: {record}",
        "**{count} games** against me: {record}",
        record.games,
        record=record_text(record, lang),
    )


def forgotten_text(record: Record, with_members: MemberRecord, lang: Language = ENGLISH) -> str:
    """What forget-me deletes: games against the bot, and the member's side of games
    with other members (those stay the other member's)."""
    text = lang.tn(
        "{count} finished game against me in this server",
        "{count} finished games against me in this server",
        record.games,
    )
    if record.games:
        text += f" ({record_text(record, lang)})"
    if with_members.games:
        text += lang.tn(
            ", and your name from {count} game with other members (they stay in the other "
            "member's record)",
            ", and your name from {count} games with other members (they stay in the other "
            "member's record)",
            with_members.games,
        )
    return text


def member_games_text(record: MemberRecord, *, server: bool, lang: Language = ENGLISH) -> str:
    """Games between members: for a server, how many were won or drawn; for a member,
    how they went for them."""
    if server:
        parts = [
            lang.t("{count} with a winner", count=record.won),
            lang.t("{count} drawn", count=record.drawn),
        ]
    else:
        parts = [
            lang.t("won {count}", count=record.won),
            lang.t("lost {count}", count=record.lost),
            lang.t("drew {count}", count=record.drawn),
        ]
    if record.unfinished:
        parts.append(lang.t("{count} abandoned", count=record.unfinished))
    return lang.tn(
        "**{count} game** between members: {parts}",
        "**{count} games** between members: {parts}",
        record.games,
        parts=", ".join(parts),
    )


def stats_embed(
    stats: Stats,
    player: discord.abc.User,
    guild_name: str | None,
    game: str = TICTACTOE,
    *,
    asker_id: int | None = None,
    lang: Language = ENGLISH,
) -> discord.Embed:
    """The server's figures and ``player``'s (the asker's own: "You"; another member's,
    by their name). ``guild_name`` ``None``: outside any server, the player's own bot."""

    def beatable(v) -> str:
        if not v.beatable:
            return lang.t("✅ unbeatable")
        return lang.tn(
            "still beatable: {count} way to beat me",
            "still beatable: {count} ways to beat me",
            v.losing_lines,
        )

    look = look_of(game)
    embed = discord.Embed(
        title=lang.t("{game} with your own bot", game=look.title)
        if guild_name is None
        else lang.t("{game} in {server}", game=look.title, server=guild_name),
        colour=NEUTRAL,
    )
    embed.add_field(
        name=lang.t("This server") if guild_name is not None else lang.t("Your own bot"),
        value=f"{games_text(stats.server, lang)}\n"
        f"{member_games_text(stats.between_members, server=True, lang=lang)}",
        inline=False,
    )
    levels = ""
    if set(stats.player_levels) - {"learning"}:  # their record at each level they played
        levels = "\n" + " · ".join(
            f"{lang.say(LEVEL_NAMES[level])}: {record_text(record, lang)}"
            for level, record in sorted(
                stats.player_levels.items(), key=lambda item: list(LEVELS).index(item[0])
            )
        )
    embed.add_field(
        name=(
            lang.t("You ({name})", name=player.display_name)
            if asker_id in (None, player.id)
            else player.display_name
        ),
        value=f"{games_text(stats.player, lang)}{levels}\n"
        f"{member_games_text(stats.player_with_members, server=False, lang=lang)}",
        inline=False,
    )
    embed.add_field(name=lang.t("Lessons learned"), value=lang.number(stats.facts), inline=True)
    if stats.classic is not None:  # no count of the ways to beat me: what is true instead
        classic = stats.classic
        embed.add_field(
            name=lang.t("Where they came from"),
            value=lang.t(
                "{post_mortem} from looking back at games, {rules} by the rules",
                post_mortem=lang.number(classic.by_post_mortem),
                rules=lang.number(classic.by_rules),
            ),
            inline=True,
        )
        embed.add_field(
            name=lang.t("Lately"),
            value=lang.tn(
                "I lost {lost} of the last {count} game",
                "I lost {lost} of the last {count} games",
                classic.recent_games,
                lost=classic.recent_losses,
            )
            if classic.recent_games
            else lang.t("no game against me yet"),
            inline=True,
        )
        return embed
    embed.add_field(
        name=lang.t("Playing {mark} (first)", mark=look.mark(Mark.X)),
        value=beatable(stats.beatable_as_x),
        inline=True,
    )
    embed.add_field(
        name=lang.t("Playing {mark} (second)", mark=look.mark(Mark.O)),
        value=beatable(stats.beatable_as_o),
        inline=True,
    )
    return embed


LEADERBOARD_TITLES = {
    "lessons": N_("lessons taught"),
    "wins": N_("wins against me"),
    "games": N_("games played"),
}


def standing_line(row: Standing, by: str, lang: Language = ENGLISH) -> str:
    figures = {
        "lessons": lang.tn("{count} lesson", "{count} lessons", row.lessons),
        "wins": lang.tn("{count} win", "{count} wins", row.wins),
        "games": lang.tn("{count} game", "{count} games", row.games),
    }
    first = figures.pop(by)
    return f"**{row.place}.** <@{row.player_id}>: **{first}** · {' · '.join(figures.values())}"


def leaderboard_embed(
    top: list[Standing],
    own: Standing | None,
    by: str,
    guild_name: str,
    player_id: int,
    game: str = TICTACTOE,
    lang: Language = ENGLISH,
) -> discord.Embed:
    """The top 10, and the caller's own line below when they are not in it. Members are
    shown as mentions (names, for whoever can see them), and nobody is pinged."""
    command = COMMANDS[game]
    lines = [standing_line(row, by, lang) for row in top] or [
        lang.t(
            "Nobody yet. Play `{command} play`: every game I lose teaches me something.",
            command=command,
        )
    ]
    if own is not None and all(row.player_id != player_id for row in top):
        lines += ["…", standing_line(own, by, lang)]
    elif own is None:
        lines += [
            "",
            lang.t("You are not on it yet: no {what} so far.", what=LEADERBOARD_TITLES[by]),
        ]
    ranking = LEADERBOARD_TITLES[by]
    title = (
        lang.t("🏆 {server}: {ranking}", server=guild_name, ranking=ranking)
        if game == TICTACTOE
        else lang.t(
            "🏆 {server}: {ranking} at {game}",
            server=guild_name,
            ranking=ranking,
            game=look_of(game).title,
        )
    )
    embed = discord.Embed(title=title, description="\n".join(lines), colour=NEUTRAL)
    embed.set_footer(text=lang.t("Ties go to whoever got there first."))
    return embed
