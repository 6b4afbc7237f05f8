"""How Tornscape games are shown: the board (board.py), the event summaries, the text board."""

from __future__ import annotations

import string
from functools import lru_cache
from typing import Any

from domain.systems.presentation import (Names, Presentation, Taps, dice_text, head_text, ids_text, payload, pos_text,
                                         scores_text, words)
from domain.systems.tornscape import board as bd
from domain.systems.tornscape import hexes as hx
from domain.systems.tornscape.state import action_name, size_name
from domain.systems.tornscape.vortices import in_words
from i18n import N_, _, ngettext

TERRAIN_NAMES = {"solid": N_("Solid terrain")}  # translated where shown
TEXT_TERRAIN = {"solid": "#", "burning_ground": "^", "deadly_bog": "%", "cover": '"'}


@lru_cache(maxsize=1)
def phenomenon_names() -> dict[str, str]:
    """Card id -> name of the ether phenomena deck (domain/rules_data/tornscape.json)."""
    from domain.systems.dice import load_rule_data

    cards = load_rule_data("tornscape").get("phenomena_deck", {}).get("cards", [])
    return {str(c["id"]): str(c.get("name") or c["id"]) for c in cards if isinstance(c, dict) and "id" in c}


def phenomenon_name(card: Any) -> str:
    return phenomenon_names().get(str(card), str(card))


def _moved(pr, p: dict, rolls, names: Names) -> str:
    path = p.get("path") or []
    steps = ngettext("{n} step", "{n} steps", len(path)).format(n=len(path))
    text = (f"{names.of('models', p.get('model'))} {action_name(str(p.get('action')))} → "
            f"{pos_text(path[-1]) if path else '?'} ({steps})")
    for field, label in (("must_eject", _("ejects")), ("destroyed", _("destroys")),
                         ("free_attacks", _("free attacks:"))):
        if p.get(field):
            text += f", {label} {ids_text(p[field], names, 'models' if field != 'destroyed' else 'terrain')}"
    return text


def _ejected(pr, p: dict, rolls, names: Names, text: str) -> str:
    text = text.format(model=names.of("models", p.get("model")), by=names.of("models", p.get("by")),
                       to=pos_text(p.get("to")))
    if p.get("dodge") is not None:
        text += _(", dodge{faces}: {outcome}").format(faces=dice_text({"dodge": p["dodge"]}, rolls),
                                                      outcome=_("dodged") if p.get("dodged") else _("failed"))
    return text


def _explored(pr, p: dict, rolls, names: Names) -> str:
    text = _("{model} explores {vortex}{faces}: ").format(model=names.of("models", p.get("model")),
                                                         vortex=_vortex(p, names), faces=dice_text(p, rolls))
    text += (_("success, +{ether} ether").format(ether=p.get("ether_gained", 0)) if p.get("success")
             else _("failed"))
    return text + (_(", vortex removed") if p.get("vortex_removed") else "")


def _drawn(pr, p: dict, rolls, names: Names) -> str:
    who = " " + _("for {model}").format(model=names.of("models", p["model"])) if p.get("model") else ""
    at = " " + _("at {vortex}").format(vortex=_vortex(p, names)) if p.get("vortex") else ""
    return f"{phenomenon_name(p.get('card'))} ({in_words(p.get('effect'))}){who}{at}"


def _placed(pr, p: dict, rolls, names: Names) -> str:
    m = p.get("model") or {}
    return _("{model} placed").format(model=names.of("models", m.get("id")) if isinstance(m, dict) else m)


def _model(p: dict, names: Names) -> str:
    return names.of("models", p.get("model"))


def _vortex(p: dict, names: Names) -> str:
    return names.of("vortices", p.get("vortex"))


def _marker(p: dict, names: Names) -> str:
    return names.of("markers", p.get("marker"))


