"""Follow-up moves: a short win puzzle played on to its end. After a right answer to a
win in at most :data:`FOLLOW_MOVES` of the winner's moves, the bot plays the loser's
slowest defence and the member finds the next winning column, to four in a row. No
Discord, no store (see :meth:`gameflow.puzzles.Puzzles.play_on`).

The member's columns after the answer are all a button names (the defences follow from
the solver, the same each time), so nothing is kept: every click plays the whole line
again in the solver's worker, one call, and checks that each of the member's columns but
the last was a fastest win. Only the first answer counts in the records: playing on
changes none of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import engine
from engine import solver
from engine.puzzles import DRAW, WIN, Value, fastest_wins
from i18n import N_

from .errors import GameError

if TYPE_CHECKING:
    from .puzzles import Posed

FOLLOW_MOVES = 4  # a win in at most this many of the winner's moves (7 plies) is played on

NOT_PLAYED_ON = N_("Only a short win is played on to its end, and this puzzle is not one.")
OFF_THE_LINE = N_("That is not a move of this puzzle's line: pick one of its buttons.")
BUSY = N_("I couldn't work the next move out just now. Try again in a minute.")


def plays_on(posed: Posed) -> bool:
    """Whether a right answer to the puzzle is played on to the end: a win whose answer
    wins in at most :data:`FOLLOW_MOVES` of the winner's moves."""
    outcome, plies = posed.values[posed.puzzle.answer]
    short = plies is not None and plies < 2 * FOLLOW_MOVES - 1
    return posed.puzzle.kind == "win" and outcome == WIN and short


@dataclass(frozen=True, slots=True)
class FollowUp:
    """A short win played on: ``line``, the plies from the puzzle's position (the member's
    columns, the answer first, each but the last followed by the defence; after a right
    last column that does not end the game, its defence too); ``values``, every column's
    value where the member played their last column; ``ahead``, every column's value
    where they are to play now (``None`` after a wrong column, or at the end)."""

    posed: Posed
    line: tuple[int, ...]
    values: dict[int, Value]
    ahead: dict[int, Value] | None

    @property
    def columns(self) -> tuple[int, ...]:
        """The member's columns, the answer first."""
        return self.line[::2]

    @property
    def given(self) -> int:
        """The member's last column."""
        return self.columns[-1]

    @property
    def right(self) -> bool:
        return self.given in fastest_wins(_scores(self.values))

    @property
    def finished(self) -> bool:
        """Four in a row: the line played to its end."""
        return self.right and self.values[self.given] == (WIN, 0)

    @property
    def code(self) -> int:
        """The board shown: after the last column, or its defence if the line goes on."""
        puzzle = self.posed.puzzle
        return engine.get_game(puzzle.game).replay([*puzzle.moves, *self.line])[-1]

    @property
    def move(self) -> int:
        """Which of the member's moves of the line is asked now (the answer is the 1st)."""
        return len(self.columns) + (self.ahead is not None)

    @property
    def fastest(self) -> int:
        """The fastest win's plies where the member is to play (or played last)."""
        values = self.ahead if self.ahead is not None else self.values
        return min(plies for outcome, plies in values.values() if outcome == WIN)


def _scores(values: dict[int, Value]) -> dict[int, solver.Score]:
    return {c: None if value[0] == DRAW else value for c, value in values.items()}


def _values(scores: dict[int, solver.Score]) -> dict[int, Value]:
    return {c: (DRAW, None) if score is None else score for c, score in scores.items()}


def followed(posed: Posed, columns: tuple[int, ...], steps: list) -> FollowUp:
    """The puzzle played on with the member's ``columns`` after its answer (0-based), from
    the solver's ``steps`` (:func:`engine.puzzles.played_on` of the answer and those
    columns): each column but the last must have been open and a fastest win at its step
    (a button offered it), else :class:`GameError`; the last is judged."""
    played = [posed.puzzle.answer, *columns]
    last = len(played) - 1
    line: list[int] = []
    for step, column in enumerate(played):
        # past the end or a column that was not right; a column not open; one that did
        # not win fastest, or ended the game, before the last
        if step >= len(steps) or column not in steps[step][0]:
            raise GameError(OFF_THE_LINE)
        line.append(column)
        if step < last:
            if steps[step][1] is None:
                raise GameError(OFF_THE_LINE)
            line.append(steps[step][1])
    scores, reply = steps[last]
    ahead = None
    if reply is not None:  # right, and the game goes on
        line.append(reply)
        ahead = _values(steps[last + 1][0])
    return FollowUp(posed, tuple(line), _values(scores), ahead)
