"""Presentation helpers for recorded events: summaries, dice symbols, board highlights, tables.

Pure functions over the event dicts of ``projections.queries.game_events`` (seq, type, turn,
phase, player, payload, violations) and replay state dicts (docs/replay.md); no Streamlit.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

# Fields every stored line carries, not worth repeating in the details panel.
BOOKKEEPING = ("seq", "type", "hash", "violations")
# Fields the rules derive (not given by the players), when the rules pack cannot say: field -> rule.
DERIVED = {
    "free_attacks": "R58/R73–R75",
    "must_eject": "R64",
    "destroyed": "R53/R55",
    "dodged": "R61",
    "markers_to_eject": "R67",
    "entered": "R25–R27",
}


@lru_cache(maxsize=256)
def derived_rules(system: str | None, event_type: str | None) -> dict[str, str]:
    """The derived fields of an event type with the rule deriving each, from the system's rules pack."""
    try:
        from domain.systems import system_for

        return dict(system_for(system or "tornscape").specs[event_type].derived)
    except Exception:  # unknown system or type: the common ones
        return dict(DERIVED)

DIE_SYMBOLS = {"crit": "✹", "success": "●", "blank": "○"}
D6_SYMBOLS = "⚀⚁⚂⚃⚄⚅"


# --- small formatting -----------------------------------------------------------------------

def die_symbol(face: Any) -> str:
    if isinstance(face, int) and not isinstance(face, bool) and 1 <= face <= 6:
        return D6_SYMBOLS[face - 1]
    return DIE_SYMBOLS.get(str(face), str(face))


def dice_symbols(faces: list | None) -> str:
    """``["crit", "blank"]`` -> ``"✹ ○"``; d6 faces as die faces ⚀…⚅."""
    return " ".join(die_symbol(f) for f in faces or [])


def pos_text(at: Any) -> str:
    """A position or list of positions as written in records: ``[3,4]``."""
    if isinstance(at, list) and len(at) == 1 and isinstance(at[0], list):
        at = at[0]
    return json.dumps(at, separators=(",", ":"))


def payload(event: dict) -> dict:
    raw = event.get("payload") or {}
    if isinstance(raw, str):
        raw = json.loads(raw)
    return raw


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


def _ids(values: Any) -> str:
    return ", ".join(str(v) for v in values or [])


# --- one-line summaries ---------------------------------------------------------------------

