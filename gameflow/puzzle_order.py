"""The order puzzles are posed in to one member: never one that the board just shown gives
away, and one game's puzzles spread apart (:func:`preferred`). No Discord, no store."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from data.puzzles import PuzzleRecord


def gives_away(puzzle: PuzzleRecord, shown: PuzzleRecord) -> bool:
    """Whether the board of ``shown`` gives ``puzzle``'s answer away: ``puzzle`` is an
    earlier position of the same game, and the game went on with its answer."""
    moves, seen = puzzle.moves, shown.moves
    return (
        len(moves) < len(seen)
        and seen[: len(moves)] == moves
        and seen[len(moves)] == (puzzle.answer)
    )


def preferred(candidates: Sequence[PuzzleRecord], last: PuzzleRecord | None) -> list[PuzzleRecord]:
    """The order to pose ``candidates`` (best first) in, right after ``last``: never one
    that ``last``'s board gives away; those of another game than ``last``'s first (a
    game's puzzles spread apart); a game's puzzles together, its earliest position first
    (a later board shows how the game went on)."""
    allowed = [p for p in candidates if last is None or not gives_away(p, last)]
    same = _same_game(last)
    games: list[PuzzleRecord] = []  # the first puzzle seen of each game, best first
    for puzzle in allowed:
        if not any(_same_game(first)(puzzle) for first in games):
            games.append(puzzle)

    def rank(puzzle: PuzzleRecord) -> tuple[bool, int, int]:
        game = next(n for n, first in enumerate(games) if _same_game(first)(puzzle))
        return same(puzzle), game, len(puzzle.moves)

    return sorted(allowed, key=rank)


def _same_game(puzzle: PuzzleRecord | None) -> Callable[[PuzzleRecord], bool]:
    """Whether a puzzle is of the same game as ``puzzle`` (a forgotten game's puzzles by
    their moves: one is a start of the other)."""
    if puzzle is None:
        return lambda other: False

    def same(other: PuzzleRecord) -> bool:
        if puzzle.game_id is not None and other.game_id is not None:
            return other.game_id == puzzle.game_id
        short, long = sorted((puzzle.moves, other.moves), key=len)
        return long[: len(short)] == short

    return same
