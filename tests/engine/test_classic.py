"""Connect Four 7×6, the classic board: its rules, solver, memory, policy and post-mortem."""

from __future__ import annotations

import ast
import random
import subprocess
import sys
from pathlib import Path

import pytest

import engine
from bench.classic import weak_player  # wins, blocks 70 % of threats, else random
from engine import LOSS, WIN, Mark, Memory, get_game, solver
from engine.policy import choose_classic
from engine.tables import DistanceTable
from tests.engine.connect4_7x6_oracle import column_values, value_of

GAME = get_game("connect4-7x6")
ENGINE = Path(engine.__file__).parent


def random_position(rng: random.Random, stones: int) -> int:
    """An unfinished position of ``stones`` stones reached by random play."""
    while True:
        code = GAME.empty
        for _ in range(stones):
            moves = GAME.moves(code)
            if moves is None:
                break
            code = rng.choice(moves)[1]
        else:
            if GAME.moves(code) is not None:
                return code


def stones(code: int) -> int:
    return sum(1 for cell in GAME.cells(code) if cell)


def true_fact(code: int) -> tuple[str, int] | None:
    """By the solver: the outcome for the player who made the last move into ``code``,
    and the plies from ``code`` to the end under perfect play; ``None`` for a draw."""
    if GAME.moves(code) is None:
        return ("win", 0) if GAME.winner(code) else None
    best = max(
        solver.score_all(code).values(),
        key=lambda s: 0 if s is None else (100 - s[1] if s[0] == "win" else s[1] - 100),
    )
    if best is None:
        return None
    return ("loss" if best[0] == "win" else "win", best[1] + 1)


def assert_proven(memory: Memory) -> int:
    """Every fact true by the solver (its plies too, when kept), and by the independent
    oracle where it can reach (28 stones or more); returns how many the oracle checked."""
    checked = 0
    for key, value, plies in memory.distances():
        code = GAME.key_code(key)
        truth = true_fact(code)
        assert truth is not None, GAME.spell(code)
        assert truth[0] == ("win" if value == 1 else "loss"), GAME.spell(code)
        if plies is not None:
            assert truth[1] == plies, GAME.spell(code)
        if stones(code) >= 28 and GAME.moves(code) is not None:
            # the oracle's value is for the player to move: the other side of the fact
            signed = value_of(GAME.spell(code))
            assert signed != 0 and (signed < 0) == (value == 1)
            if plies is not None:
                assert abs(signed) == plies
            checked += 1
    return checked


# --- the board ---------------------------------------------------------------------------
def test_the_registry_imports_the_game_modules_and_they_never_import_it_back():
    for module in ("rules", "connect4", "tictactoe"):
        tree = ast.parse((ENGINE / f"{module}.py").read_text())
        imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        assert "games" not in imported and "engine.games" not in imported, module
    from engine.games import Game as FromGames

    assert FromGames is engine.Game is engine.rules.Game


def test_the_classic_board_is_7_wide_6_high_with_49_bit_mirror_keys():
    assert (GAME.width, GAME.height, GAME.code_bits) == (7, 6, 49)
    assert GAME.classic and not GAME.searchable
    rng = random.Random(1)
    for _ in range(200):
        code = random_position(rng, rng.randrange(42))
        mirror = GAME.mirror(code)
        assert GAME.key(code) == min(code, mirror) < 2**49
        assert GAME.spell(mirror) == "".join(
            GAME.spell(code)[row * 7 : row * 7 + 7][::-1] for row in range(6)
        )
    # the minis keep their order and flags
    assert get_game("connect4").order == (0, 1, 2, 3) and not get_game("connect4-5x4").classic


# --- the solver --------------------------------------------------------------------------
def test_the_solver_agrees_with_the_independent_oracle_values_and_plies():
    rng = random.Random(7)
    decided = 0
    for i in range(60):
        code = random_position(rng, 28 + i % 8)
        expected = column_values(GAME.spell(code))
        assert solver.score_all(code) == expected, GAME.spell(code)
        decided += sum(value is not None for value in expected.values())
    assert decided > 100  # mostly wins and losses: their plies were compared


def test_the_known_opening_values():
    opening = solver.score_all(GAME.empty)
    # the first player wins in the centre (4 as people count), draws on 3 and 5, loses
    # elsewhere (Allis 1988, Tromp)
    assert {c: v and v[0] for c, v in opening.items()} == {
        0: "loss",
        1: "loss",
        2: None,
        3: "win",
        4: None,
        5: "loss",
        6: "loss",
    }
    assert opening[3] == ("win", 40)  # X's 21st stone, the 41st ply, makes its four


