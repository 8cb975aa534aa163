"""The learning curve: a point per game that teaches, and its picture in /ttt stats."""

import struct

import pytest
from matplotlib.cbook import STEP_LOOKUP_MAP

import engine
from cogs.pictures import chart
from data import Store
from engine import Mark
from gameflow import CurvePoint
from gameflow.game import BOARDS
from i18n import ENGLISH, LANGUAGES
from tests.cogs.play.test_games import play_line


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's header; fails on anything that is not a PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


SIZE = (1200, 1500)


def lines_by_label(axes) -> dict[str, list]:
    return {line.get_label(): list(line.get_ydata()) for line in axes.lines}


def test_the_chart_plots_exactly_the_points_and_marks_unbeatable():
    points = [
        CurvePoint(1, 3, 40, 300, False),
        CurvePoint(2, 9, 12, 150, False),
        CurvePoint(2, 300, 0, 0, True),  # a training: unbeatable in both roles
        CurvePoint(5, 0, 60, 450, False),  # a reset
        CurvePoint(9, 320, 0, 4, False),
    ]
    fig = chart.figure(points, "test")
    top, bottom = fig.axes
    (lessons, dots, *_) = top.lines
    # from game 0 and no lesson; the training's jump (+291) is shown apart, not plotted
    assert list(lessons.get_xdata()) == [0, 1, 2, 2, 5, 9]
    assert list(lessons.get_ydata()) == [0, 3, 9, 9, 0, 320]
    assert lessons.get_drawstyle() == "steps-post"  # a step at the game that taught
    assert list(dots.get_xdata()) == [0, 1, 2, 5, 9]  # a dot where the count changed
    notes = [t.get_text() for t in top.texts]
    assert "training +291" in notes and "memory reset" in notes
    assert top.get_title(loc="left") == "320 lessons in all"
    plotted = lines_by_label(bottom)
    assert plotted["when I play X (first)"] == [40, 12, 0, 60, 0]
    assert plotted["when I play O (second)"] == [300, 150, 0, 450, 4]
    assert "unbeatable from here on" in plotted  # the stars' line in the legend
    assert chart.became_unbeatable([40, 12, 0, 60, 0]) == [2, 4]
    assert chart.became_unbeatable([300, 150, 0, 450, 4]) == [2]
    stars = [line for line in bottom.lines if line.get_marker() == "*" and len(line.get_xdata())]
    assert sorted(float(s.get_xdata()[0]) for s in stars) == [2, 2, 9]
    assert all(s.get_zorder() > lessons.get_zorder() for s in stars)  # over dots and lines
    assert png_size(chart.draw(points, "test")) == SIZE


def test_a_step_stands_at_the_game_or_training_that_caused_it():
    """Issue 26: a training's drop is a step at the training, not a slope across the games
    before it that taught nothing; the axes start at 0 and run to the current game."""
    points = [
        CurvePoint(2, 2, 50, 300, False),
        CurvePoint(30, 400, 0, 0, True),
        CurvePoint(60, 400, 0, 0, False),  # the present: 30 games that taught nothing
    ]
    top, bottom = chart.figure(points, "test").axes
    as_x = next(line for line in bottom.lines if line.get_label() == "when I play X (first)")
    xs, ys = STEP_LOOKUP_MAP["steps-post"](as_x.get_xdata(), as_x.get_ydata())
    # 50 ways from game 2 to the training at game 30, then none from there on
    assert list(zip(xs, ys, strict=True)) == [(2, 50), (30, 50), (30, 0), (60, 0), (60, 0)]
    low, high = bottom.get_xlim()  # a margin either side: the dots at 0 and 60 drawn whole
    assert low < 0 and 60 < high < 63
    for axes in (top, bottom):  # from 0, not from the first count
        low, high = axes.get_ylim()
        assert next(t for t in axes.get_yticks() if low <= t <= high) == 0


async def stored_curve(db_path, guild_id):
    store = await Store.open(db_path)
    try:
        return await store.curve(guild_id), await store.load_facts(guild_id)
    finally:
        await store.close()


