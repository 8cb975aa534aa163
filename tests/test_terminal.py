"""The terminal, driven through its real entry point: a subprocess with piped input."""

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import engine
from engine import Memory
from tests.engine.oracle import true_outcome

PROJECT = Path(__file__).resolve().parent.parent


def terminal(tmp_path, *args, given="", columns=None):
    """Run ``python -m terminal`` from another folder (in a terminal ``columns`` wide, if
    given); return (code, stdout, stderr)."""
    env = {**os.environ, "DATABASE_PATH": str(tmp_path / "ttt.sqlite3")}
    if columns is not None:
        env["COLUMNS"] = str(columns)
    env["PYTHONPATH"] = str(PROJECT)
    done = subprocess.run(
        [sys.executable, "-m", "terminal", *args],
        input=given,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=120,
    )
    return done.returncode, done.stdout, done.stderr


def one_message(err: str, columns: int = 80) -> str:
    """An error as the terminal ends with it: one message on stderr, never a traceback,
    wrapped between words to fit ``columns`` (less one, as every line); returned on one
    line. A word wider than that (a long path) stays whole, on a line of its own."""
    assert err.endswith("\n") and "Traceback" not in err, err
    lines = err.splitlines()
    assert all(line and line == line.strip() for line in lines), err
    assert all(len(line) < columns or " " not in line for line in lines), err
    return " ".join(lines)


def facts(tmp_path, server=0, game="tictactoe"):
    with sqlite3.connect(tmp_path / "ttt.sqlite3") as db:
        rows = db.execute(
            "SELECT position, outcome FROM facts WHERE guild_id = ? AND game = ?", (server, game)
        )
        return Memory(rows.fetchall(), game=game)


def test_a_game_in_the_terminal_draws_the_board_with_cell_numbers_and_learns(tmp_path):
    code, out, err = terminal(tmp_path, "play", given="1\n4\n7\n")
    assert code == 0 and not err
    assert "1 2 3\n4 5 6\n7 8 9" in out  # free cells show their numbers, as in seed 001
    assert "X O O\nX 5 6\nX 8 9" in out  # the naive bot's first free cells lose
    assert "You win!" in out and "Learned:" in out
    assert len(facts(tmp_path)) == out.count("Learned:") > 0
    code, out, _ = terminal(tmp_path, "stats")
    assert code == 0 and "1 game against me: you won 1, lost 0" in out  # your side


def test_bad_moves_get_one_line_and_the_prompt_again_and_end_of_input_quits(tmp_path):
    code, out, err = terminal(tmp_path, "play", given="x\n10\n5\n5\n")
    assert code == 0 and not err and "Traceback" not in out
    lines = out.splitlines()
    assert any(line.endswith("'x' is not a cell: type a number from 1 to 9.") for line in lines)
    assert any("There is no cell 10" in line for line in lines)
    assert any("Cell 5 is taken" in line for line in lines)
    assert out.count("Your move (1-9, q to quit): ") == 5  # asked again after each
    assert "Bye: the game was abandoned" in out
    assert len(facts(tmp_path)) == 0  # nothing learned from an abandoned game
    code, out, _ = terminal(tmp_path, "stats")
    assert "1 game against me" in out and "1 abandoned" in out


def test_training_shows_a_progress_bar_and_export_import_round_trips(tmp_path):
    code, out, err = terminal(tmp_path, "train", "random", "20000")
    assert code == 0 and not err
    assert "█" in out and "20,000/20,000 games" in out and "games/s" in out
    assert "new lessons ·" in out  # the bar's lessons are new ones (issue 17, item 7)
    trained = facts(tmp_path)
    assert len(trained) > 300
    assert all(f.outcome.value == true_outcome(f.position) for f in trained)
    assert "ways to beat me as X" in out and "→ 0" in out
    exported = tmp_path / "memory.json"
    assert terminal(tmp_path, "export", str(exported))[0] == 0
    assert engine.import_memory(exported.read_text()) == trained
    code, out, _ = terminal(tmp_path, "--server", "7", "import", str(exported), given="n\n")
    assert code == 1 and "Nothing was imported" in out and len(facts(tmp_path, 7)) == 0
    code, out, _ = terminal(tmp_path, "--server", "7", "import", str(exported), given="y\n")
    assert code == 0 and f"{len(trained):,} new lessons" in out
    assert facts(tmp_path, 7) == trained


