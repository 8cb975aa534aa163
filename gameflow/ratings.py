"""Ratings in the game flow: which finished games count and for whom, a game's update (its
statements go into the game's own transaction), the learning bot's reset and import, what
stats show, and a rebuild from the stored history; and puzzle ratings (lichess's model): a
member's first answer to a puzzle is a game between them, won if right without a hint,
lost if wrong or hinted, and both ratings move with it. No Discord here.

A game counts if it was played out (a win either way, or a draw), or resigned after the
second move: an abandoned game, or one resigned at move 1 or 2, does not (a rating can't
be farmed by starting games and resigning them). Against the bot's learning level both
ratings move; against the easy and medium levels only the member's (they are anchors:
``engine.ratings.ANCHORS``); between members both. Member 0 (the terminal's player, or a
member forgotten since) plays at the starting rating every time and keeps none.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import astuple, dataclass

from data import StaleGameError, Store
from data.puzzles import PuzzleRecord
from data.ratings import BotPoint, RatedGame, puzzle_rating_statements, rating_statements
from engine.ratings import ANCHORS, BOT, START, Rating, puzzle_prior, rate

from .errors import DATABASE_BUSY, GameError

# the games played out (gameflow.endings.PLAYED_OUT), as their player scored
SCORES = {"player_won": 1.0, "draw": 0.5, "bot_won": 0.0, "opponent_won": 0.0}
MONTH = 30 * 24 * 3600  # the bot's change is told over this long
# a first answer's update is computed again this many times at most while others' answers
# move the same ratings at once (each try that fails saw another one land)
ANSWER_TRIES = 50


@dataclass(frozen=True, slots=True)
class RatingChange:
    """One side's rating before and after a game (``player_id``: a member, or BOT)."""

    player_id: int
    before: Rating
    after: Rating

    @property
    def delta(self) -> int:
        return self.after.points - self.before.points


@dataclass(frozen=True, slots=True)
class BotRating:
    """The learning bot's rating on a board, and its change over the last 30 days."""

    rating: Rating
    change: int


def player_score(
    result: str, moves: int, player_id: int, opponent_id: int | None, ended_by: int | None
) -> float | None:
    """The game's score for its player (1 won, 0.5 drawn, 0 lost), or ``None`` if it does
    not count."""
    if result in SCORES:
        return SCORES[result]
    if result == "resigned" and moves > 2:
        if opponent_id is None:  # against the bot only the member resigns
            return 0.0
        return 0.0 if ended_by == player_id else 1.0
    return None


def _second(opponent_id: int | None) -> int:
    return BOT if opponent_id is None else opponent_id


def new_ratings(
    known: dict[int, Rating],
    game: str,
    player_id: int,
    opponent_id: int | None,
    level: str,
    score: float,
) -> list[RatingChange]:
    """The changes a counted game makes, given the sides' ratings ``known`` (a side not in
    it starts afresh): the member's first, then the other member's or the learning bot's
    (never an anchor's, nor member 0's)."""
    first = known.get(player_id, START) if player_id > 0 else START
    anchor = opponent_id is None and level != "learning"
    other = _second(opponent_id)
    second = ANCHORS[game][level] if anchor else known.get(other, START) if other != 0 else START
    after_first, after_second = rate(first, second, score)
    changes = [RatingChange(player_id, first, after_first)] if player_id > 0 else []
    if not anchor and other != 0:
        changes.append(RatingChange(other, second, after_second))
    return changes


async def game_update(
    store: Store,
    guild_id: int,
    game: str,
    player_id: int,
    opponent_id: int | None,
    level: str,
    result: str,
    moves: int,
    ended_by: int | None,
    *,
    now: float,
) -> tuple[tuple[RatingChange, ...], list[tuple]]:
    """A game's rating changes and the statements that store them (nothing if it does not
    count, or a side is a forgotten member)."""
    score = player_score(result, moves, player_id, opponent_id, ended_by)
    if score is None:
        return (), []
    sides = [player_id, _second(opponent_id)]
    known = {p: Rating(*r) for p, r in (await store.ratings(guild_id, game, sides)).items()}
    changes = new_ratings(known, game, player_id, opponent_id, level, score)
    statements = rating_statements(
        guild_id,
        game,
        {c.player_id: (c.after.mu, c.after.sigma) for c in changes},
        BOT,
        now=now,
    )
    return tuple(changes), statements


async def bot_rating(store: Store, guild_id: int, game: str, now: float) -> BotRating:
    rated = await store.ratings(guild_id, game, [BOT])
    rating = Rating(*rated[BOT]) if BOT in rated else START
    then = await store.bot_rating_since(guild_id, game, now - MONTH)
    before = Rating(*then) if then else START
    return BotRating(rating, rating.points - before.points)


async def reset_bot(store: Store, guild_id: int, game: str, now: float) -> None:
    """A reset: the bot starts afresh (a mark on the curve)."""
    await store.set_bot_rating(guild_id, game, BOT, (START.mu, START.sigma), event="reset", now=now)


async def imported(store: Store, guild_id: int, game: str, now: float) -> None:
    """An import: the bot keeps its estimate, provisional again."""
    rated = await store.ratings(guild_id, game, [BOT])
    rating = (Rating(*rated[BOT]) if BOT in rated else START).unsure()
    await store.set_bot_rating(
        guild_id, game, BOT, (rating.mu, rating.sigma), event="import", now=now
    )


