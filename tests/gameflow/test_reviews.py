"""The classic board's post-mortem through the game flow: a lost game is reviewed in the
worker process and every fact it stores is proven; a review a kill interrupted runs
again at start; without the solver a game still ends and learns by the rules."""

import asyncio
import os
import signal
import sqlite3
from pathlib import Path

import pytest

from data import Store
from data.games import REVIEW_DONE
from engine import Memory, get_game, solver
from gameflow import GameService, reviews
from gameflow.postmortem import SOLVER_SWITCH, PostMortemWorker, WorkerGone
from tests.engine.test_classic import assert_proven

GUILD, CHANNEL, ALICE, BOB = 1, 10, 100, 200
CLASSIC = "connect4-7x6"
RULES = get_game(CLASSIC)


def best_column(moves) -> int:
    """A perfect player's column (1-based, as people give it) after ``moves``: the slowest
    win, so that games last into the independent oracle's reach (28 stones or more)."""
    scores = solver.score_all(RULES.replay(list(moves))[-1] if moves else RULES.empty)

    def rank(column):
        score = scores[column]
        if score is None:
            return (1, 0)
        return (2, score[1]) if score[0] == "win" else (0, score[1])

    return max(sorted(scores), key=rank) + 1


def perfect_game() -> list[int]:
    """A whole 7x6 game of perfect moves on both sides (0-based columns): X wins."""
    moves = []
    while not moves or RULES.moves(RULES.replay(moves)[-1]) is not None:
        moves.append(best_column(moves) - 1)
    return moves


async def owed_review(service, channel=CHANNEL):
    """A game stored as lost by the bot (O) with its review owed, as a kill between the
    two leaves it; its record."""
    game = await service.store.start_game(GUILD, channel, ALICE, "O", [], now=1.0, game=CLASSIC)
    await service.store.finish_game(
        game.id, GUILD, [], perfect_game(), "player_won", now=2.0, game=CLASSIC, review=True
    )
    return game


async def lose_a_game(service, guild=GUILD, channel=CHANNEL):
    """The bot opens (X); a perfect player (O) beats it. Returns the final turn."""
    turn = await service.start(guild, channel, ALICE, bot_first=True, game=CLASSIC)
    while turn.game.running:
        turn = await service.move(channel, ALICE, best_column(turn.game.moves))
    assert turn.game.result == "player_won"
    return turn


async def stored_facts(service):
    return Memory.stored(await service.store.load_facts(GUILD, CLASSIC), game=CLASSIC)


async def test_a_lost_game_is_reviewed_and_every_fact_it_stores_is_proven(service):
    turn = await lose_a_game(service)
    assert turn.reviewing
    rules_facts = len(await service.memory(GUILD, CLASSIC))
    outcome = await service.review(turn.game.id)
    assert outcome.new_facts > 0
    memory = await service.memory(GUILD, CLASSIC)
    assert len(memory) == rules_facts + outcome.new_facts  # the cached memory has them
    stored = await stored_facts(service)
    assert len(stored) == len(memory)  # and the store, with their distances
    assert sum(plies is not None for _key, _value, plies in stored.distances()) > 0
    assert assert_proven(stored) > 0  # the independent oracle checked the late ones
    verdict = outcome.verdict
    assert verdict is not None and verdict.played == "loss" and verdict.column != verdict.held
    assert turn.game.moves[verdict.ply] == verdict.column
    assert (await service.store.game(turn.game.id)).review == REVIEW_DONE
    with sqlite3.connect(service.store_path) as db:  # all credited to the game, as the rules'
        ((credited,),) = db.execute(
            "SELECT SUM(taught) FROM classic_facts WHERE game_id = ?", (turn.game.id,)
        ).fetchall()
    assert credited == len(memory)
    # and the player's lessons taught count them all
    (standing,), _ = await service.store.leaderboard(GUILD, "lessons", game=CLASSIC)
    assert standing.lessons == len(memory)


