"""What a game is to the engine (the registry of games by name is :mod:`engine.games`).

The learning rules, the policy, training, the teacher, analysis and transport are written
once against :class:`Game` and never name a game (OpenSpiel's lesson). A game is a rules
object over integer position codes:

* ``moves(code)``: the moves of the player to move, in the naive policy's order, each as
  ``(move, child code, key)``, where ``key`` numbers the child's position up to symmetry
  (what a memory stores); ``None`` once the game is over;
* ``winner(code)``: 0, or the mark (1 X, 2 O) that completed a line;
* ``turn(code)``: the mark to move; ``parents(code)``: the positions one move before;
* ``orientations(code)``: the position's codes under the game's symmetries;
* ``parse``/``spell``: a position as people and documents write it, row by row from the
  top with ``.``, ``X`` and ``O``.

A new game is one new module with a subclass, and a line in :data:`engine.games.GAMES`.
The game modules import this module, never the registry, so there is no import circle.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable

Move = tuple[int, int, int]  # (move, child code, child key)


class Mark(enum.IntEnum):
    """A player's mark: X moves first (🔴 in Connect Four), O second (🟡)."""

    X = 1
    O = 2  # noqa: E741 - the letter is the mark's name

    @property
    def other(self) -> Mark:
        return _OTHER[self]  # not Mark(3 - self): an enum's call costs more than a move's check


_OTHER = {Mark.X: Mark.O, Mark.O: Mark.X}


class Game:
    """A game's rules, as the engine sees them (see the module's docstring)."""

    name: str  # as code and documents name it: "tictactoe", "connect4", "connect4-5x4"
    title: str  # as people read it
    document_game: str  # a memory document's "game", and its "board" below
    board: str
    width: int
    height: int
    empty: int  # the empty board's code
    code_bits: int  # every code is below 2**code_bits
    move_count: int  # moves are 0 .. move_count-1 (cells, or columns)
    # a dense memory is 2 bits for each of ``slots`` keys; ``None``: keys are canonical
    # codes, too many to table, and a memory keeps only what it knows (engine.tables)
    slots: int | None
    # whether the bot's whole tree of games is small enough to search (engine.analyse)
    # after every game a bot plays: tic-tac-toe and 4x4 in a few ms; 5x4 takes ~70 ms
    searchable_per_game: bool = True
    # whether that tree can be searched at all (engine.analyse); False on 7x6
    searchable: bool = True
    # the classic board (7x6): too large to perfect, so the bot looks one move ahead (takes
    # a four, blocks one), its facts carry the plies to the end, and it learns from an
    # exact solver's post-mortem (engine.postmortem) besides the three rules
    classic: bool = False

    # filled by each game, most as lookups into its tables
    moves: Callable[[int], tuple[Move, ...] | None]
    winner: Callable[[int], int]
    turn: Callable[[int], int]
    key: Callable[[int], int]

    def parse(self, position: str, *, checked: bool = True) -> int:
        """The code of a position string; ``ValueError`` if it cannot arise in play.
        ``checked=False`` skips the search of a legal order of play, for positions this
        engine wrote itself (a memory read back from its store)."""
        raise NotImplementedError

    def spell(self, code: int) -> str:
        raise NotImplementedError

    def key_code(self, key: int) -> int:
        """The canonical position's code of a memory key."""
        raise NotImplementedError

    def keys(self) -> Iterable[int]:
        """For a dense memory: every key a fact can be about, in a stable order."""
        raise NotImplementedError

    def orientations(self, code: int) -> set[int]:
        raise NotImplementedError

    def parents(self, code: int) -> list[int]:
        """The positions one move before ``code`` (in this orientation)."""
        raise NotImplementedError

    def cells(self, code: int) -> list[int]:
        """The board's cells row by row from the top: 0 empty, 1 X, 2 O."""
        return [".XO".index(ch) for ch in self.spell(code)]

    # --- shared by every game ---------------------------------------------------------
    def last_mover(self, code: int) -> Mark:
        return Mark(3 - self.turn(code))

    def canonical(self, code: int) -> int:
        return min(self.orientations(code))

    def play(self, code: int, move: int) -> int:
        """The code after ``move``; ``ValueError`` if it is not a legal move there."""
        moves = self.moves(code)
        if moves is None:
            raise ValueError("the game is over")
        for legal, child, _key in moves:
            if legal == move and type(move) is int:
                return child
        if type(move) is not int or not 0 <= move < self.move_count:
            raise ValueError(f"{move!r} is not a {self.move_word} 0..{self.move_count - 1}")
        raise ValueError(f"{self.move_word} {move} is {self.full_word}")

    def replay(self, moves: Iterable[int]) -> list[int]:
        """The code after each move of a game from the empty board, X first.

        Raises ``ValueError`` for a move out of range, onto a taken cell or a full
        column, or after the end.
        """
        codes = []
        code = self.empty
        for ply, move in enumerate(moves):
            if self.moves(code) is None:
                raise ValueError(f"move {ply + 1} ({move}) comes after the game ended")
            try:
                code = self.play(code, move)
            except ValueError as error:
                raise ValueError(f"move {ply + 1}: {error}") from None
            codes.append(code)
        return codes

    move_word = "move"  # "cell", "column"
    full_word = "not free"  # "taken", "full"

    def __repr__(self) -> str:
        return f"<{self.title} ({self.name})>"
