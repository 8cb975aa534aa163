"""What the memory knows of one position, as ``/ttt brain`` and ``/connect4 brain`` show
it: each legal move a proven win, a proven loss or unknown for the player to move, the
move the bot would play there, and why. On the classic board (Connect Four 7×6) each
known move also carries its plies to the end, and the policy looks one move ahead, so a
four to take or to block comes first, and a column that lets the opponent make four on top
of it comes last among those not known to lose (see :func:`engine.policy.choose_classic`)."""

from __future__ import annotations

from dataclasses import dataclass, field

import engine
from engine import LOSS, WIN, Board, BoardModel, Memory, Outcome
from i18n import N_, Msg


def view_of(memory: Memory, board: Board, model: BoardModel | None = None) -> BrainView:
    """What ``memory`` knows after ``board``'s moves (a position not over yet); on the
    classic board, ``model`` is the server's board model (see :func:`classic_view`)."""
    if board.game.classic:  # its facts' distances, and its own policy
        return classic_view(memory, board, model)
    known = engine.outlook(memory, board)
    choice = engine.choose_move(memory, board)
    return BrainView(board, known, choice, why_text(known[choice], board.game.move_word))


@dataclass(frozen=True, slots=True)
class BrainView:
    """What the memory knows of one position, for the player to move."""

    board: Board
    outlook: dict[int, Outcome | None]  # legal move (0-based) -> proven WIN / LOSS / unknown
    choice: int  # the move the bot would play, 0-based
    why: Msg


WHY = {
    "cell": {
        WIN: N_("a proven win"),
        None: N_("the first cell not known to lose"),
        LOSS: N_("every move there is known to lose, so the first free cell"),
    },
    "column": {
        WIN: N_("a proven win"),
        None: N_("the leftmost column not known to lose"),
        LOSS: N_("every move there is known to lose, so the leftmost one"),
    },
}


def why_text(outcome: Outcome | None, word: str) -> Msg:
    """Why the bot chose its move: ``word`` is "cell" or "column"."""
    return WHY[word][outcome]


CLASSIC_WHY = {
    "take": N_("it makes four in a row"),
    "block": N_("it blocks a four"),
    WIN: N_("the fastest proven win"),
    None: N_(
        "the first column from the centre out not known to lose and with no four for you on "
        "top of it"
    ),
    "under": N_(
        "every column not known to lose lets you make four on top of it, so the first of them"
    ),
    LOSS: N_("every column there is known to lose, so the slowest loss"),
    "lessons": N_(
        "the column my lessons rank first among those not known to lose and with no four "
        "for you on top of it"
    ),
}


@dataclass(frozen=True, slots=True)
class ClassicView(BrainView):
    """A :class:`BrainView` whose known moves carry their plies to the end after the move
    under perfect play (``None``: a fact of the rules, proven without a distance)."""

    plies: dict[int, int | None] = field(default_factory=dict)
    # where the board model chose among two open columns or more: the open columns, best
    # first, each with the model's estimate (0..1) that it wins (an ordering learned from
    # this server's facts, never a fact), and how many proven positions it learned from
    ranking: tuple[tuple[int, float], ...] = ()
    trained_on: int = 0


def classic_view(memory: Memory, board: Board, model: BoardModel | None = None) -> ClassicView:
    """What ``memory`` knows after ``board``'s moves (a position not over yet); with
    ``model`` (the server's, :mod:`engine.ordering`) the bot's choice is the learning
    level's, and where the model chose it the view carries its ranking."""
    known = engine.outlook_plies(memory, board)
    choice = engine.choose_move(memory, board, model=model)
    suggestion = engine.suggestion(memory, board, model, chances=True)
    take, block, under = memory.game.lookahead(board.code)
    outlook = {column: None if fact is None else fact[0] for column, fact in known.items()}
    if suggestion is not None:
        why = CLASSIC_WHY["lessons"]
    elif choice == take:
        why = CLASSIC_WHY["take"]
    elif take is None and choice == block:
        why = CLASSIC_WHY["block"]
    elif outlook[choice] is None and under >> choice & 1:
        why = CLASSIC_WHY["under"]
    else:
        why = CLASSIC_WHY[outlook[choice]]
    plies = {column: fact[1] for column, fact in known.items() if fact is not None}
    if suggestion is None:
        return ClassicView(board, outlook, choice, why, plies)
    return ClassicView(
        board,
        outlook,
        choice,
        why,
        plies,
        tuple(zip(suggestion.ranking, suggestion.chances, strict=True)),
        suggestion.trained_on,
    )
