"""HTML/SVG picture of a Claustrophobia initiative: the warrior cards and the action dice.

Pure string building over the replay state of a ``claustrophobia`` game (``human``, ``warriors.<id>``
{kind, line, die, exhausted, mvt, cbt, def, sceptre, in_play, lines, gifts}, ``initiative`` {roll, faces,
taken, set_aside}; see projections/queries.py ``state_at``).
Every text is escaped.

Public API:
    render_initiative(state, event=None, names=None) -> str
        ``event`` (optional, the current event) rings the warrior it concerns and the line it names.
    initiative_look(state, event, names, dice=6) / initiative_shell(...)
        The picture's elements at a moment (domain.systems.scene), for drawing it once and stepping.
"""

from __future__ import annotations


from domain.systems.dice_svg import d6_svg
from domain.systems.presentation import Names, e, payload
from domain.systems.scene import Look, look_attrs
from i18n import N_, _

__all__ = ["render_initiative", "render_initiative_card", "dice_owners", "initiative_look", "initiative_shell"]

LINES = tuple(str(n) for n in range(1, 7))
STATS = (("mvt", N_("MVT")), ("cbt", N_("CBT")), ("def", N_("DEF")))  # labels translated where shown
# the phase a person reads (the record's phase name stays as it is)
PHASES = {"initiative": N_("initiative phase"), "action": N_("action phase")}
COLS = ('<colgroup><col class="rc-c-line"/><col class="rc-c-die"/><col class="rc-c-stat"/><col class="rc-c-stat"/>'
        '<col class="rc-c-stat"/><col class="rc-c-gift"/></colgroup>')
WARRIOR_EVENTS = ("ActionDieAssigned", "LineLost", "LineRestored", "GiftUsed", "WarriorRemoved")

CSS = """
.rc-init{font-family:sans-serif;color:#222;background:#f5f2ea;border:1px solid #d2ccbd;border-radius:8px;
padding:.6em .8em;line-height:1.3}
.rc-init-head{display:flex;flex-wrap:wrap;align-items:center;gap:.4em 1em;margin-bottom:.5em}
.rc-init-title{font-weight:bold;font-size:1.05em}
.rc-muted{opacity:.7;font-size:.85em}
.rc-none{font-size:.85em;opacity:.6;font-style:italic}
.rc-action-dice{display:flex;flex-wrap:wrap;align-items:center;gap:.6em;margin-bottom:.6em}
.rc-action-die{display:inline-flex;flex-direction:column;align-items:center;font-size:.75em;gap:.1em;
padding:.15em .25em;border-radius:5px}
.rc-action-die.rc-aside{opacity:.55;outline:1px dashed #8c8c8c}
.rc-action-die.rc-aside .rc-die-note{font-weight:bold;color:#8a5a00}
.rc-action-die.rc-focus{outline:2px solid #ffb000;opacity:1}
.rc-warriors{display:grid;grid-template-columns:repeat(auto-fill,minmax(235px,1fr));gap:.6em}
.rc-warrior{background:#fffdf6;border:1px solid #857d6c;border-radius:8px;padding:.4em .55em}
.rc-warrior.rc-focus{box-shadow:0 0 0 3px #ffb000}
.rc-warrior.rc-out{opacity:.38;filter:grayscale(1)}
.rc-warrior.rc-exhausted{border-color:#c62828;background:#fff3f1}
.rc-warrior-head{display:flex;flex-wrap:wrap;align-items:center;gap:.35em;margin-bottom:.3em}
.rc-warrior-name{font-weight:bold}
.rc-badge{display:inline-block;border-radius:4px;padding:0 .4em;font-size:.72em;font-weight:bold;color:#fff;
text-transform:uppercase;letter-spacing:.03em}
table.rc-lines{border-collapse:collapse;width:100%;font-size:.82em;margin:0;table-layout:fixed}
table.rc-lines col.rc-c-line{width:2.3em}
table.rc-lines col.rc-c-die{width:32px}
table.rc-lines col.rc-c-stat{width:2.7em}
table.rc-lines th,table.rc-lines td{border:none;border-bottom:1px solid #e4dfd2;padding:.05em .3em;text-align:center;
vertical-align:middle;color:#222;background:transparent}
table.rc-lines th{font-weight:normal;opacity:.65;font-size:.9em}
table.rc-lines td.rc-gift{text-align:left;font-style:italic;font-size:.92em}
table.rc-lines tr.rc-lost td:not(.rc-slot){text-decoration:line-through;color:#c62828}
table.rc-lines tr.rc-blank td:not(.rc-slot):not(.rc-line-no){color:#b9b2a3}
table.rc-lines tr.rc-current td{background:#ffe8a3}
table.rc-lines tr.rc-focus-line td{box-shadow:inset 0 2px 0 #ffb000,inset 0 -2px 0 #ffb000}
.rc-warrior.rc-exhausted table.rc-lines tr.rc-current td{background:#ffd6d0}
td.rc-slot{width:28px;height:28px}
.rc-slot-empty{display:inline-block;width:20px;height:20px;border:1px dashed #b9b2a3;border-radius:4px;
vertical-align:middle}
.rc-warrior-stats{margin-top:.3em;font-size:.85em}
.rc-warrior-stats b{font-size:1.05em}
.rc-action-die.rc-unused{display:none}
"""


