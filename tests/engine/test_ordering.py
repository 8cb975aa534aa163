"""The classic board's learned ordering (issue 43): a board model trained only on a
memory's proven facts, which only reorders the columns the facts and the rules leave
open, and is never a fact."""

from __future__ import annotations

import random
from array import array

import numpy as np
import pytest

import engine
from bench.classic import weak_player
from engine import Mark, Memory, get_game
from engine.ordering import (
    CLASS_COUNT,
    SIZE,
    WINDOWS,
    BoardModel,
    features,
    fit_memory,
    refit_memory,
    size_of,
)
from engine.policy import choose_classic, model_gains
from tests.engine.test_classic import assert_proven, play, random_position

GAME = get_game("connect4-7x6")


def random_model(seed: int, kind: str = "learned") -> BoardModel:
    """A model of random weights: an adversary of the policy's rules, not a good player."""
    size = size_of(kind.endswith("-sides"))
    weights = np.random.default_rng(seed).normal(scale=2.0, size=size)
    model = BoardModel(kind, array("d", weights.tobytes()))
    model.trained_on = 1_000  # as if it had learned: a model orders once it has
    return model


def sides(code: int) -> tuple[int, int, bool]:
    """The stones of the player who made the last move into ``code``, the other's, and
    whether that player moved first."""
    xs, stones, count = GAME._boards(code)
    first = count % 2 == 1
    mine = xs if first else stones ^ xs
    return mine, stones ^ mine, first


def test_the_model_is_the_69_windows_mirror_shared_2918_weights_23_kb():
    assert len(WINDOWS) == 69 and CLASS_COUNT == 36 and SIZE == 2918
    assert BoardModel("learned").nbytes == 2918 * 8 and BoardModel().nbytes < 64 * 1024
    assert BoardModel("blend-sides").nbytes == 5834 * 8 < 64 * 1024
    with pytest.raises(ValueError):
        BoardModel("guess")


@pytest.mark.parametrize("kind", ["learned", "learned-sides"])
def test_its_plain_python_scores_agree_with_numpy_and_with_the_mirror(kind):
    """The hot path reads each window with one shift, mask and multiply: the same
    contents as the fit's numpy decoding of keys, for the position and its mirror (with
    a table for each side of the mover too, the benchmark's experiment)."""
    rng = random.Random(5)
    model = random_model(1, kind)
    weights = np.frombuffer(model.weights, dtype=np.float64)
    for _ in range(200):
        code = random_position(rng, rng.randrange(1, 30))
        keys = np.array([GAME.key(code)], dtype=np.uint64)
        index, _first = features(np, keys, kind.endswith("-sides"))
        expected = weights[index[0]].sum()
        assert model.score(*sides(code)) == pytest.approx(expected)
        assert model.score(*sides(GAME.mirror(code))) == pytest.approx(expected)
        moves = GAME.moves(code)
        if moves is None:
            continue
        # a column's gain is its child's score less the others': they differ only by it
        gains = model_gains(GAME, model, code, [move[0] for move in moves])
        scores = [model.score(*sides(child)) for _move, child, _key in moves]
        for gain, score in zip(gains, scores, strict=True):
            assert gain - gains[0] == pytest.approx(score - scores[0])


