"""A friendly board object over the integer tables, in the spirit of ``chess.Board``."""

from __future__ import annotations

from collections.abc import Iterable

from .rules import (
    EMPTIES,
    POW3,
    WINNER,
    Mark,
    code_to_string,
    digits,
    string_to_code,
    to_move,
)


class IllegalMoveError(ValueError):
    """A move that the rules do not allow in this position."""


class Board:
    """A position and the moves that led to it.

    >>> board = Board()
    >>> board.push(4); board.push(0)
    >>> board.position
    'O...X....'
    """

    __slots__ = ("_code", "_stack")

    def __init__(self, position: str = ".........") -> None:
        self._code = string_to_code(position)
        self._stack: list[int] = []  # moves pushed on this object, for pop()

    @classmethod
    def from_moves(cls, moves: Iterable[int]) -> Board:
        board = cls.from_code(0)  # the empty board, without parsing its string
        for cell in moves:
            board.push(cell)
        return board

    @classmethod
    def from_code(cls, code: int) -> Board:
        board = cls.__new__(cls)
        board._code = code
        board._stack = []
        return board

    # --- reading the position -------------------------------------------------
    @property
    def code(self) -> int:
        """The base-3 number of the position (seed 000)."""
        return self._code

    @property
    def position(self) -> str:
        return code_to_string(self._code)

    @property
    def moves(self) -> tuple[int, ...]:
        return tuple(self._stack)

    @property
    def turn(self) -> Mark:
        return to_move(self._code)

    def cell(self, index: int) -> Mark | None:
        value = digits(self._code)[index]
        return Mark(value) if value else None

    @property
    def legal_moves(self) -> tuple[int, ...]:
        return () if self.is_game_over() else EMPTIES[self._code]

    @property
    def winner(self) -> Mark | None:
        won = WINNER[self._code]
        return Mark(won) if won else None

    def is_draw(self) -> bool:
        return not WINNER[self._code] and not EMPTIES[self._code]

    def is_game_over(self) -> bool:
        return bool(WINNER[self._code]) or not EMPTIES[self._code]

    # --- changing it ----------------------------------------------------------
    def push(self, cell: int) -> None:
        if self.is_game_over():
            raise IllegalMoveError("the game is over")
        if not isinstance(cell, int) or not 0 <= cell <= 8:
            raise IllegalMoveError(f"cell must be 0..8, got {cell!r}")
        if cell not in EMPTIES[self._code]:
            raise IllegalMoveError(f"cell {cell} is taken")
        self._code += self.turn * POW3[cell]
        self._stack.append(cell)

    def pop(self) -> int:
        cell = self._stack.pop()
        self._code -= (self.turn.other) * POW3[cell]
        return cell

    def copy(self) -> Board:
        board = Board.from_code(self._code)
        board._stack = list(self._stack)
        return board

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and other._code == self._code

    def __hash__(self) -> int:
        return hash(self._code)

    def __repr__(self) -> str:
        return f"Board({self.position!r})"

    def __str__(self) -> str:
        p = self.position
        return "\n".join(p[i : i + 3] for i in (0, 3, 6))


__all__ = ["Board", "IllegalMoveError"]