async def test_stats_attaches_the_curve_whose_points_are_the_games_snapshots(
    world, db_path, pictures
):
    w = world
    first = await w.alice.slash(w.channel, "ttt stats")
    assert not first.response.attachments  # nothing learned yet: no picture
    await play_line(w, w.alice, [1, 4, 7])  # teaches
    await play_line(w, w.alice, [1, 4, 7])  # the bot blocks now; this may teach or not
    await play_line(w, w.bob, [4, 5, 7], first="me")
    points, facts = await stored_curve(db_path, w.guild.id)
    memory = engine.Memory(facts)
    assert points and points[-1].lessons == len(memory)
    assert points[-1].beat_x == engine.analyse(memory, Mark.X).losing_lines
    assert points[-1].beat_o == engine.analyse(memory, Mark.O).losing_lines
    assert [p.games for p in points] == sorted(p.games for p in points)
    assert all(not p.training for p in points)
    await pictures.started()  # a picture asked before is left out
    result = await w.alice.slash(w.channel, "ttt stats")
    (attachment,) = result.response.attachments
    assert result.response.embeds[0].image.url.endswith(chart.FILE_NAME)
    png = w.env.backend.cdn.get(attachment.url)
    assert png_size(png) == SIZE and 10_000 < len(png) < 500_000
    # the last point is the present: the picture runs to the current (third) game
    assert points[-1].games == 3


def test_points_without_a_count_plot_their_lessons_and_no_ways_to_beat():
    """On a board too large to search after every game (Connect Four 5x4), a game's point
    has lessons only; the ways to beat the bot are plotted where they were counted."""
    points = [
        CurvePoint(1, 3, None, None, False),
        CurvePoint(2, 9, None, None, False),
        CurvePoint(4, 900, 40, 300, True),  # a training counts them
        CurvePoint(6, 912, None, None, False),
    ]
    top, bottom = chart.figure(points, "test").axes
    assert list(top.lines[0].get_xdata()) == [0, 1, 2, 4, 6]
    plotted = lines_by_label(bottom)
    assert plotted["when I play X (first)"] == [40] and plotted["when I play O (second)"] == [300]
    assert png_size(chart.draw(points, "test")) == SIZE
    only_games = chart.figure(points[:2], "test").axes[1]  # nothing counted yet: no crash
    assert all(len(line.get_xdata()) == 0 for line in only_games.lines)


# every word the chart can show, for the longest language and the Japanese font
CHART_WORDS = [
    "lessons from games",
    "ways to beat me",
    "games played in this server",
    "when I play X (first)",
    "when I play O (second)",
    "when I play red (first)",
    "when I play yellow (second)",
    "unbeatable from here on",
    "memory reset",
    "training +{count}",
    "How I learned in {server}",
    "How I learned",
]


def a_servers_history() -> list[CurvePoint]:
    """The issue's picture: lessons that climb to the top of their plot just where a
    training stands, both roles unbeatable at the training, a reset, then the present."""
    points = [CurvePoint(g, g * 2, max(0, 58 - g), 396 - 9 * g, False) for g in range(1, 40)]
    points.append(CurvePoint(40, 78 + 1556, 0, 0, True))
    points += [CurvePoint(g, 1556 + 2 * g, 0, 0, False) for g in range(41, 50)]
    points.append(CurvePoint(50, 0, 58, 396, False))  # a reset
    points += [CurvePoint(g, 5 * (g - 50), 58 - (g - 50), 300, False) for g in range(51, 58)]
    points.append(CurvePoint(60, 35, 51, 300, False))  # the present
    return points


def shown_tick_labels(axis) -> list:
    """The tick labels inside the axis's limits (matplotlib keeps some beyond them)."""
    low, high = sorted(axis.get_view_interval())
    ticks = axis.get_majorticklocs()
    return [
        label
        for tick, label in zip(ticks, axis.get_majorticklabels(), strict=True)
        if low <= tick <= high
    ]


def test_the_chart_reads_on_a_phone_with_whole_numbers_from_zero():
    """Issue 26: taller than wide, and scaled to a phone's 360 pixels its smallest text is
    about 13 pixels per em (6.9 before); few whole-number ticks from 0, even for a count
    that stays at 2 (no 1.900-2.100)."""
    points = [CurvePoint(1, 2, 2, 2, False), CurvePoint(3, 2, 2, 2, False)]
    fig = chart.figure(points, "How I learned in Home")
    fig.draw_without_rendering()
    top, bottom = fig.axes
    for axes in (top, bottom):
        for ticks, (low, high) in (
            (axes.get_xticks(), axes.get_xlim()),
            (axes.get_yticks(), axes.get_ylim()),
        ):
            shown = [t for t in ticks if low <= t <= high]
            assert shown[0] == 0 and all(float(t).is_integer() for t in shown)
            assert 2 <= len(shown) <= 6
    labels = [label.get_text() for label in shown_tick_labels(bottom.yaxis)]
    assert labels and all(label.isdigit() for label in labels)
    width, height = (chart.DPI * inches for inches in chart.SIZE_INCHES)
    assert height > width >= 1200  # sharp when scaled down
    texts = [
        *shown_tick_labels(bottom.xaxis), *shown_tick_labels(bottom.yaxis),
        *shown_tick_labels(top.yaxis),
        *bottom.get_legend().get_texts(), bottom.xaxis.label, top.yaxis.label, top._left_title,
    ]  # fmt: skip
    smallest = min(t.get_fontsize() for t in texts) * chart.DPI / 72 * 360 / width
    assert smallest >= 12


