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


def test_a_members_positions_are_valued_from_the_bots_replies_as_the_oracle_says():
    """In a game against the bot, the member's positions are valued from the facts of
    every reply to each column (the widened post-mortem's): each column's outcome and
    distance as the tests' own solver finds them; every cut has one answer."""
    from engine import Mark
    from engine.puzzles import replied_values
    from tests.cogs.puzzles.test_puzzles import AGAINST_THE_BOT

    facts = post_mortem(RULES, AGAINST_THE_BOT, Mark.X)
    known = {key: (outcome, plies) for key, outcome, plies in facts}.get
    members = range(1, len(AGAINST_THE_BOT), 2)  # the bot went first
    befores = [RULES.empty, *RULES.replay(AGAINST_THE_BOT)]
    checked = 0
    for ply in members[-6:]:  # the end game: the oracle is quick there
        oracle = column_values(RULES.spell(befores[ply]))
        draws = sum(1 << column for column, value in oracle.items() if value is None)
        values = replied_values(RULES, befores[ply], known, draws)
        assert values is not None, ply
        assert {c: None if v[0] == "draw" else v for c, v in values.items()} == oracle, ply
        checked += 1
    assert checked == 6
    studied = studied_plies(RULES, AGAINST_THE_BOT, Mark.X)
    cuts = cuts_of_game(
        RULES, AGAINST_THE_BOT, studied, known, absent_is_draw=True, replied=members
    )
    assert [cut.ply for cut in cuts if cut.ply % 2] == [31]
    for cut in cuts:
        oracle = column_values(RULES.spell(befores[cut.ply]))
        wins = [c for c, v in oracle.items() if v is not None and v[0] == "win"]
        assert wins == [cut.answer] if cut.kind == "win" else not wins


# 🔴 to move, two threats: columns 3 and 6 each win in 2 moves, column 2 in 3, column 1
# in 6; column 7 loses (columns 4 and 5 are full). Found by random play; 30 stones.
TWO_THREATS = [4, 6, 2, 4, 0, 0, 3, 2, 3, 4, 3, 5, 6, 1, 2, 3, 4, 1, 3, 6, 4, 4, 5, 0, 2]
TWO_THREATS += [5, 0, 6, 3, 5]


def test_a_line_played_on_accepts_exactly_the_fastest_wins_and_defends_slowest():
    """Each column of a position played on: its values are the oracle's, only the
    fastest wins go on (both threats), each answered by one of the oracle's slowest
    defences; a slower win, or a loss, stops there."""
    from engine.puzzles import fastest_wins, played_on

    code = RULES.replay(TWO_THREATS)[-1]
    oracle = column_values(RULES.spell(code))
    assert fastest_wins(oracle) == [2, 5] and oracle[1] == ("win", 4)
    for column in oracle:
        steps = played_on(RULES, TWO_THREATS, [column])
        values, reply = steps[0]
        assert values == oracle
        if column not in (2, 5):
            assert steps == [(oracle, None)], column
            continue
        after = RULES.play(code, column)
        defences = column_values(RULES.spell(after))
        assert _rank(defences[reply]) == max(map(_rank, defences.values())), (reply, defences)
        ahead = column_values(RULES.spell(RULES.play(after, reply)))
        assert len(steps) == 2 and steps[1] == (ahead, None)
        # the next fastest win ends it: four in a row, no defence
        (last,) = fastest_wins(ahead)[:1]
        done = played_on(RULES, TWO_THREATS, [column, last])
        assert done[1] == (ahead, None) and len(done) == 2 and ahead[last] == ("win", 0)
