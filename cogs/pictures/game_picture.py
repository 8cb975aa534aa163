"""A finished game as one picture to share: the final board with every move numbered in
the order it was played, the winning line's marks in squares (as the board in Discord
draws them), the move the bot learned from ringed, the players' names and the result.

A still PNG, not an animated GIF: the whole game reads at a glance and can be studied as
long as one likes (a GIF on Discord loops by itself, cannot be paused or stepped on a
phone, and a 42-move game would run for half a minute), and flat colours keep it small.

:func:`draw_game` takes plain data only and is a top-level function, so it can run in a
thread or another process. Pillow draws it (matplotlib brings Pillow, and its DejaVu
fonts), with IPAexGothic (:mod:`cogs.pictures.fonts`) for Japanese, as the learning curve. A
character no font has (most emoji) is left out, never drawn as an empty box.
"""

from __future__ import annotations

import functools
import io
import re
import unicodedata
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from PIL import Image, ImageDraw, ImageFont

import engine
from cogs.pictures.fonts import charmap, drawable, font_files
from cogs.utils.boards import look_of
from gameflow.game import BOARDS
from i18n import ENGLISH, N_, Language, Msg, language

FILE_NAME = "game.png"
LEGEND = N_("Move {number} taught me a lesson.")  # beside a ring like the lesson's

# Discord's dark card, as the learning curve's (cogs.pictures.chart): readable on either theme
BACKGROUND, PANEL, HOLE, TEXT, DIM = "#2B2D31", "#404249", "#1E1F22", "#F2F3F5", "#B5BAC1"
X_COLOUR, O_COLOUR = "#ED4245", "#FEE75C"  # 🔴 and 🟡, as Connect Four's board; ❌ is red
NUMBER_ON = {X_COLOUR: "#FFFFFF", O_COLOUR: "#1E1F22"}  # a move's number on its mark
LESSON = "#FFFFFF"  # the ring round the lesson's move: unlike either mark and the board
RING = 0.065  # its width, in cells

# 760 pixels wide: a phone shows it about 360 wide, where the smallest text (28 here)
# is still about 13 pixels high. Drawn at twice the size and scaled down, for smooth
# discs and rings (Pillow's shapes have no anti-aliasing of their own).
WIDTH, MARGIN, SCALE = 760, 32, 2
TITLE_SIZE, NAME_SIZE, RESULT_SIZE, NOTE_SIZE = 28, 34, 32, 28
RESULT_LINES = 3


@functools.cache
def _font(path: Path, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(path), size * SCALE)


def _runs(text: str, size: int, bold: bool = False) -> list[tuple[str, ImageFont.FreeTypeFont]]:
    """``text`` cut into runs, each with the first font that has its characters; a
    character none has (most emoji) is left out."""
    runs: list[tuple[str, ImageFont.FreeTypeFont]] = []
    files = font_files(bold)
    for char in text:
        path = next((p for p in files if ord(char) in charmap(p)), None)
        if path is None:
            if not char.isspace():
                continue
            path = files[0]
        font = _font(path, size)
        if runs and runs[-1][1] is font:
            runs[-1] = (runs[-1][0] + char, font)
        else:
            runs.append((char, font))
    return runs


def _length(text: str, size: int, bold: bool = False) -> float:
    return sum(font.getlength(run) for run, font in _runs(text, size, bold)) / SCALE


def _fit(text: str, width: float, size: int, bold: bool = False) -> str:
    """``text`` on one line of ``width``, cut with an ellipsis if it is longer."""
    if _length(text, size, bold) <= width:
        return text
    short, long = 0, len(text)  # the most characters that fit with the ellipsis, by halves
    while short < long:
        middle = (short + long + 1) // 2
        if _length(text[:middle].rstrip() + "…", size, bold) <= width:
            short = middle
        else:
            long = middle - 1
    return text[:short].rstrip() + "…"


def _wrap(text: str, width: float, size: int, most: int) -> list[str]:
    """``text`` in lines of ``width``, broken at spaces, or anywhere in a language that
    writes none (Japanese); at most ``most`` lines, the last cut with an ellipsis."""
    lines: list[str] = []
    line = ""
    for at, char in enumerate(text):
        if len(lines) == most - 1:  # the last line: the rest, cut to fit
            return [*lines, _fit((line + text[at:]).strip(), width, size)]
        if _length(line + char, size) <= width or not line:
            line += char
            continue
        cut = line.rfind(" ")
        if cut > 0 and not char.isspace():
            lines.append(line[:cut].strip())
            line = line[cut + 1 :] + char
        else:
            lines.append(line.strip())
            line = "" if char.isspace() else char
    return [*lines, line.strip()] if line.strip() else lines


