"""Connect Four on the shared engine: its rules, and every fact it learns judged by an
exact solver written without the engine (tests/engine/connect4_oracle.py)."""

import json
import random

import pytest

import engine
from engine import LOSS, WIN, Board, Mark, Memory, MemoryFormatError
from tests.engine.connect4_oracle import solver

BOARDS = {"connect4": (4, 4), "connect4-5x4": (5, 4)}


def random_game(rng: random.Random, game: str) -> list[int]:
    board = Board(game=game)
    while not board.is_game_over():
        board.push(rng.choice(board.legal_moves))
    return list(board.moves)


def assert_true_by_the_solver(memory: Memory) -> None:
    judge = solver(memory.game.width, memory.game.height)
    wrong = [f for f in memory if f.outcome.value != judge.true_outcome(f.position)]
    assert not wrong, wrong[:5]


# --- the rules ----------------------------------------------------------------------------
@pytest.mark.parametrize("game", BOARDS)
def test_random_games_follow_the_rules_as_the_solver_reads_them(game):
    width, height = BOARDS[game]
    judge, rng = solver(width, height), random.Random(3)
    for _ in range(300):
        board = Board(game=game)
        while not board.is_game_over():
            position = board.position
            free = [c for c in range(width) if position[c] == "."]  # the top row's holes
            assert list(board.legal_moves) == free
            board.push(rng.choice(free))
            # the string round-trips, and the engine's winner is the solver's
            assert Board(board.position, game=game) == board
            winner = judge.has_four(board.position)
            assert (board.winner.name if board.winner else None) == winner
        assert board.winner or "." not in board.position


def test_a_stone_falls_to_the_bottom_of_its_column():
    board = Board(game="connect4")
    board.push(1)  # X in column 2
    board.push(1)  # O on top of it
    board.push(3)
    assert str(board) == "....\n....\n.O..\n.X.X"
    assert board.turn is Mark.O
    assert board.pop() == 3 and board.position == ".........O...X.."


def test_a_full_column_is_not_a_legal_move():
    board = Board.from_moves([0, 0, 0, 0], game="connect4")
    assert board.legal_moves == (1, 2, 3)
    with pytest.raises(engine.IllegalMoveError, match="column 0 is full"):
        board.push(0)
    with pytest.raises(engine.IllegalMoveError, match=r"not a column 0\.\.3"):
        board.push(4)


def test_four_in_a_row_ends_the_game_in_every_direction():
    across = Board.from_moves([0, 0, 1, 1, 2, 2, 3], game="connect4")
    up = Board.from_moves([0, 1, 0, 1, 0, 1, 0], game="connect4")
    diagonal = Board.from_moves([0, 1, 1, 2, 2, 3, 2, 3, 3, 0, 3], game="connect4")
    for board in (across, up, diagonal):
        assert board.winner is Mark.X and board.is_game_over() and not board.legal_moves


@pytest.mark.parametrize(
    ("position", "why"),
    [
        ("X" * 16, "cannot arise"),  # counts
        ("....X...........", "over an empty cell"),  # floating
        ("................"[:15] + "O", "cannot arise"),  # O moved first
        # X moved last, yet every column's top stone is O's: no order of play made it
        (".....O..OX..XX..", "cannot arise"),
        ("XXXXOOO.........", "over an empty cell"),
        ("............OOOO", "cannot arise"),  # counts
        ("....O...OOO.XXXX", "cannot arise"),  # O moved after X's four ended the game
        ("abc", "16 characters"),
        ("...............Z", "use only"),
    ],
)
def test_positions_that_cannot_arise_are_refused(position, why):
    with pytest.raises(ValueError, match=why):
        Board(position, game="connect4")
    with pytest.raises(ValueError, match=why):
        Memory(game="connect4").add(position, "win")


def test_a_win_that_needed_a_move_after_another_win_is_refused():
    # X's four across the bottom and O's four above: the game ended before one of them
    with pytest.raises(ValueError, match="cannot arise"):
        Board("........OOOOXXXX", game="connect4")


