"""The classic board's (7×6) memory documents: written with distances, and every fact
re-proven by the exact solver on the way in."""

import json
import random

import pytest

import engine
from engine import Mark, Memory, MemoryFormatError

CLASSIC = "connect4-7x6"
GAME = engine.get_game(CLASSIC)
EMPTY_BUT = "." * 35  # the six rows above the bottom one


def random_game(rng: random.Random) -> list[int]:
    code, moves = GAME.empty, []
    while (options := GAME.moves(code)) is not None:
        move = rng.choice([move for move, _child, _key in options])
        moves.append(move)
        code = GAME.play(code, move)
    return moves


def learned_memory(games: int = 16, seed: int = 3) -> Memory:
    """A memory as the bot makes it: the rules, and the post-mortem of its games lost."""
    rng, memory = random.Random(seed), Memory(game=CLASSIC)
    for index in range(games):
        engine.learn(memory, random_game(rng), bot=Mark.X if index % 2 else Mark.O)
    return memory


@pytest.fixture(scope="module")
def memory() -> Memory:
    return learned_memory()


@pytest.fixture(scope="module")
def document(memory) -> dict:
    return engine.export_memory(memory)


def forged(document: dict, index: int, **changes) -> dict:
    facts = [dict(fact) for fact in document["facts"]]
    facts[index].update(changes)
    facts[index] = {key: value for key, value in facts[index].items() if value is not None}
    return {**document, "facts": facts}


def with_plies(document: dict) -> int:
    """The index of a fact far from the end, with its distance."""
    return next(i for i, fact in enumerate(document["facts"]) if fact.get("plies", 0) >= 5)


def test_export_writes_positions_as_42_characters_with_their_outcome_and_distance(memory, document):
    assert (document["format"], document["version"]) == ("ttt-memory", 1)
    assert (document["game"], document["board"]) == ("connect4", "7x6")
    assert len(document["facts"]) == len(memory) > 100
    plies = memory.plies
    for fact, (key, value, distance) in zip(document["facts"], memory.distances(), strict=True):
        assert len(fact["position"]) == 42 and set(fact["position"]) <= set(".XO")
        assert GAME.key(GAME.parse(fact["position"])) == key
        assert fact["outcome"] == ("win" if value == 1 else "loss")
        assert fact.get("plies") == distance == plies(key)
    assert sum("plies" in fact for fact in document["facts"]) > len(memory) // 2


def test_round_trip_keeps_every_fact_and_distance_and_proves_the_missing_ones(memory, document):
    back = engine.import_memory(json.dumps(document), game=CLASSIC)
    assert len(back) == len(memory)
    mine, theirs = list(memory.distances()), list(back.distances())
    assert [fact[:2] for fact in mine] == [fact[:2] for fact in theirs]
    for (key, _value, plies), (_key, _, proven) in zip(mine, theirs, strict=True):
        assert proven is not None
        assert plies is None or plies == proven, key
    # what it proves is what the post-mortem (the same solver, another way) stores
    again = engine.import_memory(engine.export_memory(back), game=CLASSIC)
    assert list(again.distances()) == theirs


def test_a_flipped_outcome_is_refused_naming_it(document):
    index = with_plies(document)
    flipped = "loss" if document["facts"][index]["outcome"] == "win" else "win"
    with pytest.raises(MemoryFormatError, match=rf"facts\[{index}\].*\(the solver\)"):
        engine.import_memory(forged(document, index, outcome=flipped), game=CLASSIC)


def test_a_wrong_distance_is_refused_naming_it(document):
    index = with_plies(document)
    plies = document["facts"][index]["plies"]
    with pytest.raises(MemoryFormatError, match=rf"facts\[{index}\].*in {plies + 2} plies"):
        engine.import_memory(forged(document, index, plies=plies + 2), game=CLASSIC)


def test_a_fact_without_its_distance_is_taken_only_as_the_solver_proves_it(document):
    index = with_plies(document)
    bare = forged(document, index, plies=None)
    assert "plies" not in bare["facts"][index]
    back = engine.import_memory(bare, game=CLASSIC)
    key = GAME.key(GAME.parse(document["facts"][index]["position"]))
    assert back.plies(key) == document["facts"][index]["plies"]


