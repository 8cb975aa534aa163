"""A friendly board object over a game's integer codes, in the spirit of ``chess.Board``."""

from __future__ import annotations

from collections.abc import Iterable

from .games import Game, Mark, get_game


class IllegalMoveError(ValueError):
    """A move that the rules do not allow in this position."""


class Board:
    """A position of one game and the moves that led to it.

    >>> board = Board()
    >>> board.push(4); board.push(0)
    >>> board.position
    'O...X....'
    >>> Board.from_moves([1, 1, 2], game="connect4").position
    '.........O...XX.'
    """

    __slots__ = ("_code", "_stack", "game")

    def __init__(self, position: str | None = None, *, game: str | Game = "tictactoe") -> None:
        self.game = get_game(game)
        self._code = self.game.empty if position is None else self.game.parse(position)
        self._stack: list[tuple[int, int]] = []  # (move, code before) pushed here, for pop()

    @classmethod
    def from_moves(cls, moves: Iterable[int], *, game: str | Game = "tictactoe") -> Board:
        board = cls(game=game)
        for move in moves:
            board.push(move)
        return board

    @classmethod
    def from_code(cls, code: int, *, game: str | Game = "tictactoe") -> Board:
        board = cls.__new__(cls)
        board.game = get_game(game)
        board._code = code
        board._stack = []
        return board

    # --- reading the position -------------------------------------------------
    @property
    def code(self) -> int:
        """The position's number in its game (tic-tac-toe: base 3, seed 000)."""
        return self._code

    @property
    def position(self) -> str:
        return self.game.spell(self._code)

    @property
    def moves(self) -> tuple[int, ...]:
        return tuple(move for move, _ in self._stack)

    @property
    def turn(self) -> Mark:
        return Mark(self.game.turn(self._code))

    def cell(self, index: int) -> Mark | None:
        """The mark on a cell (row by row from the top), or ``None``."""
        value = self.game.cells(self._code)[index]
        return Mark(value) if value else None

    @property
    def legal_moves(self) -> tuple[int, ...]:
        moves = self.game.moves(self._code)
        return () if moves is None else tuple(move for move, _, _ in moves)

    @property
    def winner(self) -> Mark | None:
        if not self.is_game_over():
            return None
        won = self.game.winner(self._code)
        return Mark(won) if won else None

    def is_draw(self) -> bool:
        return self.is_game_over() and not self.game.winner(self._code)

    def is_game_over(self) -> bool:
        return self.game.moves(self._code) is None

    # --- changing it ----------------------------------------------------------
    def push(self, move: int) -> None:
        try:
            code = self.game.play(self._code, move)
        except ValueError as error:
            raise IllegalMoveError(str(error)) from None
        self._stack.append((move, self._code))
        self._code = code

    def pop(self) -> int:
        move, self._code = self._stack.pop()
        return move

    def copy(self) -> Board:
        board = Board.from_code(self._code, game=self.game)
        board._stack = list(self._stack)
        return board

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and other.game is self.game and other._code == self._code

    def __hash__(self) -> int:
        return hash(self._code)

    def __repr__(self) -> str:
        if self.game.name == "tictactoe":
            return f"Board({self.position!r})"
        return f"Board({self.position!r}, game={self.game.name!r})"

    def __str__(self) -> str:
        p, w = self.position, self.game.width
        return "\n".join(p[i : i + w] for i in range(0, len(p), w))


__all__ = ["Board", "IllegalMoveError"]