def test_plies_follow_negamax_inside_the_opening_book():
    """A column's plies are one more than the best reply's, and its outcome the other:
    checked where the book answers (up to 12 stones), which the oracle cannot reach."""
    rng = random.Random(3)
    for stones_played in (1, 4, 7, 9, 10, 11):
        code = random_position(rng, stones_played)
        for move, child, _key in GAME.moves(code):
            assert solver.score_all(code)[move] == true_fact(child)


def test_plies_are_counted_on_positions_where_one_can_count():
    # X to move, three in a row on the bottom: dropping the fourth ends the game now
    code = GAME.replay([0, 0, 1, 1, 2, 2])[-1]
    scores = solver.score_all(code)
    assert scores[3] == ("win", 0)
    # X to move with two on the bottom: a third makes an open three, O blocks one end
    # (ply 1) and X completes the other (ply 2)
    assert solver.score_all(GAME.replay([2, 2, 3, 3])[-1])[4] == ("win", 2)
    # O to move, X threatens 3 at both ends: O blocks one, X wins at the other two plies on
    code = GAME.replay([2, 2, 3, 3, 4])[-1]
    scores = solver.score_all(code)
    assert scores[1] == ("loss", 1) and scores[5] == ("loss", 1)
    assert all(value == ("loss", 1) for value in scores.values())


# --- the memory --------------------------------------------------------------------------
def test_a_7x6_fact_keeps_its_plies_in_8_bytes_and_reads_back():
    memory = Memory(game=GAME)
    rng = random.Random(5)
    facts = {}
    while len(facts) < 3000:
        code = random_position(rng, rng.randrange(1, 30))
        facts[GAME.key(code)] = ("win" if rng.random() < 0.5 else "loss", rng.randrange(43))
    assert memory.add_proven([(k, o, p) for k, (o, p) in facts.items()]) == 3000
    assert len(memory) == 3000 and memory.nbytes / len(memory) == 8 <= 12
    for key, (outcome, plies) in facts.items():
        assert memory.known(key) == (1 if outcome == "win" else 2)
        assert memory.plies(key) == plies
    again = Memory.stored(
        [(f.position, f.outcome.value, f.distance) for f in memory], game="connect4-7x6"
    )
    assert again == memory and len(again) == 3000
    shared = Memory.over(memory.table, GAME)
    assert len(shared) == 3000 and isinstance(shared._table, DistanceTable)


def test_a_rules_fact_gets_its_plies_from_the_solver_and_a_contradiction_is_refused():
    memory = Memory(game=GAME)
    code = GAME.replay([3, 3, 3, 3, 3, 3, 2])[-1]
    position = GAME.spell(code)
    assert memory.add(position, WIN)
    key = GAME.key(code)
    assert memory.plies(key) is None
    assert memory.add_proven([(key, "win", 17)]) == 0
    assert memory.plies(key) == 17 and len(memory) == 1
    with pytest.raises(ValueError, match="contradicts"):
        memory.add_proven([(key, "loss", 3)])
    with pytest.raises(ValueError, match="not a distance"):
        Memory(game="connect4").add("....XO..XO..XO..", WIN, 3)


# --- the policy --------------------------------------------------------------------------
def test_it_takes_a_four_then_blocks_one_then_plays_from_the_centre_out():
    memory = Memory(game=GAME)
    assert engine.choose_move(memory, GAME.spell(GAME.empty)) == 3
    take = GAME.replay([0, 0, 1, 1, 2, 2])[-1]
    assert engine.choose_move(memory, GAME.spell(take)) == 3
    block = GAME.replay([0, 6, 1, 6, 2])[-1]  # O to move, X threatens column 3
    assert engine.choose_move(memory, GAME.spell(block)) == 3
    both = GAME.replay([0, 6, 1, 6, 2, 6])[-1]  # X to move: its four beats the block
    assert engine.choose_move(memory, GAME.spell(both)) == 3


