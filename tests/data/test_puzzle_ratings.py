"""Puzzle ratings in the store, on SQLite and PostgreSQL: each puzzle starts from its prior
and moves with members' first answers only, in the answer's own transaction (answers given
at once never compute from the same rating), posing near a rating reads the nearest, a
rebuild gives the same numbers, forget-me and a server's deletion take them away, and an
old database gains them by its migration."""

from __future__ import annotations

import asyncio
import sqlite3

from data import SCHEMA_VERSION, Store
from data.puzzles import NewPuzzle
from data.ratings import PUZZLES
from engine.ratings import START, Rating, puzzle_prior
from gameflow.puzzles import HINTED
from gameflow.ratings import answer_rated, rebuild_puzzles
from tests.data.test_store import store  # noqa: F401  (the fixture: both backends)

GUILD, OTHER, ALICE, BOB, CAROL = 1, 2, 100, 200, 300
CLASSIC = "connect4-7x6"


def puzzle(key: int, kind: str = "win", plies: int | None = 4) -> NewPuzzle:
    return NewPuzzle(
        key=key, moves=(3, 3, key % 7), kind=kind, answer=key % 7, draws=0, game_id=None,
        player_id=ALICE, other_id=BOB, found=True, beat_bot=False, played_at=float(key),
        plies=plies,
    )  # fmt: skip


async def puzzles(store, *new: NewPuzzle, guild: int = GUILD) -> list:  # noqa: F811
    await store.add_puzzles(guild, CLASSIC, new)
    found = await store.fresh_puzzles(guild, CLASSIC, 0, 100)
    return sorted(found, key=lambda p: p.played_at)


async def answer(store, record, member, column=None, solved=None):  # noqa: F811
    """A member's answer through the game flow's rated path: right unless said."""
    right = column is None or column == record.answer
    solved = right if solved is None else solved
    column = record.answer if column is None else column
    return await answer_rated(store, record, member, column, solved, lambda: 10.0)


async def snapshot(store) -> tuple:  # noqa: F811
    members = await store._fetch(
        "SELECT guild_id, player_id, mu, sigma FROM ratings WHERE board = ? ORDER BY 1, 2",
        (PUZZLES,),
    )
    rated = await store._fetch("SELECT id, mu, sigma, answers FROM puzzles ORDER BY id")
    return [tuple(r) for r in members], [tuple(r) for r in rated]


async def test_a_puzzle_starts_from_its_kind_and_distance(store):  # noqa: F811
    win_in_2, win_in_5, hold, old = await puzzles(
        store, puzzle(1, plies=2), puzzle(2, plies=8), puzzle(3, "hold", 3), puzzle(4, plies=None)
    )
    assert (win_in_2.mu, win_in_2.sigma) == (140000, 20000)
    assert win_in_5.mu == 170000 and hold.mu == 160000 and old.mu == 150000  # hold: in 2
    assert (old.sigma, puzzle_prior("win", 2)) == (25000, Rating(140000, 20000))
    assert puzzle_prior("hold", None) == Rating(170000, 25000)  # the migration's numbers
    assert (win_in_2.plies, old.plies, win_in_2.answers) == (2, None, 0)


async def test_first_answers_move_both_ratings_and_a_second_moves_nothing(store):  # noqa: F811
    a, b, c = await puzzles(store, puzzle(1), puzzle(2), puzzle(3))
    first, change = await answer(store, a, ALICE)  # right
    assert first and change.before == START and change.after.mu > START.mu
    assert await store.puzzle_rating(GUILD, ALICE) == (change.after.mu, change.after.sigma)
    moved = await store.puzzle(a.id)
    assert moved.mu < a.mu and moved.sigma < a.sigma and moved.answers == 1
    before = await snapshot(store)
    again, nothing = await answer(store, moved, ALICE, column=(a.answer + 1) % 7)
    assert (again, nothing) == (False, None)
    assert await snapshot(store) == before  # a second answer changes nothing
    wrong_first, wrong = await answer(store, b, BOB, column=(b.answer + 1) % 7)
    assert wrong_first and wrong.delta < 0 and (await store.puzzle(b.id)).mu > b.mu
    hinted_first, hinted = await answer(store, c, CAROL, column=HINTED, solved=False)
    assert hinted_first and hinted.delta < 0 and (await store.puzzle(c.id)).mu > c.mu
    standing = await store.puzzle_standing(GUILD, CLASSIC, CAROL)
    assert (standing.solved, standing.tried) == (0, 1)
    ordinals = await store._fetch(
        "SELECT member_id, ordinal FROM puzzle_tries ORDER BY ordinal", ()
    )
    assert [tuple(r) for r in ordinals] == [(ALICE, 1), (BOB, 2), (CAROL, 3)]


async def test_answers_given_at_once_are_each_counted_once(store):  # noqa: F811
    """Two clicks of one member on one puzzle count once; several members on one puzzle,
    and one member on several puzzles, all at once: every first answer moves the ratings
    from where the one before left them (a rebuild agrees), none is lost."""
    a, b, c = await puzzles(store, puzzle(1), puzzle(2), puzzle(3))
    double = await asyncio.gather(answer(store, a, ALICE), answer(store, a, ALICE))
    assert sorted(first for first, _ in double) == [False, True]
    await asyncio.gather(*(answer(store, b, m, solved=m % 200 == 0) for m in (BOB, CAROL, 400)))
    await asyncio.gather(answer(store, a, BOB), answer(store, c, BOB, column=(c.answer + 1) % 7))
    live = await snapshot(store)
    assert dict((p, n) for p, *_, n in live[1]) == {a.id: 2, b.id: 3, c.id: 1}
    await rebuild_puzzles(store)
    assert await snapshot(store) == live


