"""The picture of a finished game that Share posts: its size, its board, the lesson's ring."""

import io
import pickle

import pytest
from PIL import Image, ImageColor

from cogs.pictures import game_picture
from cogs.pictures.game_picture import Layout, cells_played, draw_game, drawable, lesson_ring, words
from i18n import N_
from tests.cogs.pictures.test_chart import png_size

# a classic game played to the last hole, a draw: the most numbers a picture can hold
FULL_7X6 = (5, 5, 6, 3, 5, 0, 6, 5, 0, 0, 6, 5, 2, 5, 0, 3, 4, 6, 4, 0, 6, 4)
FULL_7X6 += (6, 3, 3, 0, 2, 1, 2, 4, 3, 2, 3, 4, 2, 2, 4, 1, 1, 1, 1, 1)
NAMES = ("Ada", "Learning Bot")


def picture(game, moves, lesson=None, names=NAMES, result="It's a draw.", code="en-US"):
    png = draw_game(game, moves, *names, result, lesson, code)
    return png, Image.open(io.BytesIO(png)).convert("RGB")


def colour(name: str) -> tuple[int, int, int]:
    return ImageColor.getrgb(name)


def close(pixel, expected, tolerance=24) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, expected, strict=True))


def ring_point(layout: Layout, cell: int) -> tuple[int, int]:
    """A pixel in the middle of the lesson ring's left side."""
    x0, y0, _x1, y1 = lesson_ring(layout, cell)
    width = game_picture.RING * layout.cell * (1 if layout.rules.move_word == "column" else 0.75)
    return round(x0 + width / 2), round((y0 + y1) / 2)


def test_the_largest_board_played_full_is_a_png_well_under_a_megabyte():
    assert len(FULL_7X6) == 42
    png, image = picture("connect4-7x6", FULL_7X6, lesson=20)
    width, height = png_size(png)
    assert len(png) < 1_000_000
    assert (width, height) == image.size == (game_picture.WIDTH, height)
    # a phone shows it about 360 pixels wide: portrait, but not a strip
    assert 1.0 < height / width < 1.6
    assert pickle.loads(pickle.dumps(draw_game)) is draw_game  # a worker process can run it


@pytest.mark.parametrize(
    ("game", "moves", "lesson"),
    [
        ("tictactoe", (0, 1, 3, 2, 6), 3),
        ("connect4", (1, 0, 1, 0, 1, 0, 1), 5),
        ("connect4-5x4", (2, 2, 3, 3, 1, 1, 0), 1),
        ("connect4-7x6", FULL_7X6, 20),
    ],
)
def test_every_move_is_drawn_in_its_cell_and_the_lesson_is_ringed(game, moves, lesson):
    _, plain = picture(game, moves)
    _, marked = picture(game, moves, lesson=lesson)
    assert marked.height == plain.height + game_picture.NOTE_SIZE + 26  # the legend's line
    layout = Layout(game)
    cells = cells_played(game, moves)
    point = ring_point(layout, cells[lesson])
    assert close(marked.getpixel(point), colour(game_picture.LESSON))
    assert not close(plain.getpixel(point), colour(game_picture.LESSON))
    for other in cells[:lesson] + cells[lesson + 1 :]:
        assert not close(marked.getpixel(ring_point(layout, other)), colour(game_picture.LESSON))
    if layout.rules.move_word == "column":
        for cell in range(layout.columns * layout.rows):
            x0, y0, _x1, y1 = layout.box(cell)
            # inside the disc, left of its number: X's red, O's yellow, or an empty hole
            pixel = marked.getpixel((round(x0 + layout.cell * 0.2), round((y0 + y1) / 2)))
            if cell in cells:
                mark = (
                    game_picture.X_COLOUR if cells.index(cell) % 2 == 0 else game_picture.O_COLOUR
                )
            else:
                mark = game_picture.HOLE
            assert close(pixel, colour(mark)), (cell, pixel)


