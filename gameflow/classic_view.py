"""What the memory knows of a position on the classic board (Connect Four 7×6), for
``/connect4 brain``: each column a proven win or loss in so many plies, or unknown, and
the move the bot would play there, and why (its policy looks one move ahead, so a four to
take or to block comes first: see :func:`engine.policy.choose_classic`)."""

from __future__ import annotations

from dataclasses import dataclass, field

import engine
from engine import LOSS, WIN, Board, Memory
from i18n import N_

from .brain import BrainView

WHY = {
    "take": N_("it makes four in a row"),
    "block": N_("it blocks a four"),
    WIN: N_("the fastest proven win"),
    None: N_("the first column from the centre out not known to lose"),
    LOSS: N_("every column there is known to lose, so the slowest loss"),
}


@dataclass(frozen=True, slots=True)
class ClassicView(BrainView):
    """A :class:`BrainView` whose known moves carry their plies to the end after the move
    under perfect play (``None``: a fact of the rules, proven without a distance)."""

    plies: dict[int, int | None] = field(default_factory=dict)


def classic_view(memory: Memory, board: Board) -> ClassicView:
    """What ``memory`` knows after ``board``'s moves (a position not over yet)."""
    known = engine.outlook_plies(memory, board)
    choice = engine.choose_move(memory, board)
    rules, code = memory.game, board.code
    mover = rules.turn(code)
    outlook = {column: None if fact is None else fact[0] for column, fact in known.items()}
    if choice in rules.fours(code, mover):
        why = WHY["take"]
    elif choice in rules.fours(code, 3 - mover):
        why = WHY["block"]
    else:
        why = WHY[outlook[choice]]
    plies = {column: fact[1] for column, fact in known.items() if fact is not None}
    return ClassicView(board, outlook, choice, why, plies)
