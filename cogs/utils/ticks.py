"""The rounds of a periodic task (the timeout sweep, the trainings' progress): a round that
fails is skipped, and the next tick tries again. Restarting at once after a failure made a
database outage a tight loop: thousands of failed rounds, and log lines, a second."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator

from data import StoreUnavailableError

log = logging.getLogger(__name__)


class Ticks:
    """``with ticks.round(): ...`` around each round of the task called ``name``. A failure
    is logged once for a run of failed rounds (and once when a round works again); an
    outage of the database not at all: its driver logs that once when it starts and once
    when it ends."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._failing = False  # the last round failed, and that was logged here

    @contextlib.contextmanager
    def round(self) -> Iterator[None]:
        try:
            yield
        except StoreUnavailableError:
            pass  # the next tick tries again
        except Exception:
            if not self._failing:
                log.exception("%s failed; it tries again at each tick", self.name)
            self._failing = True
        else:
            if self._failing:
                log.warning("%s works again", self.name)
            self._failing = False