async def test_a_rebuild_gives_the_same_numbers(store):  # noqa: F811
    records = await puzzles(store, *(puzzle(k, "hold" if k % 3 else "win", k) for k in range(6)))
    other = (await puzzles(store, puzzle(9), guild=OTHER))[0]
    for n, member in enumerate((ALICE, BOB, CAROL, ALICE, BOB, ALICE, CAROL)):
        record = await store.puzzle(records[(n * 2) % 6].id)
        await answer(store, record, member, column=(record.answer + n % 2) % 7)
    await answer(store, other, ALICE)
    gone = (await puzzles(store, puzzle(5), guild=3))[0]  # all of a place's puzzles dropped
    await answer(store, gone, BOB)
    await store.drop_puzzles([gone.id])
    assert await store.puzzle_rating(3, BOB) is not None
    live = await snapshot(store)
    live = ([row for row in live[0] if row[0] != 3], live[1])
    await store._write([("UPDATE puzzles SET mu = 1, sigma = 1, answers = 0", ())])
    await store._write([("DELETE FROM ratings", ())])
    done = await rebuild_puzzles(store)
    assert done == {(GUILD, CLASSIC): 3, (OTHER, CLASSIC): 1}
    assert await snapshot(store) == live


async def test_an_established_member_reads_the_puzzles_nearest_their_rating(store):  # noqa: F811
    records = await puzzles(store, *(puzzle(k, plies=p) for k, p in enumerate((0, 4, 8, 12, 2))))
    by_mu = {p.mu: p.id for p in records}  # 1300, 1500, 1700, 1900, 1400
    near = await store.near_puzzles(GUILD, CLASSIC, ALICE, 3, mu=168000)
    assert [p.id for p in near] == [by_mu[170000], by_mu[150000], by_mu[190000]]
    await store.pose_puzzle(GUILD, ALICE, by_mu[170000], 1.0)  # met: left out
    near = await store.near_puzzles(GUILD, CLASSIC, ALICE, 2, mu=168000)
    assert [p.id for p in near] == [by_mu[150000], by_mu[190000]]
    assert await store.near_puzzles(OTHER, CLASSIC, ALICE, 2, mu=168000) == []


async def test_forget_me_and_a_servers_deletion_take_puzzle_ratings_away(store):  # noqa: F811
    a, b = await puzzles(store, puzzle(1), puzzle(2))
    await answer(store, a, ALICE)
    await answer(store, b, BOB)
    await store.forget_player(GUILD, ALICE)
    assert await store.puzzle_rating(GUILD, ALICE) is None
    assert await store.puzzle_rating(GUILD, BOB) is not None
    assert await store.member_ratings(GUILD, BOB) == {}  # no game's board: not in stats' list
    await store.erase_server(GUILD)
    assert await store.puzzle_rating(GUILD, BOB) is None
    assert await snapshot(store) == ([], [])


async def test_an_old_database_gains_puzzle_ratings_by_its_kind(tmp_path):
    from data.migrations import MIGRATIONS, register_functions

    path = tmp_path / "v13.sqlite3"
    with sqlite3.connect(path) as db:
        register_functions(db)
        for step in MIGRATIONS[:13]:
            for sql in step:
                db.execute(sql)
        for key, kind in ((1, "win"), (2, "hold")):
            db.execute(
                "INSERT INTO puzzles (guild_id, game, key, moves, kind, answer, draws, found,"
                " beat_bot, played_at) VALUES (?, ?, ?, '33', ?, 2, 0, 1, 0, 1.0)",
                (GUILD, CLASSIC, key, kind),
            )
        db.execute(  # a first answer given before puzzle ratings
            "INSERT INTO puzzle_tries (guild_id, member_id, puzzle_id, posed_at, answer, solved)"
            " VALUES (?, ?, 2, 5.0, 2, 1)",
            (GUILD, ALICE),
        )
        db.execute("PRAGMA user_version = 13")
    upgraded = await Store.open(path)
    try:
        assert SCHEMA_VERSION == 14
        old = await upgraded.fresh_puzzles(GUILD, CLASSIC, 0, 10)
        assert sorted((p.kind, p.mu, p.sigma, p.answers, p.plies) for p in old) == [
            ("hold", 170000, 25000, 0, None),
            ("win", 150000, 25000, 0, None),
        ]
        assert await upgraded.puzzle_rating(GUILD, ALICE) is None  # unrated until a rebuild
        assert await rebuild_puzzles(upgraded) == {(GUILD, CLASSIC): 1}
        assert (await upgraded.puzzle_rating(GUILD, ALICE))[0] > START.mu
        new = (await puzzles(upgraded, puzzle(3)))[-1]
        first, change = await answer(upgraded, new, ALICE)
        assert first and change.before.mu > START.mu
    finally:
        await upgraded.close()


async def test_two_processes_answering_at_once_lose_no_answer():
    """Cluster mode: two bots on one PostgreSQL, each its own pool, their members
    answering the same puzzles at once: every first answer counts once, computed from
    where the one before left the ratings (a rebuild agrees)."""
    from tests.conftest import postgres_schema

    async with postgres_schema() as (url, schema):
        first, second = [await Store.connect(url, schema=schema) for _ in range(2)]
        try:
            a, b = await puzzles(first, puzzle(1), puzzle(2))
            members = range(1000, 1012)
            await asyncio.gather(
                *(
                    answer(first if m % 2 else second, p, m, solved=m % 3 == 0)
                    for m in members
                    for p in (a, b)
                ),
                answer(first, a, 1000),  # one member's double click, on both bots
            )
            live = await snapshot(first)
            assert {p: n for p, *_, n in live[1]} == {a.id: 12, b.id: 12}
            await rebuild_puzzles(second)
            assert await snapshot(first) == live
        finally:
            await first.close()
            await second.close()
