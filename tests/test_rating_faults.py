"""A game's rating update is committed in the game's own transaction: the real process
(``python bot.py`` against the fake Discord) is SIGKILLed at random moments of games that
end, and after each kill every stored rating is what replaying the stored finished games
gives (a game counted twice, or a game stored without its update, would differ)."""

import asyncio
import random

from data import Store
from engine.ratings import BOT
from gameflow.ratings import replay
from tests.test_faults import current_board, kill, started


async def ratings_match_the_history(database) -> int:
    store = await Store.open(database)
    try:
        rated = 0
        for guild_id, game in await store.rated_places():
            events = [p for p in await store.bot_history(guild_id, game) if p.event != "game"]
            expected, points = replay(await store.rated_games(guild_id, game), events, game)
            stored = await store.ratings(guild_id, game, list(expected))
            assert stored == expected, (guild_id, game)
            history = await store.bot_history(guild_id, game)
            assert [(p.mu, p.sigma) for p in history] == [(p.mu, p.sigma) for p in points]
            rated += len(stored) - (BOT in stored)
        return rated
    finally:
        await store.close()


async def test_a_kill_never_counts_a_game_twice_nor_loses_its_rating(fake, tmp_path):
    rng = random.Random(42)
    database = tmp_path / "data" / "ttt.sqlite3"
    kills_at_an_end = 0
    for _ in range(4):
        process = await started(fake, tmp_path, DATABASE_PATH=str(database))
        try:
            for _ in range(40):
                board = await current_board(fake)
                if board is None:
                    asking = await fake.slash(fake.owner, "ttt play")
                else:
                    free = [i + 1 for i, c in enumerate(board["board"]) if c == "."]
                    asking = await fake.slash(fake.owner, "ttt move", cell=rng.choice(free))
                    # late in a game, a move may end it: kill while it is in flight
                    if len(free) <= 5 and rng.random() < 0.3:
                        await asyncio.sleep(rng.uniform(0, 0.02))
                        kills_at_an_end += 1
                        break
                await fake.answered(asking)
        finally:
            await kill(fake, process)
        await ratings_match_the_history(database)
    assert kills_at_an_end >= 3
    assert await ratings_match_the_history(database) == 1  # the owner played, and was rated
