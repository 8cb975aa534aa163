"""Each server's daily puzzle (:class:`DailyPuzzle`): its channel, and the day's post,
claimed before it is posted so that it is posted once (a post cut short is resumed), with
how many solved it. Its answers are counted with the puzzle's (``data/puzzles.py``)."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import StaleGameError
from .puzzles import SERVER
from .shards import Query, Shards, _owned

_DAILY_COLUMNS = "guild_id, channel_id, day, puzzle_id, message_id, solved, tried"


@dataclass(frozen=True, slots=True)
class DailyPuzzle:
    """A server's daily puzzle: its channel (``None``: off), the day (days since the
    epoch, UTC) it was last posted, and that post's puzzle, message and counts."""

    guild_id: int
    channel_id: int | None
    day: int
    puzzle_id: int | None
    message_id: int | None
    solved: int
    tried: int


def _daily(row) -> DailyPuzzle:
    return DailyPuzzle(*row)


class DailyPuzzleQueries:
    """The daily puzzle's channel and posts."""

    _fetch: Query
    _write: Query

    async def daily_puzzle(self, guild_id: int) -> DailyPuzzle | None:
        rows = await self._fetch(
            f"SELECT {_DAILY_COLUMNS} FROM daily_puzzles WHERE guild_id = ?",
            (guild_id,),
        )
        return _daily(rows[0]) if rows else None

    async def set_daily_channel(self, guild_id: int, channel_id: int | None) -> None:
        """Post a daily puzzle in ``channel_id`` (``None``: no more)."""
        await self._write(
            [
                (
                    "INSERT INTO daily_puzzles (guild_id, channel_id, day, solved, tried)"
                    " VALUES (?, ?, 0, 0, 0) ON CONFLICT (guild_id)"
                    " DO UPDATE SET channel_id = excluded.channel_id",
                    (guild_id, channel_id),
                )
            ]
        )

    async def dailies_due(self, day: int, shards: Shards | None = None) -> list[DailyPuzzle]:
        """The servers (of ``shards``) whose daily puzzle is not posted yet on ``day``."""
        owned, params = _owned(shards)
        rows = await self._fetch(
            f"SELECT {_DAILY_COLUMNS}"
            f" FROM daily_puzzles WHERE channel_id IS NOT NULL AND day < ?{owned}"
            " ORDER BY guild_id",
            (day, *params),
        )
        return [_daily(row) for row in rows]

    async def claim_daily(self, guild_id: int, day: int, puzzle_id: int, now: float) -> bool:
        """Take ``day``'s post of a server, before it is posted: whoever claims it posts,
        once (another process, or a restart, finds it taken). False if it was. The puzzle
        is noted as posed publicly in the same transaction (members may answer it)."""
        try:
            await self._write(
                [
                    (
                        "UPDATE daily_puzzles SET day = ?, puzzle_id = ?, message_id = NULL,"
                        " solved = 0, tried = 0, claimed_at = ? WHERE guild_id = ? AND day < ?"
                        " AND channel_id IS NOT NULL RETURNING guild_id",
                        (day, puzzle_id, now, guild_id, day),
                    ),
                    (
                        "INSERT INTO puzzle_tries (guild_id, member_id, puzzle_id, posed_at)"
                        " VALUES (?, ?, ?, ?) ON CONFLICT (member_id, puzzle_id)"
                        " DO UPDATE SET posed_at = excluded.posed_at",
                        (guild_id, SERVER, puzzle_id, now),
                    ),
                ],
                guarded=True,
            )
        except StaleGameError:
            return False
        return True

    async def unsaved_dailies(
        self, day: int, claimed_before: float, shards: Shards | None = None
    ) -> list[DailyPuzzle]:
        """The servers (of ``shards``) whose post of ``day`` was claimed before
        ``claimed_before`` and has no message saved: cut short (a kill, a failed send)."""
        owned, params = _owned(shards)
        rows = await self._fetch(
            f"SELECT {_DAILY_COLUMNS}"
            " FROM daily_puzzles WHERE channel_id IS NOT NULL AND day = ?"
            f" AND message_id IS NULL AND puzzle_id IS NOT NULL AND claimed_at < ?{owned}"
            " ORDER BY guild_id",
            (day, claimed_before, *params),
        )
        return [_daily(row) for row in rows]

    async def resume_daily(
        self, guild_id: int, day: int, now: float, claimed_before: float
    ) -> bool:
        """Take over ``day``'s post of a server that was claimed before ``claimed_before``
        and has no message saved: whoever takes it looks for the post, and posts it if it
        is not there (another process finds it taken, until it is cut short again)."""
        rows = await self._write(
            [
                (
                    "UPDATE daily_puzzles SET claimed_at = ? WHERE guild_id = ? AND day = ?"
                    " AND message_id IS NULL AND channel_id IS NOT NULL AND claimed_at < ?"
                    " RETURNING guild_id",
                    (now, guild_id, day, claimed_before),
                )
            ]
        )
        return bool(rows)

    async def set_daily_message(self, guild_id: int, day: int, message_id: int) -> None:
        await self._write(
            [
                (
                    "UPDATE daily_puzzles SET message_id = ? WHERE guild_id = ? AND day = ?",
                    (message_id, guild_id, day),
                )
            ]
        )
