"""An exact Connect Four solver written independently of the engine, to judge its facts.

Positions are strings as the engine's documents write them: width × height characters,
row by row from the top, ``.`` empty, ``X`` first player, ``O`` second.
"""

from __future__ import annotations

import sys

DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


class Solver:
    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.memo: dict[str, int] = {}
        middle = (width - 1) / 2
        self.order = sorted(range(width), key=lambda c: abs(c - middle))  # centre first

    def cell(self, position: str, row: int, col: int) -> str:
        """``row`` counted from the bottom."""
        return position[(self.height - 1 - row) * self.width + col]

    def drop(self, position: str, col: int, mark: str) -> tuple[str, int] | None:
        for row in range(self.height):
            if self.cell(position, row, col) == ".":
                i = (self.height - 1 - row) * self.width + col
                return position[:i] + mark + position[i + 1 :], row
        return None

    def makes_four(self, position: str, row: int, col: int) -> bool:
        mark = self.cell(position, row, col)
        for dc, dr in DIRECTIONS:
            run = 1
            for sign in (1, -1):
                c, r = col + sign * dc, row + sign * dr
                while 0 <= c < self.width and 0 <= r < self.height:
                    if self.cell(position, r, c) != mark:
                        break
                    run += 1
                    c, r = c + sign * dc, r + sign * dr
            if run >= 4:
                return True
        return False

    def has_four(self, position: str) -> str | None:
        for row in range(self.height):
            for col in range(self.width):
                if self.cell(position, row, col) != "." and self.makes_four(position, row, col):
                    return self.cell(position, row, col)
        return None

    def mirror(self, position: str) -> str:
        w = self.width
        return "".join(position[i : i + w][::-1] for i in range(0, len(position), w))

    def value(self, position: str) -> int:
        """+1, 0 or -1 for the player to move, under perfect play; the position must not
        be finished."""
        key = min(position, self.mirror(position))
        known = self.memo.get(key)
        if known is not None:
            return known
        mark = "X" if position.count("X") == position.count("O") else "O"
        children = []
        for col in self.order:
            dropped = self.drop(position, col, mark)
            if dropped is None:
                continue
            child, row = dropped
            if self.makes_four(child, row, col):
                self.memo[key] = 1
                return 1
            children.append(child)
        best = -1 if children else 0
        for child in children:
            v = 0 if "." not in child else -self.value(child)
            if v > best:
                best = v
                if best == 1:
                    break
        self.memo[key] = best
        return best

    def true_outcome(self, position: str) -> str | None:
        """'win', 'loss' or None (a draw) for the move that produced ``position``."""
        if self.has_four(position):
            return "win"
        if "." not in position:
            return None
        return {-1: "win", 1: "loss", 0: None}[self.value(position)]


_SOLVERS: dict[tuple[int, int], Solver] = {}


def solver(width: int, height: int) -> Solver:
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    if (width, height) not in _SOLVERS:
        _SOLVERS[(width, height)] = Solver(width, height)
    return _SOLVERS[(width, height)]
