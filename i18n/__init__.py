"""The players' language: Rollcall's words in English (the source) or Russian, from gettext catalogs.

Each package keeps its own catalog, ``i18n/locales/<lang>/LC_MESSAGES/<package>.po`` (domain's refusals,
service's and store's messages, the command line's, the dashboard's), plus ``click.po`` for the words the
command line's help takes from Click and Typer. The ``.po`` files are the source; ``python -m i18n.compile``
(run at install: ``dev.py setup`` and the wheel's build) writes the ``.mo`` files beside them. A catalog whose
``.mo`` is missing or older than its ``.po`` is compiled in memory when first used, so a checkout that was never
installed still speaks every language.

The language is a context variable: the command line sets it once (``--lang``, ``ROLLCALL_LANG``, the
locale), the dashboard at each run of a page (the browser's choice), so two browsers of one server may read
two languages. Nobody setting it means English.

Mark a text with ``_()`` where it is shown; a text kept in a constant is marked with ``N_()`` (extracted,
left as it is) and translated with ``_()`` where it is shown. Counts take ``ngettext``. A placeholder is named
(``_("{player} wins").format(player=name)``) so a translation may put it elsewhere.
"""

from __future__ import annotations

import gettext
import io
import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path

LANGUAGES = {"en": "English", "ru": "Русский"}  # code -> the language's own name (the picker shows these)
SOURCE = "en"                                  # the language of the source's texts
LOCALES = Path(__file__).parent / "locales"
# catalog -> (the folder whose texts it holds, its subfolders that have their own catalog)
CATALOGS = {
    "domain": ("domain", ("systems",)),                       # records, headers, corrections, tournaments
    "systems": ("domain/systems", ("t9a", "claustrophobia", "tornscape")),  # what every rules pack shares
    "t9a": ("domain/systems/t9a", ()),                        # one catalog per rules pack: its refusals
    "claustrophobia": ("domain/systems/claustrophobia", ()),
    "tornscape": ("domain/systems/tornscape", ()),
    "service": ("service", ()),
    "store": ("store", ()),
    "projections": ("projections", ()),                       # what spectators read (the broadcast's snapshots)
    "broadcast": ("broadcast", ()),                           # the broadcast's front end
    "cli": ("cli", ()),
    "dashboard": ("dashboard", ("views",)),                   # the dashboard's parts
    "pages": ("dashboard/views", ()),                         # its pages
}

_language: ContextVar[str] = ContextVar("rollcall_language", default=SOURCE)


def known(code: str | None) -> str | None:
    """The supported language a code or locale names (``ru``, ``ru_RU.UTF-8``, ``ru-RU``), else None."""
    if not code:
        return None
    base = code.strip().replace("-", "_").split(".")[0].split("@")[0].split("_")[0].lower()
    return base if base in LANGUAGES else None


def use(code: str | None) -> str:
    """Speak ``code`` from now on in this context (an unknown or empty code means English); returns it."""
    lang = known(code) or SOURCE
    _language.set(lang)
    return lang


@contextmanager
def speaking(code: str | None) -> Iterator[str]:
    """Speak ``code`` within the block, then what was spoken before."""
    token = _language.set(known(code) or SOURCE)
    try:
        yield _language.get()
    finally:
        _language.reset(token)


def current() -> str:
    """The language being spoken in this context."""
    return _language.get()


class Translated(str):
    """A text in another language that keeps its English (``source``), through ``.format()`` too: what Rollcall
    stores (a rule violation kept in a lenient import's record) is English whoever imported it, while the
    person importing reads their language."""

    __slots__ = ("source",)

    def __new__(cls, text: str, source: str) -> Translated:
        made = super().__new__(cls, text)
        made.source = source
        return made

    def __reduce__(self):
        return (Translated, (str(self), self.source))

    def format(self, *args, **kwargs) -> Translated:
        return Translated(str.format(self, *args, **kwargs),
                          self.source.format(*map(english, args), **{k: english(v) for k, v in kwargs.items()}))


def english(text):
    """The English of a text (``text`` itself when it is not a translation)."""
    return text.source if isinstance(text, Translated) else text


def _(message: str) -> str:
    """``message`` in the current language (itself when the catalog has no translation)."""
    lang = _language.get()
    return message if lang == SOURCE else Translated(translations(lang).gettext(message), message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a counted text for ``n`` in the current language (Russian has three)."""
    lang = _language.get()
    chosen = singular if n == 1 else plural
    if lang == SOURCE:
        return chosen
    return Translated(translations(lang).ngettext(singular, plural, n), chosen)


def N_(message: str) -> str:
    """Marks ``message`` for the catalog and returns it as it is; translate it with ``_()`` where shown."""
    return message


def catalog_files(lang: str, name: str) -> tuple[Path, Path]:
    """The ``.po`` source and the compiled ``.mo`` of one catalog."""
    folder = LOCALES / lang / "LC_MESSAGES"
    return folder / f"{name}.po", folder / f"{name}.mo"


@lru_cache(maxsize=None)
def translations(lang: str) -> gettext.NullTranslations:
    """Every catalog of ``lang`` chained into one (a text is looked up in each package's catalog in turn)."""
    chain: gettext.NullTranslations | None = None
    for name in CATALOGS:
        found = _load(lang, name)
        if found is None:
            continue
        if chain is None:
            chain = found
        else:
            chain.add_fallback(found)
    return chain or gettext.NullTranslations()


def _load(lang: str, name: str) -> gettext.GNUTranslations | None:
    po, mo = catalog_files(lang, name)
    if mo.exists() and (not po.exists() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as fp:
            return gettext.GNUTranslations(fp)
    if po.exists():
        return gettext.GNUTranslations(io.BytesIO(compiled(po)))
    return None


def compiled(po: Path) -> bytes:
    """The ``.mo`` bytes of a ``.po`` catalog (Babel's reader and writer; fuzzy entries are left out)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as fp:
        catalog = read_po(fp)
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


LIBRARIES = "click"  # the catalog of the words Click and Typer say (help panels, usage, their errors)


def speak_in_libraries(lang: str) -> None:
    """Make Click and Typer, which read the standard ``gettext`` domain at import, speak ``lang``: call it
    before they are imported. Their catalog is ``click.po``; compiled here when its ``.mo`` is missing or old."""
    po, mo = catalog_files(lang, LIBRARIES)
    if lang == SOURCE or not po.exists():
        return
    if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
        try:
            mo.write_bytes(compiled(po))
        except OSError:  # an installed, read-only package: the .mo compiled at install, if any, is what there is
            if not mo.exists():
                return
    gettext.bindtextdomain(LIBRARIES, str(LOCALES))
    gettext.textdomain(LIBRARIES)
    os.environ["LANGUAGE"] = lang  # the standard gettext finds the catalog by this variable
