"""A member's history and one finished game to replay, on both backends."""

import pytest

from data import Store
from tests.conftest import postgres_schema

GUILD, OTHER_GUILD = 1, 2
ANN, BOB = 3, 4


@pytest.fixture(params=["sqlite", "postgres"])
async def store(request, tmp_path):
    if request.param == "sqlite":
        s = await Store.connect(tmp_path / "store.sqlite3")
        yield s
        await s.close()
        return
    async with postgres_schema() as (url, schema):
        s = await Store.connect(url, schema=schema)
        try:
            yield s
        finally:
            await s.close()


async def play(store, moves, result, *, channel=10, guild=GUILD, player=ANN, opponent=None,
               game="tictactoe", facts=(), now=1.0, level="learning", review=False):  # fmt: skip
    record = await store.start_game(
        guild, channel, player, "O", [], now=now, opponent_id=opponent, game=game, level=level
    )
    await store.finish_game(
        record.id, guild, [], moves, result, facts, now=now + 1, game=game, review=review
    )
    return record.id


async def test_history_is_the_members_last_finished_games_here_newest_first(store):
    ids = [await play(store, [4, 0, 1, 2, 7], "player_won", now=float(n)) for n in range(30)]
    await store.start_game(GUILD, 11, ANN, "O", [], now=99.0)  # running: not in it
    await play(store, [4, 0, 1, 2, 7], "player_won", guild=OTHER_GUILD)  # another server's
    await play(store, [4, 0, 1, 2, 7], "player_won", player=BOB)  # another member's
    history = await store.recent_games(GUILD, ANN, ["tictactoe"])
    assert [past.game.id for past in history] == ids[::-1][:25]
    assert history[0].ended_at == 30.0 and history[0].game.result == "player_won"


async def test_history_holds_games_between_members_on_either_side_and_filters_by_board(store):
    as_player = await play(store, [0, 3, 1, 4, 2], "player_won", opponent=BOB, now=1.0)
    as_opponent = await play(store, [0, 3, 1, 4, 2], "player_won", player=BOB, opponent=ANN,
                             now=2.0)  # fmt: skip
    four = await play(store, [0, 1, 0, 1, 0, 1, 0], "player_won", game="connect4", now=3.0)
    classic = await play(store, [3] * 0 + [0, 1] * 3 + [0], "player_won",
                         game="connect4-7x6", now=4.0)  # fmt: skip
    assert [p.game.id for p in await store.recent_games(GUILD, ANN, ["tictactoe"])] == [
        as_opponent,
        as_player,
    ]
    boards = ["connect4", "connect4-5x4", "connect4-7x6"]
    assert [p.game.id for p in await store.recent_games(GUILD, ANN, boards)] == [classic, four]
    assert [p.game.id for p in await store.recent_games(GUILD, ANN, ["connect4-7x6"])] == [classic]
    assert await store.recent_games(GUILD, ANN, []) == []


async def test_each_game_counts_the_lessons_it_taught_that_are_still_known(store):
    taught = await play(store, [4, 0, 1, 2, 7], "player_won",
                        facts=[("OXO.X....", "loss"), ("OXOX.....", "win")])  # fmt: skip
    nothing = await play(store, [4, 0, 1, 2, 7], "player_won", now=5.0)
    counts = {p.game.id: p.lessons for p in await store.recent_games(GUILD, ANN, ["tictactoe"])}
    assert counts == {taught: 2, nothing: 0}
    await store.reset_memory(GUILD)  # what it taught is forgotten: no longer said
    counts = {p.game.id: p.lessons for p in await store.recent_games(GUILD, ANN, ["tictactoe"])}
    assert counts == {taught: 0, nothing: 0}


async def test_a_finished_game_comes_back_with_the_facts_it_taught(store):
    game_id = await play(store, [4, 0, 1, 2, 7], "player_won", level="medium",
                         facts=[("OXO.X....", "loss")], review=True)  # fmt: skip
    later = await play(store, [4, 0, 1, 2, 7], "player_won", facts=[("OXO.X....", "loss")])
    finished = await store.finished_game(game_id)
    assert finished.game.moves == (4, 0, 1, 2, 7) and finished.game.level == "medium"
    assert finished.ended_at == 2.0
    assert finished.facts == (("OXO.X....", "loss", None),)
    assert (await store.finished_game(later)).facts == ()  # known already: not its lesson
    await store.finish_review(  # the classic board's post-mortem credits the game too
        game_id, GUILD, [("X" * 3, "win", 5)], now=3.0
    )
    assert len((await store.finished_game(game_id)).facts) == 2


async def test_no_finished_game_for_a_running_one_a_missing_one_or_a_forged_id(store):
    running = await store.start_game(GUILD, 10, ANN, "O", [], now=1.0)
    assert await store.finished_game(running.id) is None
    assert await store.finished_game(running.id + 1000) is None
    assert await store.finished_game(2**70) is None


async def test_forget_me_takes_a_members_games_out_of_history_and_replays(store):
    against_bot = await play(store, [4, 0, 1, 2, 7], "player_won", facts=[("OXO.X....", "loss")])
    with_bob = await play(store, [0, 3, 1, 4, 2], "player_won", opponent=BOB, now=3.0)
    await store.forget_player(GUILD, ANN)
    assert await store.recent_games(GUILD, ANN, ["tictactoe"]) == []
    assert await store.finished_game(against_bot) is None
    # the game with Bob stays Bob's, without Ann's name
    (kept,) = await store.recent_games(GUILD, BOB, ["tictactoe"])
    assert kept.game.id == with_bob and kept.game.player_id == 0
    assert (await store.finished_game(with_bob)).game.player_id == 0


async def test_a_servers_erasure_deletes_every_game_from_history_and_replays(store):
    game_id = await play(store, [0, 3, 1, 4, 2], "player_won", opponent=BOB)
    await store.erase_server(GUILD)
    assert await store.recent_games(GUILD, BOB, ["tictactoe"]) == []
    assert await store.finished_game(game_id) is None
