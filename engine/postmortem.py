"""The certified post-mortem of the classic board (Connect Four 7×6).

After a finished game, the exact solver (:mod:`engine.solver`) values every position of
the game where the side under study was to move, for *every* legal column there, not only
the one played; and, widened (the default), every position one other reply of the
opponent would have made, for every column there too. Each value is a proven fact about
the position after that column: a win or a loss for the player who dropped it, with the
plies from there to the end under perfect play. Draws are not stored. So one loss
teaches the whole of each position the bot faced: where it went wrong, and which column
would have held; and its answer to every single deviation of the opponent from that game.

Everything here is a plain function over ints, strings and tuples: the solver holds the
GIL, so the bot runs :func:`post_mortem` in a worker process and applies its list with
:func:`apply_post_mortem` (or stores it and reads it back) in its own.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import solver
from .games import Game, Mark, get_game
from .memory import Memory

ProvenFact = tuple[int, str, int]  # (canonical key, "win" or "loss" for the mover, plies)


def _classic(game: str | Game) -> Game:
    game = get_game(game)
    if not game.classic:
        raise ValueError(f"{game.title} has no post-mortem: its facts carry no distances")
    return game


def studied_plies(game: str | Game, moves: list[int], bot: Mark | int | None) -> list[int]:
    """The plies of a game whose positions its post-mortem values, every column of each:
    where ``bot`` was to move (every ply for a game between members, ``bot`` ``None``);
    none if the bot won. Not the positions one reply away that the widening adds."""
    game = get_game(game)
    codes = game.replay(moves)
    if bot is None:
        return list(range(len(moves)))
    bot = Mark(bot)
    if codes and game.winner(codes[-1]) == bot:
        return []
    return [ply for ply in range(len(moves)) if ply % 2 == (0 if bot is Mark.X else 1)]


def _studied(game: Game, moves: list[int], bot: Mark | int | None, widen: bool) -> list[int]:
    """The positions of a finished game to value, each for every column of its mover:
    where ``bot`` was to move (every position, for a game between members), none if the
    bot won; and with ``widen``, every position one other reply of the opponent makes
    where the bot (or, between members, either side) would then be to move. Once each,
    the played path first."""
    codes = game.replay(moves)
    if not codes or game.moves(codes[-1]) is not None:
        raise ValueError("only a finished game can be looked back at")
    befores = [game.empty, *codes[:-1]]
    plies = studied_plies(game, moves, bot)
    studied = [befores[ply] for ply in plies]
    if not widen or not plies:  # nothing to widen where the bot won
        return studied
    mine = set(plies)
    replying = [code for ply, code in enumerate(befores) if bot is None or ply not in mine]
    seen = {game.key(code) for code in studied}
    for code in replying:  # the opponent to move: each reply it could have played
        for _move, child, key in game.moves(code):
            if key not in seen and game.moves(child) is not None:
                seen.add(key)
                studied.append(child)
    return studied


def post_mortem(
    game: str | Game,
    moves: list[int],
    bot: Mark | int | None = None,
    *,
    widen: bool = True,
) -> list[ProvenFact]:
    """The proven facts of a finished game's post-mortem, as ``(key, outcome, plies)``:
    ``key`` the canonical 49-bit code of the position after a column, ``outcome``
    ``"win"`` or ``"loss"`` for the player who dropped it, ``plies`` from there to the end
    under perfect play (0 for a column that makes four). With ``bot`` (its mark, 1 or 2),
    only the positions where the bot was to move, and nothing if it won; without, every
    position (a game between members). ``widen`` (the default) adds, wherever the
    opponent was to move, every column of the position each of its other replies makes:
    the bot's answers to every single deviation from the game. In key order; picklable.

    Raises ``ValueError`` for an unfinished or illegal game or another board, and
    :class:`engine.solver.SolverUnavailable` without the solver.
    """
    game = _classic(game)
    facts: dict[int, tuple[str, int]] = {}
    for before in _studied(game, list(moves), bot, widen):
        keys = {move: key for move, _child, key in game.moves(before)}
        for column, score in solver.score_all(before).items():
            if score is not None:
                facts[keys[column]] = score
    return [(key, outcome, plies) for key, (outcome, plies) in sorted(facts.items())]


def apply_post_mortem(memory: Memory, facts: list[ProvenFact]) -> int:
    """Record a post-mortem's facts in a classic board's memory; return how many are new."""
    return memory.add_proven(facts)


@dataclass(frozen=True, slots=True)
class Verdict:
    """The lesson of a game the bot did not win: its first move that lost while another
    column held; or, if none did (a draw), its first move that let a win go.

    ``played`` is what that move gave the bot, ``"loss"`` or ``"draw"``; ``held`` the
    column that would have done best there (the fastest win, else a draw; the centre
    first), ``held_outcome`` ``"win"`` or ``"draw"``. After a losing move, ``plies``
    counts the plies from it to the end under perfect play and ``opponent_moves`` the
    opponent's moves among them: "from there you could force a win in N moves". Columns
    are 0-based.
    """

    ply: int  # the move's index in the game (0-based): people read move ply + 1
    column: int
    played: str
    held: int
    held_outcome: str
    plies: int | None
    opponent_moves: int | None


_RANK = {"win": 2, "draw": 1, "loss": 0}


def describe_post_mortem(
    game: str | Game, moves: list[int], facts: list[ProvenFact], bot: Mark | int
) -> Verdict | None:
    """The lesson of a post-mortem (:func:`post_mortem` with the same ``bot``), from its
    facts alone (no solver), or ``None`` when the bot played every position as well as it
    could (or won)."""
    game = _classic(game)
    moves = list(moves)
    bot = Mark(bot)
    known = {key: (outcome, plies) for key, outcome, plies in facts}
    befores = [game.empty, *game.replay(moves)[:-1]]
    missed = None
    for ply in range(0 if bot is Mark.X else 1, len(moves), 2):
        options = {}  # by column, centre first: (rank, speed of a win, plies)
        for move, _child, key in game.moves(befores[ply]):
            outcome, plies = known.get(key, ("draw", None))  # not stored: a draw
            options[move] = (_RANK[outcome], -plies if outcome == "win" else 0, plies)
        played = options[moves[ply]]
        best = max(options, key=lambda move: options[move][:2])
        if options[best][0] <= played[0]:
            continue
        verdict = Verdict(
            ply=ply,
            column=moves[ply],
            played="loss" if played[0] == 0 else "draw",
            held=best,
            held_outcome="win" if options[best][0] == 2 else "draw",
            plies=played[2] if played[0] == 0 else None,
            opponent_moves=(played[2] + 1) // 2 if played[0] == 0 else None,
        )
        if verdict.played == "loss":
            return verdict
        missed = missed or verdict
    return missed


__all__ = ["ProvenFact", "Verdict", "apply_post_mortem", "describe_post_mortem", "post_mortem"]