SUMMARIES = {
    "ActivationStarted": lambda pr, p, rolls, names: _("{model} activates").format(model=_model(p, names)),
    "ActivationEnded": lambda pr, p, rolls, names: _("{model} ends its activation").format(model=_model(p, names)),
    "ModelMoved": _moved,
    "ModelEjected": lambda pr, p, rolls, names: _ejected(pr, p, rolls, names, _("{model} ejected by {by} → {to}")),
    "ModelDisplaced": lambda pr, p, rolls, names: _ejected(pr, p, rolls, names,
                                                           _("{model} displaced by {by} → {to}")),
    "DomainChosen": lambda pr, p, rolls, names: _("{model} chooses {domain}").format(
        model=_model(p, names), domain=in_words(p.get("domain"))),
    "VortexStabilised": lambda pr, p, rolls, names: _("{model} stabilises {vortex}{faces} → {allegiance}").format(
        model=_model(p, names), vortex=_vortex(p, names), faces=dice_text(p, rolls),
        allegiance=in_words(p.get("allegiance")) if p.get("allegiance") else _("unaligned")),
    "VortexExplored": _explored,
    "PhenomenonDrawn": _drawn,
    "VortexMoved": lambda pr, p, rolls, names: _("{vortex} moves{faces} → {to}").format(
        vortex=_vortex(p, names), faces=dice_text(p, rolls), to=pos_text(p.get("to")))
        + (" " + _("(blocked)") if p.get("blocked") else ""),
    "EtherConverted": lambda pr, p, rolls, names: _("{player} converts {amount} ether to {domain}").format(
        player=names.player(p.get("player")), amount=p.get("amount"), domain=in_words(p.get("domain"))),
    "MarkerEjected": lambda pr, p, rolls, names: _("{marker} ejected → {to}").format(
        marker=_marker(p, names), to=pos_text(p.get("to"))),
    "MarkerTaken": lambda pr, p, rolls, names: _("{model} takes {marker}").format(
        model=_model(p, names), marker=_marker(p, names)),
    "ModelPlaced": _placed,
    "ModelRemoved": lambda pr, p, rolls, names: (_("{model} removed").format(model=_model(p, names))
                                                 + (f" ({p['reason']})" if p.get("reason") else "")),
}


# --- the highlight of an event ---------------------------------------------------------------------

def _first(at: Any) -> list[int] | None:
    """The first hex of a position ([q,r], [[q,r]] or [[c1],[c2]...])."""
    if not isinstance(at, list) or not at:
        return None
    if isinstance(at[0], list):
        return _first(at[0])
    if len(at) == 2 and all(isinstance(v, int) for v in at):
        return list(at)
    return None


def _at(before: dict | None, part: str, thing: Any) -> list[int] | None:
    found = ((before or {}).get(part) or {}).get(str(thing))
    return _first(found.get("at")) if found else None


def _along(start, to) -> dict:
    return {"hexes": [to] if to else [], "path": [h for h in (start, to) if h] if start != to else []}


def highlight(event: dict | None, before: dict | None) -> dict:
    """What the board highlights for ``event``, given the state just before it: the acting model (and any
    model it ejects) gets a ring; a move shows its path from where the model stood; an ejection the
    ejected model, its shover and its destination hex."""
    if not event:
        return {}
    p = payload(event)
    kind = event.get("type") or p.get("type")
    out: dict[str, list] = {"models": [], "hexes": [], "path": []}
    if kind == "ModelMoved":
        out["models"] = [p.get("model"), *(p.get("must_eject") or [])]
        steps = [_first(s) for s in p.get("path") or []]
        out["path"] = [h for h in [_at(before, "models", p.get("model")), *steps] if h]
    elif kind in ("ModelEjected", "ModelDisplaced"):
        out["models"] = [p.get("model"), p.get("by")]
        out.update(_along(_at(before, "models", p.get("model")), _first(p.get("to"))))
    elif kind in ("ActivationStarted", "ActivationEnded", "MarkerTaken"):
        out["models"] = [p.get("model")]
        if kind == "MarkerTaken":
            at = _at(before, "markers", p.get("marker"))
            out["hexes"] = [at] if at else []
    elif kind == "MarkerEjected":
        start, to = _at(before, "markers", p.get("marker")), _first(p.get("to"))
        out["hexes"] = [to] if to else []
        out["path"] = [h for h in (start, to) if h]
    elif kind in ("VortexStabilised", "VortexExplored", "DomainChosen", "PhenomenonDrawn"):
        out["models"] = [p.get("model")]
        at = _at(before, "vortices", p.get("vortex"))
        out["hexes"] = [at] if at else []
    elif kind == "VortexMoved":
        out.update(_along(_at(before, "vortices", p.get("vortex")), _first(p.get("to"))))
    elif kind == "ModelPlaced":
        m = p.get("model") or {}
        out["models"] = [m.get("id")] if isinstance(m, dict) else []
    elif kind == "ModelRemoved":
        m = ((before or {}).get("models") or {}).get(str(p.get("model"))) or {}
        out["hexes"] = [h for h in (m.get("at") or []) if isinstance(h, list)]
    out["models"] = [str(m) for m in out["models"] if m]
    return {k: v for k, v in out.items() if v}


