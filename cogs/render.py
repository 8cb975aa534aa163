"""How a game looks in Discord: the embed around the board, the board's buttons, stats,
trainings and the leaderboard. What differs by game (the board itself, a cell or a column)
is in each game's look (:mod:`cogs.boards`)."""

from __future__ import annotations

import datetime
import re

import discord

from engine import LOSS, WIN, Lesson, Mark
from gameflow import (
    COMMANDS,
    LEVELS,
    PLAYED_OUT,
    BrainFigures,
    BrainView,
    Game,
    GuildSettings,
    MemberRecord,
    Record,
    Standing,
    Stats,
    TrainingProgress,
    TrainingRecord,
    Turn,
    channel_list,
)
from gameflow.places import is_own_bot
from i18n import ENGLISH, N_, Language

from .boards import Look, look_of

TICTACTOE = "tictactoe"
COLOURS = {
    "running": 0x5865F2,
    "bot_won": 0xED4245,
    "player_won": 0x57F287,
    "opponent_won": 0x57F287,
    "draw": 0xFEE75C,
}
NEUTRAL = 0x99AAB5


WELCOME = N_(
    "👋 Hello! I play **tic-tac-toe** and **Connect Four**, and I learn from every game I "
    "lose, so this server will teach me. Start with `/ttt play` or `/connect4 play`; "
    "`/ttt help` shows the rest."
)
HOW_I_LEARN = N_(
    "I know only the rules. When I lose, I remember the position that cost me the game, "
    "proven, and never walk into it again: every server teaches its own bot, until nobody "
    "here can beat me."
)
PLAYER_COMMANDS = (
    ("/ttt play · /connect4 play", N_("a game against me in this channel (you move first)")),
    (
        "/ttt move · /connect4 move",
        N_("play a cell (1-9) or a column; the board's buttons too"),
    ),
    (
        "/ttt challenge · /connect4 challenge",
        N_("a game against a member; I watch and learn"),
    ),
    ("/ttt board · /ttt resign", N_("show this channel's game again, or give it up")),
    (
        "/ttt stats · /ttt leaderboard",
        N_("the server's record and yours, and who taught me most"),
    ),
    ("/ttt brain", N_("privately, what I know about a position")),
    ("/ttt forget-me", N_("delete your games and records in this server")),
)
ADMIN_COMMANDS = (
    ("/ttt-admin settings", N_("where games may start, and the idle timeout")),
    ("/ttt-admin train", N_("train me against a practice opponent while games go on")),
    ("/ttt-admin export · import", N_("move my memory between servers, proof-checked")),
    ("/ttt-admin reset · end-game", N_("forget what I learned, or end a stuck game")),
    ("/ttt-admin delete-server-data", N_("delete everything I keep about this server, now")),
)


def help_embed(*, admin: bool, lang: Language = ENGLISH) -> discord.Embed:
    """The private guide of ``/ttt help``: how the bot learns, and the commands the person
    may use (server managers also see theirs)."""
    embed = discord.Embed(
        title=lang.t("How to play me"), description=lang.say(HOW_I_LEARN), colour=NEUTRAL
    )
    embed.add_field(
        name=lang.t("Commands"),
        value="\n".join(f"`{name}`: {lang.say(what)}" for name, what in PLAYER_COMMANDS),
        inline=False,
    )
    if admin:
        embed.add_field(
            name=lang.t("For server managers"),
            value="\n".join(f"`{name}`: {lang.say(what)}" for name, what in ADMIN_COMMANDS),
            inline=False,
        )
    embed.set_footer(text=lang.t("Only you can see this."))
    return embed


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


def describe_lesson(
    lesson: Lesson, bot_mark: Mark | None, look: Look | None = None, lang: Language = ENGLISH
) -> str:
    """One lesson in words: from the bot's side in a game against it (``bot_mark``), as
    a watcher's note in a game between members (``None``)."""
    look = look or look_of(TICTACTOE)
    where = look.where(lesson.cell)
    if bot_mark is None:
        told = "mark_wins" if lesson.outcome is WIN else "mark_loses"
    elif lesson.player is bot_mark:
        told = "bot_loses" if lesson.outcome is LOSS else "bot_wins"
    else:
        told = "you_win" if lesson.outcome is WIN else "you_lose"
    return lang.say(look.lessons[told].with_args(where=where, mark=look.mark(lesson.player)))


