"""Puzzles through the game flow: cut from a post-mortem as it is stored, or from games
looked back at before puzzles existed (once, when a server first asks); posed from the
memory's facts, and dropped once the memory no longer proves them (a reset)."""

from __future__ import annotations

import pytest

from engine import get_game
from engine.puzzles import classify
from engine.puzzles import column_values as engine_values
from gameflow.memories import classic_facts
from gameflow.puzzles import Puzzles, TooFewPuzzles, known_in
from tests.cogs.puzzles.test_puzzles import AGAINST_THE_BOT, MISSED, assert_one_answer
from tests.engine.connect4_7x6_oracle import column_values

GUILD, CHANNEL, ALICE, BOB = 1, 10, 100, 200
CLASSIC = "connect4-7x6"
RULES = get_game(CLASSIC)


async def beaten(service) -> int:
    """The bot (first, from an empty memory) beaten along :data:`AGAINST_THE_BOT`, its
    post-mortem stored; the game's id."""
    turn = await service.start(GUILD, CHANNEL, ALICE, bot_first=True, game=CLASSIC)
    while turn.game.running:
        ply = len(turn.game.moves)
        assert list(turn.game.moves) == AGAINST_THE_BOT[:ply]
        turn = await service.move(CHANNEL, ALICE, AGAINST_THE_BOT[ply] + 1)
    assert turn.game.result == "player_won"
    assert (await service.review(turn.game.id)).new_facts > 0
    return turn.game.id


async def test_a_post_mortem_gives_its_puzzle_as_it_is_stored(service):
    puzzles = service.puzzles
    game_id = await beaten(service)
    cuts = await service.store.fresh_puzzles(GUILD, CLASSIC, 0, 10)
    (cut,) = [c for c in cuts if c.player_id is None]  # where I was to move
    (won,) = [c for c in cuts if c.player_id is not None]  # where alice was
    # alice's own position, a move later: one column wins, valued from my replies to
    # each of her columns (the widened post-mortem valued every one)
    assert (won.moves, won.kind, won.answer) == (tuple(AGAINST_THE_BOT[: MISSED + 1]), "win", 0)
    assert won.player_id == ALICE and won.other_id is None and won.found and won.beat_bot
    assert_one_answer(won)
    assert (cut.game_id, cut.kind, cut.answer, cut.moves) == (
        game_id,
        "hold",
        0,
        tuple(AGAINST_THE_BOT[:MISSED]),
    )
    assert cut.player_id is None and cut.other_id == ALICE and not cut.found and cut.beat_bot
    assert_one_answer(cut)
    posed = await puzzles.pose(GUILD, BOB)
    assert posed.puzzle == cut and posed.values[0] == ("draw", None)
    assert all(outcome == "loss" for c, (outcome, _) in posed.values.items() if c != 0)
    following = await puzzles.pose(GUILD, BOB)
    assert following.puzzle == won  # every column's value as the tests' own solver says
    code = RULES.replay(list(won.moves))[-1]
    oracle = column_values(RULES.spell(code))
    assert {c: v if v[0] != "draw" else None for c, v in following.values.items()} == oracle


async def test_a_position_one_reply_away_is_proven_by_the_widened_post_mortem_but_no_puzzle(
    service,
):
    puzzles = service.puzzles
    await beaten(service)
    # had alice answered my 14th move with column 1 (she played 6), 🔴 would have had one
    # winning column, 6: the widened post-mortem proved every column of that position
    assert AGAINST_THE_BOT[27] == 5
    code = RULES.replay([*AGAINST_THE_BOT[:27], 0])[-1]
    fact = known_in(await service.memories.get(GUILD, CLASSIC))
    proved = {column: fact(key) for column, _child, key in RULES.moves(code)}
    oracle = column_values(RULES.spell(code))  # the tests' own solver
    assert proved == oracle and [c for c, v in oracle.items() if v and v[0] == "win"] == [5]
    draws = sum(1 << column for column, value in proved.items() if value is None)
    assert classify(engine_values(RULES, code, fact, draws)) == ("win", 5)  # a puzzle's shape
    # but nobody reached it: the game's own positions are the only puzzles
    cuts = await service.store.fresh_puzzles(GUILD, CLASSIC, 0, 10)
    assert {c.moves for c in cuts} == {tuple(AGAINST_THE_BOT[:ply]) for ply in (MISSED, MISSED + 1)}
    await puzzles.pose(GUILD, BOB)  # going through the server's games adds none either
    assert await service.store.count_puzzles(GUILD, CLASSIC) == 2


def before_puzzles(service) -> None:
    """The service as it was before puzzles: its post-mortems cut none."""
    service.reviews.reviewed.remove(service.puzzles.cut)


def another_process(service) -> Puzzles:
    """The puzzles of another process over the same store."""
    return Puzzles(service.store, service.memories, service.reviews.worker, service.clock)


async def test_games_looked_back_at_before_puzzles_are_cut_once_when_first_asked(service):
    before_puzzles(service)
    game_id = await beaten(service)  # no puzzles were cut: as before an upgrade
    assert await service.store.count_puzzles(GUILD, CLASSIC) == 0
    puzzles = service.puzzles
    posed = await puzzles.pose(GUILD, BOB)
    assert posed.puzzle.game_id == game_id and posed.puzzle.kind == "hold"
    assert_one_answer(posed.puzzle)
    assert await service.store.puzzle_scan(GUILD, CLASSIC) == game_id
    again = another_process(service)  # another process: goes through nothing new
    await again.pose(GUILD, ALICE)
    assert await service.store.count_puzzles(GUILD, CLASSIC) == 1