def replay(
    games: list[RatedGame], events: list[BotPoint], game: str
) -> tuple[dict[int, tuple[int, int]], list[BotPoint]]:
    """Every rating of a place's board from its finished games in the order they ended,
    with the bot's resets and imports where they fell (after as many of the place's
    finished games as they say they came after); and the bot's history."""
    known: dict[int, Rating] = {}
    points: list[BotPoint] = []
    pending = sorted(events, key=lambda p: (p.games, p.at))
    for number, played in enumerate(games, 1):
        while pending and pending[0].games < number:
            event = pending.pop(0)
            _apply_event(known, points, event)
        score = player_score(
            played.result, played.moves, played.player_id, played.opponent_id, played.ended_by
        )
        if score is None:
            continue
        changes = new_ratings(
            known, game, played.player_id, played.opponent_id, played.level, score
        )
        for change in changes:
            known[change.player_id] = change.after
            if change.player_id == BOT:
                points.append(
                    BotPoint(played.ended_at, change.after.mu, change.after.sigma, "game", number)
                )
    for event in pending:
        _apply_event(known, points, event)
    return {p: (r.mu, r.sigma) for p, r in known.items()}, points


def _apply_event(known: dict[int, Rating], points: list[BotPoint], event: BotPoint) -> None:
    rating = START if event.event == "reset" else known.get(BOT, START).unsure()
    known[BOT] = rating
    points.append(BotPoint(event.at, rating.mu, rating.sigma, event.event, event.games))


async def rebuild(store: Store) -> dict[tuple[int, str], int]:
    """Recompute every rating from the stored games (and the bot's resets and imports);
    return how many ratings each place's board has."""
    done = {}
    for guild_id, game in await store.rated_places():
        events = [p for p in await store.bot_history(guild_id, game) if p.event != "game"]
        ratings, points = replay(await store.rated_games(guild_id, game), events, game)
        await store.replace_ratings(guild_id, game, ratings, points)
        done[guild_id, game] = len(ratings)
    return done


# --- puzzle ratings ---------------------------------------------------------------------
def puzzle_rating_of(puzzle: PuzzleRecord) -> Rating:
    return Rating(puzzle.mu, puzzle.sigma)


async def member_puzzle_rating(store: Store, guild_id: int, member_id: int) -> Rating | None:
    """A member's puzzle rating in a place (``None``: no first answer yet)."""
    known = await store.puzzle_rating(guild_id, member_id)
    return Rating(*known) if known else None


async def answer_rated(
    store: Store,
    puzzle: PuzzleRecord,
    member_id: int,
    column: int,
    solved: bool,
    clock: Callable[[], float],
) -> tuple[bool, RatingChange | None]:
    """Record a member's answer (``solved``: right, without a hint); on their first, the
    puzzle's rating and theirs move in the same transaction. Returns whether it was their
    first, and their change. Each update is computed from the ratings as read (the
    puzzle's as ``puzzle`` has it, just read) and stored only if they still stand
    (another answer landed meanwhile: read and computed again), so no answer is lost or
    counted twice, in one process or several."""
    current: PuzzleRecord | None = puzzle
    for _ in range(ANSWER_TRIES):
        if current is None:  # dropped meanwhile (a reset): counted as before, unrated
            return await store.answer_puzzle(puzzle, member_id, column, solved, clock()), None
        known = await store.puzzle_rating(puzzle.guild_id, member_id)
        before = Rating(*known) if known else START
        after, puzzle_after = rate(before, puzzle_rating_of(current), 1.0 if solved else 0.0)
        rated = puzzle_rating_statements(
            current, astuple(puzzle_after), member_id, known, astuple(after)
        )
        try:
            await store.answer_puzzle(current, member_id, column, solved, clock(), rated)
        except StaleGameError:
            if (await store.puzzle_asked(puzzle.guild_id, member_id, puzzle.id)).answered:
                return False, None  # answered before: nothing moves
            current = await store.puzzle(puzzle.id)  # a rating moved meanwhile
            continue
        return True, RatingChange(member_id, before, after)
    raise GameError(DATABASE_BUSY)


def replay_puzzles(
    priors: list[tuple[int, str, int | None]], answers: list[tuple[int, int, bool]]
) -> tuple[dict[int, tuple[int, int, int]], dict[int, tuple[int, int]]]:
    """Every puzzle rating of a place from the first answers in the order they counted:
    each puzzle's ``(mu, sigma, answers)`` from its prior, each member's ``(mu, sigma)``."""
    puzzles = {pid: (puzzle_prior(kind, plies), 0) for pid, kind, plies in priors}
    members: dict[int, Rating] = {}
    for member, pid, solved in answers:
        rating, counted = puzzles[pid]
        members[member], rating = rate(members.get(member, START), rating, float(solved))
        puzzles[pid] = rating, counted + 1
    return (
        {pid: (r.mu, r.sigma, n) for pid, (r, n) in puzzles.items()},
        {member: (r.mu, r.sigma) for member, r in members.items()},
    )


async def rebuild_puzzles(store: Store) -> dict[tuple[int, str], int]:
    """Recompute every puzzle rating from the stored first answers; return how many
    members each place's puzzles rate."""
    done = {}
    places, rated = await store.puzzle_places()
    for guild_id, game in places:
        priors = await store.puzzle_priors(guild_id, game)
        puzzles, members = replay_puzzles(priors, await store.first_answers(guild_id, game))
        await store.replace_puzzle_ratings(guild_id, puzzles, members)
        done[guild_id, game] = len(members)
    for guild_id in rated - {guild_id for guild_id, _ in places}:  # no puzzle left
        await store.replace_puzzle_ratings(guild_id, {}, {})
    return done
