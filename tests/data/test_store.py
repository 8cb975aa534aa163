import asyncio
import sqlite3
import time

import pytest

from data import (
    SCHEMA_VERSION,
    ChannelBusyError,
    MemberRecord,
    Record,
    SchemaTooNewError,
    StaleGameError,
    Store,
    StoreBusyError,
    StoreOpenError,
)
from data.sqlite import BUSY_TIMEOUT_MS
from tests.conftest import postgres_schema


@pytest.fixture
async def sqlite_store(tmp_path):
    """SQLite only: for the tests that also look into the file itself."""
    s = await Store.open(tmp_path / "nested" / "store.sqlite3")
    yield s
    await s.close()


@pytest.fixture(params=["sqlite", "postgres"])
async def store(request, tmp_path):
    """The same tests on both backends: a SQLite file, and a PostgreSQL schema."""
    if request.param == "sqlite":
        s = await Store.connect(tmp_path / "nested" / "store.sqlite3")
        s.backend = "sqlite"
        yield s
        await s.close()
        return
    async with postgres_schema() as (url, schema):
        s = await Store.connect(url, schema=schema)
        s.backend = "postgres"
        try:
            yield s
        finally:
            await s.close()


def assert_recount(store, tmp_path) -> None:
    """On SQLite, the counters equal a recount of the games table (the recount's SQL is
    SQLite's); on PostgreSQL the test's own figures check its triggers."""
    from tests.cogs.test_stateful import assert_counts_match_games

    if store.backend == "sqlite":
        with sqlite3.connect(tmp_path / "nested" / "store.sqlite3") as db:
            assert_counts_match_games(db)


async def test_a_new_database_is_migrated_to_the_latest_schema_in_wal_mode(tmp_path, sqlite_store):
    with sqlite3.connect(tmp_path / "nested" / "store.sqlite3") as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"facts", "games", "meta"} <= tables


async def test_reopening_keeps_data_and_does_not_migrate_again(tmp_path, sqlite_store):
    store = sqlite_store
    await store.finish_game(
        (await store.start_game(1, 2, 3, "O", [4], now=1.0)).id, 1, [4], [4, 0, 1, 2, 7],
        "player_won", [("OXO.X....", "loss")], now=2.0,
    )  # fmt: skip
    await store.close()
    again = await Store.open(tmp_path / "nested" / "store.sqlite3")
    assert await again.load_facts(1) == [("OXO.X....", "loss")]
    assert (await again.record(1)).bot_losses == 1
    await again.close()


async def test_a_database_of_every_earlier_version_is_upgraded_keeping_its_games(tmp_path):
    from data.migrations import MIGRATIONS, register_functions

    for version in range(1, SCHEMA_VERSION):
        path = tmp_path / f"v{version}.sqlite3"
        with sqlite3.connect(path) as db:
            register_functions(db)  # as that release's bot had them
            # games are written into the first schema, then it is brought to ``version``
            # as that release's bot would have (from version 4 on, counters included)
            for number, step in enumerate(MIGRATIONS[:version], 1):
                for sql in step:
                    db.execute(sql)
                if number == 1:
                    db.execute(
                        "INSERT INTO games (guild_id, channel_id, player_id, bot_mark, moves,"
                        " result, started_at, updated_at) VALUES"
                        " (1, 2, 3, 'O', '4', 'running', 1, 1),"
                        " (1, 5, 3, 'O', '40', 'player_won', 1, 1),"
                        " (1, 6, 4, 'X', '0', 'abandoned', 1, 1)"
                    )
            db.execute(f"PRAGMA user_version = {version}")
        store = await Store.open(path)
        assert await store.record(1) == Record(2, 0, 1, 0, 1)  # counted from the old games
        assert (await store.record(1, 3)).bot_losses == 1
        (game,) = await store.running_games()
        assert (game.moves, game.ended_by) == ((4,), None)
        await store.finish_game(game.id, 1, [4], [4], "abandoned", now=2.0, ended_by=9)
        await store.close()


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
    await store.finish_game(first.id, 1, [], [], "abandoned", now=3.0)
    assert (await store.start_game(1, 2, 4, "X", [0], now=4.0)).player_id == 4


