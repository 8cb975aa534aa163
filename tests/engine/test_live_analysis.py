"""The incremental analysis always equals a full one, however the memory grows."""

import random

import pytest

import engine
from engine import LiveAnalysis, Mark, Memory
from engine.tictactoe import EMPTIES, WINNER, replay


def random_game(rng: random.Random) -> list[int]:
    moves: list[int] = []
    while True:
        codes = replay(moves)
        code = codes[-1] if codes else 0
        if WINNER[code] or not EMPTIES[code]:
            return moves
        moves.append(rng.choice(EMPTIES[code]))


@pytest.mark.parametrize("seed", range(6))
def test_counts_equal_a_full_analysis_after_every_game(seed):
    rng = random.Random(seed)
    memory = Memory()
    live = LiveAnalysis(memory)
    for n in range(400):
        lessons = memory.learn(random_game(rng))
        if n % 3 == 0 or lessons:
            live.learned(lesson.after for lesson in lessons)
        if n % 7 == 0:  # facts from elsewhere (a training's merge): noticed by the size
            engine.train(memory, 5, opponent="random")
        for role in (Mark.X, Mark.O):
            assert live.losing_lines(role) == engine.analyse(memory, role).losing_lines
    assert len(memory) > 100


def test_it_reaches_unbeatable_with_the_teacher():
    memory = Memory()
    live = LiveAnalysis(memory)
    for _ in range(40):
        engine.train(memory, 20, opponent="teacher")
        assert live.losing_lines(Mark.X) == engine.analyse(memory, Mark.X).losing_lines
        assert live.losing_lines(Mark.O) == engine.analyse(memory, Mark.O).losing_lines
    assert live.losing_lines(Mark.X) == live.losing_lines(Mark.O) == 0


@pytest.mark.parametrize("game", ["tictactoe", "connect4"])
def test_a_change_that_keeps_the_size_is_noticed(game):
    """A memory cleared and refilled to the same size (or changed through another Memory
    over its table) is a different memory: the counts start afresh (issue 16, item 15)."""
    memory = Memory(game=game)
    engine.train(memory, 300, seed=1)
    live = LiveAnalysis(memory)
    before = live.losing_lines(Mark.X), live.losing_lines(Mark.O)
    other = Memory(game=game)
    engine.train(other, 3000, seed=2)
    refill = list(other)[: len(memory)]
    memory.clear()
    for fact in refill:
        memory.add(fact.position, fact.outcome)
    assert len(memory) == len(refill)
    for role in (Mark.X, Mark.O):
        assert live.losing_lines(role) == engine.analyse(memory, role).losing_lines
    assert (live.losing_lines(Mark.X), live.losing_lines(Mark.O)) != before


def test_live_counts_equal_a_full_analysis_on_connect4():
    rng = random.Random(3)
    memory = Memory(game="connect4")
    live = LiveAnalysis(memory)
    for _ in range(150):
        board = engine.Board(game="connect4")
        while not board.is_game_over():
            board.push(rng.choice(board.legal_moves))
        lessons = memory.learn(board.moves)
        live.learned(lesson.after for lesson in lessons)
        for role in (Mark.X, Mark.O):
            assert live.losing_lines(role) == engine.analyse(memory, role).losing_lines
