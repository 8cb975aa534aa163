"""The ratings' queries on SQLite and PostgreSQL: stored with a game's end, read, ranked off
the established ones, a rebuild's replacement, forget-me and a server's erasure."""

import pytest

from data import StaleGameError
from data.ratings import BotPoint, rating_statements
from tests.data.test_store import store  # noqa: F401  (the fixture: both backends)

GUILD, ALICE, BOB, BOT = 7, 100, 200, -1
BOARD = "connect4-7x6"


async def finished(store, player, rated, *, result="player_won"):  # noqa: F811
    game = await store.start_game(GUILD, 10, player, "O", [], now=1.0, game=BOARD)
    await store.finish_game(
        game.id, GUILD, [], [3], result, now=2.0, game=BOARD,
        ratings=rating_statements(GUILD, BOARD, rated, BOT, now=2.0),
    )  # fmt: skip
    return game


async def test_a_games_ratings_are_stored_with_it_and_ranked(store):  # noqa: F811
    await finished(store, ALICE, {ALICE: (160000, 9000), BOT: (140000, 30000)})
    await finished(store, BOB, {BOB: (170000, 20000), BOT: (139000, 29000)})
    assert await store.ratings(GUILD, BOARD, [ALICE, BOB, BOT, 5]) == {
        ALICE: (160000, 9000),
        BOB: (170000, 20000),
        BOT: (139000, 29000),
    }
    assert await store.member_ratings(GUILD, ALICE) == {BOARD: (160000, 9000)}
    top, own = await store.rating_leaderboard(GUILD, BOARD, player_id=BOB)
    assert top == [(1, ALICE, 160000, 9000)]  # bob is provisional, the bot is no member
    assert own == (1, BOB, 170000, 20000)  # no established member above him
    history = await store.bot_history(GUILD, BOARD)
    assert [(p.mu, p.event, p.games) for p in history] == [(140000, "game", 1), (139000, "game", 2)]
    assert await store.bot_rating_since(GUILD, BOARD, 1.5) == ()
    assert await store.bot_rating_since(GUILD, BOARD, 2.0) == (139000, 29000)


async def test_a_stale_game_stores_no_rating(store):  # noqa: F811
    game = await finished(store, ALICE, {ALICE: (160000, 9000)})
    with pytest.raises(StaleGameError):
        await store.finish_game(
            game.id, GUILD, [], [3], "player_won", now=3.0, game=BOARD,
            ratings=rating_statements(GUILD, BOARD, {ALICE: (190000, 9000)}, BOT, now=3.0),
        )  # fmt: skip
    assert await store.ratings(GUILD, BOARD, [ALICE]) == {ALICE: (160000, 9000)}


async def test_a_rebuild_replaces_forget_me_and_erasure_delete(store):  # noqa: F811
    await finished(store, ALICE, {ALICE: (160000, 9000), BOT: (140000, 30000)})
    await store.replace_ratings(
        GUILD, BOARD, {ALICE: (150000, 8000)}, [BotPoint(5.0, 150000, 35000, "reset", 1)]
    )
    assert await store.ratings(GUILD, BOARD, [ALICE, BOT]) == {ALICE: (150000, 8000)}
    assert [p.event for p in await store.bot_history(GUILD, BOARD)] == ["reset"]
    await store.set_bot_rating(GUILD, BOARD, BOT, (150000, 35000), event="import", now=6.0)
    await store.forget_player(GUILD, ALICE)
    assert await store.ratings(GUILD, BOARD, [ALICE, BOT]) == {BOT: (150000, 35000)}
    await store.erase_server(GUILD)
    assert await store.ratings(GUILD, BOARD, [BOT]) == {}
    assert await store.bot_history(GUILD, BOARD) == []
