"""HTML/SVG picture of a The 9th Age magic phase.

Pure string building over the replay state of a ``t9a`` game (``players.<id>.magic_dice/veil/flux_left``,
``magic``, ``wizards``, ``spells``; see projections/queries.py ``state_at``). Every text is escaped.

Public API:
    render_magic(state, events=None, names=None) -> str
        ``events`` (optional, the game's stored lines or rows carrying them) adds what the state does not
        keep: the casting dice, the version cast, the dispel and the miscast of the current attempt.
    magic_look(state, events_by_seq, rolls, names) -> Look
        The picture's regions at a moment (domain.systems.scene), for drawing it once and stepping.
"""

from __future__ import annotations

from functools import lru_cache

from domain.systems.dice_svg import d6_svg, token_svg
from domain.systems.presentation import Names, e, Presentation, die_symbol, payload, rolls_by_seq, words
from domain.systems.scene import Look, look_attrs
from i18n import N_, _, current, ngettext

__all__ = ["render_magic", "render_magic_card", "cast_outcome", "magic_look", "magic_shell"]

PHASE_STEPS = (("started", N_("Start")), ("flux", N_("Flux card")), ("siphoned", N_("Siphon the Veil")),
               ("casting", N_("Casting")), ("ended", N_("End")))  # labels translated where shown
CAST_STEPS = (("A", N_("cast")), ("B", N_("dispel")), ("C", N_("miscast")), ("D", N_("spell")), ("E", N_("attribute")))
# a phase's step as the text board names it (its record value, in the language spoken)
STEP_WORDS = {"started": N_("started"), "flux": N_("flux"), "siphoned": N_("siphoned"), "ended": N_("ended")}
# an attempt's outcome as a person reads it (the value itself stays in data-result)
OUTCOMES = {"passed": N_("passed"), "failed": N_("failed"), "dispelled": N_("dispelled")}
# the words a person reads for a miscast's effect (the rule data's table values)
MISCAST_EFFECTS = {"none": N_("none"), "broken_concentration": N_("broken concentration"), "witchfire": N_("witchfire"),
                   "magical_inferno": N_("magical inferno"), "amnesia": N_("amnesia"), "backlash": N_("backlash"),
                   "implosion": N_("implosion"), "breach_in_the_veil": N_("breach in the veil")}
KINDS = {"normal": N_("normal"), "bound": N_("bound"), "attribute": N_("attribute"), "replicable": N_("replicable")}
OUTCOME_COLOURS = {"passed": "#2a9d5c", "failed": "#c62828", "dispelled": "#6b2e8f"}
MISCAST_COLOUR = "#e8562a"

