"""The game flow without Discord: real SQLite files, no mocks."""

import asyncio

import pytest

from data import Store
from gameflow import GameError, GameService

GUILD, CHANNEL, ALICE, BOB = 1, 10, 100, 200


async def reopen(service, tmp_path) -> GameService:
    """A new process on the same database file."""
    store = await Store.open(tmp_path / "flow.sqlite3")
    fresh = GameService(store, timeout_seconds=600, clock=service.clock)
    await fresh.load()
    return fresh


async def test_a_move_gets_the_bots_reply_and_is_stored(service, tmp_path):
    await service.start(GUILD, CHANNEL, ALICE, bot_first=False)
    turn = await service.move(CHANNEL, ALICE, 5)
    assert turn.bot_cell == 0 and turn.game.board.position == "O...X...."
    fresh = await reopen(service, tmp_path)
    assert fresh.running.running_game(CHANNEL).moves == (4, 0)
    await fresh.store.close()


async def test_a_finished_game_and_its_lessons_survive_a_restart(service, tmp_path):
    await service.start(GUILD, CHANNEL, ALICE, bot_first=False)
    for cell in (1, 4):
        await service.move(CHANNEL, ALICE, cell)
    turn = await service.move(CHANNEL, ALICE, 7)
    assert turn.game.result == "player_won" and turn.lessons
    fresh = await reopen(service, tmp_path)
    memory = await fresh.memory(GUILD)
    assert len(memory) == len(await service.memory(GUILD)) == len(turn.lessons)
    assert fresh.running.running_game(CHANNEL) is None
    assert (await fresh.store.record(GUILD)).bot_losses == 1
    await fresh.store.close()


async def test_the_memory_is_read_from_the_store_once(service, tmp_path):
    first = await service.memory(GUILD)
    assert await service.memory(GUILD) is first


async def test_simultaneous_moves_exactly_one_applies(service):
    await service.start(GUILD, CHANNEL, ALICE, bot_first=False)
    results = await asyncio.gather(
        service.move(CHANNEL, ALICE, 5), service.move(CHANNEL, ALICE, 9), return_exceptions=True
    )
    assert sum(isinstance(r, GameError) for r in results) == 1
    assert service.running.running_game(CHANNEL).moves == (4, 0)


async def test_boards_attached_while_a_move_is_stored_are_kept_in_the_order_posted(service):
    """A person can move before their last board's attachment is saved: the move must not
    drop it, and each board attached replaces (and hands over for deletion) the one before."""
    start = await service.start(GUILD, CHANNEL, ALICE, bot_first=False)
    # the move runs up to its store write, then the first board's attachment interleaves
    move = asyncio.ensure_future(service.move(CHANNEL, ALICE, 5))
    await asyncio.sleep(0)
    assert await service.running.attach_message(start.game, 501) is None
    turn = await move
    assert turn.game.message_id == 501 == service.running.running_game(CHANNEL).message_id
    assert await service.running.attach_message(turn.game, 502) == 501
    finished = None
    for cell in (3, 7, 9, 6, 8):  # plays on until the game ends
        if service.running.running_game(CHANNEL) is None:
            break
        if cell - 1 in service.running.running_game(CHANNEL).board.legal_moves:
            finished = await service.move(CHANNEL, ALICE, cell)
    assert not finished.game.running
    assert finished.game.message_id == 502  # the finished game's board, to redraw or delete


async def test_simultaneous_challenges_exactly_one_starts(service):
    results = await asyncio.gather(
        service.start(GUILD, CHANNEL, ALICE, bot_first=False),
        service.start(GUILD, CHANNEL, BOB, bot_first=True),
        return_exceptions=True,
    )
    assert sum(isinstance(r, GameError) for r in results) == 1
    assert service.running.running_game(CHANNEL).player_id == ALICE


@pytest.mark.parametrize(
    ("player", "cell", "message"),
    [
        (ALICE, 5, "Cell 5 is taken"),
        (ALICE, 0, "There is no cell 0"),
        (ALICE, 10, "There is no cell 10"),
        (BOB, 9, f"<@{ALICE}>'s game"),
    ],
)
async def test_bad_moves_change_nothing(service, tmp_path, player, cell, message):
    await service.start(GUILD, CHANNEL, ALICE, bot_first=False)
    await service.move(CHANNEL, ALICE, 5)
    with pytest.raises(GameError, match=message):
        await service.move(CHANNEL, player, cell)
    assert service.running.running_game(CHANNEL).moves == (4, 0)
    fresh = await reopen(service, tmp_path)
    assert fresh.running.running_game(CHANNEL).moves == (4, 0)
    await fresh.store.close()


