"""What the Replay page sends to the browser once per game, so that stepping happens there.

Pure functions (no Streamlit): from a game's header, event rows, state changes (domain.timeline), the
seqs a ruling voided, its big luck swings and its luck line, build the JSON the replay component reads
(dashboard/replay_component.py):

- ``scene``: the picture drawn once and its frames (the pack's ``presentation.scene``);
- ``rows``: the event list, one row of HTML per event (voided rows struck through), and ``row_seqs``;
- ``captions``: per seq, the line saying what the event was, who made it and what it broke;
- ``jumps``: the seqs of violations, rulings and disputes, big swings and turn starts;
- ``luck``: the luck graph (SVG) and how its x axis maps to seqs.

Everything that reaches HTML is escaped here; the browser only applies it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from dashboard import events as ev
from domain import clock as game_clock
from domain.systems.presentation import Names, e
from i18n import _

LUCK_W, LUCK_H, LUCK_PAD = 640.0, 150.0, 34.0


def row_html(row: dict) -> str:
    cls = "rc-ev" + (" rc-struck" if row["struck"] else "") + (" rc-broke" if row["rules"] else "")
    note = f' title="{e(row["note"])}"' if row["note"] else ""
    return (f'<div class="{cls}" data-seq="{row["seq"]}"{note}><span class="rc-ev-seq">{row["seq"]}</span>'
            f'<span class="rc-ev-turn">{e(row["turn"] if row["turn"] is not None else "")}</span>'
            f'<span class="rc-ev-type">{e(row["type"])}</span><span class="rc-ev-player">{e(row["player"])}</span>'
            f'<span class="rc-ev-summary">{e(row["summary"])}</span>'
            f'<span class="rc-ev-rules">{e(row["rules"])}</span></div>')


def caption(row: dict | None, event: dict | None, marks: list[str], game: str) -> str:
    if row is None:
        # (a call inside an f-string is not found by the catalogs' extraction: the words are made first)
        setup, start = _("Setup"), _("(seq 0): the starting position of {game}").format(game=game)
        return f'<b>{e(setup)}</b> <span class="rc-muted">{e(start)}</span>'
    where = e(_("turn {turn}").format(turn=row["turn"] or 0)) + (
        f" · {e(event.get('phase'))}" if event and event.get("phase") else "")
    by = " " + e(_("by {player}")).replace("{player}", f"<b>{e(row['player'])}</b>") if row["player"] else ""
    parts = [f'<b>{e(row["type"])}</b>{by} <span class="rc-muted">· {e(_("seq {seq}").format(seq=row["seq"]))} · {where}</span>',
             f'<div class="rc-cap-summary">{e(row["summary"])}</div>']
    if row["struck"]:
        note = row["note"] or _("struck out")
        parts.append(f'<div class="rc-cap-void">{e(note)}</div>')
    for v in ev.violations(event or {}):
        parts.append(f'<div class="rc-cap-rule">⚠ <b>{e(v["rule"])}</b> {e(v["message"])}</div>')
    parts.extend(f'<div class="rc-cap-mark">{e(m)}</div>' for m in marks)
    return "".join(parts)


def clock_line(clock: dict | None, names) -> str:
    """Both players' clock at a step of the replay (``domain.clock.at_each_event``), the running one marked."""
    if not clock or not clock.get("started"):
        return ""
    faces = []
    for pid, ms in clock["remaining"].items():
        flagged = pid in clock.get("flagged", ())
        shown = game_clock.shown(ms if flagged else max(ms, 0))
        mark = "▶ " if clock.get("running") == pid else ""
        faces.append(f'<span class="rc-cap-clock-face" data-player="{e(pid)}">{e(mark)}{e(names.player(pid))} '
                     f'<b>{e(shown)}</b>{" ⚑" if flagged else ""}</span>')
    word = _("clock")  # (made first: a call inside an f-string is not found by the catalogs' extraction)
    return f'<div class="rc-cap-clock">{e(word)}: ' + " · ".join(faces) + "</div>"


def jumps(events: list[dict], swings: list[dict], struck: Iterable[int]) -> dict[str, list[int]]:
    kinds = {"DisputeOpened", "RulingMade", "TakenBack", "GameRewound"}
    return {
        "violation": [int(x["seq"]) for x in events if ev.violations(x)],
        "ruling": sorted({int(x["seq"]) for x in events if x.get("type") in kinds} | set(struck)),
        "swing": sorted({int(s["seq"]) for s in swings}),
        "turn": [int(x["seq"]) for x in events if x.get("type") == "TurnStarted"],
    }


def swing_marks(swings: list[dict], names: Names) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    for s in swings:
        unit = s.get("unit") or ""
        out.setdefault(int(s["seq"]), []).append(
            _("Big luck swing for {player}: z = {z} ({observed} {unit} against {expected} expected)").format(
                player=names.player(s.get("player")), z=f"{float(s['z_score']):+.2f}",
                observed=f"{float(s['observed']):g}", unit=unit, expected=f"{float(s['expected']):.2f}"))
    return out