async def test_a_review_a_kill_interrupted_runs_again_at_start(service, tmp_path):
    # a game stored as lost with its review owed, as a kill in the middle leaves it
    game = await owed_review(service)
    store = await Store.open(service.store_path)
    restarted = GameService(store, timeout_seconds=600)
    try:
        await restarted.load()
        assert restarted.reviews.recovered == [game.id]
        outcome = await restarted.review(game.id)
        assert outcome.new_facts > 0
        assert await store.pending_reviews() == []
        assert_proven(Memory.stored(await store.load_facts(GUILD, CLASSIC), game=CLASSIC))
    finally:
        await restarted.close()
        await store.close()


async def test_a_worker_that_died_is_replaced_and_the_review_still_lands(service):
    first = await lose_a_game(service)
    await service.review(first.game.id)
    pid = service.reviews.worker.pid()
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    second = await lose_a_game(service, GUILD + 1, CHANNEL + 1)  # a server that knows nothing
    outcome = await service.review(second.game.id)
    assert outcome is not None and outcome.new_facts > 0
    assert service.reviews.worker.pid() not in (None, pid)
    assert (await service.store.game(second.game.id)).review == REVIEW_DONE


async def test_a_worker_that_died_while_idle_is_replaced_when_next_asked(service):
    """The pool has seen its process die (it refuses new work at once) before the next
    post-mortem asks: that one starts another worker, as for one that dies under it."""
    first = await lose_a_game(service)
    await service.review(first.game.id)
    pid = service.reviews.worker.pid()
    os.kill(pid, signal.SIGKILL)
    for _ in range(3000):  # until the pool has reaped it, so it knows it is broken
        if not Path(f"/proc/{pid}").exists():
            break
        await asyncio.sleep(0.01)
    assert not Path(f"/proc/{pid}").exists()
    second = await lose_a_game(service, GUILD + 1, CHANNEL + 1)
    outcome = await service.review(second.game.id)
    assert outcome is not None and outcome.new_facts > 0
    assert service.reviews.worker.pid() not in (None, pid)


async def test_without_the_solver_the_game_ends_and_learns_by_the_rules(tmp_path, monkeypatch):
    monkeypatch.setenv(SOLVER_SWITCH, "off")
    assert not PostMortemWorker().available
    store = await Store.open(tmp_path / "no-solver.sqlite3")
    service = GameService(store, timeout_seconds=600)
    try:
        await service.load()
        turn = await lose_a_game(service)
        assert not turn.reviewing and turn.lessons  # the rules learned the last move
        assert await service.review(turn.game.id) is None
        assert not service.reviews.worker.started
        record = await store.game(turn.game.id)
        assert record.review is None and record.result == "player_won"
        assert await store.count_facts(GUILD, CLASSIC) == len(turn.lessons)
    finally:
        await service.close()
        await store.close()


async def test_a_watched_game_between_members_is_reviewed_for_both_sides(service):
    challenge = await service.challenges.issue(GUILD, CHANNEL, ALICE, BOB, "me", game=CLASSIC)
    turn = await service.challenges.accept(challenge.id, BOB)
    while turn.game.running:
        member = turn.game.member_playing(turn.game.board.turn)
        turn = await service.move(CHANNEL, member, best_column(turn.game.moves))
    assert turn.reviewing
    outcome = await service.review(turn.game.id)
    assert outcome.verdict is None  # no bot's side to judge
    memory = await stored_facts(service)
    assert_proven(memory)
    # facts after columns of both sides: positions with an odd and an even stone count
    parities = {
        sum(1 for cell in RULES.cells(RULES.key_code(key)) if cell) % 2
        for key, _value, _plies in memory.distances()
    }
    assert parities == {0, 1}
    assert (await service.store.game(turn.game.id)).review == REVIEW_DONE


