"""A process's reports, read whatever the process does (issue 32): a report cut off in
the middle, by a process that died or is stuck, never leaves a thread waiting for it."""

import asyncio
import multiprocessing
import os
import signal
import struct
import threading
import time

import pytest

from gameflow import worker

CUT_OFF_AT = 10_000  # bytes of a report of a megabyte: the reader waits for the rest


def half_a_report(sender) -> None:
    """In the process: one report, then the first bytes of a large one, then nothing."""
    sender.send(("progress", 1, 2))
    os.write(sender.fileno(), struct.pack("!i", 1 << 20) + b"x" * CUT_OFF_AT)
    time.sleep(3600)


def readers() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.endswith(" reports")]


@pytest.fixture
def stuck():
    context = multiprocessing.get_context("spawn")
    reports, sender = context.Pipe(duplex=False)
    process = context.Process(target=half_a_report, args=(sender,), daemon=True, name="stuck")
    yield process, reports, sender
    if process.is_alive():  # a failed test leaves nothing behind either
        process.kill()
        process.join()


async def test_a_process_that_dies_in_the_middle_of_a_report_ends_the_reading(stuck):
    process, reports, sender = stuck
    async with worker.reporting(process, reports, sender) as next_report:
        assert await next_report() == ("progress", 1, 2)
        # the reader is now inside the large report; the process dies there
        os.kill(process.pid, signal.SIGKILL)
        assert await asyncio.wait_for(next_report(), 60) is None
    assert not process.is_alive() and process.exitcode == -signal.SIGKILL
    assert readers() == [] and reports.closed


async def test_giving_up_on_a_stuck_process_ends_it_and_its_reader(stuck):
    process, reports, sender = stuck
    arrived = asyncio.Event()

    async def wait_for_the_end():
        async with worker.reporting(process, reports, sender) as next_report:
            await next_report()
            arrived.set()
            await next_report()  # never comes: the process is stuck in the middle of it

    waiting = asyncio.create_task(wait_for_the_end())
    await asyncio.wait_for(arrived.wait(), 60)
    waiting.cancel()  # a test that ends, a bot that closes, an import given up
    with pytest.raises(asyncio.CancelledError):
        await waiting
    assert not process.is_alive() and process.exitcode == -signal.SIGTERM
    assert readers() == [] and reports.closed
