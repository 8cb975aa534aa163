import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine import LOSS, WIN, Board, Mark, Memory
from engine.tictactoe import EMPTIES, SYMMETRIES
from tests.engine.oracle import true_outcome


def assert_sound(memory: Memory) -> None:
    for fact in memory:
        assert fact.outcome.value == true_outcome(fact.position), fact


def random_game(rng: random.Random) -> list[int]:
    board = Board()
    while not board.is_game_over():
        board.push(rng.choice(board.legal_moves))
    return list(board.moves)


def bot_game(memory: Memory, bot: Mark, opponent) -> list[int]:
    board = Board()
    while not board.is_game_over():
        board.push(engine.choose_move(memory, board) if board.turn is bot else opponent(board))
    return list(board.moves)


def test_learn_example_from_the_issue():
    memory = Memory()
    assert engine.learn(memory, [4, 0, 1, 2, 7]) == 2
    assert len(memory) == 2
    assert memory.outcome("OXO.X..X.") is WIN  # X completes the middle column
    assert memory.outcome("OXO.X....") is LOSS  # O let X complete it


def test_every_fact_is_true_over_thousands_of_random_games():
    memory, rng = Memory(), random.Random(7)
    for _ in range(3000):
        engine.learn(memory, random_game(rng))
    assert len(memory) > 300
    assert_sound(memory)


def test_every_fact_is_true_against_a_worst_case_teacher():
    memory = Memory()
    policy = lambda code: engine.policy.choose_code(memory, code)  # noqa: E731
    for game in range(400):
        bot = Mark.X if game % 2 == 0 else Mark.O

        def teacher(board, bot=bot):
            wins = engine.winning_replies(policy, bot, board.code)
            return wins[0] if wins else board.legal_moves[-1]

        engine.learn(memory, bot_game(memory, bot, teacher))
    assert_sound(memory)
    assert not engine.analyse(memory, Mark.X).beatable
    assert not engine.analyse(memory, Mark.O).beatable


def test_training_against_random_and_self_stays_sound():
    memory = Memory()
    engine.train(memory, 5000, opponent="random", seed=3)
    engine.train(memory, 5000, opponent="self", seed=4)
    assert_sound(memory)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.randoms(use_true_random=False), min_size=1, max_size=25))
def test_any_sequence_of_games_only_teaches_truths(rngs):
    memory = Memory()
    for rng in rngs:
        engine.learn(memory, random_game(rng))
    assert_sound(memory)


def turn(cell: int, perm) -> int:
    return perm[cell]


def test_a_lesson_in_one_orientation_is_used_in_all_eight():
    lost = [4, 0, 1, 2, 7]  # the bot, as O, answered 4 with 0 and lost
    for perm in SYMMETRIES:
        memory = Memory()
        engine.learn(memory, [turn(c, perm) for c in lost])
        board = Board.from_moves([4, 0, 1])
        # in the original orientation O must not play 2 again: it loses to 7
        assert memory.outcome(Board.from_moves(lost[:4]).position) is LOSS
        assert engine.choose_move(memory, board) != 2
        for other in SYMMETRIES:
            turned = Board.from_moves([turn(c, other) for c in lost[:3]])
            assert engine.choose_move(memory, turned) != turn(2, other)


def test_the_bot_learns_from_a_game_it_only_watched():
    memory = Memory()
    # two people play; X wins with a fork the bot never took part in
    people = [0, 1, 4, 8, 6, 3, 2]
    lessons = memory.learn(people)
    assert [(lesson.ply, lesson.player, lesson.outcome) for lesson in lessons] == [
        (6, Mark.X, WIN),
        (5, Mark.O, LOSS),
    ]
    assert lessons[1].cell == 3 and lessons[1].before == "XO..X.X.O"
    # the bot, now playing O in that position, no longer blocks on the losing cell
    assert engine.choose_move(memory, Board.from_moves(people[:5])) != 3


def test_watch_it_learn_the_same_line_no_longer_wins():
    """Seed 001's story: a person repeats one winning line; after each loss the bot's
    losing move changes, until the line no longer wins."""
    memory = Memory()
    line = [4, 1, 7]  # the person's cells as X: centre, top, bottom (a column)
    answers, results = [], []
    for _ in range(9):
        board = Board()
        for cell in line:
            if board.is_game_over():
                break
            board.push(cell if cell in board.legal_moves else board.legal_moves[0])
            if not board.is_game_over():
                board.push(engine.choose_move(memory, board))
        while not board.is_game_over():
            board.push(board.legal_moves[0])
        answers.append(board.moves[3])  # the bot's reply to the threat on the column
        results.append(board.winner)
        engine.learn(memory, list(board.moves))
        if board.winner is not Mark.X:
            break
    assert results[0] is Mark.X and answers[0] == 2  # naive: first free cell
    assert len(set(answers)) == len(answers)  # a new reply after every loss
    assert answers[-1] == 7 and results[-1] is not Mark.X  # it blocks: the line is dead


def test_a_memory_that_knows_every_move_loses_plays_the_first_free_cell():
    memory = Memory()
    position = "XX..O...."  # O to move must block at 2 or lose
    board = Board(position)
    for cell in board.legal_moves:
        if cell != 2:
            memory.add(Board(position[:cell] + "O" + position[cell + 1 :]).position, LOSS)
    assert engine.choose_move(memory, board) == 2
    memory.add("XXO.O....", LOSS)  # 2 also loses: X forks with 6
    assert engine.choose_move(memory, board) == 2  # the first free cell


def test_a_known_win_is_played_before_the_first_safe_cell():
    memory = Memory()
    memory.add("XXX.OO...", WIN)
    assert engine.choose_move(memory, "XX..OO...") == 2
    assert engine.choose_move(Memory(), "XX..OO...") == 2  # naive first cell anyway
    memory.add("OO.XXX...", WIN)
    assert engine.choose_move(memory, "OO.XX....") == 5


@pytest.mark.parametrize("moves", [[], [0, 1, 2], [0, 0], [0, 3, 1, 4, 2, 5, 6], [9], ["a"]])
def test_learn_rejects_unfinished_or_illegal_games_and_learns_nothing(moves):
    memory = Memory()
    engine.learn(memory, [4, 0, 1, 2, 7])
    before = memory.copy()
    with pytest.raises(ValueError):
        engine.learn(memory, moves)
    assert memory == before


def test_choose_move_rejects_a_finished_or_illegal_position():
    with pytest.raises(ValueError):
        engine.choose_move(Memory(), "XXXOO....")
    with pytest.raises(ValueError):
        engine.choose_move(Memory(), "OO.......")


def test_learning_is_idempotent():
    memory = Memory()
    game = [0, 4, 8, 2, 6, 3, 7]
    assert engine.learn(memory, game) > 0
    assert engine.learn(memory, game) == 0


def test_free_cells_helper_is_consistent():
    assert EMPTIES[0] == tuple(range(9))


def test_a_memory_over_another_s_table_shares_it_and_counts_its_facts():
    memory = Memory()
    memory.learn([0, 3, 1, 4, 2])
    view = Memory.over(memory.table)
    assert view == memory and len(view) == len(memory) > 0 and view.table is memory.table
    lessons = view.learn([4, 0, 8, 2, 1, 6, 7])  # learned through one, known by the other
    assert lessons and all(memory.outcome(lesson.after) is lesson.outcome for lesson in lessons)
    assert len(Memory.over(memory.table)) == len(view)
    with pytest.raises(ValueError, match="191 bytes"):
        Memory.over(bytearray(10))
