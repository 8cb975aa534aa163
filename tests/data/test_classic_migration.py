"""The classic board's facts packed (issue 34): a database of the schema before, with 7×6
facts, games and reviews in it, is converted in place on both backends (nothing lost,
every fact the same after)."""

import random
import sqlite3

import engine
from data import Store
from data.migrations import MIGRATIONS
from data.postgres import dialect
from data.postgres_steps import MIGRATIONS as POSTGRES_MIGRATIONS
from engine import Memory
from tests.conftest import postgres_schema

CLASSIC = "connect4-7x6"
GUILD, OTHER = 1_234_567_890_123_456_789, 987_654_321_098_765_432  # Discord-sized ids
PLAYERS = (301_234_567_890_123_456, 401_234_567_890_123_456)


def before_packing(migrations) -> int:
    """The schema version just before the classic board's facts were packed."""
    return next(
        number
        for number, step in enumerate(migrations)
        if any("CREATE TABLE classic_facts" in sql for sql in step)
    )


def old_history(seed: int = 1) -> tuple[list[tuple], list[tuple]]:
    """Games of 7×6 and what they taught, as a bot of the schema before stored them:
    ``(games, facts)``, each game ``(guild, player, moves, result, review)`` (ids from 1
    in order), each fact ``(guild, position, outcome, plies, game id or None)``; a few
    positions are stored in their mirror's orientation."""
    rules = engine.get_game(CLASSIC)
    rng = random.Random(seed)
    memories = {GUILD: Memory(game=CLASSIC), OTHER: Memory(game=CLASSIC)}
    games, facts = [], []
    for number in range(1, 61):
        guild = GUILD if number % 4 else OTHER
        code, moves = rules.empty, []
        while rules.moves(code) is not None:
            column, code, _ = rng.choice(rules.moves(code))
            moves.append(column)
        winner = rules.winner(code)  # the bot plays O (2): X's win is the player's
        result = {1: "player_won", 2: "bot_won"}.get(winner, "draw")
        review = ("done", "pending", None)[number % 3] if result != "bot_won" else None
        games.append((guild, PLAYERS[number % 2], moves, result, review))
        for lesson in memories[guild].learn(moves):
            position = engine.canonical(lesson.after, CLASSIC)
            if number % 7 == 0:  # stored as it was played, not canonical
                position = rules.spell(rules.mirror(rules.parse(position)))
            plies = rng.randrange(43) if rng.random() < 0.6 else None
            taught_by = number if number % 5 else None  # some from an import
            facts.append((guild, position, lesson.outcome.value, plies, taught_by))
    return games, facts


async def fill_old_schema(execute, games, facts) -> None:
    """Store ``games`` and ``facts`` as the schema before did, through ``execute(sql,
    params)`` (its triggers counting the games and crediting the lessons)."""
    for number, (guild, player, moves, result, review) in enumerate(games, 1):
        await execute(
            "INSERT INTO games (id, guild_id, channel_id, player_id, bot_mark, moves, result,"
            " started_at, updated_at, game) VALUES (?, ?, ?, ?, 'O', ?, 'running', ?, ?, ?)",
            (number, guild, 500 + number, player, "".join(map(str, moves)), 1.0, 1.0, CLASSIC),
        )
        await execute(
            "UPDATE games SET result = ?, ended_at = ?, review = ? WHERE id = ?",
            (result, float(number), review, number),
        )
    for guild, position, outcome, plies, game_id in facts:
        await execute(
            "INSERT INTO facts (guild_id, game, position, outcome, learned_at, game_id, plies)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (guild, CLASSIC, position, outcome, 5.0, game_id, plies),
        )
    await execute(  # and another board's fact, which stays as it is
        "INSERT INTO facts (guild_id, game, position, outcome, learned_at, game_id)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (GUILD, "tictactoe", "OXO.X....", "loss", 5.0, None),
    )


async def figures(store: Store) -> dict:
    """What people see of the history: the lessons each game taught (its replay's), each
    player's lessons taught, the reviews owed, the losses per 50 games."""
    standings = {}
    for guild in (GUILD, OTHER):
        ranked, _ = await store.leaderboard(guild, "lessons", game=CLASSIC)
        standings[guild] = {s.player_id: s.lessons for s in ranked}
    taught = {}
    for game_id in range(1, 61):
        finished = await store.finished_game(game_id)
        keyed = {}
        for position, outcome, plies in finished.facts:
            if isinstance(position, str):
                rules = engine.get_game(CLASSIC)
                position = rules.key(rules.parse(position, checked=False))
            keyed[position] = (outcome, plies)
        taught[game_id] = keyed
    return {
        "standings": standings,
        "taught": taught,
        "pending": [game.id for game in await store.pending_reviews()],
        "blocks": {
            guild: await store.losses_by_block(guild, game=CLASSIC) for guild in (GUILD, OTHER)
        },
        "recent": await store.recent_losses(GUILD, game=CLASSIC),
        "tictactoe": await store.load_facts(GUILD),
    }


