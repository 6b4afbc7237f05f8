"""What people typed, shown as text: a name, a note, a claim or a ruling is never markup on a page.

Every text of the store or of a link that reaches a page goes through one of these:

- :func:`md` for whatever Streamlit reads as Markdown (``st.markdown``, ``st.caption``, ``st.write``, the
  messages, titles, widget labels and radio/segmented options): every ASCII punctuation mark is
  backslash-escaped, so ``![x](http://…)`` is no image, ``[…](…)`` no link, ``http://…`` no autolink,
  ``<script>`` no tag, ``**bold**`` no bold, ``:red[…]`` no colour and ``$…$`` no formula (and a web address
  is kept from Streamlit's autolinker by an invisible word joiner);
- :func:`html` for a fragment of HTML (``st.html``, ``unsafe_allow_html``): HTML-escaped, and the Markdown
  punctuation written as character references, so that it stays text where Streamlit reads the HTML as
  Markdown too;
- :func:`label` for a chart's labels (plotly reads ``<a href>``, ``<b>`` … in its texts): HTML-escaped.

The only links a page shows are Rollcall's own (relative links to its pages).
"""

from __future__ import annotations

import html as _html
import re
import string

_MD = re.compile("([" + re.escape(string.punctuation) + "])")
_ENTITIES = {c: f"&#{ord(c)};" for c in "[]()!*_`\\#$:~|{}+-.=^"}
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
    return _MD.sub(r"\\\1", unlinked("" if text is None else str(text))).replace("\n", "  \n")


def html(text: object) -> str:
    """``text`` shown as itself inside HTML (also where that HTML is read as Markdown)."""
    return "".join(_ENTITIES.get(c) or _html.escape(c, quote=True) for c in unlinked("" if text is None else str(text)))


def label(text: object) -> str:
    """``text`` shown as itself in a chart (plotly reads a few HTML tags in its texts)."""
    return _html.escape("" if text is None else str(text), quote=True)


def line(text: object) -> str:
    """``text`` on one line (line breaks as spaces), for a title or a label."""
    return _LINE_BREAKS.sub(" ", "" if text is None else str(text))