async def test_a_game_result_and_its_lessons_land_together_or_not_at_all(store):
    game = await store.start_game(1, 2, 3, "O", [], now=1.0)
    import asyncpg

    # the second fact breaks a CHECK
    with pytest.raises((sqlite3.IntegrityError, asyncpg.CheckViolationError)):
        await store.finish_game(
            game.id, 1, [], [0, 4, 1, 3, 2], "player_won",
            [("XXX.O.O..", "win"), ("XX..O.O..", "draw")], now=2.0,
        )  # fmt: skip
    assert await store.load_facts(1) == []
    assert (await store.running_game(2)).id == game.id


async def test_unknown_results_are_refused(store):
    game = await store.start_game(1, 2, 3, "O", [], now=1.0)
    with pytest.raises(ValueError, match="unknown result"):
        await store.finish_game(game.id, 1, [], [], "won-ish", now=2.0)


async def test_records_count_per_server_and_per_player(store):
    for player, result in ((3, "player_won"), (3, "draw"), (4, "bot_won"), (4, "resigned"),
                           (3, "abandoned")):  # fmt: skip
        game = await store.start_game(1, 2, player, "O", [], now=1.0)
        await store.finish_game(game.id, 1, [], [], result, now=2.0)
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


async def test_game_writes_apply_only_to_the_state_they_were_computed_from(store):
    """Two processes on one database: the second write of the same turn changes nothing."""
    game = await store.start_game(1, 2, 3, "O", [], now=1.0)
    await store.record_moves(game.id, [], [4, 0], now=2.0)  # the first process's move
    with pytest.raises(StaleGameError):  # the other process read the game before it
        await store.record_moves(game.id, [], [8, 0], now=2.0)
    with pytest.raises(StaleGameError):
        await store.finish_game(game.id, 1, [], [0, 4, 1, 3, 2], "player_won",
                                [("XXX.O.O..", "win")], now=3.0)  # fmt: skip
    assert (await store.running_game(2)).moves == (4, 0)
    assert await store.load_facts(1) == []  # the lessons of the lost write went with it
    await store.finish_game(game.id, 1, [4, 0], [4, 0], "resigned", now=4.0)
    with pytest.raises(StaleGameError):  # a finished game takes no more writes
        await store.record_moves(game.id, [4, 0], [4, 0, 8, 1], now=5.0)


async def test_a_write_behind_another_programs_lock_fails_fast_and_changes_nothing(tmp_path):
    path = tmp_path / "locked.sqlite3"
    store = await Store.open(path)
    game = await store.start_game(1, 2, 3, "O", [], now=1.0)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another program holds the write lock
    try:
        with pytest.raises(StoreBusyError, match="nothing was written"):
            await store.record_moves(game.id, [], [4, 0], now=2.0)
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert (await store.running_game(2)).moves == ()
    await store.record_moves(game.id, [], [4, 0], now=3.0)  # and works once it is free
    await store.close()


