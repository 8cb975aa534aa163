"""Replays and histories in the game flow: real SQLite files, no mocks."""

import pytest

import engine
from engine import LOSS, WIN, Mark
from gameflow import GameError
from gameflow.replays import GONE, NOT_HERE, lessons_by_step

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
    await service.forget_player(GUILD, ALICE)
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
