"""The only place that speaks SQL: per-server memory, game history, running games.

The queries are written once; a driver runs them (``data/sqlite.py``: one aiosqlite
connection in WAL mode). Every method that changes something commits
before it returns, so whatever the bot announces afterwards is already on disk. Every
write to a running game is conditional on the state it was computed from, so two
processes on one database (an overlapping deploy) cannot overwrite each other's moves.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import astuple, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import StaleGameError, UniqueViolation
from .migrations import Rows
from .sqlite import SYNCHRONOUS, SQLiteDriver

if TYPE_CHECKING:
    from .postgres import PostgresDriver

RUNNING = "running"
# Each server has a memory, counters, a curve, games, invitations and trainings per game;
# rows from before there were games are tic-tac-toe's.
TICTACTOE = "tictactoe"
# How hard the bot plays a game: "learning", all it knows, or an easier level with some
# moves at random (gameflow.service.LEVELS). Rows from before levels are "learning".
LEARNING = "learning"
# How a game ended. "bot_won" is for games against the bot, "opponent_won" for games
# between members (the player's opponent won); a resignation in a game between members
# names who resigned in ended_by.
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


@dataclass(frozen=True, slots=True)
class Snapshot:
    """What the bot knows at one moment: a point of the learning curve."""

    lessons: int
    beat_x: int | None  # ways to beat it playing X (None: not counted, see engine.Game)
    beat_o: int | None


@dataclass(frozen=True, slots=True)
class CurvePoint:
    games: int  # the server's finished games at that moment
    lessons: int
    beat_x: int | None  # None: not counted after that game (see Snapshot)
    beat_o: int | None
    training: bool  # after a training rather than a game


_COUNT_COLUMNS = "games, bot_wins, bot_losses, draws, unfinished"

# Parameters in a SELECT list have no column to take their type from; PostgreSQL needs it
# said (SQLite takes these casts as plain affinities)
_ID, _INT, _TEXT, _TIME = (
    f"CAST(? AS {kind})" for kind in ("BIGINT", "INTEGER", "TEXT", "DOUBLE PRECISION")
)


@dataclass(frozen=True, slots=True)
class Shards:
    """The shards one process of a cluster runs: it owns the servers on them, and only
    picks up their running games, invitations and trainings."""

    count: int
    ids: tuple[int, ...]

    def owns(self, guild_id: int) -> bool:
        # Discord's rule for a server's shard; a player's own bot (a negative id: see
        # gameflow.places) is played in DMs, which Discord sends to shard 0
        return (0 if guild_id < 0 else (guild_id >> 22) % self.count) in self.ids


def _owned(shards: Shards | None) -> tuple[str, tuple]:
    """A WHERE condition (with its parameters) for the servers of ``shards``, or all: its
    ids as ranges, so that thousands of shards take a few parameters, not thousands."""
    if shards is None or len(shards.ids) == shards.count:
        return "", ()
    ranges: list[list[int]] = []
    for shard in sorted(shards.ids):
        if ranges and shard == ranges[-1][1] + 1:
            ranges[-1][1] = shard
        else:
            ranges.append([shard, shard])
    shard_of = "(CASE WHEN guild_id < 0 THEN 0 ELSE (guild_id >> 22) % ? END)"  # see owns
    condition = " OR ".join(f"{shard_of} BETWEEN ? AND ?" for _ in ranges)
    return f" AND ({condition})", tuple(
        v for low, high in ranges for v in (shards.count, low, high)
    )


def _bump(guild_id: int, game: str) -> tuple:
    """The statement that bumps a server's memory version, returning the new one."""
    return (
        "INSERT INTO memory_versions (guild_id, game, version) VALUES (?, ?, 1)"
        " ON CONFLICT (guild_id, game)"
        " DO UPDATE SET version = memory_versions.version + 1 RETURNING version",
        (guild_id, game),
    )


