"""Puzzles cut from a server's games (:class:`PuzzleRecord`), who was posed which and how
they answered, and the puzzle records (:class:`PuzzleStanding`: solved, tried, streak, per
member and per server). Each server's daily puzzle: ``data/daily_puzzles.py``.

A puzzle keeps the moves that reached its position, its kind, its only answer and the
columns its post-mortem proved draws (no memory keeps a draw); the wins and losses of its
other columns are the server's facts, read through its memory when it is posed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import astuple, dataclass

from engine.ratings import START, puzzle_prior

from .errors import StaleGameError
from .migrations import Rows
from .shards import Query

SERVER = 0  # the member id of a server's own puzzle record
DAY = 86_400.0

# every table that holds a server's puzzles (data.servers erases them with the server)
PUZZLE_TABLES = ("puzzle_tries", "puzzle_records", "daily_puzzles", "puzzle_scans", "puzzles")

_COLUMNS = (
    "id, guild_id, game, moves, kind, answer, draws, game_id, player_id, other_id, found,"
    " beat_bot, played_at, line, plies, mu, sigma, answers"
)

# the puzzles a member (the parameter) was never posed: their new ones, however ordered
NEVER_POSED = (
    " AND NOT EXISTS (SELECT 1 FROM puzzle_tries WHERE member_id = ? AND puzzle_id = puzzles.id)"
)


@dataclass(frozen=True, slots=True)
class PuzzleRecord:
    id: int
    guild_id: int
    game: str
    moves: tuple[int, ...]  # the moves that reached the position (columns 0-based)
    kind: str  # "win": to play and win; "hold": the only move that does not lose
    answer: int
    draws: int  # the columns proven draws, a bit each
    game_id: int | None  # the game it was cut from (None once that game is gone)
    player_id: int | None  # the member to move there; None: the bot; 0: forgotten
    other_id: int | None  # their opponent, the same way
    found: bool  # whoever was to move there played the answer
    beat_bot: bool  # from a game the bot lost
    played_at: float  # when that game ended
    line: tuple[int, ...] | None  # the solution played out, once worked out
    # how far it looks (None: cut before ratings), its rating, its first answers counted
    plies: int | None = None
    mu: int = START.mu
    sigma: int = START.sigma
    answers: int = 0


@dataclass(frozen=True, slots=True)
class NewPuzzle:
    """A puzzle to keep, as :meth:`PuzzleQueries.add_puzzles` takes it."""

    key: int  # the position's canonical code: one puzzle per position and server
    moves: tuple[int, ...]
    kind: str
    answer: int
    draws: int
    game_id: int | None
    player_id: int | None
    other_id: int | None
    found: bool
    beat_bot: bool
    played_at: float
    plies: int | None = None  # how far it looks (engine.puzzles.distance): its prior


@dataclass(frozen=True, slots=True)
class ReviewedGame:
    """What cutting puzzles needs of a game looked back at."""

    id: int
    moves: tuple[int, ...]
    bot_mark: str
    player_id: int
    opponent_id: int | None
    result: str
    updated_at: float


@dataclass(frozen=True, slots=True)
class PuzzleStanding:
    """A member's (or a server's) puzzle record. A member's streak counts puzzles solved
    in a row; a server's, days in a row on which a member solved one (``day``: the last
    such day, days since the epoch, UTC)."""

    solved: int = 0
    tried: int = 0
    streak: int = 0
    day: int = 0

    def current_days(self, today: int) -> int:
        """A server's streak of days, if it still runs (today or yesterday)."""
        return self.streak if self.day >= today - 1 else 0


@dataclass(frozen=True, slots=True)
class Asked:
    """What a member may do with a puzzle: whether it was posed to them, whether they
    answered it, and whether the server posted it publicly (a daily post)."""

    posed: bool = False
    answered: bool = False
    public: bool = False
    first: int | None = None  # their first answer: a column, or -1 (they took the hint)


def _moves(text: str | None) -> tuple[int, ...] | None:
    return None if text is None else tuple(int(c) for c in text)


def _puzzle(row) -> PuzzleRecord:
    return PuzzleRecord(
        *row[:3],
        _moves(row[3]),
        row[4],
        row[5],
        row[6],
        row[7],
        row[8],
        row[9],
        bool(row[10]),
        bool(row[11]),
        row[12],
        _moves(row[13]),
        *row[14:],
    )