CSS = """
.rc-region{display:contents}
.rc-magic{font-family:sans-serif;color:#222;background:#f5f2ea;border:1px solid #d2ccbd;border-radius:8px;
padding:.6em .8em;line-height:1.35}
.rc-magic-head{display:flex;flex-wrap:wrap;align-items:center;gap:.4em 1em;margin-bottom:.5em}
.rc-magic-title{font-weight:bold;font-size:1.05em}
.rc-phase-steps{display:flex;gap:.25em;flex-wrap:wrap}
.rc-chip{display:inline-block;border-radius:10px;padding:0 .55em;font-size:.78em;background:#e4dfd2;color:#555;
border:1px solid transparent;white-space:nowrap}
.rc-chip.rc-done{background:#d9ccff;color:#2b1a55}
.rc-chip.rc-now{background:#ffb000;color:#222;font-weight:bold}
.rc-chip.rc-skipped{opacity:.4;text-decoration:line-through}
.rc-magic-sides{display:grid;grid-template-columns:repeat(auto-fit,minmax(250px,1fr));gap:.6em}
.rc-magic-side{contain:layout paint style;background:#fff;border:1px solid #d2ccbd;border-left:6px solid var(--pc);border-radius:6px;
padding:.45em .65em}
.rc-magic-side.rc-active{box-shadow:0 0 0 2px #ffb000}
.rc-side-name{font-weight:bold}
.rc-side-role{font-size:.78em;opacity:.7;margin-left:.4em}
.rc-row{display:flex;flex-wrap:wrap;align-items:center;gap:.22em;margin:.28em 0;min-height:1.5em}
.rc-label{width:6.6em;font-size:.78em;opacity:.75}
.rc-count{font-weight:bold;margin-left:.35em;font-size:.9em;white-space:nowrap}
.rc-flux-left{font-size:.9em;opacity:.8}
.rc-none{font-size:.8em;opacity:.55;font-style:italic}
.rc-row svg{vertical-align:middle;flex:none}
.rc-flux-card{display:inline-flex;align-items:center;justify-content:center;width:1.35em;height:1.9em;
border:1px solid #5b3f99;border-radius:3px;background:#efe8ff;color:#2b1a55;font-weight:bold;font-size:.82em}
.rc-flux-card.rc-used{opacity:.22;text-decoration:line-through}
.rc-flux-card.rc-drawn{background:#ffb000;border-color:#8a5a00;color:#222;box-shadow:0 0 0 2px #ffe8a3}
.rc-drawn-card{display:inline-flex;align-items:center;gap:.5em;background:#fff;border:1px solid #8a5a00;
border-radius:6px;padding:.15em .6em;font-size:.88em}
.rc-drawn-card b{font-size:1.25em;color:#8a5a00}
.rc-wizard{margin:.2em 0;font-size:.88em}
.rc-wizard.rc-fleeing{opacity:.5}
.rc-wizard-name{font-weight:bold;margin-right:.3em}
.rc-wizard.rc-casting .rc-wizard-name{background:#ffe8a3;border-radius:3px;padding:0 .25em}
.rc-spell{display:inline-block;border-radius:10px;padding:0 .5em;margin:.08em .1em;background:#eee9dc;
font-size:.85em;border:1px solid #d2ccbd}
.rc-spell small{opacity:.65}
.rc-spell.rc-cast-now{background:#ffe8a3;border-color:#ffb000;font-weight:bold}
.rc-cast{margin-top:.6em;background:#fff;border:1px solid #d2ccbd;border-radius:6px;padding:.45em .7em}
.rc-cast-line{display:flex;flex-wrap:wrap;align-items:center;gap:.35em;margin:.2em 0}
.rc-total{font-size:1.35em;font-weight:bold}
.rc-verdict{display:inline-block;border-radius:4px;padding:0 .5em;color:#fff;font-weight:bold;
text-transform:uppercase;font-size:.85em;letter-spacing:.04em}
.rc-muted{opacity:.7;font-size:.85em}
.rc-die-face{display:inline-block;font-size:1.9em;line-height:1;border-radius:4px;padding:0 .04em}
"""


def _e(value) -> str:
    return e(value)


def _none(text: str = N_("none")) -> str:
    """A muted "none" (or another text of nothing) in the language spoken."""
    return f'<span class="rc-none">{_e(_(text))}</span>'


def step_name(step) -> str:
    """A magic phase's step in the language spoken (``flux`` as is in English)."""
    return _(STEP_WORDS[step]) if step in STEP_WORDS else str(step)


def miscast_words(effect) -> str:
    """A miscast's effect in the language spoken (``broken_concentration`` -> broken concentration)."""
    return _(MISCAST_EFFECTS[effect]) if effect in MISCAST_EFFECTS else words(effect or _("none"))


def outcome_name(outcome: str) -> str:
    return _(OUTCOMES[outcome]) if outcome in OUTCOMES else outcome


@lru_cache(maxsize=1)
def flux_cards() -> dict[str, dict]:
    """The Flux cards of the rule data (card -> magic_dice, veil_tokens, miscast_modifier)."""
    try:
        from domain.systems.dice import load_rule_data

        cards = load_rule_data("t9a")["flux_cards"]
    except Exception:  # rule data unavailable: numbers only
        return {str(n): {} for n in range(1, 9)}
    return {k: v for k, v in cards.items() if not k.startswith("_")}


def _card_order(cards) -> list[str]:
    return sorted(cards, key=lambda c: (0, int(c)) if str(c).isdigit() else (1, str(c)))


def _signed(value) -> str:
    try:
        return f"{int(value):+d}"
    except (TypeError, ValueError):
        return str(value)


def _compare(a, b) -> str:
    """≥ or &lt; between two numbers (escaped for HTML)."""
    try:
        return "≥" if int(a) >= int(b) else "&lt;"
    except (TypeError, ValueError):
        return "vs"