def lesson_text(turn: Turn, lang: Language = ENGLISH) -> str | None:
    """What the bot learned, in a player's words: its own mistakes first, at most three.
    After a game between members played to the end, it says so even if nothing was new."""
    game = turn.game
    look = look_of(game.kind)
    bot = game.bot_mark if game.vs_bot else None
    if not turn.lessons:
        if not game.vs_bot and game.result in PLAYED_OUT:
            return lang.t("Nothing new: I knew all of that already.")
        return None
    ordered = sorted(turn.lessons, key=lambda ls: (ls.player is not bot, ls.outcome is WIN))
    lines = [describe_lesson(lesson, bot, look, lang) for lesson in ordered[:3]]
    more = len(turn.lessons) - len(lines)
    if more > 0:
        lines.append(lang.tn("…and {count} more lesson.", "…and {count} more lessons.", more))
    return "\n".join(lines)


def mention(user_id: int | None) -> str:
    return f"<@{user_id}>"


def players_text(game: Game) -> str:
    """Who plays which mark in a game between members."""
    look = look_of(game.kind)
    x, o = game.member_playing(Mark.X), game.member_playing(Mark.O)
    return f"{look.mark(Mark.X)} <@{x}> vs {look.mark(Mark.O)} <@{o}>"


def member_status_text(game: Game, lang: Language = ENGLISH) -> str:
    look = look_of(game.kind)
    if game.result == "running":
        mark = game.board.turn
        return lang.t(
            "Your turn, {player} ({mark}): {prompt}.",
            player=mention(game.member_playing(mark)),
            mark=look.mark(mark),
            prompt=look.prompt,
        )
    winner = game.winner_id
    if game.result == "resigned":
        return lang.t(
            "{player} resigned: {winner} wins.",
            player=mention(game.ended_by),
            winner=mention(winner),
        )
    if winner is not None:
        return lang.t(
            "🎉 {winner} ({mark}) wins!",
            winner=mention(winner),
            mark=look.mark(game.mark_of(winner)),
        )
    return lang.t("It's a draw.") if game.result == "draw" else abandoned_text(game, lang)


def abandoned_text(game: Game, lang: Language = ENGLISH) -> str:
    if game.ended_by:
        return lang.t(
            "🛑 Ended by {moderator}, a moderator. Nothing was learned from it.",
            moderator=mention(game.ended_by),
        )
    return lang.t("⌛ Abandoned: no move for a while. Nothing was learned from it.")


def status_text(game: Game, turn: Turn | None = None, lang: Language = ENGLISH) -> str:
    if not game.vs_bot:
        return member_status_text(game, lang)
    player = mention(game.player_id)
    look = look_of(game.kind)
    if game.result == "running":
        your_turn = lang.t(
            "Your turn, {player} ({mark}): {prompt}.",
            player=player,
            mark=look.mark(game.player_mark),
            prompt=look.prompt,
        )
        if turn is not None and turn.bot_cell is not None:
            return f"{lang.say(look.played(turn.bot_cell))} {your_turn}"
        return your_turn
    if game.result == "player_won":
        return lang.t("🎉 {player} wins! I'll learn from this.", player=player)
    if game.result == "bot_won":
        return lang.t("I win! Better luck next time, {player}.", player=player)
    if game.result == "draw":
        return lang.t("It's a draw.")
    if game.result == "resigned":
        return lang.t("{player} resigned. I win.", player=player)
    return abandoned_text(game, lang)


LEVEL_NAMES = {"learning": N_("learning"), "medium": N_("medium"), "easy": N_("easy")}


def board_embed(turn: Turn, lang: Language = ENGLISH) -> discord.Embed:
    game = turn.game
    look = look_of(game.kind)
    if game.vs_bot:
        you, me = look.mark(game.player_mark), look.mark(game.bot_mark)
        if game.level != "learning":  # an easier bot, said on its board
            title = lang.t(
                "{you} you vs me {me} · {level} level",
                you=you,
                me=me,
                level=LEVEL_NAMES[game.level],
            )
        else:
            title = lang.t("{you} you vs me {me}", you=you, me=me)
        status = status_text(game, turn, lang)
    else:
        title = lang.t("between members, watched by me")
        status = f"{players_text(game)}\n{status_text(game, lang=lang)}"
    embed = discord.Embed(
        title=f"{lang.say(look.title)}: {title}",
        description=f"{look.rows(game.board.code)}\n\n{status}",
        colour=COLOURS.get(game.result, NEUTRAL),
    )
    learned = lesson_text(turn, lang)
    if learned:
        name = lang.t("What I learned") if game.vs_bot else lang.t("I watched and learned")
        embed.add_field(name=name, value=learned, inline=False)
    embed.set_footer(
        text=lang.tn(
            "Your own bot knows {count} lesson.",
            "Your own bot knows {count} lessons.",
            turn.memory_size,
        )
        if is_own_bot(game.guild_id)
        else lang.tn(
            "I know {count} lesson in this server.",
            "I know {count} lessons in this server.",
            turn.memory_size,
        )
    )
    return embed


