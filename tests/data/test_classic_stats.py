"""The classic board's figures in the store: the bot's losses per block of 50 games, and
in its last 50 games (its stats and curve, where no count of the ways to beat it exists)."""

from data import Store
from data.postgres import dialect
from tests.data.test_classic_migration import GUILD, PLAYERS
from tests.data.test_store import store  # noqa: F401 - the fixture, on both databases

CLASSIC = "connect4-7x6"


async def test_losses_are_counted_per_block_of_50_games_against_the_bot(store):  # noqa: F811
    for n in range(120):  # the bot loses every third game
        game = await store.start_game(1, 2, 3, "O", [], now=float(n), game=CLASSIC)
        result = "player_won" if n % 3 == 0 else ("bot_won", "resigned", "draw")[n % 3 - 1]
        await store.finish_game(game.id, 1, [], [3], result, now=float(n), game=CLASSIC)
    # neither an abandoned game, nor one between members, nor another board counts
    game = await store.start_game(1, 2, 3, "O", [], now=200.0, game=CLASSIC)
    await store.finish_game(game.id, 1, [], [], "abandoned", now=201.0, game=CLASSIC)
    game = await store.start_game(1, 2, 3, "O", [], now=202.0, opponent_id=4, game=CLASSIC)
    await store.finish_game(game.id, 1, [], [3], "player_won", now=203.0, game=CLASSIC)
    game = await store.start_game(1, 2, 3, "O", [], now=204.0, game="connect4")
    await store.finish_game(game.id, 1, [], [3], "player_won", now=205.0, game="connect4")
    assert await store.losses_by_block(1, game=CLASSIC) == [(50, 17), (100, 17), (120, 6)]
    assert await store.recent_losses(1, game=CLASSIC) == (16, 50)
    assert await store.recent_losses(1, last=10, game=CLASSIC) == (3, 10)
    assert await store.losses_by_block(9, game=CLASSIC) == []
    assert await store.recent_losses(9, game=CLASSIC) == (0, 0)


# --- every stats query of the classic board reads an index ---------------------------
async def plans(db: Store, sql: str, params: tuple) -> str:
    """The plan of ``sql``; on PostgreSQL, with table scans priced out (its tables are
    tiny here, where a scan is cheapest: the question is whether an index serves)."""
    if db.backend == "sqlite":
        rows = await db._fetch(f"EXPLAIN QUERY PLAN {sql}", params)
        return "\n".join(str(row[-1]) for row in rows)
    async with db._driver._pool.acquire() as connection:
        await connection.execute("SET enable_seqscan = off")
        rows = await connection.fetch(f"EXPLAIN {dialect(sql)}", *params)
        await connection.execute("RESET enable_seqscan")
    return "\n".join(row[0] for row in rows)


PLAYED = ("player_won", "bot_won", "draw", "abandoned")


async def _fill(db: Store) -> None:
    from data import Snapshot

    for n in range(600):
        game = await db.start_game(
            GUILD, 10 + n % 7, PLAYERS[n % 2], "O", [], now=float(n), game=CLASSIC,
            opponent_id=PLAYERS[(n + 1) % 2] if n % 11 == 0 else None,
            level=("learning", "medium", "easy")[n % 3],
        )  # fmt: skip
        await db.finish_game(
            game.id, GUILD, [], [3], PLAYED[n % 4], now=float(n), game=CLASSIC,
            snapshot=Snapshot(n, None, None),
        )  # fmt: skip


async def test_every_stats_query_of_the_classic_board_reads_an_index(store):  # noqa: F811
    """The statements /connect4 stats makes (its figures, its curve's points and its
    losses per 50 games), as the store makes them on a 7×6 history (600 games of two
    players, against the bot and between members, some abandoned, each a point of the
    learning curve): each served by an index, none sorting or scanning the server's games
    or curve."""
    await _fill(store)
    if store.backend == "postgres":  # the planner told how big the tables are
        await store._write([("ANALYZE", ())])
    asked: list[tuple[str, tuple]] = []
    fetch = store._fetch

    async def recorded(sql, params=()):
        asked.append((sql, tuple(params)))
        return await fetch(sql, params)

    store._fetch = recorded
    await store.record(GUILD, game=CLASSIC)
    await store.record(GUILD, PLAYERS[0], game=CLASSIC)
    await store.member_record(GUILD, PLAYERS[0], game=CLASSIC)
    await store.level_records(GUILD, PLAYERS[0], game=CLASSIC)
    await store.count_facts(GUILD, CLASSIC)
    lost = await store.recent_losses(GUILD, game=CLASSIC)
    blocks = await store.losses_by_block(GUILD, game=CLASSIC)
    curve = await store.curve(GUILD, points=100, game=CLASSIC)
    store._fetch = fetch
    assert len(asked) >= 9
    for sql, params in asked:
        plan = await plans(store, sql, params)
        assert "SCAN games" not in plan and "SCAN curve" not in plan, (sql, plan)
        assert "Seq Scan" not in plan, (sql, plan)
        if "FROM curve WHERE id IN" not in sql:  # the sampled curve sorts its 100 rows only
            assert "TEMP B-TREE" not in plan and "Sort" not in plan, (sql, plan)
    # and the figures are right: the bot's last 50 games, its losses per 50, the curve
    vs_bot = [PLAYED[n % 4] for n in range(600) if n % 11 and PLAYED[n % 4] != "abandoned"]
    assert lost == (vs_bot[-50:].count("player_won"), 50)
    assert blocks[-1][0] == len(vs_bot)
    assert sum(lost for _, lost in blocks) == vs_bot.count("player_won")
    assert 90 <= len(curve) <= 102 and curve[0].games == 1 and curve[-1].games == 600
    assert [point.lessons for point in curve] == sorted(point.lessons for point in curve)