def test_crosses_a_line_sees_the_lines_as_drawn():
    from matplotlib.transforms import Bbox

    fig = chart.figure([CurvePoint(2, 50, None, None, False)], "test")
    fig.draw_without_rendering()
    top = fig.axes[0]
    x, y = top.transData.transform((1, 0))  # on the flat step from game 0 to game 2
    assert chart.crosses_a_line(top, Bbox.from_bounds(x - 5, y - 5, 10, 10))
    x, y = top.transData.transform((1, 25))  # under the step, where a slope would run
    assert not chart.crosses_a_line(top, Bbox.from_bounds(x - 5, y - 5, 10, 10))


def test_labels_and_legends_fit_in_the_longest_language_and_cover_no_line():
    """Issue 26: in the language whose words are longest, every text lies inside the
    picture; the legend is stacked between the plots, over neither; the training's and
    the reset's labels are inside their plot and touch no line."""
    from i18n import LANGUAGES

    def length(lang):
        return sum(len(lang.t(word, count=1556, server="Home")) for word in CHART_WORDS)

    lang = max(LANGUAGES.values(), key=length)
    assert lang.code != "en"
    title = lang.t("How I learned in {server}", server="The Friday Night Board Game Club")
    fig = chart.figure(a_servers_history(), title, lang)
    fig.draw_without_rendering()
    renderer = fig.canvas.get_renderer()
    top, bottom = fig.axes
    legend = bottom.get_legend()
    texts = [
        fig._suptitle, top._left_title, top.yaxis.label, bottom.yaxis.label, bottom.xaxis.label,
        *legend.get_texts(), *top.texts, *shown_tick_labels(bottom.xaxis),
        *shown_tick_labels(bottom.yaxis),
    ]  # fmt: skip
    page = fig.bbox
    for text in texts:
        box = text.get_window_extent(renderer)
        assert page.x0 <= box.x0 and box.x1 <= page.x1, text.get_text()
        assert page.y0 <= box.y0 and box.y1 <= page.y1, text.get_text()
    box = legend.get_window_extent(renderer)
    for axes in (top, bottom):
        assert not box.overlaps(axes.get_window_extent(renderer))
    lefts = {round(t.get_window_extent(renderer).x0) for t in legend.get_texts()}
    assert len(legend.get_texts()) == 3 and len(lefts) == 1  # one above the other
    plot = top.get_window_extent(renderer)
    notes = [note.get_text() for note in top.texts]
    assert notes == [lang.t("training +{count}", count=1556), lang.t("memory reset")]
    for note in top.texts:
        box = note.get_window_extent(renderer)
        assert plot.x0 <= box.x0 and box.x1 <= plot.x1 and plot.y0 <= box.y0 <= box.y1 <= plot.y1
        assert not chart.crosses_a_line(top, box)


def test_japanese_servers_get_the_chart_in_japanese_with_the_servers_name():
    """Issue 26: the Japanese font the bot ships writes the chart's words and the kanji of
    any server's name; a name it cannot write (emoji) gives the plain title."""
    from i18n import LANGUAGES

    japanese = LANGUAGES["ja"]
    points = [CurvePoint(1, 3, 40, 300, False), CurvePoint(2, 300, 0, 0, True)]
    title = japanese.t("How I learned in {server}", server="麻雀部・鬼龍院")
    fig = chart.figure(points, title, japanese)
    top, bottom = fig.axes
    assert fig._suptitle.get_text() == title
    assert top.get_ylabel() == japanese.t("lessons from games") != "lessons from games"
    assert bottom.get_legend().get_texts()[0].get_text() == japanese.t("when I play X (first)")
    assert fig._suptitle.get_fontfamily()[0] == chart.JAPANESE
    words = "".join(japanese.t(word, count=1, server="") for word in CHART_WORDS)
    assert chart.drawable(words) and chart.drawable(title)
    assert chart.drawable("Как я учился") and not chart.drawable("🎲")
    plain = chart.figure(points, japanese.t("How I learned in {server}", server="🎲"), japanese)
    assert plain._suptitle.get_text() == japanese.t("How I learned")
    german = chart.figure(points, "Wie ich gelernt habe", LANGUAGES["de"])
    assert german._suptitle.get_fontfamily()[0] == chart.LATIN