CELL_CLICK = re.compile(r"ttt:(?P<game>[0-9]+):(?P<ply>[0-9]+):(?P<cell>[1-9])")


def cell_click(custom_id: str) -> tuple[int, int, int] | None:
    """The game, move count and cell (1..9) a board button names, or ``None``.

    The custom id names the game and the move count, so a click keeps working after a
    restart and a click on an old board is recognised."""
    match = CELL_CLICK.fullmatch(custom_id)
    return None if match is None else (int(match["game"]), int(match["ply"]), int(match["cell"]))


class BoardView(discord.ui.View):
    """The buttons of one board (tic-tac-toe's 3×3 cells, Connect Four's columns), as
    Discord's component JSON.

    A board is drawn on every move, and discord.ui's nine Button objects per board (built
    again from the message at each click, to dispatch it) were among the largest costs of
    a move (``python -m bench.lean --profile``). Here the buttons of each position are built
    once and only the custom ids change; clicks are routed by :func:`cell_click`, so
    discord.ui stores nothing for these views.
    """

    def __init__(self, rows: list[dict]) -> None:
        super().__init__(timeout=None)
        self._rows = rows

    def to_components(self) -> list[dict]:
        return self._rows


def board_view(game: Game, *, frozen: bool = False, lang: Language = ENGLISH) -> BoardView:
    """The board's buttons: every game's custom ids are ``ttt:<game>:<ply>:<move 1..>``.
    ``frozen`` disables them all, for a board that is no longer current."""
    prefix = f"ttt:{game.id}:{game.ply}:"
    rows = look_of(game.kind).component_rows(prefix, game.board.code, frozen or not game.running)
    if not game.running and not frozen:  # a finished board offers to play again
        rematch = {**REMATCH, "label": lang.t("Rematch"), "custom_id": f"ttt-rematch:{game.id}"}
        rows.append({"type": 1, "components": [rematch]})
    return BoardView(rows)


REMATCH = {
    "type": 2,
    "style": discord.ButtonStyle.primary.value,
    "disabled": False,
    "label": "Rematch",  # said in the reader's language by board_view
}


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


def brain_change_text(
    before: BrainFigures, after: BrainFigures, game: str = TICTACTOE, lang: Language = ENGLISH
) -> str:
    """Lessons and ways to beat the bot, before → after."""
    look = look_of(game)

    def ways(lines: int) -> str:
        return lang.t("none: unbeatable ✅") if lines == 0 else lang.number(lines)

    def row(name: str, old: int, new: int, shown=lang.number) -> str:
        return f"{name}: {shown(old)} → **{shown(new)}**"

    return "\n".join(
        (
            row(lang.t("Lessons"), before.lessons, after.lessons),
            row(
                lang.t("Ways to beat me as {mark}", mark=look.mark(Mark.X)),
                before.ways_to_beat_as_x,
                after.ways_to_beat_as_x,
                ways,
            ),
            row(
                lang.t("Ways to beat me as {mark}", mark=look.mark(Mark.O)),
                before.ways_to_beat_as_o,
                after.ways_to_beat_as_o,
                ways,
            ),
        )
    )


def memory_file_name(guild_name: str, day: datetime.date, game: str = TICTACTOE) -> str:
    """``ttt-memory-<server>-<date>.json`` (``connect4-memory-…``, ``connect4-5x4-memory-…``),
    with the server's name made safe for a file."""
    slug = re.sub(r"[^a-z0-9]+", "-", guild_name.lower()).strip("-")[:40] or "server"
    prefix = "ttt" if game == TICTACTOE else game
    return f"{prefix}-memory-{slug}-{day.isoformat()}.json"


def settings_embed(
    settings: GuildSettings, timeout_seconds: float, guild_name: str, lang: Language = ENGLISH
) -> discord.Embed:
    embed = discord.Embed(
        title=lang.t("Tic-tac-toe settings in {server}", server=guild_name), colour=NEUTRAL
    )
    timeout = duration_text(timeout_seconds, lang)
    if settings.timeout_minutes is None:
        timeout = lang.t("{timeout} (the bot's default)", timeout=timeout)
    embed.add_field(
        name=lang.t("A game without a move is abandoned after"), value=timeout, inline=False
    )
    channels = settings.play_channels
    embed.add_field(
        name=lang.t("Games may start in"),
        value=lang.t("every channel") if channels is None else channel_list(channels),
        inline=False,
    )
    embed.set_footer(
        text=lang.t(
            "Change them with the options of /ttt-admin settings: timeout, allow_channel, "
            "disallow_channel, every_channel."
        )
    )
    return embed