def _e(value) -> str:
    return e(value)


def _words(value) -> str:
    return str(value).replace("_", " ")


def phase_name(phase) -> str:
    """The phase in the language spoken (``setup`` before any)."""
    if not phase:
        return _("setup")
    return _(PHASES[phase]) if phase in PHASES else _("{phase} phase").format(phase=_words(phase))


def _badge(text: str, colour: str, cls: str) -> str:
    return f'<span class="rc-badge {cls}" style="background:{colour}">{_e(text)}</span>'


def dice_owners(state: dict) -> dict[int, str]:
    """Index of each taken action die -> the warrior holding a die of that face (in warrior order)."""
    init = state.get("initiative") or {}
    faces = list(init.get("faces") or [])
    free = [(wid, w.get("die")) for wid, w in (state.get("warriors") or {}).items() if w.get("die") is not None]
    owners: dict[int, str] = {}
    for index in init.get("taken") or []:
        if not 0 <= index < len(faces):
            continue
        match = next((pair for pair in free if str(pair[1]) == str(faces[index])), None)
        if match is not None:
            owners[index] = match[0]
            free.remove(match)
    return owners


def _focus(event: dict | None, state: dict) -> tuple[str | None, str | None, int | None]:
    """(warrior, line, action die index) the current event is about."""
    if not event or event.get("type") not in WARRIOR_EVENTS:
        return None, None, None
    p = payload(event)
    wid = p.get("warrior")
    line = p.get("line")
    if event.get("type") == "GiftUsed":
        gifts = ((state.get("warriors") or {}).get(str(wid)) or {}).get("gifts") or {}
        line = next((n for n, g in gifts.items() if g == p.get("gift")), None)
    index = p.get("index") if event.get("type") == "ActionDieAssigned" else None
    return (str(wid) if wid is not None else None, str(line) if line is not None else None,
            index if isinstance(index, int) else None)


def _die_look(state: dict, i: int, focus_index: int | None, owners: dict[int, str], names: Names) -> Look:
    init = state.get("initiative") or {}
    faces = list(init.get("faces") or [])
    did = f"die-{i}"
    if i >= len(faces):
        return {(did, "class"): "rc-action-die rc-unused", (did, "data-status"): "", (did, "data-face"): "",
                (did, "html"): ""}
    face = faces[i]
    during = state.get("phase") == "initiative"
    if i in set(init.get("taken") or []):
        status, note, cls = "taken", f"→ {names.of('warriors', owners.get(i, '?'))}", ""
    elif i in set(init.get("set_aside") or []) and not during:
        status, note, cls = "set-aside", _("set aside"), " rc-aside"
    else:
        status, note, cls = "free", _("to give"), ""
    if focus_index == i:
        cls += " rc-focus"
    title = _("die {n}: {face}").format(n=i + 1, face=face)
    return {(did, "class"): f"rc-action-die{cls}", (did, "data-status"): status, (did, "data-face"): str(face),
            (did, "html"): f'{d6_svg(face, size=26, title=title)}<span class="rc-die-note">'
                           f"{_e(note)}</span>"}


