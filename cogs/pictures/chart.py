"""The learning curve of ``/ttt stats`` as a PNG: the lessons the games taught, and the
ways left to beat the bot when it plays first and second, against the games played; on
the classic board, where nobody can count the ways, the bot's losses per 50 games instead.

Drawing takes ~200 ms of CPU, so :func:`curve_png` has the bot's pictures' process draw
it (:mod:`cogs.pictures`), off the event loop and outside the GIL, and keeps the last
pictures: asking again without a new point is free. matplotlib (big) is imported there,
with the Agg backend, which needs no display. Japanese is written with IPAexGothic, the
font the ``matplotlib-fontja`` package ships (matplotlib's own font has no Japanese).
"""

from __future__ import annotations

import functools
import io
import threading
from collections import OrderedDict
from collections.abc import Sequence

from cogs.pictures.fonts import drawable, japanese_font_file
from cogs.pictures.process import Pictures
from gameflow import CurvePoint
from gameflow.game import BOARDS
from gameflow.scores import RECENT
from i18n import ENGLISH, Language

FILE_NAME = "learning-curve.png"
# 1200 × 1500 pixels, taller than wide: an embed shows it whole, and scaled to a phone's
# 360 pixels its smallest text is still about 13 pixels tall
SIZE_INCHES, DPI = (6.0, 7.5), 200
KEPT = 256  # servers whose last picture is kept

# a card of its own, Discord's dark embed grey: as readable on the light theme as on the dark
BACKGROUND, PANEL, TEXT, GRID = "#2B2D31", "#313338", "#F2F3F5", "#4E5058"
LESSONS, AS_X, AS_O, TRAINING, RESET = "#5865F2", "#ED4245", "#FEE75C", "#B5BAC1", "#EB459E"
RATING = "#57F287"  # the learning bot's rating: green, on an axis of its own (right)
LOSSES = AS_X
TITLE_SIZE, LABEL_SIZE, TICK_SIZE, NOTE_SIZE = 20, 16, 16, 15
SURE_ROOM = 0.7  # of the picture's width: what a plot keeps, whatever its axis labels
TICKS = 4  # at most about this many steps on an axis: few enough to read on a phone
LATIN, JAPANESE = "DejaVu Sans", "IPAexGothic"  # matplotlib's own font; matplotlib-fontja's

_kept: OrderedDict[tuple, bytes] = OrderedDict()
Losses = Sequence[tuple[int, int]]  # (games against the bot by then, losses in that block)
Ratings = Sequence[tuple[int, int]]  # (the server's games by then, the bot's rating)
_drawing = threading.Lock()  # matplotlib's font cache and settings are global


def became_unbeatable(values: Sequence[int]) -> list[int]:
    """The indexes where the ways to beat the bot fell to zero (from more, or at the
    start): where it became unbeatable, again after a reset if need be."""
    return [i for i, v in enumerate(values) if v == 0 and (i == 0 or values[i - 1] > 0)]


def unbroken(title: str, lang: Language) -> str:
    """``title`` with the spaces inside a game's name made unbreakable, so that the
    title wraps between its words, never inside "Connect Four (7×6)"."""
    for name in (board.title for board in BOARDS.values()):
        said = lang.say(name)
        title = title.replace(said, said.replace(" ", "\N{NO-BREAK SPACE}"))
    return title


def by_game(points: Sequence[CurvePoint]) -> list[CurvePoint]:
    """The points as they stood after each game: of two points at the same game (the
    game's own, then its post-mortem's, stored when the solver's lessons land), the later
    one. A training or a reset is an event of its own, and stays."""
    kept: list[CurvePoint] = []
    for point in points:
        if (
            kept
            and kept[-1].games == point.games
            and not kept[-1].training
            and not point.training
            and kept[-1].lessons != 0
            and point.lessons != 0
        ):
            kept[-1] = point
        else:
            kept.append(point)
    return kept


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


