"""Tic-tac-toe's rules for the engine: the board's 8 symmetries and the precomputed tables
behind them, and :data:`TICTACTOE`, the :class:`~engine.games.Game` they make.

A position is a base-3 number (seed 000): cell ``i`` contributes ``mark * 3**i`` with
X = 1 and O = 2, so every board is an int below 3**9. Cells are 0..8 here, row-major;
people see them as 1..9. Only the 5,478 positions reachable by legal play get table
entries, which is also how legality is decided.
"""

from __future__ import annotations

from collections.abc import Iterable

from .rules import Game

CELLS = 9
POW3 = tuple(3**i for i in range(CELLS))
LINES = (
    (0, 1, 2),
    (3, 4, 5),
    (6, 7, 8),  # rows
    (0, 3, 6),
    (1, 4, 7),
    (2, 5, 8),  # columns
    (0, 4, 8),
    (2, 4, 6),  # diagonals
)


SYMBOLS = {".": 0, "X": 1, "O": 2}
_DIGIT_SYMBOL = ".XO"


def _symmetries() -> tuple[tuple[int, ...], ...]:
    """The 8 rotations and reflections, each as ``perm`` with ``new[perm[i]] = old[i]``."""

    def rotate(cell: int) -> int:  # quarter turn clockwise
        row, col = divmod(cell, 3)
        return col * 3 + (2 - row)

    def mirror(cell: int) -> int:  # left-right
        row, col = divmod(cell, 3)
        return row * 3 + (2 - col)

    perms = []
    perm = tuple(range(CELLS))
    for _ in range(4):
        perms.append(perm)
        perms.append(tuple(mirror(c) for c in perm))
        perm = tuple(rotate(c) for c in perm)
    return tuple(perms)


SYMMETRIES = _symmetries()


def digits(code: int) -> list[int]:
    """The nine cell values (0 empty, 1 X, 2 O) of a position code."""
    out = []
    for _ in range(CELLS):
        code, d = divmod(code, 3)
        out.append(d)
    return out


def _winner(cells: list[int]) -> int:
    for a, b, c in LINES:
        if cells[a] and cells[a] == cells[b] == cells[c]:
            return cells[a]
    return 0


def _build_tables() -> tuple[list[int], list[int], list[tuple[int, ...]]]:
    """Walk every legal game once; fill canonical keys, winners and free cells."""
    size = 3**CELLS
    canon = [-1] * size  # -1 marks an unreachable (illegal) position
    winner = [0] * size
    empties: list[tuple[int, ...]] = [()] * size
    stack = [0]
    canon[0] = 0
    while stack:
        code = stack.pop()
        cells = digits(code)
        winner[code] = won = _winner(cells)
        free = tuple(i for i in range(CELLS) if not cells[i])
        empties[code] = free
        canon[code] = min(
            sum(cells[i] * POW3[perm[i]] for i in range(CELLS)) for perm in SYMMETRIES
        )
        if won or not free:
            continue
        mark = 1 if len(free) % 2 else 2  # X moves when an odd number of cells is free
        for cell in free:
            child = code + mark * POW3[cell]
            if canon[child] == -1:
                canon[child] = 0  # claimed; filled when popped
                stack.append(child)
    return canon, winner, empties


CANON, WINNER, EMPTIES = _build_tables()


def _build_slots() -> tuple[list[int], list[int]]:
    """Number the positions a fact can be about, up to symmetry: every legal position
    after a move except a finished draw (761 of them). Returns each code's slot (that of
    its canonical orientation; a finished draw gets the spare slot, never written, and
    an illegal code or the empty board -1) and each slot's canonical code."""
    slot_of = [-1] * len(CANON)
    slot_codes: list[int] = []
    for code, canon in enumerate(CANON):
        if canon == code and code and (WINNER[code] or EMPTIES[code]):
            slot_of[code] = len(slot_codes)
            slot_codes.append(code)
    draw = len(slot_codes)
    for code, canon in enumerate(CANON):
        if canon > 0 and slot_of[code] < 0:
            slot_of[code] = slot_of[canon] if WINNER[code] or EMPTIES[code] else draw
    return slot_of, slot_codes


SLOT, SLOT_CODES = _build_slots()
SLOTS = len(SLOT_CODES) + 1  # and the spare one of finished draws


