"""An exact Connect Four 7×6 solver written without bitbully and without the engine, to
judge the engine's solver: plain negamax with alpha-beta and a transposition table, good
for positions with 28 stones or more.

Positions are strings as the engine's documents write them: 42 characters, row by row
from the top, ``.`` empty, ``X`` the first player, ``O`` the second. A value is the
number of plies to the end under perfect play, signed for the player to move: ``+n`` it
wins in n plies (its stone completing four is the n-th ply), ``-n`` it loses in n plies,
``0`` a draw. Perfect play here is the winner's fastest win and the loser's slowest loss.
"""

from __future__ import annotations

W, H = 7, 6
CENTRE_FIRST = (3, 2, 4, 1, 5, 0, 6)
LINES: list[tuple[int, int, int, int]] = []  # every four cells in a row, as (col, row) indices
for _c in range(W):
    for _r in range(H):
        for _dc, _dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
            cells = [(_c + k * _dc, _r + k * _dr) for k in range(4)]
            if all(0 <= c < W and 0 <= r < H for c, r in cells):
                LINES.append(tuple(c * H + r for c, r in cells))
THROUGH = [[line for line in LINES if i in line] for i in range(W * H)]


def grid(position: str) -> list[str]:
    """The cells column by column from the bottom (index col * H + row)."""
    return [position[(H - 1 - r) * W + c] for c in range(W) for r in range(H)]


class Oracle:
    def __init__(self, position: str) -> None:
        self.cells = grid(position)
        self.heights = [sum(self.cells[c * H + r] != "." for r in range(H)) for c in range(W)]
        self.stones = sum(self.heights)
        self.mover = "X" if self.stones % 2 == 0 else "O"
        self.table: dict[str, tuple[int, int]] = {}  # position -> (lower, upper) rank

    def fours_at(self, index: int, mark: str) -> bool:
        cells = self.cells
        return any(all(cells[i] == mark or i == index for i in line) for line in THROUGH[index])


# Values are ordered by what the mover prefers: any win over a draw over any loss, a faster
# win over a slower one, a slower loss over a faster one. Ranks make that one integer:
# a win in n ranks 100 - n, a draw 0, a loss in n ranks n - 100.


def _rank(value: int) -> int:
    return 0 if value == 0 else (100 - value if value > 0 else -100 - value)


def _value(rank: int) -> int:
    return 0 if rank == 0 else (100 - rank if rank > 0 else -100 - rank)


def _parent_value(child: int) -> int:
    """The mover's value of a move from its opponent's value of the position after it."""
    if child == 0:
        return 0
    return -(child + 1) if child > 0 else -child + 1


def value_of(position: str) -> int:
    """The signed plies to the end for the player to move (see the module's docstring)."""
    return _value(oracle_search(Oracle(position)))


def oracle_search(oracle: Oracle) -> int:
    return _ranked(oracle, -100, 100)


def _ranked(o: Oracle, alpha: int, beta: int) -> int:
    """Negamax over ranks with alpha-beta and a bounded transposition table."""
    cells, heights, mark = o.cells, o.heights, o.mover
    free = [c for c in CENTRE_FIRST if heights[c] < H]
    for c in free:
        if o.fours_at(c * H + heights[c], mark):
            return 99  # a win in 1 ply
    if not free or o.stones == W * H - 1:
        return 0
    # no four now, so a win takes 3 plies at least: rank 97 at best
    if beta > 97:
        beta = 97
        if alpha >= beta:
            return beta
    key = "".join(cells)
    known = o.table.get(key)
    if known is not None:
        low, high = known
        if low >= beta:
            return low
        if high <= alpha:
            return high
        if low > alpha:
            alpha = low
        if high < beta:
            beta = high
        if low == high:
            return low
    start_alpha, start_beta = alpha, beta
    other = "O" if mark == "X" else "X"
    best = -100
    for c in free:
        i = c * H + heights[c]
        cells[i] = mark
        heights[c] += 1
        o.stones += 1
        o.mover = other
        # the child's rank r maps to ours as -(r - 1) for a win/loss, 0 for a draw: a
        # window (alpha, beta) for us is (-beta, -alpha) shifted by one ply for the child
        child = _ranked(o, _to_child(beta), _to_child(alpha))
        cells[i] = "."
        heights[c] -= 1
        o.stones -= 1
        o.mover = mark
        rank = _from_child(child)
        if rank > best:
            best = rank
            if best > alpha:
                alpha = best
                if alpha >= beta:
                    break
    if best <= start_alpha:
        o.table[key] = (-100, best)
    elif best >= start_beta:
        o.table[key] = (best, 100)
    else:
        o.table[key] = (best, best)
    return best


def _from_child(rank: int) -> int:
    """Our rank of a move from the opponent's rank of the position after it: one ply more
    to the end, and the other side's point of view."""
    if rank == 0:
        return 0
    return -(rank - 1) if rank > 0 else -(rank + 1)


def _to_child(rank: int) -> int:
    """The child's rank bound matching our bound ``rank`` (the inverse of
    :func:`_from_child`, so the window stays exact)."""
    if rank == 0:
        return 0
    if rank >= 100 or rank <= -100:
        return -rank
    return -(rank + 1) if rank > 0 else -(rank - 1)


def column_values(position: str) -> dict[int, tuple[str, int] | None]:
    """For each legal column (0..6) of an unfinished position, for the player who drops
    it: ``("win", n)`` or ``("loss", n)`` with n the plies from the position after the drop
    to the end (0 when the drop makes four), or ``None`` for a draw."""
    o = Oracle(position)
    mark, other = o.mover, "O" if o.mover == "X" else "X"
    values = {}
    for c in range(W):
        if o.heights[c] == H:
            continue
        i = c * H + o.heights[c]
        if o.fours_at(i, mark):
            values[c] = ("win", 0)
            continue
        o.cells[i] = mark
        o.heights[c] += 1
        o.stones += 1
        o.mover = other
        # the opponent's value, now to move: its win in n plies is our loss n plies later
        opponent = 0 if o.stones == W * H else _value(oracle_search(o))
        values[c] = None if opponent == 0 else ("loss" if opponent > 0 else "win", abs(opponent))
        o.cells[i] = "."
        o.heights[c] -= 1
        o.stones -= 1
        o.mover = mark
    return values