OPPONENT_NAMES = {
    "random": N_("a random player"),
    "self": N_("myself"),
    "teacher": N_("a teacher who plays the lines that beat me"),
}
TRAINING_COLOURS = {"running": 0x5865F2, "done": 0x57F287, "cancelled": 0xFEE75C}


def progress_bar(done: int, total: int, lang: Language = ENGLISH, width: int = 20) -> str:
    filled = round(width * done / total) if total else width
    percent = lang.t("{percent}%", percent=100 * done // max(total, 1))
    return f"{'█' * filled}{'░' * (width - filled)} {percent}"


def training_embed(progress: TrainingProgress, lang: Language = ENGLISH) -> discord.Embed:
    """The live progress of a training, and what it changed once it has ended."""
    p = progress
    figures = lang.t(
        "{played} / {games} games · {speed} games/s",
        played=p.played,
        games=p.games,
        speed=round(p.games_per_second),
    )
    if p.state == "running" and p.seconds_left is not None:
        figures += lang.t(" · about {time} left", time=duration_text(max(1, p.seconds_left), lang))
    lines = [
        progress_bar(p.played, p.games, lang),
        figures,
        lang.t("Lessons learned so far (saved): **{count}**", count=p.learned)
        if p.state == "running"
        else lang.t("Lessons learned (saved): **{count}**", count=p.learned),
    ]
    if p.state == "done":
        lines.insert(
            0,
            lang.t(
                "✅ Done: {games} games in {time}.",
                games=p.games,
                time=duration_text(p.seconds, lang),
            ),
        )
    elif p.state == "cancelled":
        lines.insert(
            0,
            lang.t(
                "⏹️ Cancelled by {admin} after {played} games.",
                admin=mention(p.ended_by),
                played=p.played,
            ),
        )
    elif p.state == "failed":
        # the reason is the worker's own words, in English: a log line more than a sentence
        lines.insert(
            0,
            lang.t(
                "⚠️ The training stopped ({reason}). What it learned is saved.",
                reason=str(p.error),
            ),
        )
    if p.after is not None:
        lines += ["", brain_change_text(p.before, p.after, p.game, lang)]
    opponent = OPPONENT_NAMES[p.opponent]
    embed = discord.Embed(
        title=lang.t("🏋️ Training against {opponent}", opponent=opponent)
        if p.game == TICTACTOE
        else lang.t(
            "🏋️ Training at {game} against {opponent}",
            game=look_of(p.game).title,
            opponent=opponent,
        ),
        description="\n".join(lines),
        colour=TRAINING_COLOURS.get(p.state, NEUTRAL),
    )
    if p.state == "running":
        embed.set_footer(
            text=lang.t("Games go on meanwhile. Any admin can cancel; what I learned is kept.")
        )
    return embed


def interrupted_training_embed(run: TrainingRecord, lang: Language = ENGLISH) -> discord.Embed:
    return discord.Embed(
        title=lang.t("🏋️ Training against {opponent}", opponent=OPPONENT_NAMES[run.opponent]),
        description=lang.tn(
            "⚠️ Interrupted by a restart after {played} of {games} games. The {count} lesson "
            "it had saved stays.",
            "⚠️ Interrupted by a restart after {played} of {games} games. The {count} lessons "
            "it had saved stay.",
            run.learned,
            played=run.played,
            games=run.games,
        ),
        colour=NEUTRAL,
    )


def brain_embed(view: BrainView, title: str, lang: Language = ENGLISH) -> discord.Embed:
    """A position as the memory sees it: each legal move a proven win, a proven loss or
    unknown for the player to move, and the move the bot would play there."""
    board = view.board
    look = look_of(board.game.name)
    rows = look.brain_rows(board, view.outlook)

    def moves(outcome) -> str:
        found = [str(c + 1) for c, known in view.outlook.items() if known is outcome]
        return ", ".join(found) or lang.t("none")

    legend = lang.t(
        "🟩 proven win: {wins}\n🟥 proven loss: {losses}\n⬜ unknown: {unknown}",
        wins=moves(WIN),
        losses=moves(LOSS),
        unknown=moves(None),
    )
    explained = lang.t(
        "For {mark}, the player to move:\n{legend}\n\nI would play **{move}** here: {why}.",
        mark=look.mark(board.turn),
        legend=legend,
        move=look.short(view.choice),
        why=view.why,
    )
    embed = discord.Embed(title=title, description=f"{rows}\n\n{explained}", colour=NEUTRAL)
    embed.set_footer(text=lang.say(look.brain_footer))
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