@functools.cache
def _registered() -> None:
    """The Japanese font made known to matplotlib, once."""
    from matplotlib import font_manager

    font_manager.fontManager.addfont(str(japanese_font_file()))


def _typeface(lang: Language) -> dict:
    """matplotlib's settings for ``lang``: each character from the first font that has
    it, Japanese shapes first for Japanese (a Japanese name in another language's
    picture gets them too)."""
    _registered()
    fonts = [JAPANESE, LATIN] if lang.code == "ja" else [LATIN, JAPANESE]
    return {"font.family": fonts, "axes.unicode_minus": False}


def _style(axes, lang: Language) -> None:
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    axes.set_facecolor(PANEL)
    for spine in axes.spines.values():
        spine.set_color(GRID)
    axes.tick_params(colors=TEXT, labelsize=TICK_SIZE)
    for axis in (axes.xaxis, axes.yaxis):  # games and counts are whole, written the
        axis.set_major_locator(MaxNLocator(TICKS, integer=True))  # language's way
        axis.set_major_formatter(FuncFormatter(lambda value, _: lang.number(round(value))))
    axes.grid(color=GRID, alpha=0.6, linewidth=0.8)


def _from_zero(axes, highest: float) -> None:
    """A count axis from 0 (a margin below, so that a line at 0 is not half hidden)."""
    top = max(highest, 4) * 1.08
    axes.set_ylim(-0.03 * top, top)


def _changes(xs: Sequence[int], ys: Sequence[int]) -> tuple[list[int], list[int]]:
    """The points where a value changed: the games and trainings a step comes from."""
    kept = [i for i in range(len(ys)) if i == 0 or ys[i] != ys[i - 1]]
    return [xs[i] for i in kept], [ys[i] for i in kept]


def _steps(axes, xs, ys, colour: str, label: str) -> None:
    """A value that holds until the game or training that changed it: a step there, with a
    dot at each change, never a slope across games that changed nothing."""
    axes.plot(
        xs, ys, color=colour, linewidth=2.5, drawstyle="steps-post", label=label,
        solid_joinstyle="miter",
    )  # fmt: skip
    dots_x, dots_y = _changes(xs, ys)
    axes.plot(dots_x, dots_y, color=colour, marker="o", markersize=5, linestyle="none")


def figure(
    points: Sequence[CurvePoint],
    title: str,
    lang: Language = ENGLISH,
    losses: Losses | None = None,
    *,
    discs: bool = False,
    ratings: Ratings = (),
):
    """The chart as a matplotlib figure (for tests to read its data back).

    Top: the lessons the games taught, a step at each game that taught something, each
    training and reset as a dotted line labelled where no line runs, and the total above.
    Bottom: the ways left to beat the bot when it plays first and when it plays second
    (``discs``: red and yellow, Connect Four, rather than X and O), a star where it became
    unbeatable; or, given ``losses`` (the classic board), the bot's losses per block of 50
    games against it. The games run from 0 to the last point's (the current game).
    ``ratings``: the learning bot's rating after each game, a line on the top plot with
    its own axis (right).
    """
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    if not drawable(lang.t("ways to beat me")):  # a language the fonts cannot write
        lang = ENGLISH
    if not drawable(title):  # a server's name the fonts cannot write (emoji, say)
        title = lang.t("How I learned")
    title = unbroken(title, lang)
    points = by_game(points)
    with matplotlib.rc_context(_typeface(lang)):
        fig = Figure(figsize=SIZE_INCHES, dpi=DPI, facecolor=BACKGROUND, layout="constrained")
        FigureCanvasAgg(fig)  # measures text for the labels' places, without a display
        top, bottom = fig.subplots(2, 1, sharex=True, height_ratios=(1, 1.25))
        for axes in (top, bottom):
            _style(axes, lang)
        fig.suptitle(title, color=TEXT, fontsize=TITLE_SIZE, x=0.02, ha="left", wrap=True)
        total = points[-1].lessons if points else 0
        top.set_title(
            lang.tn("{count} lesson in all", "{count} lessons in all", total),
            loc="left", color=TEXT, fontsize=LABEL_SIZE, pad=10,
        )  # fmt: skip
        games = [0, *(p.games for p in points)]
        taught = [0, *taught_by_games(points)]
        _steps(top, games, taught, LESSONS, lang.t("lessons from games"))
        _from_zero(top, max(taught))
        top.set_ylabel(lang.t("lessons from games"), color=TEXT, fontsize=LABEL_SIZE)
        if ratings:
            _ratings(top, ratings, lang)
        if losses is not None:
            _losses(bottom, losses, lang)
        else:
            _ways_to_beat(bottom, points, lang, discs)
        # room on either side, so that the first and the last dot, and a reset at the
        # current game, are drawn whole inside the frame
        pad = max(0.5, games[-1] * 0.03)
        bottom.set_xlim(-pad, max(games[-1], 1) + pad)
        bottom.set_xlabel(lang.t("games played in this server"), color=TEXT, fontsize=LABEL_SIZE)
        if len(bottom.get_legend_handles_labels()[0]) > 1:  # one line is named by its axis
            _legend(fig, bottom)
        _events(fig, (top, bottom), points, lang)
    return fig