async def test_writes_asked_for_at_once_behind_a_lock_all_fail_fast(tmp_path):
    """A batch waits for the lock once, not once per write, and each asker is told."""
    path = tmp_path / "locked.sqlite3"
    store = await Store.open(path)
    try:
        games = [await store.start_game(1, 10 + i, 3, "O", [], now=1.0) for i in range(3)]
        await store.record_moves(games[0].id, [], [4, 0], now=1.5)  # before the lock
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        try:
            started = time.monotonic()
            results = await asyncio.gather(
                *(store.record_moves(g.id, [], [8, 0], now=2.0) for g in games[1:]),
                return_exceptions=True,
            )
            waited = time.monotonic() - started
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert all(isinstance(r, StoreBusyError) for r in results)
        assert waited < 2 * BUSY_TIMEOUT_MS / 1000  # one wait for the lock, not one each
        moves = [(await store.running_game(10 + i)).moves for i in range(3)]
        assert moves == [(4, 0), (), ()]
    finally:
        await store.close()  # its thread would keep the test run from ending


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("a-folder", "is a folder"),
        ("junk.sqlite3", "is not a SQLite database"),
        ("a-file/ttt.sqlite3", "cannot create the folder"),
    ],
)
async def test_a_database_path_that_cannot_work_is_named_with_what_to_do(tmp_path, name, says):
    (tmp_path / "a-folder").mkdir()
    (tmp_path / "junk.sqlite3").write_bytes(b"this is not a database file at all" * 100)
    (tmp_path / "a-file").write_text("a file where a folder should be")
    with pytest.raises(StoreOpenError, match=says):
        await Store.open(tmp_path / name)
    assert (tmp_path / "junk.sqlite3").read_bytes().startswith(b"this is not")  # untouched


async def test_forgetting_a_player_removes_their_id_from_every_table_of_that_server(
    tmp_path, store
):
    mine = await store.start_game(1, 2, 3, "O", [], now=1.0)
    await store.finish_game(mine.id, 1, [], [4], "abandoned", now=2.0)
    theirs = await store.start_game(1, 5, 4, "O", [], now=3.0)
    await store.finish_game(theirs.id, 1, [], [], "abandoned", now=4.0, ended_by=3)
    elsewhere = await store.start_game(9, 6, 3, "O", [], now=5.0)
    run = await store.start_training(1, 2, 3, "random", 10, now=6.0)
    await store.save_training(run, 1, [], played=10, learned=0, status="done", now=7.0, ended_by=3)
    forgotten, _ = await store.forget_player(1, 3)
    assert forgotten.games == 1
    ((in_server,),) = await store._fetch(
        "SELECT COUNT(*) FROM games WHERE guild_id = 1 AND 3 IN (player_id, ended_by)"
    )
    trainings = await store._fetch("SELECT started_by, ended_by FROM trainings")
    assert in_server == 0 and trainings == [(0, None)]
    assert (await store.running_game(6)).id == elsewhere.id  # another server's game stays


async def test_counters_equal_a_recount_after_every_kind_of_ending_and_a_forget(tmp_path, store):
    endings = [("player_won", 3), ("bot_won", 3), ("draw", 4), ("resigned", 3), ("abandoned", 5)]
    for n, (result, player) in enumerate(endings * 2):
        game = await store.start_game(1 + n % 2, 10 + n, player, "O", [], now=float(n))
        await store.finish_game(game.id, 1 + n % 2, [], [4], result, [], now=float(n) + 0.5)
        assert_recount(store, tmp_path)
    assert (await store.record(1, 3)).bot_losses + (await store.record(2, 3)).bot_losses == 2
    await store.forget_player(1, 3)
    assert_recount(store, tmp_path)
    assert (await store.record(1, 3)).games == 0


async def test_the_learning_curve_is_bounded_and_keeps_its_ends(store):
    from data import Snapshot

    for n in range(1, 1201):
        game = await store.start_game(1, 2, 3, "O", [], now=float(n))
        await store.finish_game(
            game.id, 1, [], [4], "draw", [], now=float(n), snapshot=Snapshot(n, 1200 - n, 0)
        )
    curve = await store.curve(1, points=100)
    assert 100 <= len(curve) <= 102
    assert (curve[0].games, curve[0].lessons) == (1, 1)
    assert (curve[-1].games, curve[-1].lessons, curve[-1].beat_x) == (1200, 1200, 0)
    assert [p.games for p in curve] == sorted(p.games for p in curve)


def distinct_positions():
    from engine.tictactoe import CANON, EMPTIES, WINNER, code_to_string

    for code in sorted(set(CANON)):
        if code > 0 and EMPTIES[code] and not WINNER[code]:
            yield code_to_string(code)


