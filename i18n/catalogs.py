"""The catalogs kept up to date with the source: ``python -m i18n.catalogs`` extracts each package's marked
texts (Babel) into its ``.po`` of every language, keeping the translations made and adding the new texts
untranslated; :func:`missing` lists the texts a language's catalogs do not translate (a test requires none)."""

from __future__ import annotations

import sys
from datetime import datetime, timezone
from collections.abc import Iterator
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po, write_po

from i18n import CATALOGS, LANGUAGES, SOURCE, catalog_files

ROOT = Path(__file__).resolve().parent.parent
SINCE = datetime(2026, 12, 4, tzinfo=timezone.utc)  # the catalogs' creation date, kept so an update changes only texts


def extracted(name: str) -> Catalog:
    """The texts marked with ``_``, ``N_`` or ``ngettext`` in a catalog's folder (not in its subfolders that
    have their own catalog), with where they are."""
    folder, own = CATALOGS[name]
    method_map = [(f"{sub}/**.py", "ignore") for sub in own] + [("**.py", "python")]
    catalog = Catalog(project="Rollcall", domain=name)
    for filename, lineno, message, comments, context in extract_from_dir(
            ROOT / folder, method_map=method_map, keywords=DEFAULT_KEYWORDS, strip_comment_tags=True):
        catalog.add(message, None, [(f"{folder}/{filename}", lineno)], auto_comments=comments, context=context)
    for path in sources(name):  # Babel reads an f-string as one token: the texts marked inside its braces
        for lineno, message in in_f_strings(path):
            if catalog.get(message) is None:
                catalog.add(message, None, [(str(path.relative_to(ROOT)), lineno)])
    return catalog


def in_f_strings(path: Path) -> list[tuple[int, str]]:
    """(line, text) of every ``_("…")`` or ``N_("…")`` written inside an f-string's braces in ``path``."""
    import ast

    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.JoinedStr):
            continue
        for part in node.values:
            if not isinstance(part, ast.FormattedValue):
                continue
            for call in ast.walk(part.value):
                if (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in ("_", "N_")
                        and call.args and isinstance(call.args[0], ast.Constant)
                        and isinstance(call.args[0].value, str)):
                    found.append((call.lineno, call.args[0].value))
    return found


def sources(name: str) -> list[Path]:
    """The Python files whose texts a catalog holds."""
    folder, own = CATALOGS[name]
    return sorted(p for p in (ROOT / folder).rglob("*.py")
                  if not any(p.is_relative_to(ROOT / folder / sub) for sub in own))


def read(lang: str, package: str) -> Catalog:
    po, _mo = catalog_files(lang, package)
    if not po.exists():
        return Catalog(locale=lang, project="Rollcall", domain=package)
    with po.open("rb") as fp:
        return read_po(fp, locale=lang)


def update(lang: str, package: str) -> Path:
    """The package's ``.po`` for ``lang`` with the source's texts: translations kept, new texts added, texts
    gone from the source dropped."""
    catalog = read(lang, package)
    template = extracted(package)
    template.creation_date = SINCE
    catalog.update(template, no_fuzzy_matching=True)
    catalog.obsolete.clear()
    catalog.fuzzy = False
    catalog.revision_date = catalog.creation_date = SINCE
    catalog.version, catalog.copyright_holder, catalog.msgid_bugs_address = "", "Rollcall", ""
    catalog.last_translator = catalog.language_team = "Rollcall"
    po, _mo = catalog_files(lang, package)
    po.parent.mkdir(parents=True, exist_ok=True)
    with po.open("wb") as fp:
        write_po(fp, catalog, width=120, omit_header=False, sort_output=False)
    return po


def missing(lang: str, names=CATALOGS) -> Iterator[tuple[str, str, str]]:
    """(catalog, text, where) for every text of the source that ``lang``'s catalog does not translate (absent,
    empty, fuzzy, or a plural missing a form)."""
    for package in names:
        catalog = read(lang, package)
        for message in extracted(package):
            if not message.id:
                continue
            found = catalog.get(message.id, context=message.context)
            where = ", ".join(f"{f}:{n}" for f, n in message.locations[:2])
            text = message.id if isinstance(message.id, str) else message.id[0]
            strings = [] if found is None else (found.string if isinstance(found.string, (tuple, list))
                                                else [found.string])
            if found is None or found.fuzzy or not strings or not all(strings):
                yield package, text, where


if __name__ == "__main__":
    for lang in LANGUAGES:
        if lang != SOURCE:
            for package in CATALOGS:
                print(update(lang, package))
    sys.exit(0)
