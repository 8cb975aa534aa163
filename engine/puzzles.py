"""Puzzles cut from the classic board's proven facts (Connect Four 7×6).

A puzzle is a position where the player to move has exactly one winning column ("to play
and win"), or, where no column wins, exactly one that does not lose ("find the only move
that holds"). Every column of it is proven: a win or a loss with its plies to the end (a
fact of the memory), or a draw, which no memory keeps, known only because a post-mortem
valued every column of that position (its facts then hold every column that is not a
draw: ``draws`` names the others, as a bit per column).

A position whose answer is forced by what is on the board right now is left out: the
only win completes four at once, or every other column lets the opponent complete four
at once (a block). Those need no thought; a puzzle does.

Only positions the game itself reached are puzzles. The widened post-mortem values every
column of each position one other reply of the opponent would have made, too, so their
single answers are proven as well; but nobody played them, so a puzzle could not say
truthfully where it came from ("@alice found the win here"), and one reply yields up to
six such boards that differ by a stone, which would crowd a member's queue with one
position. :func:`studied_plies` therefore names plies of the game only.

Everything here is a plain function over ints and tuples; :func:`forced_line` and
:func:`played_on` (a short win played on to its end, a click at a time) call the solver,
so the bot runs them in the solver's worker process.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from . import solver
from .games import Game, get_game
from .postmortem import studied_plies

WIN, LOSS, DRAW = "win", "loss", "draw"
# a puzzle's kinds: "win" (to play and win), "hold" (the only move that does not lose)
# A puzzle is about what can be seen: a win within this many plies, or a hold where
# another column loses that soon. The opening's long wins (column 4 on the empty board
# wins in 41 plies) are theory, not puzzles.
MAX_PLIES = 14

# a column's proven value for the player who drops it: (outcome, plies to the end after
# it, None for a draw)
Value = tuple[str, int | None]


@dataclass(frozen=True, slots=True)
class Cut:
    """A puzzle found in a game: the position before move ``ply`` (0-based), its kind,
    its only answer (a column, 0-based), and the columns proven draws (a bit each)."""

    ply: int
    kind: str
    answer: int
    draws: int
    plies: int | None = None  # how far it looks: see :func:`distance`


def classify(values: dict[int, Value]) -> tuple[str, int] | None:
    """A position's kind and its answer from every legal column's value, or ``None`` if
    it is not a puzzle (no single answer, or an answer forced by the board)."""
    wins = [column for column, (outcome, _) in values.items() if outcome == WIN]
    if len(wins) == 1:
        kind, answer = "win", wins[0]
    elif not wins:
        holds = [column for column, (outcome, _) in values.items() if outcome == DRAW]
        if len(holds) != 1:
            return None
        kind, answer = "hold", holds[0]
    else:
        return None
    others = [value for column, value in values.items() if column != answer]
    if not others:
        return None  # one column left: nothing to find
    if kind == "win" and not 0 < values[answer][1] <= MAX_PLIES:
        return None  # four in a row at once, or a win too far to see
    losses = [plies for outcome, plies in others if outcome == LOSS]
    if kind == "hold" and not (losses and min(losses) <= MAX_PLIES):
        return None  # nothing near to hold against
    if all(outcome == LOSS and plies == 1 for outcome, plies in others):
        return None  # every other column lets the opponent make four at once: a block
    return kind, answer


def distance(kind: str, answer: int, values: dict[int, Value]) -> int:
    """How far a puzzle looks, in plies: a win's distance to the end after its answer; a
    hold's, the nearest loss among the other columns (what it holds against)."""
    if kind == "win":
        return values[answer][1]
    return min(plies for outcome, plies in values.values() if outcome == LOSS and plies is not None)


def column_values(
    game: Game,
    code: int,
    known: Callable[[int], tuple[str, int | None] | None],
    draws: int = 0,
) -> dict[int, Value] | None:
    """Each legal column's value at ``code``: ``known(key)`` gives a fact's outcome and
    plies (or ``None``), ``draws`` the columns proven draws; ``None`` if a column is
    neither (not every column is proven)."""
    values = {}
    for column, _child, key in game.moves(code) or ():
        if draws >> column & 1:
            values[column] = (DRAW, None)
            continue
        fact = known(key)
        if fact is None:
            return None
        values[column] = fact
    return values or None


def replied_values(
    game: Game,
    code: int,
    known: Callable[[int], tuple[str, int | None] | None],
    draws: int = 0,
) -> dict[int, Value] | None:
    """Each legal column's value at ``code`` from the facts one reply further: the value
    of every reply to each column (a member's position in a game against the bot, whose
    widened post-mortem valued every column of each position one move of the member
    away). A column loses if a reply wins (in the fastest such reply's plies, plus one),
    wins if every reply loses (the slowest, plus one); ``draws`` names the columns proven
    draws; ``None`` if a column is none of these (not proven)."""
    values = {}
    for column, child, _key in game.moves(code) or ():
        if draws >> column & 1:
            values[column] = (DRAW, None)
            continue
        replies = game.moves(child)
        if replies is None:  # four in a row, or the board full
            values[column] = (WIN, 0) if game.winner(child) else (DRAW, None)
            continue
        facts = [known(key) for _move, _child, key in replies]
        if any(fact is not None and fact[1] is None for fact in facts):
            return None  # a fact without its distance
        wins = [fact[1] for fact in facts if fact is not None and fact[0] == WIN]
        if wins:
            values[column] = (LOSS, min(wins) + 1)
        elif all(fact is not None for fact in facts):
            values[column] = (WIN, max(fact[1] for fact in facts) + 1)
        else:
            return None
    return values or None