def summary(event: dict, rolls: dict[int, dict] | None = None) -> str:
    """A short human summary of one event (for the event list)."""
    p = payload(event)
    kind = event.get("type") or p.get("type")
    if kind == "TurnStarted":
        return f"turn {p.get('turn', event.get('turn'))} starts"
    if kind == "PhaseStarted":
        aside = p.get("set_aside") or []
        return f"{p.get('phase')} phase" + (f", {len(aside)} action {_plural(len(aside), 'die', 'dice')} set aside"
                                           if aside else "")
    if kind in ("ActivationStarted", "ActivationEnded"):
        return f"{p.get('model')} {'activates' if kind == 'ActivationStarted' else 'ends its activation'}"
    if kind == "ModelMoved":
        path = p.get("path") or []
        steps = f"{len(path)} step{'s' if len(path) != 1 else ''}"
        text = f"{p.get('model')} {p.get('action')} → {pos_text(path[-1]) if path else '?'} ({steps})"
        if p.get("must_eject"):
            text += f", ejects {_ids(p['must_eject'])}"
        if p.get("destroyed"):
            text += f", destroys {_ids(p['destroyed'])}"
        if p.get("free_attacks"):
            text += f", free attacks: {_ids(p['free_attacks'])}"
        return text
    if kind in ("ModelEjected", "ModelDisplaced"):
        verb = "ejected" if kind == "ModelEjected" else "displaced"
        text = f"{p.get('model')} {verb} by {p.get('by')} → {pos_text(p.get('to'))}"
        if p.get("dodge") is not None:
            faces = (rolls or {}).get(p["dodge"], {}).get("faces")
            dice = f" {dice_symbols(faces)}" if faces else ""
            text += f", dodge{dice}: {'dodged' if p.get('dodged') else 'failed'}"
        return text
    if kind == "DiceRolled":
        return f"{p.get('purpose')} roll, {p.get('die')}: {dice_symbols(p.get('faces'))}"
    if kind == "DomainChosen":
        return f"{p.get('model')} chooses {p.get('domain')}"
    if kind == "VortexStabilised":
        return f"{p.get('model')} stabilises {p.get('vortex')}{_dice(p, rolls)} → {p.get('allegiance') or 'unaligned'}"
    if kind == "VortexExplored":
        text = f"{p.get('model')} explores {p.get('vortex')}{_dice(p, rolls)}: "
        text += f"success, +{p.get('ether_gained', 0)} ether" if p.get("success") else "failed"
        return text + (", vortex removed" if p.get("vortex_removed") else "")
    if kind == "PhenomenonDrawn":
        who = f" for {p['model']}" if p.get("model") else ""
        at = f" at {p['vortex']}" if p.get("vortex") else ""
        return f"{phenomenon_name(p.get('card'))} ({p.get('effect')}){who}{at}"
    if kind == "VortexMoved":
        blocked = " (blocked)" if p.get("blocked") else ""
        return f"{p.get('vortex')} moves{_dice(p, rolls)} → {pos_text(p.get('to'))}{blocked}"
    if kind == "EtherConverted":
        return f"{p.get('player')} converts {p.get('amount')} ether to {p.get('domain')}"
    if kind == "DieRerolled":
        return f"re-roll of roll {p.get('roll')} die {p.get('index')} → {die_symbol(p.get('face'))}"
    if kind == "MarkerEjected":
        return f"marker {p.get('marker')} ejected → {pos_text(p.get('to'))}"
    if kind == "MarkerTaken":
        return f"{p.get('model')} takes marker {p.get('marker')}"
    if kind == "ModelPlaced":
        m = p.get("model") or {}
        return f"{m.get('id') if isinstance(m, dict) else m} placed"
    if kind == "ModelRemoved":
        return f"{p.get('model')} removed" + (f" ({p['reason']})" if p.get("reason") else "")
    if kind == "PointsScored":
        return f"{p.get('player')} +{p.get('points')} ({p.get('reason')})"
    if kind == "CardDrawn":
        return f"{p.get('player')} draws {p.get('card')} from {p.get('deck')}"
    if kind == "GameEnded":
        score = " – ".join(f"{k} {v}" for k, v in (p.get("score") or {}).items())
        return f"{score}; winner {p.get('winner') or 'none (draw)'} ({p.get('reason')})"
    if kind == "GameSealed":
        return f"sealed by {_ids(p.get('confirmed_by'))}"
    if kind == "DisputeOpened":
        return f"{p.get('by')} disputes {_ids(p.get('about'))}: {p.get('claim')}"
    if kind == "RulingMade":
        return f"{p.get('judge')}: {_ids(p.get('about'))} {p.get('decision')}"
    if kind == "Noted":
        return str(p.get("text", ""))
    if kind in MAGIC_SUMMARIES:
        return MAGIC_SUMMARIES[kind](p, rolls)
    if kind in WARRIOR_SUMMARIES:
        return WARRIOR_SUMMARIES[kind](p, rolls)
    given = {k: v for k, v in p.items() if k not in BOOKKEEPING}
    return ", ".join(f"{k} {value_text(v)}" for k, v in given.items())[:120]


def _plural(n: int, one: str, many: str) -> str:
    return one if n == 1 else many


def _signed(value: Any) -> str:
    return f"{value:+d}" if isinstance(value, int) and not isinstance(value, bool) else str(value)


def _words(value: Any) -> str:
    return str(value).replace("_", " ")


# --- The 9th Age: the magic phase -------------------------------------------------------------

def _flux(p: dict, rolls) -> str:
    text = f"Flux card {p.get('card')}: {p.get('magic_dice')} magic dice each, {p.get('veil_tokens')} veil tokens"
    return text + (f", miscast {_signed(p['miscast_modifier'])}" if p.get("miscast_modifier") else "")


def _siphon(p: dict, rolls) -> str:
    n = p.get("converted_dice")
    pools = ", ".join(f"{k} {v}" for k, v in (p.get("magic_dice") or {}).items())
    kept = p.get("kept")
    text = f"{n} {_plural(n, 'die', 'dice')} from the veil, {kept} {_plural(kept, 'token', 'tokens')} kept"
    return text + (f"; magic dice {pools}" if pools else "")


def _cast(p: dict, rolls) -> str:
    boosted = " (boosted)" if p.get("version") == "boosted" else ""
    modifier = f" {_signed(p['modifier'])}" if p.get("modifier") else ""
    text = (f"{p.get('wizard')} casts {p.get('spell')}{boosted} with {p.get('dice')} "
            f"{_plural(p.get('dice'), 'die', 'dice')}{_dice(p, rolls)}{modifier}: {p.get('total')}, "
            f"{'passed' if p.get('passed') else 'failed'}")
    return text + (", miscast!" if p.get("miscast") else "")


def _dispel(p: dict, rolls) -> str:
    return (f"{p.get('wizard')} dispels with {p.get('dice')} {_plural(p.get('dice'), 'die', 'dice')}"
            f"{_dice(p, rolls)}: {p.get('total')}, {'dispelled' if p.get('dispelled') else 'failed'}")