def _snapshot(guild_id: int, game: str, snapshot: Snapshot, *, training: bool = False) -> tuple:
    return (
        "INSERT INTO curve (guild_id, game, games, lessons, beat_x, beat_o, training)"
        f" SELECT {_ID}, {_TEXT}, COALESCE((SELECT games + member_games FROM server_counts"
        " WHERE guild_id = ? AND game = ?), 0),"
        f" {_INT}, {_INT}, {_INT}, {_INT}",
        (
            guild_id,
            game,
            guild_id,
            game,
            snapshot.lessons,
            snapshot.beat_x,
            snapshot.beat_o,
            int(training),
        ),
    )


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's line on a server's leaderboard."""

    player_id: int
    lessons: int  # facts first learned from their games
    wins: int  # games they won against the bot
    games: int  # against the bot or between members
    place: int


# what each leaderboard ranks by, and when that figure last grew (earlier ranks first)
LEADERBOARD_ORDERS = {
    "lessons": ("lessons", "lessons_at"),
    "wins": ("learning_wins", "wins_at"),  # against the bot at full strength only
    "games": ("games + member_games", "games_at"),
}


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


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """A server's own settings; ``None`` means the default."""

    timeout_minutes: int | None = None
    play_channels: frozenset[int] | None = None  # None: games may start in any channel


@dataclass(frozen=True, slots=True)
class Record:
    """Games against the bot, counted from the bot's side."""

    games: int = 0
    bot_wins: int = 0
    bot_losses: int = 0
    draws: int = 0
    unfinished: int = 0  # resigned games count as bot wins; abandoned ones only here


@dataclass(frozen=True, slots=True)
class MemberRecord:
    """Games between members. For a whole server, ``won`` and ``lost`` both count the
    games someone won (on the board or by the other's resignation)."""

    games: int = 0
    won: int = 0
    lost: int = 0
    drawn: int = 0
    unfinished: int = 0  # abandoned


_GAME_COLUMNS = (
    "id, guild_id, channel_id, player_id, bot_mark, moves, result, message_id, "
    "started_at, updated_at, ended_by, opponent_id, game, level"
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
    )


def _moves_text(moves: Iterable[int]) -> str:
    return "".join(str(c) for c in moves)


# every table that holds a server's data, in an order that keeps its triggers quiet (games
# after lessons: their credit trigger is on lessons; counters after the games they count)
SERVER_TABLES = (
    "facts",
    "games",
    "server_counts",
    "player_counts",
    "curve",
    "memory_versions",
    "guild_settings",
    "challenges",
    "trainings",
    "departures",
)


def _add_facts(
    guild_id: int,
    game: str,
    facts: Iterable[tuple[str, str]],
    *,
    now: float,
    game_id: int | None = None,
) -> tuple:
    """The statement that stores facts of a server's ``game`` (a position already known
    keeps its fact); ``game_id``: the game they were learned from, credited for them."""
    return (
        "INSERT INTO facts (guild_id, game, position, outcome, learned_at, game_id)"
        " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, game, position) DO NOTHING",
        Rows((guild_id, game, position, outcome, now, game_id) for position, outcome in facts),
    )


def _forget_facts(guild_id: int, game: str) -> tuple:
    return ("DELETE FROM facts WHERE guild_id = ? AND game = ?", (guild_id, game))


def _sum(kind: type, records: list) -> object:
    """Records added up field by field (a member's figures over every game)."""
    return (
        kind(*(sum(values) for values in zip(*map(astuple, records), strict=True)))
        if records
        else kind()
    )


