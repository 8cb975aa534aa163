"""Trainings, runs of games the bot plays against a random player, itself or a teacher:
their progress, saved with what they taught in one transaction, and those a stopped
process left running.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .memory import Snapshot, _add_facts, _snapshot
from .shards import TICTACTOE, Query, Shards, _owned


@dataclass(frozen=True, slots=True)
class TrainingRecord:
    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    started_by: int
    opponent: str
    games: int
    played: int
    learned: int
    status: str
    ended_by: int | None
    game: str = TICTACTOE


_TRAINING_COLUMNS = (
    "id, guild_id, channel_id, message_id, started_by, opponent, games, played, learned, "
    "status, ended_by, game"
)


class TrainingQueries:
    """Trainings, started, saved and interrupted."""

    _fetch: Query
    _write: Query

    async def start_training(
        self,
        guild_id: int,
        channel_id: int,
        started_by: int,
        opponent: str,
        games: int,
        *,
        now: float,
        game: str = TICTACTOE,
    ) -> int:
        ((run_id,),) = await self._write(
            [
                (
                    "INSERT INTO trainings (guild_id, channel_id, started_by, opponent, games,"
                    " played, learned, status, started_at, updated_at, game)"
                    " VALUES (?, ?, ?, ?, ?, 0, 0, 'running', ?, ?, ?) RETURNING id",
                    (guild_id, channel_id, started_by, opponent, games, now, now, game),
                )
            ]
        )
        return run_id

    async def set_training_message(self, run_id: int, message_id: int) -> None:
        await self._write(
            [("UPDATE trainings SET message_id = ? WHERE id = ?", (message_id, run_id))]
        )

    async def save_training(
        self,
        run_id: int,
        guild_id: int,
        facts: Iterable[tuple[str, str]],
        *,
        played: int,
        learned: int,
        status: str,
        now: float,
        ended_by: int | None = None,
        snapshot: Snapshot | None = None,
        game: str = TICTACTOE,
    ) -> None:
        """Store a training's new facts (of ``game``) with its progress (and, at its end,
        the learning curve's next point), in one transaction."""
        await self._write(
            [
                (
                    "UPDATE trainings SET played = ?, learned = ?, status = ?, ended_by = ?,"
                    " updated_at = ? WHERE id = ? RETURNING id",
                    (played, learned, status, ended_by, now, run_id),
                ),
                _add_facts(guild_id, game, facts, now=now),
                *([_snapshot(guild_id, game, snapshot, training=True)] if snapshot else []),
            ]
        )

    async def interrupt_trainings(
        self, *, now: float, shards: Shards | None = None
    ) -> list[TrainingRecord]:
        """Mark the trainings a stopped process left running (on ``shards``) as
        interrupted; return them."""
        owned, params = _owned(shards)
        rows = await self._write(
            [
                (
                    "UPDATE trainings SET status = 'interrupted', updated_at = ?"
                    f" WHERE status = 'running'{owned} RETURNING {_TRAINING_COLUMNS}",
                    (now, *params),
                )
            ]
        )
        return [TrainingRecord(*row) for row in rows]