def test_every_bad_request_is_one_line_on_stderr_and_changes_nothing(tmp_path):
    forged = tmp_path / "forged.json"
    forged.write_text(
        json.dumps(
            {
                "format": "ttt-memory",
                "version": 1,
                "facts": [{"position": "O...X....", "outcome": "loss"}],
            }
        )
    )
    for args in (
        ("import", str(forged), "--yes"),
        ("import", str(tmp_path / "missing.json")),
        ("train", "random", "0"),
        ("train", "genius", "5"),
        ("sing",),
    ):
        code, _, err = terminal(tmp_path, *args)
        assert code == 2 and one_message(err), (args, err)
    assert "not proven" in one_message(terminal(tmp_path, "import", str(forged), "--yes")[2])
    assert len(facts(tmp_path)) == 0


def test_connect4_in_the_terminal_plays_by_columns_learns_and_moves_its_memory(tmp_path):
    from tests.engine.connect4_oracle import solver

    code, out, err = terminal(tmp_path, "--board", "4x4", "play", given="2\n2\nx\n9\n2\n2\n")
    assert code == 0 and not err, err
    assert ". . . .\n. . . .\n. . . .\n. . . .\n1 2 3 4" in out
    assert "I drop in column 1." in out and "'x' is not a column" in out
    assert "There is no column 9" in out and "You win!" in out
    assert "Learned: after 2, 1, 2, 1, 2 and 1, your move in column 2 is a win." in out
    four = facts(tmp_path, game="connect4")
    assert len(four) == out.count("Learned:") and len(facts(tmp_path)) == 0
    code, out, _ = terminal(tmp_path, "--board", "4x4", "stats")
    assert code == 0 and "1 game against me: you won 1, lost 0" in out  # your side
    code, out, _ = terminal(tmp_path, "stats")
    assert "0 games against me" in out
    code, out, err = terminal(tmp_path, "--board", "5x4", "train", "random", "3000")
    assert code == 0 and not err and "3,000/3,000 games" in out
    trained = facts(tmp_path, game="connect4-5x4")
    judge = solver(5, 4)
    assert len(trained) > 300
    assert all(f.outcome.value == judge.true_outcome(f.position) for f in trained)
    exported = tmp_path / "five.json"
    assert terminal(tmp_path, "--board", "5x4", "export", str(exported))[0] == 0
    code, _, err = terminal(tmp_path, "import", str(exported), "--yes")
    assert code == 2 and "not a Tic-tac-toe one" in one_message(err)
    assert "Add `--board 5x4` to import it" in one_message(err)  # issue 26, item 25
    code, out, _ = terminal(
        tmp_path, "--board", "5x4", "--server", "7", "import", str(exported), "--yes"
    )
    assert code == 0 and facts(tmp_path, 7, "connect4-5x4") == trained


def test_a_folder_that_cannot_hold_the_export_is_one_line(tmp_path):
    """Issue 17, item 2: a traceback."""
    for target in (tmp_path / "no" / "such" / "x.json", tmp_path):
        code, _, err = terminal(tmp_path, "export", str(target))
        assert code == 2 and one_message(err).startswith(f"Cannot write {target}:"), err


def test_ctrl_c_at_the_prompt_leaves_as_q_does(tmp_path):
    """Issue 17, item 5: Ctrl-C showed ^C, then played the next line typed as a move and
    exited with code 1."""
    import signal
    import time

    env = {**os.environ, "DATABASE_PATH": str(tmp_path / "ttt.sqlite3"), "PYTHONPATH": str(PROJECT)}
    process = subprocess.Popen(
        [sys.executable, "-m", "terminal", "play"], stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path, env=env,
    )  # fmt: skip
    seen = ""
    deadline = time.monotonic() + 60
    while "q to quit): " not in seen and time.monotonic() < deadline:
        seen += process.stdout.read(1)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate("5\n", timeout=60)
    assert process.returncode == 0, err
    assert "Bye: the game was abandoned" in out and "I play" not in out
    assert "Traceback" not in err