async def test_the_leaderboard_ranks_by_each_figure_and_ties_go_to_who_got_there_first(store):
    positions = distinct_positions()

    async def game(player, result, lessons, at):
        g = await store.start_game(1, 100 + player, player, "O", [], now=at)
        facts = [(next(positions), "loss") for _ in range(lessons)]
        await store.finish_game(g.id, 1, [], [4], result, facts, now=at)

    for player in range(1, 13):  # player n teaches n lessons at time n
        await game(player, "bot_won", player, float(player))
    await game(20, "player_won", 12, 50.0)  # ties player 12 on lessons, but later
    await game(3, "player_won", 0, 60.0)
    await game(5, "player_won", 0, 55.0)  # 20, then 5, then 3 reached one win
    top, own = await store.leaderboard(1, "lessons", player_id=1)
    assert [row.player_id for row in top] == [12, 20, 11, 10, 9, 8, 7, 6, 5, 4]
    assert [row.place for row in top] == list(range(1, 11))
    assert (own.player_id, own.place, own.lessons) == (1, 13, 1)
    top, own = await store.leaderboard(1, "wins", player_id=1)
    assert [(row.player_id, row.wins) for row in top] == [(20, 1), (5, 1), (3, 1)]
    assert own is None  # no wins: not ranked by wins
    top, _ = await store.leaderboard(1, "games")
    assert [row.player_id for row in top][:2] == [5, 3]  # 2 games each; 5 got there first


async def test_games_between_members_count_for_both_and_credit_both(tmp_path, store):
    endings = [
        ("player_won", None),
        ("opponent_won", None),
        ("draw", None),
        ("resigned", 3),  # the player resigned: the opponent wins
        ("resigned", 4),
        ("abandoned", None),
    ]
    for n, (result, ended_by) in enumerate(endings):
        game = await store.start_game(1, 10 + n, 3, "O", [], now=float(n), opponent_id=4)
        facts = [(f"X{n}.......", "win")] if result != "abandoned" else []
        await store.finish_game(game.id, 1, [], [4], result, facts, now=n + 0.5, ended_by=ended_by)
        assert_recount(store, tmp_path)
    assert await store.record(1) == Record()  # no game against the bot
    assert await store.member_record(1) == MemberRecord(6, 4, 4, 1, 1)
    assert await store.member_record(1, 3) == MemberRecord(6, 2, 2, 1, 1)
    assert await store.member_record(1, 4) == MemberRecord(6, 2, 2, 1, 1)
    top, _ = await store.leaderboard(1, "lessons")
    assert [(s.player_id, s.lessons, s.games) for s in top] == [(3, 5, 6), (4, 5, 6)]


async def test_forgetting_a_member_keeps_the_other_members_games(tmp_path, store):
    game = await store.start_game(1, 10, 3, "O", [], now=1.0, opponent_id=4)
    await store.finish_game(game.id, 1, [], [0], "opponent_won", [("X........", "win")], now=2.0)
    against_bot = await store.start_game(1, 10, 3, "O", [], now=3.0)
    await store.finish_game(against_bot.id, 1, [], [0], "player_won", now=4.0)
    forgotten, members = await store.forget_player(1, 3)
    assert (forgotten.games, members.games, members.lost) == (1, 1, 1)
    assert await store.member_record(1, 4) == MemberRecord(1, 1, 0, 0, 0)
    assert await store.member_record(1) == MemberRecord(1, 1, 1, 0, 0)
    assert await store._fetch("SELECT COUNT(*) FROM games WHERE 3 IN (player_id, opponent_id)") == [
        (0,)
    ]
    assert_recount(store, tmp_path)
    top, _ = await store.leaderboard(1, "lessons")
    assert [(s.player_id, s.lessons) for s in top] == [(4, 1)]  # the lesson still credits 4