def test_the_mirror_is_the_only_symmetry_and_one_lesson_covers_both():
    memory = Memory(game="connect4")
    moves = [0, 0, 1, 1, 2, 2, 3]  # X wins across from the left
    engine.learn(memory, moves)
    mirrored = [3 - m for m in moves]
    assert engine.learn(memory, mirrored) == 0  # already known, as its mirror
    assert memory.outcome("........OOO.XXXX") is WIN
    assert engine.canonical("........OOO.XXXX", "connect4") == engine.canonical(
        ".........OOOXXXX", "connect4"
    )


# --- the policy -----------------------------------------------------------------------------
def test_the_naive_bot_takes_the_leftmost_column_not_known_to_lose():
    memory = Memory(game="connect4")
    assert engine.choose_move(memory, Board(game="connect4")) == 0
    # X plays 0,0,0 while O plays 1,1: X's fourth in column 0 wins; O, to move, learns
    # that stacking column 1 lost
    engine.learn(memory, [0, 1, 0, 1, 0, 1, 0])
    board = Board.from_moves([0, 1, 0, 1, 0], game="connect4")
    assert engine.outlook(memory, board)[1] is LOSS  # O's move that let X win
    assert engine.choose_move(memory, board) == 0  # it blocks: column 1 is not known to lose


def test_a_known_winning_column_is_played():
    memory = Memory(game="connect4")
    engine.learn(memory, [0, 1, 0, 1, 0, 1, 0])
    board = Board.from_moves([0, 1, 0, 1, 0, 1], game="connect4")
    assert engine.choose_move(memory, board) == 0
    assert engine.choose_move(memory, board.position) == 0


def test_a_board_of_another_game_is_refused():
    with pytest.raises(ValueError, match="Tic-tac-toe board"):
        engine.choose_move(Memory(game="connect4"), Board())


# --- every fact is true ------------------------------------------------------------------
@pytest.mark.parametrize("game", BOARDS)
@pytest.mark.parametrize("opponent", ["random", "self", "teacher"])
def test_every_fact_learned_in_training_is_true(game, opponent):
    memory = Memory(game=game)
    games = {"random": 20_000, "self": 5_000, "teacher": 1_500}[opponent]
    if game == "connect4-5x4" and opponent == "teacher":
        games = 400  # its teacher searches a much larger tree
    report = engine.train(memory, games, opponent=opponent, seed=5)
    assert report.new_facts == len(memory) > 500
    assert_true_by_the_solver(memory)


@pytest.mark.parametrize("game", BOARDS)
def test_every_fact_learned_from_watched_games_is_true(game):
    memory, rng = Memory(game=game), random.Random(11)
    lessons = [lesson for _ in range(2_000) for lesson in memory.learn(random_game(rng, game))]
    assert len(lessons) == len(memory) > 300
    assert_true_by_the_solver(memory)
    width, height = BOARDS[game]
    judge = solver(width, height)
    for lesson in lessons[:300]:  # told in the game's own orientation, of the right mover
        assert lesson.outcome.value == judge.true_outcome(lesson.after)
        assert lesson.after.count(".") == lesson.before.count(".") - 1


def test_the_teacher_makes_4x4_unbeatable_and_analyse_agrees_with_the_solver():
    memory = Memory(game="connect4")
    engine.train(memory, 3_000, opponent="teacher", seed=1)
    for role in (Mark.X, Mark.O):
        assert not engine.analyse(memory, role).beatable
    judge = solver(4, 4)
    # 4×4 is a draw: against every opponent line, the bot never makes a losing move
    # (by the solver) and never loses
    for role in (Mark.X, Mark.O):
        for board, finished in games_against(memory, role):
            if finished:
                assert board.winner is not role.other, board.moves
            else:
                assert judge.true_outcome(board.position) != "loss", board.moves


@pytest.mark.parametrize("role", [Mark.X, Mark.O])
def test_analyse_counts_the_lines_that_beat_the_bot_as_brute_force_does(role):
    memory = Memory(game="connect4")
    engine.train(memory, 300, seed=8)
    lines = sum(
        board.winner is role.other for board, finished in games_against(memory, role) if finished
    )
    assert engine.analyse(memory, role).losing_lines == lines > 0