def _ratings(top, ratings: Ratings, lang: Language) -> None:
    """The learning bot's rating over the games, on the top plot's right-hand axis."""
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    axis = top.twinx()
    axis.plot(
        [g for g, _ in ratings], [r for _, r in ratings], color=RATING, linewidth=2.5,
        label=lang.t("my rating"),
    )  # fmt: skip
    axis.tick_params(colors=RATING, labelsize=TICK_SIZE)
    axis.yaxis.set_major_locator(MaxNLocator(TICKS, integer=True))
    axis.yaxis.set_major_formatter(FuncFormatter(lambda value, _: lang.number(round(value))))
    axis.set_ylabel(lang.t("my rating"), color=RATING, fontsize=LABEL_SIZE)
    for spine in axis.spines.values():
        spine.set_color(GRID)


def _legend(fig, bottom) -> None:
    """The legend stacked above the lower plot, where it covers no line, each entry
    broken into lines no wider than the plot (a long language's words would otherwise
    squeeze both plots to make room)."""
    legend = bottom.legend(
        loc="lower left", bbox_to_anchor=(0, 1.0), ncols=1, frameon=False,
        labelcolor=TEXT, fontsize=NOTE_SIZE, borderaxespad=0.2, handlelength=1.6,
    )  # fmt: skip
    renderer = fig.canvas.get_renderer()
    texts = legend.get_texts()
    handle = (legend.handlelength + legend.handletextpad + 1) * NOTE_SIZE * fig.dpi / 72
    # labels that fit beside the widest axis labels any language has need no second
    # layout pass (about 40 ms); the others are measured against the plot as laid out
    if all(_width(t, t.get_text(), renderer) <= SURE_ROOM * fig.bbox.width - handle for t in texts):
        return
    fig.draw_without_rendering()  # the layout settled: the plot's width on the picture
    room = bottom.get_window_extent(renderer).width - handle
    for text in texts:
        text.set_text(
            wrapped(text.get_text(), room, lambda line, t=text: _width(t, line, renderer))
        )


def _width(text, line: str, renderer) -> float:
    """How wide ``line`` is drawn in ``text``'s font, in pixels."""
    width, _, _ = renderer.get_text_width_height_descent(line, text.get_fontproperties(), False)
    return width


def wrapped(text: str, room: float, width) -> str:
    """``text`` in lines no wider than ``room`` (``width`` measures a line): broken at
    spaces, or between any two characters in a language that writes none (Japanese)."""
    if width(text) <= room:
        return text
    words = text.split(" ") if " " in text else list(text)
    joint = " " if " " in text else ""
    lines = [words[0]]
    for word in words[1:]:
        if width(lines[-1] + joint + word) <= room:
            lines[-1] += joint + word
        else:
            lines.append(word)
    return "\n".join(lines)


