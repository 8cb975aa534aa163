"""Connect Four's rules for the engine, on any board of width × height (four in a row).

A position is a bitboard (after John Tromp and Pascal Pons): each column is ``height + 1``
bits, column ``c`` at bits ``c * (height + 1)`` and up. In a column, the stones are its low
bits, 1 for X and 0 for O, and a 1 just above its top stone marks its height. So every
position is one int (20 bits on 4×4, 25 on 5×4), the empty board has a 1 at the bottom of
each column, and dropping a stone is one addition: X adds twice the column's marker bit
(the marker becomes the stone, a new marker above it), O adds it once (the carry clears
the marker and sets the one above). The spare bit a column keeps above its top row also
stops lines from wrapping from one column into the next in the win test.

Symmetry is the left-right mirror only; a position's key is the smaller of its code and
its mirror's (a 49-bit number on the classic 7×6). 5×4 has about 4 million positions, too
many to table, so moves are worked out when asked, and the last ones asked are kept (most
of a game's tree is asked again and again by training and analysis).
"""

from __future__ import annotations

from .rules import Game

CACHED_POSITIONS = 1 << 16  # the moves of this many positions are kept: about 30 MB once full


class ConnectFour(Game):
    move_word = "column"
    full_word = "full"

    def __init__(self, width: int = 4, height: int = 4) -> None:
        if not (4 <= width <= 9 and 4 <= height <= 9):
            raise ValueError("Connect Four boards here are 4 to 9 columns by 4 to 9 rows")
        self.width, self.height = width, height
        self.name = "connect4" if (width, height) == (4, 4) else f"connect4-{width}x{height}"
        self.board = f"{width}x{height}"
        self.title = f"Connect Four {width}×{height}"
        self.document_game = "connect4"
        self.move_count = width
        self.slots = None
        self.searchable_per_game = width * height <= 16
        # 7x6 is the classic board: no whole-tree search, one move of lookahead, and moves
        # offered from the centre out (4, 3, 5, 2, 6, 1, 7 as people count), the order in
        # which its policy tries them; the minis keep the naive leftmost order
        self.classic = (width, height) == (7, 6)
        self.searchable = not self.classic
        bits = self.bits = height + 1
        self.code_bits = width * bits
        self._column = (1 << bits) - 1
        self._shifts = tuple(c * bits for c in range(width))
        order = sorted(range(width), key=lambda c: abs(2 * c - width + 1)) if self.classic else ()
        self.order = tuple(order) or tuple(range(width))  # the order of moves(code)
        self._ordered = tuple((c, self._shifts[c]) for c in self.order)
        self.empty = sum(1 << shift for shift in self._shifts)
        # the classic policy's lookahead (lookahead()): every cell of the board, and each
        # column's cells, as bitboards of the _boards() layout
        self._cells = sum(((1 << height) - 1) << shift for shift in self._shifts)
        self._in_column = tuple(((1 << height) - 1) << shift for shift in self._shifts)
        # by a column's bits: its height, and its stones as X's and as all
        self._height = [max(0, f.bit_length() - 1) for f in range(1 << bits)]
        self._xs = [f & ((1 << h) - 1) for f, h in enumerate(self._height)]
        self._stones = [(1 << h) - 1 for h in self._height]
        # the mirror by tables of each side's columns (the middle one stays), when small
        half = width // 2
        if half * bits <= 12:
            side = (1 << half * bits) - 1
            self._half = (side, (width - half) * bits)
            self._flip = [self._mirror_fields(f, half) for f in range(side + 1)]
        else:
            self._half = None
        self._cache: dict[int, tuple | None] = {}
        self._winners: dict[int, int] = {}  # of the finished positions in the cache

    # --- reading a code ---------------------------------------------------------------
    def _boards(self, code: int) -> tuple[int, int, int]:
        """X's stones, all stones (as bitboards of the same layout) and their count."""
        xs = stones = count = 0
        column, height, xs_of, stones_of = self._column, self._height, self._xs, self._stones
        for shift in self._shifts:
            f = code >> shift & column
            xs |= xs_of[f] << shift
            stones |= stones_of[f] << shift
            count += height[f]
        return xs, stones, count

    def _aligned(self, board: int) -> bool:
        """Whether a player's stones (a bitboard) hold four in a row."""
        for step in (1, self.bits, self.bits - 1, self.bits + 1):  # up, across, diagonals
            pairs = board & board >> step
            if pairs & pairs >> 2 * step:
                return True
        return False

    def winner(self, code: int) -> int:
        known = self._winners.get(code)
        if known is not None:
            return known
        xs, stones, _count = self._boards(code)
        if self._aligned(xs):
            return 1
        return 2 if self._aligned(stones ^ xs) else 0

    def turn(self, code: int) -> int:
        column, height = self._column, self._height
        return 2 if sum(height[code >> shift & column] for shift in self._shifts) % 2 else 1

    def _mirror_fields(self, code: int, fields: int) -> int:
        """``fields`` columns' bits in the reverse order."""
        mirrored, column, bits = 0, self._column, self.bits
        for _ in range(fields):
            mirrored = mirrored << bits | code & column
            code >>= bits
        return mirrored

    def mirror(self, code: int) -> int:
        if self._half is None:
            return self._mirror_fields(code, self.width)
        side, high = self._half  # the left columns' bits, and where the right ones start
        flip = self._flip
        middle = code & ~(side | side << high)
        return flip[code >> high] | middle | flip[code & side] << high

    def key(self, code: int) -> int:
        mirrored = self.mirror(code)
        return code if code < mirrored else mirrored

    def canonical(self, code: int) -> int:
        return self.key(code)

    def key_code(self, key: int) -> int:
        return key

    def orientations(self, code: int) -> set[int]:
        return {code, self.mirror(code)}

    def moves(self, code: int) -> tuple[tuple[int, int, int], ...] | None:
        cache = self._cache
        try:
            return cache[code]
        except KeyError:
            pass
        xs, stones, count = self._boards(code)
        last = xs if count % 2 else stones ^ xs  # X has made the last move after an odd count
        if count == self.width * self.height or self._aligned(last):
            found = None
            self._winners[code] = (1 if count % 2 else 2) if self._aligned(last) else 0
        else:
            drop = 1 if count % 2 else 2  # O adds the marker bit, X twice it
            found = []
            height, column, top, mirror = self._height, self._column, self.height, self.mirror
            for move, shift in self._ordered:
                h = height[code >> shift & column]
                if h < top:
                    child = code + (drop << shift + h)
                    mirrored = mirror(child)
                    found.append((move, child, child if child < mirrored else mirrored))
            found = tuple(found)
        if len(cache) >= CACHED_POSITIONS:
            cache.clear()
            self._winners.clear()
        cache[code] = found
        return found

    def fours(self, code: int, mark: int) -> list[int]:
        """The columns (in :attr:`order`) where ``mark`` would complete four in a row by
        dropping a stone now, whoever is to move: the one move of lookahead of the
        classic board's policy (take a four, block the opponent's)."""
        xs, stones, _count = self._boards(code)
        own = xs if mark == 1 else stones ^ xs
        found = []
        height, column, top = self._height, self._column, self.height
        for move, shift in self._ordered:
            h = height[code >> shift & column]
            if h < top and self._aligned(own | 1 << shift + h):
                found.append(move)
        return found

    def _four_cells(self, own: int) -> int:
        """Every cell (empty or not, playable or not) where one more stone of ``own`` (a
        bitboard) would complete four in a row, after Pascal Pons: the spare bit above each
        column is never a stone, so no line wraps."""
        bits = self.bits
        found = own << 1 & own << 2 & own << 3  # three below
        for step in (bits, bits - 1, bits + 1):  # across, and the two diagonals
            pair = own << step & own << 2 * step
            found |= pair & own << 3 * step | pair & own >> step
            pair = own >> step & own >> 2 * step
            found |= pair & own << step | pair & own >> 3 * step
        return found & self._cells

    def lookahead(self, code: int) -> tuple[int | None, int | None, int]:
        """What the classic board's policy sees one move ahead, for the player to move:
        the first column (in :attr:`order`) where it makes four now, the first where the
        opponent would (to block), and the columns (a bitmask, ``1 << column``) where its
        stone would let the opponent make four on top of it. One pass over bitboards:
        the hot path of training and the benchmark."""
        xs, stones, count = self._boards(code)
        own = stones ^ xs if count % 2 else xs
        empty = self._cells & ~stones
        playable = (stones + self.empty) & empty  # each column's lowest empty cell
        theirs = self._four_cells(stones ^ own) & empty
        take = block = None
        wins = self._four_cells(own) & playable
        blocks = theirs & playable
        if wins or blocks:
            for move in self.order:
                cells = self._in_column[move]
                if take is None and wins & cells:
                    take = move
                if block is None and blocks & cells:
                    block = move
        gifts = 0
        under = playable << 1 & theirs
        if under:
            for move in self.order:
                if under & self._in_column[move]:
                    gifts |= 1 << move
        return take, block, gifts

    def parents(self, code: int) -> list[int]:
        mover = 3 - self.turn(code)
        found = []
        for shift in self._shifts:
            f = code >> shift & self._column
            h = self._height[f]
            if h and (1 if f >> h - 1 & 1 else 2) == mover:
                below = f & ((1 << h - 1) - 1) | 1 << h - 1
                found.append(code - (f << shift) + (below << shift))
        return found

    # --- as people and documents write it -----------------------------------------------
    def cells(self, code: int) -> list[int]:
        grid = [0] * (self.width * self.height)
        for c, shift in enumerate(self._shifts):
            f = code >> shift & self._column
            for row in range(self._height[f]):  # from the bottom
                grid[(self.height - 1 - row) * self.width + c] = 1 if f >> row & 1 else 2
        return grid

    def spell(self, code: int) -> str:
        return "".join(".XO"[cell] for cell in self.cells(code))

    def parse(self, position: str, *, checked: bool = True) -> int:
        width, height = self.width, self.height
        if not isinstance(position, str) or len(position) != width * height:
            raise ValueError(
                f"a {self.board} position must be {width * height} characters of X, O and "
                f"'.', row by row from the top, got {position!r}"
            )
        code = 0
        for c, shift in enumerate(self._shifts):
            f = h = 0
            for row in range(height):  # from the bottom up
                ch = position[(height - 1 - row) * width + c]
                if ch == ".":
                    continue
                if ch not in "XO":
                    raise ValueError(f"position {position!r} has {ch!r}; use only X, O and '.'")
                if h != row:
                    raise ValueError(
                        f"position {position!r} has a stone over an empty cell in column {c + 1}"
                    )
                f |= (ch == "X") << row
                h += 1
            code |= (f | 1 << h) << shift
        if checked and not self._reachable(code):
            raise ValueError(f"position {position!r} cannot arise in a legal game")
        return code

    def _reachable(self, code: int) -> bool:
        """Whether legal play reaches ``code``: its stones can be taken back one by one,
        each the top of its column and of the player who moved last, and the first one
        taken back leaves nobody with four in a row (only the last move may have made
        one; taking stones away never makes one)."""
        xs, stones, count = self._boards(code)
        x_count = xs.bit_count()
        if not count - x_count <= x_count <= count - x_count + 1:
            return False
        if self._aligned(xs if count % 2 == 0 else stones ^ xs):  # the player to move won?
            return False
        if count == 0:
            return True
        column, height = self._column, self._height
        # each column's stones from the bottom: True for X
        columns = [
            [bool(f >> row & 1) for row in range(height[f])]
            for f in (code >> shift & column for shift in self._shifts)
        ]
        heights = [len(c) for c in columns]
        last_x = count % 2 == 1
        won = self.winner(code) != 0
        failed: set[tuple[int, ...]] = set()

        def back(heights: list[int], x_moved: bool, left: int) -> bool:
            if left == 0:
                return True
            key = tuple(heights)
            if key in failed:
                return False
            for c, h in enumerate(heights):
                if h and columns[c][h - 1] is x_moved:
                    heights[c] -= 1
                    if back(heights, not x_moved, left - 1):
                        return True
                    heights[c] += 1
            failed.add(key)
            return False

        for before in self.parents(code) if won else (None,):
            if before is not None:
                if self.winner(before):
                    continue
                heights = [self._height[before >> shift & column] for shift in self._shifts]
                if back(heights, not last_x, count - 1):
                    return True
            elif back(heights, last_x, count):
                return True
        return False