def test_connect_four_moves_land_on_the_lowest_free_hole():
    # columns 2, 2, 3 on 4x4: the bottom row is the last, cells 12 to 15
    assert cells_played("connect4", (1, 1, 2)) == [13, 9, 14]
    assert cells_played("tictactoe", (4, 0)) == [4, 0]
    with pytest.raises(ValueError, match="full"):
        cells_played("connect4", (0, 0, 0, 0, 0))


@pytest.mark.parametrize(
    "names",
    [
        ("A" * 300, "W" * 120),
        ("田中太郎", "Мария Иванова"),
        ("🎉🎉🎉", "\u200d\ufe0f"),  # nothing any font here can draw
        ("محمد", "Ζωή 🐍 Δ"),
        ("", "   "),
    ],
)
def test_any_name_is_drawn_on_one_line_without_error(names):
    _, image = picture("connect4-7x6", FULL_7X6, lesson=20)
    _, named = picture("connect4-7x6", FULL_7X6, lesson=20, names=names)
    assert named.size == image.size  # cut to one line each, never wrapped
    said = words("connect4-7x6", names, "X wins.", 20, "en-US")
    for name, given, letter in zip(said.names, names, "XO", strict=True):
        assert drawable(name) and name.strip()
        if not given.strip():
            assert name == letter  # nothing to show: the mark's letter
    if len(names[0]) > 100:
        assert said.names[0].endswith("…") and len(said.names[0]) < 40


def test_a_long_result_is_wrapped_and_cut_and_the_words_are_in_the_language():
    def result(text):
        return words("tictactoe", NAMES, text, None, "en-US").result

    assert result("X wins.") == ["X wins."]
    cut = result("word " * 400)
    assert len(cut) == game_picture.RESULT_LINES and cut[-1].endswith("…")
    assert len(result("長い結果の文章です。" * 40)) <= game_picture.RESULT_LINES  # no spaces
    short = picture("tictactoe", (0, 1, 3, 2, 6), result="X wins.")[1]
    long = picture("tictactoe", (0, 1, 3, 2, 6), result="word " * 400)[1]
    step = game_picture.RESULT_SIZE + 14
    assert long.height == short.height + (game_picture.RESULT_LINES - 1) * step
    german = words("connect4-7x6", NAMES, N_("It's a draw."), 20, "de")
    assert german.title == "Vier gewinnt (7×6)" and german.result == ["Unentschieden."]
    assert german.legend == "Aus Zug 21 habe ich eine Lektion gelernt."
    # Japanese in Japanese (IPAexGothic, the learning curve's font): never empty boxes
    japanese = words("connect4-7x6", NAMES, N_("It's a draw."), 20, "ja")
    assert all(drawable(text) for text in (japanese.title, *japanese.result, japanese.legend))
    assert "教訓" in japanese.legend and japanese.title == "四目並べ 7×6"
    assert words("tictactoe", NAMES, "Adaの勝ち。", None, "ja").result == ["Adaの勝ち。"]
    assert words("tictactoe", NAMES, "🎉 Ada wins!", None, "en-US").result == ["Ada wins!"]


@pytest.mark.parametrize(
    ("game", "moves"),
    [("connect4", (1, 0, 1, 0, 1, 0, 1)), ("tictactoe", (0, 1, 3, 2, 6))],
)
def test_the_winning_line_is_drawn_in_squares_as_the_board_draws_it(game, moves):
    """Issue 35: the Share picture marks the winning four (tic-tac-toe: three), as the
    board in Discord does (🟥 🟨, ❎): a square's corner is its mark's colour, a disc's
    or a lone mark's is not."""
    _, image = picture(game, moves, result="Ada won.")
    layout = Layout(game)
    cells = cells_played(game, moves)
    winning = game_picture.winning_cells(game, moves)
    assert len(winning) == (4 if game == "connect4" else 3)
    for index, cell in enumerate(cells):
        x0, _y0, _x1, y1 = layout.box(cell)  # the bottom left: a number sits top left
        corner = (round(x0 + layout.cell * 0.16), round(y1 - layout.cell * 0.16))
        red = close(image.getpixel(corner), colour(game_picture.X_COLOUR))
        assert red == (cell in winning), (index, cell)
    assert game_picture.winning_cells("connect4", (0, 1, 2)) == frozenset()  # no winner