def test_the_chart_speaks_the_servers_language():
    from i18n import LANGUAGES

    points = [CurvePoint(1, 3, 40, 300, False), CurvePoint(2, 300, 0, 0, True)]
    german = chart.figure(points, "Wie ich auf dem Server Heim gelernt habe", LANGUAGES["de"])
    top, bottom = german.axes
    assert top.get_ylabel() == "Lektionen aus Partien"
    assert bottom.get_xlabel() == "auf diesem Server gespielte Partien"
    assert any("Training +297" in t.get_text() for t in top.texts)
    assert top.get_title(loc="left") == "300 Lektionen insgesamt"
    german.draw_without_rendering()
    assert "1.000" not in [t.get_text() for t in bottom.get_yticklabels()]  # whole numbers


async def test_connect_four_charts_say_red_and_yellow(world, db_path, pictures):
    """Issue 26: under an embed of 🔴 and 🟡, the chart's roles are red and yellow."""
    from cogs.utils.boards import look_of
    from i18n import ENGLISH
    from tests.cogs.play.test_connect4 import drop

    w = world
    await w.alice.slash(w.channel, "connect4 play", board="4x4")
    for _ in range(4):
        await drop(w, w.alice, 2)
    await pictures.started()  # a picture asked before is left out
    stats = await w.alice.slash(w.channel, "connect4 stats", board="4x4")
    (attachment,) = stats.response.attachments
    png = w.env.backend.cdn.get(attachment.url)
    store = await Store.open(db_path)
    try:
        points = await store.curve(w.guild.id, game="connect4")
        history = await store.bot_history(w.guild.id, "connect4")  # the bot's rating line
    finally:
        await store.close()
    ratings = tuple((p.games, round(p.mu / 100)) for p in history)
    title = ENGLISH.t(
        "{game}: how I learned in {server}", server="Home", game=look_of("connect4").title
    )
    drawn = chart.draw(points, title, discs=True, ratings=ratings)
    assert png == drawn != chart.draw(points, title, ratings=ratings)
    plotted = lines_by_label(chart.figure(points, title, discs=True).axes[1])
    assert "when I play red (first)" in plotted and "when I play yellow (second)" in plotted


def laid_out(lang) -> list[list[float]]:
    """The plots' widths (top, bottom) in the curve's two kinds of picture in ``lang``,
    with the longest server name, having checked that every text lies inside the picture
    and a legend over neither plot."""
    title = lang.t(
        "{game}: how I learned in {server}",
        server="The Friday Night Board Game Club",
        game=lang.say(BOARDS["connect4"].title),
    )
    widths = []
    for figure in (
        chart.figure(a_servers_history(), title, lang, discs=True),  # a legend of three
        chart.figure(a_servers_history(), title, lang, losses=[(50, 31), (60, 4)]),
    ):
        figure.draw_without_rendering()
        renderer = figure.canvas.get_renderer()
        top, bottom = figure.axes
        legend = bottom.get_legend()
        texts = [figure._suptitle, top.yaxis.label, bottom.yaxis.label, bottom.xaxis.label]
        if legend is not None:
            texts += legend.get_texts()
            box = legend.get_window_extent(renderer)
            assert not any(box.overlaps(axes.get_window_extent(renderer)) for axes in (top, bottom))
        page = figure.bbox
        for text in texts:
            box = text.get_window_extent(renderer)
            assert page.x0 <= box.x0 and box.x1 <= page.x1, (lang.code, text.get_text())
            assert page.y0 <= box.y0 and box.y1 <= page.y1, (lang.code, text.get_text())
        widths.append([axes.get_window_extent(renderer).width for axes in (top, bottom)])
    return widths


@pytest.mark.parametrize("code", sorted(LANGUAGES))
def test_every_language_fits_its_legend_and_keeps_the_plots_width(code):
    """Issue 35: the German curve cut its legend and squeezed both plots into two thirds
    of the picture. In every language, with the longest server name, each text lies
    inside the picture and the plots keep the width they have in English."""
    english = laid_out(ENGLISH)
    for (top, bottom), (top_en, bottom_en) in zip(laid_out(LANGUAGES[code]), english, strict=True):
        assert top >= 0.93 * top_en and bottom >= 0.93 * bottom_en, code
        assert bottom >= 0.75 * chart.SIZE_INCHES[0] * chart.DPI  # most of the picture