# --- the current casting attempt ------------------------------------------------------------------

def _cast_context(state: dict, events: dict[int, dict], rolls: dict[int, dict]) -> dict:
    """What the events (by seq) add to the state's ``magic.cast``: the dice, the version, the dispel, the
    miscast (``rolls``: the rolls up to the state's seq)."""
    cast = (state.get("magic") or {}).get("cast") or {}
    if not cast or not events:
        return {}
    upto = int(state.get("seq") or 0)
    out: dict = {}
    for seq in range(int(cast.get("seq", 0)), upto + 1):
        e = events.get(seq)
        if e is None:
            continue
        p = payload(e)
        if seq == cast.get("seq") and e.get("type") == "CastingAttempted":
            out.update(version=p.get("version", "basic"), modifier=p.get("modifier", 0), dice=p.get("dice"),
                       target=p.get("target"), faces=(rolls.get(p.get("roll")) or {}).get("faces"))
        elif e.get("type") == "DispelAttempted":
            out["dispel"] = {"wizard": p.get("wizard"), "total": p.get("total"), "dispelled": p.get("dispelled"),
                             "faces": (rolls.get(p.get("roll")) or {}).get("faces")}
        elif e.get("type") == "MiscastResolved":
            out["miscast"] = {"value": p.get("value"), "effect": p.get("effect")}
    return out


def cast_outcome(cast: dict) -> str:
    """passed / failed / dispelled for the state's ``magic.cast``."""
    if not cast.get("passed"):
        return "failed"
    return "dispelled" if cast.get("dispelled") else "passed"


def _value_text(spell: dict, version: str | None, dice) -> tuple[int | None, str]:
    """(value to reach or None, how to read it) for a spell cast in ``version``."""
    kind = spell.get("kind", "normal")
    if kind == "bound":
        levels = spell.get("power_level") or []
        level = levels[0] if dice is None or int(dice) <= 2 else levels[-1] if levels else None
        return level, _("bound spell, power level {level} (never rolled, always cast)").format(level=level)
    if kind == "attribute" and spell.get("casting_value") is None:
        return None, _("attribute spell")
    if version == "boosted" and spell.get("boosted_value") is not None:
        return spell["boosted_value"], _("boosted casting value")
    return spell.get("casting_value"), _("casting value")


def _dice_row(faces, fill: str = "#fffdf6") -> str:
    """The dice of a roll as die faces (⚀…⚅: small, as every casting attempt of a game keeps its own)."""
    return "".join(f'<span class="rc-d6 rc-die-face" data-face="{_e(f)}" title="{_e(f)}" '
                   f'style="background:{fill}">{_e(die_symbol(f))}</span>' for f in faces or [])


