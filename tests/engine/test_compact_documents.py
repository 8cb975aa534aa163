"""Memory documents of every size (issue 23): the compact version 2 the bot writes for
Connect Four, the version 1 files people already hold, and forged ones of either."""

import json
import random

import pytest

import engine
from engine import Memory, MemoryFormatError, get_game
from engine.transport import read_document
from tests.engine.random_play import learn_random_games


def trained(game: str, games: int, seed: int = 5) -> Memory:
    return learn_random_games(Memory(game=game), games, random.Random(seed))


@pytest.fixture(scope="module")
def big() -> Memory:
    # as big as the test's time allows: 15,000 games of 5x4 random play, about 25,000 lessons
    return trained("connect4-5x4", 15_000)


def test_a_big_memory_exported_compactly_imports_back(big):
    document = engine.export_memory(big)
    assert document["version"] == 2 and document["board"] == "5x4"
    assert len(document["facts"]) == len(big) > 20_000
    text = json.dumps(document, separators=(",", ":"))
    assert len(text) < 5 * len(big)  # version 1 takes 68 bytes a fact
    told = []
    again = engine.import_memory(text, game="connect4-5x4", progress=lambda *p: told.append(p))
    assert again == big
    assert told[-1] == (2 * len(big), 2 * len(big)) and len(told) > 3
    assert [done for done, _ in told] == sorted(done for done, _ in told)


def test_a_version_1_file_still_imports(big):
    old = engine.export_memory(big, compact=False)
    assert old["version"] == 1 and old["facts"][0].keys() == {"position", "outcome"}
    assert engine.import_memory(json.dumps(old, indent=1)) == big
    small = trained("connect4", 300)
    assert engine.import_memory(json.dumps(engine.export_memory(small, compact=False))) == small


def test_tic_tac_toe_can_be_written_compactly_too():
    memory = Memory()
    engine.train(memory, 2000, seed=2)
    document = engine.export_memory(memory, compact=True)
    assert document["game"] == "tictactoe" and document["version"] == 2
    assert engine.import_memory(json.dumps(document)) == memory


def compact_with(game: str, facts: list) -> dict:
    rules = get_game(game)
    return {"format": "ttt-memory", "version": 2, "game": "connect4", "board": rules.board,
            "facts": facts}  # fmt: skip


def codes(game: str, *facts: tuple[str, str]) -> list[int]:
    """Version 2's entries for these (position, outcome) facts, in their order."""
    rules, previous, entries = get_game(game), -1, []
    for position, outcome in facts:
        code = rules.parse(position)
        entries.append((code - previous - 1) * 2 + (outcome == "loss"))
        previous = code
    return entries


WIN_IN_COLUMN_1 = "X...X...X...XOOO"  # 4x4: X has four in column 1, just played
OPEN = "............XO.."


@pytest.mark.parametrize(
    ("facts", "message"),
    [
        (["1"], r"facts\[0\] must be a whole number"),
        ([3, -1], r"facts\[1\] must be a whole number"),
        ([True], r"facts\[0\] must be a whole number"),
        ([1 << 30], r"facts\[0\] names a code beyond the 4x4 board"),
        # a loss where a line was completed: the last bit says loss
        (codes("connect4", (WIN_IN_COLUMN_1, "loss")), r"facts\[0\].*completes a line"),
        # a win nobody proved
        (
            codes("connect4", (OPEN, "win")),
            r"facts\[0\]: position .\.{12}XO\.\.. as a win .*not proven",
        ),
        # a code no legal game reaches: column bits with no stone marker
        ([0], r"facts\[0\]: position .* cannot arise in a legal game"),
    ],
)
def test_forged_compact_documents_are_refused_naming_the_entry(facts, message):
    with pytest.raises(MemoryFormatError, match=message):
        engine.import_memory(compact_with("connect4", facts))


def test_a_forged_entry_among_many_true_ones_is_named(big):
    document = engine.export_memory(big)
    victim = len(document["facts"]) // 2
    document["facts"][victim] ^= 1  # its outcome turned round
    with pytest.raises(MemoryFormatError, match=rf"facts\[{victim}\]: position '[XO.]{{20}}'"):
        engine.import_memory(document)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"format": "ttt-memory", "facts": [1, 2', "not JSON"),
        ('{"format": "ttt-memory"} extra', "not JSON: extra data"),
        ('{"a": 1 "b": 2}', "not JSON"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ],
)
def test_the_reader_refuses_what_is_not_json(text, message):
    with pytest.raises(MemoryFormatError, match=message):
        read_document(text)


def test_the_reader_reads_json_as_json_does():
    text = '\ufeff { "format" : "ttt-memory", "facts" : [ {"position": "X", "outcome": "win"} ,' \
        ' 3 ] , "n" : {"a": [1, 2]}, "empty": [] }'  # fmt: skip
    assert read_document(text.encode("utf-8")) == json.loads(text.lstrip("\ufeff"))
