import pytest

import engine
from engine import Board, Mark, Memory
from tests.engine.test_learning import assert_sound


def test_training_against_random_makes_the_bot_unbeatable_in_both_roles():
    memory = Memory()
    assert engine.analyse(memory, Mark.X).beatable and engine.analyse(memory, Mark.O).beatable
    report = engine.train(memory, 20_000, opponent="random", seed=1)
    assert report.games == 20_000 == report.wins + report.losses + report.draws
    assert report.new_facts == len(memory)
    assert not engine.analyse(memory, Mark.X).beatable
    assert not engine.analyse(memory, Mark.O).beatable


def test_progress_is_reported_in_order_up_to_the_total():
    seen = []
    engine.train(Memory(), 1000, seed=2, progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (1000, 1000)
    assert [d for d, _ in seen] == sorted({d for d, _ in seen}) and len(seen) == 100
    seen.clear()
    engine.train(Memory(), 10, seed=2, progress=lambda *a: seen.append(a), progress_every=4)
    assert seen == [(4, 10), (8, 10), (10, 10)]


def test_a_single_role_counts_results_from_the_bots_side():
    memory = Memory()
    naive_x = engine.train(memory, 1, role=Mark.X, opponent=lambda board: board.legal_moves[-1])
    # X takes 0,1,2 while the opponent fills from the end: X wins at once
    assert (naive_x.wins, naive_x.losses, naive_x.draws) == (1, 0, 0)


def test_self_play_and_a_callable_opponent_learn_soundly():
    memory = Memory()
    assert engine.train(memory, 3000, opponent="self", seed=5).new_facts > 0
    engine.train(memory, 200, opponent=lambda board: board.legal_moves[0], seed=5)
    assert_sound(memory)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"games": -1}, "games"),
        ({"games": 5, "opponent": "perfect"}, "opponent"),
        ({"games": 5, "role": "X"}, "role"),
        ({"games": 5, "opponent": lambda board: 9}, "not a free cell"),
    ],
)
def test_bad_training_requests_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        engine.train(Memory(), **kwargs)


def test_board_passed_to_a_callable_opponent_is_the_live_position():
    seen = []

    def opponent(board: Board) -> int:
        seen.append(board.position)
        return board.legal_moves[0]

    engine.train(Memory(), 1, role=Mark.O, opponent=opponent)
    assert seen[0] == "........."


def test_the_teacher_makes_the_bot_unbeatable_in_few_games_and_teaches_only_truths():
    memory = Memory()
    report = engine.train(memory, 1000, opponent="teacher", seed=3)
    assert report.losses > 0  # it did find lines that beat the bot
    assert not engine.analyse(memory, Mark.X).beatable
    assert not engine.analyse(memory, Mark.O).beatable
    assert_sound(memory)


def test_the_teacher_wins_every_game_it_can_against_a_fresh_bot():
    # The naive bot (first free cell) loses to the teacher as X and as O alike at first.
    first_x = engine.train(Memory(), 1, opponent="teacher", role=Mark.X, seed=1)
    first_o = engine.train(Memory(), 1, opponent="teacher", role=Mark.O, seed=1)
    assert first_x.losses == first_o.losses == 1


def test_self_play_without_exploring_plays_the_bots_own_policy_on_both_sides():
    trained = Memory()
    engine.train(trained, 1, opponent="self", role=Mark.X, explore=0.0, seed=1)
    watched = Memory()
    engine.learn(watched, [0, 1, 2, 3, 4, 5, 6])  # the naive policy against itself
    assert trained == watched and len(trained) > 0