def _text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: str,
    bold: bool = False,
    anchor: str = "ls",
) -> None:
    """Draw ``text`` (run by run, font by font) with its baseline's start at ``xy`` in
    the final picture's pixels; ``anchor`` "ms" centres it."""
    x, y = xy[0] * SCALE, xy[1] * SCALE
    runs = _runs(text, size, bold)
    if anchor == "ms":
        x -= sum(font.getlength(run) for run, font in runs) / 2
    for run, font in runs:
        draw.text((x, y), run, font=font, fill=fill, anchor="ls")
        x += font.getlength(run)


class Words(NamedTuple):
    """What the picture says, each line fitted to its place."""

    title: str  # the game's name
    names: tuple[str, str]  # X's player, O's
    result: list[str]  # the result's lines
    legend: str | None  # beside the ring: the move the bot learned from


NAME_AT = NAME_SIZE + 16  # a name's start, after its mark
LEGEND_AT = NOTE_SIZE + 14  # the legend's, after its ring


def words(
    game: str,
    names: tuple[str, str],
    result: str | Msg,
    lesson: int | None,
    language_code: str,
) -> Words:
    """The picture's words (see :func:`draw_game`): in the language of ``language_code``,
    or in English if no font of the picture can write it; every character no font has
    left out, a name with none left is its mark's letter, and a result missing letters
    is left out whole."""
    lang: Language = language(language_code)
    if not drawable(lang.say(LEGEND.with_args(number=1)) + lang.say(BOARDS[game].title)):
        lang = ENGLISH
    text = WIDTH - 2 * MARGIN
    result = lang.say(result)
    # a sentence missing letters would say something else (a Japanese one without its
    # font: only the Latin name in it): left out whole; a missing emoji is only left out
    legible = all(drawable(char) for char in result if unicodedata.category(char)[0] in "LN")
    result = _clean(result) if legible else ""
    return Words(
        lang.say(BOARDS[game].title),
        tuple(
            _fit(_clean(name) or letter, text - NAME_AT, NAME_SIZE, True)
            for name, letter in zip(names, "XO", strict=True)
        ),
        _wrap(result, text, RESULT_SIZE, RESULT_LINES),
        None
        if lesson is None
        else _fit(lang.say(LEGEND.with_args(number=lesson + 1)), text - LEGEND_AT, NOTE_SIZE),
    )


class Layout:
    """Where everything goes for one game (pixels of the final picture): the board's
    cells depend only on the game, so tests can find a cell."""

    def __init__(self, game: str) -> None:
        rules = engine.get_game(game)
        self.rules = rules
        self.columns, self.rows = rules.width, rules.height
        board_width = look_of(game).picture_width or WIDTH - 2 * MARGIN
        self.cell = board_width // self.columns
        self.left = (WIDTH - self.cell * self.columns) // 2
        # the title, then one line per player
        self.top = MARGIN + TITLE_SIZE + 20 + 2 * (NAME_SIZE + 22)
        self.bottom = self.top + self.cell * self.rows

    def box(self, cell: int) -> tuple[int, int, int, int]:
        """A cell's square, by its index row by row from the top."""
        row, column = divmod(cell, self.columns)
        x, y = self.left + column * self.cell, self.top + row * self.cell
        return x, y, x + self.cell, y + self.cell


def winning_cells(game: str, moves: Sequence[int]) -> frozenset[int]:
    """The cells (row by row from the top) of the winner's line, as the board in Discord
    finds them (none after a draw or a game left unfinished)."""
    return look_of(game).winning_cells(engine.Board.from_moves(list(moves), game=game).code)


def cells_played(game: str, moves: Sequence[int]) -> list[int]:
    """The cell (row by row from the top) each move filled; ``ValueError`` if the moves
    are not a legal game."""
    rules = engine.get_game(game)
    rules.replay(moves)
    if rules.move_word == "cell":
        return list(moves)
    heights = [0] * rules.width
    cells = []
    for column in moves:
        heights[column] += 1
        cells.append((rules.height - heights[column]) * rules.width + column)
    return cells


