"""What a page takes from its link and its fields, bounded: every size a visitor controls has a limit, and what
is past it is said plainly (never a traceback, never seconds of work for one request).

A link's numbers are read here, not by a widget bound to the URL (Streamlit's own reading of ``seq=inf`` for a
number input stops the page); a value longer than ``MAX_PARAM`` is taken out of the link with a message.
"""

from __future__ import annotations

import re

import streamlit as st

from i18n import _

MAX_PARAM = 300  # characters of one link parameter (game ids, tournament names, seq lists are far shorter)
MAX_DIGITS = 12  # a seq, a round, a table: far below a trillion
MAX_ABOUT = 100  # the events one dispute is about
MAX_TEXT = 2000  # characters of a claim, a ruling, a note
MAX_NAME = 120  # characters of a name (a judge, a player, a faction, a game id)
MAX_UPLOAD = 1_000_000  # bytes of an uploaded header (a header is a few kilobytes)

_WHOLE = re.compile(r"\+?\d{1,%d}" % MAX_DIGITS)


def shown(text: str, limit: int = 40) -> str:
    """A short, printable excerpt of what a visitor typed, for a message (escape it where it becomes HTML)."""
    clean = text.encode("utf-8", "replace").decode("utf-8")
    clean = "".join(c if c.isprintable() else "?" for c in clean)
    return clean if len(clean) <= limit else clean[:limit] + "…"


def whole(raw: str | None, what: str, low: int = 0, high: int | None = None) -> tuple[int | None, str | None]:
    """``raw`` as a whole number from ``low`` to ``high`` (None: absent), else (None, why not, in words).
    ``what`` is in the page's language (``_("an event number")``): the words say it as it is given."""
    if raw is None or raw == "":
        return None, None
    text = raw.strip()
    if not _WHOLE.fullmatch(text):
        return None, (_("`{value}` is not {what} (a whole number from {low}).") if low else
                      _("`{value}` is not {what} (a whole number).")).format(value=shown(raw), what=what, low=low)
    value = int(text)
    if value < low or (high is not None and value > high):
        span = (_("from {low} to {high}") if high is not None else _("from {low}")).format(low=low, high=high)
        return None, _("{What} {value} is out of range ({span}).").format(What=what[:1].upper() + what[1:],
                                                                          value=value, span=span)
    return value, None


def bound_link() -> list[str]:
    """Take out of the link every parameter longer than MAX_PARAM characters; what was taken out, in words."""
    problems = []
    for name in list(st.query_params.keys()):
        value = st.query_params.get(name) or ""
        if len(name) > MAX_PARAM or len(value) > MAX_PARAM:
            del st.query_params[name]
            problems.append(_("The link's `{name}` is longer than {n} characters: it was left out.").format(
                name=shown(name, 20), n=MAX_PARAM))
    return problems


def seq_list(text: str | None, last: int, limit: int = MAX_ABOUT) -> tuple[list[int], str | None]:
    """``"4, 5-7"`` -> [4, 5, 6, 7]: the seqs of real events (1..last), in order, without repeats, at most
    ``limit`` of them (a range is cut to the events that exist before it is counted); what was wrong, in words."""
    found: set[int] = set()
    wrong: list[str] = []
    for part in (text or "")[:MAX_PARAM].replace(" ", "").split(","):
        if not part:
            continue
        low, dash, high = part.partition("-")
        a, bad_a = whole(low, _("an event number"))
        b, bad_b = whole(high, _("an event number")) if dash else (a, None)
        if a is None or b is None or bad_a or bad_b:
            wrong.append(part)
            continue
        first, final = max(min(a, b), 1), min(max(a, b), last)
        found.update(range(first, final + 1) if final - first < limit else range(first, first + limit + 1))
    problems = []
    if wrong:
        problems.append(_("not event numbers: {seqs}").format(seqs=shown(", ".join(wrong))))
    if len(found) > limit:
        problems.append(_("a dispute is about at most {n} events: the first {n} are shown").format(n=limit))
    seqs = sorted(found)[:limit]
    said = "; ".join(problems)
    return seqs, (said[:1].upper() + said[1:] + ".") if problems else None
