"""The Replay page's picture of a moment, chosen by the game's system.

Tornscape has a board (dashboard/board.py); a The 9th Age game shows its magic phase
(dashboard/magic.py); a Claustrophobia game its warrior cards and action dice (dashboard/initiative.py).
"""

from __future__ import annotations

from dashboard import events as ev


def system_alias(system: str | None) -> str:
    """The rules pack's main alias for ``system`` ("9th-age" -> "t9a"); unknown names unchanged."""
    try:
        from domain.systems import system_for

        return system_for(system or "tornscape").alias
    except Exception:
        return str(system or "tornscape")


def picture_html(state: dict, event: dict | None, before: dict | None, events: list[dict]) -> str:
    """HTML for ``st.markdown(..., unsafe_allow_html=True)``: the board, the magic phase or the initiative."""
    system = system_alias(state.get("system"))
    if system == "t9a":
        from dashboard.magic import render_magic

        return render_magic(state, events)
    if system == "claustrophobia":
        from dashboard.initiative import render_initiative

        return render_initiative(state, event)
    from dashboard.board import render_board
    from dashboard.layout import board_html

    return board_html(render_board(state, ev.highlight(event, before)))
