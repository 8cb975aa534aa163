"""Ratings in the game flow, on a real SQLite file: who rises and falls, what does not
count, the anchors, the learning bot, a reset, an import, forget-me and a rebuild."""

from data import Store
from engine.ratings import ANCHORS, BOT, START, Rating
from gameflow import GameService
from gameflow.ratings import bot_rating, rebuild
from tests.gameflow.test_brain import document_bytes

GUILD, CHANNEL, ALICE, BOB = 1, 10, 100, 200
LINE = (1, 4, 7, 2, 3, 5, 6, 8, 9)  # a member's preferences: won the first time


async def rating(service, player, game="tictactoe", guild=GUILD) -> Rating | None:
    rated = await service.store.ratings(guild, game, [player])
    return Rating(*rated[player]) if player in rated else None


async def play_line(service, player=ALICE, level="learning", line=LINE):
    turn = await service.start(GUILD, CHANNEL, player, bot_first=False, level=level)
    while turn.game.running:
        free = next(c for c in line if c - 1 not in turn.game.moves)
        turn = await service.move(CHANNEL, player, free)
    return turn


async def lose(service, player=ALICE, level="learning"):
    """Three moves, then resign: a loss that counts."""
    turn = await service.start(GUILD, CHANNEL, player, bot_first=False, level=level)
    for cell in (9, 8):
        if turn.game.running:
            free = next(c for c in (cell, 6, 3, 2) if c - 1 not in turn.game.moves)
            turn = await service.move(CHANNEL, player, free)
    return await service.resign(CHANNEL, player)


async def test_a_winner_rises_and_the_learning_bot_falls(service):
    turn = await play_line(service)
    assert turn.game.result == "player_won"
    member, bot = turn.ratings
    assert (member.player_id, bot.player_id) == (ALICE, BOT)
    assert member.before == bot.before == START
    assert member.delta > 0 > bot.delta
    assert await rating(service, ALICE) == member.after
    assert await rating(service, BOT) == bot.after


async def test_a_loser_falls_and_an_early_resignation_or_abandon_counts_for_nothing(service):
    turn = await lose(service)
    assert turn.game.result == "resigned" and turn.ratings[0].delta < 0
    after_loss = await rating(service, ALICE)
    await service.start(GUILD, CHANNEL, ALICE, bot_first=False)
    await service.move(CHANNEL, ALICE, 5)  # the bot replies: move 2
    early = await service.resign(CHANNEL, ALICE)
    assert early.ratings == () and await rating(service, ALICE) == after_loss
    await service.start(GUILD, CHANNEL, ALICE, bot_first=False)
    service.test_clock[0] += 10_000
    (abandoned,) = await service.expire_idle()
    assert abandoned.game.result == "abandoned" and abandoned.ratings == ()
    assert await rating(service, ALICE) == after_loss


async def test_the_fixed_levels_never_move(service):
    for level in ("easy", "medium"):
        turn = await play_line(service, level=level)
        assert [c.player_id for c in turn.ratings] == [ALICE]
        turn = await lose(service, level=level)
        assert [c.player_id for c in turn.ratings] == [ALICE]
    assert await rating(service, BOT) is None
    assert ANCHORS["tictactoe"]["easy"].points < ANCHORS["tictactoe"]["medium"].points


async def test_a_learning_bot_that_stops_losing_to_a_repeated_line_climbs(service):
    first = await play_line(service)
    assert first.game.result == "player_won"
    low = await rating(service, BOT)
    results = [(await play_line(service)).game.result for _ in range(12)]
    assert "player_won" not in results[2:]
    assert (await rating(service, BOT)).mu > low.mu
    assert (await rating(service, ALICE)).mu < first.ratings[0].after.mu


async def test_members_rate_each_other_and_a_draw_counts(service):
    challenge = await service.challenges.issue(GUILD, CHANNEL, ALICE, BOB, "me")
    turn = await service.challenges.accept(challenge.id, BOB)
    # X: 1 5 6 7 8, O: 2 3 4 9: a draw
    for player, cell in zip((ALICE, BOB) * 5, (1, 2, 5, 9, 6, 4, 7, 3, 8), strict=False):
        turn = await service.move(CHANNEL, player, cell)
    assert turn.game.result == "draw"
    alice, bob = turn.ratings
    assert (alice.player_id, bob.player_id) == (ALICE, BOB)
    assert alice.after.mu == bob.after.mu == START.mu and alice.after.sigma < START.sigma


async def test_a_reset_and_an_import_and_a_dm_bot(service):
    await play_line(service)
    assert (await bot_rating(service.store, GUILD, "tictactoe", service.clock())).change < 0
    await service.reset_memory(GUILD)
    assert await rating(service, BOT) == START
    history = await service.store.bot_history(GUILD, "tictactoe")
    assert [p.event for p in history] == ["game", "reset"]
    # a player's own bot (a negative place) has its own rating
    own = -ALICE
    turn = await service.start(own, 77, ALICE, bot_first=False)
    while turn.game.running:
        turn = await service.move(77, ALICE, next(c for c in LINE if c - 1 not in turn.game.moves))
    assert await rating(service, BOT, guild=own) is not None
    assert await rating(service, BOT) == START


async def test_forget_me_deletes_the_members_ratings(service):
    await play_line(service)
    await play_line(service, player=BOB)
    await service.servers.forget_player(GUILD, ALICE)
    assert await rating(service, ALICE) is None
    assert await rating(service, BOB) is not None


async def test_a_rebuild_gives_the_same_numbers(service):
    await play_line(service)
    await lose(service, player=BOB)
    await play_line(service, level="medium")
    await service.reset_memory(GUILD)
    await play_line(service, player=BOB)
    before = await service.store.ratings(GUILD, "tictactoe", [ALICE, BOB, BOT])
    history = await service.store.bot_history(GUILD, "tictactoe")
    await rebuild(service.store)
    assert await service.store.ratings(GUILD, "tictactoe", [ALICE, BOB, BOT]) == before
    rebuilt = await service.store.bot_history(GUILD, "tictactoe")
    assert [(p.mu, p.sigma, p.event) for p in rebuilt] == [
        (p.mu, p.sigma, p.event) for p in history
    ]


async def test_a_game_counted_before_a_restart_is_not_counted_again(service, tmp_path):
    await service.start(GUILD, CHANNEL, ALICE, bot_first=False)
    for cell in (1, 4):
        await service.move(CHANNEL, ALICE, cell)
    ended = await service.move(CHANNEL, ALICE, 7)
    counted = await rating(service, ALICE)
    # a new process on the same file (the reply was never sent): the game is over there
    store = await Store.open(tmp_path / "flow.sqlite3")
    fresh = GameService(store, timeout_seconds=600, clock=service.clock)
    await fresh.load()
    assert fresh.running.running_game(CHANNEL) is None
    assert await rating(fresh, ALICE) == counted == ended.ratings[0].after
    await store.close()


async def test_an_import_keeps_the_bots_estimate_but_makes_it_provisional(service):
    await play_line(service)
    await service.store.set_bot_rating(  # as after many games
        GUILD, "tictactoe", BOT, (162000, 6000), event="game", now=service.clock()
    )
    settled = await rating(service, BOT)
    assert not settled.provisional
    plan = await service.brain.plan_import(GUILD, document_bytes(), "merge")
    await service.brain.apply_import(plan)
    imported = await rating(service, BOT)
    assert imported.mu == settled.mu and imported.provisional
    history = await service.store.bot_history(GUILD, "tictactoe")
    assert history[-1].event == "import"
