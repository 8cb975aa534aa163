"""One word per concept in every language (issue 41): the glossary in ``i18n/glossary``
gives each language its word for a board, a column, a move, the replay, the post-mortem,
a puzzle, a lesson, the memory, a draw and a record; every message whose English names
the concept says it with that word, and never with the synonyms a reader took for another
feature ("historial" is /history's title, "tablas" is chess)."""

import ast
import re
import tomllib
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from i18n import LOCALES
from i18n.extract import COMMANDS, MARKERS, ROOT, SOURCES

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


# A slash-command choice is a name in a list: a language with cases writes it in the
# nominative. The same text formatted into a sentence ("Training against {opponent}")
# wants another case there, and one msgid cannot have both (issue 41, pl-5): code may put
# a choice's text only where a name stands alone: first, after a colon or opening
# brackets ("Training: {opponent}", "{server}: {ranking}", "({what}: 0 so far)").
NAME_SLOT = r"(?:^|: |\()\{{{}\}}"


def choice_texts(root: Path = ROOT) -> set[str]:
    """The texts of every slash-command choice, where they are declared (see
    ``i18n.extract.in_commands``): ``Choice(name=...)``."""
    found = set()
    for path in sorted((root / COMMANDS).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and call_name(node) == "Choice":
                found |= {
                    k.value.value
                    for k in node.keywords
                    if k.arg == "name" and isinstance(k.value, ast.Constant)
                }
    return found


def call_name(call: ast.Call) -> str | None:
    func = call.func
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)


def says_choice(node: ast.AST, choices: set[str], carriers: set[str]) -> bool:
    """Whether an expression holds a choice's text: marked in place, or through a name that
    was given one."""
    for inner in ast.walk(node):
        if isinstance(inner, ast.Name) and inner.id in carriers:
            return True
        if (
            isinstance(inner, ast.Call)
            and call_name(inner) in ("N_", "Nn_")
            and inner.args
            and isinstance(inner.args[0], ast.Constant)
            and inner.args[0].value in choices
        ):
            return True
    return False


def assigned(scope: ast.AST) -> list[ast.Assign]:
    """The assignments of a module or a function, not of the functions inside it."""
    found, todo = [], list(ast.iter_child_nodes(scope))
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(node, ast.Assign):
            found.append(node)
        todo.extend(ast.iter_child_nodes(node))
    return found


def carried(scope: ast.AST, choices: set[str], known: set[str]) -> set[str]:
    """The names that hold a choice's text in a scope, from ``known`` on, until no
    assignment adds one (``OPPONENT_NAMES = {...: N_(...)}``, then ``opponent =
    OPPONENT_NAMES[...]``)."""
    names = set(known)
    while True:
        more = {
            t.id
            for a in assigned(scope)
            if says_choice(a.value, choices, names)
            for t in a.targets
            if isinstance(t, ast.Name)
        }
        if more <= names:
            return names
        names |= more


def choices_in_sentences(sources: dict[str, str], choices: set[str]) -> list[str]:
    """Each place that formats a choice's text into a message where a name cannot stand
    alone: "file:line: template ({field})"."""
    trees = {where: ast.parse(text) for where, text in sources.items()}
    # a module's names are imported by name elsewhere: known everywhere
    module_wide = set()
    for tree in trees.values():
        module_wide |= carried(tree, choices, set())
    found = []
    for where, tree in trees.items():
        scopes = [tree] + [
            n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
        ]
        for scope in scopes:
            names = carried(scope, choices, module_wide)
            for node in ast.walk(scope):
                if not isinstance(node, ast.Call) or call_name(node) not in MARKERS:
                    continue
                texts = [a.value for a in node.args[: MARKERS[call_name(node)]]]
                texts = [t for t in texts if isinstance(t, str)]
                for keyword in node.keywords:
                    if not keyword.arg or not says_choice(keyword.value, choices, names):
                        continue
                    for text in texts:
                        slots = re.findall(rf"\{{{keyword.arg}\}}", text)
                        alone = re.findall(NAME_SLOT.format(keyword.arg), text)
                        if len(alone) < len(slots):
                            found.append(f"{where}:{node.lineno}: {text!r} ({keyword.arg})")
    return sorted(set(found))


def code_sources(root: Path = ROOT) -> dict[str, str]:
    return {
        str(path.relative_to(root)): path.read_text(encoding="utf-8")
        for source in SOURCES
        for path in sorted((root / source).rglob("*.py"))
    }


def test_a_slash_command_choice_is_never_formatted_into_a_sentence():
    choices = choice_texts()
    assert "a teacher who plays the lines that beat me" in choices  # a choice and a name
    assert choices_in_sentences(code_sources(), choices) == []


def test_a_choice_formatted_into_a_sentence_is_caught():
    """What the check finds: the name of a training opponent, a choice of `/ttt-admin
    train`, as the object of "against", through a table and a variable."""
    source = (
        "NAMES = {'teacher': N_('a teacher')}\n"
        "def title(lang, run):\n"
        "    opponent = NAMES[run]\n"
        "    ok = lang.t('Training: {opponent}', opponent=opponent)\n"
        "    return lang.t('Training against {opponent}', opponent=opponent)\n"
        "def other(lang, member):\n"
        "    return lang.t('{opponent} declined', opponent=member)\n"
    )
    assert choices_in_sentences({"x.py": source}, {"a teacher"}) == [
        "x.py:5: 'Training against {opponent}' (opponent)"
    ]