def expected(games, facts) -> dict:
    """The same figures, worked out from the history itself."""
    rules = engine.get_game(CLASSIC)
    standings = {GUILD: {}, OTHER: {}}
    taught: dict[int, dict] = {number: {} for number in range(1, 61)}
    for guild, position, outcome, plies, game_id in facts:
        if game_id is None:
            continue
        player = games[game_id - 1][1]
        standings[guild][player] = standings[guild].get(player, 0) + 1
        taught[game_id][rules.key(rules.parse(position))] = (outcome, plies)
    blocks = {}
    for guild in (GUILD, OTHER):
        played = [g[3] for g in games if g[0] == guild]
        blocks[guild] = [
            (min(len(played), start + 50), played[start : start + 50].count("player_won"))
            for start in range(0, len(played), 50)
        ]
    last = [g[3] for g in games if g[0] == GUILD][-50:]
    return {
        "standings": standings,
        "taught": taught,
        "pending": [n for n, g in enumerate(games, 1) if g[4] == "pending"],
        "blocks": blocks,
        "recent": (last.count("player_won"), len(last)),
        "tictactoe": [("OXO.X....", "loss")],
    }


def memories(facts) -> dict[int, Memory]:
    """Each server's 7×6 memory as the facts before say it."""
    return {
        guild: Memory.stored([f[1:4] for f in facts if f[0] == guild], game=CLASSIC)
        for guild in (GUILD, OTHER)
    }


async def assert_converted(store: Store, games, facts) -> None:
    for guild, memory in memories(facts).items():
        runs, _ = await store.load_memory(guild, CLASSIC)
        again = Memory.from_stored(runs.runs, game=CLASSIC)
        assert again == memory and len(again) == len(memory) > 0  # every fact, plies too
        assert await store.count_facts(guild, CLASSIC) == len(memory)
        # the documents people read are the same (42 characters a position, distances)
        assert engine.export_memory(again) == engine.export_memory(memory)
    assert await figures(store) == expected(games, facts)
    # nothing of the classic board is left in the rows of 42 characters
    assert not [f for f in await store.load_facts(GUILD, "tictactoe") if len(f[0]) != 9]


async def test_a_sqlite_database_of_the_schema_before_is_converted_in_place(tmp_path):
    games, facts = old_history()
    path = tmp_path / "before.sqlite3"
    before = before_packing(MIGRATIONS)
    with sqlite3.connect(path) as db:
        for step in MIGRATIONS[:before]:
            for sql in step:
                db.execute(sql)
        db.execute(f"PRAGMA user_version = {before}")

        async def execute(sql, params):
            db.execute(sql, params)

        await fill_old_schema(execute, games, facts)
    store = await Store.open(path)
    try:
        await assert_converted(store, games, facts)
    finally:
        await store.close()


async def test_a_postgresql_database_of_the_schema_before_is_converted_in_place():
    import asyncpg

    games, facts = old_history(seed=2)
    before = before_packing(POSTGRES_MIGRATIONS)
    async with postgres_schema() as (url, schema):
        db = await asyncpg.connect(url, server_settings={"search_path": schema})
        try:
            for step in POSTGRES_MIGRATIONS[:before]:
                for sql in step:
                    await db.execute(sql)
            await db.execute("CREATE TABLE schema_version (version INTEGER)")
            await db.execute("INSERT INTO schema_version VALUES ($1)", before)

            async def execute(sql, params):
                await db.execute(dialect(sql), *params)

            await fill_old_schema(execute, games, facts)
        finally:
            await db.close()
        store = await Store.connect(url, schema=schema)
        try:
            await assert_converted(store, games, facts)
        finally:
            await store.close()


def test_the_sql_reads_a_position_into_the_engines_canonical_key():
    """The conversion's SQL (data/classic_schema.py) and the engine agree on every
    position of a few hundred random games, in both orientations."""
    from data.classic_schema import classic_key_sql

    rules = engine.get_game(CLASSIC)
    rng = random.Random(3)
    positions = set()
    for _ in range(40):
        code = rules.empty
        while rules.moves(code) is not None:
            _, code, _ = rng.choice(rules.moves(code))
            positions.add(rules.spell(code))
    with sqlite3.connect(":memory:") as db:
        db.execute("CREATE TABLE p (position TEXT)")
        db.executemany("INSERT INTO p VALUES (?)", [(p,) for p in positions])
        rows = db.execute(f"SELECT position, {classic_key_sql()} FROM p").fetchall()
    assert len(rows) == len(positions) > 500
    for position, key in rows:
        assert key == rules.key(rules.parse(position)), position
