"""The game flow on a real SQLite file in a temporary folder, with a clock tests can move."""

import pytest

from data import Store
from gameflow import GameService


@pytest.fixture
async def service(tmp_path):
    store = await Store.open(tmp_path / "flow.sqlite3")
    clock = [1_000_000.0]
    svc = GameService(store, timeout_seconds=600, clock=lambda: clock[0])
    svc.test_clock = clock
    svc.store_path = tmp_path / "flow.sqlite3"
    await svc.load()
    yield svc
    await svc.close()  # the post-mortems' worker, if a test started it
    await store.close()
