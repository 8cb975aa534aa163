"""The classic board (7×6) in the terminal: played, learned by the post-mortem, trained,
exported and imported (re-proven by the solver)."""

import json
import sqlite3

import engine
from engine import Mark, Memory
from engine.solver import best_columns
from terminal.play import lesson_text
from tests.test_terminal import terminal

CLASSIC = "connect4-7x6"
GAME = engine.get_game(CLASSIC)


def winning_columns() -> list[int]:
    """The columns a perfect first player drops against the untaught bot, to the win."""
    memory, code, moves = engine.Memory(game=CLASSIC), GAME.empty, []
    while GAME.moves(code) is not None:
        if len(moves) % 2 == 0:
            move = best_columns(code)[0]
        else:
            move = engine.choose_move(memory, GAME.spell(code))
        moves.append(move)
        code = GAME.play(code, move)
    assert GAME.winner(code) == Mark.X
    return moves[::2]


def stored(tmp_path, db="ttt.sqlite3"):
    """The terminal's classic facts in the store, ``(position, outcome)`` as spelled."""
    with sqlite3.connect(tmp_path / db) as connection:
        runs = connection.execute(
            "SELECT facts FROM classic_facts WHERE guild_id = 0 AND game = ?", (CLASSIC,)
        ).fetchall()
    memory = Memory.from_stored([blob for (blob,) in runs], game=CLASSIC)
    return [(fact.position, fact.outcome.value) for fact in memory]


def test_the_terminal_plays_the_classic_board_and_learns_by_the_post_mortem(tmp_path):
    given = "".join(f"{column + 1}\n" for column in winning_columns())
    code, out, err = terminal(tmp_path, "--game", CLASSIC, "play", given=given)
    assert code == 0 and not err
    assert "1 2 3 4 5 6 7" in out and "You win!" in out
    assert "🔍 Looking back at this game…" in out and "I looked back:" in out
    ruled = out.count("Learned:")
    facts = stored(tmp_path)
    assert len(facts) > ruled  # the post-mortem taught more than the rules
    # every fact it stored is the solver's (the import re-proves each)
    assert len(engine.import_memory(
        {"format": "ttt-memory", "version": 1, "game": "connect4", "board": "7x6",
         "facts": [{"position": p, "outcome": o} for p, o in facts]}, game=CLASSIC
    )) == len(facts)  # fmt: skip
    code, out, _ = terminal(tmp_path, "stats", "--game", CLASSIC)  # --game after the command
    assert code == 0 and "I won 0, lost 1" in out and f"{len(facts)} lessons." in out

    code, out, err = terminal(tmp_path, "--game", CLASSIC, "export", "classic.json")
    assert code == 0 and not err
    document = json.loads((tmp_path / "classic.json").read_text())
    assert (document["game"], document["board"], document["version"]) == ("connect4", "7x6", 1)
    assert sorted((f["position"], f["outcome"]) for f in document["facts"]) == sorted(facts)

    (tmp_path / "ttt.sqlite3").rename(tmp_path / "first.sqlite3")
    code, out, err = terminal(tmp_path, "import", "classic.json", "--yes", "--game", CLASSIC)
    assert code == 0 and not err and f"{len(facts)} new lessons" in out and "Imported." in out
    assert sorted(stored(tmp_path)) == sorted(facts)

    flipped = dict(document["facts"][0], outcome="win" if document["facts"][0]["outcome"] ==
                   "loss" else "loss")  # fmt: skip
    document["facts"][0] = flipped
    (tmp_path / "forged.json").write_text(json.dumps(document))
    code, out, err = terminal(tmp_path, "--game", CLASSIC, "import", "forged.json", "--yes")
    assert code != 0 and "facts[0]" in err and "Nothing was changed" in err


def test_the_terminal_trains_the_classic_board_against_each_opponent(tmp_path):
    learned = 0
    for opponent in ("random", "self", "teacher"):
        code, out, err = terminal(tmp_path, "--game", CLASSIC, "train", opponent, "3")
        assert code == 0 and not err and "Done: lessons" in out
        assert "ways to beat" not in out  # not counted on 7x6
        assert len(stored(tmp_path)) >= learned
        learned = len(stored(tmp_path))
    assert learned > 0


def test_the_lesson_names_the_move_that_lost_and_the_column_that_held():
    # the bot (X) opens in column 1, which loses; then both sides play perfectly
    code, moves = GAME.play(GAME.empty, 0), [0]
    while GAME.moves(code) is not None:
        moves.append(best_columns(code)[0])
        code = GAME.play(code, moves[-1])
    facts = engine.post_mortem(CLASSIC, moves, Mark.X)
    verdict = engine.describe_post_mortem(CLASSIC, moves, facts, Mark.X)
    text = lesson_text(verdict, len(facts))
    assert text.startswith("I looked back: my move 1 (column 1) lost, and column 4 would have won.")
    assert f"force a win in {verdict.opponent_moves} moves" in text
    assert f"({len(facts)} new lessons.)" in text
    assert lesson_text(None, 0).endswith("would have done better. (0 new lessons.)")