async def test_no_game_and_stale_boards_are_refused(service):
    with pytest.raises(GameError, match="No game is running"):
        await service.move(CHANNEL, ALICE, 5)
    with pytest.raises(GameError, match="No game is running"):
        await service.resign(CHANNEL, ALICE)
    await service.start(GUILD, CHANNEL, ALICE, bot_first=False)
    with pytest.raises(GameError, match="out of date"):
        await service.move(CHANNEL, ALICE, 5, expected_ply=2)
    assert (await service.move(CHANNEL, ALICE, 5, expected_ply=0)).game.ply == 2


async def test_idle_games_are_abandoned_after_the_timeout_without_learning(service):
    await service.start(GUILD, CHANNEL, ALICE, bot_first=False)
    await service.move(CHANNEL, ALICE, 5)
    service.test_clock[0] += 599
    assert await service.expire_idle() == []
    service.test_clock[0] += 2
    (turn,) = await service.expire_idle()
    assert turn.game.result == "abandoned" and turn.lessons == ()
    assert service.running.running_game(CHANNEL) is None
    assert len(await service.memory(GUILD)) == 0
    assert (await service.store.record(GUILD)).unfinished == 1


async def test_resigning_counts_as_a_bot_win_and_teaches_nothing(service):
    await service.start(GUILD, CHANNEL, ALICE, bot_first=True)
    turn = await service.resign(CHANNEL, ALICE)
    assert turn.game.result == "resigned" and turn.lessons == ()
    record = await service.store.record(GUILD, ALICE)
    assert (record.games, record.bot_wins) == (1, 1)


async def test_if_storing_a_result_fails_nothing_is_announced_and_nothing_is_half_kept(
    service, tmp_path
):
    await service.start(GUILD, CHANNEL, ALICE, bot_first=False)
    for cell in (1, 4):
        await service.move(CHANNEL, ALICE, cell)
    await service.store.close()  # the database goes away under the bot
    with pytest.raises(ValueError):
        await service.move(CHANNEL, ALICE, 7)
    fresh = await reopen(service, tmp_path)
    assert fresh.running.running_game(CHANNEL).moves == (0, 1, 3, 2)  # the game is as stored
    assert len(await fresh.memory(GUILD)) == 0  # no lesson without its game
    turn = await fresh.move(CHANNEL, ALICE, 7)  # and it can be finished after the restart
    assert turn.game.result == "player_won"
    await fresh.store.close()


async def test_reset_forgets_one_servers_memory_only(service):
    for guild, channel in ((GUILD, CHANNEL), (2, 20)):
        await service.start(guild, channel, ALICE, bot_first=False)
        for cell in (1, 4, 7):
            await service.move(channel, ALICE, cell)
    assert await service.reset_memory(GUILD) > 0
    assert len(await service.memory(GUILD)) == 0
    assert len(await service.memory(2)) > 0
    assert (await service.store.load_facts(GUILD)) == []


async def test_a_game_ending_during_a_reset_teaches_the_fresh_memory(service):
    """What the cache holds must match the store, however a reset and a game's end meet."""
    await service.start(GUILD, CHANNEL, ALICE, bot_first=False)
    for cell in (1, 4):
        await service.move(CHANNEL, ALICE, cell)
    await service.memory(GUILD)  # cached before the reset begins
    _, turn = await asyncio.gather(service.reset_memory(GUILD), service.move(CHANNEL, ALICE, 7))
    assert turn.game.result == "player_won" and turn.lessons
    stored = await service.store.load_facts(GUILD)
    assert len(await service.memory(GUILD)) == len(stored) == len(turn.lessons)


async def test_two_processes_on_one_database_never_overwrite_an_announced_move(service, tmp_path):
    """An overlapping deploy: both processes hold the game; the second write loses cleanly."""
    await service.start(GUILD, CHANNEL, ALICE, bot_first=False)
    other = await reopen(service, tmp_path)  # it loaded the game before either move
    announced = await service.move(CHANNEL, ALICE, 5)
    with pytest.raises(GameError, match="another copy of me got there first"):
        await other.move(CHANNEL, ALICE, 9)
    # the loser now sees the game as it stands, and the winner's move is what is stored
    assert other.running.running_game(CHANNEL).moves == announced.game.moves == (4, 0)
    assert (await service.store.running_game(CHANNEL)).moves == (4, 0)
    for cell in (2, 8):  # the loser goes on from the true state
        await other.move(CHANNEL, ALICE, cell)
    with pytest.raises(GameError, match="another copy of me"):  # and now the first one is behind
        await service.resign(CHANNEL, ALICE)
    await other.store.close()


