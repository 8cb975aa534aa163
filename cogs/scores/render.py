"""Records: ``stats`` (the server's and a member's), what ``forget-me`` deletes, and the
leaderboard."""

from __future__ import annotations

import discord

from cogs.utils.boards import LEVEL_NAMES, look_of
from cogs.utils.render import NEUTRAL, TICTACTOE, leaderboard_title
from engine import Mark
from gameflow import BOARDS, LEVELS, MemberRecord, Record, Standing, Stats
from gameflow.scores import ClassicFigures
from gameflow.words import listed
from i18n import ENGLISH, N_, Language, Msg


def outcomes_text(won: int, lost: int, drawn: int, abandoned: int, lang: Language) -> str:
    """A player's games, from their side: "3 wins, 2 losses" (one point of view everywhere:
    a record never switches to the bot's). What never happened is left out."""
    parts = []
    if won:
        parts.append(lang.tn("{count} win", "{count} wins", won))
    if lost:
        parts.append(lang.tn("{count} loss", "{count} losses", lost))
    if drawn:
        parts.append(lang.tn("{count} draw", "{count} draws", drawn))
    if abandoned:
        parts.append(lang.tn("{count} abandoned", "{count} abandoned", abandoned))
    return listed(parts, lang) if parts else lang.tn("{count} win", "{count} wins", 0)


def record_text(record: Record, lang: Language = ENGLISH) -> str:
    """Games against the bot, from the players' side."""
    return outcomes_text(record.bot_losses, record.bot_wins, record.draws, record.unfinished, lang)


def member_record_text(record: MemberRecord, lang: Language = ENGLISH) -> str:
    """A member's games with other members, from their side."""
    return outcomes_text(record.won, record.lost, record.drawn, record.unfinished, lang)


def games_text(record: Record, lang: Language = ENGLISH) -> str:
    if not record.games:
        return lang.t("No games against me yet.")
    return lang.tn(
        "**{count} game** against me: {record}",
        "**{count} games** against me: {record}",
        record.games,
        record=record_text(record, lang),
    )


def forgotten_lines(
    record: Record, with_members: MemberRecord, lang: Language = ENGLISH, *, puzzles: bool = False
) -> list[str]:
    """What forget-me deletes, a bullet each: games against the bot, the member's side of
    games with other members (those stay the other member's), and with ``puzzles`` their
    puzzle record and puzzle rating."""
    lines = []
    if record.games:
        lines.append(
            lang.tn(
                "your {count} finished game against me ({record})",
                "your {count} finished games against me ({record})",
                record.games,
                record=record_text(record, lang),
            )
        )
    if with_members.games:
        lines.append(
            lang.tn(
                "your name in {count} game with other members (it stays in their record)",
                "your name in {count} games with other members (they stay in their records)",
                with_members.games,
            )
        )
    if puzzles:
        lines.append(lang.t("your puzzle record and your puzzle rating"))
    return [f"• {line}" for line in lines]


def server_members_text(record: MemberRecord, lang: Language = ENGLISH) -> str:
    """A server's games between members: how many were won or drawn (nothing if none)."""
    if not record.games:
        return ""
    parts = [
        lang.tn("{count} with a winner", "{count} with a winner", record.won),
        lang.tn("{count} drawn", "{count} drawn", record.drawn),
    ]
    if record.unfinished:
        parts.append(lang.tn("{count} abandoned", "{count} abandoned", record.unfinished))
    return lang.tn(
        "**{count} game** between members: {parts}",
        "**{count} games** between members: {parts}",
        record.games,
        parts=listed(parts, lang),
    )