def luck_graph(points: list[dict], last: int, names: Names, colours: dict[str, str]) -> dict:
    """Each player's cumulative luck over the game's seqs (one line per player and unit), as SVG; the
    browser moves the current-seq marker along x = x0 + seq × (x1 − x0) / last and jumps on clicks."""
    x0, x1, y0, y1 = LUCK_PAD, LUCK_W - 8, 10.0, LUCK_H - 24
    if not points or last <= 0:
        return {"svg": "", "x0": x0, "x1": x1, "last": last}
    values = [float(p["cumulative"]) for p in points] + [0.0]
    lo, hi = min(values), max(values)
    if hi - lo < 1e-9:
        lo, hi = lo - 1, hi + 1
    sx = (x1 - x0) / last

    def y(v: float) -> float:
        return y1 - (v - lo) / (hi - lo) * (y1 - y0)

    lines: dict[tuple[str, str], list[dict]] = {}
    for p in points:
        lines.setdefault((str(p["player"]), str(p.get("unit") or "")), []).append(p)
    units = sorted({u for _pid, u in lines})
    out = [f'<svg class="rc-luck" viewBox="0 0 {LUCK_W:.0f} {LUCK_H:.0f}" '
           f'data-x0="{x0:.1f}" data-x1="{x1:.1f}" data-last="{last}">',
           f'<line x1="{x0}" x2="{x1}" y1="{y(0):.1f}" y2="{y(0):.1f}" stroke="#bbb" stroke-dasharray="3 3"/>',
           f'<text x="2" y="{y(hi) + 4:.1f}" class="rc-luck-axis">{hi:+.1f}</text>',
           f'<text x="2" y="{y(lo):.1f}" class="rc-luck-axis">{lo:+.1f}</text>',
           f'<text x="2" y="{y(0) + 4:.1f}" class="rc-luck-axis">0</text>',
           f'<text x="{x0}" y="{LUCK_H - 6:.0f}" class="rc-luck-axis">{e(_("seq {seq}").format(seq=0))}</text>',
           f'<text x="{x1}" y="{LUCK_H - 6:.0f}" text-anchor="end" class="rc-luck-axis">'
           f'{e(_("seq {seq}").format(seq=last))}</text>',
           f'<text x="{(x0 + x1) / 2:.0f}" y="{LUCK_H - 6:.0f}" text-anchor="middle" class="rc-luck-axis">'
           + e(_("cumulative luck ({units} above expectation) — click a point to go there").format(
               units=", ".join(units))) + '</text>']
    legend = []
    for (pid, unit), pts in lines.items():
        colour = colours.get(pid, "#8c8c8c")
        coords = [(x0, y(0))] + [(x0 + int(p["seq"]) * sx, y(float(p["cumulative"]))) for p in pts]
        out.append(f'<polyline fill="none" stroke="{colour}" stroke-width="1.6" points="'
                   + " ".join(f"{a:.1f},{b:.1f}" for a, b in coords) + '"/>')
        for p in pts:
            big = abs(float(p.get("z_score") or 0)) >= 2
            out.append(f'<circle class="rc-luck-pt{" rc-luck-big" if big else ""}" data-seq="{int(p["seq"])}" '
                       f'cx="{x0 + int(p["seq"]) * sx:.1f}" cy="{y(float(p["cumulative"])):.1f}" '
                       f'r="{3.2 if big else 2.2}" fill="{colour}"><title>{e(_("seq {seq}").format(seq=int(p["seq"])))}: '
                       f'{e(names.player(pid))} {float(p["cumulative"]):+.2f} {e(unit)}{z_text(p)}</title></circle>')
        legend.append(f'<span class="rc-luck-key"><span class="rc-swatch" style="background:{colour}"></span>'
                      f'{e(names.player(pid))}{f" ({e(unit)})" if len(units) > 1 else ""}</span>')
    out.append("</svg>")
    return {"svg": "".join(out), "legend": "".join(legend), "x0": x0, "x1": x1, "last": last, "width": LUCK_W}


def z_text(point: dict) -> str:
    return f" (z = {float(point['z_score']):+.2f})" if point.get("z_score") is not None else ""


def payload(header: dict, events: list[dict], changes: list, struck: dict[int, str], swings: list[dict],
            luck: list[dict], ruled: bool) -> dict[str, Any]:
    """The replay component's data for one game (as played, or as ruled when ``ruled``)."""
    from domain.systems import system_for

    presentation = system_for(header["system"]).presentation
    names = presentation.names(header)
    system = header["system"]
    rolls = ev.rolls_by_seq([x["payload"] if "payload" in x else x for x in events])
    rows = ev.strike(ev.event_rows(events, rolls, system, names), struck, struck)
    lines = [ev.payload(x) for x in events]
    last = max([int(x["seq"]) for x in events] + [0])
    scene = presentation.scene(header, changes, lines, names, skip=set(struck) if ruled else None)
    marks = swing_marks(swings, names)
    by_seq = {r["seq"]: r for r in rows}
    events_by_seq = {int(x["seq"]): x for x in events}
    captions = [caption(by_seq.get(s), events_by_seq.get(s), marks.get(s, []), header.get("game", ""))
                for s in range(last + 1)]
    clocks = game_clock.at_each_event(header, lines) if header.get("clock") else {}
    if clocks:
        captions = [text + clock_line(clocks.get(s), names) for s, text in enumerate(captions)]
    colours = presentation.player_colours([p.get("id") for p in header.get("players") or []])
    return {"game": header.get("game"), "last": last, "scene": scene.to_json(),
            "rows": [row_html(r) for r in rows], "row_seqs": [r["seq"] for r in rows], "captions": captions,
            "jumps": jumps(events, swings, struck), "luck": luck_graph(luck, last, names, colours),
            "sides": presentation.sides(header, names)}
