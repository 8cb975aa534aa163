"""No test can hang the run (issue 32): a test made to block forever fails on its
deadline and the run goes on to its end; Ctrl-C ends a run at once. Each is a run of
pytest of its own, with the project's settings and tests/deadline.py, on tests written
here to hang."""

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.deadline import INTERRUPTED_SECONDS

ROOT = Path(__file__).resolve().parent.parent

HANGING = """
import asyncio
import threading
from pathlib import Path


async def test_blocks_forever():
    Path({started!r}).touch()
    # a thread that never returns, as a worker's reader stuck in the middle of a report
    # was: the loop's teardown waits for it too
    await asyncio.to_thread(threading.Event().wait)


def test_after_it():
    pass
"""


# pytest, as a person runs it from a terminal: a run started in the background of a script
# inherits SIGINT ignored (and Python then leaves it so), which no Ctrl-C reaches
PYTEST = (
    "import signal, sys, pytest; signal.signal(signal.SIGINT, signal.default_int_handler);"
    " sys.exit(pytest.main(sys.argv[1:]))"
)


@contextmanager
def pytest_run(tmp_path, *options) -> Iterator[subprocess.Popen]:
    """pytest on :data:`HANGING`, ended at the end whatever happened."""
    started = tmp_path / "started"
    test = tmp_path / "test_hanging.py"
    test.write_text(HANGING.format(started=str(started)))
    command = [sys.executable, "-c", PYTEST, "-c", str(ROOT / "pyproject.toml")]
    command += ["-p", "tests.deadline", "-p", "no:cacheprovider", "-q", *options, str(test)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.communicate()


def test_a_test_that_blocks_forever_fails_on_its_deadline_and_the_run_goes_on(tmp_path):
    with pytest_run(tmp_path, "--timeout", "3") as run:
        out, _ = run.communicate(timeout=120)
    # the test fails on its deadline, its teardown (waiting for the thread) on its own,
    # and the next test runs
    assert "1 failed, 1 passed, 1 error" in out, out
    assert "Timeout (>3.0s)" in out, out
    assert "the test run ends now: threads still running" in out, out
    assert run.returncode == 1


def test_ctrl_c_ends_the_run_at_once(tmp_path):
    with pytest_run(tmp_path, "--timeout", "600") as run:
        started = tmp_path / "started"
        waited = time.monotonic() + 120
        while not started.exists() and run.poll() is None and time.monotonic() < waited:
            time.sleep(0.05)  # pytest starts, and comes to the test that blocks
        assert started.exists()
        pressed = time.monotonic()
        run.send_signal(signal.SIGINT)
        out, _ = run.communicate(timeout=INTERRUPTED_SECONDS + 60)
    assert time.monotonic() - pressed < INTERRUPTED_SECONDS + 30, out
    assert "KeyboardInterrupt" in out, out
    assert run.returncode == 2, out
