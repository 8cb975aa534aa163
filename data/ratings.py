"""Ratings (``engine.ratings`` computes them): each member's and each server's learning
bot's, per board, as ``(mu, sigma)`` in hundredths of a point; and the learning bot's
history (after each game, and its resets and imports), for its change over 30 days, its
line on the learning curve and a rebuild from the stored games.

A game's rating update is written by :meth:`data.games.GameQueries.finish_game`, in the
game's own transaction (:func:`rating_statements` builds it).

Puzzle ratings too: a member's, in ``ratings`` as board :data:`PUZZLES` (so forget-me, a
server's deletion and a copy carry it as they do the others), and each puzzle's, kept
with the puzzle (``puzzles.mu``, ``sigma``, ``answers``: it goes when the puzzle goes).
Their update rides in the first answer's own transaction
(:meth:`data.puzzles.PuzzleQueries.answer_puzzle`), guarded by
:func:`puzzle_rating_statements`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .games import RUNNING
from .migrations import Rows
from .puzzles import _COLUMNS, NEVER_POSED, SERVER, PuzzleRecord, _puzzle
from .shards import Query

# A board as a small number in ``ratings`` (its rows are the ones that number in the tens
# of thousands per server: a byte there instead of a name keeps a row and its index entry
# within 64 bytes)
BOARDS = {"tictactoe": 0, "connect4": 1, "connect4-5x4": 2, "connect4-7x6": 3}
BOARD_NAMES = {number: name for name, number in BOARDS.items()}
# a member's puzzle rating (the 7×6 board's puzzles, the only ones): no game's board, so
# no reader of the games' ratings (member_ratings, the leaderboard by rating) takes it up
PUZZLES = 4
# established below this uncertainty (engine.ratings.PROVISIONAL_SIGMA, in hundredths): the
# index that ranks by rating holds only those
ESTABLISHED = 11000
BOT_EVENTS = ("game", "reset", "import")
RATING_TABLES = ("ratings", "bot_ratings")


@dataclass(frozen=True, slots=True)
class BotPoint:
    """The learning bot's rating at a moment: after a game, or a reset or an import."""

    at: float
    mu: int
    sigma: int
    event: str  # one of BOT_EVENTS
    games: int = 0  # the server's games of the board by then (the curve's x), 0 unknown


@dataclass(frozen=True, slots=True)
class RatedGame:
    """A finished game as a rebuild replays it."""

    id: int
    ended_at: float
    player_id: int
    opponent_id: int | None
    result: str
    moves: int
    ended_by: int | None
    level: str


_UPSERT = (
    "INSERT INTO ratings (guild_id, board, player_id, mu, sigma) VALUES (?, ?, ?, ?, ?)"
    " ON CONFLICT (guild_id, board, player_id) DO UPDATE SET mu = excluded.mu,"
    " sigma = excluded.sigma"
)


def _upsert(guild_id: int, game: str, player_id: int, rating: tuple[int, int]) -> tuple:
    return _UPSERT, (guild_id, BOARDS[game], player_id, *rating)


def puzzle_rating_statements(
    puzzle: PuzzleRecord,
    puzzle_after: tuple[int, int],
    member_id: int,
    member_before: tuple[int, int] | None,
    member_after: tuple[int, int],
) -> list[tuple]:
    """The statements that store a first answer's new ratings, the puzzle's and the
    member's, each guarded on what the update was computed from (the puzzle's answers
    counted, the member's rating, ``None`` if they had none): each returns a row only if
    it still stood, so that two answers given at once, even in two processes, never
    compute from the same rating (the later one is computed again)."""
    return [
        (
            "UPDATE puzzles SET mu = ?, sigma = ?, answers = answers + 1"
            " WHERE id = ? AND answers = ? RETURNING id",
            (*puzzle_after, puzzle.id, puzzle.answers),
        ),
        (
            f"{_UPSERT} WHERE ratings.mu = ? AND ratings.sigma = ? RETURNING player_id",
            (puzzle.guild_id, PUZZLES, member_id, *member_after, *(member_before or (None, None))),
        ),
    ]


