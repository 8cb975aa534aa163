"""Every word the bot says in Discord, in the reader's language.

Messages are written in English in the code, marked where they are written, and
translated by standard gettext catalogs, one ``.po`` file per language in
``i18n/locales/`` named by its Discord locale (``de.po``, ``pt-BR.po``). The catalogs are
read as they are when the bot starts: no build step, and adding a language is adding one
file. Plurals follow each catalog's ``Plural-Forms``; numbers are written in each
locale's way by Babel.

How code marks a message (``tests/test_i18n.py`` finds them all, and fails when a
catalog lacks one):

- ``lang.t("Your turn, {player}.", player=…)``: said now, in ``lang``;
- ``lang.tn("{count} lesson", "{count} lessons", count)``: the same, with a plural;
- ``N_(…)`` and ``Nn_(…)``: a message said later (:class:`Msg`), by whoever knows the
  reader's language: a refusal of the game flow, a constant.

Integers and floats among the arguments are written in the language's number format; a
:class:`Msg` argument is said in the same language. Ids go in as strings
(``player=f"<@{id}>"``) so that no digit grouping touches them.
"""

from __future__ import annotations

import functools
import gettext
import io
from pathlib import Path

from babel import Locale
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

LOCALES = Path(__file__).with_name("locales")


class Msg:
    """A message to be said later, in the reader's language; ``str()`` says it in English
    (the terminal, logs)."""

    __slots__ = ("args", "count", "plural", "text")

    def __init__(self, text: str, plural: str | None, count: int, args: dict) -> None:
        self.text, self.plural, self.count, self.args = text, plural, count, args

    def __str__(self) -> str:
        return ENGLISH.say(self)

    def __repr__(self) -> str:
        return f"Msg({self.text!r})"

    def with_args(self, **args) -> Msg:
        """The same message with more arguments (a sentence kept in a table, filled in
        where it is said)."""
        return Msg(self.text, self.plural, self.count, {**self.args, **args})


def N_(text: str, /, **args) -> Msg:
    return Msg(text, None, 0, args)


def Nn_(singular: str, plural: str, count: int, /, **args) -> Msg:
    return Msg(singular, plural, count, args)


# A board says the same few sentences on every move ("Your turn, <@…> (❌): pick a free
# cell.", "I know 12 lessons in this server."): each language keeps up to this many as said,
# so that a move neither looks them up in the catalog nor formats them again.
SAID_KEPT = 1024


class Language:
    """One language's catalog, plural rule and number format."""

    def __init__(
        self, code: str, translations: gettext.NullTranslations, known: frozenset[str] = frozenset()
    ) -> None:
        self.code = code  # the Discord locale: "de", "pt-BR", "en-US"
        self.locale = Locale.parse(code, sep="-")
        self._translations = translations
        self.known = known  # the messages its catalog translates
        self._kept: dict[tuple, str] = {}  # messages said, with their arguments

    def knows(self, text: str) -> bool:
        return text in self.known

    def __repr__(self) -> str:
        return f"Language({self.code!r})"

    def __reduce__(self):
        # sent to another process (a picture's labels) by its code alone: the catalogs
        # are loaded there too
        return language, (self.code,)

    def t(self, text: str, /, **args) -> str:
        return self._said(text, None, 0, args)

    def tn(self, singular: str, plural: str, count: int, /, **args) -> str:
        """``count`` picks the plural form, and is ``{count}`` in the text."""
        return self._said(singular, plural, count, args)

    def _said(self, text: str, plural: str | None, count: int, args: dict) -> str:
        """A message said, from :attr:`_kept` when it was said so before (see
        :data:`SAID_KEPT`)."""
        key = [text, plural, count]
        for name, value in args.items():
            kind = type(value)
            if kind is Msg:
                value = args[name] = self.say(value)
            elif kind is not str and kind is not int:  # a bool or a float is equal, as a
                return self._say_afresh(text, plural, count, args)  # key, to an int: not kept
            key += (name, value)
        if type(count) is not int:
            return self._say_afresh(text, plural, count, args)
        key = tuple(key)
        said = self._kept.get(key)
        if said is None:
            said = self._say_afresh(text, plural, count, args)
            if len(self._kept) >= SAID_KEPT:
                self._kept.clear()
            self._kept[key] = said
        return said

    def _say_afresh(self, text: str, plural: str | None, count: int, args: dict) -> str:
        if plural is None:
            return self._format(self._translations.gettext(text), args)
        return self._format(
            self._translations.ngettext(text, plural, count), {"count": count, **args}
        )

    def translate(self, text: str) -> str:
        """A text gathered from elsewhere than a marked call (a slash command's
        description: see :mod:`i18n.extract`), without arguments."""
        return self._translations.gettext(text)

    def say(self, message: Msg | str) -> str:
        """A message marked elsewhere (a plain string: already said, or not words)."""
        if isinstance(message, str):
            return message
        if message.plural is None:
            return self.t(message.text, **message.args)
        return self.tn(message.text, message.plural, message.count, **message.args)

    def number(self, value: float) -> str:
        return _number(value, self.locale)

    def _format(self, template: str, args: dict) -> str:
        if not args:
            return template
        return template.format_map(
            {
                key: self.say(v)
                if isinstance(v, Msg)
                else (
                    self.number(v) if isinstance(v, int | float) and not isinstance(v, bool) else v
                )
                for key, v in args.items()
            }
        )


@functools.lru_cache(maxsize=4096)
def _number(value: float, locale: Locale) -> str:
    return format_decimal(value, locale=locale)


def load(path: Path) -> Language:
    """A catalog read from its ``.po`` file, compiled in memory for gettext's plurals."""
    with path.open("rb") as source:
        catalog = read_po(source, locale=path.stem.replace("-", "_"))
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    known = frozenset(
        m.id if isinstance(m.id, str) else m.id[0] for m in catalog if m.id and m.string
    )
    return Language(path.stem, gettext.GNUTranslations(compiled), known)


ENGLISH = Language("en-US", gettext.NullTranslations())
LANGUAGES: dict[str, Language] = {p.stem: load(p) for p in sorted(LOCALES.glob("*.po"))}


# A language by its base ("es" for "es-ES"), the first catalog of it: a request's locale
# is mapped to one of these, so nothing kept grows with the locales requests carry (a
# cache keyed by them grew by one entry per odd locale: issue 23).
_BY_BASE: dict[str, Language] = {}
for _name, _lang in LANGUAGES.items():
    _BY_BASE.setdefault(_name.split("-")[0], _lang)


def language(locale: object) -> Language:
    """The language of a Discord locale (``discord.Locale`` or its value): its own
    catalog, else one of the same language ("es-419" reads "es-ES"), else English."""
    code = str(getattr(locale, "value", locale) or "")
    found = LANGUAGES.get(code)
    if found is None:
        found = _BY_BASE.get(code.split("-")[0], ENGLISH)
    return found
