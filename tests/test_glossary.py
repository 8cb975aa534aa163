"""One word per concept in every language (issue 41): the glossary in ``i18n/glossary``
gives each language its word for a board, a column, a move, the replay, the post-mortem,
a puzzle, a lesson, the memory, a draw and a record; every message whose English names
the concept says it with that word, and never with the synonyms a reader took for another
feature ("historial" is /history's title, "tablas" is chess)."""

import re
import tomllib
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from i18n import LOCALES

GLOSSARY = Path(LOCALES).with_name("glossary")
CONCEPTS = tomllib.loads((GLOSSARY / "concepts.toml").read_text(encoding="utf-8"))
# what a message names is in its words: a `command` or a {field} says nothing of it
LEFT_OUT = re.compile(r"`[^`]+`|\{\w+\}")
CATALOGS = sorted(LOCALES.glob("*.po"))


def glossary(code: str) -> dict:
    return tomllib.loads((GLOSSARY / f"{code}.toml").read_text(encoding="utf-8"))


def folded(text: str) -> str:
    """Lower case, as a reader compares words: Turkish "İ" lowers to "i" and a combining
    dot, which no stem has."""
    return LEFT_OUT.sub(" ", text).lower().replace("\u0307", "")


def named(msgid: str) -> list[str]:
    """The concepts a message's English names."""
    words = LEFT_OUT.sub(" ", msgid)
    return [c for c, about in CONCEPTS.items() if re.search(about["english"], words, re.I)]


def wrong_words(catalog: Catalog, words: dict) -> list[str]:
    """Each translation that names a concept without its word, or with a word it must not
    use: "concept: msgid -> translation"."""
    found = []
    for entry in catalog:
        if not entry.id:
            continue
        ids = (entry.id,) if isinstance(entry.id, str) else entry.id
        forms = (entry.string,) if isinstance(entry.string, str) else entry.string
        for concept in named(" ".join(ids)):
            word = words[concept]
            for form in forms:
                text = folded(form)
                if not any(stem.lower() in text for stem in word["stems"]):
                    found.append(f"{concept} (not {word['word']!r}): {ids[0]!r} -> {form!r}")
                for never in word.get("never", ()):
                    if re.search(never, text, re.I):
                        found.append(f"{concept} ({never!r}): {ids[0]!r} -> {form!r}")
    return found


def load(path: Path) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=path.stem.replace("-", "_"))


def test_every_language_has_a_word_for_every_concept():
    assert {p.stem for p in GLOSSARY.glob("*.toml")} - {"concepts"} == {p.stem for p in CATALOGS}
    for path in CATALOGS:
        words = glossary(path.stem)
        assert set(words) == set(CONCEPTS), path.stem
        for concept, word in words.items():
            assert word["word"] and word["stems"], (path.stem, concept)
            # the word shown to translators is one the check finds
            assert any(s.lower() in word["word"].lower() for s in word["stems"]), (
                path.stem,
                concept,
            )


def test_every_concept_is_named_by_some_message():
    """A concept whose English pattern matches nothing would check nothing."""
    with (LOCALES / "de.po").open("rb") as f:
        ids = [e.id if isinstance(e.id, str) else e.id[0] for e in read_po(f) if e.id]
    for concept in CONCEPTS:
        assert [i for i in ids if concept in named(i)], concept


@pytest.mark.parametrize("path", CATALOGS, ids=lambda p: p.stem)
def test_each_concept_keeps_its_one_word(path):
    assert wrong_words(load(path), glossary(path.stem)) == []


def test_a_synonym_or_a_missing_word_is_caught():
    """The check fails on what the readers found: chess's "tablas" for a draw, and a record
    called by /history's name."""
    catalog = Catalog(locale="es_ES")
    catalog.add("A draw: the board is full.", "Tablas: el tablero está lleno.")
    catalog.add("Delete your games and records in this server?", "¿Borrar tu historial?")
    catalog.add("Nothing new: I knew all of that already.", "Nada nuevo: ya lo sabía todo.")
    found = wrong_words(catalog, glossary("es-ES"))
    assert len(found) == 4, found  # no "empate", "tablas", no "balance", "historial"
    assert not any("Nothing new" in f for f in found)
    # and the concepts are found in the English, as the words say them
    assert named("A draw: the board is full.") == ["board", "draw"]
    assert named("Who moves first ({mark}) is drawn at random.") == []
    assert named("`/connect4 stats` shows your record.") == ["record"]
    assert named("`board`") == []