def _mark(
    draw: ImageDraw.ImageDraw, box: tuple[float, ...], mark: int, discs: bool, won: bool = False
) -> str:
    """Draw X's or O's mark in ``box`` (final pixels), of the winning line (``won``) in a
    square, as the board in Discord draws them (🟥 🟨, ❎ 🅾️); return its colour."""
    x0, y0, x1, y1 = (v * SCALE for v in box)
    colour = X_COLOUR if mark == 1 else O_COLOUR
    if won and discs:
        draw.rounded_rectangle((x0, y0, x1, y1), (x1 - x0) / 6, fill=colour)
    elif discs:
        draw.ellipse((x0, y0, x1, y1), fill=colour)
    elif won:  # the mark cut out of its square (drawn by the caller: the whole cell)
        _cross_or_ring(draw, (x0, y0, x1, y1), mark, PANEL)
    else:
        _cross_or_ring(draw, (x0, y0, x1, y1), mark, colour)
    return colour


def _cross_or_ring(draw: ImageDraw.ImageDraw, box: tuple[float, ...], mark: int, colour: str):
    """Tic-tac-toe's ❌ or ⭕ in ``box`` (drawn pixels)."""
    x0, y0, x1, y1 = box
    width = round((x1 - x0) / 7)
    if mark == 1:
        draw.line((x0, y0, x1, y1), fill=colour, width=width)
        draw.line((x0, y1, x1, y0), fill=colour, width=width)
    else:
        draw.ellipse((x0, y0, x1, y1), outline=colour, width=width)


def _ring(draw: ImageDraw.ImageDraw, box: tuple[float, ...], width: float, discs: bool) -> None:
    """The lesson's mark: a ring round a disc, a rounded square round a tic-tac-toe cell."""
    box = tuple(v * SCALE for v in box)
    width = round(width * SCALE)
    if discs:
        draw.ellipse(box, outline=LESSON, width=width)
    else:
        draw.rounded_rectangle(box, (box[2] - box[0]) / 8, outline=LESSON, width=width)


def draw_game(
    game: str,
    moves: Sequence[int],
    x_player: str,
    o_player: str,
    result: str | Msg,
    lesson: int | None,
    language_code: str,
) -> bytes:
    """The picture of a finished game, as PNG bytes.

    ``game``: its name in :data:`engine.GAMES`; ``moves``: its cells or columns (0-based)
    in the order played, X first; ``x_player``, ``o_player``: the display names of who
    played X (moving first) and O; ``result``: the result line, said already, or a
    message said here in the picture's language; ``lesson``: the index in ``moves`` of
    the move the bot learned from, or ``None``; ``language_code``: the server's language
    (a Discord locale). The picture's own words are in that language, or in English if
    no font of the picture can write it.
    """
    said = words(game, (x_player, o_player), result, lesson, language_code)
    layout = Layout(game)
    cells = cells_played(game, moves)
    discs = layout.rules.move_word == "column"
    y = layout.bottom + (58 if discs else 26)  # Connect Four's column numbers under it
    height = y + len(said.result) * (RESULT_SIZE + 14) + (NOTE_SIZE + 26) * (lesson is not None)
    height += MARGIN

    image = Image.new("RGB", (WIDTH * SCALE, height * SCALE), BACKGROUND)
    draw = ImageDraw.Draw(image)
    _text(draw, (MARGIN, MARGIN + TITLE_SIZE), said.title, TITLE_SIZE, DIM)
    line = MARGIN + TITLE_SIZE + 20
    icon = NAME_SIZE
    for mark, name in enumerate(said.names, 1):
        inset = 0 if discs else 4  # a cross or a ring looks bigger than a disc
        _mark(
            draw,
            (MARGIN + inset, line + inset, MARGIN + icon - inset, line + icon - inset),
            mark,
            discs,
        )
        _text(draw, (MARGIN + NAME_AT, line + NAME_SIZE * 0.85), name, NAME_SIZE, TEXT, True)
        line += NAME_SIZE + 22

    _board(draw, layout, cells, lesson, discs, winning_cells(game, moves))

    for line_text in said.result:
        y += RESULT_SIZE
        _text(draw, (MARGIN, y), line_text, RESULT_SIZE, TEXT)
        y += 14
    if said.legend is not None:
        y += 12
        _ring(draw, (MARGIN, y, MARGIN + NOTE_SIZE, y + NOTE_SIZE), 4, discs)
        _text(draw, (MARGIN + LEGEND_AT, y + NOTE_SIZE * 0.85), said.legend, NOTE_SIZE, DIM)

    image = image.reduce(SCALE)  # each pixel the mean of its square: smooth edges, fast
    buffer = io.BytesIO()
    # a palette of 256 colours: a few flat colours and their edges, a file a quarter the size
    image.quantize(256, method=Image.Quantize.FASTOCTREE).save(buffer, format="PNG")
    return buffer.getvalue()