# --- the text board ------------------------------------------------------------------------------

def _footprint(model: dict) -> list[tuple[int, int]]:
    try:
        return sorted(hx.footprint(model["size"], model["at"]))
    except (KeyError, ValueError, TypeError):
        return [tuple(h) for h in model.get("at") or []]


def text_board(state: dict, names: Names) -> str:
    """One character per hex, odd rows shifted; q along the top, r down the side."""
    width, height = state["board"]["width"], state["board"]["height"]
    cells: dict[tuple[int, int], str] = {}
    for piece in state.get("terrain", {}).values():
        for q, r in piece["hexes"]:
            cells[(q, r)] = TEXT_TERRAIN.get(piece["kind"], "?")
    for marker in state.get("markers", {}).values():
        cells[tuple(marker["at"])] = "*"
    vortex_lines = []
    for vid, vortex in state.get("vortices", {}).items():
        at = f"[{vortex['at'][0]},{vortex['at'][1]}]"
        if vortex["removed"]:
            vortex_lines.append("  " + _("{vortex} removed (last at {at})").format(vortex=vid, at=at))
            continue
        for h in hx.hexon_hexes(tuple(vortex["at"])) if hx.is_hexon_centre(tuple(vortex["at"])) else [tuple(vortex["at"])]:
            cells.setdefault(h, "@")
        vortex_lines.append("  " + _("{vortex} at {at} facing {facing}, {ether} ether, {allegiance}").format(
            vortex=vid, at=at, facing=vortex["facing"], ether=vortex["ether"],
            allegiance=in_words(vortex["allegiance"]) if vortex["allegiance"] else _("unaligned")))
    players = list(state["players"])
    upper, lower = iter(string.ascii_uppercase + string.digits), iter(string.ascii_lowercase + "!$&+=?@")
    legend = []
    for mid, model in state.get("models", {}).items():
        symbol = next(upper if model["player"] == players[0] else lower, "?")
        legend.append(f"  {symbol} {names.of('models', mid)} ({mid}, {names.player(model['player'])}, "
                      f"{size_name(model['size'])}) " + _("at {at}").format(
                          at=" ".join(f"[{q},{r}]" for q, r in model["at"])))
        for h in _footprint(model):
            cells[h] = symbol
    lines = [column_ruler(width, 0, _("q (row 0)")), ""]
    for row in range(height):
        shift = " " if row % 2 else ""
        line = [cells.get(hx.from_offset(col, row), ".") for col in range(width)]
        first_q = hx.from_offset(0, row)[0]
        lines.append(f"r{row:<3d}{shift}" + " ".join(line) + "   " + _("(q from {q})").format(q=first_q))
    key = "  " + _("# solid  ^ burning ground  % deadly bog  \" cover  * marker  @ vortex")
    vortices = [_("vortices:"), *vortex_lines] if vortex_lines else []
    return "\n".join([head_text(state, names), scores_text(state, names), *lines, _("models:"), *legend, *vortices,
                      key])