async def test_a_finish_that_loses_the_race_teaches_nothing(service, tmp_path):
    await service.start(GUILD, CHANNEL, ALICE, bot_first=False)
    for cell in (1, 4):
        await service.move(CHANNEL, ALICE, cell)
    other = await reopen(service, tmp_path)
    await other.resign(CHANNEL, ALICE)  # the other process ends the game first
    with pytest.raises(GameError, match="nothing was played"):
        await service.move(CHANNEL, ALICE, 7)  # this winning move must not be learned from
    assert service.running.running_game(CHANNEL) is None
    assert len(await service.memory(GUILD)) == 0 and await service.store.load_facts(GUILD) == []
    await other.store.close()


async def test_a_busy_database_gets_a_true_answer_and_changes_nothing(service, tmp_path):
    import sqlite3

    await service.start(GUILD, CHANNEL, ALICE, bot_first=False)
    other = sqlite3.connect(tmp_path / "flow.sqlite3", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(GameError, match=r"database is busy.*nothing was played"):
            await service.move(CHANNEL, ALICE, 5)
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert service.running.running_game(CHANNEL).moves == ()
    assert (await service.move(CHANNEL, ALICE, 5)).game.moves == (4, 0)


async def test_a_second_play_by_the_same_person_speaks_to_them(service):
    await service.start(GUILD, CHANNEL, ALICE, bot_first=False)
    with pytest.raises(GameError, match=r"You already have a game.*`/ttt board`.*`/ttt resign`"):
        await service.start(GUILD, CHANNEL, ALICE, bot_first=False)
    with pytest.raises(GameError, match=f"<@{ALICE}> is already playing"):
        await service.start(GUILD, CHANNEL, BOB, bot_first=False)


async def test_a_servers_data_goes_30_days_after_the_bot_leaves_unless_it_comes_back(service):
    """Issue 18: removed from a server, the bot deletes its data 30 days later, in the
    sweep; back before then, nothing is deleted."""
    day = 24 * 3600
    for guild in (GUILD, GUILD + 1):
        await service.start(guild, CHANNEL + guild, ALICE, bot_first=False)
        for cell in (1, 4, 7):
            await service.move(CHANNEL + guild, ALICE, cell)
        await service.start(guild, CHANNEL + guild, ALICE, bot_first=False)  # left running
        await service.servers.left_server(guild)
    service.test_clock[0] += 20 * day
    await service.servers.joined_server(GUILD + 1)  # added back after 20 days
    assert await service.servers.erase_departed() == []  # not yet 30 days
    service.test_clock[0] += 11 * day
    assert await service.servers.erase_departed() == [GUILD]
    assert (await service.scoreboard.record(GUILD)).games == 0 and len(
        await service.memory(GUILD)
    ) == 0
    assert service.running.running_game(CHANNEL + GUILD) is None
    assert await service.store.running_game(CHANNEL + GUILD) is None
    assert (
        await service.scoreboard.record(GUILD + 1)
    ).games == 1  # the returning server keeps its own
    assert len(await service.memory(GUILD + 1)) > 0
    assert await service.servers.erase_departed() == []  # once


async def test_servers_left_while_the_bot_was_down_start_their_30_days_at_start(service):
    """No event tells a bot that is not running that it was removed: at start, the servers
    it keeps data about but is not in start their 30 days (the terminal's server 0 never)."""
    for guild in (0, GUILD, GUILD + 1):
        await service.start(guild, CHANNEL + guild, ALICE, bot_first=False)
        await service.resign(CHANNEL + guild, ALICE)
    assert await service.servers.note_departures(present={GUILD + 1}) == [GUILD]
    assert await service.servers.note_departures(present={GUILD + 1}) == []  # once
    service.test_clock[0] += 31 * 24 * 3600
    assert await service.servers.erase_departed() == [GUILD]
    assert (await service.scoreboard.record(0)).games == 1 and (
        await service.scoreboard.record(GUILD + 1)
    ).games == 1


@pytest.mark.parametrize("game", ["tictactoe", "connect4"])
async def test_a_first_that_is_not_a_choice_starts_nothing(service, game):
    """Issue 23, item 3: a forged `first:nobody` started a game (as if "me")."""
    with pytest.raises(GameError, match="`first` must be one of me, bot, not `nobody`"):
        await service.play(GUILD, CHANNEL, ALICE, "nobody", game=game)
    assert service.running.running_game(CHANNEL) is None
    assert await service.store.running_game(CHANNEL) is None
    turn = await service.play(GUILD, CHANNEL, ALICE, "bot", game=game)
    assert turn.game.kind == game and turn.bot_cell is not None