def _dice_look(state: dict, focus_index: int | None, names: Names, slots: int) -> Look:
    init = state.get("initiative")
    title = ('<span class="rc-muted">' + _e(_("Action dice (roll {roll})").format(roll=init.get("roll"))) + "</span>"
             if init else '<span class="rc-none">' + _e(_("Action dice not rolled yet")) + "</span>")
    look: Look = {("rc-action-dice", "data-roll"): str(init.get("roll")) if init else "",
                  ("rc-dice-title", "html"): title}
    owners = dice_owners(state)
    for i in range(slots):
        look.update(_die_look(state, i, focus_index, owners, names))
    return look


def _line_look(wid: str, w: dict, n: str, focus_line: str | None) -> Look:
    line = (w.get("lines") or {}).get(n) or {}
    has_stats = any(line.get(k) is not None for k, _label in STATS)
    status = "available" if line.get("available") else "lost" if has_stats else "none"
    cls = {"available": "rc-available", "lost": "rc-lost", "none": "rc-blank"}[status]
    die = w.get("die")
    holds = die is not None and str(die) == n
    if holds:
        cls += " rc-current"
    if focus_line == n:
        cls += " rc-focus-line"
    slot = (d6_svg(die, size=22, fill="#fff" if not w.get("exhausted") else "#ffd6d0",
                   title=_("action die: {die}").format(die=die)) if holds else '<span class="rc-slot-empty"></span>')
    stats = "".join(f"<td>{_e(line[k]) if line.get(k) is not None else '–'}</td>" for k, _label in STATS)
    gift = (w.get("gifts") or {}).get(n)
    gift_cell = f'<td class="rc-gift" data-gift="{_e(gift)}">{_e(_words(gift))}</td>' if gift else "<td></td>"
    title = {"available": _("line {n}"), "lost": _("line {n} lost"), "none": _("line {n}: none on the card")}[status]
    title = title.format(n=n)
    rid = f"line-{wid}-{n}"
    return {(rid, "class"): f"rc-line {cls}", (rid, "data-status"): status, (rid, "title"): title,
            (rid, "html"): (f'<td class="rc-line-no"><b>{n}</b></td><td class="rc-slot" '
                            f'data-die="{_e(die) if holds else ""}">{slot}</td>{stats}{gift_cell}')}


def _warrior_look(wid: str, w: dict, focus: tuple[str | None, str | None, int | None], names: Names) -> Look:
    cid = f"card-{wid}"
    if not w:
        return {(cid, "class"): "rc-warrior rc-out"}
    exhausted = bool(w.get("exhausted")) and w.get("die") is not None
    out = not w.get("in_play", True)
    cls = "rc-warrior" + (" rc-exhausted" if exhausted else "") + (" rc-out" if out else "")
    if focus[0] == wid:
        cls += " rc-focus"
    badges = []
    if w.get("sceptre"):
        badges.append(_badge(_("Sceptre"), "#d4a017", "rc-sceptre"))
    if exhausted:
        badges.append(_badge(_("Exhausted"), "#c62828", "rc-exhausted-badge"))
    if out:
        badges.append(_badge(_("out of play"), "#555", "rc-out-badge"))
    if w.get("die") is None:
        now = '<span class="rc-none">' + _e(_("no action die yet")) + "</span>" if not out else ""
    else:
        order = (STATS[2], STATS[0], STATS[1]) if exhausted else STATS  # the rule's own order: DEF, MVT, CBT
        values = " · ".join(f"{_e(_(label))} <b>{_e(w.get(k))}</b>" for k, label in order)
        lead = _e(_("Exhausted (line {line} unavailable): ").format(line=w.get("die")) if exhausted
                  else _("Line {line}: ").format(line=w.get("line")))
        now = f"{lead}{values}"
    die = w.get("die")
    look: Look = {(cid, "class"): cls, (cid, "data-die"): str(die) if die is not None else "",
                  (cid, "data-exhausted"): "true" if exhausted else "false",
                  (cid, "data-in-play"): "false" if out else "true",
                  (f"{cid}-head", "html"): (f'<span class="rc-warrior-name">{_e(names.of("warriors", wid))}</span>'
                                            f'<span class="rc-muted">{_e(_words(w.get("kind") or ""))}</span>'
                                            f'{"".join(badges)}'),
                  (f"{cid}-stats", "html"): now}
    for n in LINES:
        look.update(_line_look(wid, w, n, focus[1] if focus[0] == wid else None))
    return look