def test_a_young_servers_losses_are_scaled_to_them_and_one_line_needs_no_legend():
    points = [CurvePoint(1, 21, None, None, False), CurvePoint(12, 60, None, None, False)]
    young = chart.figure(points, "test", losses=[(12, 3)]).axes[1]
    assert young.get_ylabel() == "my losses so far" and young.get_legend() is None
    low, high = young.get_ylim()
    assert low < 0 and 3 < high < 6  # 0 to 3 reads, where 0 to 50 was a flat line
    older = chart.figure(points, "test", losses=[(50, 31), (100, 18), (112, 2)]).axes[1]
    assert older.get_ylabel() == "my losses per 50 games"
    assert 31 < older.get_ylim()[1] < 40


def test_the_last_point_and_a_reset_at_the_current_game_are_inside_the_frame():
    points = [CurvePoint(1, 3, 40, 300, False), CurvePoint(9, 0, 58, 396, False)]  # a reset
    fig = chart.figure(points, "test")
    fig.draw_without_rendering()
    top, bottom = fig.axes
    low, high = bottom.get_xlim()
    assert low < 0 and high > 9  # the dots at 0 and 9 drawn whole, the reset's line inside
    reset = next(line for line in top.lines if line.get_linestyle() == ":")
    assert low < reset.get_xdata()[0] < high


def test_the_title_never_breaks_inside_the_games_name():
    lang = LANGUAGES["fr"]
    name = lang.say(BOARDS["connect4-7x6"].title)
    title = lang.t(
        "{game}: how I learned in {server}", server="Le club du vendredi soir", game=name
    )
    fig = chart.figure([CurvePoint(1, 3, None, None, False)], title, lang, losses=[(1, 1)])
    fig.draw_without_rendering()
    wrapped = fig._suptitle._get_wrapped_text()
    assert name.replace(" ", "\N{NO-BREAK SPACE}") in wrapped.replace("\n", " ")


def test_points_of_one_game_are_its_last():
    """A post-mortem's point lands after its game's own one, at the same game: the game
    shows what both taught."""
    points = [
        CurvePoint(1, 2, None, None, False),
        CurvePoint(1, 21, None, None, False),  # the post-mortem's lessons, at game 1
        CurvePoint(2, 21, None, None, False),
    ]
    top = chart.figure(points, "test", losses=[(2, 1)]).axes[0]
    assert list(top.lines[0].get_xdata()) == [0, 1, 2]
    assert list(top.lines[0].get_ydata()) == [0, 21, 21]


async def test_the_curve_credits_a_post_mortem_to_the_game_that_taught(world, simcord_bot):
    """Issue 35: game 1 showed +2 and the post-mortem's jump came at game 2, a game that
    taught nothing. The review stores its point at its own game, in its own transaction."""
    from tests.cogs.play.test_reviews import lose_a_classic_game

    w = world
    await lose_a_classic_game(w.alice, w.channel, simcord_bot.service, w.env)
    memory = await simcord_bot.service.memory(w.guild.id, "connect4-7x6")
    await w.alice.slash(w.channel, "connect4 play", board="7x6")
    await w.alice.slash(w.channel, "connect4 resign")  # game 2 teaches nothing
    points = await simcord_bot.service.scoreboard.curve(w.guild.id, "connect4-7x6")
    assert [p.games for p in points][-1] == 2
    assert max(p.lessons for p in points if p.games == 1) == len(memory) > 2
    top = chart.figure(points, "test", losses=[(2, 1)]).axes[0]
    assert list(top.lines[0].get_ydata()) == [0, len(memory), len(memory)]


def test_the_bots_rating_is_a_line_with_its_own_axis_and_a_reset_shows():
    points = [
        CurvePoint(1, 3, 40, 300, False),
        CurvePoint(2, 9, 12, 150, False),
        CurvePoint(3, 0, 60, 400, False),  # a reset
    ]
    ratings = [(1, 1379), (2, 1420), (3, 1500)]
    fig = chart.figure(points, "test", ratings=ratings)
    (rating_axis,) = [a for a in fig.axes if a.get_ylabel() == "my rating"]
    assert rating_axis.yaxis.get_label_position() == "right"
    (line,) = rating_axis.lines
    assert list(line.get_xdata()) == [1, 2, 3] and list(line.get_ydata()) == [1379, 1420, 1500]
    texts = [t.get_text() for a in fig.axes for t in a.texts]
    assert "memory reset" in texts
    french = chart.figure(points, "test", LANGUAGES["fr"], ratings=[(1, 1379), (2, 1620)])
    (axis,) = [a for a in french.axes if a.get_ylabel() == "ma cote"]
    french.draw_without_rendering()
    assert any("\u202f" in t.get_text() for t in axis.get_yticklabels())  # 1 400, the French way
