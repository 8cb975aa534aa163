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


WELCOME = (
    "👋 Hello! I play **tic-tac-toe** and **Connect Four**, and I learn from every game I "
    "lose, so this server will teach me. Start with `/ttt play` or `/connect4 play`; "
    "`/ttt help` shows the rest."
)
HOW_I_LEARN = (
    "I know only the rules. When I lose, I remember the position that cost me the game, "
    "proven, and never walk into it again: every server teaches its own bot, until nobody "
    "here can beat me."
)
PLAYER_COMMANDS = (
    ("/ttt play · /connect4 play", "a game against me in this channel (you move first)"),
    ("/ttt move · /connect4 move", "play a cell (1-9) or a column; the board's buttons too"),
    ("/ttt challenge · /connect4 challenge", "a game against a member; I watch and learn"),
    ("/ttt board · /ttt resign", "show this channel's game again, or give it up"),
    ("/ttt stats · /ttt leaderboard", "the server's record and yours, and who taught me most"),
    ("/ttt brain", "privately, what I know about a position"),
    ("/ttt forget-me", "delete your games and records in this server"),
)
ADMIN_COMMANDS = (
    ("/ttt-admin settings", "where games may start, and the idle timeout"),
    ("/ttt-admin train", "train me against a practice opponent while games go on"),
    ("/ttt-admin export · import", "move my memory between servers, proof-checked"),
    ("/ttt-admin reset · end-game", "forget what I learned, or end a stuck game"),
)


def help_embed(*, admin: bool) -> discord.Embed:
    """The private guide of ``/ttt help``: how the bot learns, and the commands the person
    may use (server managers also see theirs)."""
    embed = discord.Embed(title="How to play me", description=HOW_I_LEARN, colour=NEUTRAL)
    embed.add_field(
        name="Commands",
        value="\n".join(f"`{name}`: {what}" for name, what in PLAYER_COMMANDS),
        inline=False,
    )
    if admin:
        embed.add_field(
            name="For server managers",
            value="\n".join(f"`{name}`: {what}" for name, what in ADMIN_COMMANDS),
            inline=False,
        )
    embed.set_footer(text="Only you can see this.")
    return embed


def plural(count: int, noun: str) -> str:
    return f"{count:,} {noun}{'s' * (count != 1)}"


def duration_text(seconds: float) -> str:
    """A span in people's words: "under a second", "30 seconds", "1 minute", "2.5 minutes"."""
    if seconds < 1:
        return "under a second"
    if seconds < 60:
        return plural(round(seconds), "second")
    minutes = round(seconds / 60, 1)
    if minutes == int(minutes):
        return plural(int(minutes), "minute")
    return f"{minutes:g} minutes"


def describe_lesson(lesson: Lesson, bot_mark: Mark | None, look: Look | None = None) -> str:
    """One lesson in words: from the bot's side in a game against it (``bot_mark``), as
    a watcher's note in a game between members (``None``)."""
    look = look or look_of(TICTACTOE)
    where = look.where(lesson.cell)
    if bot_mark is None:
        verdict = "wins" if lesson.outcome is WIN else "loses"
        return f"{look.mark(lesson.player)} on {where} there {verdict}; I'll remember it."
    if lesson.player is bot_mark:
        if lesson.outcome is LOSS:
            return f"I won't {look.my_play.format(where=where)} in that position again: it loses."
        return f"{look.a_play.format(where=where)} there wins; I'll do it again."
    if lesson.outcome is WIN:
        return (
            f"{look.your_play.format(where=where)} there wins; I'll remember it when I play "
            "your side."
        )
    return f"{look.your_play.format(where=where)} there loses; I'll remember it too."


def lesson_text(turn: Turn) -> str | None:
    """What the bot learned, in a player's words: its own mistakes first, at most three.
    After a game between members played to the end, it says so even if nothing was new."""
    game = turn.game
    look = look_of(game.kind)
    bot = game.bot_mark if game.vs_bot else None
    if not turn.lessons:
        if not game.vs_bot and game.result in PLAYED_OUT:
            return "Nothing new: I knew all of that already."
        return None
    ordered = sorted(turn.lessons, key=lambda ls: (ls.player is not bot, ls.outcome is WIN))
    lines = [describe_lesson(lesson, bot, look) for lesson in ordered[:3]]
    more = len(turn.lessons) - len(lines)
    if more > 0:
        lines.append(f"…and {more} more lesson{'s' if more > 1 else ''}.")
    return "\n".join(lines)


