"""How The 9th Age games are shown: the magic phase (magic.py), the event summaries, the text board."""

from __future__ import annotations

from domain.systems.presentation import Names, Presentation, add_roll, dice_text, head_text, plural, signed
from domain.systems.t9a import magic
from domain.systems.t9a.magic import miscast_words
from i18n import N_, _, ngettext


def _flux(pr, p: dict, rolls, names: Names) -> str:
    text = _("Flux card {card}: {dice} magic dice each, {tokens} veil tokens").format(
        card=p.get("card"), dice=p.get("magic_dice"), tokens=p.get("veil_tokens"))
    if p.get("miscast_modifier"):
        text += _(", miscast {modifier}").format(modifier=signed(p["miscast_modifier"]))
    return text


def _siphon(pr, p: dict, rolls, names: Names) -> str:
    n, kept = p.get("converted_dice"), p.get("kept")
    pools = ", ".join(f"{names.player(k)} {v}" for k, v in (p.get("magic_dice") or {}).items())
    text = _("{dice} from the veil, {kept} kept").format(dice=_count_dice(n), kept=_count_tokens(kept))
    return text + (_("; magic dice {pools}").format(pools=pools) if pools else "")


def _count_dice(n) -> str:
    return ngettext("{n} die", "{n} dice", n).format(n=n) if isinstance(n, int) else plural(n, "die", "dice")


def _count_tokens(n) -> str:
    return ngettext("{n} token", "{n} tokens", n).format(n=n) if isinstance(n, int) else plural(n, "token")


def _cast(pr, p: dict, rolls, names: Names) -> str:
    modifier = f" {signed(p['modifier'])}" if p.get("modifier") else ""
    text = (_("{wizard} casts {spell} (boosted) with {dice}{faces}{modifier}: {total}, {outcome}")
            if p.get("version") == "boosted" else
            _("{wizard} casts {spell} with {dice}{faces}{modifier}: {total}, {outcome}")).format(
        wizard=names.of("wizards", p.get("wizard")), spell=names.of("spells", p.get("spell")),
        dice=_count_dice(p.get("dice")), faces=dice_text(p, rolls), modifier=modifier, total=p.get("total"),
        outcome=_("passed") if p.get("passed") else _("failed"))
    return text + (_(", miscast!") if p.get("miscast") else "")


def _dispel(pr, p: dict, rolls, names: Names) -> str:
    return _("{wizard} dispels with {dice}{faces}: {total}, {outcome}").format(
        wizard=names.of("wizards", p.get("wizard")), dice=_count_dice(p.get("dice")), faces=dice_text(p, rolls),
        total=p.get("total"), outcome=_("dispelled") if p.get("dispelled") else _("failed"))


def _count_veil(n) -> str:
    return ngettext("{n} veil token", "{n} veil tokens", n).format(n=n) if isinstance(n, int) else plural(n,
                                                                                                          "veil token")


SUMMARIES = {
    "MagicPhaseStarted": lambda pr, p, rolls, names: _("magic phase of {player}").format(
        player=names.player(p.get("active"))),
    "FluxCardDrawn": _flux,
    "VeilSiphoned": _siphon,
    "CastingAttempted": _cast,
    "DispelAttempted": _dispel,
    "MiscastResolved": lambda pr, p, rolls, names: _("miscast of {wizard}: {value} → {effect}").format(
        wizard=names.of("wizards", p.get("wizard")), value=p.get("value"), effect=miscast_words(p.get("effect"))),
    "SpellResolved": lambda pr, p, rolls, names: _("{spell} takes effect").format(
        spell=names.of("spells", p.get("spell"))),
    "AttributeResolved": lambda pr, p, rolls, names: _("attribute {spell} takes effect").format(
        spell=names.of("spells", p.get("spell"))),
    "MagicPhaseEnded": lambda pr, p, rolls, names: _("magic phase ends, {carried} carried").format(
        carried=_count_veil(p.get("carried", 0))),
}


def magic_text(state: dict, names: Names) -> str:
    magic_state = state.get("magic") or {}
    active = magic_state.get("active")
    step = magic.step_name(magic_state.get("step")) if magic_state.get("step") else _("not started")
    lines = [head_text(state, names, "  " + _("magic phase of {player} ({step})").format(
        player=names.player(active) if active else "-", step=step))]
    if magic_state.get("flux_card"):
        lines.append(_("Flux card {card}, miscast modifier {modifier:+d}").format(
            card=magic_state["flux_card"], modifier=magic_state.get("miscast_modifier", 0)))
    for pid, p in state["players"].items():
        lines.append(f"  {pid} {p['name']} ({names.faction(p.get('faction'))}): " + _(
            "{dice} magic dice, {veil} veil tokens, Flux cards left {left}, {score} VP").format(
            dice=p.get("magic_dice", 0), veil=p.get("veil", 0), left=" ".join(p.get("flux_left", [])) or _("none"),
            score=p["score"]))
    cast = magic_state.get("cast")
    if cast:
        outcome = _("dispelled") if cast["dispelled"] else (_("passed") if cast["passed"] else _("failed"))
        lines.append(_("last cast: {wizard} {spell} total {total} {outcome}").format(
            wizard=names.of("wizards", cast["wizard"]), spell=names.of("spells", cast["spell"]), total=cast["total"],
            outcome=outcome) + (_(", miscast") if cast["miscast"] else ""))
    return "\n".join(lines)


class T9APresentation(Presentation):
    GROUP_TITLES = {**Presentation.GROUP_TITLES, "magic": N_("Magic phase")}
    SUMMARIES = SUMMARIES
    NAMED = {"spells": "spells", "wizards": "wizards"}
    NOUNS = {"wizards": N_("Wizard")}  # translated where a thing is named (thing_name)
    CSS = magic.CSS

    def thing_name(self, kind: str, thing: dict) -> str:
        """A wizard without a name is called by its kind ("Wizard 2"), in the language spoken."""
        name = super().thing_name(kind, thing)
        return _(name) if not thing.get("name") and name == self.NOUNS.get(kind) else name

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
