"""Which positions are puzzles (engine/puzzles.py), and their solutions, judged by the
tests' own 7×6 solver (no bitbully, no engine)."""

from __future__ import annotations

from engine import get_game
from engine.postmortem import post_mortem
from engine.puzzles import MAX_PLIES, classify, cuts_of_game, forced_line, studied_plies
from tests.cogs.puzzles.test_puzzles import BETWEEN_MEMBERS
from tests.engine.connect4_7x6_oracle import column_values

RULES = get_game("connect4-7x6")


def test_a_puzzle_has_one_answer_that_takes_thought():
    loss = ("loss", 5)
    assert classify({0: ("win", 6), 1: loss, 2: ("draw", None)}) == ("win", 0)
    assert classify({0: ("win", 6), 1: ("win", 8), 2: loss}) is None  # two answers
    assert classify({0: ("win", 0), 1: loss}) is None  # four in a row at once
    assert classify({0: ("win", MAX_PLIES + 2), 1: loss}) is None  # too far to see
    assert classify({0: ("draw", None), 1: loss, 2: ("loss", 9)}) == ("hold", 0)
    assert classify({0: ("draw", None), 1: ("draw", None), 2: loss}) is None  # two hold
    assert classify({0: ("draw", None), 1: ("loss", MAX_PLIES + 4)}) is None  # nothing near
    assert classify({0: ("draw", None), 1: ("loss", 1), 2: ("loss", 1)}) is None  # a block
    assert classify({0: ("win", 4)}) is None  # one column left


def _rank(value) -> int:
    if value is None:
        return 0
    outcome, plies = value
    return 100 - plies if outcome == "win" else plies - 100


def test_the_puzzles_of_a_game_and_their_solutions_are_what_the_oracle_finds():
    moves = BETWEEN_MEMBERS
    known = {key: (outcome, plies) for key, outcome, plies in post_mortem(RULES, moves, None)}
    cuts = cuts_of_game(
        RULES, moves, studied_plies(RULES, moves, None), known.get, absent_is_draw=True
    )
    assert [(cut.ply, cut.kind, cut.answer) for cut in cuts] == [(33, "win", 6), (35, "win", 6)]
    for cut in cuts:
        code = RULES.replay(moves[: cut.ply])[-1]
        values = column_values(RULES.spell(code))
        assert [c for c, v in values.items() if v and v[0] == "win"] == [cut.answer]
        line = forced_line(RULES, moves[: cut.ply], cut.answer)
        assert line[0] == cut.answer and len(line) == values[cut.answer][1] + 1
        for column in line:  # every move of the line is a best one, to the end
            values = column_values(RULES.spell(code))
            assert _rank(values[column]) == max(map(_rank, values.values())), (column, values)
            code = RULES.play(code, column)
        assert RULES.moves(code) is None
