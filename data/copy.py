"""Copy a bot's whole database into another, such as SQLite into PostgreSQL:
``python -m data.copy SOURCE TARGET``

SOURCE and TARGET are what DATABASE_URL takes: ``postgresql://…``, ``sqlite:///path`` or a
bare path. The target is brought to the latest schema first and must hold no games or
lessons yet. Every table is copied as it is, ids included, so a running game, an
invitation or an old board's buttons go on working on the target. Stop the bot first.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from .errors import StoreError
from .migrations import Rows
from .store import Store

# Every table, in an order that keeps the triggers quiet: lessons are copied before the
# per-member counters (their credit trigger then finds no counter to add to), and the
# counters are copied as they are, not recounted.
TABLES: dict[str, str] = {
    "meta": "key, value",
    "guild_settings": "guild_id, timeout_minutes, play_channels",
    "games": "id, guild_id, channel_id, player_id, bot_mark, moves, result, message_id,"
    " started_at, updated_at, ended_at, ended_by, lessons_after, beat_x_after, beat_o_after,"
    " opponent_id, game, level, review",
    "facts": "guild_id, game, position, outcome, learned_at, game_id, plies",
    "classic_facts": "id, guild_id, game, game_id, learned_at, taught, facts",
    "loss_blocks": "guild_id, game, block, games, losses",
    "trainings": "id, guild_id, channel_id, message_id, started_by, opponent, games, played,"
    " learned, status, ended_by, started_at, updated_at, game",
    "curve": "id, guild_id, game, games, lessons, beat_x, beat_o, training",
    "challenges": "id, guild_id, channel_id, challenger_id, opponent_id, first, message_id,"
    " expires_at, game",
    "memory_versions": "guild_id, game, version",
    "departures": "guild_id, left_at",
    "server_counts": "guild_id, game, games, bot_wins, bot_losses, draws, unfinished, member_games,"
    " member_decided, member_draws, member_unfinished",
    "player_counts": "guild_id, game, player_id, games, bot_wins, bot_losses, draws, unfinished,"
    " lessons, games_at, wins_at, lessons_at, member_games, member_wins, member_losses,"
    " member_draws, learning_wins",
    "puzzles": "id, guild_id, game, key, moves, kind, answer, draws, game_id, player_id,"
    " other_id, found, beat_bot, played_at, line, plies, mu, sigma, answers",
    "puzzle_tries": "guild_id, member_id, puzzle_id, posed_at, answer, solved, ordinal",
    "puzzle_records": "guild_id, game, member_id, solved, tried, streak, day, solved_at",
    "daily_puzzles": (
        "guild_id, channel_id, day, puzzle_id, message_id, solved, tried, claimed_at"
    ),
    "puzzle_scans": "guild_id, game, scanned_to",
    "ratings": "guild_id, board, player_id, mu, sigma",
    "bot_ratings": "id, guild_id, game, at, mu, sigma, event, games",
}


async def copy_database(source: Store, target: Store) -> dict[str, int]:
    """Copy every table of ``source`` into the empty ``target``, in one transaction;
    return the rows copied per table."""
    held = {table: (await target._fetch(f"SELECT COUNT(*) FROM {table}"))[0][0] for table in TABLES}
    if any(held.values()):
        rows = ", ".join(f"{table}: {count:,}" for table, count in held.items() if count)
        raise StoreError(f"the target database already holds rows ({rows}); copy into an empty one")
    statements, copied = [], {}
    for table, columns in TABLES.items():
        rows = await source._fetch(f"SELECT {columns} FROM {table}")
        marks = ", ".join("?" * len(columns.split(",")))
        statements.append((f"INSERT INTO {table} ({columns}) VALUES ({marks})", Rows(rows)))
        copied[table] = len(rows)
    statements += target._driver.after_copy(
        ["games", "trainings", "curve", "challenges", "classic_facts", "puzzles", "bot_ratings"]
    )
    await target._write(statements)
    return copied


def sqlite_path(url: str) -> Path | None:
    """The file a SQLite URL (or a bare path) names; ``None`` for PostgreSQL."""
    if url.startswith(("postgresql://", "postgres://")):
        return None
    return Path(url.removeprefix("sqlite://").removeprefix("/") if "://" in url else url)


async def _main(source_url: str, target_url: str) -> dict[str, int]:
    path = sqlite_path(source_url)
    if path is not None and not path.exists():  # opening it would create an empty one
        raise StoreError(f"there is no database at {path}; name the bot's database file")
    source = await Store.connect(source_url)
    try:
        target = await Store.connect(target_url)
        try:
            return await copy_database(source, target)
        finally:
            await target.close()
    finally:
        await source.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m data.copy", description=__doc__.splitlines()[0]
    )
    parser.add_argument("source", help="the database to copy, e.g. data/ttt.sqlite3")
    parser.add_argument("target", help="the new database, e.g. postgresql://bot@host/ttt")
    args = parser.parse_args(argv)
    try:
        copied = asyncio.run(_main(args.source, args.target))
    except StoreError as error:
        print(f"Cannot copy: {error}.", file=sys.stderr)
        return 2
    print(
        f"Copied {copied['games']:,} games, {copied['facts']:,} lessons (and"
        f" {copied['classic_facts']:,} batches of the classic board's) and "
        f"{copied['trainings']:,} trainings ({sum(copied.values()):,} rows in all)."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