def players_text(game: Game) -> str:
    """Who plays which mark in a game between members."""
    look = look_of(game.kind)
    x, o = game.member_playing(Mark.X), game.member_playing(Mark.O)
    return f"{look.mark(Mark.X)} <@{x}> vs {look.mark(Mark.O)} <@{o}>"


def member_status_text(game: Game) -> str:
    look = look_of(game.kind)
    if game.result == "running":
        mark = game.board.turn
        return f"Your turn, <@{game.member_playing(mark)}> ({look.mark(mark)}): {look.prompt}."
    winner = game.winner_id
    if game.result == "resigned":
        return f"<@{game.ended_by}> resigned: <@{winner}> wins."
    if winner is not None:
        return f"🎉 <@{winner}> ({look.mark(game.mark_of(winner))}) wins!"
    return "It's a draw." if game.result == "draw" else abandoned_text(game)


def abandoned_text(game: Game) -> str:
    if game.ended_by:
        return f"🛑 Ended by <@{game.ended_by}>, a moderator. Nothing was learned from it."
    return "⌛ Abandoned: no move for a while. Nothing was learned from it."


def status_text(game: Game, turn: Turn | None = None) -> str:
    if not game.vs_bot:
        return member_status_text(game)
    player = f"<@{game.player_id}>"
    look = look_of(game.kind)
    if game.result == "running":
        moved = ""
        if turn is not None and turn.bot_cell is not None:
            moved = f"{look.played(turn.bot_cell)} "
        return f"{moved}Your turn, {player} ({look.mark(game.player_mark)}): {look.prompt}."
    return {
        "player_won": f"🎉 {player} wins! I'll learn from this.",
        "bot_won": f"I win! Better luck next time, {player}.",
        "draw": "It's a draw.",
        "resigned": f"{player} resigned. I win.",
        "abandoned": abandoned_text(game),
    }[game.result]