def forget_puzzler(guild_id: int, player_id: int) -> list[tuple]:
    """The statements that take a member out of a server's puzzles (forget-me): their
    tries and records go, and the puzzles cut from their games no longer name them. Run
    after their games are deleted."""
    where = (guild_id, player_id)
    return [
        ("DELETE FROM puzzle_tries WHERE guild_id = ? AND member_id = ?", where),
        ("DELETE FROM puzzle_records WHERE guild_id = ? AND member_id = ?", where),
        ("UPDATE puzzles SET player_id = 0 WHERE guild_id = ? AND player_id = ?", where),
        ("UPDATE puzzles SET other_id = 0 WHERE guild_id = ? AND other_id = ?", where),
        (  # their games against the bot are gone
            "UPDATE puzzles SET game_id = NULL WHERE guild_id = ? AND game_id IS NOT NULL"
            " AND game_id NOT IN (SELECT id FROM games WHERE guild_id = ?)",
            (guild_id, guild_id),
        ),
    ]


class PuzzleQueries:
    """Puzzles, tries and records."""

    _fetch: Query
    _write: Query

    # --- puzzles ------------------------------------------------------------------
    async def add_puzzles(self, guild_id: int, game: str, puzzles: Iterable[NewPuzzle]) -> None:
        """Keep new puzzles; a position the server has a puzzle of already keeps it."""
        statements = self._puzzle_rows(guild_id, game, puzzles)
        if statements:
            await self._write(statements)

    @staticmethod
    def _puzzle_rows(guild_id: int, game: str, puzzles: Iterable[NewPuzzle]) -> list[tuple]:
        rows = Rows(
            (
                guild_id,
                game,
                p.key,
                "".join(map(str, p.moves)),
                p.kind,
                p.answer,
                p.draws,
                p.game_id,
                p.player_id,
                p.other_id,
                int(p.found),
                int(p.beat_bot),
                p.played_at,
                p.plies,
                *astuple(puzzle_prior(p.kind, p.plies)),
            )
            for p in puzzles
        )
        if not rows:
            return []
        return [
            (
                "INSERT INTO puzzles (guild_id, game, key, moves, kind, answer, draws,"
                " game_id, player_id, other_id, found, beat_bot, played_at, plies, mu, sigma)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (guild_id, game, key) DO NOTHING",
                rows,
            )
        ]

    async def puzzle(self, puzzle_id: int) -> PuzzleRecord | None:
        rows = await self._fetch(f"SELECT {_COLUMNS} FROM puzzles WHERE id = ?", (puzzle_id,))
        return _puzzle(rows[0]) if rows else None

    async def count_puzzles(self, guild_id: int, game: str) -> int:
        ((count,),) = await self._fetch(
            "SELECT COUNT(*) FROM puzzles WHERE guild_id = ? AND game = ?", (guild_id, game)
        )
        return count

    async def fresh_puzzles(
        self, guild_id: int, game: str, member_id: int, limit: int
    ) -> list[PuzzleRecord]:
        """Puzzles ``member_id`` was never posed, best first: from games that beat the
        bot, then the freshest (``member_id`` 0: none excluded)."""
        rows = await self._fetch(
            f"SELECT {_COLUMNS} FROM puzzles WHERE guild_id = ? AND game = ?{NEVER_POSED}"
            " ORDER BY beat_bot DESC, played_at DESC, id DESC LIMIT ?",
            (guild_id, game, member_id, limit),
        )
        return [_puzzle(row) for row in rows]

    async def seen_puzzles(
        self, guild_id: int, game: str, member_id: int, limit: int
    ) -> list[PuzzleRecord]:
        """Puzzles ``member_id`` was posed, the longest ago first (once none is new)."""
        rows = await self._fetch(
            f"SELECT {', '.join('p.' + c.strip() for c in _COLUMNS.split(','))}"
            " FROM puzzles p JOIN puzzle_tries t ON t.puzzle_id = p.id AND t.member_id = ?"
            " WHERE p.guild_id = ? AND p.game = ? ORDER BY t.posed_at, p.id LIMIT ?",
            (member_id, guild_id, game, limit),
        )
        return [_puzzle(row) for row in rows]

    async def drop_puzzles(self, puzzle_ids: list[int]) -> None:
        """Delete puzzles no longer proven by their server's memory (a reset forgot them)."""
        if puzzle_ids:
            ids = Rows((puzzle_id,) for puzzle_id in puzzle_ids)
            await self._write(
                [
                    ("DELETE FROM puzzle_tries WHERE puzzle_id = ?", ids),
                    ("DELETE FROM puzzles WHERE id = ?", ids),
                ]
            )

    async def set_puzzle_line(self, puzzle_id: int, line: Iterable[int]) -> None:
        await self._write(
            [
                (
                    "UPDATE puzzles SET line = ? WHERE id = ?",
                    ("".join(map(str, line)), puzzle_id),
                )
            ]
        )

    # --- games looked back at before puzzles existed ----------------------------------
    async def puzzle_scan(self, guild_id: int, game: str) -> int:
        """The last game id whose puzzles were cut by going through the old games (0: none)."""
        rows = await self._fetch(
            "SELECT scanned_to FROM puzzle_scans WHERE guild_id = ? AND game = ?",
            (guild_id, game),
        )
        return rows[0][0] if rows else 0

    async def reviewed_games(
        self, guild_id: int, game: str, after: int, limit: int
    ) -> list[ReviewedGame]:
        """A server's games looked back at (their post-mortem stored), after game ``after``,
        oldest first."""
        rows = await self._fetch(
            "SELECT id, moves, bot_mark, player_id, opponent_id, result, updated_at FROM games"
            " WHERE guild_id = ? AND game = ? AND review = 'done' AND id > ? ORDER BY id LIMIT ?",
            (guild_id, game, after, limit),
        )
        return [ReviewedGame(row[0], _moves(row[1]), *row[2:]) for row in rows]

    async def cut_old_puzzles(
        self, guild_id: int, game: str, puzzles: list[NewPuzzle], scanned_to: int
    ) -> None:
        """Keep the puzzles of old games and how far they were gone through, at once."""
        statements = self._puzzle_rows(guild_id, game, puzzles)
        statements.append(
            (
                "INSERT INTO puzzle_scans (guild_id, game, scanned_to) VALUES (?, ?, ?)"
                " ON CONFLICT (guild_id, game) DO UPDATE SET scanned_to = excluded.scanned_to",
                (guild_id, game, scanned_to),
            )
        )
        await self._write(statements)

    # --- tries and records ------------------------------------------------------------
    async def pose_puzzle(self, guild_id: int, member_id: int, puzzle_id: int, now: float) -> None:
        """Note that ``member_id`` was shown the puzzle (so it is not posed to them again
        while the server has others)."""
        await self._write(
            [
                (
                    "INSERT INTO puzzle_tries (guild_id, member_id, puzzle_id, posed_at)"
                    " VALUES (?, ?, ?, ?) ON CONFLICT (member_id, puzzle_id)"
                    " DO UPDATE SET posed_at = excluded.posed_at",
                    (guild_id, member_id, puzzle_id, now),
                )
            ]
        )

    async def puzzle_asked(self, guild_id: int, member_id: int, puzzle_id: int) -> Asked:
        """Whether ``member_id`` was posed the puzzle (and answered it), and whether the
        server posted it publicly: who may answer it, or see it played out."""
        rows = await self._fetch(
            "SELECT member_id, answer FROM puzzle_tries WHERE puzzle_id = ? AND guild_id = ?"
            " AND member_id IN (?, ?)",
            (puzzle_id, guild_id, member_id, SERVER),
        )
        own = [answer for member, answer in rows if member == member_id]
        return Asked(
            posed=bool(own) and member_id != SERVER,
            answered=bool(own) and own[0] is not None and member_id != SERVER,
            public=any(member == SERVER for member, _ in rows),
            first=own[0] if own and member_id != SERVER else None,
        )

    async def last_posed(self, guild_id: int, game: str, member_id: int) -> PuzzleRecord | None:
        """The puzzle last posed to ``member_id`` (the one a new one must not spoil)."""
        rows = await self._fetch(
            f"SELECT {', '.join('p.' + c.strip() for c in _COLUMNS.split(','))}"
            " FROM puzzle_tries t JOIN puzzles p ON p.id = t.puzzle_id"
            " WHERE t.guild_id = ? AND t.member_id = ? AND p.game = ?"
            " ORDER BY t.posed_at DESC, t.puzzle_id DESC LIMIT 1",
            (guild_id, member_id, game),
        )
        return _puzzle(rows[0]) if rows else None

    async def answer_puzzle(
        self, puzzle: PuzzleRecord, member_id: int, column: int, solved: bool, now: float,
        rated: Sequence[tuple] = (),
    ) -> bool:  # fmt: skip
        """Record a member's answer; only their first to a puzzle counts: it adds to their
        record, the server's and today's daily puzzle's, with ``rated`` (the ratings'
        update, guarded: :func:`data.ratings.puzzle_rating_statements`), in one
        transaction. Returns whether it was their first; with ``rated``, raises
        :class:`StaleGameError` instead of returning False."""
        guild_id, game, day = puzzle.guild_id, puzzle.game, int(now // DAY)
        won = int(solved)
        try:
            await self._write(
                [
                    (
                        "INSERT INTO puzzle_tries (guild_id, member_id, puzzle_id, posed_at,"
                        " answer, solved) VALUES (?, ?, ?, ?, ?, ?)"
                        " ON CONFLICT (member_id, puzzle_id) DO UPDATE SET"
                        " answer = excluded.answer, solved = excluded.solved"
                        " WHERE puzzle_tries.answer IS NULL RETURNING puzzle_id",
                        (guild_id, member_id, puzzle.id, now, column, won),
                    ),
                    *rated,
                    (
                        "INSERT INTO puzzle_records (guild_id, game, member_id, solved, tried,"
                        " streak, day, solved_at) VALUES (?, ?, ?, ?, 1, ?, ?, ?)"
                        " ON CONFLICT (guild_id, game, member_id) DO UPDATE SET"
                        " solved = puzzle_records.solved + excluded.solved,"
                        " tried = puzzle_records.tried + 1,"
                        " streak = CASE WHEN excluded.solved = 1"
                        " THEN puzzle_records.streak + 1 ELSE 0 END,"
                        " day = excluded.day,"
                        " solved_at = CASE WHEN excluded.solved = 1"
                        " THEN excluded.solved_at ELSE puzzle_records.solved_at END",
                        (guild_id, game, member_id, won, won, day, now if solved else 0.0),
                    ),
                    (  # the server's: its streak counts days on which someone solved one
                        "INSERT INTO puzzle_records (guild_id, game, member_id, solved, tried,"
                        " streak, day, solved_at) VALUES (?, ?, ?, ?, 1, ?, ?, ?)"
                        " ON CONFLICT (guild_id, game, member_id) DO UPDATE SET"
                        " solved = puzzle_records.solved + excluded.solved,"
                        " tried = puzzle_records.tried + 1,"
                        " streak = CASE WHEN excluded.solved = 0"
                        " OR puzzle_records.day = excluded.day THEN puzzle_records.streak"
                        " WHEN puzzle_records.day = excluded.day - 1"
                        " THEN puzzle_records.streak + 1 ELSE 1 END,"
                        " day = CASE WHEN excluded.solved = 1 THEN excluded.day"
                        " ELSE puzzle_records.day END,"
                        " solved_at = CASE WHEN excluded.solved = 1"
                        " THEN excluded.solved_at ELSE puzzle_records.solved_at END",
                        (guild_id, game, SERVER, won, won, day if solved else 0, now),
                    ),
                    (
                        "UPDATE daily_puzzles SET solved = solved + ?, tried = tried + 1"
                        " WHERE guild_id = ? AND puzzle_id = ? AND day = ?",
                        (won, guild_id, puzzle.id, day),
                    ),
                    (  # the order it counted in: the server's tries so far (a rebuild's)
                        "UPDATE puzzle_tries SET ordinal = (SELECT tried FROM puzzle_records"
                        " WHERE guild_id = ? AND game = ? AND member_id = ?)"
                        " WHERE member_id = ? AND puzzle_id = ?",
                        (guild_id, game, SERVER, member_id, puzzle.id),
                    ),
                ],
                guarded=1 + len(rated),
            )
        except StaleGameError:  # answered before: nothing counted again
            if rated:  # or a rating moved meanwhile: the caller tells which
                raise
            return False
        return True

    async def puzzle_standing(self, guild_id: int, game: str, member_id: int) -> PuzzleStanding:
        """A member's puzzle record in a server (:data:`SERVER`: the server's own)."""
        rows = await self._fetch(
            "SELECT solved, tried, streak, day FROM puzzle_records"
            " WHERE guild_id = ? AND game = ? AND member_id = ?",
            (guild_id, game, member_id),
        )
        return PuzzleStanding(*rows[0]) if rows else PuzzleStanding()

    async def puzzle_leaderboard(
        self, guild_id: int, game: str, limit: int = 10
    ) -> list[tuple[int, PuzzleStanding]]:
        """The members who solved most puzzles, ties to whoever got there first."""
        rows = await self._fetch(
            "SELECT member_id, solved, tried, streak, day FROM puzzle_records"
            " WHERE guild_id = ? AND game = ? AND member_id != ? AND solved > 0"
            " ORDER BY solved DESC, solved_at, member_id LIMIT ?",
            (guild_id, game, SERVER, limit),
        )
        return [(row[0], PuzzleStanding(*row[1:])) for row in rows]