def column_ruler(width: int, row: int, label: str) -> str:
    """The q of each column of ``row``, written vertically-free: every column's last digit, tens above."""
    qs = [hx.from_offset(col, row)[0] for col in range(width)]
    tens = " ".join(str(abs(q) // 10 % 10) if abs(q) >= 10 else " " for q in qs)
    units = " ".join(str(abs(q) % 10) for q in qs)
    return f"    {tens}\n    {units}   {label}"


# --- the presentation --------------------------------------------------------------------------

class TornscapePresentation(Presentation):
    GROUP_TITLES = {**Presentation.GROUP_TITLES, "eject": N_("Ejection due"), "vortex": N_("Vortex"),
                    "activation": N_("Activation"), "move": N_("Move"), "attack": N_("Attack"),
                    "crystals": N_("Ether crystals")}
    LATE_GROUPS = ("crystals", *Presentation.LATE_GROUPS)
    needs_before = True
    SUMMARIES = SUMMARIES
    NAMED = {"models": "models", "terrain": "terrain", "vortices": "vortices", "markers": "markers"}
    NOUNS = {"vortices": N_("Vortex"), "markers": N_("Marker")}

    def thing_name(self, kind: str, thing: dict) -> str:
        """A terrain piece without a name is called by its kind ("Burning ground 2")."""
        if kind == "terrain" and not thing.get("name") and thing.get("kind"):
            kind = str(thing["kind"])
            return _(TERRAIN_NAMES[kind]) if kind in TERRAIN_NAMES else bd.terrain_name(kind).capitalize()
        name = super().thing_name(kind, thing)
        return _(name) if not thing.get("name") and name == self.NOUNS.get(kind) else name  # "Vortex", translated

    def details(self, event: dict | None, names: Names | None = None) -> str | None:
        """The card of a PhenomenonDrawn: its name, effect, relation and trigger."""
        if not event or event.get("type") != "PhenomenonDrawn":
            return None
        p = payload(event)
        parts = [f"**{phenomenon_name(p.get('card'))}**", _("{effect} effect").format(effect=in_words(p.get("effect")))]
        if p.get("relation"):
            parts.append(_("{relation} vortex").format(relation=in_words(p["relation"])))
        if p.get("trigger"):
            parts.append(_("trigger: {trigger}").format(trigger=words(in_words(p["trigger"]))))
        return " · ".join(parts)

    def highlight(self, event: dict | None, before: dict | None) -> dict:
        return highlight(event, before)

    def kept_picture(self, state: dict, names: Names, mark: dict | None = None):
        key, drawing, look = bd.live_board(state, mark, names)
        return key, (lambda: f"<style>{bd.CSS}</style>" + drawing()), look

    def picture(self, state: dict, event: dict | None = None, before: dict | None = None,
                events: list[dict] | None = None, names: Names | None = None, mark: dict | None = None) -> str:
        shown = mark if mark is not None else self.highlight(event, before)
        return f"<style>{bd.CSS}</style>" + bd.render_board(state, shown, names=names or None)

    def scene(self, header: dict, changes: list, lines: list[dict], names: Names | None = None,
              skip: set[int] | None = None):
        names = names or self.names(header)
        return bd.board_scene(header, changes, lines, self.pack.state_class.OBJECT_PARTS, names, self.highlight,
                              lambda state: self.status_look(state, names), skip=skip)

    def choice_picture(self, name: str, value: Any) -> str | None:
        if name == "facing" and isinstance(value, int) and not isinstance(value, bool):
            return bd.facing_svg(value)
        return None

    def taps(self, actions: list, state: dict) -> Taps:
        """A tap on a hex records the move ending there, or the ejection or marker push to it (for a large
        model any hex of the hexon picks its centre: hexons never overlap); a tap on a model activates it.
        Huge models' moves and ejections are picked from the list."""
        models = state.get("models") or {}
        taps = Taps()
        for action in actions:
            event = action.event
            kind = event.get("type")
            size = (models.get(str(event.get("model"))) or {}).get("size")
            if kind == "ActivationStarted":
                taps.add_model(str(event["model"]), action, {})
            elif kind == "ModelMoved" and size != "huge" and action.hexes:
                self._tap_position(taps, action.hexes[0], size == "large", action, {})
            elif "to" in action.open and action.open["to"].kind == "one_of" and size != "huge":
                for to in action.open["to"].values:
                    at = to[0] if size == "large" and to and isinstance(to[0], list) else to
                    self._tap_position(taps, at, size == "large", action, {"to": to})
        return taps

    @staticmethod
    def _tap_position(taps: Taps, at: Any, hexon: bool, action: Any, values: dict) -> None:
        """Mark a target hex (``hexon``: a hexon centre, whose every hex picks it)."""
        if not (isinstance(at, (list, tuple)) and len(at) == 2 and all(type(c) is int for c in at)):
            return
        centre = (at[0], at[1])
        taps.marked.append([at[0], at[1]])
        for h in hx.hexon_hexes(centre) if hexon and hx.is_hexon_centre(centre) else (centre,):
            taps.add_hex(f"{h[0]},{h[1]}", action, values)

    def sides(self, header: dict, names: Names) -> list[str]:
        """The player whose models start lower on the board (higher r) is at the bottom."""
        rows: dict[str, list[int]] = {}
        for m in (header.get("setup") or {}).get("models") or []:
            for h in bd.positions(m.get("at"))[:1]:
                rows.setdefault(str(m.get("player")), []).append(h[1])
        order = sorted(rows, key=lambda pid: -sum(rows[pid]) / len(rows[pid]))
        return [names.player(pid) for pid in order]

    def text_board(self, state: dict, event: dict | None = None, names: Names | None = None) -> str:
        return text_board(state, names or bd.state_names(state))

    def owner(self, p: dict, state: dict) -> str | None:
        """The player of the model an event names."""
        model = p.get("model") if not isinstance(p.get("model"), dict) else p["model"].get("id")
        return ((state.get("models") or {}).get(str(model)) or {}).get("player") if model else None
