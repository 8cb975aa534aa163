"""How each game looks in Discord: one look per game, so the rest of the cogs never ask
which game they draw (a cell or a column, ❌ or 🔴).

A look draws a position as emoji, builds the board's buttons as Discord's component JSON
(once per position: only the custom ids change), names a move in words, and draws what
the memory knows of a position for ``/ttt brain`` and ``/connect4 brain``.
"""

from __future__ import annotations

import functools
from typing import ClassVar

import discord

import engine
from engine import LOSS, WIN, Board, Mark, Outcome
from engine.tictactoe import LINES
from gameflow import words
from gameflow.game import BOARDS
from i18n import N_, Msg

KEYCAPS = tuple(f"{n}\N{VARIATION SELECTOR-16}\N{COMBINING ENCLOSING KEYCAP}" for n in range(1, 10))
# what the memory knows of a move, in /brain: never a mark, nor a board's winning squares
VERDICTS = {WIN: "🟩", LOSS: "🚫", None: "⬜"}


class Look:
    """What every game's look does; a subclass per game fills in the differences."""

    game: engine.Game
    title: Msg  # the game's name
    noun: Msg  # the same inside a sentence ("2 tic-tac-toe lessons")
    marks: ClassVar[dict[Mark, str]]  # the emoji of each player
    move_word: str  # "cell", "column"
    # the buttons show the whole position (tic-tac-toe's cells): while the game runs they
    # are the board, and the emoji grid is drawn only once it is over (one board, not two)
    buttons_are_board: ClassVar[bool] = False
    prompt: Msg  # what the player to move is asked to do
    brain_footer: Msg
    # the board's width on a game's picture (cogs.pictures.game_picture), in pixels; None:
    # the page's. The small boards are narrower: at its full width a 3×3 board is huge
    picture_width: int | None = None

    def mark(self, mark: Mark) -> str:
        return self.marks[mark]

    # a move in words, as both faces say it (gameflow.words)
    def where(self, move: int) -> Msg:
        return words.where(self.game.name, move)

    def played(self, move: int) -> Msg:
        return words.played(self.game.name, move)

    def short(self, move: int) -> Msg | str:
        return words.short(self.game.name, move)

    def rows(self, code: int, last: int | None = None) -> str:
        """The board as lines of emoji; ``last``: the last move played, marked where the
        game draws it so."""
        raise NotImplementedError

    def buttons(self, code: int, finished: bool) -> tuple[tuple[dict, ...], ...]:
        """Rows of buttons, each button's JSON but its custom id, and the move it plays."""
        raise NotImplementedError

    def brain_rows(self, board: Board, outlook: dict[int, Outcome | None]) -> str:
        raise NotImplementedError

    # how a lesson is told (see cogs.play.render.describe_lesson): whole sentences, each with
    # its {where}, so that every language can put the move where its grammar wants it
    lessons: ClassVar[dict[str, Msg]]

    def component_rows(self, prefix: str, code: int, finished: bool) -> list[dict]:
        return [
            {
                "type": 1,
                "components": [
                    {**button, "custom_id": f"{prefix}{move + 1}"} for button, move in row
                ],
            }
            for row in self.buttons(code, finished)
        ]


# the bot's own moves at an easier level, where it may play any move on purpose: what it
# learned, without a promise it does not keep (a cell; Connect Four says its own, with a
# column, so that each language can put its preposition or case around it)
KNOWN: dict[str, Msg] = {
    "bot_loses_known": N_("I now know {where} loses there."),
    "bot_wins_known": N_("I now know {where} wins there."),
}


# a winning line: its marks in squares, as Connect Four's winning four are squares
TICTACTOE_WINNING = {Mark.X: "❎", Mark.O: "🅾️"}