def _cast_html(state: dict, context: dict, names: Names) -> str:
    magic = state.get("magic") or {}
    cast = magic.get("cast")
    if not cast:
        if magic.get("step") == "ended":
            return '<div class="rc-cast rc-cast-none">' + _none(N_("The magic phase has ended.")) + "</div>"
        if magic.get("active"):
            return '<div class="rc-cast rc-cast-none">' + _none(N_("No casting attempt yet this phase.")) + "</div>"
        return ""
    spell = (state.get("spells") or {}).get(str(cast.get("spell"))) or {}
    wizard = cast.get("wizard")
    version = context.get("version")
    value, how = _value_text(spell, version, context.get("dice"))
    outcome = cast_outcome(cast)
    total = cast.get("total")
    miscast = bool(cast.get("miscast"))
    attrs = (f'data-wizard="{_e(wizard)}" data-spell="{_e(cast.get("spell"))}" data-total="{_e(total)}" '
             f'data-value="{_e("" if value is None else value)}" data-result="{outcome}" '
             f'data-miscast="{"true" if miscast else "false"}" data-step="{_e(cast.get("step"))}"')
    parts = [f'<div class="rc-cast" {attrs}>']
    casts = (_("{wizard} casts {spell} (boosted)") if version == "boosted" else _("{wizard} casts {spell}")).format(
        wizard=f'<b>{_e(names.of("wizards", wizard))}</b>',
        spell=f'<b>{_e(spell.get("name") or cast.get("spell"))}</b>')
    title = (f'<span>{casts}</span>'
             + ('<span class="rc-muted">' + _e(_("at {target}").format(target=context["target"])) + "</span>"
                if context.get("target") else "")
             + f'<span class="rc-muted">· seq {_e(cast.get("seq"))}</span>')
    parts.append(f'<div class="rc-cast-line">{title}</div>')

    line = []
    if context.get("faces"):
        line.append(_dice_row(context["faces"]))
        if context.get("modifier"):
            line.append(f'<span class="rc-muted">{_e(_signed(context["modifier"]))}</span>')
        line.append("=")
    tip = _e(_("casting total"))
    line.append(f'<span class="rc-total" title="{tip}">{_e(total)}</span>')
    if value is not None and spell.get("kind") != "bound":
        line.append(f'<span>{_compare(total, value)} <b>{_e(value)}</b> <span class="rc-muted">{_e(how)}</span></span>')
    else:
        line.append(f'<span class="rc-muted">{_e(how)}</span>')
    colour = OUTCOME_COLOURS[outcome]
    line.append(f'<span class="rc-verdict rc-{outcome}" style="background:{colour}">{_e(outcome_name(outcome))}</span>')
    if miscast:
        word = _e(_("miscast"))
        line.append(f'<span class="rc-verdict rc-miscast" style="background:{MISCAST_COLOUR}">{word}</span>')
    parts.append(f'<div class="rc-cast-line">{"".join(line)}</div>')
    if (not cast.get("passed") and value is not None and isinstance(total, int) and total >= value
            and spell.get("kind") != "bound"):
        parts.append('<div class="rc-cast-line rc-muted">' + _e(_("a single die showing a natural 1 or 2 always fails"))
                     + "</div>")

    dispel = context.get("dispel")
    if dispel:
        verdict = "dispelled" if dispel.get("dispelled") else "failed"
        parts.append(
            '<div class="rc-cast-line rc-dispel"><span>' + _("Dispel by {wizard}:").format(
                wizard="<b>" + _e(names.of("wizards", dispel.get("wizard"))) + "</b>") + "</span>"
            + _dice_row(dispel.get("faces"), fill="#f0f0f0")
            + ("=" if dispel.get("faces") else "")
            + f'<span><b>{_e(dispel.get("total"))}</b> {_compare(dispel.get("total"), total)} {_e(total)}</span>'
            + f'<span class="rc-verdict" style="background:{OUTCOME_COLOURS[verdict]}">{_e(outcome_name(verdict))}'
            '</span></div>')
    elif cast.get("dispelled"):
        parts.append(f'<div class="rc-cast-line rc-dispel">{_e(_("dispelled"))}</div>')
    mis = context.get("miscast")
    if mis:
        effect = miscast_words(mis.get("effect") or "none")
        text = _("Miscast: value {value} → {effect}").format(value=f"<b>{_e(mis.get('value'))}</b>",
                                                              effect=f"<b>{_e(effect)}</b>")
        modifier = _("(Flux modifier {modifier})").format(modifier=_signed(magic.get("miscast_modifier", 0)))
        parts.append(f'<div class="rc-cast-line rc-miscast-effect"><span>{text}</span>'
                     f'<span class="rc-muted">{_e(modifier)}</span></div>')

    # steps A-E: done up to the cast's step; B-E skipped after a failure, C-E after a dispel
    order = "ABCDE"
    at = order.index(cast.get("step")) if cast.get("step") in order else 0
    chips = []
    for letter, label in CAST_STEPS:
        i = order.index(letter)
        skipped = (outcome == "failed" and i >= 1) or (outcome == "dispelled" and i >= 2)
        cls = "rc-skipped" if skipped else "rc-now" if i == at else "rc-done" if i < at else ""
        chips.append(f'<span class="rc-chip {cls}" data-cast-step="{letter}">{letter} {_e(_(label))}</span>')
    parts.append(f'<div class="rc-cast-line rc-cast-steps">{"".join(chips)}</div>')
    parts.append("</div>")
    return "".join(parts)


# --- a player's side ------------------------------------------------------------------------------