def initiative_look(state: dict, event: dict | None, names: Names | None = None, slots: int = 6,
                    warriors: dict | None = None) -> Look:
    """Every element of the picture at ``state`` (``warriors``: every warrior of the game, with a value
    each had; ``slots``: the most action dice any roll of the game has)."""
    names = names or Names()
    focus = _focus(event, state)
    players = state.get("players") or {}
    human = state.get("human")
    phase = state.get("phase")
    name = (players.get(human) or {}).get("name") or (names.player(human) if human else "?")
    look: Look = {("rc-init-title", "text"): _("Warriors of {player}").format(player=name),
                  ("rc-init-phase", "text"): phase_name(phase)}
    look.update(_dice_look(state, focus[2], names, slots))
    present = state.get("warriors") or {}
    for wid in warriors or present:
        look.update(_warrior_look(str(wid), present.get(wid) or {}, focus, names))
    return look


def initiative_shell(game, seq, warriors, look: Look, slots: int = 6) -> str:
    """The picture's HTML (every warrior's card, ``slots`` action dice) with each element as ``look`` says."""
    words = [_e(_("line")), _e(_("die")), *(_e(_(label)) for _key, label in STATS), _e(_("gift"))]
    head = "<tr>" + "".join(f"<th>{word}</th>" for word in words) + "</tr>"
    cards = []
    for wid in warriors:
        cid = f"card-{wid}"
        rows = "".join(f'<tr id="{_e(f"line-{wid}-{n}")}" data-line="{n}"'
                       f'{look_attrs(look, f"line-{wid}-{n}", "class", "data-status", "title")}>'
                       f'{look.get((f"line-{wid}-{n}", "html"), "")}</tr>' for n in LINES)
        cards.append(f'<div id="{_e(cid)}" data-warrior="{_e(wid)}"'
                     f'{look_attrs(look, cid, "class", "data-die", "data-exhausted", "data-in-play")}>'
                     f'<div id="{_e(cid)}-head" class="rc-warrior-head">{look.get((f"{cid}-head", "html"), "")}</div>'
                     f'<table class="rc-lines">{COLS}<thead>{head}</thead><tbody>{rows}</tbody></table>'
                     f'<div id="{_e(cid)}-stats" class="rc-warrior-stats">{look.get((f"{cid}-stats", "html"), "")}</div>'
                     "</div>")
    dice = "".join(f'<span id="die-{i}" data-index="{i}"{look_attrs(look, f"die-{i}", "class", "data-status", "data-face")}>'
                   f'{look.get((f"die-{i}", "html"), "")}</span>' for i in range(slots))
    return (f'<div class="rc-init" data-game="{_e(game)}" data-seq="{_e(seq)}">'
            f'<div class="rc-init-head"><span class="rc-init-title" id="rc-init-title">'
            f'{_e(look.get(("rc-init-title", "text"), ""))}</span><span class="rc-muted" id="rc-init-phase">'
            f'{_e(look.get(("rc-init-phase", "text"), ""))}</span></div>'
            f'<div class="rc-action-dice" id="rc-action-dice"{look_attrs(look, "rc-action-dice", "data-roll")}>'
            f'<span id="rc-dice-title">{look.get(("rc-dice-title", "html"), "")}</span>{dice}</div>'
            f'<div class="rc-warriors">{"".join(cards) or _no_warriors()}</div></div>')


def _no_warriors() -> str:
    return '<span class="rc-none">' + _e(_("no warriors")) + "</span>"


def render_initiative(state: dict, event: dict | None = None, names: Names | None = None) -> str:
    """The human player's warrior cards (lines 1–6, the die in its slot, exhaustion, gifts, who is out of
    play) and the action dice of the initiative, with the ones set aside."""
    slots = len((state.get("initiative") or {}).get("faces") or [])
    look = initiative_look(state, event, names, slots)
    return f"<style>{CSS}</style>" + initiative_shell(state.get("game"), state.get("seq"),
                                                      list(state.get("warriors") or {}), look, slots)