def test_imports_say_what_they_drop_and_do_not_ask_about_nothing(tmp_path):
    """Issue 17, item 8: a replace never said how many lessons it would drop; an import
    that changes nothing still asked; --server -5 was taken; stats never said who X is."""
    terminal(tmp_path, "play", given="1\n4\n7\n")  # a few lessons of the terminal's own
    mine = len(facts(tmp_path))
    exported = tmp_path / "memory.json"
    assert terminal(tmp_path, "export", str(exported))[0] == 0
    code, out, _ = terminal(tmp_path, "import", str(exported))  # no input: it must not ask
    assert code == 0 and "Nothing to import" in out and "Import?" not in out
    other = Memory()
    engine.train(other, 2, seed=3)  # a small memory: most of mine is not in it
    theirs = tmp_path / "theirs.json"
    theirs.write_text(json.dumps(engine.export_memory(other)))
    code, out, _ = terminal(tmp_path, "import", str(theirs), "--replace", given="n\n")
    dropped = sum(other.outcome(f.position) is None for f in facts(tmp_path))
    assert 0 < dropped <= mine
    assert f"and {dropped} lesson" in out and "of mine dropped" in out
    assert len(facts(tmp_path)) == mine  # answered no
    code, _, err = terminal(tmp_path, "--server", "-5", "stats")
    assert code == 2 and "--server takes a server's ID" in one_message(err)
    assert "as X (moving first)" in terminal(tmp_path, "stats")[1]


def test_a_lesson_names_its_position_by_the_moves_that_led_to_it(tmp_path):
    """Issue 17, item 9: "Learned: your move to 7 there is a win" said "there"."""
    _code, out, _ = terminal(tmp_path, "play", given="1\n4\n7\n")
    assert "Learned: after 1, 2, 4 and 3, your move to 7 is a win." in out
    assert " there " not in out


def test_the_readmes_first_lesson_is_what_happens(tmp_path):
    """Issue 17, item 1: the README promised that the bot blocks 1, 4, 7 the second time;
    it takes three losses, with replies 3, then 5, then 6, and it blocks with 7 in the
    fourth game. The README now says so, and this plays it."""
    readme = (PROJECT / "README.md").read_text()
    assert "(3, then 5, then 6)" in readme and "it blocks you with 7" in readme
    for second_reply in (3, 5, 6):
        _code, out, _ = terminal(tmp_path, "play", given="1\n4\n7\n")
        assert "I play 2.\n" in out and f"I play {second_reply}.\n" in out and "You win!" in out
    _code, out, _ = terminal(tmp_path, "play", given="1\n4\n7\nq\n")
    assert "I play 7.\n" in out and "Cell 7 is taken" in out and "You win!" not in out


def fits(out: str) -> bool:
    """Every line fits a terminal of 80 columns."""
    return all(len(line) <= 80 for line in out.splitlines())


