"""Games, running and finished: :class:`GameRecord`, how a game is started, played, ended
(with what was learned from it, in the same transaction) and read back.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import astuple, dataclass

from .errors import UniqueViolation
from .memory import ClassicFacts, Snapshot, _add_facts, _snapshot, classic_entries
from .shards import CLASSIC, TICTACTOE, Query, Shards, _owned

# Every id a row can have: SQLite's INTEGER and PostgreSQL's BIGINT are signed 64-bit.
ROW_IDS = range(1, 2**63)

RUNNING = "running"
# How hard the bot plays a game: "learning", all it knows, or an easier level with some
# moves at random (gameflow.service.LEVELS). Rows from before levels are "learning".
LEARNING = "learning"
# How a game ended. "bot_won" is for games against the bot, "opponent_won" for games
# between members (the player's opponent won); a resignation in a game between members
# names who resigned in ended_by.
# A game's post-mortem (the classic board's): owed, then stored with its facts
REVIEW_PENDING = "pending"
REVIEW_DONE = "done"
RESULTS = ("player_won", "bot_won", "opponent_won", "draw", "resigned", "abandoned")


class ChannelBusyError(Exception):
    """A game is already running in the channel."""

    def __init__(self, game: GameRecord) -> None:
        super().__init__(f"a game is already running in channel {game.channel_id}")
        self.game = game


@dataclass(frozen=True, slots=True)
class GameRecord:
    id: int
    guild_id: int
    channel_id: int
    player_id: int
    bot_mark: str  # "X" or "O"
    moves: tuple[int, ...]  # cells 0..8 in play order
    result: str  # RUNNING or one of RESULTS
    message_id: int | None
    started_at: float
    updated_at: float
    ended_by: int | None = None  # the moderator who ended it by hand, or who resigned
    opponent_id: int | None = None  # a member who plays bot_mark; None: the bot
    game: str = TICTACTOE  # which game (engine.GAMES names them)
    level: str = LEARNING  # how hard the bot played (gameflow.service.LEVELS)
    review: str | None = None  # its post-mortem: None none, REVIEW_PENDING or REVIEW_DONE


_GAME_COLUMNS = (
    "id, guild_id, channel_id, player_id, bot_mark, moves, result, message_id, "
    "started_at, updated_at, ended_by, opponent_id, game, level, review"
)


def _game(row: Sequence) -> GameRecord:
    return GameRecord(
        row[0],
        row[1],
        row[2],
        row[3],
        row[4],
        tuple(int(c) for c in row[5]),
        row[6],
        row[7],
        row[8],
        row[9],
        row[10],
        row[11],
        row[12],
        row[13],
        row[14],
    )


@dataclass(frozen=True, slots=True)
class PastGame:
    """A finished game in a member's history: the game, when it ended, and how many
    lessons stored today name it as their teacher (0: it taught nothing, or what it
    taught was forgotten since by a reset)."""

    game: GameRecord
    ended_at: float
    lessons: int


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """A finished game to replay: the game, when it ended, and the facts it taught that
    are still known, each ``(position, outcome, plies or None)``: the canonical position
    right after a move (on the game's path, or on the classic board also a column its
    post-mortem valued beside the one played; there as its key, the position's code), the
    outcome for whoever made that move."""

    game: GameRecord
    ended_at: float
    facts: tuple[tuple[str | int, str, int | None], ...]


# how many finished games a member's history shows
HISTORY_LENGTH = 25


def _moves_text(moves: Iterable[int]) -> str:
    return "".join(str(c) for c in moves)


class GameQueries:
    """Games against the bot or between members, from start to end."""

    _fetch: Query
    _write: Query

    async def start_game(
        self,
        guild_id: int,
        channel_id: int,
        player_id: int,
        bot_mark: str,
        moves: Sequence[int],
        *,
        now: float,
        opponent_id: int | None = None,
        game: str = TICTACTOE,
        level: str = LEARNING,
    ) -> GameRecord:
        """Start a game of ``game`` against the bot (at ``level``), or (with
        ``opponent_id``) between members."""
        # the row comes back from the write itself: read in a second request, a connection
        # lost in between would say "nothing was played" of a game that was stored
        try:
            rows = await self._write(
                [
                    (
                        "INSERT INTO games (guild_id, channel_id, player_id, bot_mark, moves,"
                        " result, started_at, updated_at, opponent_id, game, level)"
                        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                        f" RETURNING {_GAME_COLUMNS}",
                        (
                            guild_id,
                            channel_id,
                            player_id,
                            bot_mark,
                            _moves_text(moves),
                            RUNNING,
                            now,
                            now,
                            opponent_id,
                            game,
                            level,
                        ),
                    )
                ],
                rows_of=0,
            )
        except UniqueViolation:
            running = await self.running_game(channel_id)
            if running is None:  # it ended in between; let the caller try again
                raise
            raise ChannelBusyError(running) from None
        return _game(rows[0])

    async def record_moves(
        self, game_id: int, before: Sequence[int], moves: Sequence[int], *, now: float
    ) -> None:
        """Store the moves of a running game that had exactly ``before`` when it was read.

        Raises :class:`StaleGameError` (writing nothing) if it has changed since.
        """
        await self._write(
            [
                (
                    "UPDATE games SET moves = ?, updated_at = ?"
                    " WHERE id = ? AND result = ? AND moves = ? RETURNING id",
                    (_moves_text(moves), now, game_id, RUNNING, _moves_text(before)),
                )
            ],
            guarded=True,
        )

    async def set_message(self, game_id: int, message_id: int) -> None:
        await self._write(
            [
                ("UPDATE games SET message_id = ? WHERE id = ?", (message_id, game_id)),
            ]
        )

    async def finish_game(
        self,
        game_id: int,
        guild_id: int,
        before: Sequence[int],
        moves: Sequence[int],
        result: str,
        facts: Iterable[tuple[str, str]] | ClassicFacts = (),
        *,
        now: float,
        ended_by: int | None = None,
        snapshot: Snapshot | None = None,
        memory_version: int | None = None,
        game: str = TICTACTOE,
        review: bool = False,
        ratings: Sequence[tuple] = (),
    ) -> None:
        """Store a game's end (of ``game``), what was learned from it (credited to the game), the
        counters (by triggers) and, if the game changed what the bot knows, the learning
        curve's next point (``snapshot``), in one transaction.

        The game must still be running with exactly ``before``, and the server's memory
        still at ``memory_version`` (the one learned into), if given; otherwise nothing
        is written and :class:`StaleGameError` is raised. ``review``: a post-mortem is owed
        (:meth:`finish_review` stores it). ``ratings``: the statements of the game's rating
        update (:func:`data.ratings.rating_statements`), in the same transaction.
        """
        if result not in RESULTS:
            raise ValueError(f"unknown result {result!r}")
        statements = [
            (
                "UPDATE games SET moves = ?, result = ?, updated_at = ?, ended_at = ?,"
                " ended_by = ?, lessons_after = ?, beat_x_after = ?, beat_o_after = ?,"
                " review = ?"
                " WHERE id = ? AND result = ? AND moves = ?"
                + (
                    ""
                    if memory_version is None
                    else " AND COALESCE((SELECT version FROM memory_versions"
                    " WHERE guild_id = ? AND game = ?), 0) = ?"
                )
                + " RETURNING id",
                (
                    _moves_text(moves),
                    result,
                    now,
                    now,
                    ended_by,
                    *(astuple(snapshot) if snapshot else (None, None, None)),
                    REVIEW_PENDING if review else None,
                    game_id,
                    RUNNING,
                    _moves_text(before),
                    *(() if memory_version is None else (guild_id, game, memory_version)),
                ),
            )
        ]
        facts = facts if isinstance(facts, ClassicFacts) else list(facts)
        # Triggers count the game, add its curve point and credit each new lesson: this
        # is one statement, or two with lessons (see migrations).
        if facts:
            statements.append(_add_facts(guild_id, game, facts, now=now, game_id=game_id))
        statements += ratings
        await self._write(statements, guarded=True)

    async def finish_review(
        self,
        game_id: int,
        guild_id: int,
        facts: Iterable[tuple[str, str]] | ClassicFacts,
        *,
        now: float,
        game: str = TICTACTOE,
        snapshot: Snapshot | None = None,
    ) -> None:
        """Store a game's post-mortem: its facts (credited to the game), the review done
        and, if it taught something (``snapshot``), the learning curve's point for what
        the bot knows now, in one transaction: its lessons belong to the game that taught
        them, not to whichever game comes next. Raises :class:`StaleGameError`, writing
        nothing, if the review is not pending (another run stored it)."""
        statements = [
            (
                "UPDATE games SET review = ? WHERE id = ? AND review = ? RETURNING id",
                (REVIEW_DONE, game_id, REVIEW_PENDING),
            )
        ]
        facts = facts if isinstance(facts, ClassicFacts) else list(facts)
        if facts:
            statements.append(_add_facts(guild_id, game, facts, now=now, game_id=game_id))
        if snapshot is not None:
            statements.append(_snapshot(guild_id, game, snapshot))
        await self._write(statements, guarded=True)

    async def pending_reviews(self, shards: Shards | None = None) -> list[GameRecord]:
        """The games whose post-mortem is owed (a kill interrupted it), oldest first."""
        owned, params = _owned(shards)
        rows = await self._fetch(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE review = ?{owned} ORDER BY id",
            (REVIEW_PENDING, *params),
        )
        return [_game(row) for row in rows]

    async def game(self, game_id: int) -> GameRecord | None:
        """A game, running or finished. An id no row can have (a forged custom id's digits)
        is no game: the driver would raise OverflowError on it."""
        if game_id not in ROW_IDS:
            return None
        rows = await self._fetch(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return _game(rows[0]) if rows else None

    async def running_game(self, channel_id: int) -> GameRecord | None:
        rows = await self._fetch(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = ? AND result = ?",
            (channel_id, RUNNING),
        )
        return _game(rows[0]) if rows else None

    async def running_games(self, shards: Shards | None = None) -> list[GameRecord]:
        owned, params = _owned(shards)
        rows = await self._fetch(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE result = ?{owned} ORDER BY id",
            (RUNNING, *params),
        )
        return [_game(row) for row in rows]

    async def recent_games(
        self,
        guild_id: int,
        member_id: int,
        games: Sequence[str],
        *,
        limit: int = HISTORY_LENGTH,
    ) -> list[PastGame]:
        """A member's last ``limit`` finished games in a place (a server, or a player's own
        bot), newest first: against the bot and between members (on either side), of the
        ``games`` named (engine.GAMES' names: every board of a command, or one), each with
        how many lessons it taught that are still known.

        One statement: per game and side, the newest rows straight off an index that ends
        in the id, then the newest of those; only the rows shown count their lessons."""
        arms, params = [], []
        for number, (side, game) in enumerate(
            (side, game) for game in dict.fromkeys(games) for side in ("player_id", "opponent_id")
        ):
            arms.append(
                f"SELECT * FROM (SELECT {_GAME_COLUMNS}, COALESCE(ended_at, updated_at) AS ended"
                f" FROM games WHERE guild_id = ? AND {side} = ? AND game = ? AND result != ?"
                f" ORDER BY id DESC LIMIT {int(limit)}) AS arm{number}"
            )
            params += [guild_id, member_id, game, RUNNING]
        if not arms:
            return []
        rows = await self._fetch(
            "SELECT shown.*, (SELECT COUNT(*) FROM facts WHERE facts.game_id = shown.id)"
            " + (SELECT COALESCE(SUM(taught), 0) FROM classic_facts"
            " WHERE classic_facts.game_id = shown.id)"
            f" FROM (SELECT * FROM ({' UNION ALL '.join(arms)}) AS found"
            f" ORDER BY id DESC LIMIT {int(limit)}) AS shown ORDER BY shown.id DESC",
            params,
        )
        return [PastGame(_game(row[:15]), row[15], row[16]) for row in rows]

    async def finished_game(self, game_id: int) -> FinishedGame | None:
        """A finished game with the facts it taught that are still known (see
        :class:`FinishedGame`); ``None`` if there is no such game (never was, or deleted
        by forget-me or a server's erasure) or it is still running."""
        if game_id not in ROW_IDS:
            return None
        rows = await self._fetch(
            f"SELECT {_GAME_COLUMNS}, COALESCE(ended_at, updated_at) FROM games"
            " WHERE id = ? AND result != ?",
            (game_id, RUNNING),
        )
        if not rows:
            return None
        record = _game(rows[0][:15])
        if record.game == CLASSIC:
            return FinishedGame(record, rows[0][15], await self._classic_lessons(game_id))
        facts = await self._fetch(
            "SELECT position, outcome FROM facts WHERE game_id = ? ORDER BY position",
            (game_id,),
        )
        return FinishedGame(record, rows[0][15], tuple((p, o, None) for p, o in facts))

    async def _classic_lessons(self, game_id: int) -> tuple[tuple[int, str, int | None], ...]:
        """The facts a classic board's game taught, as ``(key, outcome, plies or None)``:
        its batches' new facts, each with the plies its own post-mortem proved if the
        rules had found it first."""
        rows = await self._fetch(
            "SELECT taught, facts FROM classic_facts WHERE game_id = ? ORDER BY id", (game_id,)
        )
        taught: dict[int, tuple[str, int | None]] = {}
        proved: dict[int, int | None] = {}
        for count, blob in rows:
            blob = bytes(blob)
            for index, (key, outcome, plies) in enumerate(classic_entries(blob, len(blob) // 8)):
                if index < count:
                    taught.setdefault(key, (outcome, plies))
                proved[key] = proved.get(key) if plies is None else plies
        return tuple(
            (key, outcome, plies if plies is not None else proved.get(key))
            for key, (outcome, plies) in sorted(taught.items())
        )
