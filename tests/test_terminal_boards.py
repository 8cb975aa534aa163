"""The terminal speaks as Discord does (issue 32): a board has the same name in both, an old
name says what replaced it, and every error wraps between words at the terminal's width."""

from cogs.commands import CONNECT4_BOARDS
from terminal.common import BOARDS
from tests.test_terminal import one_message, terminal

MISSING = (
    "There is no finished game 99 here: python -m terminal history lists them (add --server "
    "ID for a server's)."
)


def test_a_board_has_the_name_discord_gives_it_and_7x6_is_the_classic_one(tmp_path):
    assert BOARDS == {"3x3": "tictactoe", **CONNECT4_BOARDS}  # /connect4 play board: 7x6
    code, out, err = terminal(tmp_path, "--board", "7x6", "play", given="4\nq\n")
    assert code == 0 and not err, err
    empty = ". . . . . . .\n"
    assert empty * 6 + "1 2 3 4 5 6 7" in out  # 7 columns, 6 rows
    assert empty * 4 + ". . . O . . .\n. . . X . . .\n1 2 3 4 5 6 7" in out
    assert out.count("Your column (1-7, q to quit): ") == 2
    code, out, _ = terminal(tmp_path, "play", "--board", "4x4", given="q\n")
    assert code == 0 and ". . . .\n" * 4 + "1 2 3 4" in out
    code, out, _ = terminal(tmp_path, "history")
    assert "Connect Four 7×6" in out and "Connect Four 4×4" in out


def test_an_old_game_name_says_in_one_message_which_board_replaced_it(tmp_path):
    """``--game connect4`` was 4x4 here while ``/connect4`` plays 7x6 in Discord: it now
    names the board that replaced it, and nothing runs."""
    for old, board, title in (
        ("connect4", "4x4", "Connect Four 4×4"),
        ("connect4-7x6", "7x6", "Connect Four 7×6"),
        ("connect4-5x4", "5x4", "Connect Four 5×4"),
        ("tictactoe", "3x3", "Tic-tac-toe"),
    ):
        for args in (("--game", old, "play"), ("stats", "--game", old)):
            code, out, err = terminal(tmp_path, *args, given="1\n")
            said = one_message(err)
            assert code == 2 and not out, (args, err)
            assert f"--game {old} is now --board {board} ({title})" in said
            assert "/connect4 plays 7x6, the classic board" in said
    code, _, err = terminal(tmp_path, "--game", "chess", "play")
    assert code == 2 and "--game is now --board: 3x3, 7x6, 4x4 or 5x4" in one_message(err)
    assert not (tmp_path / "ttt.sqlite3").exists()  # nothing was opened, nothing played


def test_error_lines_wrap_at_the_terminals_width_between_words(tmp_path):
    """They were one line wider than 80 columns, which the terminal broke mid-word
    ("add -" / "-server ID"). argparse's own errors too."""
    for columns in (80, 40):
        code, _, err = terminal(tmp_path, "replay", "99", columns=columns)
        assert code == 2 and one_message(err, columns) == MISSING
        assert len(err.splitlines()) > 1 and "--server" in err.split()
        code, _, err = terminal(tmp_path, "--board", "8x8", "stats", columns=columns)
        assert code == 2 and one_message(err, columns) == (
            "python -m terminal: argument --board: invalid choice: '8x8' (choose from '3x3', "
            "'7x6', '4x4', '5x4'). See python -m terminal --help."
        )
        code, _, err = terminal(tmp_path, "--server", "x-1", "stats", columns=columns)
        assert code == 2 and "--server takes a server's ID (digits), not 'x-1'" in one_message(
            err, columns
        )
    code, out, err = terminal(tmp_path, "--board", "7x6", "play", given="9\nq\n", columns=40)
    # (piped, the answer follows the prompt on its line: a person's Enter ends that line)
    lines = out.replace("Your column (1-7, q to quit): ", "\n").splitlines()
    assert code == 0 and not err and all(len(line) < 40 for line in lines), out
    assert "There is no column 9. Pick a free column from 1 to 7:" in " ".join(out.split())
