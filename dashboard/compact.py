"""Tables on a phone: a page shows its grid (``st.dataframe``: sorting, widths, download) on a tablet or a
computer, and the same rows as a compact HTML table in a narrower window (``PHONE`` px, or more for a grid
of many columns), where a grid's columns would run off the screen. A compact cell may hold a second, smaller line (a player's faction under the name), so a
few columns carry everything; long words wrap instead of widening the table."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import streamlit as st

from dashboard.safe import html as escape

PHONE = 640  # px: below this width a page shows its compact tables instead of its grids
SWITCH = """<style>
@media (max-width:{below}px){{.st-key-rc-wide-{key}{{display:none}}}}
@media (min-width:{above}px){{.st-key-rc-narrow-{key}{{display:none}}}}
</style>"""
CSS = """<style>
table.rc-compact{width:100%;border-collapse:collapse;font-size:.9rem;table-layout:auto;margin:0 0 .5rem}
table.rc-compact th{font-weight:normal;opacity:.65;font-size:.8rem;text-align:left;padding:.15rem .3rem;
border-bottom:1px solid rgba(49,51,63,.2)}
table.rc-compact td{padding:.2rem .3rem;border-bottom:1px solid rgba(49,51,63,.1);vertical-align:top;
overflow-wrap:anywhere}
table.rc-compact td.rc-num,table.rc-compact th.rc-num{text-align:right;white-space:nowrap}
table.rc-compact small{display:block;opacity:.7;font-size:.78rem}
</style>"""

Cell = Any  # a value, a Link, or (value, the smaller line under it)


class Link(NamedTuple):
    """A cell's text leading to ``href`` (a page of the dashboard), in this tab."""

    text: str
    href: str


def cell_html(value: Cell) -> str:
    if isinstance(value, Link):
        return f'<a href="{escape(value.href)}" target="_self">{escape(value.text)}</a>'
    main, sub = value if isinstance(value, tuple) else (value, None)
    text = "" if main is None else escape(str(main))
    return text + (f"<small>{escape(str(sub))}</small>" if sub not in (None, "") else "")


def table_html(head: Sequence[str], rows: Sequence[Sequence[Cell]], numeric: Sequence[str] = ()) -> str:
    """An HTML table of ``rows`` under ``head`` (every text escaped; ``numeric`` columns right-aligned)."""
    align = [' class="rc-num"' if h in numeric else "" for h in head]
    th = "".join(f"<th{a}>{escape(h)}</th>" for h, a in zip(head, align))
    body = "".join("<tr>" + "".join(f"<td{a}>{cell_html(c)}</td>" for c, a in zip(row, align)) + "</tr>"
                   for row in rows)
    return f'<table class="rc-compact"><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>'


def table(key: str, grid: Callable[[], Any], head: Sequence[str], rows: Sequence[Sequence[Cell]],
          numeric: Sequence[str] = (), below: int = PHONE) -> None:
    """The grid ``grid()`` draws on a wide page, and the compact table of ``rows`` in a window of at most
    ``below`` px (a phone; a grid of many columns: a tablet too). ``key``: unique on the page."""
    st.html(CSS + SWITCH.format(key=key, below=below, above=below + 1))
    with st.container(key=f"rc-wide-{key}"):
        grid()
    with st.container(key=f"rc-narrow-{key}"):
        st.markdown(table_html(head, rows, numeric), unsafe_allow_html=True)