# --- the card of a table (a grid of many games) ---------------------------------------------------

CARD_CSS = """
.rc-init-card{font-family:sans-serif;color:#222;background:#f5f2ea;border:1px solid #d2ccbd;border-radius:8px;
padding:.3em .5em;line-height:1.2;font-size:.8rem}
.rc-init-card .rc-card-head{display:flex;flex-wrap:wrap;align-items:center;gap:.2em .5em;margin-bottom:.25em}
.rc-init-card .rc-card-dice{display:inline-flex;flex-wrap:wrap;align-items:center;gap:.25em}
.rc-init-card .rc-card-dice svg{flex:none;display:block}
.rc-init-card .rc-card-dice .rc-aside{opacity:.45}
.rc-init-card table{border-collapse:collapse;width:100%;font-size:1em;table-layout:auto;margin:0}
.rc-init-card td{border:none;border-bottom:1px solid #e4dfd2;padding:.05em .3em;background:transparent;color:#222;
vertical-align:middle;line-height:1.2}
.rc-init-card td svg{display:block}
.rc-init-card tr.rc-exhausted td{color:#c62828}
.rc-init-card tr.rc-out td{opacity:.4;text-decoration:line-through}
.rc-init-card .rc-muted{opacity:.7;font-size:.9em}
"""


def _card_warrior(wid: str, w: dict, names: Names) -> str:
    die = w.get("die")
    out = not w.get("in_play", True)
    exhausted = bool(w.get("exhausted")) and die is not None
    mvt, cbt, dfn = (_e(_(label)) for _key, label in STATS)
    if out:
        now = _e(_("out of play"))
    elif die is None:
        now = _e(_("no action die"))
    elif exhausted:
        now = _e(_("exhausted")) + f" · {dfn} {_e(w.get('def'))}"
    else:
        now = (_e(_("line {line}").format(line=w.get("line")))
               + f" · {mvt} {_e(w.get('mvt'))} {cbt} {_e(w.get('cbt'))} "
               f"{dfn} {_e(w.get('def'))}")
    cls = "rc-out" if out else "rc-exhausted" if exhausted else ""
    face = d6_svg(die, size=15, title=_("action die: {die}").format(die=die)) if die is not None and not out else ""
    return (f'<tr class="{cls}" data-warrior="{_e(wid)}"><td>{_e(names.of("warriors", wid))}'
            f'{" ♛" if w.get("sceptre") else ""}</td><td>{face}</td><td class="rc-muted">{now}</td></tr>')


def render_initiative_card(state: dict, names: Names | None = None) -> str:
    """The initiative at ``state`` in a few lines, for a grid of tables: the action dice (those set aside
    faded) and one line per warrior with its die and what it gives (line, MVT, CBT, DEF), exhausted or out."""
    names = names or Names()
    players = state.get("players") or {}
    human = state.get("human")
    name = (players.get(human) or {}).get("name") or (names.player(human) if human else "?")
    phase = state.get("phase")
    init = state.get("initiative") or {}
    aside = set(init.get("set_aside") or [])
    dice = "".join(f'<span class="{"rc-aside" if i in aside else ""}">'
                   + d6_svg(f, size=16, title=_("action die: {die}").format(die=f)) + "</span>"
                   for i, f in enumerate(init.get("faces") or []))
    rows = "".join(_card_warrior(str(wid), w or {}, names) for wid, w in (state.get("warriors") or {}).items())
    no_dice = '<span class="rc-muted">' + _e(_("action dice not rolled yet")) + "</span>"
    no_rows = "<tr><td>" + _e(_("no warriors")) + "</td></tr>"
    return (f'<style>{CARD_CSS}</style><div class="rc-init-card" data-game="{_e(state.get("game"))}" '
            f'data-seq="{_e(state.get("seq"))}"><div class="rc-card-head">'
            f'<b>{_e(_("Warriors of {player}").format(player=name))}</b>'
            f'<span class="rc-muted">{_e(phase_name(phase))}</span>'
            f'<span class="rc-card-dice">{dice or no_dice}</span></div><table>{rows or no_rows}</table></div>')
