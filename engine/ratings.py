"""Ratings: one number for how strong a member or a server's learning bot is, on one board,
with its uncertainty; and lichess's puzzle ratings: a member's at solving puzzles, and each
puzzle's, from who solved or failed it (:func:`puzzle_prior` is where a puzzle starts).
Pure: the store keeps them (``data/ratings.py``), the game flow updates them at a game's
end and at a first answer to a puzzle (``gameflow/ratings.py``).

The model is OpenSkill's Plackett-Luce (Weng-Lin, the ``openskill`` library), on the
familiar Glicko scale: everyone starts at 1500 ± 350. A rating is kept in hundredths of a
point, as integers: what is stored is exactly what the next update starts from, so
replaying the stored history gives the same numbers to the last digit.

The easy and medium levels do not move: they are anchors, pinned per board at what
``python -m bench.ratings --anchors`` measured (see :data:`ANCHORS`); a game against them
moves only the member's rating.
"""

from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce

# Glicko's scale: a new player is 1500 ± 350. BETA is the spread of one game's performance
# (a smaller one tells more per game: ~16 decisive games against an established opponent
# make a member established); TAU keeps a rating from freezing, so that a bot that learns
# can still climb after hundreds of games.
START_MU, START_SIGMA, BETA, TAU = 1500.0, 350.0, 80.0, 2.0
# Provisional while the uncertainty is this large or more: lichess's threshold (a rating
# deviation of 110 on the same scale), reached after about 16 decisive games
PROVISIONAL_SIGMA = 110.0

_MODEL = PlackettLuce(mu=START_MU, sigma=START_SIGMA, beta=BETA, tau=TAU)

# Who stands for the server's learning bot in the ratings (members are Discord ids > 0;
# 0 is a forgotten member)
BOT = -1


@dataclass(frozen=True, slots=True)
class Rating:
    """A rating in hundredths of a point: ``mu`` the estimate, ``sigma`` its uncertainty."""

    mu: int = round(START_MU * 100)
    sigma: int = round(START_SIGMA * 100)

    @property
    def points(self) -> int:
        """The rating as people read it."""
        return round(self.mu / 100)

    @property
    def provisional(self) -> bool:
        return self.sigma >= PROVISIONAL_SIGMA * 100

    def unsure(self) -> Rating:
        """The same estimate, provisional again (after an import into the bot's memory)."""
        return Rating(self.mu, max(self.sigma, round(START_SIGMA * 100)))


START = Rating()


def _anchor(points: int) -> Rating:
    return Rating(points * 100, 3000)  # ± 30: measured over hundreds of games


# The fixed levels' ratings per board, measured once by ``python -m bench.ratings --anchors
# --games 100`` (docs/learning.md#ratings says how): a round robin of each level, the
# exact player with ε-random moves (ε 0.5 and 0.2) and the uniformly random player,
# pinned at 1000. The levels play a server's memory with random moves: there with one
# taught until unbeatable on tic-tac-toe and 4×4, a new server's on 5×4 and 7×6.
ANCHORS: dict[str, dict[str, Rating]] = {
    "tictactoe": {"easy": _anchor(1142), "medium": _anchor(1230)},
    "connect4": {"easy": _anchor(1052), "medium": _anchor(1090)},
    "connect4-5x4": {"easy": _anchor(1051), "medium": _anchor(1059)},
    "connect4-7x6": {"easy": _anchor(1205), "medium": _anchor(1347)},
}


def rate(first: Rating, second: Rating, score: float) -> tuple[Rating, Rating]:
    """Both ratings after one game: ``score`` 1 if ``first`` won, 0.5 a draw, 0 a loss."""
    ranks = [0, 0] if score == 0.5 else [0, 1] if score > 0.5 else [1, 0]
    (a,), (b,) = _MODEL.rate(
        [
            [_MODEL.rating(mu=first.mu / 100, sigma=first.sigma / 100)],
            [_MODEL.rating(mu=second.mu / 100, sigma=second.sigma / 100)],
        ],
        ranks=ranks,
    )
    return (
        Rating(round(a.mu * 100), round(a.sigma * 100)),
        Rating(round(b.mu * 100), round(b.sigma * 100)),
    )


# A puzzle's starting rating (lichess's model: a puzzle is rated like a player, and a
# member's first answer to it is a game between them): a win in 3 moves starts where a
# new member does, each move further looks one hundred points harder, and a hold (the only
# column that does not lose) two moves' worth harder than a win against a threat as near
# (it asks to see every other column's loss). A judgment, not a measurement, held as
# one: ± 200 (puzzles of one kind and distance differ about that much), ± 250 for a
# puzzle whose distance is not known. Not a new player's ± 350: a member learns their
# own rating from answers to puzzles, and against puzzles as unsure as they are it took
# 130 first answers to be established (44 at ± 200; 19 against established puzzles).
WIN_MOVES_AT_START, POINTS_A_MOVE, HOLD_EXTRA = 3, 100, 200
PUZZLE_SIGMA, KIND_ONLY_SIGMA = 200.0, 250.0
# a puzzle cut before puzzle ratings has no distance stored: the usual one of its kind
USUAL_MOVES = {"win": 3, "hold": 3}


def puzzle_prior(kind: str, plies: int | None) -> Rating:
    """A puzzle's starting rating from its kind ("win" or "hold") and ``plies``: a win's
    distance to the end after its answer, or, for a hold, the nearest loss among the
    other columns (``None``: not known)."""
    if plies is None:
        moves = USUAL_MOVES[kind]
    else:  # a win: the winner's moves, the answer included; a loss: the winner's
        moves = plies // 2 + 1 if kind == "win" else (plies + 1) // 2
    points = START_MU + POINTS_A_MOVE * (moves - WIN_MOVES_AT_START)
    sigma = KIND_ONLY_SIGMA if plies is None else PUZZLE_SIGMA
    return Rating(round((points + (HOLD_EXTRA if kind == "hold" else 0)) * 100), round(sigma * 100))