async def test_a_challenge_is_one_per_channel_and_becomes_a_game_once(store):
    challenge = await store.open_challenge(1, 2, 3, 4, "me", now=0.0, expires_at=60.0)
    assert challenge is not None and challenge.opponent_id == 4
    assert await store.open_challenge(1, 2, 5, None, "random", now=1.0, expires_at=61.0) is None
    assert [c.id for c in await store.pending_challenges()] == [challenge.id]
    game = await store.accept_challenge(challenge.id, 3, 4, "O", now=2.0)
    assert (game.player_id, game.opponent_id, game.bot_mark, game.moves) == (3, 4, "O", ())
    with pytest.raises(StaleGameError):  # answered once only
        await store.accept_challenge(challenge.id, 3, 4, "O", now=3.0)
    # the channel has a game now: no invitation there
    assert await store.open_challenge(1, 2, 5, None, "me", now=4.0, expires_at=64.0) is None
    assert await store.pending_challenges() == []


async def test_an_expired_challenge_cannot_be_accepted_and_gives_way(store):
    old = await store.open_challenge(1, 2, 3, None, "me", now=0.0, expires_at=60.0)
    with pytest.raises(StaleGameError):
        await store.accept_challenge(old.id, 3, 4, "O", now=61.0)
    new = await store.open_challenge(1, 2, 5, None, "them", now=61.0, expires_at=121.0)
    assert new is not None and new.id != old.id
    assert await store.close_challenge(new.id) and not await store.close_challenge(new.id)


async def test_postgresql_migrates_once_when_two_processes_start_together():
    import asyncio

    async with postgres_schema() as (url, schema):
        first, second = await asyncio.gather(
            Store.connect(url, schema=schema), Store.connect(url, schema=schema)
        )
        try:
            game = await first.start_game(1, 2, 3, "O", [], now=1.0)
            assert (await second.running_game(2)).id == game.id  # one database, both see it
            with pytest.raises(ChannelBusyError):
                await second.start_game(1, 2, 4, "O", [], now=2.0)
            from data.postgres import SCHEMA_VERSION as POSTGRES_VERSION

            versions = await first._fetch("SELECT version FROM schema_version")
            assert versions == [(POSTGRES_VERSION,)]  # one row: migrated once
        finally:
            await first.close()
            await second.close()


async def test_a_postgresql_database_from_a_newer_bot_is_refused():
    async with postgres_schema() as (url, schema):
        store = await Store.connect(url, schema=schema)
        await store._write([("UPDATE schema_version SET version = version + 1", ())])
        await store.close()
        with pytest.raises(SchemaTooNewError, match="newer than this bot"):
            await Store.connect(url, schema=schema)


async def test_an_unreachable_postgresql_is_named_with_what_to_do():
    with pytest.raises(StoreOpenError, match=r"cannot connect to PostgreSQL.*DATABASE_URL"):
        await Store.connect("postgresql://nobody@127.0.0.1:1/none")


async def test_writes_asked_for_at_once_each_land_or_fail_on_their_own(store):
    """Many writes at once (SQLite sends them to its thread in one batch): each is whole
    or not at all, and only the one computed from an old state is refused."""
    games = [await store.start_game(1, 50 + i, 7, "O", [], now=1.0) for i in range(6)]
    results = await asyncio.gather(
        *(
            store.record_moves(game.id, [8] if i == 3 else [], [4, 0], now=2.0)
            for i, game in enumerate(games)
        ),
        store.start_game(1, 52, 7, "O", [], now=2.0),  # a second game in a busy channel
        return_exceptions=True,
    )
    assert isinstance(results[3], StaleGameError)
    assert isinstance(results[6], ChannelBusyError)
    assert [r for i, r in enumerate(results) if i not in (3, 6)] == [None] * 5
    running = {g.id: (await store.running_game(50 + i)).moves for i, g in enumerate(games)}
    assert [running[g.id] for g in games] == [(4, 0)] * 3 + [()] + [(4, 0)] * 2


