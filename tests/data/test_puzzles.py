"""The puzzles' storage on SQLite and PostgreSQL: one puzzle per position, the order they
are posed in, a member's first answer only counted, streaks, the leaderboard, the daily
post claimed once a day, forget-me and a server's deletion."""

from __future__ import annotations

from data.puzzles import DAY, SERVER, NewPuzzle
from tests.data.test_store import store  # noqa: F401 - the fixture, on both backends

GUILD, OTHER, ALICE, BOB = 1, 2, 100, 200
CLASSIC = "connect4-7x6"


def puzzle(key: int, *, beat_bot: bool = False, played_at: float = 1.0, player=ALICE):
    return NewPuzzle(
        key=key,
        moves=(3, 3, key % 7),
        kind="win",
        answer=key % 7,
        draws=0,
        game_id=None,
        player_id=player,
        other_id=BOB,
        found=True,
        beat_bot=beat_bot,
        played_at=played_at,
    )


async def test_puzzles_are_posed_best_first_once_each_then_the_oldest_met(store):  # noqa: F811
    await store.add_puzzles(
        GUILD,
        CLASSIC,
        [puzzle(1, played_at=5.0), puzzle(2, beat_bot=True), puzzle(3, played_at=9.0)],
    )
    await store.add_puzzles(GUILD, CLASSIC, [puzzle(3, played_at=99.0)])  # known: kept as is
    assert await store.count_puzzles(GUILD, CLASSIC) == 3
    fresh = await store.fresh_puzzles(GUILD, CLASSIC, ALICE, 10)
    assert [p.moves[-1] for p in fresh] == [2, 3, 1]  # beat the bot, then the freshest
    assert fresh[1].played_at == 9.0 and fresh[0].beat_bot and not fresh[1].beat_bot
    for at, p in enumerate(fresh):
        await store.pose_puzzle(GUILD, ALICE, p.id, float(at))
    assert await store.fresh_puzzles(GUILD, CLASSIC, ALICE, 10) == []
    assert len(await store.fresh_puzzles(GUILD, CLASSIC, BOB, 10)) == 3
    seen = await store.seen_puzzles(GUILD, CLASSIC, ALICE, 10)
    assert [p.id for p in seen] == [p.id for p in fresh]  # the longest ago first


async def test_only_a_members_first_answer_counts_with_streaks_and_days(store):  # noqa: F811
    await store.add_puzzles(GUILD, CLASSIC, [puzzle(k) for k in range(1, 5)])
    p1, p2, p3, p4 = await store.fresh_puzzles(GUILD, CLASSIC, 0, 10)
    day = 20_000 * DAY
    assert await store.answer_puzzle(p1, ALICE, 1, True, day + 10)
    assert not await store.answer_puzzle(p1, ALICE, 2, False, day + 20)  # once
    assert await store.answer_puzzle(p2, ALICE, 1, True, day + DAY)  # the next day
    alice = await store.puzzle_standing(GUILD, CLASSIC, ALICE)
    assert (alice.solved, alice.tried, alice.streak) == (2, 2, 2)
    server = await store.puzzle_standing(GUILD, CLASSIC, SERVER)
    assert (server.solved, server.tried, server.streak, server.day) == (2, 2, 2, 20_001)
    assert server.current_days(20_002) == 2 and server.current_days(20_003) == 0
    assert await store.answer_puzzle(p3, ALICE, 1, False, day + DAY + 5)
    alice = await store.puzzle_standing(GUILD, CLASSIC, ALICE)
    assert (alice.solved, alice.tried, alice.streak) == (2, 3, 0)
    assert await store.answer_puzzle(p4, BOB, 1, True, day + 3 * DAY)  # a day missed
    server = await store.puzzle_standing(GUILD, CLASSIC, SERVER)
    assert (server.solved, server.tried, server.streak) == (3, 4, 1)
    top = await store.puzzle_leaderboard(GUILD, CLASSIC)
    assert [(member, s.solved) for member, s in top] == [(ALICE, 2), (BOB, 1)]


