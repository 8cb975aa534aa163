"""Cutting puzzles from a game looked back at, and checking one still holds: which
positions of the game are puzzles, and every column's proven value of one now. No Discord,
no store (see :mod:`gameflow.puzzles`)."""

from __future__ import annotations

from collections.abc import Callable

import engine
from data.puzzles import NewPuzzle, PuzzleRecord, ReviewedGame
from engine import Mark, Memory
from engine.puzzles import (
    Value,
    classify,
    column_values,
    cuts_of_game,
    replied_values,
    studied_plies,
)

from .memories import known_in


def member_against_bot(puzzle: PuzzleRecord) -> bool:
    """Whether the puzzle is a member's position in a game against the bot: its columns'
    values are read from the facts of every reply to each (the bot's, which its
    post-mortem valued), not from facts of its own."""
    return puzzle.player_id is not None and puzzle.other_id is None


def proven(puzzle: PuzzleRecord, memory: Memory) -> dict[int, Value] | None:
    """Every column's value of a puzzle, as the memory proves it now (its draws from the
    puzzle); ``None`` if it no longer proves this puzzle (a reset forgot it)."""
    rules = memory.game
    code = rules.replay(puzzle.moves)[-1] if puzzle.moves else rules.empty
    value = replied_values if member_against_bot(puzzle) else column_values
    values = value(rules, code, known_in(memory), puzzle.draws)
    if values is None or classify(values) != (puzzle.kind, puzzle.answer):
        return None
    return values


def cut_game(
    kind: str,
    game_id: int,
    moves: tuple[int, ...],
    bot: Mark | None,
    member_playing: Callable[[Mark], int | None],
    result: str,
    played_at: float,
    known: Callable[[int], tuple[str, int | None] | None],
    *,
    absent_is_draw: bool,
    members_absent_is_draw: bool | None = None,
) -> list[NewPuzzle]:
    """The puzzles of a game looked back at, as the store keeps them (``bot``: its mark in
    a game against it; ``member_playing``: the member who plays a mark, ``None`` the bot).
    In a game against the bot, the member's positions too, valued from the bot's replies
    (its post-mortem valued every column of each position one move of the member away);
    ``members_absent_is_draw``: whether a reply without a fact there is a draw (by
    default as ``absent_is_draw``)."""
    rules = engine.get_game(kind)
    moves = list(moves)
    studied = studied_plies(kind, moves, bot)
    members = [ply for ply in range(len(moves)) if ply not in set(studied)] if studied else []
    cuts = cuts_of_game(
        kind, moves, studied, known, absent_is_draw=absent_is_draw,
        replied=members if bot is not None else (), replied_absent_is_draw=members_absent_is_draw,
    )  # fmt: skip
    codes = [rules.empty, *rules.replay(moves)] if cuts else []
    return [
        NewPuzzle(
            key=rules.key(codes[cut.ply]),
            moves=tuple(moves[: cut.ply]),
            kind=cut.kind,
            answer=cut.answer,
            draws=cut.draws,
            game_id=game_id,
            player_id=member_playing(mover := Mark.X if cut.ply % 2 == 0 else Mark.O),
            other_id=member_playing(mover.other),
            found=moves[cut.ply] == cut.answer,
            beat_bot=bot is not None and result == "player_won",
            played_at=played_at,
            plies=cut.plies,
        )
        for cut in cuts
    ]


def bot_of(record: ReviewedGame) -> Mark | None:
    return Mark[record.bot_mark] if record.opponent_id is None else None


def members_of(record: ReviewedGame) -> Callable[[Mark], int | None]:
    """Who plays a mark in a stored game: the bot (``None``), the player, or the member
    who took the bot's side."""
    bot_side = Mark[record.bot_mark]

    def playing(mark: Mark) -> int | None:
        return record.player_id if mark is not bot_side else record.opponent_id

    return playing