def _events(fig, axes_pair, points: Sequence[CurvePoint], lang: Language) -> None:
    """Each training and reset: a dotted line across both plots, labelled in the top one
    where no line runs."""
    events, before = [], 0
    for i, point in enumerate(points):
        if point.training:
            text = lang.t("training +{count}", count=point.lessons - before)
            events.append((point.games, text, TRAINING))
        elif point.lessons == 0 and i > 0:
            events.append((point.games, lang.t("memory reset"), RESET))
        before = point.lessons
    if not events:
        return
    for x, _, colour in events:
        for axes in axes_pair:
            axes.axvline(x, color=colour, linestyle=":", linewidth=2)
    fig.draw_without_rendering()  # the layout settled: where the lines are on the picture
    renderer = fig.canvas.get_renderer()
    taken = []
    for x, text, colour in events:
        taken.append(_label_clear_of_lines(axes_pair[0], renderer, x, text, colour, taken))


def _label_clear_of_lines(axes, renderer, x: float, text: str, colour: str, taken: list):
    """``text`` for the vertical line at ``x``, in its colour: the first place, beside the
    line (right, then left) and then at the plot's left and right edges, from the top down,
    that is inside the plot and touches no line nor other label; failing that, the first
    place inside the plot."""
    inside = axes.get_window_extent(renderer)
    fallback = None
    for height in (0.97, 0.85, 0.73, 0.61, 0.49, 0.37, 0.25):
        for anchor, ha, shift in (
            ((x, height), "left", 6),
            ((x, height), "right", -6),
            ((0.0, height), "left", 6),
            ((1.0, height), "right", -6),
        ):
            beside = anchor[0] == x
            note = axes.annotate(
                text, anchor, xycoords=("data" if beside else "axes fraction", "axes fraction"),
                textcoords="offset points", xytext=(shift, 0), ha=ha, va="top",
                color=colour, fontsize=NOTE_SIZE, annotation_clip=False, in_layout=False,
            )  # fmt: skip
            box = note.get_window_extent(renderer)
            if not (inside.x0 <= box.x0 and box.x1 <= inside.x1):
                note.remove()
                continue
            if not crosses_a_line(axes, box.padded(4)) and not any(
                box.overlaps(other.get_window_extent(renderer)) for other in taken
            ):
                if fallback is not None:
                    fallback.remove()
                return note
            if fallback is None:
                fallback = note
            else:
                note.remove()
    return fallback


def crosses_a_line(axes, box) -> bool:
    """Whether any line of ``axes`` (as drawn: steps, dots) runs through ``box``, a
    rectangle in the picture's pixels."""
    import numpy as np
    from matplotlib.cbook import STEP_LOOKUP_MAP
    from matplotlib.path import Path as Shape

    for line in axes.lines:
        xs, ys = line.get_xdata(), line.get_ydata()
        if len(xs) == 0:
            continue
        xs, ys = STEP_LOOKUP_MAP[line.get_drawstyle()](np.asarray(xs, float), np.asarray(ys, float))
        drawn = line.get_transform().transform(np.column_stack([xs, ys]))
        if line.get_linestyle() in ("None", "none", "", " "):  # dots only
            if any(box.contains(px, py) for px, py in drawn):
                return True
        elif Shape(drawn).intersects_bbox(box, filled=False):
            return True
    return False


def _losses(bottom, losses: Losses, lang: Language) -> None:
    """The bot's losses in each block of 50 games against it: a dot at the block's end,
    the count held over the games it counts (the first block from game 0). The axis is
    scaled to the counts (a young server's 0 to 3 is not lost at the bottom of 0 to 50),
    and before the first 50 games, the line is what it is: the losses so far."""
    games, lost = [g for g, _ in losses], [n for _, n in losses]
    bottom.plot(
        [0, *games], lost[:1] + lost, color=LOSSES, linewidth=2.5, drawstyle="steps-pre",
        label=lang.t("my losses per 50 games"),
    )  # fmt: skip
    bottom.plot(games, lost, color=LOSSES, marker="o", markersize=5, linestyle="none")
    _from_zero(bottom, max(lost, default=0))
    young = not games or games[-1] < RECENT
    label = lang.t("my losses so far") if young else lang.t("my losses per 50 games")
    bottom.set_ylabel(label, color=TEXT, fontsize=LABEL_SIZE)