@pytest.mark.parametrize(
    ("position", "outcome", "why"),
    [
        (EMPTY_BUT + "...X...", "loss", "is a win for its mover"),  # the centre wins
        (EMPTY_BUT + "..X....", "win", "is a draw under perfect play"),  # column 3 draws
        (EMPTY_BUT + "X......", "win", "is a loss for its mover"),  # column 1 loses
    ],
)
def test_an_invented_fact_about_a_legal_position_is_refused(document, position, outcome, why):
    later = [fact for fact in document["facts"] if fact["position"].count(".") < 40][:3]
    invented = {**document, "facts": [*later, {"position": position, "outcome": outcome}]}
    with pytest.raises(MemoryFormatError, match=rf"facts\[3\]: position '{position}'.*{why}"):
        engine.import_memory(invented, game=CLASSIC)


def test_the_openings_true_facts_are_accepted_with_the_solvers_distance():
    truth = {"format": "ttt-memory", "version": 1, "game": "connect4", "board": "7x6",
             "facts": [{"position": EMPTY_BUT + "...X...", "outcome": "win"},
                       {"position": EMPTY_BUT + "X......", "outcome": "loss"}]}  # fmt: skip
    memory = engine.import_memory(truth, game=CLASSIC)
    assert {fact.outcome.value for fact in memory} == {"win", "loss"} and len(memory) == 2
    assert all(fact.distance is not None and fact.distance > 30 for fact in memory)


@pytest.mark.parametrize(
    "position",
    [
        EMPTY_BUT + "XX.X...",  # three X stones and no O
        "." * 28 + "...X..." + "." * 7,  # a floating stone
    ],
)
def test_an_illegal_position_is_refused_naming_it(document, position):
    illegal = {**document, "facts": [document["facts"][0], {"position": position,
                                                             "outcome": "win"}]}  # fmt: skip
    with pytest.raises(MemoryFormatError, match=r"facts\[1\]"):
        engine.import_memory(illegal, game=CLASSIC)


def test_a_document_of_another_board_size_is_refused(document):
    with pytest.raises(MemoryFormatError, match="unknown"):
        engine.import_memory({**document, "board": "7x7"}, game=CLASSIC)
    small = engine.export_memory(Memory([("." * 19 + "X", "loss")], game="connect4-5x4"))
    with pytest.raises(MemoryFormatError, match="not a"):
        engine.import_memory(small, game=CLASSIC)
    # a 7x6 document whose positions are another board's
    short = {**document, "facts": [{"position": "." * 19 + "X", "outcome": "loss"}]}
    with pytest.raises(MemoryFormatError, match=r"facts\[0\].*42 characters"):
        engine.import_memory(short, game=CLASSIC)


def test_a_compact_document_an_earlier_bot_wrote_is_read_and_re_proven(memory, document):
    # version 2, as the compact writer made it for every board before the classic one's
    codes, previous, facts = sorted((GAME.key_code(k), v) for k, v in memory.items()), -1, []
    for code, value in codes:
        facts.append((code - previous - 1) * 2 + (value == 2))
        previous = code
    compact = {**document, "version": 2, "facts": facts}
    back = engine.import_memory(json.dumps(compact), game=CLASSIC)
    assert [fact[:2] for fact in back.distances()] == [fact[:2] for fact in memory.distances()]
    assert all(plies is not None for _key, _value, plies in back.distances())
    facts[5] ^= 1  # a flipped outcome
    with pytest.raises(MemoryFormatError, match=r"facts\[5\].*\(the solver\)"):
        engine.import_memory({**compact, "facts": facts}, game=CLASSIC)
    # a memory too big for one file as people read it is written so, without distances:
    # the import re-proves them, so nothing is lost
    written = engine.export_memory(memory, compact=True)
    assert written["version"] == 2 and len(written["facts"]) == len(memory)
    again = engine.import_memory(json.dumps(written), game=CLASSIC)
    assert list(again.distances()) == list(back.distances())


def test_without_the_solver_a_classic_document_is_refused_not_taken_unchecked(
    document, monkeypatch
):
    from engine import solver

    monkeypatch.setattr(solver, "_available", [False])
    with pytest.raises(MemoryFormatError, match="re-proven by the solver"):
        engine.import_memory(document, game=CLASSIC)
