"""How the bot picks its move: from memory only, never by looking ahead.

1. a move known to win, the first in the game's naive order;
2. otherwise the first move that is not a known loss: the first free cell (1..9 as people
   count) in tic-tac-toe, the leftmost column in Connect Four, the seeds' "naive first
   available";
3. otherwise, every move being a known loss, the first legal move.

Deterministic, so people can watch the bot change its mind after a loss.

The classic board (Connect Four 7×6, ``game.classic``) adds one move of lookahead and its
facts' distances (:func:`choose_classic`), in this order:

1. a four, if it has one; 2. else block the opponent's; 3. else its fastest known win;
4. else, among the columns not known to lose, the first from the centre out after which
   the opponent cannot make four at once (on top of its stone); 5. else the first of
   them, unless a known loss lasts longer than the one ply they give the opponent;
6. else, every column a known loss, the slowest loss.

Steps 4–5 are the rules of the game, not learning: it still never searches deeper.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .board import Board
from .games import Game, Move
from .memory import LOST, OUTCOMES, WON, Memory, Outcome
from .ordering import BoardModel, probability


def choose_child(game: Game, known: Callable[[int], int], code: int) -> Move:
    """The policy's move in an unfinished position, as ``(move, child, key)``; ``known``
    gives a key's value (see :func:`engine.memory.prove`). The hot path of training."""
    first_safe = None
    moves = game.moves(code)
    for move in moves:
        value = known(move[2])
        if value == WON:
            return move
        if first_safe is None and value != LOST:
            first_safe = move
    return first_safe if first_safe is not None else moves[0]


def choose_classic(
    game: Game,
    known: Callable[[int], int | None],
    plies: Callable[[int], int | None],
    code: int,
    *,
    careful: bool = True,
    model: BoardModel | None = None,
) -> Move:
    """The classic board's move in an unfinished position (see the module's docstring);
    ``plies`` gives a known fact's plies to the end, ``None`` if only its outcome is known
    (a fact of the rules: such a win comes after every win of known plies, such a loss
    before every loss of known plies). ``careful=False`` skips step 4, as the bot played
    before it (for the benchmark's comparison). With ``model`` (:mod:`engine.ordering`),
    once it is active (it has learned from a fact), step 4 takes the column it ranks
    first among those it leaves open, instead of the first from the centre out; nothing
    else changes."""
    moves = game.moves(code)
    take, block, gifts = game.lookahead(code)
    if not careful:
        gifts = 0
    forced = block if take is None else take  # take a four, else block one
    if forced is not None:
        for move in moves:
            if move[0] == forced:
                return move
    fastest = first_safe = first_sound = slowest = None
    fastest_plies, slowest_plies = 99, -2
    sound = [] if model is not None and model.active else None
    for move in moves:  # from the centre out
        value = known(move[2])
        if value == WON:
            distance = plies(move[2])
            distance = 98 if distance is None else distance
            if distance < fastest_plies:
                fastest, fastest_plies = move, distance
        elif value == LOST:
            distance = plies(move[2])
            distance = -1 if distance is None else distance
            if distance > slowest_plies:
                slowest, slowest_plies = move, distance
        elif sound is not None and not gifts >> move[0] & 1:
            sound.append(move)  # the model orders them all
            first_sound = first_sound or move
        elif first_sound is None:
            if not gifts >> move[0] & 1:  # no four for the opponent on top of it
                first_sound = move
            elif first_safe is None:
                first_safe = move
    if fastest:
        return fastest
    if first_sound:
        return first_sound if not sound or len(sound) < 2 else ranked(game, model, code, sound)[0]
    # every column not known to lose lets the opponent make four: a loss in one ply by the
    # rules, so a known loss that lasts longer is played rather than it
    return first_safe if first_safe is not None and slowest_plies <= 1 else slowest


def ranked(game: Game, model: BoardModel, code: int, moves: list[Move]) -> list[Move]:
    """``moves`` of the player to move in ``code``, best first by ``model`` (ties keep
    their order: the centre first)."""
    gains = model_gains(game, model, code, [move[0] for move in moves])
    order = sorted(range(len(moves)), key=lambda i: -gains[i])
    return [moves[i] for i in order]


def model_gains(game: Game, model: BoardModel, code: int, columns: list[int]) -> list[float]:
    """What ``model`` adds to its score of the position after each of ``columns`` (legal
    ones) for the player to move: they differ only by it."""
    xs, stones, count = game._boards(code)
    mine = stones ^ xs if count % 2 else xs
    height, column, bits = game._height, game._column, game.bits
    cells = []
    for move in columns:
        shift = move * bits
        cells.append((move, shift + height[code >> shift & column]))
    return model.gains(mine, stones ^ mine, cells, count % 2 == 0)


