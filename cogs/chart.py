"""The learning curve of ``/ttt stats`` as a PNG: lessons known, and the ways to beat the
bot as X and as O, against games played; on the classic board, where nobody can count the
ways, the bot's losses per 50 games instead.

Drawing takes ~200 ms of CPU, so :func:`curve_png` has the bot's pictures' process draw
it (:mod:`cogs.pictures`), off the event loop and outside the GIL, and keeps the last
pictures: asking again without a new point is free. matplotlib (big) is imported there,
with the Agg backend, which needs no display.
"""

from __future__ import annotations

import functools
import io
import threading
from collections import OrderedDict
from collections.abc import Sequence

from gameflow import CurvePoint
from i18n import ENGLISH, Language

from .pictures import Pictures

FILE_NAME = "learning-curve.png"
# 1200 × 750 pixels: an embed shows it whole, and on a phone its text stays readable
SIZE_INCHES, DPI = (8.0, 5.0), 150
KEPT = 256  # servers whose last picture is kept

# a card of its own, Discord's dark embed grey: as readable on the light theme as on the dark
BACKGROUND, PANEL, TEXT, GRID = "#2B2D31", "#313338", "#F2F3F5", "#4E5058"
LESSONS, AS_X, AS_O, TRAINING = "#5865F2", "#ED4245", "#FEE75C", "#B5BAC1"
LOSSES = AS_X
TITLE_SIZE, LABEL_SIZE, TICK_SIZE, NOTE_SIZE = 15, 12, 11, 11

_kept: OrderedDict[tuple, bytes] = OrderedDict()
Losses = Sequence[tuple[int, int]]  # (games against the bot by then, losses in that block)
_drawing = threading.Lock()  # pyplot's state is global: one picture at a time


def became_unbeatable(values: Sequence[int]) -> list[int]:
    """The indexes where the ways to beat the bot fell to zero (from more, or at the
    start): where it became unbeatable, again after a reset if need be."""
    return [i for i, v in enumerate(values) if v == 0 and (i == 0 or values[i - 1] > 0)]


def taught_by_games(points: Sequence[CurvePoint]) -> list[int]:
    """The lessons the server's games taught, point by point: a training's jump is left out
    (it is shown apart), so that it does not flatten what the games taught; a reset starts
    again from 0."""
    taught, trained, before = [], 0, 0
    for point in points:
        if point.lessons == 0:  # a reset
            trained = 0
        elif point.training:
            trained += point.lessons - before
        taught.append(point.lessons - trained)
        before = point.lessons
    return taught


def _style(axes, fig) -> None:
    from matplotlib.ticker import MaxNLocator

    axes.set_facecolor(PANEL)
    for spine in axes.spines.values():
        spine.set_color(GRID)
    axes.tick_params(colors=TEXT, labelsize=TICK_SIZE)
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))  # games are whole
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    axes.grid(color=GRID, alpha=0.6, linewidth=0.8)


def figure(
    points: Sequence[CurvePoint],
    title: str,
    lang: Language = ENGLISH,
    losses: Losses | None = None,
):
    """The chart as a matplotlib figure (for tests to read its data back).

    Top: the lessons the games taught, a dot for each game that taught something, and
    each training as a dotted line with what it added. Bottom: the ways to beat the bot
    as X and as O, on a plain count axis, with the moment it became unbeatable in each
    role called out where it happened; or, given ``losses`` (the classic board), the
    bot's losses per block of 50 games against it.
    """
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    if not drawable(lang.t("ways to beat me")):  # a language the font cannot write
        lang = ENGLISH
    if not drawable(title):  # that language, or a server's name the font cannot write
        title = lang.t("How I learned")
    fig = Figure(figsize=SIZE_INCHES, dpi=DPI, facecolor=BACKGROUND)
    top, bottom = fig.subplots(2, 1, sharex=True, height_ratios=(1, 1))
    for axes in (top, bottom):
        _style(axes, fig)
    games = [p.games for p in points]
    top.plot(
        games, taught_by_games(points), color=LESSONS, marker="o", markersize=4, linewidth=2,
        label=lang.t("lessons from games"),
    )  # fmt: skip
    top.set_ylabel(lang.t("lessons"), color=TEXT, fontsize=LABEL_SIZE)
    fig.suptitle(title, color=TEXT, fontsize=TITLE_SIZE, x=0.02, ha="left")
    before = 0
    for point in points:
        if point.training:
            for axes in (top, bottom):
                axes.axvline(point.games, color=TRAINING, linestyle=":", linewidth=1.5)
            top.annotate(
                lang.t("training +{count}", count=point.lessons - before),
                (point.games, 1.0),
                xycoords=("data", "axes fraction"),
                textcoords="offset points",
                xytext=(4, -14),
                color=TRAINING,
                fontsize=NOTE_SIZE,
            )
        before = point.lessons
    if losses is not None:
        _losses(bottom, losses, lang)
    else:
        _ways_to_beat(bottom, points, games, lang)
    bottom.set_xlabel(lang.t("games played in this server"), color=TEXT, fontsize=LABEL_SIZE)
    # the legends above the plots, where they cover no line
    for axes in (top, bottom):
        axes.legend(
            loc="lower left",
            bbox_to_anchor=(0, 1.0),
            ncols=2,
            frameon=False,
            labelcolor=TEXT,
            fontsize=NOTE_SIZE,
            borderaxespad=0.1,
        )
    fig.tight_layout()
    return fig