MAGIC_SUMMARIES = {
    "MagicPhaseStarted": lambda p, rolls: f"magic phase of {p.get('active')}",
    "FluxCardDrawn": _flux,
    "VeilSiphoned": _siphon,
    "CastingAttempted": _cast,
    "DispelAttempted": _dispel,
    "MiscastResolved": lambda p, rolls: (f"miscast of {p.get('wizard')}: {p.get('value')} → "
                                         f"{_words(p.get('effect') or 'none')}"),
    "SpellResolved": lambda p, rolls: f"{p.get('spell')} takes effect",
    "AttributeResolved": lambda p, rolls: f"attribute {p.get('spell')} takes effect",
    "MagicPhaseEnded": lambda p, rolls: (f"magic phase ends, {p.get('carried', 0)} veil "
                                         f"{_plural(p.get('carried', 0), 'token', 'tokens')} carried"),
}


# --- Claustrophobia: the initiative -----------------------------------------------------------

def _assigned(p: dict, rolls) -> str:
    faces = ((rolls or {}).get(p.get("roll")) or {}).get("faces") or []
    index = p.get("index")
    face = faces[index] if isinstance(index, int) and 0 <= index < len(faces) else p.get("line")
    stats = f"MVT {p.get('mvt')} CBT {p.get('cbt')} DEF {p.get('def')}"
    text = f"{p.get('warrior')} takes {die_symbol(face)} ({face}): line {p.get('line')}, {stats}"
    return text + (", exhausted" if p.get("exhausted") else "")


WARRIOR_SUMMARIES = {
    "ActionDieAssigned": _assigned,
    "LineLost": lambda p, rolls: f"{p.get('warrior')} loses line {p.get('line')}",
    "LineRestored": lambda p, rolls: f"{p.get('warrior')} regains line {p.get('line')}",
    "GiftUsed": lambda p, rolls: f"{p.get('warrior')} uses {_words(p.get('gift'))}",
    "WarriorRemoved": lambda p, rolls: f"{p.get('warrior')} out of play",
}


# --- Tornscape: ether phenomena ---------------------------------------------------------------

@lru_cache(maxsize=1)
def phenomenon_names() -> dict[str, str]:
    """Card id -> name of the ether phenomena deck (domain/rules_data/tornscape.json)."""
    try:
        from domain.systems.dice import load_rule_data

        cards = load_rule_data("tornscape")["phenomena_deck"]["cards"]
    except Exception:
        return {}
    return {str(c["id"]): str(c.get("name") or c["id"]) for c in cards if isinstance(c, dict) and "id" in c}


def phenomenon_name(card: Any) -> str:
    return phenomenon_names().get(str(card), str(card))


def phenomenon_text(event: dict | None) -> str | None:
    """The details line of a PhenomenonDrawn: card name, effect polarity, relation and trigger (else None)."""
    if not event or event.get("type") != "PhenomenonDrawn":
        return None
    p = payload(event)
    parts = [f"**{phenomenon_name(p.get('card'))}** (`{p.get('card')}`)", f"{p.get('effect')} effect"]
    if p.get("relation"):
        parts.append(f"{p['relation']} vortex")
    if p.get("trigger"):
        parts.append(f"trigger: {_words(p['trigger'])}")
    return " · ".join(parts)


def roll_ref(event: dict) -> int | None:
    """The seq of the roll an event uses (a dodge, a stabilisation, an explore...), if any."""
    p = payload(event)
    for name in ("dodge", "roll"):
        if isinstance(p.get(name), int) and not isinstance(p.get(name), bool):
            return p[name]
    return None


def _dice(p: dict, rolls: dict[int, dict] | None) -> str:
    ref = roll_ref({"payload": p})
    faces = (rolls or {}).get(ref, {}).get("faces") if ref is not None else None
    return f" {dice_symbols(faces)}" if faces else ""


def rolls_by_seq(events: list[dict]) -> dict[int, dict]:
    """DiceRolled payloads by seq, re-rolls applied (to show a dodge's faces)."""
    rolls: dict[int, dict] = {}
    for e in events:
        p = payload(e)
        if e.get("type") == "DiceRolled":
            rolls[int(e["seq"])] = {**p, "faces": list(p.get("faces") or [])}
        elif e.get("type") == "DieRerolled" and p.get("roll") in rolls:
            faces = rolls[p["roll"]]["faces"]
            if isinstance(p.get("index"), int) and 0 <= p["index"] < len(faces):
                faces[p["index"]] = p.get("face")
    return rolls


# --- board highlight ------------------------------------------------------------------------

def _first(at: Any) -> list[int] | None:
    """The first hex of a position ([q,r], [[q,r]] or [[c1],[c2]...])."""
    if not isinstance(at, list) or not at:
        return None
    if isinstance(at[0], list):
        return _first(at[0])
    if len(at) == 2 and all(isinstance(v, int) for v in at):
        return list(at)
    return None


