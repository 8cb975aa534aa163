"""What the terminal's commands share: who plays and where, and how a line is written (in
English, at the terminal's width; Discord's words are in :mod:`i18n`'s catalogs)."""

from __future__ import annotations

import shutil
import sys
import textwrap

import engine
from gameflow import GameError
from gameflow.game import BOARDS as RECORDS

PLAYER = 0  # the person at the terminal
# Each board by the name Discord gives it (`/connect4 play board: 7x6`), and its game:
# the same name is the same board in both. Tic-tac-toe's one board is 3x3, the default.
BOARDS = {record.size: game for game, record in RECORDS.items()}
SIZES = {game: size for size, game in BOARDS.items()}
DEFAULT_BOARD = "3x3"


def plural(count: int, noun: str) -> str:
    """The terminal speaks English (Discord's words are in :mod:`i18n`'s catalogs)."""
    return f"{count:,} {noun}{'s' * (count != 1)}"


def channel_of(server: int) -> int:
    """The terminal's own "channel" in a server: negative, so no Discord id can collide."""
    return -1 - server


def board_text(board: engine.Board) -> str:
    """Tic-tac-toe as seed 001 draws it: marks on taken cells, numbers on free ones.
    Connect Four: rows from the top, ``.`` for a hole, the column numbers under them."""
    rules = board.game
    if rules.move_word == "cell":
        cells = [board.cell(i).name if board.cell(i) else str(i + 1) for i in range(9)]
        return "\n".join(" ".join(cells[r : r + 3]) for r in (0, 3, 6))
    position, width = board.position, rules.width
    rows = [" ".join(position[r : r + width]) for r in range(0, len(position), width)]
    return "\n".join([*rows, " ".join(str(c + 1) for c in range(width))])


def move_text(rules: engine.Game, move: int) -> str:
    return f"{move + 1}" if rules.move_word == "cell" else f"column {move + 1}"


def columns() -> int:
    """The terminal's width (80 when it cannot tell), less one: a line that fills the last
    column wraps on some terminals, and a wrapped bar cannot redraw in place."""
    return shutil.get_terminal_size((80, 24)).columns - 1


def wrapped(text: str) -> str:
    """``text`` in lines that fit the terminal, broken between words only: never inside a
    word, an option (``--server``) or a path, which stays whole even if wider."""
    return textwrap.fill(text, columns(), break_on_hyphens=False, break_long_words=False)


def say(text: str, *, file=None) -> None:
    """A line of output, wrapped at the terminal's width."""
    print(wrapped(text), file=file)


def fail(text: str, *, status: int = 2) -> int:
    """End with one message on stderr, wrapped like every other line; never a traceback."""
    say(text, file=sys.stderr)
    return status


# the game flow's hints name Discord's commands; the terminal's are these
TERMINAL_WORDS = (
    ("`/ttt-admin export`", "`python -m terminal export`"),
    ("`mode: replace`", "`--replace`"),
)


def error_text(error: GameError) -> str:
    """A refusal in the terminal's words; a memory file of another game says which
    ``--board`` takes it."""
    text = str(error)
    for discord_words, terminal_words in TERMINAL_WORDS:
        text = text.replace(discord_words, terminal_words)
    if isinstance(error.__cause__, engine.WrongGameError):
        board = SIZES[error.__cause__.found.name]
        text += f" Add `--board {board}` to import it into that memory."
    return text
