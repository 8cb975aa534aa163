"""The classic board's figures in the store: the bot's losses per block of 50 games, and
in its last 50 games (its stats and curve, where no count of the ways to beat it exists)."""

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
