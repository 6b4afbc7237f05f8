"""What a name may hold: the names people give (a player's, a faction's, a club's, a tournament's, a game's id)
are shown on every page, printed on table cards and compared to tell players apart, so none may hold an
invisible character that changes what is shown or read — a control character (NUL, a line break, an escape)
or a text-direction control (U+202E RIGHT-TO-LEFT OVERRIDE and the other bidirectional embeddings, overrides,
isolates and marks), which can make "Anna" display as another name."""

from __future__ import annotations

import re
import unicodedata

from i18n import _

# the bidirectional controls (embeddings, overrides, isolates, marks) and the line and paragraph separators
_DIRECTION = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029"
_HIDDEN = re.compile(f"[\\x00-\\x1f\\x7f-\\x9f{_DIRECTION}]")


def hidden_character(text: str) -> str | None:
    """The first control or text-direction character of ``text`` as people can name it (``U+202E``), or None."""
    found = _HIDDEN.search(text)
    return None if found is None else f"U+{ord(found.group()):04X}"


def name_problem(text: str, field: str) -> str | None:
    """Why ``text`` cannot be the name in ``field`` (it holds an invisible character), or None."""
    code = hidden_character(text)
    if code is None:
        return None
    category = unicodedata.category(chr(int(code[2:], 16)))
    kind = _("a control character") if category == "Cc" else _("a line separator") if category in ("Zl", "Zp") \
        else _("a text-direction control")
    return _("field `{field}` holds {kind} ({code}), which no name may hold").format(field=field, kind=kind, code=code)


__all__ = ["hidden_character", "name_problem"]
