"""Puzzles from a server's own proven 7×6 lessons: cut from each game the bot looks back at,
posed to members privately (never the same one twice to a member while the server has
others), answered, played out ("Show me"), and counted (solved, tried, streaks). No
Discord.

A puzzle is cut when a post-mortem is stored (:meth:`Puzzles.cut`, called by
:class:`gameflow.reviews.Reviews`): that post-mortem valued every column of each position
of the game it studied, so a column without a fact there is a proven draw. It valued the
positions one reply away from the game too, but nobody reached those: they are no puzzles
(:mod:`engine.puzzles`). Posing one needs no
solver: every column's value is read from the server's memory (the draws from the puzzle
itself), and a puzzle the memory no longer proves (after a reset) is dropped. Only "Show
me" calls the solver, in its worker process, and keeps the line it found.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial

import engine
from data import Shards, Store
from data.daily_puzzles import DailyPuzzle
from data.games import ROW_IDS
from data.puzzles import DAY, SERVER, Asked, PuzzleRecord, PuzzleStanding
from engine import Mark, Memory
from engine.puzzles import Value
from engine.ratings import Rating
from i18n import N_

from .errors import GameError
from .game import BOARDS, Game
from .memories import ServerMemories, known_in
from .postmortem import PostMortemWorker
from .puzzle_cuts import bot_of, cut_game, members_of, proven
from .puzzle_followups import BUSY, NOT_PLAYED_ON, FollowUp, followed, plays_on
from .puzzle_order import preferred
from .ratings import RatingChange, answer_rated, member_puzzle_rating

log = logging.getLogger(__name__)

# the boards with puzzles (docs/puzzles.md: why not the minis); the first, a puzzle's default
PUZZLE_GAMES = tuple(game for game, board in BOARDS.items() if board.puzzles)
CLASSIC = PUZZLE_GAMES[0]
MIN_PUZZLES = 1  # none: what to do to get some is said instead
# puzzles that ten 7×6 games give (python -m bench.puzzles: 0.73 a game that a member
# playing the solver's moves wins against the bot, 0.93 against a weak player and between
# members): to say how many more games are needed, and what each kind gives
WON_GIVE, MEMBERS_GIVE = 7, 9
KEPT_LINES = 256  # wrong columns' lines kept in a process (Show me of a wrong answer)
HINTED = -1  # the answer kept for a member who took the hint: not solved
CANDIDATES = 8  # puzzles read at once when posing one (a reset may have voided some)
CATCH_UP = 200  # old games read at once when a server's are first gone through
# a daily post claimed this long ago without its message saved was cut short: longer than
# a send takes, retries included
DAILY_RESUME_SECONDS = 300.0

ONLY_7X6 = N_(
    "Puzzles are cut from what I proved on the classic board, so they are 7×6 only: "
    "leave out `board`, or choose 7x6."
)
GONE = N_("That puzzle is gone: this server's data was deleted or my memory here was reset.")
NOT_HERE = N_("That puzzle belongs somewhere else: `/connect4 puzzle` gives you one here.")
NOT_A_COLUMN = N_("That column is not open in this puzzle. Pick one of its buttons.")
NO_SOLVER = N_(
    "I can't play the solution out here: the solver is not installed on this bot (its "
    "answer above is proven all the same)."
)
NOT_POSED = N_("That puzzle was not given to you: `/connect4 puzzle` gives you one of your own.")
NOT_ANSWERED = N_("Give your answer first: Show me comes after it.")
SOLVER_BUSY = N_("I couldn't work the solution out just now. Try Show me again in a minute.")


class TooFewPuzzles(GameError):
    """The server has fewer than :data:`MIN_PUZZLES` puzzles; ``games``: about how many
    more games the bot must look back at (games members win against it, the fewest
    puzzles a game)."""

    def __init__(self, have: int) -> None:
        self.have = have
        self.games = -(-(MIN_PUZZLES - have) * 10 // WON_GIVE)
        super().__init__(
            N_(
                "I have {have} of the {need} puzzles I need here before I pose them.",
                have=have,
                need=MIN_PUZZLES,
            )
        )


@dataclass(frozen=True, slots=True)
class Posed:
    """A puzzle to show: its record, every column's proven value, and whether the member
    has met it before (the server has no other new to them)."""

    puzzle: PuzzleRecord
    values: dict[int, Value]
    again: bool
    count: int  # the server's puzzles of that game
    change: RatingChange | None = None  # the member's puzzle rating, by a first answer

    @property
    def code(self) -> int:
        rules = engine.get_game(self.puzzle.game)
        return rules.replay(self.puzzle.moves)[-1] if self.puzzle.moves else rules.empty

    @property
    def mover(self) -> Mark:
        return Mark.X if len(self.puzzle.moves) % 2 == 0 else Mark.O


@dataclass(frozen=True, slots=True)
class Answered:
    """A member's answer: right or not, the value of the column given and of the answer,
    whether it was their first (the one that counts; ``hinted``: their first was the
    hint), and their record since."""

    posed: Posed
    column: int
    right: bool
    first: bool
    standing: PuzzleStanding
    hinted: bool = False

    @property
    def given(self) -> Value:
        return self.posed.values[self.column]

    @property
    def solution(self) -> Value:
        return self.posed.values[self.posed.puzzle.answer]


@dataclass(frozen=True, slots=True)
class Solution:
    """A puzzle's solution at ``step``: 0 is the puzzle's position, n the position after
    the line's n-th move."""

    posed: Posed
    line: tuple[int, ...]
    step: int

    @property
    def code(self) -> int:
        rules = engine.get_game(self.posed.puzzle.game)
        return rules.replay([*self.posed.puzzle.moves, *self.line[: self.step]])[-1]

    @property
    def played(self) -> int | None:
        return self.line[self.step - 1] if self.step else None

    @property
    def wrong(self) -> bool:
        """Whether the line is a wrong column's, and why it does not work."""
        return self.line[0] != self.posed.puzzle.answer