def test_it_never_drops_a_stone_under_your_four_where_it_used_to():
    # O to move; X has three in a row on the second row (columns 1-3 as people count), so
    # a stone of O in the empty centre column lets X make four on top of it
    moves = [1, 2, 2, 0, 0, 2, 1]
    code = GAME.replay(moves)[-1]
    memory = Memory(game=GAME)
    known, plies = memory.known, memory.plies
    before = choose_classic(GAME, known, plies, code, careful=False)
    assert before[0] == 3 and GAME.fours(before[1], Mark.X) == [3]  # today: X wins at once
    now = engine.choose_move(memory, GAME.spell(code))
    assert now == 2 and GAME.fours(GAME.play(code, now), Mark.X) == []
    assert GAME.lookahead(code) == (None, None, 1 << 3)
    # if every other column is a known loss, the one under your four (a loss in one ply by
    # the rules) is played only when no known loss lasts longer
    keys = {move: key for move, _child, key in GAME.moves(code)}
    quick = Memory(game=GAME)
    quick.add_proven([(keys[m], "loss", 1) for m in range(7) if m != 3])
    assert engine.choose_move(quick, GAME.spell(code)) == 3
    quick.add(GAME.spell(GAME.play(code, 3)), LOSS)  # a fact of the rules, without plies
    assert engine.choose_move(quick, GAME.spell(code)) == 2  # now all known to lose
    slow = Memory(game=GAME)
    slow.add_proven([(keys[m], "loss", 1 + 2 * (m == 5)) for m in range(7) if m != 3])
    assert engine.choose_move(slow, GAME.spell(code)) == 5


def test_it_takes_its_four_and_blocks_yours_before_looking_under_a_stone():
    rng = random.Random(11)
    memory = Memory(game=GAME)
    checked = 0
    for _ in range(600):
        code = random_position(rng, rng.randrange(6, 30))
        mover = GAME.turn(code)
        take, block = GAME.fours(code, mover), GAME.fours(code, 3 - mover)
        move = engine.choose_move(memory, GAME.spell(code))
        if take:
            assert move == take[0]
        elif block:
            assert move == block[0]
        else:  # the first column from the centre out with no four for you on top of it
            sound = [
                column
                for column, child, _key in GAME.moves(code)
                if column not in GAME.fours(child, 3 - mover)
            ]
            assert move == (sound or [GAME.moves(code)[0][0]])[0]
            checked += 1
    assert checked > 150


def test_it_plays_the_fastest_known_win_and_else_never_a_known_loss_unless_all_are():
    memory = Memory(game=GAME)
    code = GAME.replay([0])[-1]  # not symmetric: each column's key is its own
    keys = {move: key for move, _child, key in GAME.moves(code)}
    position = GAME.spell(code)
    memory.add_proven([(keys[3], "loss", 30), (keys[2], "loss", 10)])
    assert engine.choose_move(memory, position) == 4  # centre-out, first not known to lose
    memory.add_proven([(keys[6], "win", 25), (keys[0], "win", 21)])
    assert engine.choose_move(memory, position) == 0  # the fastest win
    lost = Memory(game=GAME)
    lost.add_proven([(keys[m], "loss", 5 + m) for m in range(7)])
    assert engine.choose_move(lost, position) == 6  # all lose: the slowest loss
    outlook = engine.outlook_plies(memory, position)
    assert outlook[0] == (WIN, 21) and outlook[3] == (LOSS, 30) and outlook[4] is None


# --- the post-mortem ---------------------------------------------------------------------
def play(memory: Memory, bot: Mark, opponent) -> list[int]:
    code, moves = GAME.empty, []
    while GAME.moves(code) is not None:
        if GAME.turn(code) == bot:
            move = engine.choose_move(memory, GAME.spell(code))
        else:
            move = opponent(code)
        moves.append(move)
        code = GAME.play(code, move)
    return moves


def lost_games(count: int, seed: int) -> list[tuple[list[int], Mark]]:
    """Games a fresh bot lost to the weak player (the bot as X and O in turn)."""
    rng, found, memory = random.Random(seed), [], Memory(game=GAME)
    while len(found) < count:
        bot = Mark.X if len(found) % 2 == 0 else Mark.O
        moves = play(memory, bot, weak_player(rng))
        if GAME.winner(GAME.replay(moves)[-1]) == bot.other:
            found.append((moves, bot))
    return found


def decisive_keys(code: int) -> set[int]:
    """The keys after every column of ``code`` that the solver finds a win or a loss."""
    scores = solver.score_all(code)
    return {key for move, _child, key in GAME.moves(code) if scores[move] is not None}