def test_the_model_only_reorders_the_columns_the_facts_and_rules_leave_open():
    """600 random positions where a fact or a rule decides (a four to take or block, a
    known win, a single column left open, every column known to lose): the move is the
    same with any model. And where it ranks, its column is one of the open ones."""
    rng = random.Random(43)
    models = [random_model(seed) for seed in range(6)]
    decided = ranked = 0
    while decided < 600:
        code = random_position(rng, rng.randrange(0, 36))
        moves = GAME.moves(code)
        facts = {}
        for _move, _child, key in moves:  # made-up knowledge: the policy only reads it
            roll = rng.random()
            if roll < 0.08:
                facts[key] = (1, rng.randrange(1, 30))
            elif roll < 0.55:
                facts[key] = (2, rng.randrange(1, 30))
        known = lambda key, facts=facts: facts.get(key, (0, None))[0]  # noqa: E731
        plies = lambda key, facts=facts: facts.get(key, (0, None))[1]  # noqa: E731
        take, block, gifts = GAME.lookahead(code)
        open_ = [m[0] for m in moves if not known(m[2]) and not gifts >> m[0] & 1]
        wins = any(known(m[2]) == 1 for m in moves)
        plain = choose_classic(GAME, known, plies, code)[0]
        with_models = {choose_classic(GAME, known, plies, code, model=model)[0] for model in models}
        if take is not None or block is not None or wins or len(open_) < 2:
            decided += 1
            assert with_models == {plain}, GAME.spell(code)
        else:
            ranked += 1
            assert with_models <= set(open_), GAME.spell(code)
    assert ranked > 100  # the other side was tried too


def test_a_model_that_has_learned_nothing_leaves_the_centre_out_order():
    """Before its first lesson the bot plays from the centre out, as on its first day,
    whatever its model's starting weights (the evaluation it blends with its lessons);
    the fixed evaluation, the benchmark's control, always orders."""
    rng = random.Random(7)
    memory = Memory(game=GAME)
    untaught = random_model(5)
    untaught.trained_on = 0
    fixed = BoardModel("fixed")
    assert not BoardModel().active and not untaught.active and fixed.active
    changed = 0
    for _ in range(100):
        board = GAME.spell(random_position(rng, rng.randrange(0, 20)))
        plain = engine.choose_move(memory, board)
        assert engine.choose_move(memory, board, model=BoardModel()) == plain
        assert engine.choose_move(memory, board, model=untaught) == plain
        assert engine.suggestion(memory, board, untaught) is None
        changed += engine.choose_move(memory, board, model=fixed) != plain
    assert changed > 10


def test_the_easier_boards_never_use_it():
    memory = Memory(game="connect4")
    assert engine.choose_move(memory, "." * 16, model=random_model(3)) == 0
    assert engine.suggestion(memory, "." * 16, random_model(3)) is None


def trained_memory(games: int = 6, seed: int = 4) -> Memory:
    """A memory taught by a few lost games' post-mortems (the solver's proven facts)."""
    from tests.engine.test_classic import lost_games

    memory = Memory(game=GAME)
    for moves, bot in lost_games(games, seed=seed):
        engine.learn(memory, moves, bot=bot)
    return memory


@pytest.fixture(scope="module")
def taught() -> Memory:
    return trained_memory()


def test_one_memory_gives_one_model_whatever_order_it_learned_in(taught):
    facts = list(taught)
    again = Memory(game=GAME)
    for fact in reversed(facts):
        again.add(fact.position, fact.outcome, fact.distance)
    first, second = fit_memory(taught), fit_memory(again)
    assert first.weights == second.weights and first.weights != BoardModel().weights
    assert first.trained_on == len(taught) > 100


def test_a_refit_is_a_new_model_and_follows_its_history(taught):
    model = fit_memory(taught)
    before = array("d", model.weights)
    keys = [key for key, _value in list(taught.items())[:40]]
    refitted = refit_memory(model, taught, keys)
    assert model.weights == before  # others may be reading it
    assert refitted.weights != before and refitted.trained_on == model.trained_on + 40
    assert refit_memory(model, taught, keys).weights == refitted.weights
    assert refit_memory(model, taught, []) is model


def test_the_learned_model_predicts_its_facts_better_than_chance(taught):
    model = fit_memory(taught)
    right = 0
    for key, value in taught.items():
        right += (model.score(*sides(GAME.key_code(key))) > 0) == (value == 1)
    assert right > 0.7 * len(taught)


