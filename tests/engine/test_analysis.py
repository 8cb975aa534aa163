import itertools

import engine
from engine import Board, Mark, Memory


def brute_force_losing_lines(memory: Memory, role: Mark) -> int:
    """Count opponent lines by playing every opponent move sequence out, no memo."""
    count = 0

    def walk(board: Board) -> None:
        nonlocal count
        if board.is_game_over():
            count += board.winner is role.other
            return
        if board.turn is role:
            board.push(engine.choose_move(memory, board))
            walk(board)
            board.pop()
            return
        for cell in board.legal_moves:
            board.push(cell)
            walk(board)
            board.pop()

    walk(Board())
    return count


def test_line_counts_match_a_brute_force_walk_as_memory_grows():
    memory = Memory()
    for games in itertools.chain([0], itertools.repeat(150, 6)):
        engine.train(memory, games, seed=games + len(memory))
        for role in Mark:
            found = engine.analyse(memory, role)
            assert found.losing_lines == brute_force_losing_lines(memory, role)
            assert found.beatable == (found.losing_lines > 0)


def test_an_empty_memory_is_beatable_in_both_roles():
    assert engine.analyse(Memory(), Mark.X).losing_lines > 0
    assert engine.analyse(Memory(), Mark.O).losing_lines > 0


def test_winning_replies_are_exactly_the_moves_that_keep_a_forced_win():
    memory = Memory()
    engine.train(memory, 40, seed=9)
    policy = lambda code: engine.policy.choose_code(memory, code)  # noqa: E731
    replies = engine.winning_replies(policy, Mark.O, Board().code)
    assert replies  # a young bot playing O can be beaten
    for cell in range(9):
        board = Board.from_moves([cell])
        board.push(engine.choose_move(memory, board))
        keeps_win = bool(engine.winning_replies(policy, Mark.O, board.code))
        assert keeps_win == (cell in replies)
