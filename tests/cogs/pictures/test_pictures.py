"""Pictures drawn in a process of their own (issue 28): ``/ttt stats`` answers without its
picture when that process is gone or too slow, and the next picture comes from a new one."""

import asyncio
import logging
import os
import signal
from collections.abc import Callable

import pytest

from cogs.pictures import chart
from cogs.pictures.process import DRAWING_MODULES, Pictures
from tests import WORK_SECONDS
from tests.cogs import held_start
from tests.cogs.pictures.test_chart import png_size
from tests.cogs.play.test_games import play_line
from tests.cogs.replays.test_replays import custom_id, open_replay

CHART_PIXELS = tuple(round(inches * chart.DPI) for inches in chart.SIZE_INCHES)


async def ended(pid: int, end: Callable[[], object]) -> None:
    """Call ``end``, then wait until the process ``pid`` has ended (a zombie until the
    bot's pool reaps it), as the kernel tells through a descriptor of the process (opened
    first: its id cannot name another process meanwhile)."""
    gone = asyncio.Event()
    descriptor = os.pidfd_open(pid)
    loop = asyncio.get_running_loop()
    loop.add_reader(descriptor, gone.set)
    try:
        end()
        await asyncio.wait_for(gone.wait(), WORK_SECONDS)
    finally:
        loop.remove_reader(descriptor)
        os.close(descriptor)


async def stats_picture(w):
    """``/ttt stats``'s answer: its embed, and its picture's PNG if it has one."""
    result = await w.alice.slash(w.channel, "ttt stats")
    (embed,) = result.response.embeds
    assert embed.fields  # the figures are there, picture or not
    if not result.response.attachments:
        assert embed.image.url is None
        return embed, None
    (attachment,) = result.response.attachments
    assert embed.image.url.endswith(chart.FILE_NAME)
    return embed, w.env.backend.cdn.get(attachment.url)


async def test_stats_answers_without_the_picture_when_its_process_is_killed_then_gets_it(
    world, pictures, caplog
):
    w = world
    chart._kept.clear()  # no picture of another test's identical curve
    killed = pictures.process_id()
    assert killed is not None  # started with the bot, before any picture
    await play_line(w, w.alice, [1, 4, 7])  # teaches: a point to draw
    await pictures.started()
    await ended(killed, lambda: os.kill(killed, signal.SIGKILL))
    with caplog.at_level(logging.WARNING, logger="cogs.pictures.process"):
        embed, png = await stats_picture(w)
    assert png is None
    assert "the pictures' process is gone" in caplog.text
    # a new process, started for the next picture, draws it
    replacement = pictures.process_id()
    assert replacement not in (None, killed)
    await pictures.started()
    again, png = await stats_picture(w)
    assert png_size(png) == CHART_PIXELS
    assert again.fields == embed.fields
    assert pictures.process_id() == replacement


async def test_stats_answers_without_a_picture_that_takes_too_long_then_gets_it(
    world, pictures, caplog
):
    w = world
    chart._kept.clear()
    await play_line(w, w.alice, [1, 4, 7])
    await pictures.started()
    first = pictures.process_id()
    # a picture takes about 0.2 s: past a limit of 1 ms, it is left out
    pictures.seconds = 0.001
    with caplog.at_level(logging.WARNING, logger="cogs.pictures.process"):
        _, png = await stats_picture(w)
    assert png is None
    assert "took over 0.001 s: left out" in caplog.text
    # the process cut it short and is free for the next picture; nothing slow was kept
    assert pictures.process_id() == first
    pictures.seconds = 60.0
    _, png = await stats_picture(w)
    assert png_size(png) == CHART_PIXELS


async def test_a_closed_bot_draws_nothing_and_leaves_no_process(world, pictures):
    pid = pictures.process_id()
    assert pid is not None
    await ended(pid, pictures.close)
    assert pictures.process_id() is None
    assert await pictures.draw(chart.draw, [], "closed") is None
    assert pictures.process_id() is None  # not started again


@pytest.fixture
def held_pictures(simcord_bot, monkeypatch, tmp_path):
    """The bot's pictures, whose process is held in its start (tests/cogs/held_start.py)
    until the test touches the returned gate."""
    gate = tmp_path / "gate"
    monkeypatch.setenv(held_start.GATE, str(gate))
    simcord_bot.pictures = Pictures(modules=(*DRAWING_MODULES, "tests.cogs.held_start"))
    return simcord_bot.pictures, gate


async def test_share_after_the_process_died_starting_says_so_and_starts_another(
    held_pictures, world, caplog
):
    """Issue 32, defect 1: Share after the pictures' process died while starting said
    "Something went wrong" (and logged an error) for good, and started no other."""
    pictures, gate = held_pictures
    w = world
    await play_line(w, w.alice, [1, 4, 7])
    board = w.channel.last_message
    replay = await open_replay(w.bob, board)
    starting = pictures.process_id()
    assert starting is not None
    await ended(starting, lambda: os.kill(starting, signal.SIGKILL))  # held: not started
    gate.touch()  # the next process may start
    with caplog.at_level(logging.WARNING):
        refused = await w.bob.click(replay, custom_id=custom_id(replay, "📤"))
    assert refused.ephemeral and "couldn't draw this game's picture just now" in (
        refused.response.content
    )
    assert "the pictures' process died starting" in caplog.text
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert w.channel.last_message.id == board.id  # nothing posted
    replacement = pictures.process_id()
    assert replacement not in (None, starting)
    await pictures.started()
    shared = await w.bob.click(replay, custom_id=custom_id(replay, "📤"))
    assert not shared.ephemeral
    (picture,) = w.channel.last_message.attachments
    assert picture.filename == "game.png"
    assert pictures.process_id() == replacement


def test_a_language_goes_to_the_pictures_process_by_its_code():
    """The chart's labels are in the server's language: a Language goes to the process as
    its code, and is the same catalog there."""
    import pickle

    from i18n import ENGLISH, LANGUAGES

    for lang in (LANGUAGES["de"], LANGUAGES["pt-BR"], ENGLISH):
        sent = pickle.dumps(lang)
        assert len(sent) < 100 and pickle.loads(sent) is lang