async def test_each_game_has_its_own_memory_counters_curve_and_leaderboard(tmp_path, store):
    from data import Snapshot

    four = "connect4"
    game = await store.start_game(1, 2, 3, "O", [], now=1.0, game=four)
    assert game.game == four and (await store.running_game(2)).game == four
    # one game per channel, whatever the game
    with pytest.raises(ChannelBusyError):
        await store.start_game(1, 2, 4, "O", [], now=1.0)
    await store.finish_game(
        game.id, 1, [], [0, 1, 0, 1, 0, 1, 0], "player_won",
        [("....X...X.O.X.O.", "loss")], now=2.0, game=four,
        snapshot=Snapshot(1, 5, 6), memory_version=0,
    )  # fmt: skip
    tic_game = await store.start_game(1, 2, 3, "O", [4], now=3.0)
    await store.finish_game(tic_game.id, 1, [4], [4], "abandoned", now=4.0)
    assert await store.load_facts(1, four) == [("....X...X.O.X.O.", "loss")]
    assert await store.load_facts(1) == []
    assert await store.record(1, game=four) == Record(1, 0, 1, 0, 0)
    assert await store.record(1) == Record(1, 0, 0, 0, 1)
    assert (await store.record(1, 3, game=four)).bot_losses == 1
    (point,) = await store.curve(1, game=four)
    assert (point.games, point.lessons, point.beat_x) == (1, 1, 5)
    assert await store.curve(1) == []
    standings, _ = await store.leaderboard(1, "lessons", game=four)
    assert [(s.player_id, s.lessons) for s in standings] == [(3, 1)]
    assert (await store.leaderboard(1, "lessons"))[0] == []
    # a reset or an import of one game leaves the other's memory alone
    forgotten, version = await store.reset_memory(1, game=four)
    assert (forgotten, version) == (1, 1)
    assert await store.memory_version(1) == 0 and await store.memory_version(1, four) == 1
    # forgetting a member covers every game
    record, _ = await store.forget_player(1, 3)
    assert record.games == 2 and record.bot_losses == 1
    assert_recount(store, tmp_path)


async def test_an_upgraded_database_keeps_its_rows_as_tic_tac_toe(tmp_path):
    from data.migrations import MIGRATIONS

    before_games = 6  # the schema's version before it had more games than tic-tac-toe
    path = tmp_path / "before-games.sqlite3"
    with sqlite3.connect(path) as db:
        for step in MIGRATIONS[:before_games]:
            for sql in step:
                db.execute(sql)
        db.execute(
            "INSERT INTO games (guild_id, channel_id, player_id, bot_mark, moves, result,"
            " started_at, updated_at) VALUES (1, 5, 3, 'O', '40', 'running', 1, 1)"
        )
        db.execute("UPDATE games SET result = 'player_won', ended_at = 2")
        db.execute("INSERT INTO facts VALUES (1, 'OXO.X....', 'loss', 2.0, 1)")
        db.execute("INSERT INTO memory_versions VALUES (1, 4)")
        db.execute(f"PRAGMA user_version = {before_games}")
    store = await Store.open(path)
    try:
        assert await store.load_memory(1) == ([("OXO.X....", "loss")], 4)
        assert await store.load_memory(1, "connect4") == ([], 0)
        assert await store.record(1) == Record(1, 0, 1, 0, 0)
        assert await store.record(1, game="connect4") == Record()
        assert (await store.record(1, 3)).bot_losses == 1
    finally:
        await store.close()
    from tests.cogs.test_stateful import assert_counts_match_games

    with sqlite3.connect(path) as db:
        assert_counts_match_games(db)


async def test_a_process_of_thousands_of_shards_picks_up_its_own_servers(store):
    """The shards a process owns are asked for as ranges: 60,000 of them are a few SQL
    parameters, not 60,000 ("too many SQL variables", issue 17, item 3)."""
    from data import Shards

    count = 65_536
    for n in range(6):
        await store.start_game(n << 22, 100 + n, 7, "O", [], now=1.0)
    mine = Shards(count, (*range(0, 2), *range(4, 60_000)))
    owned = [g.guild_id >> 22 for g in await store.running_games(mine)]
    assert owned == [0, 1, 4, 5]


