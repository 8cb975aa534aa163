"""The terminal's tools for a memory: ``train`` (with its bar, redrawn in place),
``stats``, ``export`` and ``import``."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from gameflow import BrainFigures, GameError, GameService
from gameflow.ratings import bot_rating, rebuild, rebuild_puzzles
from gameflow.training import TrainingProgress

from .common import PLAYER, channel_of, columns, fail, plural, say

BAR = (10, 30)  # the progress bar's narrowest and widest


def progress_line(p: TrainingProgress, width: int | None = None) -> str:
    """The bar and its figures on one line of at most ``width`` characters (the terminal's),
    redrawn in place: the bar narrows first, then the least needed figures go."""
    width = columns() if width is None else width
    figures = [f"{p.played:,}/{p.games:,} games", f"{p.learned:,} new lessons"]
    if p.state == "running" and p.seconds_left:
        figures.append(f"{p.seconds_left:,.0f} s left")
    figures.append(f"{p.games_per_second:,.0f} games/s")
    while True:
        text = " · ".join(figures)
        bar = min(BAR[1], width - len(text) - 1)
        if bar >= BAR[0] or len(figures) == 1:
            break
        figures.pop()  # the speed first, then the time left, then the lessons
    bar = max(bar, 0)
    filled = round(bar * p.played / p.games)
    line = f"{'█' * filled}{'░' * (bar - filled)} {text}"[:width]
    return f"\r{line.ljust(width)}"  # spaces over what a longer line left


def change_text(before: BrainFigures, after: BrainFigures) -> str:
    if after.ways_to_beat_as_x is None:  # the classic board: no exhaustive search
        return f"lessons {before.lessons:,} → {after.lessons:,}"
    return (
        f"lessons {before.lessons:,} → {after.lessons:,}; ways to beat me as X "
        f"{before.ways_to_beat_as_x:,} → {after.ways_to_beat_as_x:,}, as O "
        f"{before.ways_to_beat_as_o:,} → {after.ways_to_beat_as_o:,}"
    )


async def train(service: GameService, server: int, opponent: str, games: int, game: str) -> int:
    run = await service.trainer.start(server, channel_of(server), PLAYER, opponent, games, game)
    progress = None
    try:
        async for progress in run.updates():
            print(progress_line(progress), end="", flush=True)
    except (KeyboardInterrupt, asyncio.CancelledError):
        run.cancel(PLAYER)  # Ctrl-C: what was saved stays
        print("\nCancelled: the lessons shown were saved.")
        return 1
    print()
    say(f"Done: {change_text(progress.before, progress.after)}.")
    return 0


async def stats(service: GameService, server: int, game: str) -> int:
    """The record from the players' side, as ``/ttt stats`` tells it ("you" at the
    terminal's own memory, "players" at a server's), and what the bot knows: on the
    classic board, where its lessons came from and how the last games went."""
    record = await service.scoreboard.record(server, game=game)
    who = "players" if server else "you"
    say(
        f"{plural(record.games, 'game')} against me: {who} won {record.bot_losses:,}, lost "
        f"{record.bot_wins:,}, drew {record.draws:,}; {record.unfinished:,} abandoned."
    )
    bot = await bot_rating(service.store, server, game, service.clock())
    mark = " (provisional)" if bot.rating.provisional else ""
    say(f"My rating: {bot.rating.points:,}{mark}, {bot.change:+,} in 30 days.")
    figures = await service.brain.figures(server, game)
    if figures.ways_to_beat_as_x is None:  # the classic board: no exhaustive search
        classic = (await service.scoreboard.stats(server, PLAYER, game)).classic
        say(
            f"{plural(figures.lessons, 'lesson')}: {classic.by_post_mortem:,} from looking back "
            f"at games, {classic.by_rules:,} by the rules."
        )
        if classic.recent_games:
            say(
                f"Lately {who} won {classic.recent_losses:,} of the last "
                f"{plural(classic.recent_games, 'game')}."
            )
        return 0
    say(
        f"{plural(figures.lessons, 'lesson')}. Ways to beat me as X (moving first): "
        f"{figures.ways_to_beat_as_x:,}; as O (moving second): {figures.ways_to_beat_as_o:,}."
    )
    return 0


async def export(service: GameService, server: int, path: Path, game: str) -> int:
    document = await service.brain.export(server, game)
    try:
        path.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    except OSError as error:
        raise GameError(f"Cannot write {path}: {error.strerror or error}.") from None
    say(f"Wrote {len(document['facts']):,} lessons to {path}.")
    return 0


async def import_(
    service: GameService, server: int, path: Path, replace: bool, yes: bool, game: str
) -> int:
    try:
        data = path.read_bytes()
    except OSError as error:
        raise GameError(f"Cannot read {path}: {error.strerror or error}.") from None
    plan = await service.brain.plan_import(server, data, "replace" if replace else "merge", game)
    if plan.changes_nothing:
        say(f"Nothing to import: I know all {plural(plan.known, 'lesson')} in {path} already.")
        return 0
    dropped = f", and {plural(plan.dropped, 'lesson')} of mine dropped" if plan.dropped else ""
    say(
        f"{plan.new:,} new lessons, {plan.known:,} known already{dropped}; "
        f"{change_text(plan.before, plan.after)}."
    )
    if not yes:
        try:
            answer = input("Import? [y/N] ").strip().lower()
        except EOFError:
            answer = ""
        if answer not in ("y", "yes"):
            print("Nothing was imported.")
            return 1
    await service.brain.apply_import(plan)
    print("Imported.")
    return 0


async def ratings(service: GameService, rebuild_them: bool) -> int:
    """``ratings --rebuild``: every rating recomputed from the stored games, and every
    puzzle rating from the stored first answers."""
    if not rebuild_them:
        return fail(
            "Say --rebuild to recompute every rating from the stored games and puzzle answers."
        )
    done = await rebuild(service.store)
    say(
        f"Rebuilt {plural(sum(done.values()), 'rating')} on "
        f"{plural(len(done), 'board')} of {plural(len({g for g, _ in done}), 'place')}."
    )
    puzzles = await rebuild_puzzles(service.store)
    say(
        f"Rebuilt {plural(sum(puzzles.values()), 'puzzle rating')} of members, and their "
        f"puzzles', in {plural(len(puzzles), 'place')}."
    )
    return 0
