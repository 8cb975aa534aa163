"""The exact solver of the classic board (Connect Four 7×6): a referee, never a player.

It wraps bitbully (PyPI ``bitbully``: Pascal Pons' algorithm in C++, AGPL-3.0) with the
12-ply opening book *with distances* of ``bitbully-databases`` (data MIT). The book was
chosen by measurement on 120 random positions of 0 to 24 stones: without a book they
did not finish within 5 minutes; the 12-ply book without distances scores every
column whose search reaches the book as ±1, so its plies to the end are wrong in the
opening, where most decisive mistakes are; the book with distances costs about 50 MB more
(176 MB peak RSS against 128 MB) for the same CPU (at most 0.37 s per position).

The solver holds the GIL while it searches, so the bot runs it in a worker process: the
entry points are plain functions over ints, tuples and dicts, and the book is loaded once
per process, on first use. Without bitbully (Linux on ARM without a C++ toolchain, where
pip cannot build it) :func:`solver_available` is ``False`` and the classic board learns by
the three rules alone.

Scores follow Pons: from a position with ``n`` stones, the mover's score for a column is
positive if it wins, larger the sooner: a win with its stone played on ``m`` stones scores
``(43 - m) // 2``; a loss scores minus the winner's. :func:`plies` turns that into the
plies from the position after the move to the end (0 for a move that makes four).
"""

from __future__ import annotations

import importlib

from .games import get_game

GAME = "connect4-7x6"
BOOK = "12-ply-dist"
CELLS = 42

WIN, LOSS = "win", "loss"
# a column's value: (outcome for the player who drops it, plies from there to the end under
# perfect play), or None for a draw
Score = tuple[str, int] | None

_agent = []  # the loaded solver, once per process
KEPT = 1 << 16  # positions whose scores a process keeps (about 16 MB)
_kept: dict[int, tuple[int | None, ...]] = {}  # by key: each column's score, None if full
_available: list[bool] = []


class SolverUnavailable(RuntimeError):
    """bitbully cannot be imported here: the classic board learns by the rules alone."""


def solver_available() -> bool:
    """Whether bitbully can be imported here (it is not loaded by asking)."""
    if not _available:
        try:
            importlib.import_module("bitbully")
        except ImportError:
            _available.append(False)
        else:
            _available.append(True)
    return _available[0]


def load():
    """The solver of this process, loading its book on first use (about 0.2 s)."""
    if not _agent:
        if not solver_available():
            raise SolverUnavailable("bitbully is not installed: no solver on this machine")
        from bitbully import BitBully

        _agent.append(BitBully(BOOK))
    return _agent[0]


def plies(score: int, stones: int) -> int:
    """Plies from the position after the move to the end, for a column's ``score`` in a
    position of ``stones`` stones (see the module's docstring)."""
    if score > 0:  # the mover wins with a stone dropped on m stones, m of its parity
        m = 43 - 2 * score
        m -= (m - stones) % 2
    else:  # the opponent wins with a stone dropped on m stones, m of the other parity
        m = 43 + 2 * score
        m -= (m - stones - 1) % 2
    return m - stones


def _board(code: int):
    from bitbully import Board

    cells = get_game(GAME).cells(code)
    return Board.from_array([cells[row * 7 : row * 7 + 7] for row in range(6)])


def raw_scores(code: int) -> dict[int, int]:
    """bitbully's scores of every legal column of an unfinished position, kept for the
    last :data:`KEPT` positions up to the mirror: a game's post-mortem values the same
    opening positions as the games before it, and a position of 12 stones costs up to
    half a second (its columns' searches start just past the opening book)."""
    game = get_game(GAME)
    if game.moves(code) is None:
        raise ValueError("the game is over; there is nothing to score")
    key = game.key(code)
    kept = _kept.get(key)
    if kept is None:
        scores = load().score_all_moves(_board(key))
        kept = tuple(scores.get(column) for column in range(7))
        if len(_kept) >= KEPT:
            del _kept[next(iter(_kept))]  # the oldest
        _kept[key] = kept
    if key != code:
        kept = kept[::-1]  # the mirror's columns
    return {column: score for column, score in enumerate(kept) if score is not None}


def score_all(code: int) -> dict[int, Score]:
    """Every legal column of the unfinished 7×6 position ``code`` (columns 0..6): the
    outcome for the player who drops it, ``"win"`` or ``"loss"``, and the plies from the
    position after it to the end under perfect play; ``None`` for a draw. Exact.

    Raises ``ValueError`` for a finished position, :class:`SolverUnavailable` without
    bitbully.
    """
    scores = raw_scores(code)
    stones = CELLS - sum(1 for cell in get_game(GAME).cells(code) if not cell)
    return {
        column: None if score == 0 else (WIN if score > 0 else LOSS, plies(score, stones))
        for column, score in sorted(scores.items())
    }


def best_columns(code: int) -> list[int]:
    """The columns a perfect player may drop in ``code``: those of the best score (the
    fastest win, else a draw, else the slowest loss)."""
    scores = raw_scores(code)
    best = max(scores.values())
    return sorted(column for column, score in scores.items() if score == best)


__all__ = [
    "BOOK",
    "LOSS",
    "WIN",
    "Score",
    "SolverUnavailable",
    "best_columns",
    "load",
    "plies",
    "raw_scores",
    "score_all",
    "solver_available",
]