async def test_a_reset_memory_no_longer_proves_its_puzzles_so_they_go(service):
    puzzles = service.puzzles
    await beaten(service)
    assert await service.store.count_puzzles(GUILD, CLASSIC) == 2  # mine, and alice's
    await service.reset_memory(GUILD, CLASSIC)
    with pytest.raises(TooFewPuzzles) as none:
        await puzzles.pose(GUILD, BOB)
    assert none.value.have == 0 and none.value.games == 2
    assert await service.store.count_puzzles(GUILD, CLASSIC) == 0


async def test_old_games_of_a_memory_once_imported_into_give_only_what_each_column_proves(
    service,
):
    before_puzzles(service)
    await beaten(service)  # before puzzles: its hold's answer is a draw, which is no fact
    empty = classic_facts(CLASSIC, [])
    await service.store.add_facts(GUILD, empty, game=CLASSIC, now=2.0)  # an import: version 1
    assert await service.store.memory_version(GUILD, CLASSIC) == 1
    with pytest.raises(TooFewPuzzles):
        await service.puzzles.pose(GUILD, BOB)
    assert await service.store.puzzle_scan(GUILD, CLASSIC) > 0  # gone through, all the same


def _record(puzzle_id: int, game_id: int | None, moves: list[int], answer: int):
    from data.puzzles import PuzzleRecord

    return PuzzleRecord(
        puzzle_id, GUILD, CLASSIC, tuple(moves), "win", answer, 0, game_id, ALICE, BOB,
        True, False, 0.0, None,
    )  # fmt: skip


def test_a_games_puzzles_are_spread_apart_and_never_given_away_by_the_last():
    from gameflow.puzzle_order import gives_away, preferred

    line = [3, 3, 2, 4, 2, 2, 1, 5, 6, 0]
    a1, a2, a3 = (_record(n, 1, line[:ply], line[ply]) for n, ply in ((1, 4), (2, 6), (3, 8)))
    b1, b2 = _record(4, 2, [0, 1], 3), _record(5, 2, [0, 1, 3, 3], 2)
    best_first = [a3, a2, a1, b2, b1]  # the newest game's last position first
    assert gives_away(a1, a3) and gives_away(a2, a3) and not gives_away(a3, a1)
    assert preferred(best_first, None) == [a1, a2, a3, b1, b2]  # a game's earliest first
    assert preferred(best_first, a1)[0] == b1  # then another game's
    assert preferred([a3, a2], b1)[0] == a2
    assert preferred([a2], a3) == []  # a3's board shows a2's answer
    forgotten = _record(6, None, line[:6], line[6])  # its game deleted: known by its moves
    assert preferred([forgotten, b2], a1)[0] == b2


async def test_a_short_win_is_played_on_in_the_worker_and_changes_no_record(service):
    """Alice's own win, a move after the bot's miss (a win in 2 of her moves), played on
    by bob once he answered it: the bot's defence and the next winning column, each as the
    tests' own solver says; a slower win is wrong; a line no button offers is refused;
    the hold is not played on; no record changes."""
    from gameflow import GameError
    from gameflow.puzzle_followups import OFF_THE_LINE

    puzzles = service.puzzles
    await beaten(service)
    hold = await puzzles.pose(GUILD, BOB)
    won = await puzzles.pose(GUILD, BOB)
    assert (hold.puzzle.kind, won.puzzle.kind) == ("hold", "win")
    with pytest.raises(GameError) as unanswered:
        await puzzles.play_on(GUILD, BOB, won.puzzle.id, ())
    assert "Give your answer first" in unanswered.value.message.text
    await puzzles.answer(GUILD, BOB, hold.puzzle.id, 0)
    await puzzles.answer(GUILD, BOB, won.puzzle.id, 0)
    before = await puzzles.standings(GUILD, BOB)
    with pytest.raises(GameError) as hold_refused:
        await puzzles.play_on(GUILD, BOB, hold.puzzle.id, ())
    assert "Only a short win" in hold_refused.value.message.text
    code = RULES.replay(list(won.puzzle.moves))[-1]
    step = await puzzles.play_on(GUILD, BOB, won.puzzle.id, ())
    assert step.right and not step.finished and step.move == 2
    after = RULES.play(code, 0)
    defences = column_values(RULES.spell(after))
    slowest = max(v[1] for v in defences.values())  # every reply loses: the slowest
    assert defences[step.line[1]] == ("loss", slowest)
    ahead = column_values(RULES.spell(RULES.play(after, step.line[1])))
    assert {c: None if v[0] == "draw" else v for c, v in step.ahead.items()} == ahead
    wins = {c: v[1] for c, v in ahead.items() if v and v[0] == "win"}
    (fastest,) = [c for c, plies in wins.items() if plies == min(wins.values())]
    slower = next(c for c, plies in wins.items() if plies > min(wins.values()))
    wrong = await puzzles.play_on(GUILD, BOB, won.puzzle.id, (slower,))
    assert not wrong.right and wrong.ahead is None and wrong.given == slower
    end = await puzzles.play_on(GUILD, BOB, won.puzzle.id, (fastest,))
    assert end.finished and RULES.winner(end.code)
    for forged in ((fastest, 0), (slower, fastest), (2,), (9,), (-1,)):
        with pytest.raises(GameError) as refused:
            await puzzles.play_on(GUILD, BOB, won.puzzle.id, forged)
        assert refused.value.message.text == OFF_THE_LINE.text, forged
    with pytest.raises(GameError) as other:  # alice was never posed it
        await puzzles.play_on(GUILD, ALICE, won.puzzle.id, ())
    assert "not given to you" in other.value.message.text
    assert await puzzles.standings(GUILD, BOB) == before