def test_the_fixed_evaluation_is_never_trained_and_the_blend_starts_from_it(taught):
    fixed = fit_memory(taught, "fixed")
    assert fixed.weights == BoardModel("fixed").weights and fixed.trained_on == 0
    assert refit_memory(fixed, taught, [next(iter(taught.items()))[0]]) is fixed
    assert fit_memory(taught, "blend").weights != fixed.weights


def test_a_suggestion_ranks_the_open_columns_and_says_how_many_positions_taught_it(taught):
    model = fit_memory(taught)
    found = 0
    rng = random.Random(9)
    for _ in range(200):
        code = random_position(rng, rng.randrange(0, 20))
        suggestion = engine.suggestion(taught, GAME.spell(code), model, chances=True)
        chosen = engine.choose_move(taught, GAME.spell(code), model=model)
        if suggestion is None:
            assert chosen == engine.choose_move(taught, GAME.spell(code))
            continue
        found += 1
        columns = list(suggestion.ranking)
        assert suggestion.column == columns[0] == chosen and len(columns) >= 2
        assert suggestion.centre in columns and suggestion.trained_on == len(taught)
        chances = suggestion.chances
        assert len(chances) == len(columns) and all(0 < chance < 1 for chance in chances)
        assert list(chances) == sorted(chances, reverse=True)  # best first
        # the chance is the model's estimate for the position after the column
        for column, chance in zip(columns, chances, strict=True):
            after = GAME.play(code, column)
            assert chance == pytest.approx(1 / (1 + np.exp(-model.score(*sides(after)))))
        plain = engine.suggestion(taught, GAME.spell(code), model)
        assert plain.chances is None and plain.ranking == suggestion.ranking
        assert next(c for c in GAME.order if c in columns) == suggestion.centre
    assert found > 50


def test_learning_from_a_game_teaches_the_same_facts_with_the_model_on_or_off(taught):
    """The model changes moves, never what a game teaches: the same game learned into
    two copies of a memory, one with a model fitted and in use, gives equal memories;
    and a run whose bot played by the model learned only proven facts."""
    rng = random.Random(11)
    model = fit_memory(taught)
    on = taught.copy()
    moves = []
    code = GAME.empty
    while GAME.moves(code) is not None:  # a game the bot plays by its model
        if GAME.turn(code) == Mark.X:
            move = engine.choose_move(on, GAME.spell(code), model=model)
        else:
            move = weak_player(rng)(code)
        moves.append(move)
        code = GAME.play(code, move)
    off = taught.copy()
    assert engine.learn(on, moves, bot=Mark.X) == engine.learn(off, moves, bot=Mark.X)
    assert on == off
    assert_proven(on)


def test_a_run_played_by_the_model_learns_only_proven_facts():
    """Games a bot plays by its model, refitted after each, against the weak player: the
    solver and the independent oracle check every fact it learned."""
    rng = random.Random(21)
    memory, model = Memory(game=GAME), BoardModel()
    for game in range(30):  # until it has lost a game or two
        if len(memory) > 20:
            break
        bot = Mark.X if game % 2 == 0 else Mark.O
        moves = play_by(memory, model, bot, weak_player(rng))
        known = memory.known
        keys = {GAME.key(code) for code in GAME.replay(moves)}
        before = {key for key in keys if known(key)}
        engine.learn(memory, moves, bot=bot)
        model = refit_memory(model, memory, sorted(k for k in keys - before if known(k)))
    assert len(memory) > 20
    assert_proven(memory)


def play_by(memory: Memory, model: BoardModel, bot: Mark, opponent) -> list[int]:
    code, moves = GAME.empty, []
    while GAME.moves(code) is not None:
        if GAME.turn(code) == bot:
            move = engine.choose_move(memory, GAME.spell(code), model=model)
        else:
            move = opponent(code)
        moves.append(move)
        code = GAME.play(code, move)
    return moves


assert play  # the classic tests' own player, imported for its memory of lost games