def _replied_draws(game: Game, code: int, known: Callable) -> int:
    """The columns of ``code`` that draw, when every reply to each was valued (a reply
    without a fact is a draw): no reply wins, and not every reply loses."""
    draws = 0
    for column, child, _key in game.moves(code) or ():
        replies = game.moves(child)
        if replies is None:
            continue
        facts = [known(key) for _move, _child, key in replies]
        if None in facts and not any(fact is not None and fact[0] == WIN for fact in facts):
            draws |= 1 << column
    return draws


def cuts_of_game(
    game: str | Game,
    moves: list[int],
    studied: Iterable[int],
    known: Callable[[int], tuple[str, int | None] | None],
    *,
    absent_is_draw: bool,
    replied: Iterable[int] = (),
    replied_absent_is_draw: bool | None = None,
) -> list[Cut]:
    """The puzzles in the positions ``studied`` (plies, 0-based) of a game: ``known`` gives
    each fact; with ``absent_is_draw`` (every column of those positions was valued by a
    post-mortem whose facts are all in ``known``), a column without a fact is a draw,
    else the position must have a fact for every column. The positions ``replied`` are
    valued from every reply to each column instead (:func:`replied_values`); a reply
    without a fact there is a draw with ``replied_absent_is_draw`` (by default, as
    ``absent_is_draw``)."""
    game = get_game(game)
    befores = [game.empty, *game.replay(moves)]
    replied = set(replied)
    cuts = []
    for ply in sorted(set(studied) | replied):
        code = befores[ply]
        legal = game.moves(code)
        if not legal:
            continue
        draws = 0
        if ply in replied:
            if absent_is_draw if replied_absent_is_draw is None else replied_absent_is_draw:
                draws = _replied_draws(game, code, known)
            values = replied_values(game, code, known, draws)
        else:
            if absent_is_draw:
                for column, _child, key in legal:
                    if known(key) is None:
                        draws |= 1 << column
            values = column_values(game, code, known, draws)
        found = classify(values) if values else None
        if found is not None:
            kind, answer = found
            cuts.append(Cut(ply, kind, answer, draws, distance(kind, answer, values)))
    return cuts


def forced_line(game: str | Game, moves: list[int], answer: int) -> list[int]:
    """The solution of the puzzle after ``moves``: its ``answer``, then perfect play on
    both sides to the end (the winner's fastest win, the loser's slowest loss; a draw
    played out), the centre first among equals. Calls the solver: run it in the
    solver's worker process."""
    game = get_game(game)
    code = game.play(game.replay(moves)[-1] if moves else game.empty, answer)
    line = [answer]
    while game.moves(code) is not None:
        best = perfect_column(game, code)
        line.append(best)
        code = game.play(code, best)
    return line


def perfect_column(game: Game, code: int) -> int:
    """The column perfect play drops in ``code`` (the fastest win, else a draw, else the
    slowest loss), the centre first among equals. Calls the solver."""
    return min(solver.best_columns(code), key=game.order.index)


# a puzzle played on, a step of it: every open column's value for the player to move
# (:func:`engine.solver.score_all`), and the defence against the column played there
# (``None`` where that column ended the game, did not win as fast as possible, or was not
# played yet)
PlayedStep = tuple[dict[int, solver.Score], int | None]


def fastest_wins(values: dict[int, solver.Score]) -> list[int]:
    """The columns that win as fast as possible (several where two threats both do), of
    every column's value (:func:`engine.solver.score_all`)."""
    wins = {column: value[1] for column, value in values.items() if value and value[0] == WIN}
    return sorted(column for column, plies in wins.items() if plies == min(wins.values()))


def played_on(game: str | Game, moves: list[int], columns: list[int]) -> list[PlayedStep]:
    """A win puzzle after ``moves`` played on by its solver: the ``columns`` of the player
    to move (the answer first), each answered by the loser's slowest defence (as in
    :func:`forced_line`). A step per position where that player is to move, up to the one
    after their last column; it stops early at a column not open, or at one that ends the
    game or does not win as fast as possible (its step has no defence). Calls the
    solver: run it in the solver's worker process."""
    game = get_game(game)
    code = game.replay(moves)[-1] if moves else game.empty
    steps: list[PlayedStep] = []
    for column in [*columns, None]:
        values = solver.score_all(code)
        if column is None or column not in fastest_wins(values):
            steps.append((values, None))
            break
        code = game.play(code, column)
        if game.moves(code) is None:  # four in a row
            steps.append((values, None))
            break
        reply = perfect_column(game, code)
        steps.append((values, reply))
        code = game.play(code, reply)
    return steps


__all__ = [
    "DRAW",
    "LOSS",
    "MAX_PLIES",
    "WIN",
    "Cut",
    "Value",
    "classify",
    "column_values",
    "cuts_of_game",
    "distance",
    "fastest_wins",
    "forced_line",
    "perfect_column",
    "played_on",
    "replied_values",
    "studied_plies",
]