def _flux_look(pid: str, player: dict, magic: dict, cards: list[str]) -> Look:
    """Each Flux card of ``pid``'s deck (drawn, left, used), and how many are left."""
    left = {str(c) for c in player.get("flux_left") or []}
    drawn = str(magic.get("flux_card")) if magic.get("active") == pid and magic.get("flux_card") else None
    look: Look = {(f"side-{pid}-fluxrow", "data-flux-left"): ",".join(_card_order(left)),
                  (f"side-{pid}-fluxleft", "text"): _("{n} left").format(n=len(left))}
    for card in cards:
        status = "drawn" if card == drawn else "left" if card in left else "used"
        cls = {"drawn": "rc-flux-card rc-drawn", "left": "rc-flux-card", "used": "rc-flux-card rc-used"}[status]
        look[(f"flux-{pid}-{card}", "class")] = cls
        look[(f"flux-{pid}-{card}", "data-status")] = status
    return look


def _flux_shell(pid: str, cards: list[str], look: Look) -> str:
    table = flux_cards()
    spans = []
    for card in cards:
        data = table.get(card) or {}
        tip = _("Flux card {card}").format(card=card)
        if data:
            tip = _("Flux card {card}: {dice} magic dice, {tokens} veil tokens, miscast {modifier}").format(
                card=card, dice=data.get("magic_dice"), tokens=data.get("veil_tokens"),
                modifier=_signed(data.get("miscast_modifier", 0)))
        fid = f"flux-{pid}-{card}"
        spans.append(f'<span id="{_e(fid)}" data-card="{_e(card)}" title="{_e(tip)}"'
                     f'{look_attrs(look, fid, "class", "data-status")}>{_e(card)}</span>')
    rid = f"side-{pid}-fluxrow"
    label = _e(_("Flux cards"))
    return (f'<div class="rc-row rc-flux" id="{_e(rid)}"{look_attrs(look, rid, "data-flux-left")}>'
            f'<span class="rc-label">{label}<br/><span class="rc-flux-left" id="side-{_e(pid)}-fluxleft">'
            f'{_e(look.get((f"side-{pid}-fluxleft", "text"), ""))}</span></span>{"".join(spans)}</div>')


def deck(state: dict) -> list[str]:
    """Every Flux card a state's players hold or have used (the rule data's and theirs)."""
    left = {str(c) for p in (state.get("players") or {}).values() for c in (p or {}).get("flux_left") or []}
    return _card_order(set(flux_cards()) | left)


def _spell_chip(state: dict, sid, casting: bool) -> str:
    spell = (state.get("spells") or {}).get(str(sid)) or {}
    kind = spell.get("kind", "normal")
    if kind == "bound":
        levels = spell.get("power_level") or []
        note = _("bound {levels}").format(levels="/".join(str(v) for v in levels))
    elif kind == "attribute":
        note = _("attribute")
    else:
        note = str(spell.get("casting_value")) + (f"/{spell['boosted_value']}+" if spell.get("boosted_value") else "")
    title = (f"{spell.get('name') or sid}" + (f" ({spell['path']})" if spell.get("path") else "")
             + f", {_(KINDS[kind]) if kind in KINDS else kind}")
    cls = "rc-spell rc-cast-now" if casting else "rc-spell"
    return (f'<span class="{cls}" data-spell="{_e(sid)}" title="{_e(title)}">{_e(spell.get("name") or sid)} '
            f'<small>{_e(note)}</small></span>')


def _wizards_html(state: dict, pid: str, names: Names) -> str:
    cast = (state.get("magic") or {}).get("cast") or {}
    no_spells = _none(N_("no spells"))
    rows = []
    for wid, w in (state.get("wizards") or {}).items():
        if str(w.get("player")) != pid:
            continue
        casting = cast.get("wizard") == wid
        cls = "rc-wizard" + (" rc-casting" if casting else "") + (" rc-fleeing" if w.get("fleeing") else "")
        chips = "".join(_spell_chip(state, sid, casting and cast.get("spell") == sid) for sid in w.get("spells") or [])
        flee = ' <span class="rc-muted">' + _e(_("(fleeing)")) + "</span>" if w.get("fleeing") else ""
        rows.append(f'<div class="{cls}" data-wizard="{_e(wid)}"><span class="rc-wizard-name">'
                    f'{_e(names.bare("wizards", wid))}</span>'
                    f"{flee}{chips or no_spells}</div>")
    return "".join(rows) or '<div class="rc-none">' + _e(_("no wizards")) + "</div>"