def _bot_point(guild_id: int, game: str, point: BotPoint) -> tuple:
    return (
        "INSERT INTO bot_ratings (guild_id, game, at, mu, sigma, event, games) VALUES"
        " (?, ?, ?, ?, ?, ?, (SELECT COALESCE((SELECT games + member_games FROM server_counts"
        " WHERE guild_id = ? AND game = ?), 0)))",
        (guild_id, game, point.at, point.mu, point.sigma, point.event, guild_id, game),
    )


def rating_statements(
    guild_id: int,
    game: str,
    ratings: dict[int, tuple[int, int]],
    bot: int | None = None,
    *,
    now: float,
) -> list[tuple]:
    """The statements that store a game's new ratings (``{player: (mu, sigma)}``); with
    ``bot``, the id standing for the learning bot among them, its history's next point
    (after the game's counters: the point carries the games so far)."""
    statements = [_upsert(guild_id, game, player, rating) for player, rating in ratings.items()]
    if bot is not None and bot in ratings:
        statements.append(_bot_point(guild_id, game, BotPoint(now, *ratings[bot], "game")))
    return statements


class RatingQueries:
    _fetch: Query
    _write: Query

    async def ratings(
        self, guild_id: int, game: str, players: Sequence[int]
    ) -> dict[int, tuple[int, int]]:
        """The ratings of ``players`` on a board (those never rated are left out)."""
        return await self._board_ratings(guild_id, BOARDS[game], players)

    async def _board_ratings(
        self, guild_id: int, board: int, players: Sequence[int]
    ) -> dict[int, tuple[int, int]]:
        if not players:
            return {}
        marks = ", ".join("?" * len(players))
        rows = await self._fetch(
            "SELECT player_id, mu, sigma FROM ratings WHERE guild_id = ? AND board = ?"
            f" AND player_id IN ({marks})",
            (guild_id, board, *players),
        )
        return {player: (mu, sigma) for player, mu, sigma in rows}

    async def puzzle_rating(self, guild_id: int, member_id: int) -> tuple[int, int] | None:
        """A member's puzzle rating in a place (``None``: no first answer yet)."""
        return (await self._board_ratings(guild_id, PUZZLES, [member_id])).get(member_id)

    async def near_puzzles(
        self, guild_id: int, game: str, member_id: int, limit: int, *, mu: int
    ) -> list[PuzzleRecord]:
        """The ``limit`` puzzles ``member_id`` was never posed whose ratings are nearest
        ``mu`` (as :meth:`fresh_puzzles` reads the best first): the nearest above and the
        nearest below, each read off the index by rating, then merged."""
        found = []
        for side, order in ((">=", ""), ("<", " DESC")):
            rows = await self._fetch(
                f"SELECT {_COLUMNS} FROM puzzles WHERE guild_id = ? AND game = ?"
                f" AND mu {side} ?{NEVER_POSED} ORDER BY mu{order}, id{order} LIMIT ?",
                (guild_id, game, mu, member_id, limit),
            )
            found += map(_puzzle, rows)
        return sorted(found, key=lambda p: (abs(p.mu - mu), p.id))[:limit]

    async def member_ratings(self, guild_id: int, player_id: int) -> dict[str, tuple[int, int]]:
        """A member's rating on each board they played in a place."""
        rows = await self._fetch(
            "SELECT board, mu, sigma FROM ratings WHERE guild_id = ? AND player_id = ?"
            " AND board IN (0, 1, 2, 3) ORDER BY board",
            (guild_id, player_id),
        )
        return {BOARD_NAMES[board]: (mu, sigma) for board, mu, sigma in rows}

    async def rating_leaderboard(
        self, guild_id: int, game: str, *, top: int = 10, player_id: int | None = None
    ) -> tuple[list[tuple[int, int, int, int]], tuple[int, int, int, int] | None]:
        """The ``top`` established members by rating, as ``(place, member, mu, sigma)``
        (off the index of established ratings: a server of 10,000 reads ``top`` entries),
        and ``player_id``'s own standing if rated, established or not (its place then
        counts the established members above it)."""
        board = BOARDS[game]
        # the established condition written out: a partial index serves a literal only
        # (and the bot, -1, is left out by a test no index takes up)
        rows = await self._fetch(
            "SELECT player_id, mu, sigma FROM ratings WHERE guild_id = ? AND board = ?"
            f" AND sigma < {ESTABLISHED} AND player_id + 0 > 0 ORDER BY mu DESC, player_id"
            " LIMIT ?",
            (guild_id, board, top),
        )
        standings = [(place, *row) for place, row in enumerate(rows, 1)]
        own = None
        if player_id is not None and player_id > 0:
            mine = await self._fetch(
                "SELECT mu, sigma, (SELECT COUNT(*) FROM ratings AS r WHERE r.guild_id = ?"
                f" AND r.board = ? AND r.sigma < {ESTABLISHED} AND r.player_id + 0 > 0"
                " AND r.mu > ratings.mu)"
                " FROM ratings WHERE guild_id = ? AND board = ? AND player_id = ?",
                (guild_id, board, guild_id, board, player_id),
            )
            if mine:
                mu, sigma, above = mine[0]
                own = (above + 1, player_id, mu, sigma)
        return standings, own

    async def bot_history(self, guild_id: int, game: str) -> list[BotPoint]:
        """The learning bot's rating over time on a board, oldest first."""
        rows = await self._fetch(
            "SELECT at, mu, sigma, event, games FROM bot_ratings WHERE guild_id = ? AND game = ?"
            " ORDER BY at, id",
            (guild_id, game),
        )
        return [BotPoint(*row) for row in rows]

    async def bot_rating_since(self, guild_id: int, game: str, since: float) -> tuple[int, int]:
        """The learning bot's rating as it stood at ``since`` (its last point at or
        before; the starting rating if it had none then), for its change since."""
        rows = await self._fetch(
            "SELECT mu, sigma FROM bot_ratings WHERE guild_id = ? AND game = ? AND at <= ?"
            " ORDER BY at DESC, id DESC LIMIT 1",
            (guild_id, game, since),
        )
        return tuple(rows[0]) if rows else ()

    async def set_bot_rating(
        self, guild_id: int, game: str, bot: int, rating: tuple[int, int], *, event: str, now: float
    ) -> None:
        """A reset (the starting rating) or an import (provisional again) of the bot's."""
        if event not in BOT_EVENTS:
            raise ValueError(f"unknown event {event!r}")
        await self._write(
            [
                _upsert(guild_id, game, bot, rating),
                _bot_point(guild_id, game, BotPoint(now, *rating, event)),
            ]
        )

    async def rated_games(self, guild_id: int, game: str) -> list[RatedGame]:
        """A server's finished games of a board, in the order they ended (a rebuild)."""
        rows = await self._fetch(
            "SELECT id, COALESCE(ended_at, updated_at) AS ended, player_id, opponent_id,"
            " result, LENGTH(moves), ended_by, level FROM games"
            " WHERE guild_id = ? AND game = ? AND result != ? ORDER BY ended, id",
            (guild_id, game, RUNNING),
        )
        return [RatedGame(*row) for row in rows]

    async def rated_places(self) -> list[tuple[int, str]]:
        """Every place and board with finished games (a rebuild goes through them)."""
        rows = await self._fetch(
            "SELECT DISTINCT guild_id, game FROM games WHERE result != ? ORDER BY guild_id, game",
            (RUNNING,),
        )
        return [tuple(row) for row in rows]

    async def replace_ratings(
        self,
        guild_id: int,
        game: str,
        ratings: dict[int, tuple[int, int]],
        points: Iterable[BotPoint],
    ) -> None:
        """Replace a server's ratings of a board (a rebuild's outcome), in one transaction:
        the members' and the bot's, and the bot's history."""
        statements = [
            ("DELETE FROM ratings WHERE guild_id = ? AND board = ?", (guild_id, BOARDS[game])),
            ("DELETE FROM bot_ratings WHERE guild_id = ? AND game = ?", (guild_id, game)),
            *(_upsert(guild_id, game, player, rating) for player, rating in ratings.items()),
            *(
                (
                    "INSERT INTO bot_ratings (guild_id, game, at, mu, sigma, event, games)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (guild_id, game, p.at, p.mu, p.sigma, p.event, p.games),
                )
                for p in points
            ),
        ]
        await self._write(statements)

    # --- a rebuild of puzzle ratings ---------------------------------------------------
    async def puzzle_places(self) -> tuple[list[tuple[int, str]], set[int]]:
        """Every place and board with puzzles, and every place with members' puzzle
        ratings (one whose puzzles were all dropped has none to keep)."""
        rows = await self._fetch("SELECT DISTINCT guild_id, game FROM puzzles ORDER BY 1, 2")
        rated = await self._fetch(
            "SELECT DISTINCT guild_id FROM ratings WHERE board = ?", (PUZZLES,)
        )
        return [tuple(row) for row in rows], {guild_id for (guild_id,) in rated}

    async def puzzle_priors(self, guild_id: int, game: str) -> list[tuple[int, str, int | None]]:
        """A place's puzzles as a rebuild starts them: ``(id, kind, plies)``."""
        rows = await self._fetch(
            "SELECT id, kind, plies FROM puzzles WHERE guild_id = ? AND game = ? ORDER BY id",
            (guild_id, game),
        )
        return [tuple(row) for row in rows]

    async def first_answers(self, guild_id: int, game: str) -> list[tuple[int, int, bool]]:
        """A place's members' first answers, ``(member, puzzle, solved)``, in the order
        they counted (those given before puzzle ratings first, by when they were posed)."""
        rows = await self._fetch(
            "SELECT t.member_id, t.puzzle_id, t.solved FROM puzzle_tries t"
            " JOIN puzzles p ON p.id = t.puzzle_id WHERE p.guild_id = ? AND p.game = ?"
            " AND t.answer IS NOT NULL AND t.member_id != ?"
            " ORDER BY t.ordinal IS NOT NULL, t.ordinal, t.posed_at, t.member_id, t.puzzle_id",
            (guild_id, game, SERVER),
        )
        return [(member, puzzle, bool(solved)) for member, puzzle, solved in rows]

    async def replace_puzzle_ratings(
        self,
        guild_id: int,
        puzzles: dict[int, tuple[int, int, int]],
        members: dict[int, tuple[int, int]],
    ) -> None:
        """Replace a place's puzzle ratings (a rebuild's outcome), in one transaction:
        each puzzle's ``(mu, sigma, answers)`` and each member's ``(mu, sigma)``."""
        await self._write(
            [
                (
                    "UPDATE puzzles SET mu = ?, sigma = ?, answers = ? WHERE id = ?",
                    Rows((*rating, puzzle) for puzzle, rating in puzzles.items()),
                ),
                ("DELETE FROM ratings WHERE guild_id = ? AND board = ?", (guild_id, PUZZLES)),
                (
                    _UPSERT,
                    Rows((guild_id, PUZZLES, member, *r) for member, r in members.items()),
                ),
            ]
        )


def forget_rated(guild_id: int, player_id: int) -> list[tuple]:
    """The statements that delete a member's ratings on every board of a place."""
    return [("DELETE FROM ratings WHERE guild_id = ? AND player_id = ?", (guild_id, player_id))]