class TicTacToeLook(Look):
    marks: ClassVar[dict[Mark, str]] = words.MARKS["cell"]
    picture_width = 480
    buttons_are_board = True
    move_word = "cell"
    prompt = N_("pick a free cell")
    brain_footer = N_("Looking changes nothing. Cells: 1 2 3 on top, 7 8 9 at the bottom.")
    lessons: ClassVar[dict[str, Msg]] = {
        "bot_loses": N_("I won't play {where} in that position again: it loses."),
        "bot_wins": N_("Playing {where} there wins; I'll do it again."),
        **KNOWN,
        "you_win": N_("Your move to {where} there wins; I'll remember it when I play your side."),
        "you_lose": N_("Your move to {where} there loses; I'll remember it too."),
        # a game between members, watched
        "mark_wins": N_("{mark} on {where} there wins; I'll remember it."),
        "mark_loses": N_("{mark} on {where} there loses; I'll remember it."),
    }

    def __init__(self) -> None:
        self.game = engine.get_game("tictactoe")
        self.title = BOARDS["tictactoe"].title
        self.noun = N_("tic-tac-toe")

    @functools.cache  # noqa: B019 - one entry per position, a few thousand at most; looks live forever
    def rows(self, code: int, last: int | None = None) -> str:
        """Three lines of three emoji: marks for taken cells (a winning line's in squares),
        keycaps 1–9 for free ones."""
        position, wins = Board.from_code(code).position, self.winning_cells(code)
        symbols = [
            (TICTACTOE_WINNING if i in wins else self.marks)[Mark[c]] if c != "." else KEYCAPS[i]
            for i, c in enumerate(position)
        ]
        return "\n".join(" ".join(symbols[r : r + 3]) for r in (0, 3, 6))

    @functools.cache  # noqa: B019
    def winning_cells(self, code: int) -> frozenset[int]:
        board = Board.from_code(code)
        winner = board.winner
        if winner is None:
            return frozenset()
        return frozenset(
            c for line in LINES if all(board.cell(i) is winner for i in line) for c in line
        )

    @functools.cache  # noqa: B019
    def buttons(self, code: int, finished: bool) -> tuple[tuple[tuple[dict, int], ...], ...]:
        """Each cell's button: a mark or its number, its colour, and whether it can be
        clicked (the cells of a winning line are green)."""
        board = Board.from_code(code)
        wins = self.winning_cells(code)
        buttons = []
        for cell in range(9):
            mark = board.cell(cell)
            if cell in wins:
                style = discord.ButtonStyle.success
            elif mark or finished:
                style = discord.ButtonStyle.secondary
            else:
                style = discord.ButtonStyle.primary
            button = {"type": 2, "style": style.value, "disabled": bool(mark) or finished}
            if mark:
                button["emoji"] = {"id": None, "name": self.marks[mark]}
            else:
                button["label"] = str(cell + 1)
            buttons.append((button, cell))
        return tuple(tuple(buttons[row : row + 3]) for row in (0, 3, 6))

    def brain_rows(self, board: Board, outlook: dict[int, Outcome | None]) -> str:
        symbols = [
            self.marks[board.cell(i)] if board.cell(i) else VERDICTS[outlook[i]] for i in range(9)
        ]
        return "\n".join(" ".join(symbols[r : r + 3]) for r in (0, 3, 6))


EMPTY_HOLE = "⚪"
# the winning four stand out as squares of their colour
WINNING = {Mark.X: "🟥", Mark.O: "🟨"}
# the last stone dropped, as a heart of its colour: the same colour, another shape
LAST = {Mark.X: "❤️", Mark.O: "💛"}
# at most this many column buttons a row: seven in one row are too narrow on a phone
BUTTONS_A_ROW = 5