def _side_look(state: dict, pid: str, player: dict, names: Names, cards: list[str]) -> Look:
    magic = state.get("magic") or {}
    active = magic.get("active") == pid
    role = "" if not magic.get("active") else _("active") if active else _("reactive")
    dice = int(player.get("magic_dice") or 0)
    veil = int(player.get("veil") or 0)
    sid = f"side-{pid}"
    return {(sid, "class"): "rc-magic-side" + (" rc-active" if active else ""), (sid, "data-dice"): str(dice),
            (sid, "data-veil"): str(veil), (f"{sid}-role", "text"): role,
            (f"{sid}-pool", "html"): _pool(dice, current()), (f"{sid}-dice", "text"): str(dice),
            (f"{sid}-tokens", "html"): _tokens(veil, current()), (f"{sid}-veil", "text"): str(veil),
            (f"{sid}-wizards", "html"): _wizards_html(state, pid, names), **_flux_look(pid, player, magic, cards)}


@lru_cache(maxsize=64)
def _pool(dice: int, lang: str) -> str:
    """A pool of magic dice (``lang``: the language spoken, which the cache keeps apart)."""
    title = _("magic die")
    return "".join(d6_svg(None, size=20, fill="#efe8ff", pip="#5b3f99", stroke="#5b3f99", title=title)
                   for _die in range(dice)) or _none()


@lru_cache(maxsize=64)
def _tokens(veil: int, lang: str) -> str:
    title = _("veil token")
    return "".join(token_svg(15, title=title) for _token in range(veil)) or _none()


def _side_shell(pid: str, name: str, colour: str, look: Look, cards: list[str]) -> str:
    sid = f"side-{pid}"

    def region(part: str, cls: str = "rc-region", tag: str = "div", what: str = "html") -> str:
        value = look.get((f"{sid}-{part}", what), "")
        return f'<{tag} id="{_e(sid)}-{part}" class="{cls}">{value if what == "html" else _e(value)}</{tag}>'

    labels = [_e(_("Magic dice")), _e(_("Veil tokens")), _e(_("Wizards"))]
    return (
        f'<div id="{_e(sid)}" data-player="{_e(pid)}" style="--pc:{colour}"'
        f'{look_attrs(look, sid, "class", "data-dice", "data-veil")}>'
        f'<div><span class="rc-side-name">{_e(name)}</span>{region("role", "rc-side-role", "span", "text")}</div>'
        f'<div class="rc-row rc-pool"><span class="rc-label">{labels[0]}</span>{region("pool")}'
        f'{region("dice", "rc-count", "span", "text")}</div>'
        f'<div class="rc-row rc-veil"><span class="rc-label">{labels[1]}</span>{region("tokens")}'
        f'{region("veil", "rc-count", "span", "text")}</div>'
        f'{_flux_shell(pid, cards, look)}<div class="rc-row rc-wizards"><span class="rc-label">{labels[2]}</span>'
        f'</div>{region("wizards")}'
        "</div>"
    )


# --- the picture ----------------------------------------------------------------------------------

