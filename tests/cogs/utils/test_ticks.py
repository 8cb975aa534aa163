"""A periodic task's failed rounds (cogs.ticks): skipped, and logged once a run of them."""

import logging

from cogs.utils.ticks import Ticks
from data import StoreUnavailableError


def test_a_run_of_failed_rounds_is_logged_once_and_an_outage_not_at_all(caplog):
    ticks = Ticks(name="the test task")
    done = []
    with caplog.at_level(logging.INFO, logger="cogs.utils.ticks"):
        for _ in range(5):
            with ticks.round():
                raise StoreUnavailableError("down")  # the driver logs the outage itself
        assert caplog.records == []
        for n in range(5):
            with ticks.round():
                raise ValueError(n)
        with ticks.round():
            done.append("a round that works")
        with ticks.round():
            done.append("and another")
    assert [r.getMessage() for r in caplog.records] == [
        "the test task failed; it tries again at each tick",
        "the test task works again",
    ]
    assert "ValueError: 0" in caplog.text and len(done) == 2
