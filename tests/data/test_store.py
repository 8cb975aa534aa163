import sqlite3

import pytest

from data import SCHEMA_VERSION, ChannelBusyError, SchemaTooNewError, Store


@pytest.fixture
async def store(tmp_path):
    s = await Store.open(tmp_path / "nested" / "store.sqlite3")
    yield s
    await s.close()


async def test_a_new_database_is_migrated_to_the_latest_schema_in_wal_mode(tmp_path, store):
    with sqlite3.connect(tmp_path / "nested" / "store.sqlite3") as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"facts", "games", "meta"} <= tables


async def test_reopening_keeps_data_and_does_not_migrate_again(tmp_path, store):
    await store.finish_game(
        (await store.start_game(1, 2, 3, "O", [4], now=1.0)).id, 1, [4, 0, 1, 2, 7],
        "player_won", [("OXO.X....", "loss")], now=2.0,
    )  # fmt: skip
    await store.close()
    again = await Store.open(tmp_path / "nested" / "store.sqlite3")
    assert await again.load_facts(1) == [("OXO.X....", "loss")]
    assert (await again.record(1)).bot_losses == 1
    await again.close()


async def test_a_database_from_a_newer_bot_is_refused_untouched(tmp_path):
    path = tmp_path / "future.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(SchemaTooNewError, match="newer than this bot"):
        await Store.open(path)
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0] == 0


async def test_the_database_allows_one_running_game_per_channel(store):
    first = await store.start_game(1, 2, 3, "O", [], now=1.0)
    with pytest.raises(ChannelBusyError) as busy:
        await store.start_game(1, 2, 4, "X", [0], now=2.0)
    assert busy.value.game.id == first.id and busy.value.game.player_id == 3
    await store.finish_game(first.id, 1, [], "abandoned", now=3.0)
    assert (await store.start_game(1, 2, 4, "X", [0], now=4.0)).player_id == 4


async def test_a_game_result_and_its_lessons_land_together_or_not_at_all(store):
    game = await store.start_game(1, 2, 3, "O", [], now=1.0)
    with pytest.raises(sqlite3.IntegrityError):  # the second fact breaks a CHECK
        await store.finish_game(
            game.id, 1, [0, 4, 1, 3, 2], "player_won",
            [("XXX.O.O..", "win"), ("XX..O.O..", "draw")], now=2.0,
        )  # fmt: skip
    assert await store.load_facts(1) == []
    assert (await store.running_game(2)).id == game.id


async def test_unknown_results_are_refused(store):
    game = await store.start_game(1, 2, 3, "O", [], now=1.0)
    with pytest.raises(ValueError, match="unknown result"):
        await store.finish_game(game.id, 1, [], "won-ish", now=2.0)


async def test_records_count_per_server_and_per_player(store):
    for player, result in ((3, "player_won"), (3, "draw"), (4, "bot_won"), (4, "resigned"),
                           (3, "abandoned")):  # fmt: skip
        game = await store.start_game(1, 2, player, "O", [], now=1.0)
        await store.finish_game(game.id, 1, [], result, now=2.0)
    server = await store.record(1)
    assert (server.games, server.bot_wins, server.bot_losses, server.draws, server.unfinished) == (
        5, 2, 1, 1, 1,
    )  # fmt: skip
    assert (await store.record(1, 4)).bot_wins == 2
    assert (await store.record(2)).games == 0


async def test_meta_values_are_upserted(store):
    assert await store.get_meta("k") is None
    await store.set_meta("k", "a")
    await store.set_meta("k", "b")
    assert await store.get_meta("k") == "b"