async def test_a_players_own_bot_belongs_to_shard_0_and_is_no_discord_server(store):
    """Issue 18, part 2: outside servers each player teaches their own bot, under the
    negative of their user ID. Discord sends DMs to shard 0, so that process picks up its
    games; and it never counts as a server the bot left (whose data goes in 30 days)."""
    from data import Shards

    player = 123456789012345678
    await store.start_game(-player, 1, player, "O", [], now=1.0)  # a DM game
    await store.start_game(5 << 22, 2, 7, "O", [], now=1.0)  # a server on shard 1 of 4
    first, second = Shards(4, (0,)), Shards(4, (1, 2, 3))
    assert first.owns(-player) and not second.owns(-player)
    assert [g.guild_id for g in await store.running_games(first)] == [-player]
    assert [g.guild_id for g in await store.running_games(second)] == [5 << 22]
    assert await store.servers_with_data() == [5 << 22]


async def test_the_wins_leaderboard_counts_only_wins_at_full_strength(tmp_path, store):
    """Issue 17: wins against an easier bot (medium, easy) count in the player's record,
    not on the wins leaderboard; each level's record is kept apart."""
    for n, level in enumerate(("learning", "easy", "easy", "medium")):
        game = await store.start_game(1, 10 + n, 3, "O", [], now=1.0 + n, level=level)
        assert game.level == level
        await store.finish_game(game.id, 1, [], [0, 4, 1, 5, 2], "player_won", now=2.0 + n)
    (standing,), _ = await store.leaderboard(1, "wins")
    assert (standing.player_id, standing.wins) == (3, 1)
    assert (await store.record(1, 3)).bot_losses == 4  # all four in the record
    levels = await store.level_records(1, 3)
    assert {k: v.bot_losses for k, v in levels.items()} == {"learning": 1, "easy": 2, "medium": 1}
    assert_recount(store, tmp_path)


async def test_a_servers_data_can_be_erased_whole_and_departures_are_kept_until_then(
    tmp_path, store
):
    """Issue 18: everything about a server goes (finished games between members too); other
    servers keep theirs; a server the bot left is listed once its 30 days are past."""
    from data.servers import SERVER_TABLES

    for guild in (1, 2):  # each: a game against the bot, a member game, lessons, settings
        game = await store.start_game(guild, 10 * guild, 3, "O", [], now=1.0)
        await store.finish_game(
            game.id, guild, [], [0, 4, 1, 5, 2], "player_won", [("XXX.OO...", "win")], now=2.0
        )
        member = await store.start_game(guild, 10 * guild + 1, 3, "O", [], now=1.0, opponent_id=4)
        await store.finish_game(member.id, guild, [], [0], "abandoned", now=2.0)
        await store.open_challenge(guild, 10 * guild + 2, 3, None, "me", now=1.0, expires_at=9.0)
        await store.start_training(guild, 10 * guild, 3, "random", 5, now=1.0)
    assert await store.servers_with_data() == [1, 2]
    await store.left_server(1, now=100.0)
    await store.left_server(2, now=100.0)
    await store.joined_server(2)  # back within its 30 days
    assert await store.departed_before(50.0) == []
    assert await store.departed_before(100.0) == [1]
    await store.erase_server(1)
    for table in SERVER_TABLES:
        rows = await store._fetch(f"SELECT guild_id, COUNT(*) FROM {table} GROUP BY guild_id")
        assert 1 not in dict(rows), table
    assert (await store.record(2)).games == 1 and await store.load_facts(2)
    assert await store.departed_before(1e12) == []
    assert await store.servers_with_data() == [2]
    assert_recount(store, tmp_path)