def _head_html(state: dict) -> str:
    magic = state.get("magic") or {}
    players = state.get("players") or {}
    active = magic.get("active")
    if not active:
        return ('<div class="rc-magic-head"><span class="rc-magic-title">' + _e(_("Magic")) + "</span>"
                + _none(N_("no magic phase yet")) + "</div>")
    name = (players.get(active) or {}).get("name") or active
    step = "casting" if magic.get("step") == "siphoned" and magic.get("cast") else magic.get("step")
    keys = [k for k, _label in PHASE_STEPS]
    at = keys.index(step) if step in keys else 0
    chips = "".join(
        f'<span class="rc-chip {"rc-now" if i == at else "rc-done" if i < at else ""}" data-phase-step="{k}">'
        f"{_e(_(label))}</span>" for i, (k, label) in enumerate(PHASE_STEPS))
    card = magic.get("flux_card")
    drawn = ""
    if card:
        data = flux_cards().get(str(card)) or {}
        facts = []
        if data:
            facts.append(_e(_("{dice} magic dice").format(dice=data.get("magic_dice"))))
            facts.append(_e(_("{tokens} veil tokens").format(tokens=data.get("veil_tokens"))))
        facts.append(_e(_("miscast {modifier}").format(modifier=_signed(magic.get("miscast_modifier", 0)))))
        flux = _e(_("Flux card"))
        drawn = (f'<span class="rc-drawn-card" data-card="{_e(card)}" '
                 f'data-miscast-modifier="{_e(magic.get("miscast_modifier", 0))}">{flux} <b>{_e(card)}</b>'
                 f'<span class="rc-muted">{" · ".join(facts)}</span></span>')
    title = _e(_("Magic phase of {player}").format(player=name))
    return (f'<div class="rc-magic-head"><span class="rc-magic-title">{title}</span>'
            f'<span class="rc-phase-steps">{chips}</span>{drawn}</div>')


def magic_look(state: dict, events: dict[int, dict], rolls: dict[int, dict], names: Names | None = None,
               cards: list[str] | None = None) -> Look:
    """The regions of the picture at ``state``: the head, each player's side, the current casting attempt."""
    names = names or Names()
    magic = state.get("magic") or {}
    players = state.get("players") or {}
    look: Look = {("rc-magic", "data-active"): magic.get("active") or "",
                  ("rc-magic", "data-step"): magic.get("step") or "",
                  ("rc-magic-head", "html"): _head_html(state),
                  ("rc-magic-cast", "html"): _cast_html(state, _cast_context(state, events, rolls), names)}
    for pid, p in players.items():
        look.update(_side_look(state, str(pid), p or {}, names, cards or deck(state)))
    return look


def magic_shell(game, seq, players: dict[str, str], look: Look, cards: list[str]) -> str:
    """The picture's HTML with each region as ``look`` says (``players``: id -> name)."""
    colours = Presentation().player_colours(players)
    sides = "".join(_side_shell(str(pid), name, colours.get(pid, "#8c8c8c"), look, cards)
                    for pid, name in players.items())
    return (f'<div class="rc-magic" id="rc-magic" data-game="{_e(game)}" data-seq="{_e(seq)}"'
            f'{look_attrs(look, "rc-magic", "data-active", "data-step")}>'
            f'<div id="rc-magic-head" class="rc-region">{look.get(("rc-magic-head", "html"), "")}</div>'
            f'<div class="rc-magic-sides">{sides}</div>'
            f'<div id="rc-magic-cast" class="rc-region">{look.get(("rc-magic-cast", "html"), "")}</div></div>')


def render_magic(state: dict, events: list[dict] | None = None, names: Names | None = None) -> str:
    """The magic phase at ``state``: both players' dice pools, veil tokens, Flux cards, wizards and spells,
    and the current casting attempt with its total against the value."""
    upto = int(state.get("seq") or 0)
    known = [ev for ev in events or [] if int(ev["seq"]) <= upto]
    cards = deck(state)
    look = magic_look(state, {int(ev["seq"]): ev for ev in known}, rolls_by_seq(known), names, cards)
    return f"<style>{CSS}</style>" + magic_shell(state.get("game"), state.get("seq"),
                                                   {pid: (p or {}).get("name") or pid
                                                    for pid, p in (state.get("players") or {}).items()}, look,
                                                   cards)



# --- the card of a table (a grid of many games) ---------------------------------------------------

