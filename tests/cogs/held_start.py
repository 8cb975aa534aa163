"""Imported by a pictures process that tests/cogs/pictures/test_pictures.py starts: its start is
held here until the test opens the gate (the file named in :data:`GATE`), so the test
knows the process is still starting when it kills it."""

import os
import time
from pathlib import Path

from tests import WORK_SECONDS

GATE = "TTT_TEST_PICTURES_GATE"


def _held(gate: Path) -> None:
    given_up = time.monotonic() + WORK_SECONDS
    while not gate.exists() and time.monotonic() < given_up:
        time.sleep(0.01)


if GATE in os.environ:  # in the pictures' process (the test names its gate)
    _held(Path(os.environ[GATE]))