def test_the_post_mortem_stores_every_column_of_every_position_the_bot_faced():
    (moves, bot), *_ = lost_games(1, seed=2)
    facts = engine.post_mortem("connect4-7x6", moves, bot=bot, widen=False)
    codes = [GAME.empty, *GAME.replay(moves)[:-1]]
    faced = set()
    for ply in range(0 if bot is Mark.X else 1, len(moves), 2):
        faced |= decisive_keys(codes[ply])
    assert {key for key, _o, _p in facts} == faced and len(facts) >= len(moves) // 2
    # widened: also every column of the bot wherever another reply of the opponent led
    widened = set(faced)
    for ply in range(1 if bot is Mark.X else 0, len(moves), 2):
        for move, child, _key in GAME.moves(codes[ply]):
            if move != moves[ply] and GAME.moves(child) is not None:
                widened |= decisive_keys(child)
    facts = engine.post_mortem("connect4-7x6", moves, bot=bot)
    assert {key for key, _o, _p in facts} == widened and len(widened) > 3 * len(faced)
    memory = Memory(game=GAME)
    assert engine.apply_post_mortem(memory, facts) == len(facts)
    assert_proven(memory)
    # a game the bot won teaches nothing by the post-mortem
    assert engine.post_mortem("connect4-7x6", moves, bot=bot.other) == []


def test_after_a_loss_it_knows_its_answer_to_replies_the_opponent_did_not_play():
    (moves, bot), *_ = lost_games(1, seed=10)
    widened, narrow = Memory(game=GAME), Memory(game=GAME)
    engine.learn(widened, moves, bot=bot)
    engine.learn(narrow, moves, bot=bot, widen=False)
    codes = [GAME.empty, *GAME.replay(moves)[:-1]]
    deviations = news = 0
    for ply in range(1 if bot is Mark.X else 0, len(moves), 2):  # the opponent to move
        for move, child, _key in GAME.moves(codes[ply]):
            if move == moves[ply] or GAME.moves(child) is None:
                continue
            scores = solver.score_all(child)  # the bot to move, one move off the game
            if all(score is None for score in scores.values()):
                continue  # every column draws: nothing to keep
            deviations += 1
            known = engine.outlook_plies(widened, GAME.spell(child))
            for column, score in scores.items():
                if score is None:
                    assert known[column] is None
                else:
                    assert known[column] == (WIN if score[0] == "win" else LOSS, score[1])
            # the post-mortem of the game alone knew less there (it can know some: Connect
            # Four's positions transpose)
            unknown = engine.outlook_plies(narrow, GAME.spell(child))
            news += any(unknown[c] is None for c, score in scores.items() if score is not None)
            # and it plays what it knows there: the fastest win, else never a known loss
            choice = scores[engine.choose_move(widened, GAME.spell(child))]
            wins = [s[1] for s in scores.values() if s is not None and s[0] == "win"]
            if wins:
                assert choice == ("win", min(wins)) or GAME.lookahead(child)[0] is not None
            elif any(s is None for s in scores.values()):
                assert choice is None or GAME.lookahead(child)[1] is not None
    assert news >= 3 and deviations >= news
    assert_proven(widened)


def test_learning_from_lost_games_stores_only_proven_facts_with_their_plies():
    memory = Memory(game=GAME)
    for moves, bot in lost_games(6, seed=4):
        engine.learn(memory, moves, bot=bot)
    assert len(memory) > 50
    assert_proven(memory)


def test_learn_without_a_side_looks_at_both_sides_and_with_one_only_at_the_bots():
    (moves, bot), *_ = lost_games(1, seed=6)
    rules = len(Memory(game=GAME).learn(moves))
    for widen in (False, True):
        both, one = Memory(game=GAME), Memory(game=GAME)
        assert (
            engine.learn(both, moves, widen=widen)
            > engine.learn(one, moves, bot=bot, widen=widen)
            > rules
        )
        winner = Memory(game=GAME)
        assert engine.learn(winner, moves, bot=bot.other, widen=widen) == rules  # it won
    # between members, widened for both sides: every column after every reply of either
    codes = [GAME.empty, *GAME.replay(moves)[:-1]]
    expected = set()
    for code in codes:
        expected |= decisive_keys(code)
        for _move, child, _key in GAME.moves(code):
            if GAME.moves(child) is not None:
                expected |= decisive_keys(child)
    facts = engine.post_mortem("connect4-7x6", moves)
    assert {key for key, _o, _p in facts} == expected
    assert {stones(GAME.key_code(key)) % 2 for key, _o, _p in facts} == {0, 1}


