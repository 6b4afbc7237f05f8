"""What people typed, shown as text: a name, a note, a claim or a ruling is never markup on a page.

Every text of the store or of a link that reaches a page goes through one of these:

- :func:`md` for whatever Streamlit reads as Markdown (``st.markdown``, ``st.caption``, ``st.write``, the
  messages, titles, widget labels and radio/segmented options): what Markdown reads as markup is
  backslash-escaped (and a list marker at a line's start), so ``![x](http://…)`` is no image, ``[…](…)`` no link, ``http://…`` no autolink,
  ``<script>`` no tag, ``**bold**`` no bold, ``:red[…]`` no colour and ``$…$`` no formula, and a web address
  is kept from Streamlit's autolinker by an invisible word joiner;
- :func:`html` for a fragment of HTML (``st.html``, ``unsafe_allow_html``): HTML-escaped, and the Markdown
  punctuation written as character references, so that it stays text where Streamlit reads the HTML as
  Markdown too;
- :func:`message` for a message of Rollcall's quoting what was given (its `code` spans kept);
- :func:`attr` for an attribute's value in HTML;
- :func:`label` for a chart's labels (plotly reads ``<a href>``, ``<b>`` … in its texts): HTML-escaped.

The only links a page shows are Rollcall's own (relative links to its pages).
"""

from __future__ import annotations

import html as _html
import re

MARKUP = "\\`*_[]<>#|~$"  # what Markdown (GFM, with Streamlit's formulas) reads as markup anywhere in a line
_MD = re.compile("([" + re.escape(MARKUP) + "])")
_LINE_START = re.compile(r"(?m)^(\s*)([-+=]|\d+(?=[.)]))")  # a list or a heading underline, at a line's start
_ENTITIES = {c: f"&#{ord(c)};" for c in MARKUP if c not in "<>"}  # (those two as HTML escapes them)
_LINE_BREAKS = re.compile(r"\r\n|\r|\n")
# Streamlit's Markdown links a web address found in the text after escapes and references are resolved
# (GFM's autolink literals: ``http://…``, ``www.…``): a word joiner (U+2060, not shown) keeps it text
_ADDRESS = re.compile(r"(?i)(?<=[a-z])(?=://)|(?<=\bwww)(?=\.)")
JOINER = "\u2060"


def unlinked(text: str) -> str:
    """``text`` with every web address in it broken for the autolinker, invisibly."""
    return _ADDRESS.sub(JOINER, text)


def md(text: object) -> str:
    """``text`` shown as itself where Streamlit reads Markdown (every punctuation mark escaped; a line
    break kept as one)."""
    text = _MD.sub(r"\\\1", unlinked("" if text is None else str(text)))
    return _LINE_START.sub(lambda m: m.group(1) + "\\" + m.group(2) if not m.group(2).isdigit()
                           else m.group(1) + m.group(2) + "\\", text).replace("\n", "  \n")


_CODE = re.compile(r"`[^`\n]+`")


def message(text: object) -> str:
    """A message of Rollcall's that quotes what was given (a refusal: "field `faction` is empty"): its code
    spans kept as they are (Markdown shows a code span's content as text), the rest as :func:`md`."""
    text = "" if text is None else str(text)
    out, at = [], 0
    for span in _CODE.finditer(text):
        out += [md(text[at:span.start()]), span.group()]
        at = span.end()
    return "".join(out) + md(text[at:])


def html(text: object) -> str:
    """``text`` shown as itself inside HTML (also where that HTML is read as Markdown)."""
    return "".join(_ENTITIES.get(c) or _html.escape(c, quote=True) for c in unlinked("" if text is None else str(text)))


def attr(text: object) -> str:
    """``text`` as an attribute's value in HTML (``data-game="…"``)."""
    return _html.escape("" if text is None else str(text), quote=True)


def label(text: object) -> str:
    """``text`` shown as itself in a chart (plotly reads a few HTML tags in its texts)."""
    return _html.escape("" if text is None else str(text), quote=True)


def line(text: object) -> str:
    """``text`` on one line (line breaks as spaces), for a title or a label."""
    return _LINE_BREAKS.sub(" ", "" if text is None else str(text))
