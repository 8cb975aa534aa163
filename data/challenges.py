"""Invitations to games between members: opened, answered (turned into a running game in
one transaction), withdrawn or expired.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import StaleGameError
from .games import _GAME_COLUMNS, RUNNING, GameRecord, _game
from .shards import _ID, _TEXT, _TIME, TICTACTOE, Query, Shards, _owned


@dataclass(frozen=True, slots=True)
class ChallengeRecord:
    """An invitation to a game between members, waiting for an answer."""

    id: int
    guild_id: int
    channel_id: int
    challenger_id: int
    opponent_id: int | None  # None: open to any member
    first: str  # who moves first: "me" (the challenger), "them" or "random"
    message_id: int | None
    expires_at: float
    game: str = TICTACTOE


_CHALLENGE_COLUMNS = (
    "id, guild_id, channel_id, challenger_id, opponent_id, first, message_id, expires_at, game"
)


class ChallengeQueries:
    """Invitations waiting for an answer."""

    _fetch: Query
    _write: Query

    async def open_challenge(
        self,
        guild_id: int,
        channel_id: int,
        challenger_id: int,
        opponent_id: int | None,
        first: str,
        *,
        now: float,
        expires_at: float,
        game: str = TICTACTOE,
    ) -> ChallengeRecord | None:
        """Store an invitation, unless the channel has a game or a live invitation (then
        ``None``). An expired invitation left in the channel gives way."""
        rows = await self._write(
            [
                (
                    "DELETE FROM challenges WHERE channel_id = ? AND expires_at <= ?",
                    (channel_id, now),
                ),
                (
                    "INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id,"
                    f" first, expires_at, game)"
                    f" SELECT {_ID}, {_ID}, {_ID}, {_ID}, {_TEXT}, {_TIME}, {_TEXT}"
                    " WHERE NOT EXISTS"
                    " (SELECT 1 FROM games WHERE channel_id = ? AND result = ?)"
                    " ON CONFLICT (channel_id) DO NOTHING"
                    f" RETURNING {_CHALLENGE_COLUMNS}",
                    (
                        guild_id,
                        channel_id,
                        challenger_id,
                        opponent_id,
                        first,
                        expires_at,
                        game,
                        channel_id,
                        RUNNING,
                    ),
                ),
            ],
            rows_of=1,
        )
        return ChallengeRecord(*rows[0]) if rows else None

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        await self._write(
            [("UPDATE challenges SET message_id = ? WHERE id = ?", (message_id, challenge_id))]
        )

    async def close_challenge(self, challenge_id: int) -> bool:
        """Take an invitation away (declined, withdrawn or expired); ``False`` if it was
        already gone (answered elsewhere)."""
        rows = await self._write(
            [("DELETE FROM challenges WHERE id = ? RETURNING id", (challenge_id,))]
        )
        return bool(rows)

    async def accept_challenge(
        self,
        challenge_id: int,
        player_id: int,
        opponent_id: int,
        opponent_mark: str,
        *,
        now: float,
    ) -> GameRecord:
        """Turn a live invitation into a running game, in one transaction. Raises
        :class:`StaleGameError` if it was answered, withdrawn or expired meanwhile."""
        try:
            (row,) = await self._write(
                [
                    (
                        "INSERT INTO games (guild_id, channel_id, player_id, bot_mark, moves,"
                        " result, started_at, updated_at, opponent_id, game)"
                        f" SELECT guild_id, channel_id, {_ID}, {_TEXT}, '', {_TEXT}, {_TIME},"
                        f" {_TIME}, {_ID}, game FROM challenges"
                        f" WHERE id = ? AND expires_at > ? RETURNING {_GAME_COLUMNS}",
                        (
                            player_id,
                            opponent_mark,
                            RUNNING,
                            now,
                            now,
                            opponent_id,
                            challenge_id,
                            now,
                        ),
                    ),
                    ("DELETE FROM challenges WHERE id = ?", (challenge_id,)),
                ],
                guarded=True,
            )
        except StaleGameError:
            raise StaleGameError("the challenge was answered or expired meanwhile") from None
        return _game(row)  # from the write itself, as a started game is (GameQueries)

    async def pending_challenges(self, shards: Shards | None = None) -> list[ChallengeRecord]:
        owned, params = _owned(shards)
        rows = await self._fetch(
            f"SELECT {_CHALLENGE_COLUMNS} FROM challenges WHERE TRUE{owned} ORDER BY id", params
        )
        return [ChallengeRecord(*row) for row in rows]