def _losses(bottom, losses: Losses, lang: Language) -> None:
    """The bot's losses in each block of 50 games against it, at the block's last game."""
    bottom.plot(
        [games for games, _ in losses],
        [lost for _, lost in losses],
        color=LOSSES,
        marker="o",
        markersize=4,
        linewidth=2,
        label=lang.t("my losses per 50 games against me"),
    )
    bottom.set_ylim(-0.5, 52)  # from none to all of a block
    bottom.set_ylabel(lang.t("losses per 50 games"), color=TEXT, fontsize=LABEL_SIZE)


def _ways_to_beat(bottom, points: Sequence[CurvePoint], games: list[int], lang: Language) -> None:
    # the ways to beat the bot where they were counted (a board too large to search after
    # every game has them at trainings, imports and resets only)
    counted = [p for p in points if p.beat_x is not None]
    counted_games = [p.games for p in counted]
    highest = max((max(p.beat_x, p.beat_o) for p in counted), default=0)
    for row, (name, unbeatable, values, colour) in enumerate(
        (
            (
                lang.t("ways to beat me as X (first)"),
                lang.t("unbeatable as X"),
                [p.beat_x for p in counted],
                AS_X,
            ),
            (
                lang.t("ways to beat me as O (second)"),
                lang.t("unbeatable as O"),
                [p.beat_o for p in counted],
                AS_O,
            ),
        )
    ):
        bottom.plot(
            counted_games,
            values,
            color=colour,
            marker="o",
            markersize=4,
            linewidth=2,
            label=name,
        )
        span = (games[0], games[-1]) if games else (0, 1)
        for i in became_unbeatable(values):
            x = counted_games[i]
            bottom.plot(x, 0, marker="*", markersize=16, color=colour, linestyle="none")
            # beside its star, one label above the other, turned inwards near the right edge
            right = span[1] > span[0] and (x - span[0]) / (span[1] - span[0]) > 0.7
            bottom.annotate(
                unbeatable,
                (x, 0),
                textcoords="offset points",
                xytext=(-8 if right else 8, 12 + 16 * row),
                ha="right" if right else "left",
                color=colour,
                fontsize=NOTE_SIZE,
                fontweight="bold",
            )
    bottom.set_ylim(-0.05 * max(highest, 4), max(highest, 4) * 1.15)
    bottom.set_ylabel(lang.t("ways to beat me"), color=TEXT, fontsize=LABEL_SIZE)


@functools.cache
def _glyphs() -> frozenset[int]:
    """The characters the chart's font can draw."""
    from matplotlib import font_manager
    from matplotlib.ft2font import FT2Font

    return frozenset(FT2Font(font_manager.findfont("DejaVu Sans")).get_charmap())


def drawable(text: str) -> bool:
    """Whether the chart's font can write ``text``: matplotlib's own font has Latin, Greek
    and Cyrillic, but no Japanese (drawn as empty boxes), and the bot ships no other."""
    glyphs = _glyphs()
    return all(ord(c) in glyphs for c in text if not c.isspace())


def draw(
    points: Sequence[CurvePoint],
    title: str,
    lang: Language = ENGLISH,
    losses: Losses | None = None,
) -> bytes:
    with _drawing:
        buffer = io.BytesIO()
        figure(points, title, lang, losses).savefig(buffer, format="png")
    return buffer.getvalue()


async def curve_png(
    pictures: Pictures,
    guild_id: int,
    points: Sequence[CurvePoint],
    title: str,
    lang: Language = ENGLISH,
    losses: Losses | None = None,
) -> bytes | None:
    """The picture of ``points`` (``None`` with no point yet, or if ``pictures`` could not
    draw it: it is tried again at the next ask); ``losses``: the classic board's losses
    per 50 games, drawn instead of the ways to beat."""
    if not points:
        return None
    key = (guild_id, title, lang.code, tuple(points), None if losses is None else tuple(losses))
    png = _kept.get(key)
    if png is None:
        png = await pictures.draw(draw, points, title, lang, losses)
        if png is None:
            return None
        for old in [k for k in _kept if k[0] == guild_id]:
            del _kept[old]
        _kept[key] = png
        while len(_kept) > KEPT:
            _kept.popitem(last=False)
    else:
        _kept.move_to_end(key)
    return png