def player_text(stats: Stats, name: str | None, game: str, lang: Language) -> str:
    """A player's record, from their side: against the bot (and at each level they
    played), and with other members. ``name`` ``None``: the asker's own ("You vs me")."""
    if not stats.player.games and not stats.player_with_members.games:
        if name is None:
            return lang.t("No games yet: try `{command} play`.", command=BOARDS[game].command)
        return lang.t("No games yet.")

    def told(record: str, own: Msg, named: Msg) -> str:
        """``own`` for the asker ("You vs me"), ``named`` for another member."""
        said = own if name is None else named.with_args(name=name)
        return lang.say(said.with_args(record=record))

    against_me = stats.player.games and told(
        record_text(stats.player, lang), N_("You vs me: {record}"), N_("{name} vs me: {record}")
    )
    levels = set(stats.player_levels) - {"learning"} and " · ".join(  # each level they played
        lang.t("{level}: {record}", level=LEVEL_NAMES[level], record=record_text(record, lang))
        for level, record in sorted(
            stats.player_levels.items(), key=lambda item: list(LEVELS).index(item[0])
        )
    )
    with_members = stats.player_with_members.games and told(
        member_record_text(stats.player_with_members, lang),
        N_("You vs members: {record}"),
        N_("{name} vs members: {record}"),
    )
    return "\n".join(line for line in (against_me, levels, with_members) if line)


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
            "{count} way left to beat me", "{count} ways left to beat me", v.losing_lines
        )

    look = look_of(game)
    embed = discord.Embed(
        title=lang.t("{game} with your own bot", game=look.title)
        if guild_name is None
        else lang.t("{game} in {server}", game=look.title, server=guild_name),
        colour=NEUTRAL,
    )
    own = asker_id in (None, player.id)
    if guild_name is not None:  # outside a server, the server's record is the player's
        embed.add_field(
            name=lang.t("This server"),
            value="\n".join(
                line
                for line in (
                    games_text(stats.server, lang),
                    server_members_text(stats.between_members, lang),
                )
                if line
            ),
            inline=False,
        )
    embed.add_field(
        name=lang.t("You ({name})", name=player.display_name) if own else player.display_name,
        value=player_text(stats, None if own else player.display_name, game, lang),
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
            value=lately_text(classic, guild_name is None, lang),
            inline=True,
        )
        return embed
    embed.add_field(
        name=lang.t("When I play {mark} (first)", mark=look.mark(Mark.X)),
        value=beatable(stats.beatable_as_x),
        inline=True,
    )
    embed.add_field(
        name=lang.t("When I play {mark} (second)", mark=look.mark(Mark.O)),
        value=beatable(stats.beatable_as_o),
        inline=True,
    )
    embed.set_footer(text=lang.say(WAY))
    return embed


def lately_text(classic: ClassicFigures, own_bot: bool, lang: Language) -> str:
    """The classic board's recent games against the bot, from the players' side as every
    record of stats is: how many of them they won (a player's own bot: theirs)."""
    if not classic.recent_games:
        return lang.t("no game against me yet")
    if own_bot:
        return lang.tn(
            "you won {won} of the last {count} game",
            "you won {won} of the last {count} games",
            classic.recent_games,
            won=classic.recent_losses,
        )
    return lang.tn(
        "members won {won} of the last {count} game",
        "members won {won} of the last {count} games",
        classic.recent_games,
        won=classic.recent_losses,
    )


# what "a way to beat me" counts, said once under the counts
WAY = N_("A way to beat me: a sequence of moves that wins against the moves I would play now.")


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
    wins_by_level: dict[str, int] | None = None,
) -> discord.Embed:
    """The top 10, and the caller's own line below when they are not in it. Members are
    shown as mentions (names, for whoever can see them), and nobody is pinged.
    ``wins_by_level``: the caller's wins at each level, for the ranking by wins (which
    counts the learning level only: the others are said beside their own count)."""
    command = BOARDS[game].command
    lines = [standing_line(row, by, lang) for row in top] or [
        lang.t(
            "Nobody yet. Play `{command} play`: every game I lose teaches me something.",
            command=command,
        )
    ]
    easier = [
        lang.t("{count} at {level}", count=count, level=LEVEL_NAMES[level])
        for level, count in sorted((wins_by_level or {}).items(), key=lambda item: LEVELS[item[0]])
        if level != "learning" and count
    ]
    if own is not None and all(row.player_id != player_id for row in top):
        lines += ["…", standing_line(own, by, lang)]
    elif own is None and not easier:
        lines += [
            "",
            lang.t("You are not on it yet ({what}: 0 so far).", what=LEADERBOARD_TITLES[by]),
        ]
    if easier:
        lines += [
            "",
            lang.t(
                "You: {count} ({easier})", count=own.wins if own else 0, easier=listed(easier, lang)
            ),
        ]
    ranking = LEADERBOARD_TITLES[by]
    title = leaderboard_title(guild_name, ranking, game, lang)
    embed = discord.Embed(title=title, description="\n".join(lines), colour=NEUTRAL)
    embed.set_footer(
        text=lang.t(
            "Only wins at the learning level count: wins at easy and medium are not ranked. "
            "Ties go to whoever got there first."
        )
        if by == "wins"
        else lang.t("Ties go to whoever got there first.")
    )
    return embed