def games_against(memory: Memory, role: Mark):
    """Every line of play against the bot playing ``role`` from ``memory``, by brute force
    with ``engine.choose_move``: yields ``(board, False)`` right after each of the bot's
    moves, and ``(board, True)`` for each finished game."""
    stack = [Board(game=memory.game)]
    while stack:
        board = stack.pop()
        if board.is_game_over():
            yield board, True
        elif board.turn is role:
            board.push(engine.choose_move(memory, board))
            yield board, False
            stack.append(board)
        else:
            for move in board.legal_moves:
                child = board.copy()
                child.push(move)
                stack.append(child)


# --- moving a memory ----------------------------------------------------------------------
@pytest.mark.parametrize("game", BOARDS)
def test_export_names_its_game_and_board_and_imports_back(game):
    memory = Memory(game=game)
    engine.train(memory, 3_000, seed=2)
    for compact in (True, False):  # version 2, as the bot writes; version 1, as it did
        document = engine.export_memory(memory, compact=compact)
        assert document["game"] == "connect4"
        assert document["board"] == "{}x{}".format(*BOARDS[game])
        again = engine.import_memory(json.dumps(document))
        assert again == memory and again.game is memory.game
        assert engine.import_memory(document, game=game) == memory
    width, height = BOARDS[game]
    assert all(len(f["position"]) == width * height for f in document["facts"])


def _facts_document(memory: Memory) -> dict:
    return json.loads(json.dumps(engine.export_memory(memory, compact=False)))


def test_a_flipped_fact_is_refused_naming_it():
    memory = Memory(game="connect4")
    engine.train(memory, 2_000, seed=3)
    document = _facts_document(memory)
    index = next(i for i, f in enumerate(document["facts"]) if f["outcome"] == "loss")
    document["facts"][index]["outcome"] = "win"
    with pytest.raises(MemoryFormatError, match=rf"facts\[{index}\]"):
        engine.import_memory(document)


def connect4_document(position: str, outcome: str) -> dict:
    """A 4x4 document of one fact."""
    return {
        "format": "ttt-memory",
        "version": 1,
        "game": "connect4",
        "board": "4x4",
        "facts": [{"position": position, "outcome": outcome}],
    }


def test_an_unproven_fact_is_refused():
    # X's second stone in column 0: true or not, nothing in the document proves it
    document = connect4_document("........X...X..O", "loss")
    with pytest.raises(MemoryFormatError, match=r"facts\[0\].*not proven"):
        engine.import_memory(document)


def test_an_illegal_position_is_refused():
    document = connect4_document("....X...........", "win")  # a stone in the air
    with pytest.raises(MemoryFormatError, match=r"facts\[0\].*empty cell"):
        engine.import_memory(document)


def test_a_document_of_one_game_is_refused_by_another():
    tictactoe = Memory()
    engine.train(tictactoe, 500, seed=1)
    four = Memory(game="connect4")
    engine.train(four, 500, seed=1)
    with pytest.raises(MemoryFormatError, match="Tic-tac-toe memory, not a Connect Four 4×4"):
        engine.import_memory(engine.export_memory(tictactoe), game="connect4")
    with pytest.raises(MemoryFormatError, match="Connect Four 4×4 memory, not a Tic-tac-toe"):
        engine.import_memory(engine.export_memory(four), game="tictactoe")
    with pytest.raises(MemoryFormatError, match="4×4 memory, not a Connect Four 5×4"):
        engine.import_memory(engine.export_memory(four), game="connect4-5x4")
    wrong_board = {**engine.export_memory(four), "board": "6x7"}
    with pytest.raises(MemoryFormatError, match="unknown"):
        engine.import_memory(wrong_board)


# --- size -----------------------------------------------------------------------------------
def test_a_connect4_memory_keeps_4_bytes_a_fact_and_wraps_its_buffer_again():
    memory = Memory(game="connect4-5x4")
    engine.train(memory, 2_000, seed=4)
    assert memory.nbytes == 4 * len(memory)
    view = Memory.over(memory.table, game="connect4-5x4")
    assert view == memory and len(view) == len(memory) and view.table is memory.table
