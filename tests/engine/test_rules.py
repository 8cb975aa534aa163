import pytest

from engine import Board, IllegalMoveError, Mark
from engine.tictactoe import CANON, SYMMETRIES, WINNER, code_to_string, replay, string_to_code
from tests.engine.oracle import winner


def test_there_are_5478_legal_positions_in_765_classes():
    legal = [c for c in range(len(CANON)) if CANON[c] >= 0]
    assert len(legal) == 5478
    assert len({CANON[c] for c in legal}) == 765


def test_symmetries_are_eight_distinct_permutations_closed_under_composition():
    perms = set(SYMMETRIES)
    assert len(perms) == 8
    for p in perms:
        assert sorted(p) == list(range(9))
        for q in perms:
            assert tuple(q[p[i]] for i in range(9)) in perms


def test_canonical_key_is_shared_by_all_orientations():
    position = "XO..X...."
    code = string_to_code(position)
    for perm in SYMMETRIES:
        turned = ["."] * 9
        for i, ch in enumerate(position):
            turned[perm[i]] = ch
        assert CANON[string_to_code("".join(turned))] == CANON[code]


def test_winner_table_agrees_with_a_direct_check():
    for code in range(len(CANON)):
        if CANON[code] >= 0:
            found = winner(code_to_string(code))
            assert WINNER[code] == {None: 0, "X": 1, "O": 2}[found]


@pytest.mark.parametrize(
    "position",
    ["XXXXOOOO.", "OO.......", "X" * 9, "XO..X...", "XO..X....x", "XOAXO....", 12],
)
def test_illegal_positions_are_rejected(position):
    with pytest.raises(ValueError):
        string_to_code(position)


def test_board_push_pop_and_outcome():
    board = Board()
    for cell in (4, 0, 1, 2, 7):
        board.push(cell)
    assert board.position == "OXO.X..X."
    assert board.winner is Mark.X and board.is_game_over() and not board.is_draw()
    assert board.legal_moves == ()
    with pytest.raises(IllegalMoveError):
        board.push(3)
    assert board.pop() == 7
    assert board.turn is Mark.X and board.winner is None
    assert 7 in board.legal_moves and 4 not in board.legal_moves
    with pytest.raises(IllegalMoveError, match="taken"):
        board.push(4)
    with pytest.raises(IllegalMoveError, match=r"0\.\.8"):
        board.push(9)


def test_a_full_board_without_a_line_is_a_draw():
    board = Board.from_moves([0, 1, 2, 4, 3, 5, 7, 6, 8])
    assert board.is_draw() and board.winner is None


@pytest.mark.parametrize(
    ("moves", "error"),
    [([9], "cell 0..8"), ([0, 0], "taken"), ([0, 3, 1, 4, 2, 5], "after the game ended")],
)
def test_replay_rejects_illegal_games(moves, error):
    with pytest.raises(ValueError, match=error):
        replay(moves)
