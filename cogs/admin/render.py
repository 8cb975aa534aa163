"""What ``/ttt-admin`` shows: a memory's change, its file's name, the settings, and
trainings in progress."""

from __future__ import annotations

import datetime
import re

import discord

from cogs.utils.boards import look_of
from cogs.utils.render import NEUTRAL, TICTACTOE, duration_text
from engine import Mark
from gameflow import BrainFigures, GuildSettings, TrainingProgress, TrainingRecord, channel_list
from gameflow.words import mention
from i18n import ENGLISH, N_, Language


def brain_change_text(
    before: BrainFigures, after: BrainFigures, game: str = TICTACTOE, lang: Language = ENGLISH
) -> str:
    """Lessons and ways to beat the bot, before → after (lessons only on the classic
    board, where nobody can count the ways)."""
    look = look_of(game)
    lessons = (
        f"{lang.t('Lessons')}: {lang.number(before.lessons)} → **{lang.number(after.lessons)}**"
    )
    if after.ways_to_beat_as_x is None:
        return lessons

    def ways(side: str, old: int, new: int) -> str:
        # the count is of the ways to beat the bot when it plays that side
        if new == 0:
            return lang.t("{side}: {before} → **0**, unbeatable ✅", side=side, before=old)
        return lang.tn(
            "{side}: {before} → **{count}** way left to beat me",
            "{side}: {before} → **{count}** ways left to beat me",
            new,
            side=side,
            before=old,
        )

    return "\n".join(
        (
            lessons,
            ways(
                lang.t("When I play {mark} (first)", mark=look.mark(Mark.X)),
                before.ways_to_beat_as_x,
                after.ways_to_beat_as_x,
            ),
            ways(
                lang.t("When I play {mark} (second)", mark=look.mark(Mark.O)),
                before.ways_to_beat_as_o,
                after.ways_to_beat_as_o,
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
    lines = [progress_bar(p.played, p.games, lang), figures]
    if p.after is None:  # at the end, the lessons before → after say it
        lines.append(
            lang.t("Lessons learned so far (saved): **{count}**", count=p.learned)
            if p.state == "running"
            else lang.t("Lessons learned (saved): **{count}**", count=p.learned)
        )
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
        title=lang.t("🏋️ Training: {opponent}", opponent=opponent)
        if p.game == TICTACTOE
        else lang.t(
            "🏋️ Training at {game}: {opponent}",
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
        title=lang.t("🏋️ Training: {opponent}", opponent=OPPONENT_NAMES[run.opponent]),
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