class Store:
    """Every query the bot makes, on a driver that speaks to one database: SQLite
    (:class:`SQLiteDriver`, the embedded default). The SQL is written once, with ``?``
    placeholders."""

    def __init__(self, driver: SQLiteDriver | PostgresDriver) -> None:
        self._driver = driver

    @classmethod
    async def connect(cls, url: str | Path, *, schema: str | None = None) -> Store:
        """Open the database ``url`` names: ``postgresql://…`` (or ``postgres://…``) on
        PostgreSQL; ``sqlite:///path``, or a bare path, on SQLite (the default)."""
        text = str(url)
        if text.startswith(("postgresql://", "postgres://")):
            from .postgres import PostgresDriver

            return cls(await PostgresDriver.open(text, schema=schema))
        if text.startswith("sqlite://"):  # sqlite:///relative/path, sqlite:////absolute/path
            text = text.removeprefix("sqlite://").removeprefix("/") or ":memory:"
        return await cls.open(text)

    @classmethod
    async def open(cls, path: str | Path, *, synchronous: str = SYNCHRONOUS) -> Store:
        """Open (or create) a SQLite database and bring its schema up to date.

        Raises :class:`StoreOpenError` saying what is wrong with ``path`` and how to fix it,
        or :class:`SchemaTooNewError` for a database written by a newer bot.
        """
        return cls(await SQLiteDriver.open(path, synchronous=synchronous))

    async def close(self) -> None:
        await self._driver.close()

    async def _fetch(self, sql: str, params: Sequence = ()) -> list:
        return await self._driver.fetch(sql, params)

    async def _write(
        self,
        statements: Iterable[tuple[str, Sequence]],
        *,
        guarded: bool = False,
        rows_of: int = 0,
    ) -> list:
        """Run statements in one transaction: all of them land, or none.

        With ``guarded``, the first statement is an ``UPDATE … RETURNING`` conditional on
        the state a game was read in; if it changes no row the game has moved on, nothing
        is written and :class:`StaleGameError` is raised.
        """
        return await self._driver.write(statements, guarded=guarded, rows_of=rows_of)

    # --- memory -------------------------------------------------------------------
    async def memory_version(self, guild_id: int, game: str = TICTACTOE) -> int:
        """How many times the server's facts were changed other than by its games."""
        rows = await self._fetch(
            "SELECT version FROM memory_versions WHERE guild_id = ? AND game = ?",
            (guild_id, game),
        )
        return rows[0][0] if rows else 0

    async def load_memory(
        self, guild_id: int, game: str = TICTACTOE
    ) -> tuple[list[tuple[str, str]], int]:
        """The server's facts and their version. The version is read first: if a reset
        lands in between, the memory looks older than it is and is read again, never
        the other way round."""
        version = await self.memory_version(guild_id, game)
        return await self.load_facts(guild_id, game), version

    async def count_facts(self, guild_id: int, game: str = TICTACTOE) -> int:
        ((count,),) = await self._fetch(
            "SELECT COUNT(*) FROM facts WHERE guild_id = ? AND game = ?", (guild_id, game)
        )
        return count

    async def load_facts(self, guild_id: int, game: str = TICTACTOE) -> list[tuple[str, str]]:
        rows = await self._fetch(
            "SELECT position, outcome FROM facts WHERE guild_id = ? AND game = ? ORDER BY position",
            (guild_id, game),
        )
        return [(row[0], row[1]) for row in rows]

    async def add_facts(
        self,
        guild_id: int,
        facts: Iterable[tuple[str, str]],
        *,
        game: str = TICTACTOE,
        replace: bool = False,
        now: float,
        snapshot: Snapshot | None = None,
    ) -> int:
        """Store facts from outside a game (an import), in one transaction; return the
        memory's new version.

        With ``replace``, the server's facts are exactly ``facts`` afterwards; otherwise
        they are added to the known ones, and a position already known keeps its fact.
        """
        statements = [_forget_facts(guild_id, game)] if replace else []
        statements.append(_add_facts(guild_id, game, facts, now=now))
        if snapshot is not None:
            statements.append(_snapshot(guild_id, game, snapshot))
        statements.append(_bump(guild_id, game))
        ((version,),) = await self._write(statements, rows_of=len(statements) - 1)
        return version

    async def reset_memory(
        self, guild_id: int, *, game: str = TICTACTOE, snapshot: Snapshot | None = None
    ) -> tuple[int, int]:
        """Forget this server's facts of ``game``; its game history stays. ``snapshot``:
        the learning curve's point for the empty memory. Returns the facts forgotten and
        the memory's new version."""
        ((count,),) = await self._fetch(
            "SELECT COUNT(*) FROM facts WHERE guild_id = ? AND game = ?", (guild_id, game)
        )
        statements = [_forget_facts(guild_id, game)]
        if snapshot is not None:
            statements.append(_snapshot(guild_id, game, snapshot))
        statements.append(_bump(guild_id, game))
        ((version,),) = await self._write(statements, rows_of=len(statements) - 1)
        return count, version

    # --- games --------------------------------------------------------------------
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
        try:
            await self._write(
                [
                    (
                        "INSERT INTO games (guild_id, channel_id, player_id, bot_mark, moves,"
                        " result, started_at, updated_at, opponent_id, game, level)"
                        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
                ]
            )
        except UniqueViolation:
            running = await self.running_game(channel_id)
            if running is None:  # it ended in between; let the caller try again
                raise
            raise ChannelBusyError(running) from None
        game = await self.running_game(channel_id)
        assert game is not None
        return game

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
        facts: Iterable[tuple[str, str]] = (),
        *,
        now: float,
        ended_by: int | None = None,
        snapshot: Snapshot | None = None,
        memory_version: int | None = None,
        game: str = TICTACTOE,
    ) -> None:
        """Store a game's end (of ``game``), what was learned from it (credited to the game), the
        counters (by triggers) and, if the game changed what the bot knows, the learning
        curve's next point (``snapshot``), in one transaction.

        The game must still be running with exactly ``before``, and the server's memory
        still at ``memory_version`` (the one learned into), if given; otherwise nothing
        is written and :class:`StaleGameError` is raised.
        """
        if result not in RESULTS:
            raise ValueError(f"unknown result {result!r}")
        statements = [
            (
                "UPDATE games SET moves = ?, result = ?, updated_at = ?, ended_at = ?,"
                " ended_by = ?, lessons_after = ?, beat_x_after = ?, beat_o_after = ?"
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
                    game_id,
                    RUNNING,
                    _moves_text(before),
                    *(() if memory_version is None else (guild_id, game, memory_version)),
                ),
            )
        ]
        facts = list(facts)
        # Triggers count the game, add its curve point and credit each new lesson: this
        # is one statement, or two with lessons (see migrations).
        if facts:
            statements.append(_add_facts(guild_id, game, facts, now=now, game_id=game_id))
        await self._write(statements, guarded=True)

    async def game(self, game_id: int) -> GameRecord | None:
        """A game, running or finished."""
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

    # --- stats --------------------------------------------------------------------
    async def record(
        self, guild_id: int, player_id: int | None = None, *, game: str = TICTACTOE
    ) -> Record:
        """Finished games of ``game`` against the bot, from its counters: the cost does not
        grow with the history."""
        if player_id is None:
            rows = await self._fetch(
                f"SELECT {_COUNT_COLUMNS} FROM server_counts WHERE guild_id = ? AND game = ?",
                (guild_id, game),
            )
        else:
            rows = await self._fetch(
                f"SELECT {_COUNT_COLUMNS} FROM player_counts"
                " WHERE guild_id = ? AND game = ? AND player_id = ?",
                (guild_id, game, player_id),
            )
        return Record(*rows[0]) if rows else Record()

    async def level_records(
        self, guild_id: int, player_id: int, *, game: str = TICTACTOE
    ) -> dict[str, Record]:
        """A player's finished games against the bot by level (levels they played)."""
        rows = await self._fetch(
            "SELECT level, COUNT(*), SUM(CASE WHEN result IN ('bot_won', 'resigned')"
            " THEN 1 ELSE 0 END), SUM(CASE WHEN result = 'player_won' THEN 1 ELSE 0 END),"
            " SUM(CASE WHEN result = 'draw' THEN 1 ELSE 0 END),"
            " SUM(CASE WHEN result = 'abandoned' THEN 1 ELSE 0 END) FROM games"
            " WHERE guild_id = ? AND game = ? AND player_id = ? AND opponent_id IS NULL"
            " AND result != ? GROUP BY level",
            (guild_id, game, player_id, RUNNING),
        )
        return {level: Record(*(int(n) for n in counts)) for level, *counts in rows}

    async def member_record(
        self, guild_id: int, player_id: int | None = None, *, game: str = TICTACTOE
    ) -> MemberRecord:
        """Finished games of ``game`` between members, from the counters."""
        if player_id is None:
            rows = await self._fetch(
                "SELECT member_games, member_decided, member_decided, member_draws,"
                " member_unfinished FROM server_counts WHERE guild_id = ? AND game = ?",
                (guild_id, game),
            )
        else:
            rows = await self._fetch(
                "SELECT member_games, member_wins, member_losses, member_draws,"
                " member_games - member_wins - member_losses - member_draws"
                " FROM player_counts WHERE guild_id = ? AND game = ? AND player_id = ?",
                (guild_id, game, player_id),
            )
        return MemberRecord(*rows[0]) if rows else MemberRecord()

    async def leaderboard(
        self,
        guild_id: int,
        by: str,
        *,
        top: int = 10,
        player_id: int | None = None,
        game: str = TICTACTOE,
    ) -> tuple[list[Standing], Standing | None]:
        """The ``top`` players of a server's ``game`` by ``by`` (lessons, wins or games;
        ties go to who got there first), and ``player_id``'s own standing, if they have
        any."""
        figure, reached = LEADERBOARD_ORDERS[by]
        ranked = (
            "SELECT player_id, lessons, learning_wins, games + member_games, RANK() OVER (ORDER BY"
            f" {figure} DESC, {reached}, player_id) AS place FROM player_counts"
            f" WHERE guild_id = ? AND game = ? AND {figure} > 0"
        )
        rows = await self._fetch(
            f"SELECT * FROM ({ranked}) AS ranked WHERE place <= ? ORDER BY place",
            (guild_id, game, top),
        )
        standings = [Standing(*row) for row in rows]
        own = None
        if player_id is not None:
            mine = await self._fetch(
                f"SELECT * FROM ({ranked}) AS ranked WHERE player_id = ?",
                (guild_id, game, player_id),
            )
            own = Standing(*mine[0]) if mine else None
        return standings, own

    async def curve(
        self, guild_id: int, *, points: int = 500, game: str = TICTACTOE
    ) -> list[CurvePoint]:
        """The learning curve of ``game``, at most about ``points`` long however long the
        history: evenly spaced points, always with the first and the last."""
        ((count,),) = await self._fetch(
            "SELECT COUNT(*) FROM curve WHERE guild_id = ? AND game = ?", (guild_id, game)
        )
        step = max(1, -(-count // points))
        rows = await self._fetch(
            "SELECT games, lessons, beat_x, beat_o, training FROM (SELECT *, ROW_NUMBER()"
            " OVER (ORDER BY id) - 1 AS n FROM curve WHERE guild_id = ? AND game = ?)"
            " AS numbered WHERE n % ? = 0 OR n = ? ORDER BY n",
            (guild_id, game, step, count - 1),
        )
        return [CurvePoint(g, lessons, x, o, bool(t)) for g, lessons, x, o, t in rows]

    async def forget_player(self, guild_id: int, player_id: int) -> tuple[Record, MemberRecord]:
        """Delete a player's finished games against the bot in a server, take them out of
        their finished games with other members (which stay the other member's: the
        player becomes member 0, nobody), and remove their name wherever else it stands
        there (as the moderator who ended a game, or who started or cancelled a training).
        Return what their games counted for."""
        rows = await self._fetch(
            "SELECT game FROM player_counts WHERE guild_id = ? AND player_id = ?",
            (guild_id, player_id),
        )
        games = [game for (game,) in rows]
        forgotten = (
            _sum(Record, [await self.record(guild_id, player_id, game=g) for g in games]),
            _sum(
                MemberRecord, [await self.member_record(guild_id, player_id, game=g) for g in games]
            ),
        )
        where = (guild_id, player_id)
        await self._write(
            [
                (
                    "UPDATE facts SET game_id = NULL WHERE guild_id = ? AND game_id IN"
                    " (SELECT id FROM games WHERE guild_id = ? AND player_id = ?"
                    " AND opponent_id IS NULL)",
                    (guild_id, *where),
                ),
                (  # a trigger takes each game off the counters
                    "DELETE FROM games WHERE guild_id = ? AND player_id = ? AND result != ?"
                    " AND opponent_id IS NULL",
                    (*where, RUNNING),
                ),
                (
                    "UPDATE games SET player_id = 0 WHERE guild_id = ? AND player_id = ?"
                    " AND result != ?",
                    (*where, RUNNING),
                ),
                (
                    "UPDATE games SET opponent_id = 0 WHERE guild_id = ? AND opponent_id = ?"
                    " AND result != ?",
                    (*where, RUNNING),
                ),
                ("DELETE FROM player_counts WHERE guild_id = ? AND player_id = ?", where),
                ("UPDATE games SET ended_by = NULL WHERE guild_id = ? AND ended_by = ?", where),
                (
                    "UPDATE trainings SET started_by = 0 WHERE guild_id = ? AND started_by = ?",
                    where,
                ),
                ("UPDATE trainings SET ended_by = NULL WHERE guild_id = ? AND ended_by = ?", where),
            ]
        )
        return forgotten

    # --- a server's data, after the bot leaves ------------------------------------
    async def left_server(self, guild_id: int, *, now: float) -> None:
        """The bot was removed from a server: its data goes in 30 days, unless it returns."""
        await self._write(
            [
                (
                    "INSERT INTO departures (guild_id, left_at) VALUES (?, ?)"
                    " ON CONFLICT (guild_id) DO UPDATE SET left_at = excluded.left_at",
                    (guild_id, now),
                )
            ]
        )

    async def joined_server(self, guild_id: int) -> None:
        """The bot is in the server (again): nothing of it is to be deleted."""
        await self._write([("DELETE FROM departures WHERE guild_id = ?", (guild_id,))])

    async def servers_with_data(self, shards: Shards | None = None) -> list[int]:
        """The Discord servers (of ``shards``) the bot keeps anything about: lessons, games
        or settings. Server 0 is the terminal's own, and a negative id a player's own bot
        (gameflow.places): neither is a Discord server's."""
        owned, params = _owned(shards)
        parts = [
            f"SELECT guild_id FROM {table} WHERE guild_id > 0{owned}"
            for table in ("facts", "games", "guild_settings")
        ]
        rows = await self._fetch(" UNION ".join(parts) + " ORDER BY guild_id", params * 3)
        return [guild_id for (guild_id,) in rows]

    async def departed_before(self, cutoff: float, shards: Shards | None = None) -> list[int]:
        owned, params = _owned(shards)
        rows = await self._fetch(
            f"SELECT guild_id FROM departures WHERE left_at <= ?{owned} ORDER BY guild_id",
            (cutoff, *params),
        )
        return [guild_id for (guild_id,) in rows]

    async def erase_server(self, guild_id: int) -> None:
        """Delete everything about a server, in one transaction: lessons, games (between
        members too), counters, the curve, memory versions, settings, invitations and
        trainings."""
        where = (guild_id,)
        await self._write(
            [
                ("INSERT INTO erasing (guild_id) VALUES (?) ON CONFLICT DO NOTHING", where),
                *((f"DELETE FROM {table} WHERE guild_id = ?", where) for table in SERVER_TABLES),
                ("DELETE FROM erasing WHERE guild_id = ?", where),
            ]
        )

    # --- challenges ---------------------------------------------------------------
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
            ((game_id,),) = await self._write(
                [
                    (
                        "INSERT INTO games (guild_id, channel_id, player_id, bot_mark, moves,"
                        " result, started_at, updated_at, opponent_id, game)"
                        f" SELECT guild_id, channel_id, {_ID}, {_TEXT}, '', {_TEXT}, {_TIME},"
                        f" {_TIME}, {_ID}, game FROM challenges"
                        " WHERE id = ? AND expires_at > ? RETURNING id",
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
        rows = await self._fetch(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return _game(rows[0])

    async def pending_challenges(self, shards: Shards | None = None) -> list[ChallengeRecord]:
        owned, params = _owned(shards)
        rows = await self._fetch(
            f"SELECT {_CHALLENGE_COLUMNS} FROM challenges WHERE TRUE{owned} ORDER BY id", params
        )
        return [ChallengeRecord(*row) for row in rows]

    # --- trainings ----------------------------------------------------------------
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

    # --- settings -----------------------------------------------------------------
    async def guild_settings(self) -> dict[int, GuildSettings]:
        """Every server's own settings (servers with none are left out)."""
        rows = await self._fetch(
            "SELECT guild_id, timeout_minutes, play_channels FROM guild_settings"
        )
        return {
            guild_id: GuildSettings(
                minutes,
                None if channels is None else frozenset(int(c) for c in channels.split()),
            )
            for guild_id, minutes, channels in rows
        }

    async def save_guild_settings(self, guild_id: int, settings: GuildSettings) -> None:
        channels = settings.play_channels
        await self._write(
            [
                (
                    "INSERT INTO guild_settings (guild_id, timeout_minutes, play_channels)"
                    " VALUES (?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
                    " timeout_minutes = excluded.timeout_minutes,"
                    " play_channels = excluded.play_channels",
                    (
                        guild_id,
                        settings.timeout_minutes,
                        None if channels is None else " ".join(map(str, sorted(channels))),
                    ),
                )
            ]
        )

    async def get_meta(self, key: str) -> str | None:
        rows = await self._fetch("SELECT value FROM meta WHERE key = ?", (key,))
        return rows[0][0] if rows else None

    async def set_meta(self, key: str, value: str) -> None:
        await self._write(
            [
                (
                    "INSERT INTO meta (key, value) VALUES (?, ?)"
                    " ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                    (key, value),
                )
            ]
        )
