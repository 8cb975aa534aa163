"""Replays and histories in the game flow: real SQLite files, no mocks."""

import pytest

import engine
from engine import LOSS, WIN, Mark
from gameflow import GameError
from gameflow.replays import GONE, NOT_HERE, lessons_by_step, marked_move

GUILD, CHANNEL, ALICE, BOB = 1, 10, 100, 200


async def won_by_alice(service):
    await service.start(GUILD, CHANNEL, ALICE, bot_first=False)
    for cell in (1, 4):
        await service.move(CHANNEL, ALICE, cell)
    return await service.move(CHANNEL, ALICE, 7)


async def test_each_step_shows_the_lesson_the_game_taught_at_that_move(service):
    turn = await won_by_alice(service)
    game = turn.game
    stored = {
        engine.canonical(lesson.after, "tictactoe"): lesson for lesson in turn.lessons
    }  # what the board said it learned, by the position it is about
    taught = []
    for step in range(len(game.moves) + 1):
        shown = await service.replays.step(game.id, step, GUILD, CHANNEL)
        assert shown.step == step and shown.total == len(game.moves)
        assert shown.board.moves == game.moves[:step]
        if shown.lesson is not None:
            taught.append(step)
            after = engine.canonical(shown.board.position, "tictactoe")
            lesson = stored[after]
            assert (shown.lesson.move, shown.lesson.mover) == (lesson.cell, lesson.player)
            assert shown.lesson.outcome is lesson.outcome
    assert taught == sorted(lesson.ply + 1 for lesson in turn.lessons)
    assert shown.taught == tuple(taught)


async def test_a_step_out_of_range_is_held_to_the_game(service):
    game = (await won_by_alice(service)).game
    assert (await service.replays.step(game.id, 99, GUILD, CHANNEL)).step == len(game.moves)
    assert (await service.replays.step(game.id, -3, GUILD, CHANNEL)).step == 0


async def test_a_forgotten_game_is_gone_and_another_places_is_refused(service):
    game = (await won_by_alice(service)).game
    with pytest.raises(GameError) as elsewhere:
        await service.replays.step(game.id, 1, GUILD + 1, CHANNEL + 1)
    assert elsewhere.value.message == NOT_HERE
    # from its channel it opens, whatever the place says (a DM's other member)
    assert (await service.replays.step(game.id, 1, -BOB, CHANNEL)).step == 1
    await service.servers.forget_player(GUILD, ALICE)
    with pytest.raises(GameError) as gone:
        await service.replays.step(game.id, 1, GUILD, CHANNEL)
    assert gone.value.message == GONE
    assert await service.replays.history(GUILD, ALICE, ["tictactoe"]) == []


async def test_history_lists_the_game_with_what_it_taught(service):
    turn = await won_by_alice(service)
    (past,) = await service.replays.history(GUILD, ALICE, ["tictactoe"])
    assert past.game.id == turn.game.id and past.lessons == len(turn.lessons)


def test_a_post_mortems_lessons_sit_at_the_position_they_value():
    """The classic board's post-mortem values every column of a position: the played
    one is the move's lesson, the others are told beside it."""
    rules = engine.get_game("connect4-7x6")
    moves = [2, 3, 3, 3, 3, 3, 4]  # no symmetry from move 1 on
    before = rules.replay(moves[:2])[-1]
    facts = [
        (rules.spell(rules.play(before, 3)), "loss", 9),  # the played column, move 3
        (rules.spell(rules.play(before, 0)), "win", 11),
        (rules.spell(rules.play(before, 6)), "loss", 7),
    ]
    found = lessons_by_step("connect4-7x6", moves, facts)
    assert list(found) == [3]
    lesson, others = found[3]
    assert (lesson.move, lesson.mover, lesson.outcome, lesson.plies) == (3, Mark.X, LOSS, 9)
    assert [(o.move, o.outcome) for o in others] == [(0, WIN), (6, LOSS)]


def stored_post_mortem(moves, bot):
    """A 7×6 game's post-mortem facts as the store gives them back: (canonical key,
    outcome, plies), widened positions included."""
    return list(engine.post_mortem("connect4-7x6", moves, bot))


def classic_game(moves, bot_mark):
    from gameflow import Game

    return Game(1, GUILD, 2, ALICE, bot_mark, tuple(moves), "player_won", None, 0.0,
                kind="connect4-7x6")  # fmt: skip


def test_the_picture_rings_the_post_mortems_move_or_none():
    """Issue 35: on 7×6 the picture rang the bot's first losing move, almost always its
    first; it rings the move the board's lesson names, and nothing when the bot played
    every move as well as it could."""
    from engine.solver import best_columns

    rules = engine.get_game("connect4-7x6")
    opening = rules.play(rules.empty, 0)  # X opens in column 1: the bot (O) can win
    scores = engine.solver.score_all(opening)
    worse = next(c for c, score in scores.items() if score is not None and score[0] == "loss")
    moves, code = [0, worse], rules.play(opening, worse)
    while rules.moves(code) is not None:
        moves.append(best_columns(code)[0])
        code = rules.play(code, moves[-1])
    facts = stored_post_mortem(moves, Mark.O)
    game = classic_game(moves, Mark.O)
    lessons = lessons_by_step("connect4-7x6", moves, facts)
    assert marked_move(game, lessons, facts) == 1  # move 2, the replay's step 2
    # perfect play on both sides: the bot (O) loses, as it must, and made no mistake
    perfect, code = [], rules.empty
    while rules.moves(code) is not None:
        perfect.append(best_columns(code)[0])
        code = rules.play(code, perfect[-1])
    facts = stored_post_mortem(perfect, Mark.O)
    lessons = lessons_by_step("connect4-7x6", perfect, facts)
    assert lessons and marked_move(classic_game(perfect, Mark.O), lessons, facts) is None


async def test_the_lesson_move_counts_the_facts_an_earlier_game_taught_first(service):
    """A game's stored lessons are only the facts it was first to teach: a column of its
    positions an earlier game had proven is missing from them, and would pass for a draw.
    The lesson's move is read with the server's memory, which holds them all."""
    from engine.solver import best_columns
    from gameflow.memories import classic_facts

    store, kind = service.store, "connect4-7x6"
    rules = engine.get_game(kind)
    perfect, code = [], rules.empty  # both sides perfect: the bot (O) loses, no mistake
    while rules.moves(code) is not None:
        perfect.append(best_columns(code)[0])
        code = rules.play(code, perfect[-1])
    facts = stored_post_mortem(perfect, Mark.O)
    after = {move: key for move, _child, key in rules.moves(rules.replay(perfect[:1])[-1])}
    # a column of the bot's first position beside the one it played, every one a loss
    other = next(k for move, k in after.items() if move != perfect[1])
    assert all(outcome == "loss" for key, outcome, _ in facts if key in after.values())

    async def reviewed(moves, taught):
        game = await store.start_game(GUILD, CHANNEL, ALICE, "O", [], now=1.0, game=kind)
        await store.finish_game(
            game.id, GUILD, [], moves, "player_won", classic_facts(kind, []),
            now=2.0, game=kind, review=True,
        )  # fmt: skip
        await store.finish_review(game.id, GUILD, classic_facts(kind, taught), now=3.0, game=kind)
        return game.id

    await reviewed([3, 3], [fact for fact in facts if fact[0] == other])  # taught it first
    game_id = await reviewed(perfect, [fact for fact in facts if fact[0] != other])
    shown = await service.replays.step(game_id, 0, GUILD, CHANNEL)
    assert shown.taught  # its own lessons are there, that one aside
    assert shown.marked is None  # it played every move as well as it could
