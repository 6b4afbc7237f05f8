"""What a rules pack's events are to the read models: its facts.

The read models count moves, casts, dispels, ejections, card draws… without knowing any system's event
types: each pack lists its facts (``GameSystem.facts``): which of its events, or which purpose of its rolls,
is a fact of a name the read models use, and of what kind. The projector loads them as ``dim_facts``; a
read model selects ``type IN (SELECT type FROM dim_facts WHERE fact = 'casts')``. A new system gives the
read models its casts by listing them here, not by a change to their SQL.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Fact:
    name: str                   # the read models' word for it: moves, casts, dispels, ejections, …
    type: str                   # the event type that records it
    kind: str | None = None     # which sort of that fact (ejections: ejected or displaced; a card draw: its deck)
    purpose: str | None = None  # a fact recorded by a roll (DiceRolled): the roll's purpose
