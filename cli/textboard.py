"""The state at one moment as text: the rules pack's text board (its presentation hook) under a line
saying what the event was and who made it."""

from __future__ import annotations

from domain.systems import system_for
from i18n import _


def text_board(state: dict, header: dict | None = None, event: dict | None = None) -> str:
    """``rollcall replay``'s text: the event at ``state['seq']`` (its row of ``game_events``, or its stored
    line), then the pack's board."""
    presentation = system_for(state["system"]).presentation
    names = presentation.names(header)
    lines = [event_line(state, event, presentation, names), presentation.text_board(state, event, names)]
    return "\n".join(line for line in lines if line)


def event_line(state: dict, event: dict | None, presentation, names) -> str:
    if event is None:
        return _("seq 0: the setup of {game}").format(game=state["game"])
    who = presentation.actor(event, state)
    said = _("seq {seq}: {type} by {player}: {summary}") if who else _("seq {seq}: {type}: {summary}")
    return said.format(seq=event["seq"], type=event["type"], player=names.player(who) if who else "",
                       summary=presentation.summary(event, None, names))
