"""The classic board's post-mortem in the store: a fact's distance, and a game's review
owed, then stored with its facts in one transaction (both backends)."""

import pytest

from data import StaleGameError
from data.games import REVIEW_DONE, REVIEW_PENDING
from engine import Memory
from gameflow.memories import classic_facts
from tests.data.test_store import store  # noqa: F401  (the fixture of both backends)

CLASSIC = "connect4-7x6"
EMPTY = "." * 42


def _key(position: str) -> int:
    rules = Memory(game=CLASSIC).game
    return rules.key(rules.parse(position, checked=False))


def _after(*columns: int) -> str:
    """The classic board after ``columns`` (0-based) are played, as the engine spells it."""
    rows = [["."] * 7 for _ in range(6)]
    for ply, column in enumerate(columns):
        row = max(r for r in range(6) if rows[r][column] == ".")
        rows[row][column] = "XO"[ply % 2]
    return "".join("".join(row) for row in rows)


async def test_a_pending_review_is_stored_once_with_its_facts_and_their_distances(store):  # noqa: F811
    game = await store.start_game(1, 10, 100, "X", [], now=1.0, game=CLASSIC)
    await store.finish_game(
        game.id,
        1,
        [],
        [3, 3],
        "player_won",
        classic_facts(CLASSIC, [(_after(3), "loss", None)]),
        now=2.0,
        game=CLASSIC,
        review=True,
    )
    (pending,) = await store.pending_reviews()
    assert pending.id == game.id and pending.review == REVIEW_PENDING
    # the post-mortem proves the rules' fact again, with its distance, and a new one
    facts = classic_facts(CLASSIC, [(_after(2), "win", 12)], [(_key(_after(3)), "loss", 7)])
    await store.finish_review(pending.id, 1, facts, now=3.0, game=CLASSIC)
    assert await store.pending_reviews() == []
    assert (await store.game(game.id)).review == REVIEW_DONE
    with pytest.raises(StaleGameError):  # a second run of the same review writes nothing
        again = classic_facts(CLASSIC, [(_after(4), "loss", 5)])
        await store.finish_review(pending.id, 1, again, now=4.0, game=CLASSIC)
    loaded = await store.load_facts(1, CLASSIC)
    # the rules' fact gained the distance the post-mortem proved; the other is new
    assert loaded == sorted([(_key(_after(3)), "loss", 7), (_key(_after(2)), "win", 12)])
    memory = Memory.stored(loaded, game=CLASSIC)
    assert memory.plies(_key(_after(2))) == 12 and memory.plies(_key(_after(3))) == 7
    assert await store.count_facts(1, CLASSIC) == 2
    # the game is credited with both, each with its distance (a replay shows them)
    finished = await store.finished_game(game.id)
    assert finished.facts == tuple(loaded)
    (past,) = await store.recent_games(1, 100, [CLASSIC])
    assert past.lessons == 2


async def test_a_game_that_needs_no_review_is_never_pending(store):  # noqa: F811
    game = await store.start_game(1, 10, 100, "X", [], now=1.0, game=CLASSIC)
    await store.finish_game(game.id, 1, [], [3], "abandoned", now=2.0, game=CLASSIC)
    assert await store.pending_reviews() == []
    assert (await store.game(game.id)).review is None


async def test_a_review_stores_its_curve_point_at_its_own_game(store):  # noqa: F811
    """Issue 35: a post-mortem's lessons land after its game's point; its point is stored
    with its facts, at its game's count, so the curve credits the game that taught."""
    from data import Snapshot

    game = await store.start_game(1, 10, 100, "X", [], now=1.0, game=CLASSIC)
    await store.finish_game(
        game.id, 1, [], [3, 3], "player_won",
        classic_facts(CLASSIC, [(_after(3), "loss", None)]), now=2.0,
        snapshot=Snapshot(1, None, None), game=CLASSIC, review=True,
    )  # fmt: skip
    facts = classic_facts(CLASSIC, [(_after(2), "win", 12)], [(_after(3), "loss", 7)])
    await store.finish_review(
        game.id, 1, facts, now=3.0, game=CLASSIC, snapshot=Snapshot(2, None, None)
    )
    points = await store.curve(1, game=CLASSIC)
    assert [(p.games, p.lessons) for p in points] == [(1, 1), (1, 2)]  # both at game 1
    with pytest.raises(StaleGameError):  # a second run writes no point either
        await store.finish_review(
            game.id, 1, facts, now=4.0, game=CLASSIC, snapshot=Snapshot(9, None, None)
        )
    assert len(await store.curve(1, game=CLASSIC)) == 2


async def test_forget_me_takes_a_classic_games_lessons_off_its_player_and_keeps_them(store):  # noqa: F811
    """A 7×6 game's batches of facts name it: after its player's forget-me the facts stay
    (the bot still knows them), naming nobody, and nobody is credited with them."""
    game = await store.start_game(1, 10, 100, "X", [], now=1.0, game=CLASSIC)
    taught = classic_facts(CLASSIC, [(_after(3), "loss", None), (_after(2), "win", 9)])
    await store.finish_game(game.id, 1, [], [3, 3], "player_won", taught, now=2.0, game=CLASSIC)
    (standing,), _ = await store.leaderboard(1, "lessons", game=CLASSIC)
    assert (standing.player_id, standing.lessons) == (100, 2)
    await store.forget_player(1, 100)
    assert await store.finished_game(game.id) is None
    assert await store.count_facts(1, CLASSIC) == 2  # still known
    assert await store.leaderboard(1, "lessons", game=CLASSIC) == ([], None)
    ((named,),) = await store._fetch("SELECT COUNT(*) FROM classic_facts WHERE game_id IS NOT NULL")
    assert named == 0