def test_the_lesson_names_the_losing_move_the_column_that_held_and_the_distance():
    for moves, bot in lost_games(4, seed=8):
        facts = engine.post_mortem("connect4-7x6", moves, bot=bot)
        verdict = engine.describe_post_mortem("connect4-7x6", moves, facts, bot)
        assert verdict is not None and verdict.played == "loss"
        assert moves[verdict.ply] == verdict.column and verdict.ply % 2 == bot - 1
        before = GAME.replay(moves[: verdict.ply])[-1] if verdict.ply else GAME.empty
        scores = solver.score_all(before)
        assert scores[verdict.column][0] == "loss"
        assert scores[verdict.column][1] == verdict.plies
        assert verdict.opponent_moves == (verdict.plies + 1) // 2
        held = scores[verdict.held]
        assert (held is None and verdict.held_outcome == "draw") or held[0] == "win"
        # no earlier move of the bot lost: each was a win, a draw, or played when all lost
        for ply in range(bot - 1, verdict.ply, 2):
            earlier = GAME.replay(moves[:ply])[-1] if ply else GAME.empty
            values = solver.score_all(earlier)
            assert (
                values[moves[ply]] is None
                or values[moves[ply]][0] == "win"
                or all(v is not None and v[0] == "loss" for v in values.values())
            )


@pytest.mark.parametrize("opponent", ["random", "self", "teacher"])
def test_training_on_the_classic_board_learns_only_proven_facts(opponent):
    memory = Memory(game=GAME)
    report = engine.train(memory, 6, opponent=opponent, seed=3)
    assert report.games == 6 and len(memory) == report.new_facts
    if opponent != "random":  # the bot loses some of these: the post-mortem runs
        assert any(plies is not None for _k, _v, plies in memory.distances())
    deep = assert_proven(memory)
    if opponent == "teacher":  # its games are long: the oracle checks facts late in them
        assert deep > 0


def test_the_teacher_is_the_perfect_player_and_wins_every_game_as_x():
    report = engine.train(Memory(game=GAME), 4, opponent="teacher", role=Mark.O, seed=1)
    assert report.losses == 4


def test_whole_tree_analysis_refuses_the_classic_board():
    memory = Memory(game=GAME)
    with pytest.raises(ValueError, match="too large to search"):
        engine.analyse(memory, Mark.X)
    with pytest.raises(ValueError, match="too large to search"):
        engine.LiveAnalysis(memory)


# --- without the solver --------------------------------------------------------------------
WITHOUT_SOLVER = """
import sys
sys.modules["bitbully"] = None  # as on a machine where pip could not build it
import engine
from engine import Memory, Mark, solver
assert not engine.solver_available()
memory = Memory(game="connect4-7x6")
moves = [0, 6, 1, 6, 2, 6, 3]
assert engine.learn(memory, moves, bot=Mark.O) == len(Memory(game="connect4-7x6").learn(moves))
assert engine.choose_move(memory, "." * 42) == 3
for opponent in ("random", "self"):
    engine.train(memory, 20, opponent=opponent, seed=1)
try:
    engine.train(memory, 1, opponent="teacher")
except ValueError as error:
    assert "solver" in str(error)
else:
    raise AssertionError("the teacher ran without a solver")
try:
    engine.post_mortem("connect4-7x6", moves)
except solver.SolverUnavailable:
    pass
else:
    raise AssertionError("a post-mortem ran without a solver")
print("rules only", len(memory))
"""


def test_without_bitbully_the_classic_board_learns_by_the_rules_alone():
    result = subprocess.run(
        [sys.executable, "-c", WITHOUT_SOLVER],
        capture_output=True,
        text=True,
        cwd=ENGINE.parent,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("rules only")


def test_a_memory_read_back_from_stored_runs_is_whole_and_in_order():
    """A store keeps a batch as its new facts, then the plies it gave facts known without
    them (each part in key order, not the whole), and a fact may be in several batches:
    the table read back has each fact once, with its plies when any batch has them."""
    from engine.tables import DistanceTable, stored_entries

    rng = random.Random(5)
    keys = rng.sample(range(1, 1 << 40), 300)
    facts = {key: (rng.choice((1, 2)), rng.choice((None, rng.randrange(43)))) for key in keys}
    runs, before = [], []
    for start in range(0, 330, 30):  # a batch teaches its facts without plies, the next
        batch = keys[start : start + 30]  # one gives the plies of those that have them
        taught = [(k, facts[k][0], None) for k in batch]
        upgrades = [(k, *facts[k]) for k in before if facts[k][1] is not None]
        runs.append(stored_entries(taught) + stored_entries(upgrades))
        before = batch
    table = DistanceTable.from_stored(runs)
    assert runs == []  # taken off the list as read
    assert list(table.data) == sorted(table.data)
    assert [(k, v, p) for k, v, p in table.distances()] == [(k, *facts[k]) for k in sorted(keys)]