def _sides(lang: Language, discs: bool) -> tuple[str, str]:
    """The bot's two roles, as the board shows them: red and yellow discs, or X and O."""
    if discs:
        return lang.t("when I play red (first)"), lang.t("when I play yellow (second)")
    return lang.t("when I play X (first)"), lang.t("when I play O (second)")


def _ways_to_beat(bottom, points: Sequence[CurvePoint], lang: Language, discs: bool) -> None:
    from matplotlib.transforms import offset_copy

    # the ways to beat the bot where they were counted (a board too large to search after
    # every game has them at trainings, imports and resets only)
    counted = [p for p in points if p.beat_x is not None]
    counted_games = [p.games for p in counted]
    highest = max((max(p.beat_x, p.beat_o) for p in counted), default=0)
    first, second = _sides(lang, discs)
    starred: list[int] = []
    for name, values, colour in (
        (first, [p.beat_x for p in counted], AS_X),
        (second, [p.beat_o for p in counted], AS_O),
    ):
        _steps(bottom, counted_games, values, colour, name)
        for i in became_unbeatable(values):
            x = counted_games[i]
            # over the dots; the second role's star above the first's when they share a game
            lift = 16 if x in starred else 0
            starred.append(x)
            bottom.plot(
                x, 0, marker="*", markersize=20, color=colour, markeredgecolor=BACKGROUND,
                linestyle="none", zorder=5, clip_on=False,
                transform=offset_copy(bottom.transData, bottom.figure, y=lift, units="points"),
            )  # fmt: skip
    if starred:  # one legend line for the stars, in the text's colour (each is its role's)
        bottom.plot(
            [], [], marker="*", markersize=16, color=TEXT, linestyle="none",
            label=lang.t("unbeatable from here on"),
        )  # fmt: skip
    _from_zero(bottom, highest)
    bottom.set_ylabel(lang.t("ways to beat me"), color=TEXT, fontsize=LABEL_SIZE)


def draw(
    points: Sequence[CurvePoint],
    title: str,
    lang: Language = ENGLISH,
    losses: Losses | None = None,
    *,
    discs: bool = False,
    ratings: Ratings = (),
) -> bytes:
    """The chart as PNG bytes (plain arguments: it can be drawn in another process)."""
    import matplotlib

    with _drawing:
        buffer = io.BytesIO()
        fig = figure(points, title, lang, losses, discs=discs, ratings=ratings)
        with matplotlib.rc_context(_typeface(lang)):  # the ticks are made while drawing
            fig.savefig(buffer, format="png")
    return buffer.getvalue()


async def curve_png(
    pictures: Pictures,
    guild_id: int,
    points: Sequence[CurvePoint],
    title: str,
    lang: Language = ENGLISH,
    losses: Losses | None = None,
    *,
    discs: bool = False,
    ratings: Ratings = (),
) -> bytes | None:
    """The picture of ``points`` (``None`` with no point yet, or if ``pictures`` could not
    draw it: it is tried again at the next ask); ``losses``: the classic board's losses
    per 50 games, drawn instead of the ways to beat; ``discs``: a Connect Four board (red
    and yellow)."""
    if not points:
        return None
    key = (
        guild_id,
        title,
        lang.code,
        tuple(points),
        None if losses is None else tuple(losses),
        discs,
        tuple(ratings),
    )
    png = _kept.get(key)
    if png is None:
        png = await pictures.draw(
            functools.partial(draw, discs=discs, ratings=tuple(ratings)),
            points,
            title,
            lang,
            losses,
        )
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
