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