class Puzzles:
    """A server's puzzles: cut, posed, answered, shown and counted."""

    def __init__(
        self,
        store: Store,
        memories: ServerMemories,
        worker: PostMortemWorker,
        clock: Callable[[], float],
    ) -> None:
        self.store = store
        self.memories = memories
        self.worker = worker
        self.clock = clock
        self._caught_up: set[tuple[int, str]] = set()  # servers whose old games are cut
        self._lines: dict[tuple[int, int], tuple[int, ...]] = {}  # wrong columns' lines
        self._catching_up: dict[tuple[int, str], asyncio.Lock] = {}

    @property
    def solver(self) -> bool:
        """Whether "Show me" can work a solution out here."""
        return self.worker.available

    # --- cutting ----------------------------------------------------------------
    async def cut(self, game: Game, facts: Sequence[tuple]) -> int:
        """Keep the puzzles of a game whose post-mortem was just stored (``facts``: all it
        proved, each starting ``(key, outcome, plies)``, so a column of a studied position
        without a fact is a draw); return how many it gave."""
        known = {fact[0]: (fact[1], fact[2]) for fact in facts}  # key, outcome, plies
        bot = game.bot_mark if game.vs_bot else None
        new = cut_game(
            game.kind, game.id, game.moves, bot, game.member_playing, game.result,
            game.updated_at, known.get, absent_is_draw=True,
        )  # fmt: skip
        await self.store.add_puzzles(game.guild_id, game.kind, new)
        return len(new)

    async def catch_up(self, place: int, game: str = CLASSIC) -> None:
        """Cut the puzzles of the games a server's bot looked back at before it cut
        puzzles (an upgrade), once; in batches, so that the loop is never held long. A
        column without a fact is a draw only if the memory was never reset nor imported
        into (its version is 0): then every post-mortem's facts are still in it;
        otherwise only positions with a fact for every column are kept."""
        if (place, game) in self._caught_up:
            return
        async with self._catching_up.setdefault((place, game), asyncio.Lock()):
            if (place, game) in self._caught_up:
                return
            scanned = await self.store.puzzle_scan(place, game)
            memory = await self.memories.get(place, game)
            whole = await self.store.memory_version(place, game) == 0
            while records := await self.store.reviewed_games(place, game, scanned, CATCH_UP):
                new = []
                for record in records:
                    new += cut_game(
                        game, record.id, record.moves, bot_of(record), members_of(record),
                        record.result, record.updated_at, known_in(memory), absent_is_draw=whole,
                        members_absent_is_draw=False,  # widened post-mortems only: exact facts
                    )  # fmt: skip
                    await asyncio.sleep(0)  # a game at a time: the loop is never held long
                scanned = records[-1].id
                await self.store.cut_old_puzzles(place, game, new, scanned)
            self._caught_up.add((place, game))

    # --- posing and answering -----------------------------------------------------
    async def pose(self, place: int, member_id: int, game: str = CLASSIC) -> Posed:
        """A puzzle for ``member_id`` in ``place``, noted as posed to them: one they have
        not met, the best first (from games that beat the bot, then the freshest); once
        they have met every one, the one they met longest ago. Never one the puzzle they
        were posed last gives away (see :func:`preferred`). Raises :class:`TooFewPuzzles`."""
        posed = await self._choose(place, member_id, game)
        await self.store.pose_puzzle(place, member_id, posed.puzzle.id, self.clock())
        return posed

    async def follow(self, place: int, member_id: int, puzzle_id: int) -> Posed:
        """Next puzzle, asked from ``puzzle_id``'s message: only by a member that puzzle
        was posed to (or the server posted)."""
        posed, _ = await self._asked(place, member_id, puzzle_id)
        return await self.pose(place, member_id, posed.puzzle.game)

    async def _choose(self, place: int, member_id: int, game: str) -> Posed:
        check_board(game)
        await self.catch_up(place, game)
        count = await self.store.count_puzzles(place, game)
        if count < MIN_PUZZLES:
            raise TooFewPuzzles(count)
        memory = await self.memories.get(place, game)
        last = await self.store.last_posed(place, game, member_id)
        fresh, seen = await self._fresh_reader(place, member_id), self.store.seen_puzzles
        # the last resort (no other puzzle left): one the last gives away
        for read, again, after in ((fresh, False, last), (seen, True, last), (fresh, False, None)):
            found = await self._first_proven(place, game, member_id, memory, read, after)
            if found is not None:
                puzzle, values = found
                return Posed(puzzle, values, again, count)
        raise TooFewPuzzles(await self.store.count_puzzles(place, game))

    async def _fresh_reader(self, place: int, member_id: int) -> Callable:
        """How a member's new puzzles are read: once their puzzle rating is established,
        those rated nearest it first; until then the best first."""
        rating = await member_puzzle_rating(self.store, place, member_id) if member_id else None
        if rating is None or rating.provisional:
            return self.store.fresh_puzzles
        return partial(self.store.near_puzzles, mu=rating.mu)

    async def _first_proven(
        self,
        place: int,
        game: str,
        member_id: int,
        memory: Memory,
        read: Callable,
        last: PuzzleRecord | None,
    ) -> tuple[PuzzleRecord, dict[int, Value]] | None:
        limit = CANDIDATES
        while True:
            candidates = await read(place, game, member_id, limit)
            voided = []
            for puzzle in preferred(candidates, last):  # proven one at a time: the first
                values = proven(puzzle, memory)
                if values is not None:
                    await self.store.drop_puzzles(voided)
                    return puzzle, values
                voided.append(puzzle.id)
            await self.store.drop_puzzles(voided)
            if len(candidates) < limit:
                return None
            if not voided:  # every candidate is given away by the last: read further
                limit *= 2

    async def posed(self, place: int, puzzle_id: int) -> Posed:
        """A puzzle named by a button, as its memory proves it now. Raises
        :class:`GameError` if it is gone or of another place."""
        puzzle = await self.store.puzzle(puzzle_id) if puzzle_id in ROW_IDS else None
        if puzzle is None:
            raise GameError(GONE)
        if puzzle.guild_id != place:
            raise GameError(NOT_HERE)
        values = proven(puzzle, await self.memories.get(place, puzzle.game))
        if values is None:
            raise GameError(GONE)
        return Posed(puzzle, values, False, 0)

    async def hint(self, place: int, member_id: int, puzzle_id: int) -> Posed:
        """The puzzle, with its one hint, for a member it was posed to (or the server
        posted): a hint counts as the first answer, not solved."""
        posed, _ = await self._asked(place, member_id, puzzle_id)
        _, change = await answer_rated(
            self.store, posed.puzzle, member_id, HINTED, False, self.clock
        )
        return replace(posed, change=change)

    async def retry(self, place: int, member_id: int, puzzle_id: int) -> Posed:
        """The puzzle again, for a member it was posed to (or the server posted) who
        answered it: Try again (only the first answer counts)."""
        return await self._answered(place, member_id, puzzle_id)

    async def _answered(self, place: int, member_id: int, puzzle_id: int) -> Posed:
        """The puzzle, for a member who answered it (posed to them, or posted for
        everyone): Try again, Show me and playing on come after the answer."""
        posed = await self.posed(place, puzzle_id)
        asked = await self.store.puzzle_asked(place, member_id, puzzle_id)
        if not asked.answered:
            raise GameError(NOT_ANSWERED if asked.posed or asked.public else NOT_POSED)
        return posed

    async def _asked(self, place: int, member_id: int, puzzle_id: int) -> tuple[Posed, Asked]:
        """The puzzle, for a member it was posed to (or the server posted), and what they
        did with it so far."""
        posed = await self.posed(place, puzzle_id)
        asked = await self.store.puzzle_asked(place, member_id, puzzle_id)
        if not (asked.posed or asked.public):
            raise GameError(NOT_POSED)
        return posed, asked

    async def answer(self, place: int, member_id: int, puzzle_id: int, column: int) -> Answered:
        """A member's answer to a puzzle (``column`` 0-based). Only their first answer to a
        puzzle counts in the records."""
        posed, asked = await self._asked(place, member_id, puzzle_id)
        if column not in posed.values:
            raise GameError(NOT_A_COLUMN)
        right = column == posed.puzzle.answer
        first, change = await answer_rated(
            self.store, posed.puzzle, member_id, column, right, self.clock
        )
        standing = await self.store.puzzle_standing(place, posed.puzzle.game, member_id)
        hinted = not first and asked.first == HINTED  # a first answer before this one: the hint
        return Answered(replace(posed, change=change), column, right, first, standing, hinted)

    async def solution(
        self, place: int, member_id: int, puzzle_id: int, step: int, column: int | None = None
    ) -> Solution:
        """The puzzle's solution at ``step`` (held to the line's length), for a member who
        answered it: worked out in the solver's worker the first time, then kept with the
        puzzle. With another ``column`` than the answer: why it does not work (that
        column, then the fastest win against it), kept a while in this process."""
        posed = await self._answered(place, member_id, puzzle_id)
        first = posed.puzzle.answer if column is None else column
        if first not in posed.values:
            raise GameError(NOT_A_COLUMN)
        line = (
            posed.puzzle.line
            if first == posed.puzzle.answer
            else self._lines.get((puzzle_id, first))
        )
        if line is None:
            if not self.worker.available:
                raise GameError(NO_SOLVER)
            try:
                found = await self.worker.forced_line(posed.puzzle.game, posed.puzzle.moves, first)
            except Exception:
                log.warning("could not play out puzzle %s", puzzle_id, exc_info=True)
                raise GameError(SOLVER_BUSY) from None
            line = tuple(found)
            if first == posed.puzzle.answer:
                await self.store.set_puzzle_line(puzzle_id, line)
            else:
                self._lines[(puzzle_id, first)] = line
                while len(self._lines) > KEPT_LINES:
                    self._lines.pop(next(iter(self._lines)))
        return Solution(posed, line, max(0, min(step, len(line))))

    async def play_on(
        self, place: int, member_id: int, puzzle_id: int, columns: tuple[int, ...]
    ) -> FollowUp:
        """A short win played on (:mod:`gameflow.puzzle_followups`), for a member who
        answered it: its answer, then the member's ``columns`` (0-based), each answered by
        the slowest defence, in the solver's worker (one call). Changes no record."""
        posed = await self._answered(place, member_id, puzzle_id)
        if not plays_on(posed):
            raise GameError(NOT_PLAYED_ON)
        if not self.worker.available:
            raise GameError(NO_SOLVER)
        puzzle = posed.puzzle
        played = [puzzle.answer, *columns]
        try:
            steps = await self.worker.played_on(puzzle.game, puzzle.moves, played)
        except Exception:
            log.warning("could not play puzzle %s on", puzzle_id, exc_info=True)
            raise GameError(BUSY) from None
        return followed(posed, columns, steps)

    # --- records ------------------------------------------------------------------
    async def standings(
        self, place: int, member_id: int, game: str = CLASSIC
    ) -> tuple[PuzzleStanding, PuzzleStanding, int, Rating | None]:
        """A member's record, the server's, how many puzzles the server has, and the
        member's puzzle rating (``None``: no first answer yet)."""
        return (
            await self.store.puzzle_standing(place, game, member_id),
            await self.store.puzzle_standing(place, game, SERVER),
            await self.store.count_puzzles(place, game),
            await member_puzzle_rating(self.store, place, member_id),
        )

    async def leaderboard(
        self, place: int, member_id: int, game: str = CLASSIC
    ) -> tuple[list[tuple[int, PuzzleStanding]], PuzzleStanding]:
        """The top solvers of a server, and the asker's own record."""
        check_board(game)
        top = await self.store.puzzle_leaderboard(place, game)
        return top, await self.store.puzzle_standing(place, game, member_id)

    def today(self) -> int:
        return int(self.clock() // DAY)

    # --- the daily puzzle -------------------------------------------------------------
    async def set_daily(self, guild_id: int, channel_id: int | None) -> None:
        await self.store.set_daily_channel(guild_id, channel_id)

    async def daily(self, guild_id: int) -> DailyPuzzle | None:
        """A server's daily puzzle: its channel and its last post."""
        return await self.store.daily_puzzle(guild_id)

    async def dailies_due(self, shards: Shards | None) -> tuple[int, list[DailyPuzzle]]:
        """Today, and the servers (of ``shards``) whose daily puzzle is not posted yet."""
        today = self.today()
        return today, await self.store.dailies_due(today, shards)

    async def dailies_cut_short(self, shards: Shards | None) -> tuple[int, list[DailyPuzzle]]:
        """Today, and the servers (of ``shards``) whose post of today was claimed over
        :data:`DAILY_RESUME_SECONDS` ago and has no message saved: a kill or a failed send
        cut it short, and it is resumed."""
        today = self.today()
        since = self.clock() - DAILY_RESUME_SECONDS
        return today, await self.store.unsaved_dailies(today, since, shards)

    async def resume_daily(self, guild_id: int, day: int) -> bool:
        """Take over a post cut short (whoever takes it looks for it, and posts it if it
        is not there). False if another process took it."""
        now = self.clock()
        return await self.store.resume_daily(guild_id, day, now, now - DAILY_RESUME_SECONDS)

    async def claim_daily(self, guild_id: int, day: int, posed: Posed) -> bool:
        """Take ``day``'s post of a server before it is posted: whoever claims it posts,
        once (another process, or a restart, finds it taken). False if it was."""
        return await self.store.claim_daily(guild_id, day, posed.puzzle.id, self.clock())

    async def daily_posted(self, guild_id: int, day: int, message_id: int) -> None:
        """The message that holds ``day``'s post, so that its count can be kept."""
        await self.store.set_daily_message(guild_id, day, message_id)

    async def daily_pick(self, guild_id: int) -> Posed | None:
        """The puzzle for a server's daily post: one never posted there (the server is
        member 0 of its own tries), else the one posted longest ago; ``None`` if the
        server has too few. Noted as posted only when claimed (:meth:`claim_daily`)."""
        try:
            return await self._choose(guild_id, SERVER, CLASSIC)
        except TooFewPuzzles:
            return None


def check_board(game: str) -> None:
    if game not in PUZZLE_GAMES:
        raise GameError(ONLY_7X6)