class ConnectFourLook(Look):
    marks: ClassVar[dict[Mark, str]] = words.MARKS["column"]
    move_word = "column"
    prompt = N_("pick a column")
    lessons: ClassVar[dict[str, Msg]] = {
        "bot_loses": N_("I won't drop in {where} in that position again: it loses."),
        "bot_wins": N_("Dropping in {where} there wins; I'll do it again."),
        "bot_loses_known": N_("I now know dropping in {where} loses there."),
        "bot_wins_known": N_("I now know dropping in {where} wins there."),
        "you_win": N_("Your drop in {where} there wins; I'll remember it when I play your side."),
        "you_lose": N_("Your drop in {where} there loses; I'll remember it too."),
        "mark_wins": N_("{mark} dropping in {where} there wins; I'll remember it."),
        "mark_loses": N_("{mark} dropping in {where} there loses; I'll remember it."),
    }

    def __init__(self, game: str, picture_width: int | None = None) -> None:
        self.picture_width = picture_width
        self.game = engine.get_game(game)
        self.title = self.noun = BOARDS[game].title  # a name, capitalised in a sentence too
        width = self.game.width
        self.brain_footer = N_(
            "Looking changes nothing. Columns: 1 on the left, {width} on the right.", width=width
        )
        self._numbers = " ".join(KEYCAPS[c] for c in range(width))

    @functools.cache  # noqa: B019
    def winning_cells(self, code: int) -> frozenset[int]:
        """The cells (row by row from the top) of every four in a row of the winner."""
        game = self.game
        winner = game.winner(code) if game.moves(code) is None else 0
        if not winner:
            return frozenset()
        cells, width, height = game.cells(code), game.width, game.height
        found = set()
        for row in range(height):
            for col in range(width):
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    line = [(row + dr * i, col + dc * i) for i in range(4)]
                    if all(0 <= r < height and 0 <= c < width for r, c in line) and all(
                        cells[r * width + c] == winner for r, c in line
                    ):
                        found.update(r * width + c for r, c in line)
        return frozenset(found)

    @functools.cache  # noqa: B019
    def rows(self, code: int, last: int | None = None) -> str:
        """A line of emoji per row, top first, and the column numbers under them; the
        stone dropped last (in column ``last``) is a heart, unless it is of a winning four."""
        game = self.game
        cells, wins, width = game.cells(code), self.winning_cells(code), game.width
        # the top stone of the last move's column
        top = (
            next((i for i in range(last, len(cells), width) if cells[i]), None)
            if last is not None
            else None
        )
        symbols = [
            (WINNING if i in wins else LAST if i == top else self.marks)[Mark(v)]
            if v
            else EMPTY_HOLE
            for i, v in enumerate(cells)
        ]
        lines = [" ".join(symbols[r : r + width]) for r in range(0, len(symbols), width)]
        return "\n".join([*lines, self._numbers])

    @functools.cache  # noqa: B019
    def buttons(self, code: int, finished: bool) -> tuple[tuple[tuple[dict, int], ...], ...]:
        """One button per column, in one row, or two (4 + 3 on the classic board) when a
        row would be too narrow on a phone; a full column's is disabled."""
        legal = {move for move, _, _ in self.game.moves(code) or ()}
        row = []
        for column in range(self.game.width):
            open_ = column in legal and not finished
            style = discord.ButtonStyle.primary if open_ else discord.ButtonStyle.secondary
            button = {"type": 2, "style": style.value, "disabled": not open_}
            button["label"] = str(column + 1)
            row.append((button, column))
        width = len(row)
        if width <= BUTTONS_A_ROW:
            return (tuple(row),)
        half = (width + 1) // 2
        return (tuple(row[:half]), tuple(row[half:]))

    def brain_rows(self, board: Board, outlook: dict[int, Outcome | None]) -> str:
        """The board, with each legal column's verdict where its stone would land."""
        game = self.game
        cells = game.cells(board.code)
        width = game.width
        symbols = [self.marks[Mark(v)] if v else EMPTY_HOLE for v in cells]
        for column, known in outlook.items():
            landing = max(i for i in range(column, len(cells), width) if not cells[i])
            symbols[landing] = VERDICTS[known]
        lines = [" ".join(symbols[r : r + width]) for r in range(0, len(symbols), width)]
        return "\n".join([*lines, self._numbers])


# Each board's look in Discord, by its name in engine.GAMES: the Discord face's one record
# of a board (tests/test_project.py checks it names the same boards as the engine)
LOOKS: dict[str, Look] = {
    "tictactoe": TicTacToeLook(),
    "connect4-7x6": ConnectFourLook("connect4-7x6"),
    "connect4": ConnectFourLook("connect4", picture_width=520),
    "connect4-5x4": ConnectFourLook("connect4-5x4", picture_width=600),
}


def look_of(game: str) -> Look:
    """The look of a game, by its engine name."""
    return LOOKS[game]


# what the levels are called, wherever a game's level is shown
LEVEL_NAMES = {"learning": N_("learning"), "medium": N_("medium"), "easy": N_("easy")}


class BoardView(discord.ui.View):
    """The buttons of one board (tic-tac-toe's 3×3 cells, Connect Four's columns), as
    Discord's component JSON.

    A board is drawn on every move, and discord.ui's nine Button objects per board (built
    again from the message at each click, to dispatch it) were among the largest costs of
    a move (``python -m bench.lean --profile``). Here the buttons of each position are built
    once and only the custom ids change; clicks are routed by :func:`cell_click`, so
    discord.ui stores nothing for these views.
    """

    def __init__(self, rows: list[dict]) -> None:
        super().__init__(timeout=None)
        self._rows = rows

    def to_components(self) -> list[dict]:
        return self._rows