def _board(
    draw: ImageDraw.ImageDraw,
    layout: Layout,
    cells: list[int],
    lesson: int | None,
    discs: bool,
    winning: frozenset[int] = frozenset(),
) -> None:
    size = layout.cell
    x0, y0 = layout.left, layout.top
    x1, y1 = x0 + size * layout.columns, layout.bottom
    s = SCALE
    radius = 16 if discs else 10
    draw.rounded_rectangle((x0 * s, y0 * s, x1 * s, y1 * s), radius * s, fill=PANEL)
    gap = size * 0.1  # between a cell's edge and its mark
    if discs:
        for cell in range(layout.columns * layout.rows):
            bx0, by0, bx1, by1 = layout.box(cell)
            draw.ellipse(((bx0 + gap) * s, (by0 + gap) * s, (bx1 - gap) * s, (by1 - gap) * s),
                         fill=HOLE)  # fmt: skip
        for column in range(layout.columns):
            _text(draw, (x0 + (column + 0.5) * size, y1 + 34), str(column + 1), 26, DIM,
                  anchor="ms")  # fmt: skip
    else:
        for k in (1, 2):  # the grid's lines
            draw.line(((x0 + k * size) * s, (y0 + 12) * s, (x0 + k * size) * s, (y1 - 12) * s),
                      fill=BACKGROUND, width=4 * s)  # fmt: skip
            draw.line(((x0 + 12) * s, (y0 + k * size) * s, (x1 - 12) * s, (y0 + k * size) * s),
                      fill=BACKGROUND, width=4 * s)  # fmt: skip
    number_size = round(size * (0.36 if discs else 0.2))
    for index, cell in enumerate(cells):
        bx0, by0, bx1, by1 = layout.box(cell)
        inner = (bx0 + gap, by0 + gap, bx1 - gap, by1 - gap)
        if not discs:  # a cross or a ring, with room for its number in the corner
            inner = (bx0 + size * 0.3, by0 + size * 0.3, bx1 - size * 0.14, by1 - size * 0.14)
        mark = 1 if index % 2 == 0 else 2
        won = cell in winning
        if won and not discs:  # the winning line's cells in their mark's colour
            draw.rounded_rectangle(
                tuple(v * s for v in (bx0 + gap, by0 + gap, bx1 - gap, by1 - gap)),
                size * s / 8, fill=X_COLOUR if mark == 1 else O_COLOUR,
            )  # fmt: skip
        colour = _mark(draw, inner, mark, discs, won)
        number = str(index + 1)
        if discs:
            centre = ((bx0 + bx1) / 2, (by0 + by1) / 2 + number_size * 0.36)
            _text(draw, centre, number, number_size, NUMBER_ON[colour], True, anchor="ms")
        else:
            _text(draw, (bx0 + size * 0.13, by0 + size * 0.11 + number_size), number,
                  number_size, NUMBER_ON[colour] if won else TEXT, True)  # fmt: skip
        if index == lesson:  # a square stone gets a square ring
            ring = (RING if discs else RING * 0.75) * size
            _ring(draw, lesson_ring(layout, cell), ring, discs and not won)


def lesson_ring(layout: Layout, cell: int) -> tuple[float, float, float, float]:
    """The box of the ring round the lesson's move: between the mark and the cell's edge."""
    bx0, by0, bx1, by1 = layout.box(cell)
    inset = layout.cell * (0.02 if layout.rules.move_word == "column" else 0.03)
    return bx0 + inset, by0 + inset, bx1 - inset, by1 - inset


def _clean(text: str) -> str:
    """One line of text with its runs of spaces made one (a left-out emoji leaves two)."""
    runs = "".join(run for run, _font in _runs(text, NOTE_SIZE))
    return re.sub(r"\s+", " ", runs).strip()