async def test_a_review_of_a_game_deleted_meanwhile_teaches_the_cache_nothing(service):
    """The server's data is deleted while its game is reviewed: nothing is stored, and
    the cached memory does not keep what the review found (it matches the store)."""
    turn = await lose_a_game(service)
    await service.servers.erase_server(GUILD)  # before the worker has answered
    outcome = await service.review(turn.game.id)
    assert outcome is not None and outcome.new_facts == 0
    assert await service.store.game(turn.game.id) is None
    assert len(await service.memory(GUILD, CLASSIC)) == len(await stored_facts(service)) == 0


async def test_a_post_mortem_past_its_time_ends_its_worker_and_the_next_one_works():
    """A solver stuck on one game would hold up every review behind it: past its time,
    the worker is ended (the review stays pending) and the next post-mortem starts anew."""
    moves = perfect_game()
    worker = PostMortemWorker(seconds=0.01)  # less than the worker takes to start
    try:
        with pytest.raises(WorkerGone, match="took over"):
            await worker.post_mortem(CLASSIC, tuple(moves), 2)
        assert not worker.started
        worker.seconds = 60
        facts = await worker.post_mortem(CLASSIC, tuple(moves), 2)
        assert facts and worker.started
    finally:
        worker.close()


async def test_a_review_owed_with_no_task_running_is_caught_up_without_a_restart(service):
    """A game whose end was stored while the answer about it was lost (or whose review a
    database blip stopped) is reviewed at the next sweep, not only at the next start."""
    game = await owed_review(service)
    assert await service.review(game.id) is None  # no task runs it in this process
    await service.reviews.catch_up()
    outcome = await service.review(game.id)
    assert outcome is not None and outcome.new_facts > 0
    assert await service.store.pending_reviews() == []
    assert_proven(await stored_facts(service))


async def test_a_review_that_failed_is_tried_again_by_the_sweep(service, monkeypatch):
    monkeypatch.setattr(reviews, "RETRY_SECONDS", 0)  # not two minutes, in a test
    worker, tries = service.reviews.worker, []
    solve = worker.post_mortem

    async def dying_twice(*args):  # the first try and its one retry meet a dead worker
        tries.append(args)
        if len(tries) <= 2:
            raise WorkerGone("killed")
        return await solve(*args)

    monkeypatch.setattr(worker, "post_mortem", dying_twice)
    turn = await lose_a_game(service)
    assert await service.review(turn.game.id) is None  # its board says it will try again
    await asyncio.sleep(0.01)  # the failed review gives its place up
    await service.reviews.catch_up()
    outcome = await service.review(turn.game.id)
    assert outcome is not None and outcome.new_facts > 0 and len(tries) == 3
    assert await service.store.pending_reviews() == []


async def test_reviews_wait_in_one_queue_and_finished_ones_are_plain_records(service, monkeypatch):
    """A burst of losses is a queue worked by one task, not a task (and a timer) per game;
    a finished review stays as a plain record, the oldest dropped as new ones finish."""
    monkeypatch.setattr(reviews, "KEPT_AT_MOST", 2)
    loop = asyncio.get_running_loop()
    timers = len(loop._scheduled)
    ends = [await owed_review(service, channel=CHANNEL + n) for n in range(3)]
    await service.reviews.catch_up()  # as a sweep finds them: all queued at once
    assert service.reviews.queued == 3
    runners = [t for t in asyncio.all_tasks() if "_consume" in repr(t.get_coro())]
    assert len(runners) == 1  # one consumer for the three
    outcomes = [await service.review(game.id) for game in ends]
    assert all(outcome is not None and outcome.game.id == game.id for outcome, game in
               zip(outcomes, ends, strict=True))  # fmt: skip
    await asyncio.sleep(0)
    assert service.reviews.queued == 0
    assert not [t for t in asyncio.all_tasks() if "_consume" in repr(t.get_coro())]
    assert len(loop._scheduled) <= timers  # no timer kept a finished review
    # the two last are kept, the first was dropped when the third finished
    assert await service.review(ends[0].id) is None
    kept = await service.review(ends[2].id)
    assert kept is not None and kept.new_facts == outcomes[2].new_facts
    assert kept.verdict == outcomes[2].verdict