CARD_ICONS = 8  # a card draws at most this many dice or tokens of a pool, then only the count
CARD_CSS = """
.rc-magic-card{font-family:sans-serif;color:#222;background:#f5f2ea;border:1px solid #d2ccbd;border-radius:8px;
padding:.4em .55em;line-height:1.3;font-size:.85rem}
.rc-magic-card .rc-card-head{display:flex;flex-wrap:wrap;align-items:center;gap:.2em .6em;margin-bottom:.3em}
.rc-magic-card .rc-card-side{display:flex;flex-wrap:wrap;align-items:center;gap:.15em .5em;background:#fff;
border:1px solid #d2ccbd;border-left:5px solid var(--pc);border-radius:5px;padding:.2em .45em;margin:.25em 0}
.rc-magic-card .rc-card-side.rc-active{box-shadow:0 0 0 2px #ffb000}
.rc-magic-card .rc-card-count{display:inline-flex;align-items:center;gap:.2em;white-space:nowrap}
.rc-magic-card .rc-card-count svg{flex:none}
.rc-magic-card .rc-card-cast{margin-top:.3em;font-size:.95em}
.rc-magic-card .rc-verdict{display:inline-block;border-radius:4px;padding:0 .4em;color:#fff;font-weight:bold;
text-transform:uppercase;font-size:.8em}
.rc-magic-card .rc-muted{opacity:.7;font-size:.9em}
.rc-magic-card .rc-chip{display:inline-block;border-radius:10px;padding:0 .5em;font-size:.85em;background:#ffb000;
white-space:nowrap}
"""


def _card_side(pid: str, player: dict, name: str, colour: str, active: bool) -> str:
    dice, veil = int(player.get("magic_dice") or 0), int(player.get("veil") or 0)
    flux = len(player.get("flux_left") or [])
    die = d6_svg(None, size=14, fill="#efe8ff", pip="#5b3f99", stroke="#5b3f99")
    token = token_svg(12)
    titles = [_e(ngettext("{n} magic die", "{n} magic dice", dice).format(n=dice)),
              _e(ngettext("{n} veil token", "{n} veil tokens", veil).format(n=veil)),
              _e(_("{n} Flux left").format(n=flux))]
    return (f'<div class="rc-card-side{" rc-active" if active else ""}" data-player="{_e(pid)}" '
            f'data-dice="{dice}" data-veil="{veil}" style="--pc:{colour}"><b>{_e(name)}</b>'
            f'<span class="rc-card-count" title="{titles[0]}">'
            f'{die * min(dice, CARD_ICONS)}{dice}</span>'
            f'<span class="rc-card-count" title="{titles[1]}">'
            f'{token * min(veil, CARD_ICONS)}{veil}</span>'
            f'<span class="rc-muted">{titles[2]}</span></div>')


def render_magic_card(state: dict, names: Names | None = None) -> str:
    """The magic phase at ``state`` in a few lines, for a grid of tables: whose phase and its step, each
    player's magic dice, veil tokens and Flux cards left, the last casting attempt and its outcome."""
    names = names or Names()
    magic = state.get("magic") or {}
    players = state.get("players") or {}
    colours = Presentation().player_colours(players)
    active = magic.get("active")
    if active:
        steps = dict(PHASE_STEPS)
        step = "casting" if magic.get("step") == "siphoned" and magic.get("cast") else magic.get("step")
        title = _e(_("Magic phase of {player}").format(player=names.player(active)))
        head = (f'<b>{title}</b>'
                f'<span class="rc-chip rc-now">{_e(_(steps[step]) if step in steps else step or "")}</span>')
    else:
        head = "<b>" + _e(_("Magic")) + '</b><span class="rc-muted">' + _e(_("no magic phase yet")) + "</span>"
    sides = "".join(_card_side(str(pid), p or {}, names.player(pid), colours.get(str(pid), "#8c8c8c"), pid == active)
                    for pid, p in players.items())
    cast = magic.get("cast")
    line = ""
    if cast:
        outcome = cast_outcome(cast)
        spell = ((state.get("spells") or {}).get(str(cast.get("spell"))) or {}).get("name") or names.of(
            "spells", cast.get("spell"))
        casts = _("{wizard} casts {spell}").format(wizard=names.of("wizards", cast.get("wizard")), spell=spell)
        miscast = f' <b>{_e(_("miscast"))}</b>' if cast.get("miscast") else ""
        line = (f'<div class="rc-card-cast">{_e(casts)}: '
                f'{_e(cast.get("total"))} <span class="rc-verdict" style="background:{OUTCOME_COLOURS[outcome]}">'
                f'{_e(outcome_name(outcome))}</span>{miscast}</div>')
    return (f'<style>{CARD_CSS}</style><div class="rc-magic-card" data-game="{_e(state.get("game"))}" '
            f'data-seq="{_e(state.get("seq"))}"><div class="rc-card-head">{head}</div>{sides}{line}</div>')
