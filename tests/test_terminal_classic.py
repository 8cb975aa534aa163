"""The classic board (7×6) in the terminal: played, learned by the post-mortem, trained,
exported and imported (re-proven by the solver)."""

import json
import sqlite3

import engine
from engine import Mark, Memory
from engine.solver import best_columns
from terminal.play import lesson_text
from tests.test_terminal import one_message, terminal

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
    code, out, err = terminal(tmp_path, "--board", "7x6", "play", given=given)
    assert code == 0 and not err
    assert "1 2 3 4 5 6 7" in out and "You win!" in out
    assert "🔍 Looking back at this game…" in out and "I looked back" in out
    ruled = out.count("Learned:")
    facts = stored(tmp_path)
    assert len(facts) > ruled  # the post-mortem taught more than the rules
    # every fact it stored is the solver's (the import re-proves each)
    assert len(engine.import_memory(
        {"format": "ttt-memory", "version": 1, "game": "connect4", "board": "7x6",
         "facts": [{"position": p, "outcome": o} for p, o in facts]}, game=CLASSIC
    )) == len(facts)  # fmt: skip
    code, out, _ = terminal(tmp_path, "stats", "--board", "7x6")  # --board after the command
    assert code == 0 and "you won 1, lost 0" in out  # from your side, as Discord's stats
    assert f"{len(facts)} lessons: " in out and " from looking back at games, " in out
    assert "Lately you won 1 of the last 1 game." in out

    code, out, err = terminal(tmp_path, "--board", "7x6", "export", "classic.json")
    assert code == 0 and not err
    document = json.loads((tmp_path / "classic.json").read_text())
    assert (document["game"], document["board"], document["version"]) == ("connect4", "7x6", 1)
    assert sorted((f["position"], f["outcome"]) for f in document["facts"]) == sorted(facts)

    (tmp_path / "ttt.sqlite3").rename(tmp_path / "first.sqlite3")
    code, out, err = terminal(tmp_path, "import", "classic.json", "--yes", "--board", "7x6")
    assert code == 0 and not err and f"{len(facts)} new lessons" in out and "Imported." in out
    assert sorted(stored(tmp_path)) == sorted(facts)

    flipped = dict(document["facts"][0], outcome="win" if document["facts"][0]["outcome"] ==
                   "loss" else "loss")  # fmt: skip
    document["facts"][0] = flipped
    (tmp_path / "forged.json").write_text(json.dumps(document))
    code, out, err = terminal(tmp_path, "--board", "7x6", "import", "forged.json", "--yes")
    said = one_message(err)
    assert code != 0 and "facts[0]" in said and "Nothing was changed" in said


def test_the_terminal_trains_the_classic_board_against_each_opponent(tmp_path):
    learned = 0
    for opponent in ("random", "self", "teacher"):
        code, out, err = terminal(tmp_path, "--board", "7x6", "train", opponent, "3")
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
    # the game's move 1, as the replay counts it (the bot's own count would say 1 too here)
    assert text.startswith(
        "I looked back. At move 1 I dropped in column 1 and lost: column 4 would have won."
    )
    assert f"force a win in {verdict.opponent_moves} moves" in text
    assert f"({len(facts)} new lessons.)" in text
    assert lesson_text(None, 0).endswith("would have done better. (0 new lessons.)")


def test_the_lesson_counts_the_games_moves_as_the_replay_does():
    """Issue 35: the bot's own count said "my move 1" for the game's move 2; the lesson
    now names the replay's step."""
    opening = GAME.play(GAME.empty, 0)  # X opens in column 1, which lets O win
    scores = engine.solver.score_all(opening)
    worse = next(c for c, score in scores.items() if score is not None and score[0] == "loss")
    code, moves = GAME.play(opening, worse), [0, worse]  # the bot (O) throws its win away
    while GAME.moves(code) is not None:
        moves.append(best_columns(code)[0])
        code = GAME.play(code, moves[-1])
    facts = engine.post_mortem(CLASSIC, moves, Mark.O)
    verdict = engine.describe_post_mortem(CLASSIC, moves, facts, Mark.O)
    assert verdict.ply == 1
    assert lesson_text(verdict, len(facts)).startswith(
        f"I looked back. At move 2 I dropped in column {worse + 1} and lost"
    )