def board_embed(turn: Turn) -> discord.Embed:
    game = turn.game
    look = look_of(game.kind)
    if game.vs_bot:
        title = f"{look.mark(game.player_mark)} you vs me {look.mark(game.bot_mark)}"
        if game.level != "learning":  # an easier bot, said on its board
            title += f" · {game.level} level"
        status = status_text(game, turn)
    else:
        title = "between members, watched by me"
        status = f"{players_text(game)}\n{status_text(game)}"
    embed = discord.Embed(
        title=f"{look.game.title}: {title}",
        description=f"{look.rows(game.board.code)}\n\n{status}",
        colour=COLOURS.get(game.result, NEUTRAL),
    )
    learned = lesson_text(turn)
    if learned:
        name = "What I learned" if game.vs_bot else "I watched and learned"
        embed.add_field(name=name, value=learned, inline=False)
    embed.set_footer(
        text=f"I know {turn.memory_size} lesson{'s' * (turn.memory_size != 1)} in this server."
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


def board_view(game: Game, *, frozen: bool = False) -> BoardView:
    """The board's buttons: every game's custom ids are ``ttt:<game>:<ply>:<move 1..>``.
    ``frozen`` disables them all, for a board that is no longer current."""
    prefix = f"ttt:{game.id}:{game.ply}:"
    rows = look_of(game.kind).component_rows(prefix, game.board.code, frozen or not game.running)
    if not game.running and not frozen:  # a finished board offers to play again
        rows.append({"type": 1, "components": [{**REMATCH, "custom_id": f"ttt-rematch:{game.id}"}]})
    return BoardView(rows)


REMATCH = {
    "type": 2,
    "style": discord.ButtonStyle.primary.value,
    "disabled": False,
    "label": "Rematch",
}


def record_text(record: Record) -> str:
    """How games against the bot went, from its side: "I won 2, lost 1, drew 0"."""
    text = f"I won {record.bot_wins}, lost {record.bot_losses}, drew {record.draws}"
    if record.unfinished:
        text += f"; {record.unfinished} abandoned"
    return text


def games_text(record: Record) -> str:
    return f"**{plural(record.games, 'game')}** against me: {record_text(record)}"


def forgotten_text(record: Record, with_members: MemberRecord) -> str:
    """What forget-me deletes: games against the bot, and the member's side of games
    with other members (those stay the other member's)."""
    text = f"{plural(record.games, 'finished game')} against me in this server"
    if record.games:
        text += f" ({record_text(record)})"
    if with_members.games:
        text += (
            f", and your name from {plural(with_members.games, 'game')} with other members"
            " (they stay in the other member's record)"
        )
    return text


def member_games_text(record: MemberRecord, *, server: bool) -> str:
    """Games between members: for a server, how many were won or drawn; for a member,
    how they went for them."""
    if server:
        parts = [f"{record.won:,} with a winner", f"{record.drawn:,} drawn"]
    else:
        parts = [f"won {record.won:,}", f"lost {record.lost:,}", f"drew {record.drawn:,}"]
    if record.unfinished:
        parts.append(f"{record.unfinished:,} abandoned")
    return f"**{plural(record.games, 'game')}** between members: {', '.join(parts)}"


def stats_embed(
    stats: Stats,
    player: discord.abc.User,
    guild_name: str,
    game: str = TICTACTOE,
    *,
    asker_id: int | None = None,
) -> discord.Embed:
    """The server's figures and ``player``'s (the asker's own: "You"; another member's,
    by their name)."""

    def beatable(v) -> str:
        if not v.beatable:
            return "✅ unbeatable"
        return f"still beatable: {plural(v.losing_lines, 'way')} to beat me"

    look = look_of(game)
    embed = discord.Embed(title=f"{look.game.title} in {guild_name}", colour=NEUTRAL)
    embed.add_field(
        name="This server",
        value=f"{games_text(stats.server)}\n"
        f"{member_games_text(stats.between_members, server=True)}",
        inline=False,
    )
    levels = ""
    if set(stats.player_levels) - {"learning"}:  # their record at each level they played
        levels = "\n" + " · ".join(
            f"{level}: {record_text(record)}"
            for level, record in sorted(
                stats.player_levels.items(), key=lambda item: list(LEVELS).index(item[0])
            )
        )
    embed.add_field(
        name=(
            f"You ({player.display_name})" if asker_id in (None, player.id) else player.display_name
        ),
        value=f"{games_text(stats.player)}{levels}\n"
        f"{member_games_text(stats.player_with_members, server=False)}",
        inline=False,
    )
    embed.add_field(name="Lessons learned", value=str(stats.facts), inline=True)
    embed.add_field(
        name=f"Playing {look.mark(Mark.X)} (first)",
        value=beatable(stats.beatable_as_x),
        inline=True,
    )
    embed.add_field(
        name=f"Playing {look.mark(Mark.O)} (second)",
        value=beatable(stats.beatable_as_o),
        inline=True,
    )
    return embed


def ways_to_beat(lines: int) -> str:
    return "none: unbeatable ✅" if lines == 0 else f"{lines:,}"


def brain_change_text(before: BrainFigures, after: BrainFigures, game: str = TICTACTOE) -> str:
    """Lessons and ways to beat the bot, before → after."""
    look = look_of(game)

    def row(name: str, old: int, new: int, shown=lambda n: f"{n:,}") -> str:
        return f"{name}: {shown(old)} → **{shown(new)}**"

    return "\n".join(
        (
            row("Lessons", before.lessons, after.lessons),
            row(
                f"Ways to beat me as {look.mark(Mark.X)}",
                before.ways_to_beat_as_x,
                after.ways_to_beat_as_x,
                ways_to_beat,
            ),
            row(
                f"Ways to beat me as {look.mark(Mark.O)}",
                before.ways_to_beat_as_o,
                after.ways_to_beat_as_o,
                ways_to_beat,
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
    settings: GuildSettings, timeout_seconds: float, guild_name: str
) -> discord.Embed:
    embed = discord.Embed(title=f"Tic-tac-toe settings in {guild_name}", colour=NEUTRAL)
    timeout = duration_text(timeout_seconds)
    if settings.timeout_minutes is None:
        timeout += " (the bot's default)"
    embed.add_field(name="A game without a move is abandoned after", value=timeout, inline=False)
    channels = settings.play_channels
    embed.add_field(
        name="Games may start in",
        value="every channel" if channels is None else channel_list(channels),
        inline=False,
    )
    embed.set_footer(
        text="Change them with the options of /ttt-admin settings: timeout, allow_channel, "
        "disallow_channel, every_channel."
    )
    return embed


OPPONENT_NAMES = {
    "random": "a random player",
    "self": "myself",
    "teacher": "a teacher who plays the lines that beat me",
}
TRAINING_COLOURS = {"running": 0x5865F2, "done": 0x57F287, "cancelled": 0xFEE75C}


def progress_bar(done: int, total: int, width: int = 20) -> str:
    filled = round(width * done / total) if total else width
    return f"{'█' * filled}{'░' * (width - filled)} {100 * done // max(total, 1)}%"


def training_embed(progress: TrainingProgress) -> discord.Embed:
    """The live progress of a training, and what it changed once it has ended."""
    p = progress
    lines = [
        progress_bar(p.played, p.games),
        f"{p.played:,} / {p.games:,} games · {p.games_per_second:,.0f} games/s"
        + (
            f" · about {duration_text(max(1, p.seconds_left))} left"
            if p.state == "running" and p.seconds_left is not None
            else ""
        ),
        f"Lessons learned so far (saved): **{p.learned:,}**"
        if p.state == "running"
        else f"Lessons learned (saved): **{p.learned:,}**",
    ]
    if p.state == "done":
        lines.insert(0, f"✅ Done: {p.games:,} games in {duration_text(p.seconds)}.")
    elif p.state == "cancelled":
        lines.insert(0, f"⏹️ Cancelled by <@{p.ended_by}> after {p.played:,} games.")
    elif p.state == "failed":
        lines.insert(0, f"⚠️ The training stopped ({p.error}). What it learned is saved.")
    if p.after is not None:
        lines += ["", brain_change_text(p.before, p.after, p.game)]
    game = "" if p.game == TICTACTOE else f" at {look_of(p.game).game.title}"
    embed = discord.Embed(
        title=f"🏋️ Training{game} against {OPPONENT_NAMES[p.opponent]}",
        description="\n".join(lines),
        colour=TRAINING_COLOURS.get(p.state, NEUTRAL),
    )
    if p.state == "running":
        embed.set_footer(
            text="Games go on meanwhile. Any admin can cancel; what I learned is kept."
        )
    return embed


def interrupted_training_embed(run: TrainingRecord) -> discord.Embed:
    return discord.Embed(
        title=f"🏋️ Training against {OPPONENT_NAMES[run.opponent]}",
        description=f"⚠️ Interrupted by a restart after {run.played:,} of {run.games:,} games. "
        f"The {plural(run.learned, 'lesson')} it had saved stay{'s' * (run.learned == 1)}.",
        colour=NEUTRAL,
    )


def brain_embed(view: BrainView, title: str) -> discord.Embed:
    """A position as the memory sees it: each legal move a proven win, a proven loss or
    unknown for the player to move, and the move the bot would play there."""
    board = view.board
    look = look_of(board.game.name)
    rows = look.brain_rows(board, view.outlook)

    def moves(outcome) -> str:
        found = [str(c + 1) for c, known in view.outlook.items() if known is outcome]
        return ", ".join(found) or "none"

    legend = (
        f"🟩 proven win: {moves(WIN)}\n🟥 proven loss: {moves(LOSS)}\n⬜ unknown: {moves(None)}"
    )
    mover = look.mark(board.turn)
    embed = discord.Embed(
        title=title,
        description=f"{rows}\n\nFor {mover}, the player to move:\n{legend}\n\n"
        f"I would play **{look.short(view.choice)}** here: {view.why}.",
        colour=NEUTRAL,
    )
    embed.set_footer(text=look.brain_footer)
    return embed


LEADERBOARD_TITLES = {
    "lessons": "lessons taught",
    "wins": "wins against me",
    "games": "games played",
}


def standing_line(row: Standing, by: str) -> str:
    figures = {
        "lessons": plural(row.lessons, "lesson"),
        "wins": plural(row.wins, "win"),
        "games": plural(row.games, "game"),
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
) -> discord.Embed:
    """The top 10, and the caller's own line below when they are not in it. Members are
    shown as mentions (names, for whoever can see them), and nobody is pinged."""
    command = COMMANDS[game]
    lines = [standing_line(row, by) for row in top] or [
        f"Nobody yet. Play `{command} play`: every game I lose teaches me something."
    ]
    if own is not None and all(row.player_id != player_id for row in top):
        lines += ["…", standing_line(own, by)]
    elif own is None:
        lines += ["", f"You are not on it yet: no {LEADERBOARD_TITLES[by]} so far."]
    title = f"🏆 {guild_name}: {LEADERBOARD_TITLES[by]}"
    if game != TICTACTOE:
        title += f" at {look_of(game).game.title}"
    embed = discord.Embed(
        title=title,
        description="\n".join(lines),
        colour=NEUTRAL,
    )
    embed.set_footer(text="Ties go to whoever got there first.")
    return embed