def test_history_lists_your_games_newest_first_and_replay_steps_through_one(tmp_path):
    """Issue 27, item 5."""
    terminal(tmp_path, "play", given="1\n4\n7\n")
    terminal(tmp_path, "--board", "4x4", "play", given="2\n2\n2\n2\n2\n2\n")
    code, out, err = terminal(tmp_path, "history")
    assert code == 0 and not err and fits(out)
    rows = out.splitlines()
    assert rows[0] == "2 finished games of yours here, newest first:"
    assert rows[1].split() == ["ID", "Ended", "Game", "How", "it", "ended", "Lessons"]
    # newest first: the Connect Four game, then tic-tac-toe; each taught the bot 2 lessons
    assert rows[2].startswith(" 2  ") and "Connect Four 4×4  you won" in rows[2]
    assert rows[3].startswith(" 1  ") and "Tic-tac-toe       you won" in rows[3]
    assert rows[2].endswith("  2") and rows[3].endswith("  2")
    assert rows[4] == "Watch one again: python -m terminal replay ID."
    code, out, _ = terminal(tmp_path, "--board", "3x3", "history")
    assert code == 0 and "1 finished game of yours" in out and "Connect Four" not in out

    code, out, err = terminal(tmp_path, "replay", "1", given="\n" * 10)
    assert code == 0 and not err and fits(out)
    assert out.startswith("Game 1, Tic-tac-toe: you (X) vs me (O), 5 moves, ended ")
    boards = ["1 2 3\n4 5 6\n7 8 9", "X 2 3\n4 5 6\n7 8 9", "X O 3\n4 5 6\n7 8 9"]
    boards += ["X O 3\nX 5 6\n7 8 9", "X O O\nX 5 6\n7 8 9", "X O O\nX 5 6\nX 8 9"]
    told = [
        "The start: X moves first (you).",
        "Move 1 of 5: you played 1.",
        "Move 2 of 5: I played 2.",
        "Move 3 of 5: you played 4.",
        # the lesson at the move that taught it: the bot's 3 let 7 win
        "Move 4 of 5: I played 3.\n🚫 This move loses. You then had a winning reply.",
        "Move 5 of 5: you played 7.\n🟩 This move wins. I'll remember it for when I play your",
    ]
    at = 0
    for board, text in zip(boards, told, strict=True):
        at = out.index(f"\n{board}\n{text}", at) + 1  # in order
    assert out.rstrip().endswith("You won.")
    # asked after every move but the last; a lesson only at the moves that taught one
    assert out.count("Enter: the next move, a number: that move, q: quit.") == 5
    assert out.count("This move ") == 2
    assert "It taught me something at moves 4, 5; the lesson: move 4." in out
    code, out, _ = terminal(tmp_path, "replay", "1", given="4\n\n")  # straight to move 4
    assert "Move 1 of 5" not in out and "Move 4 of 5: I played 3.\n🚫 This move loses." in out
    assert "Move 5 of 5" in out and out.rstrip().endswith("You won.")

    code, out, _ = terminal(tmp_path, "replay", "2", given="\n\n\n\n\nq\n")
    assert code == 0 and "Move 5 of 7: you dropped in column 2." in out
    assert "Move 6 of 7" not in out and "You won." not in out
    assert "Move 1 of 7: you dropped in column 2.\n" in out
    assert "Move 2 of 7: I dropped in column 1.\n" in out
    code, out, _ = terminal(tmp_path, "replay", "2")  # end of input: leaves, as q does
    assert code == 0 and "The start" in out and "Move 1 of 7" not in out


def test_a_replay_of_a_game_between_members_names_them(tmp_path):
    """A server's game between members, replayed with --server: who played, who won."""
    import asyncio

    from data import Store

    async def seed():
        store = await Store.open(tmp_path / "ttt.sqlite3")
        try:
            game = await store.start_game(7, 70, 5, "O", [], now=1.0, opponent_id=6)
            await store.finish_game(game.id, 7, [], [0, 3, 1, 4, 2], "player_won", now=2.0)
            return game.id
        finally:
            await store.close()

    game_id = str(asyncio.run(seed()))
    code, out, err = terminal(tmp_path, "--server", "7", "replay", game_id, given="\n" * 6)
    assert code == 0 and not err and fits(out)
    assert f"Game {game_id}, Tic-tac-toe: member 5 (X) vs member 6 (O), 5 moves" in out
    assert "The start: X moves first (member 5)." in out
    assert "Move 2 of 5: member 6 played 4." in out
    assert out.rstrip().endswith("Move 5 of 5: member 5 played 3.\nMember 5 won.")
    code, out, _ = terminal(tmp_path, "--server", "7", "history")  # member 0's: none
    assert code == 0 and out.startswith("No finished games here yet")


def test_a_replay_that_cannot_be_is_one_line(tmp_path):
    terminal(tmp_path, "play", given="1\n4\n7\n")
    for args in (
        ("replay", "x"),
        ("replay", "0"),
        ("replay", "-1"),
        ("replay", "99"),
        ("replay", "99999999999999999999999"),
        ("replay",),
        ("--server", "7", "replay", "1"),  # game 1 is the terminal's, not server 7's
    ):
        code, out, err = terminal(tmp_path, *args)
        assert code == 2 and one_message(err) and not out, (args, err)
    assert "There is no finished game 99 here" in one_message(terminal(tmp_path, "replay", "99")[2])
    assert "takes a game's ID" in one_message(terminal(tmp_path, "replay", "x")[2])
    terminal(tmp_path, "--board", "4x4", "play", given="q\n")  # abandoned: finished
    code, out, _ = terminal(tmp_path, "replay", "2")
    assert code == 0 and "Game 2, Connect Four 4×4: you (X) vs me (O), 0 moves" in out
    assert out.rstrip().endswith("Abandoned before its end.")