def _model_at(state: dict | None, model: Any) -> list[int] | None:
    m = ((state or {}).get("models") or {}).get(str(model))
    return _first(m.get("at")) if m else None


def highlight(event: dict | None, before: dict | None) -> dict:
    """What the board highlights for ``event``, given the state just before it.

    The acting model (and any model it ejects) gets a ring; a move shows its path from where the
    model stood; an ejection shows the ejected model, its shover and its destination hex.
    """
    if not event:
        return {}
    p = payload(event)
    kind = event.get("type")
    out: dict[str, list] = {"models": [], "hexes": [], "path": []}
    if kind == "ModelMoved":
        out["models"] = [p.get("model"), *(p.get("must_eject") or [])]
        start = _model_at(before, p.get("model"))
        steps = [_first(s) for s in p.get("path") or []]
        out["path"] = [h for h in [start, *steps] if h]
    elif kind in ("ModelEjected", "ModelDisplaced"):
        out["models"] = [p.get("model"), p.get("by")]
        start, to = _model_at(before, p.get("model")), _first(p.get("to"))
        out["hexes"] = [to] if to else []
        out["path"] = [h for h in (start, to) if h] if start != to else []
    elif kind in ("ActivationStarted", "ActivationEnded", "MarkerTaken"):
        out["models"] = [p.get("model")]
        if kind == "MarkerTaken":
            marker = ((before or {}).get("markers") or {}).get(str(p.get("marker"))) or {}
            at = _first(marker.get("at"))
            out["hexes"] = [at] if at else []
    elif kind == "MarkerEjected":
        marker = ((before or {}).get("markers") or {}).get(str(p.get("marker"))) or {}
        start, to = _first(marker.get("at")), _first(p.get("to"))
        out["hexes"] = [to] if to else []
        out["path"] = [h for h in (start, to) if h]
    elif kind in ("VortexStabilised", "VortexExplored", "DomainChosen", "PhenomenonDrawn"):
        out["models"] = [p.get("model")]
        vortex = ((before or {}).get("vortices") or {}).get(str(p.get("vortex"))) or {}
        at = _first(vortex.get("at"))
        out["hexes"] = [at] if at else []
    elif kind == "VortexMoved":
        vortex = ((before or {}).get("vortices") or {}).get(str(p.get("vortex"))) or {}
        start, to = _first(vortex.get("at")), _first(p.get("to"))
        out["hexes"] = [to] if to else []
        out["path"] = [h for h in (start, to) if h] if start != to else []
    elif kind == "ModelPlaced":
        m = p.get("model") or {}
        out["models"] = [m.get("id")] if isinstance(m, dict) else []
    elif kind == "ModelRemoved":
        m = ((before or {}).get("models") or {}).get(str(p.get("model"))) or {}
        out["hexes"] = [h for h in (m.get("at") or []) if isinstance(h, list)]
    out["models"] = [str(m) for m in out["models"] if m]
    return {k: v for k, v in out.items() if v}


# --- details --------------------------------------------------------------------------------

def split_fields(event: dict, system: str | None = None) -> tuple[dict, dict]:
    """(given fields, derived fields) of an event's payload, bookkeeping left out."""
    p = payload(event)
    rules = derived_rules(system, event.get("type"))
    given = {k: v for k, v in p.items() if k not in BOOKKEEPING and k not in rules}
    derived = {k: v for k, v in p.items() if k in rules}
    return given, derived


def value_text(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "—"
    if isinstance(value, list) and not value:
        return "none"
    if isinstance(value, (list, dict)):
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return ", ".join(value)
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return str(value)


def event_rows(events: list[dict], rolls: dict[int, dict] | None = None,
               voided: dict[int, int] | None = None) -> list[dict]:
    """Rows of the event list: seq, turn, type, player, summary and the broken rules; an event a
    ruling voided says so at the start of its summary."""
    voided = voided or {}
    return [
        {
            "seq": int(e["seq"]),
            "turn": e.get("turn"),
            "type": e.get("type"),
            "player": e.get("player") or "",
            "summary": (f"[void: ruling {voided[int(e['seq'])]}] " if int(e["seq"]) in voided else "")
                       + summary(e, rolls),
            "rules": ", ".join(v["rule"] for v in violations(e)),
        }
        for e in events
    ]


def window(rows: list[dict], seq: int, before: int = 6, after: int = 12) -> list[dict]:
    """The rows around ``seq``: up to ``before`` earlier and enough later ones to fill the window."""
    idx = next((i for i, r in enumerate(rows) if r["seq"] >= seq), len(rows))
    start = max(0, idx - before)
    end = min(len(rows), start + before + after + 1)
    start = max(0, end - (before + after + 1))
    return rows[start:end]
