import json

import pytest

import engine
from engine import LOSS, WIN, Memory, MemoryFormatError


def trained_memory() -> Memory:
    memory = Memory()
    engine.train(memory, 2000, seed=11)
    return memory


def test_export_has_the_documented_shape():
    memory = Memory([("XO..X....", WIN), ("XO.......", LOSS)])
    doc = engine.export_memory(memory)
    assert doc["format"] == "ttt-memory" and doc["version"] == 1
    assert len(doc["facts"]) == 2
    for fact in doc["facts"]:
        assert set(fact) == {"position", "outcome"}
        assert len(fact["position"]) == 9 and set(fact["position"]) <= set("XO.")
        assert fact["outcome"] in ("win", "loss")
    json.dumps(doc)  # serialisable as it is


def test_round_trip_keeps_the_memory_as_dict_and_as_json_text():
    memory = trained_memory()
    doc = engine.export_memory(memory)
    assert engine.import_memory(doc) == memory
    assert engine.import_memory(json.dumps(doc)) == memory
    assert engine.import_memory(json.dumps(doc).encode()) == memory


def test_any_orientation_is_accepted_and_folds_into_one_fact():
    memory = engine.import_memory(
        {
            "format": "ttt-memory",
            "version": 1,
            "facts": [
                {"position": "XO..X....", "outcome": "win"},
                {"position": "..X.XO...", "outcome": "win"},
            ],
        }  # the same, turned
    )
    assert len(memory) == 1
    assert memory.outcome("....X..OX") is WIN


def doc_with(*facts, **top):
    return {"format": "ttt-memory", "version": 1, "facts": list(facts), **top}


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ("{not json", "not JSON"),
        ("[]", "JSON object"),
        ({"format": "chess", "version": 1, "facts": []}, '"format"'),
        (doc_with(version=2), "unknown version 2"),
        (doc_with(version=True), "unknown version"),
        ({"format": "ttt-memory", "version": 1}, '"facts" must be a list'),
        (doc_with("XO..X...."), r"facts\[0\] must be an object"),
        (doc_with({"position": "XO..X...."}), r"facts\[0\] must be an object"),
        (doc_with({"position": "XO..X....", "outcome": "draw"}), r"facts\[0\]: outcome must be"),
        (doc_with({"position": "XO..X...", "outcome": "win"}), r"facts\[0\]: position"),
        (doc_with({"position": 7, "outcome": "win"}), r"facts\[0\]: position"),
        (
            doc_with(
                {"position": "XO..X....", "outcome": "win"},
                {"position": "OO.......", "outcome": "win"},
            ),
            r"facts\[1\]: position 'OO\.\.\.\.\.\.\.' cannot arise",
        ),
        (doc_with({"position": "XXXOO....", "outcome": "loss"}), r"facts\[0\].*completes a line"),
        (doc_with({"position": "XOXXOOOXX", "outcome": "win"}), r"facts\[0\].*finished draw"),
        (doc_with({"position": ".........", "outcome": "win"}), r"facts\[0\].*empty board"),
        (
            doc_with(
                {"position": "XO..X....", "outcome": "win"},
                {"position": "..X.XO...", "outcome": "loss"},
            ),
            r"facts\[1\].*already known as a win",
        ),
    ],
)
def test_bad_documents_are_rejected_naming_the_bad_entry(document, message):
    memory = trained_memory()
    before = memory.copy()
    with pytest.raises(MemoryFormatError, match=message):
        engine.import_memory(document)
    assert memory == before
