"""The learning curve: a point per game that teaches, and its picture in /ttt stats."""

import struct

import engine
from cogs import chart
from data import Store
from engine import Mark
from gameflow import CurvePoint
from tests.cogs.test_games import play_line


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's header; fails on anything that is not a PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


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
    (lessons, *_) = top.lines
    assert list(lessons.get_xdata()) == [1, 2, 2, 5, 9]
    # the lessons the games taught: the training's jump (+291) is shown apart, not plotted
    assert list(lessons.get_ydata()) == [3, 9, 9, 0, 320]
    assert any("training +291" in t.get_text() for t in top.texts)
    plotted = {line.get_label(): list(line.get_ydata()) for line in bottom.lines}
    assert plotted["ways to beat me as X (first)"] == [40, 12, 0, 60, 0]
    assert plotted["ways to beat me as O (second)"] == [300, 150, 0, 450, 4]
    assert chart.became_unbeatable([40, 12, 0, 60, 0]) == [2, 4]
    assert chart.became_unbeatable([300, 150, 0, 450, 4]) == [2]
    stars = [line for line in bottom.lines if line.get_marker() == "*"]
    assert sorted(float(s.get_xdata()[0]) for s in stars) == [2, 2, 9]
    width, height = png_size(chart.draw(points, "test"))
    assert (width, height) == (1200, 750)


async def stored_curve(db_path, guild_id):
    store = await Store.open(db_path)
    try:
        return await store.curve(guild_id), await store.load_facts(guild_id)
    finally:
        await store.close()


async def test_stats_attaches_the_curve_whose_points_are_the_games_snapshots(world, db_path):
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
    result = await w.alice.slash(w.channel, "ttt stats")
    (attachment,) = result.response.attachments
    assert result.response.embeds[0].image.url.endswith(chart.FILE_NAME)
    png = w.env.backend.cdn.get(attachment.url)
    assert png_size(png) == (1200, 750) and 10_000 < len(png) < 500_000


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
    assert list(top.lines[0].get_xdata()) == [1, 2, 4, 6]
    as_x, as_o = (line for line in bottom.lines if line.get_label().startswith("ways"))
    assert list(as_x.get_xdata()) == [4] and list(as_x.get_ydata()) == [40]
    assert list(as_o.get_ydata()) == [300]
    assert png_size(chart.draw(points, "test")) == (1200, 750)
    only_games = chart.figure(points[:2], "test").axes[1]  # nothing counted yet: no crash
    assert all(len(line.get_xdata()) == 0 for line in only_games.lines)


def test_the_chart_reads_on_a_phone_with_whole_games_and_plain_counts():
    """Issue 17: whole-number game ticks, a plain count axis, legends that cover no line,
    the unbeatable moments called out inside the plot, and text big enough for a phone."""
    points = [
        CurvePoint(n, n * 3, max(0, 30 - 4 * n), max(0, 60 - 8 * n), False) for n in range(1, 12)
    ]
    fig = chart.figure(points, "How I learned in Home")
    fig.canvas.draw()
    top, bottom = fig.axes
    ticks = [t for t in bottom.get_xticks() if 1 <= t <= 11]
    assert ticks and all(float(t).is_integer() for t in ticks)  # no game 1.25
    assert bottom.get_yscale() == "linear" and all(
        float(t).is_integer() for t in bottom.get_yticks()
    )
    stars = {round(float(line.get_xdata()[0])) for line in bottom.lines if line.get_marker() == "*"}
    assert stars == {8}  # X unbeatable after game 8 (30 - 32 < 0), O after game 8 too
    labels = [t.get_text() for t in bottom.texts]
    assert labels == ["unbeatable as X", "unbeatable as O"]
    box = bottom.get_window_extent()
    for note in bottom.texts:  # inside the plot, where it can be read
        extent = note.get_window_extent()
        assert box.x0 <= extent.x0 and extent.x1 <= box.x1 and extent.y1 <= box.y1
    for axes in (top, bottom):  # each legend above its plot, over no line
        assert axes.get_legend().get_window_extent().y0 >= axes.get_window_extent().y1 - 1
    sizes = [t.get_fontsize() for t in (*bottom.get_xticklabels(), *bottom.texts)]
    assert min(sizes) >= 11 and fig._suptitle.get_fontsize() >= 15
    assert chart.DPI * chart.SIZE_INCHES[0] >= 1200  # wide enough to stay sharp when scaled


def test_the_chart_speaks_the_servers_language_where_its_font_can_write_it():
    """Issue 18: the picture's labels are in the server's language; Japanese, which
    matplotlib's own font cannot draw (it would be empty boxes), falls back to English."""
    from i18n import LANGUAGES

    points = [CurvePoint(1, 3, 40, 300, False), CurvePoint(2, 300, 0, 0, True)]
    german = chart.figure(points, "Wie ich auf dem Server Heim gelernt habe", LANGUAGES["de"])
    top, bottom = german.axes
    assert top.get_ylabel() == "Lektionen"
    assert bottom.get_xlabel() == "auf diesem Server gespielte Partien"
    assert any("Training +297" in t.get_text() for t in top.texts)
    assert german._suptitle.get_text() == "Wie ich auf dem Server Heim gelernt habe"
    japanese = chart.figure(points, "Heimでの学習の記録", LANGUAGES["ja"])
    top, bottom = japanese.axes
    assert top.get_ylabel() == "lessons" and bottom.get_ylabel() == "ways to beat me"
    assert japanese._suptitle.get_text() == "How I learned"  # the title, drawable
    russian = chart.figure(points, "Как я учился", LANGUAGES["ru"])
    assert russian.axes[0].get_ylabel() == "уроки"  # Cyrillic: the font has it
