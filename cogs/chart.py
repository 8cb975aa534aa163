"""The learning curve of ``/ttt stats`` as a PNG: lessons known, and the ways to beat the
bot as X and as O, against games played.

Drawing takes tens of milliseconds of CPU, so :func:`curve_png` runs it in a thread, off
the event loop, and keeps the last pictures: asking again without a new point is free.
matplotlib is imported on the first picture only (it is big), with the Agg backend,
which needs no display.
"""

from __future__ import annotations

import asyncio
import io
import threading
from collections import OrderedDict
from collections.abc import Sequence

from gameflow import CurvePoint

FILE_NAME = "learning-curve.png"
SIZE_INCHES, DPI = (8.0, 5.0), 100  # 800 × 500 pixels: sharp in an embed, a few tens of KB
KEPT = 256  # servers whose last picture is kept

_kept: OrderedDict[tuple[int, str, tuple[CurvePoint, ...]], bytes] = OrderedDict()
_drawing = threading.Lock()  # pyplot's state is global: one picture at a time


def became_unbeatable(values: Sequence[int]) -> list[int]:
    """The indexes where the ways to beat the bot fell to zero (from more, or at the
    start): where it became unbeatable, again after a reset if need be."""
    return [i for i, v in enumerate(values) if v == 0 and (i == 0 or values[i - 1] > 0)]


def figure(points: Sequence[CurvePoint], title: str):
    """The chart as a matplotlib figure (for tests to read its data back)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    fig = Figure(figsize=SIZE_INCHES, dpi=DPI)
    top, bottom = fig.subplots(2, 1, sharex=True, height_ratios=(1, 1))
    games = [p.games for p in points]
    top.plot(
        games, [p.lessons for p in points], color="#5865F2", marker=".", markersize=4,
        label="lessons",
    )  # fmt: skip
    top.set_ylabel("lessons known")
    top.set_title(title)
    # the ways to beat the bot where they were counted (a board too large to search after
    # every game has them at trainings, imports and resets only)
    counted = [p for p in points if p.beat_x is not None]
    counted_games = [p.games for p in counted]
    for row, (name, values, colour) in enumerate(
        (
            ("as X (first)", [p.beat_x for p in counted], "#ED4245"),
            ("as O (second)", [p.beat_o for p in counted], "#FEA500"),
        )
    ):
        bottom.plot(
            counted_games,
            values,
            color=colour,
            marker=".",
            markersize=4,
            label=f"ways to beat me {name}",
        )
        for i in became_unbeatable(values):
            bottom.plot(
                counted_games[i], 0, marker="*", markersize=14, color=colour, linestyle="none"
            )
            bottom.annotate(
                f"unbeatable {name.split()[1]}",
                (counted_games[i], 0),
                textcoords="offset points",
                xytext=(6, 6 + 12 * row),  # one above the other when they coincide
                color=colour,
                fontsize=8,
            )
    trainings = [p.games for p in points if p.training]
    for axes in (top, bottom):
        for x in trainings:
            axes.axvline(x, color="#99AAB5", linestyle=":", linewidth=1)
        axes.grid(alpha=0.3)
    if trainings:
        top.plot([], [], color="#99AAB5", linestyle=":", label="a training")
    bottom.set_yscale("symlog", linthresh=10)  # from hundreds of ways down to none
    highest = max((max(p.beat_x, p.beat_o) for p in counted), default=0)
    bottom.set_ylim(-0.8, max(12, highest * 2))
    bottom.set_ylabel("ways to beat me")
    bottom.set_xlabel("games played in this server")
    top.legend(loc="lower right", fontsize=8)
    bottom.legend(loc="upper right", fontsize=8)
    fig.tight_layout()
    return fig


def draw(points: Sequence[CurvePoint], title: str) -> bytes:
    with _drawing:
        buffer = io.BytesIO()
        figure(points, title).savefig(buffer, format="png")
    return buffer.getvalue()


async def curve_png(guild_id: int, points: Sequence[CurvePoint], title: str) -> bytes | None:
    """The picture of ``points`` (``None`` with no point yet), drawn in a thread."""
    if not points:
        return None
    key = (guild_id, title, tuple(points))
    png = _kept.get(key)
    if png is None:
        png = await asyncio.to_thread(draw, points, title)
        for old in [k for k in _kept if k[0] == guild_id]:
            del _kept[old]
        _kept[key] = png
        while len(_kept) > KEPT:
            _kept.popitem(last=False)
    else:
        _kept.move_to_end(key)
    return png
