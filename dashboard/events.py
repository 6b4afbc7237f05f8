"""The event list and the event details of the Replay page: pure functions over the event rows of
``projections.queries.game_events`` (seq, type, turn, phase, player, payload, violations); no Streamlit.

What an event says in words is its rules pack's (``system_for(system).presentation``, see
domain/systems/presentation.py); nothing here knows a game system.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from domain.systems.presentation import (BOOKKEEPING, Names, Presentation, dice_symbols, die_symbol, payload,
                                         pos_text, roll_ref, rolls_by_seq, value_text)

__all__ = ["dice_symbols", "die_symbol", "event_rows", "payload", "pos_text", "presentation", "roll_ref",
           "rolls_by_seq", "split_fields", "strike", "summary", "value_text", "violations", "window"]


@lru_cache(maxsize=16)
def presentation(system: str | None) -> Presentation:
    """The presentation hooks of ``system``'s rules pack (the common ones for an unknown system)."""
    from domain.systems import system_for

    try:
        return system_for(system or "").presentation
    except Exception:
        return Presentation()


def summary(event: dict, rolls: dict[int, dict] | None = None, system: str | None = None,
            names: Names | None = None) -> str:
    return presentation(system).summary(event, rolls, names)


def violations(event: dict) -> list[dict]:
    raw = event.get("violations")
    if raw is None:
        raw = payload(event).get("violations")
    if isinstance(raw, str):
        raw = json.loads(raw)
    out = []
    for v in raw or []:
        if isinstance(v, dict):
            out.append({"rule": str(v.get("rule", "?")), "message": str(v.get("message", ""))})
        else:
            out.append({"rule": "?", "message": str(v)})
    return out


def derived_rules(system: str | None, event_type: str | None) -> dict[str, str]:
    """The derived fields of an event type with the rule deriving each."""
    return presentation(system).derived_rules(event_type)


def split_fields(event: dict, system: str | None = None) -> tuple[dict, dict]:
    """(given fields, derived fields) of an event's payload, bookkeeping left out."""
    p = payload(event)
    rules = derived_rules(system, event.get("type"))
    given = {k: v for k, v in p.items() if k not in BOOKKEEPING and k not in rules}
    derived = {k: v for k, v in p.items() if k in rules}
    return given, derived


def event_rows(events: list[dict], rolls: dict[int, dict] | None = None, system: str | None = None,
               names: Names | None = None) -> list[dict]:
    """Rows of the event list: seq, turn, type, player (by name), summary and the broken rules."""
    names = names or Names()
    pres = presentation(system)
    return [
        {"seq": int(ev["seq"]), "turn": ev.get("turn"), "type": ev.get("type"),
         "player": pres.actor_by_name(ev, names),
         "summary": pres.summary(ev, rolls, names),
         "rules": ", ".join(v["rule"] for v in violations(ev)), "struck": False, "note": ""}
        for ev in events
    ]


def strike(rows: list[dict], seqs: Iterable[int], notes: dict[int, str] | None = None) -> list[dict]:
    """The rows with those of ``seqs`` struck through (events a ruling voided, events taken back …);
    ``notes`` says why, per seq."""
    seqs = set(seqs)
    notes = notes or {}
    return [{**r, "struck": True, "note": notes.get(r["seq"], "")} if r["seq"] in seqs else r for r in rows]


def window(rows: list[dict], seq: int, before: int = 6, after: int = 12) -> list[dict]:
    """The rows around ``seq``: up to ``before`` earlier and enough later ones to fill the window."""
    idx = next((i for i, r in enumerate(rows) if r["seq"] >= seq), len(rows))
    start = max(0, idx - before)
    end = min(len(rows), start + before + after + 1)
    start = max(0, end - (before + after + 1))
    return rows[start:end]


def first(values: Any) -> Any:
    return values[0] if values else None