def _build_moves() -> list[tuple[tuple[int, int, int], ...] | None]:
    """For each unfinished legal position, every move of the player to move as
    ``(cell, child code, child slot)``, in cell order; ``None`` elsewhere.

    The hot paths (choosing a move, proving a fact, counting the lines that beat the bot)
    then do no arithmetic per move, only lookups. Tuples of ints: untracked by the
    garbage collector.
    """
    moves: list[tuple[tuple[int, int, int], ...] | None] = [None] * len(CANON)
    for code, free in enumerate(EMPTIES):
        if CANON[code] < 0 or WINNER[code] or not free:
            continue
        mark = 1 if len(free) % 2 else 2
        moves[code] = tuple(
            (cell, child, SLOT[child])
            for cell, child in ((cell, code + mark * POW3[cell]) for cell in free)
        )
    return moves


MOVES = _build_moves()
# the mark to move in each position: X when an odd number of cells is free
TURN = [1 if len(free) % 2 else 2 for free in EMPTIES]


def is_legal_code(code: int) -> bool:
    return 0 <= code < len(CANON) and CANON[code] >= 0


def _spelled(code: int) -> str:
    return "".join(_DIGIT_SYMBOL[d] for d in digits(code))


# Every legal position spelled out, and back: a server's memory is read from the store as
# hundreds of position strings at each cold load. A lookup parses one ten times faster,
# and a cold load takes a third of the time (python -m bench.scale).
_STRING_OF = [_spelled(code) if legal >= 0 else None for code, legal in enumerate(CANON)]
_CODE_OF = {string: code for code, string in enumerate(_STRING_OF) if string is not None}


def code_to_string(code: int) -> str:
    return _STRING_OF[code] or _spelled(code)


def string_to_code(position: str) -> int:
    """Parse a 9-character position of ``X``, ``O`` and ``.``; raise ``ValueError`` if illegal."""
    code = _CODE_OF.get(position) if isinstance(position, str) else None
    if code is not None:
        return code
    if not isinstance(position, str) or len(position) != CELLS:
        raise ValueError(f"position must be 9 characters of X, O and '.', got {position!r}")
    code = 0
    for i, ch in enumerate(position):
        if ch not in SYMBOLS:
            raise ValueError(f"position {position!r} has {ch!r}; use only X, O and '.'")
        code += SYMBOLS[ch] * POW3[i]
    if not is_legal_code(code):
        raise ValueError(f"position {position!r} cannot arise in a legal game")
    return code


def canonical(position: str) -> str:
    """The orientation of ``position`` that stands for all 8 (what a memory stores)."""
    return code_to_string(CANON[string_to_code(position)])


def replay(moves: Iterable[int]) -> list[int]:
    """The position code after each move of a game from the empty board, X first.

    Raises ``ValueError`` for a cell out of range, a taken cell or a move after the end.
    """
    return TICTACTOE.replay(moves)


class TicTacToe(Game):
    """3×3, three in a row; the symmetries are the square's 8."""

    name = "tictactoe"
    title = "Tic-tac-toe"
    document_game = "tictactoe"
    board = "3x3"
    width = height = 3
    empty = 0
    code_bits = 15  # 3**9 < 2**15
    move_count = CELLS
    slots = SLOTS
    move_word = "cell"
    full_word = "taken"

    def __init__(self) -> None:
        # lookups into the tables, called as methods: the engine's hot paths
        self.moves = MOVES.__getitem__
        self.winner = WINNER.__getitem__
        self.turn = TURN.__getitem__
        self.key = SLOT.__getitem__
        self.canonical = CANON.__getitem__

    def parse(self, position: str, *, checked: bool = True) -> int:
        return string_to_code(position)  # one lookup: always checked

    def spell(self, code: int) -> str:
        return code_to_string(code)

    def key_code(self, key: int) -> int:
        return SLOT_CODES[key]

    def keys(self) -> range:
        return range(len(SLOT_CODES))

    def orientations(self, code: int) -> set[int]:
        cells = digits(code)
        return {sum(cells[i] * POW3[perm[i]] for i in range(CELLS)) for perm in SYMMETRIES}

    def parents(self, code: int) -> list[int]:
        mover = 3 - TURN[code]
        return [
            code - mover * POW3[cell] for cell in range(CELLS) if code // POW3[cell] % 3 == mover
        ]

    def cells(self, code: int) -> list[int]:
        return digits(code)

    def play(self, code: int, move: int) -> int:
        free = EMPTIES[code]
        if WINNER[code] or not free:
            raise ValueError("the game is over")
        if not isinstance(move, int) or not 0 <= move < CELLS:
            raise ValueError(f"{move!r} is not a cell 0..8")
        if move not in free:
            raise ValueError(f"cell {move} is taken")
        return code + TURN[code] * POW3[move]


TICTACTOE = TicTacToe()