def chooser(memory: Memory, model: BoardModel | None = None) -> Callable[[int], Move]:
    """The policy of ``memory``'s game as a function of a position's code (on the classic
    board, with ``model`` ordering its open columns)."""
    game, known = memory.game, memory.known
    if game.classic:
        plies = memory.plies
        return lambda code: choose_classic(game, known, plies, code, model=model)
    return lambda code: choose_child(game, known, code)


def choose_code(memory: Memory, code: int, model: BoardModel | None = None) -> int:
    """The policy's move in the position ``code`` of ``memory``'s game (``model``: see
    :func:`choose_move`)."""
    game = memory.game
    if game.classic:
        return choose_classic(game, memory.known, memory.plies, code, model=model)[0]
    return choose_child(game, memory.known, code)[0]


@dataclass(frozen=True, slots=True)
class Suggestion:
    """Where a board model chose the bot's column (the classic board): ``ranking``, the
    columns the facts and the one-move rules left open, best first by the model;
    ``chances``, when asked for, the model's estimate (0..1) that each of them wins, in
    the same order (an ordering learned from proven facts, never a fact); ``trained_on``,
    how many proven positions it learned from. ``column`` is the first of the ranking,
    the one played; ``centre`` the one the bot would have played without the model (the
    first of them from the centre out). Columns are 0-based."""

    column: int
    ranking: tuple[int, ...]
    trained_on: int
    centre: int
    chances: tuple[float, ...] | None = None


def suggestion(
    memory: Memory, position: str | Board, model: BoardModel | None, *, chances: bool = False
) -> Suggestion | None:
    """The model's part in the bot's move in ``position``: a :class:`Suggestion` when the
    model chose among two open columns or more, else ``None`` (a fact or a rule decided,
    one column was left open, no model, or another board). ``chances``: with the model's
    estimates too (one more score of the position: for people, not for the move)."""
    game = memory.game
    if model is None or not model.active or not game.classic:
        return None
    code = _code(memory, position)
    moves = game.moves(code)
    if moves is None:
        return None
    known = memory.known
    take, block, gifts = game.lookahead(code)
    if take is not None or block is not None:
        return None
    if any(known(key) == WON for _move, _child, key in moves):
        return None
    open_ = [m for m in moves if not known(m[2]) and not gifts >> m[0] & 1]
    if len(open_) < 2:
        return None
    columns = [move[0] for move in open_]
    gains = model_gains(game, model, code, columns)
    order = sorted(range(len(columns)), key=lambda i: -gains[i])  # ties: centre first
    ranking = tuple(columns[i] for i in order)
    estimates = None
    if chances:  # the position's score with the player to move as the mover, plus a gain
        xs, stones, count = game._boards(code)
        mine = stones ^ xs if count % 2 else xs
        base = model.score(mine, stones ^ mine, count % 2 == 0)
        estimates = tuple(probability(base + gains[i]) for i in order)
    return Suggestion(ranking[0], ranking, model.trained_on, columns[0], estimates)


def _code(memory: Memory, position: str | Board) -> int:
    if isinstance(position, Board):
        if position.game is not memory.game:
            raise ValueError(f"a {position.game.title} board for a {memory.game.title} memory")
        return position.code
    return memory.game.parse(position)


def choose_move(memory: Memory, position: str | Board, *, model: BoardModel | None = None) -> int:
    """The bot's move in ``position`` (a cell 0..8, or a column 0..W-1); the mover is
    whoever's turn it is. On the classic board, ``model`` (:mod:`engine.ordering`, the
    learning level's) orders the columns the facts and the rules leave open; elsewhere
    it changes nothing.

    Raises ``ValueError`` for an illegal or finished position.
    """
    code = _code(memory, position)
    if memory.game.moves(code) is None:
        raise ValueError("the game is over; there is no move to choose")
    return choose_code(memory, code, model if memory.game.classic else None)


def outlook(memory: Memory, position: str | Board) -> dict[int, Outcome | None]:
    """What the memory knows of each legal move for the player to move: a proven WIN, a
    proven LOSS, or ``None``. Raises ``ValueError`` for a finished position."""
    code = _code(memory, position)
    moves = memory.game.moves(code)
    if moves is None:
        raise ValueError("the game is over; there is no move to look at")
    known = memory.known
    return {move: OUTCOMES[known(key)] for move, _child, key in moves}


def outlook_plies(
    memory: Memory, position: str | Board
) -> dict[int, tuple[Outcome, int | None] | None]:
    """On the classic board, what the memory knows of each legal move for the player to
    move: ``(WIN or LOSS, plies to the end after it, or None if unknown)``, or ``None``
    when nothing is known. Raises ``ValueError`` for a finished position."""
    code = _code(memory, position)
    moves = memory.game.moves(code)
    if moves is None:
        raise ValueError("the game is over; there is no move to look at")
    known, plies = memory.known, memory.plies
    return {
        move: (OUTCOMES[known(key)], plies(key)) if known(key) else None
        for move, _child, key in sorted(moves)
    }