async def test_the_daily_post_is_claimed_once_a_day(store):  # noqa: F811
    await store.add_puzzles(GUILD, CLASSIC, [puzzle(1)])
    (p,) = await store.fresh_puzzles(GUILD, CLASSIC, 0, 10)
    assert await store.dailies_due(5) == []
    await store.set_daily_channel(GUILD, 77)
    assert [d.guild_id for d in await store.dailies_due(5)] == [GUILD]
    assert not (await store.puzzle_asked(GUILD, ALICE, p.id)).public
    assert await store.claim_daily(GUILD, 5, p.id, 5 * DAY)
    asked = await store.puzzle_asked(GUILD, ALICE, p.id)  # posted for everyone
    assert asked.public and not asked.posed and not asked.answered
    assert not await store.claim_daily(GUILD, 5, p.id, 5 * DAY)  # a restart, another process
    assert await store.dailies_due(5) == []
    await store.set_daily_message(GUILD, 5, 999)
    assert await store.answer_puzzle(p, ALICE, p.answer, True, 5 * DAY + 1)
    daily = await store.daily_puzzle(GUILD)
    assert (daily.channel_id, daily.day, daily.message_id, daily.solved, daily.tried) == (
        77,
        5,
        999,
        1,
        1,
    )
    # the next day: a new post, counted anew
    assert await store.claim_daily(GUILD, 6, p.id, 6 * DAY)
    assert (await store.daily_puzzle(GUILD)).tried == 0
    await store.set_daily_channel(GUILD, None)
    assert await store.dailies_due(7) == [] and not await store.claim_daily(GUILD, 7, p.id, 7 * DAY)


async def test_forget_me_and_a_servers_deletion_cover_the_puzzles(store):  # noqa: F811
    for guild in (GUILD, OTHER):
        await store.add_puzzles(guild, CLASSIC, [puzzle(1, player=BOB), puzzle(2)])
        await store.set_daily_channel(guild, 77)
        for p in await store.fresh_puzzles(guild, CLASSIC, 0, 10):
            await store.answer_puzzle(p, BOB, 0, False, 1.0)
    await store.forget_player(GUILD, BOB)
    kept = await store.fresh_puzzles(GUILD, CLASSIC, BOB, 10)
    assert len(kept) == 2 and {p.player_id for p in kept} == {0, ALICE}
    assert {p.other_id for p in kept} == {0}
    assert (await store.puzzle_standing(GUILD, CLASSIC, BOB)).tried == 0
    assert (await store.puzzle_standing(OTHER, CLASSIC, BOB)).tried == 2  # another server's
    await store.erase_server(GUILD)
    for table in ("puzzles", "puzzle_tries", "puzzle_records", "daily_puzzles", "puzzle_scans"):
        rows = await store._fetch(f"SELECT COUNT(*) FROM {table} WHERE guild_id = ?", (GUILD,))
        assert rows == [(0,)], table
    assert await store.count_puzzles(OTHER, CLASSIC) == 2


async def test_a_daily_post_cut_short_is_resumed_by_one_process(store):  # noqa: F811
    """A claim without its message (a kill, a failed send) is resumed once it is older than
    a send takes; of two processes resuming it at once, one takes it."""
    await store.add_puzzles(GUILD, CLASSIC, [puzzle(1)])
    (p,) = await store.fresh_puzzles(GUILD, CLASSIC, 0, 10)
    await store.set_daily_channel(GUILD, 77)
    now = 5 * DAY + 100
    assert await store.claim_daily(GUILD, 5, p.id, now)
    assert await store.unsaved_dailies(5, now) == []  # claimed just now: still posting
    (cut,) = await store.unsaved_dailies(5, now + 1)
    assert (cut.guild_id, cut.day, cut.puzzle_id, cut.message_id) == (GUILD, 5, p.id, None)
    assert not await store.resume_daily(GUILD, 5, now + 1, now)  # not older than that
    taken = [await store.resume_daily(GUILD, 5, now + 400, now + 100) for _ in range(2)]
    assert taken == [True, False]  # the second finds it taken (claimed again just now)
    await store.set_daily_message(GUILD, 5, 999)
    assert await store.unsaved_dailies(5, now + 10_000) == []
    assert not await store.resume_daily(GUILD, 5, now + 10_000, now + 9_000)


async def test_two_processes_racing_for_a_day_on_postgresql():
    """Two processes (two stores on one PostgreSQL database) claim the same day at once,
    then resume the same post cut short at once: each time exactly one wins."""
    import asyncio

    from data import Store
    from tests.conftest import postgres_schema

    async with postgres_schema() as (url, schema):
        one = await Store.connect(url, schema=schema)
        two = await Store.connect(url, schema=schema)
        try:
            await one.add_puzzles(GUILD, CLASSIC, [puzzle(1)])
            (p,) = await one.fresh_puzzles(GUILD, CLASSIC, 0, 10)
            await one.set_daily_channel(GUILD, 77)
            for day in range(5, 10):
                claims = await asyncio.gather(
                    one.claim_daily(GUILD, day, p.id, day * DAY),
                    two.claim_daily(GUILD, day, p.id, day * DAY),
                )
                assert sorted(claims) == [False, True], claims
                later = day * DAY + 400
                resumes = await asyncio.gather(
                    one.resume_daily(GUILD, day, later, later - 300),
                    two.resume_daily(GUILD, day, later, later - 300),
                )
                assert sorted(resumes) == [False, True], resumes
            asked = await two.puzzle_asked(GUILD, ALICE, p.id)
            assert asked.public
        finally:
            await one.close()
            await two.close()