def test_a_classic_replay_tells_the_other_columns_looking_back_valued(tmp_path):
    """On 7x6 a post-mortem values every column of a position the bot faced: the replay
    tells them beside the move played."""
    import asyncio

    from data import Store
    from gameflow.memories import classic_facts

    rules = engine.get_game("connect4-7x6")
    moves = [0, 1, 0, 1, 0, 1, 0]  # X's four in column 1; the bot (O) played column 2

    def after(*played):
        return rules.spell(rules.replay(played)[-1])

    async def seed():
        store = await Store.open(tmp_path / "ttt.sqlite3")
        try:
            game = await store.start_game(0, -1, 0, "O", [], now=1.0, game="connect4-7x6")
            facts = classic_facts(  # packed, as the classic board's are stored
                "connect4-7x6",
                [(after(0, 1, 0, 1, 0, 1), "loss"), (after(0, 1, 0, 1, 0, 0), "win")],
            )
            await store.finish_game(
                game.id, 0, [], moves, "player_won", facts, now=2.0, game="connect4-7x6"
            )
            return game.id
        finally:
            await store.close()

    game_id = str(asyncio.run(seed()))
    code, out, err = terminal(tmp_path, "replay", game_id, given="\n" * 8)
    assert code == 0 and not err and fits(out)
    assert "Move 6 of 7: I dropped in column 2.\n🚫 This move loses. You then had a" in out
    assert "🟩 Other moves here that I now know win: column 1." in out
    assert out.rstrip().endswith("You won.")
    code, out, _ = terminal(tmp_path, "--board", "7x6", "history")
    assert code == 0 and f"{game_id}  " in out and "Connect Four 7×6  you won" in out
    assert out.splitlines()[2].endswith("  2")  # two lessons taught


def test_the_progress_and_stats_lines_fit_an_80_column_terminal(tmp_path):
    """Issue 26, item 23: the bar's line was wider than 80 columns, so it wrapped and could
    not redraw in place. Each redraw now fills the width less one, no more."""
    code, out, err = terminal(tmp_path, "train", "random", "20000", columns=80)
    assert code == 0 and not err
    # (the captured text reads each "\r" as a new line)
    redraws = [line for line in out.splitlines() if "█" in line]
    assert redraws and {len(line) for line in redraws} == {79}, redraws
    assert "20,000/20,000 games" in redraws[-1] and "█" in redraws[-1]
    assert all(len(line) <= 79 for line in out.splitlines()), out
    exported = tmp_path / "memory.json"
    terminal(tmp_path, "export", str(exported))
    for args in (("stats",), ("--server", "7", "import", str(exported))):  # and the plan
        code, out, err = terminal(tmp_path, *args, columns=80)
        assert out and all(len(line) <= 79 for line in out.splitlines()), out


def test_a_narrow_terminal_keeps_the_bar_and_drops_the_least_needed_figures():
    from gameflow.training import TrainingProgress
    from terminal.memory import progress_line

    p = TrainingProgress(1, 0, "random", 100_000, 25_000, 1_234, 5.0, "running", None)
    wide = progress_line(p, 100)
    assert wide.startswith("\r" + "█" * 8 + "░" * 22 + " 25,000/100,000 games")
    assert "1,234 new lessons · 15 s left · 5,000 games/s" in wide
    narrow = progress_line(p, 55)
    assert len(narrow) == 56 and narrow.endswith("25,000/100,000 games · 1,234 new lessons")
    assert "█" in narrow and "s left" not in narrow


def test_a_long_games_lesson_names_its_length_and_last_moves():
    """Issue 26, item 25: "after 1, 1, 1, 1, 3, 2, 4, 2, 2, 2, 4, 3, 3 and 3"."""
    from terminal.play import position_text

    assert position_text((0, 3, 1, 2)) == "after 1, 4, 2 and 3"
    long = (0, 0, 0, 0, 2, 1, 3, 1, 1, 1, 3, 2, 2, 2)
    assert position_text(long) == "after 14 moves (… 3, 3 and 3)"


def test_hints_name_the_terminals_commands(tmp_path):
    """Issue 26, item 25: a bad file's hint pointed to `/ttt-admin export`."""
    bad = tmp_path / "notes.json"
    bad.write_text("not json")
    code, _, err = terminal(tmp_path, "import", str(bad), "--yes")
    assert code == 2 and "a file made by `python -m terminal export`" in one_message(err)
    assert "/ttt" not in err
