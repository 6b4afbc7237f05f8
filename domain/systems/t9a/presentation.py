"""How The 9th Age games are shown: the magic phase (magic.py), the event summaries, the text board."""

from __future__ import annotations

from domain.systems.presentation import (Names, Presentation, add_roll, dice_text, head_text, plural, signed,
                                         words)
from domain.systems.t9a import magic


def _flux(pr, p: dict, rolls, names: Names) -> str:
    text = f"Flux card {p.get('card')}: {p.get('magic_dice')} magic dice each, {p.get('veil_tokens')} veil tokens"
    return text + (f", miscast {signed(p['miscast_modifier'])}" if p.get("miscast_modifier") else "")


def _siphon(pr, p: dict, rolls, names: Names) -> str:
    n, kept = p.get("converted_dice"), p.get("kept")
    pools = ", ".join(f"{names.player(k)} {v}" for k, v in (p.get("magic_dice") or {}).items())
    text = f"{plural(n, 'die', 'dice')} from the veil, {plural(kept, 'token')} kept"
    return text + (f"; magic dice {pools}" if pools else "")


def _cast(pr, p: dict, rolls, names: Names) -> str:
    boosted = " (boosted)" if p.get("version") == "boosted" else ""
    modifier = f" {signed(p['modifier'])}" if p.get("modifier") else ""
    text = (f"{names.of('wizards', p.get('wizard'))} casts {names.of('spells', p.get('spell'))}{boosted} with "
            f"{plural(p.get('dice'), 'die', 'dice')}{dice_text(p, rolls)}{modifier}: {p.get('total')}, "
            f"{'passed' if p.get('passed') else 'failed'}")
    return text + (", miscast!" if p.get("miscast") else "")


def _dispel(pr, p: dict, rolls, names: Names) -> str:
    return (f"{names.of('wizards', p.get('wizard'))} dispels with "
            f"{plural(p.get('dice'), 'die', 'dice')}{dice_text(p, rolls)}: {p.get('total')}, "
            f"{'dispelled' if p.get('dispelled') else 'failed'}")


SUMMARIES = {
    "MagicPhaseStarted": lambda pr, p, rolls, names: f"magic phase of {names.player(p.get('active'))}",
    "FluxCardDrawn": _flux,
    "VeilSiphoned": _siphon,
    "CastingAttempted": _cast,
    "DispelAttempted": _dispel,
    "MiscastResolved": lambda pr, p, rolls, names: (f"miscast of {names.of('wizards', p.get('wizard'))}: "
                                                    f"{p.get('value')} → {words(p.get('effect') or 'none')}"),
    "SpellResolved": lambda pr, p, rolls, names: f"{names.of('spells', p.get('spell'))} takes effect",
    "AttributeResolved": lambda pr, p, rolls, names: f"attribute {names.of('spells', p.get('spell'))} takes effect",
    "MagicPhaseEnded": lambda pr, p, rolls, names: (f"magic phase ends, "
                                                    f"{plural(p.get('carried', 0), 'veil token')} carried"),
}


def magic_text(state: dict, names: Names) -> str:
    magic_state = state.get("magic") or {}
    active = magic_state.get("active")
    lines = [head_text(state, names, f"  magic phase of {names.player(active) if active else '-'} "
                                     f"({magic_state.get('step') or 'not started'})")]
    if magic_state.get("flux_card"):
        lines.append(f"Flux card {magic_state['flux_card']}, miscast modifier "
                     f"{magic_state.get('miscast_modifier', 0):+d}")
    for pid, p in state["players"].items():
        lines.append(f"  {pid} {p['name']} ({names.faction(p.get('faction'))}): {p.get('magic_dice', 0)} magic dice, "
                     f"{p.get('veil', 0)} veil tokens, Flux cards left {' '.join(p.get('flux_left', [])) or 'none'}, "
                     f"{p['score']} VP")
    cast = magic_state.get("cast")
    if cast:
        outcome = "dispelled" if cast["dispelled"] else ("passed" if cast["passed"] else "failed")
        lines.append(f"last cast: {names.of('wizards', cast['wizard'])} {names.of('spells', cast['spell'])} "
                     f"total {cast['total']} {outcome}" + (", miscast" if cast["miscast"] else ""))
    return "\n".join(lines)


class T9APresentation(Presentation):
    SUMMARIES = SUMMARIES
    NAMED = {"spells": "spells", "wizards": "wizards"}
    NOUNS = {"wizards": "Wizard"}
    CSS = magic.CSS

    def picture(self, state: dict, event: dict | None = None, before: dict | None = None,
                events: list[dict] | None = None, names: Names | None = None, mark: dict | None = None) -> str:
        return magic.render_magic(state, events, names)

    def card(self, state: dict, names: Names | None = None) -> str:
        return magic.render_magic_card(state, names)

    def scene_context(self, header: dict, changes: list, lines: list[dict]) -> dict:
        cards = [str(k) for k in self.pack.rules_in_force(header).get("flux_cards", {}) if not str(k).startswith("_")]
        return {"events": {int(line["seq"]): line for line in lines}, "rolls": {},
                "cards": magic.deck({"players": {"_": {"flux_left": cards}}})}

    def look(self, moment, names: Names, ctx: dict) -> dict:
        if moment.event is not None:
            add_roll(ctx["rolls"], moment.event)
        return magic.magic_look(moment.state, ctx["events"], ctx["rolls"], names, ctx["cards"])

    def shell(self, header: dict, look: dict, names: Names, ctx: dict) -> str:
        return magic.magic_shell(header.get("game"), 0, {p["id"]: names.player(p["id"])
                                                         for p in header.get("players") or []}, look, ctx["cards"])

    def text_board(self, state: dict, event: dict | None = None, names: Names | None = None) -> str:
        return magic_text(state, names or Names())

    def owner(self, p: dict, state: dict) -> str | None:
        """The player of the wizard an event names."""
        return ((state.get("wizards") or {}).get(str(p.get("wizard"))) or {}).get("player") if p.get("wizard") else None
