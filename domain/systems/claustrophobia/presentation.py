"""How Claustrophobia games are shown: the warriors' cards and action dice (initiative.py), the event
summaries, the text board."""

from __future__ import annotations

from domain.systems.claustrophobia import initiative
from domain.systems.presentation import Names, Presentation, die_symbol, head_text, title_words, words
from i18n import N_, _


def _assigned(pr, p: dict, rolls, names: Names) -> str:
    faces = ((rolls or {}).get(p.get("roll")) or {}).get("faces") or []
    index = p.get("index")
    face = faces[index] if isinstance(index, int) and 0 <= index < len(faces) else p.get("line")
    text = _("{warrior} takes {symbol} ({face}): line {line}, {stats}").format(
        warrior=names.of("warriors", p.get("warrior")), symbol=die_symbol(face), face=face, line=p.get("line"),
        stats=_stats(p))
    return text + (_(", exhausted") if p.get("exhausted") else "")


def _stats(w: dict) -> str:
    """``MVT 1 CBT 2 DEF 4`` in the language spoken."""
    return " ".join(f"{_(label)} {w.get(key)}" for key, label in initiative.STATS)


def _warrior(p: dict, names: Names) -> str:
    return names.of("warriors", p.get("warrior"))


SUMMARIES = {
    "ActionDieAssigned": _assigned,
    "LineLost": lambda pr, p, rolls, names: _("{warrior} loses line {line}").format(
        warrior=_warrior(p, names), line=p.get("line")),
    "LineRestored": lambda pr, p, rolls, names: _("{warrior} regains line {line}").format(
        warrior=_warrior(p, names), line=p.get("line")),
    "GiftUsed": lambda pr, p, rolls, names: _("{warrior} uses {gift}").format(
        warrior=_warrior(p, names), gift=words(p.get("gift"))),
    "WarriorRemoved": lambda pr, p, rolls, names: _("{warrior} out of play").format(warrior=_warrior(p, names)),
}


def initiative_text(state: dict, names: Names) -> str:
    human = state.get("human")
    lines = [head_text(state, names, "  " + _("human player {player}").format(
        player=names.player(human) if human else "-"))]
    lines.append("  " + " " * 18 + "  " + "  ".join(f"{n} " for n in initiative.LINES) + "  "
                 + _("(lines; [n] the die, x lost)"))
    for wid, w in state.get("warriors", {}).items():
        slots = " ".join(("[" + str(n) + "]" if w["die"] == int(n) else f" {n} ") if line["available"] else " x "
                         for n, line in w["lines"].items())
        status = _("EXHAUSTED") if w["exhausted"] else _stats(w)
        shown = status if w["die"] else _("no die")
        out = "" if w["in_play"] else " " + _("(out)")
        lines.append(f"  {names.of('warriors', wid):<18} {slots}  {shown}{out}")
    init = state.get("initiative")
    if init:
        aside = [init["faces"][i] for i in init["set_aside"]]
        lines.append(_("action dice {faces}; not taken: {aside}").format(faces=init["faces"], aside=aside or _("none")))
    return "\n".join(lines)


class ClaustrophobiaPresentation(Presentation):
    GROUP_TITLES = {**Presentation.GROUP_TITLES, "initiative": N_("Initiative"), "warriors": N_("Warriors")}
    LATE_GROUPS = ("warriors", *Presentation.LATE_GROUPS)
    SUMMARIES = SUMMARIES
    NAMED = {"warriors": "warriors"}
    CSS = initiative.CSS

    def thing_name(self, kind: str, thing: dict) -> str:
        """``brute1`` -> ``Brute 1``; ``blade_for_hire2`` -> ``Blade For Hire 2``."""
        ident = str(thing.get("name") or thing.get("id"))
        stem = ident.rstrip("0123456789")
        number = ident[len(stem):]
        return title_words(stem) + (f" {number}" if number else "")

    def picture(self, state: dict, event: dict | None = None, before: dict | None = None,
                events: list[dict] | None = None, names: Names | None = None, mark: dict | None = None) -> str:
        return initiative.render_initiative(state, event, names)

    def card(self, state: dict, names: Names | None = None) -> str:
        return initiative.render_initiative_card(state, names)

    def scene_context(self, header: dict, changes: list, lines: list[dict]) -> dict:
        slots = max([len((value or {}).get("faces") or []) for _, part, _, value in changes if part == "initiative"]
                    + [0])
        warriors = [w.get("id") for w in (header.get("setup") or {}).get("warriors") or [] if isinstance(w, dict)]
        return {"slots": slots, "warriors": warriors}

    def look(self, moment, names: Names, ctx: dict) -> dict:
        return initiative.initiative_look(moment.state, moment.event, names, ctx["slots"], ctx["warriors"])

    def shell(self, header: dict, look: dict, names: Names, ctx: dict) -> str:
        return initiative.initiative_shell(header.get("game"), 0, ctx["warriors"], look, ctx["slots"])

    def text_board(self, state: dict, event: dict | None = None, names: Names | None = None) -> str:
        return initiative_text(state, names or Names())

    def owner(self, p: dict, state: dict) -> str | None:
        """The warriors are the human player's."""
        return state.get("human") if p.get("warrior") else None
