"""No test can hang the run (issue 32): each has a deadline (pytest-timeout, set in
pyproject.toml), after which it fails and the run goes on, and the run ends when it is
over or interrupted, whatever a stuck test left behind.

- ``signal`` is pytest-timeout's method that fails the test (its ``thread`` method ends
  the whole run); here it is armed again when it fires, for the test's teardown, so a
  teardown stuck on what the test left (a thread, a process) fails in turn;
- Ctrl-C: the run tears down, prints what it has and ends, a stuck teardown or not, within
  :data:`INTERRUPTED_SECONDS`;
- at the end, threads a stuck test left running would keep Python from exiting (it joins
  them): the run's children are ended and it exits with its status.

tests/conftest.py takes these hooks; tests/test_deadlines.py runs them on tests made to
hang.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
import threading
import time
from pathlib import Path

import pytest
import pytest_timeout

TEARDOWN_SECONDS = 60.0  # after a test's deadline, for its teardown (at most the test's own)
INTERRUPTED_SECONDS = 10.0  # after Ctrl-C, for the teardowns and the summary
INTERRUPTED_TEARDOWN_SECONDS = 2.0  # after Ctrl-C, for each teardown
LEFT_RUNNING_SECONDS = 5.0  # at the end, for threads still finishing their work
EXIT_STATUS = pytest.StashKey[int]()
DEADLINE = pytest.StashKey[object]()  # how to stop a test's timer


@pytest.hookimpl(tryfirst=True)
def pytest_timeout_set_timer(item, settings):
    if settings.method != "signal" or threading.current_thread() is not threading.main_thread():
        return None  # pytest-timeout's own

    def expired(signum, frame):
        __tracebackhide__ = True
        signal.setitimer(signal.ITIMER_REAL, min(TEARDOWN_SECONDS, settings.timeout))
        pytest_timeout.timeout_sigalrm(item, settings)  # the threads' stacks, and the failure

    def cancel():
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, signal.SIG_DFL)

    item.stash[DEADLINE] = cancel
    signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, settings.timeout)
    return True


@pytest.hookimpl(tryfirst=True)
def pytest_timeout_cancel_timer(item):
    """Not yet: pytest-timeout stops the timer as soon as a test fails (for a debugger),
    which would leave its teardown without one; it stops once the test is over (below)."""
    return True if DEADLINE in item.stash else None


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_protocol(item):
    yield
    cancel = item.stash.get(DEADLINE, None)
    if cancel is not None:
        cancel()


def pytest_keyboard_interrupt(excinfo):
    """Ctrl-C: each teardown still to run gets :data:`INTERRUPTED_TEARDOWN_SECONDS`, the
    run :data:`INTERRUPTED_SECONDS` in all."""

    def stuck(signum, frame):
        signal.setitimer(signal.ITIMER_REAL, INTERRUPTED_TEARDOWN_SECONDS)
        pytest.exit("a teardown was stuck after Ctrl-C", pytest.ExitCode.INTERRUPTED)

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGALRM, stuck)
        signal.setitimer(signal.ITIMER_REAL, INTERRUPTED_TEARDOWN_SECONDS)
    last_resort = threading.Timer(
        INTERRUPTED_SECONDS, _exit_now, (pytest.ExitCode.INTERRUPTED, "interrupted")
    )
    last_resort.daemon = True
    last_resort.start()


def pytest_sessionfinish(session, exitstatus):
    session.config.stash[EXIT_STATUS] = int(exitstatus)


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config):
    if threading.current_thread() is threading.main_thread():
        signal.setitimer(signal.ITIMER_REAL, 0)
    status = config.stash.get(EXIT_STATUS, 1)
    interrupted = status == pytest.ExitCode.INTERRUPTED  # Ctrl-C: no more waiting
    finishing = time.monotonic() + (0.0 if interrupted else LEFT_RUNNING_SECONDS)
    for thread in _left_running():
        thread.join(max(0.0, finishing - time.monotonic()))
    if stuck := _left_running():
        names = ", ".join(thread.name for thread in stuck)
        _exit_now(status, f"threads still running ({names})")


def _left_running() -> list[threading.Thread]:
    main = threading.main_thread()
    return [t for t in threading.enumerate() if t is not main and not t.daemon and t.is_alive()]


def _exit_now(status: int, why: str) -> None:
    """End the run's child processes, then the run, without waiting for anything."""
    for child in multiprocessing.active_children():
        child.kill()
    for pid in _children():
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    sys.stdout.flush()
    sys.stderr.write(f"\nthe test run ends now: {why}\n")
    sys.stderr.flush()
    os._exit(status)


def _children() -> list[int]:
    """This process's children (a bot started with ``python bot.py``), where /proc says."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            # the fields after the command's name, which is in parentheses: state, ppid
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == os.getpid():
                found.append(int(stat.parent.name))
    return found
