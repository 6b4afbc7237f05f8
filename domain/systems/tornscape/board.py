"""The Tornscape board as SVG, built in layers: board, terrain, highlights, vortices, markers, models,
coordinates (and a legend below). Each layer is a small function; the geometry is hexes.py's.

The board is drawn once for a whole game: every model, vortex, marker and terrain piece that exists at
any seq, with a stable id (``model-<id>``, ``vortex-<id>``, ``marker-<id>``, ``terrain-<id>``), hidden
where absent. What each looks like at a moment is a *look* (domain.systems.scene): its transform, its
colour, its text. ``board_scene`` gives the drawing and, per seq, the changed looks; ``render_board`` the
drawing of one state (the same code, one moment).

Element hooks: hex polygons ``class="rc-hex" data-hex="q,r"``; terrain ``g.rc-terrain`` of polygons
``class="rc-terrain-hex" data-hex data-terrain``; models ``<g id="model-<id>" class="rc-model"
data-at="q,r;..." data-player data-size>``; markers ``id="marker-<id>"`` (``data-kind``, ``data-at``);
vortices ``id="vortex-<id>"`` (``opacity=".35"`` when removed); highlights ``rc-hl-hex``, ``rc-hl-ring``
(``data-model``), ``rc-hl-path`` (``data-path``); coordinates ``rc-coord``. Text that must stay upright when
the board is turned round carries ``rc-upright``.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from domain.systems.presentation import Names, e, status_html
from domain.systems.scene import FrameLog, Look, Scene, look_attrs, moments
from domain.systems.tornscape import hexes as hx
from domain.systems.tornscape.state import size_name
from domain.systems.tornscape.vortices import in_words
from i18n import N_, _, current

HEX_SIZE = 16.0
TERRAIN_FILLS: dict[str, str] = {"solid": "#4d4d4d", "burning_ground": "#e8562a", "deadly_bog": "#7a7436",
                                 "cover": "#a9d8a0"}
# the legend's words (translated where shown)
TERRAIN_LABELS: dict[str, str] = {"solid": N_("Solid"), "burning_ground": N_("Burning ground"),
                                  "deadly_bog": N_("Deadly bog"), "cover": N_("Cover")}
UNKNOWN_TERRAIN_FILL = "#c9b8e3"
UNKNOWN_PLAYER = "#8c8c8c"
ALLEGIANCE_COLOURS: dict[str | None, str] = {"creation": "#d4a017", "destruction": "#b0182a", "life": "#2e9e44",
                                             "death": "#6b2e8f", None: "#8c8c8c"}
ALLEGIANCE_SYMBOLS = {"creation": "CR", "destruction": "DE", "life": "LI", "death": "DT"}
HEX_FILL, HEX_STROKE, HEXON_STROKE, HL = "#f5f2ea", "#d2ccbd", "#857d6c", "#ffb000"
MODEL_RADIUS = {"infantry": 0.62, "large": 1.5, "huge": 1.7}  # times the hex size
OBJECTS = ("models", "vortices", "markers", "terrain")

CSS = """
svg .rc-upright{transform-box:fill-box;transform-origin:center}
svg.rc-flipped .rc-upright{transform:rotate(180deg)}
.rc-board-stack{position:relative}
.rc-board-stack svg{width:100%;height:auto;display:block}
.rc-board-stack svg.rc-board{position:absolute;left:0;top:0;will-change:transform}
"""


# --- positions ------------------------------------------------------------------------------------

def positions(at: Any) -> list[tuple[int, int]]:
    """``[[q,r],...]`` or a bare ``[q,r]`` as hexes; anything malformed left out."""
    if not at:
        return []
    if len(at) == 2 and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in at):
        return [(int(at[0]), int(at[1]))]
    out = []
    for p in at:
        if isinstance(p, (list, tuple)) and len(p) == 2:
            try:
                out.append((int(p[0]), int(p[1])))
            except (TypeError, ValueError):
                continue
    return out


def at_text(hexes: list[tuple[int, int]]) -> str:
    return ";".join(f"{q},{r}" for q, r in hexes)


def px(h: tuple[int, int], size: float) -> tuple[float, float]:
    return hx.pixel_centre(h, size)


def translate(x: float, y: float) -> str:
    return f"translate({x:.1f},{y:.1f})"


def text(x: float, y: float, label: str, fs: float, extra: str = "") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{fs:.1f}" text-anchor="middle" '
            f'dominant-baseline="central"{extra}>{e(label)}</text>')


def label_size(label: str, room: float, largest: float) -> float:
    """A font size at which ``label`` fits in ``room`` pixels (never above ``largest``)."""
    return min(largest, room / (0.62 * max(len(label), 1)))


# --- looks: what each thing looks like at a moment ------------------------------------------------

def model_look(mid: str, m: dict | None, size: float) -> Look:
    gid = f"model-{mid}"
    pos = positions((m or {}).get("at"))
    if not pos:
        return {(gid, "display"): "none"}
    x0, y0 = px(pos[0], size)
    look: Look = {(gid, "display"): None, (gid, "transform"): translate(x0, y0), (gid, "data-at"): at_text(pos)}
    if (m or {}).get("size") == "huge":
        rel = [(x - x0, y - y0) for x, y in (px(h, size) for h in pos)]
        points = " ".join(f"{x:.1f},{y:.1f}" for x, y in rel)
        look[(f"{gid}-outline", "points")] = points
        look[(f"{gid}-body", "points")] = points
        look[(f"{gid}-label", "x")] = f"{sum(x for x, _ in rel) / len(rel):.1f}"
        look[(f"{gid}-label", "y")] = f"{sum(y for _, y in rel) / len(rel):.1f}"
    return look


def vortex_title(allegiance: str | None, ether, removed: bool) -> str:
    """A vortex's tooltip: ``vortex · creation · ether 2`` (`` · removed``), in the language spoken."""
    text = _("vortex · {allegiance} · ether {ether}").format(
        allegiance=in_words(allegiance) if allegiance else _("unaligned"), ether=ether)
    return text + (" · " + _("removed") if removed else "")


def terrain_name(kind: str) -> str:
    """A terrain kind in the language spoken (``burning_ground`` -> Burning ground; an unknown kind in words)."""
    return _(TERRAIN_LABELS[kind]) if kind in TERRAIN_LABELS else kind.replace("_", " ")


def facing_angle(facing: int) -> float:
    dx, dy = px(hx.HEXON_DIRECTIONS[facing % 6], 1.0)
    return math.degrees(math.atan2(dy, dx))


def facing_svg(facing: int, size: float = 44) -> str:
    """A small picture of a facing (0–5) for a form offering it: a hex, as the board draws them, with an
    arrow from its centre the way a vortex facing it points on the board."""
    c, r = size / 2, size * 0.46
    corners = " ".join(f"{c + r * math.cos(math.radians(60 * k - 30)):.1f},{c + r * math.sin(math.radians(60 * k - 30)):.1f}"
                       for k in range(6))
    arrow = (f'<g transform="translate({c:.1f},{c:.1f}) rotate({facing_angle(facing):.1f})">'
             f'<line x1="{-r * .35:.1f}" y1="0" x2="{r * .55:.1f}" y2="0" stroke="#1f4e8c" stroke-width="{size * .07:.1f}" '
             f'stroke-linecap="round"/><polygon points="{r * .8:.1f},0 {r * .38:.1f},{-r * .3:.1f} {r * .38:.1f},{r * .3:.1f}" '
             f'fill="#1f4e8c"/></g>')
    title = _("facing {facing}").format(facing=facing % 6)
    return (f'<svg class="rc-facing" data-facing="{facing % 6}" xmlns="http://www.w3.org/2000/svg" width="{size:g}" '
            f'height="{size:g}" viewBox="0 0 {size:g} {size:g}" role="img"><title>{e(title)}</title>'
            f'<polygon points="{corners}" fill="#f6f1e3" stroke="#7a6f5a" stroke-width="1.5"/>{arrow}</svg>')


def _shown(kind: str, tid: str, thing: dict | None) -> tuple[str, list, dict]:
    """The element id of a thing of the board, where it stands (nowhere: hidden) and the thing itself."""
    return f"{kind}-{tid}", positions((thing or {}).get("at")), thing or {}


def vortex_look(vid: str, v: dict | None, size: float) -> Look:
    gid, pos, v = _shown("vortex", vid, v)
    if not pos:
        return {(gid, "display"): "none"}
    allegiance = v.get("allegiance")
    removed = bool(v.get("removed"))
    facing = v.get("facing")
    has_facing = isinstance(facing, int) and not isinstance(facing, bool)
    ether = v.get("ether")
    return {
        (gid, "display"): None, (gid, "transform"): translate(*px(pos[0], size)),
        (gid, "data-at"): at_text(pos[:1]), (gid, "opacity"): ".35" if removed else None,
        (gid, "data-removed"): str(removed).lower(), (gid, "data-allegiance"): allegiance or "",
        (gid, "color"): ALLEGIANCE_COLOURS.get(allegiance, ALLEGIANCE_COLOURS[None]),
        (f"{gid}-facing", "display"): None if has_facing else "none",
        (f"{gid}-facing", "transform"): f"rotate({facing_angle(facing) if has_facing else 0:.1f})",
        (f"{gid}-facing", "data-facing"): str(facing % 6) if has_facing else "",
        (f"{gid}-symbol", "text"): ALLEGIANCE_SYMBOLS.get(allegiance, str(allegiance)[:2].upper()) if allegiance else "",
        (f"{gid}-ether", "text"): "" if ether is None else str(ether),
        (f"{gid}-ether-disc", "display"): None if ether is not None else "none",
        (f"{gid}-title", "text"): vortex_title(allegiance, ether, removed),
    }


def marker_look(kid: str, k: dict | None, size: float) -> Look:
    gid, pos, k = _shown("marker", kid, k)
    if not pos:
        return {(gid, "display"): "none"}
    kind = str(k.get("kind") or "portable")
    x, y = px(pos[0], size)
    linked = k.get("linked_to")
    return {(gid, "display"): None, (gid, "transform"): translate(x + size * 0.42, y + size * 0.42),
            (gid, "data-at"): at_text(pos[:1]), (gid, "data-kind"): kind,
            (f"{gid}-bound", "display"): None if kind == "bound" else "none",
            (f"{gid}-portable", "display"): "none" if kind == "bound" else None,
            (f"{gid}-title", "text"): f"{kind} marker" + (" · linked to a model" if linked else "")}


def terrain_look(tid: str, t: dict | None) -> Look:
    return {(f"terrain-{tid}", "display"): None if t else "none"}


LOOKS = {"models": model_look, "vortices": vortex_look, "markers": marker_look}


def object_look(part: str, key: str, value: dict | None, size: float) -> Look:
    if part == "terrain":
        return terrain_look(key, value)
    return LOOKS[part](key, value, size)


# --- layers ---------------------------------------------------------------------------------------

@lru_cache(maxsize=32)
def board_layer(width: int, height: int, size: float) -> str:
    """Every on-board hex as one polygon, and the hexons' outlines."""
    corners = hx.corner_offsets(size)
    polys = []
    for h in hx.board_hexes(width, height):
        cx, cy = px(h, size)
        pts = " ".join(f"{cx + ox:.1f},{cy + oy:.1f}" for ox, oy in corners)
        polys.append(f'<polygon class="rc-hex" data-hex="{h[0]},{h[1]}" points="{pts}"/>')
    segments = []
    for h, k in hx.hexon_boundary(width, height):
        cx, cy = px(h, size)
        (ax, ay), (bx, by) = corners[k], corners[(k + 1) % 6]
        segments.append(f"M{cx + ax:.1f},{cy + ay:.1f}L{cx + bx:.1f},{cy + by:.1f}")
    outline = (f'<path class="rc-hexons" fill="none" stroke="{HEXON_STROKE}" stroke-width="{size * 0.11:.2f}" '
               f'stroke-linecap="round" d="{"".join(segments)}"/>' if segments else "")
    return (f'<g class="rc-hexes" fill="{HEX_FILL}" stroke="{HEX_STROKE}" stroke-width="{size * 0.05:.2f}">'
            f'{"".join(polys)}</g>{outline}')


def hex_polygon(h: tuple[int, int], size: float, cls: str, extra: str = "") -> str:
    cx, cy = px(h, size)
    pts = " ".join(f"{cx + ox:.1f},{cy + oy:.1f}" for ox, oy in hx.corner_offsets(size))
    return f'<polygon class="{cls}" data-hex="{h[0]},{h[1]}"{extra} points="{pts}"/>'


def terrain_layer(terrain: dict[str, dict], look: Look, size: float) -> str:
    pieces = []
    for tid, t in terrain.items():
        kind = str((t or {}).get("kind") or "unknown")
        fill = TERRAIN_FILLS.get(kind, UNKNOWN_TERRAIN_FILL)
        gid = f"terrain-{tid}"
        polys = "".join(hex_polygon(h, size, "rc-terrain-hex", f' data-terrain="{e(kind)}"')
                        for h in positions((t or {}).get("hexes")))
        pieces.append(f'<g id="{e(gid)}" class="rc-terrain" data-terrain="{e(kind)}" fill="{fill}"'
                      f'{look_attrs(look, gid, "display")}><title>{e(terrain_name(kind))}</title>{polys}</g>')
    return f'<g class="rc-terrain-layer" stroke="{HEX_STROKE}" stroke-width="{size * 0.05:.2f}">{"".join(pieces)}</g>'


@lru_cache(maxsize=8)
def spiral_path(size: float) -> str:
    """A swirl from the origin out to about 0.8 × size."""
    parts = ["M0 0"]
    for i in range(1, 37):
        t = i / 36
        ang, rad = t * 2.2 * 2 * math.pi, 0.82 * size * t
        parts.append(f"L{rad * math.cos(ang):.1f} {rad * math.sin(ang):.1f}")
    return "".join(parts)


def vortex_element(vid: str, look: Look, size: float) -> str:
    gid = f"vortex-{vid}"
    vr = size * 1.15
    tip, hw = vr + size * 0.75, size * 0.32
    base = tip - size * 0.45
    facing = (f'<g id="{e(gid)}-facing" class="rc-vortex-facing" fill="currentColor" stroke="currentColor"'
              f'{look_attrs(look, f"{gid}-facing", "display", "transform", "data-facing")}>'
              f'<line x1="{vr + size * 0.1:.1f}" y1="0" x2="{base:.1f}" y2="0" stroke-width="{size * 0.16:.2f}"/>'
              f'<polygon points="{tip:.1f},0 {base:.1f},{hw:.1f} {base:.1f},{-hw:.1f}" stroke="none"/></g>')
    corner = vr * 0.72
    return (
        f'<g id="{e(gid)}" class="rc-vortex"'
        f'{look_attrs(look, gid, "display", "transform", "data-at", "opacity", "data-removed", "data-allegiance", "color")}>'
        f'<title id="{e(gid)}-title">{e(look.get((f"{gid}-title", "text"), ""))}</title>{facing}'
        f'<circle r="{vr:.1f}" fill="currentColor" fill-opacity=".28" stroke="currentColor" '
        f'stroke-width="{size * 0.12:.2f}"/><path d="{spiral_path(size)}" fill="none" stroke="currentColor" '
        f'stroke-width="{size * 0.1:.2f}" stroke-linecap="round"/>'
        + text(-corner, -corner, look.get((f"{gid}-symbol", "text"), ""), size * 0.5,
               f' id="{e(gid)}-symbol" class="rc-allegiance rc-upright" fill="currentColor" font-weight="bold"')
        + f'<g id="{e(gid)}-ether-disc"{look_attrs(look, f"{gid}-ether-disc", "display")}>'
        f'<circle cx="{corner:.1f}" cy="{-corner:.1f}" r="{size * 0.42:.1f}" fill="#fff" stroke="currentColor" '
        f'stroke-width="{size * 0.08:.2f}"/>'
        + text(corner, -corner, look.get((f"{gid}-ether", "text"), ""), size * 0.55,
               f' id="{e(gid)}-ether" class="rc-ether rc-upright" fill="currentColor" font-weight="bold"')
        + "</g></g>")


def vortex_layer(vortices: dict, look: Look, size: float) -> str:
    return f'<g class="rc-vortices">{"".join(vortex_element(v, look, size) for v in vortices)}</g>'


def marker_element(kid: str, look: Look, size: float) -> str:
    gid = f"marker-{kid}"
    ms = size * 0.32
    d = ms * 1.3
    return (f'<g id="{e(gid)}" class="rc-marker"{look_attrs(look, gid, "display", "transform", "data-kind", "data-at")}>'
            f'<title id="{e(gid)}-title">{e(look.get((f"{gid}-title", "text"), ""))}</title>'
            f'<rect id="{e(gid)}-bound" x="{-ms:.1f}" y="{-ms:.1f}" width="{2 * ms:.1f}" height="{2 * ms:.1f}" '
            f'fill="#b7a6d9"{look_attrs(look, f"{gid}-bound", "display")}/>'
            f'<polygon id="{e(gid)}-portable" points="0,{-d:.1f} {d:.1f},0 0,{d:.1f} {-d:.1f},0" fill="#f2d16b"'
            f'{look_attrs(look, f"{gid}-portable", "display")}/>'
            + text(0, ms + size * 0.32, kid, size * 0.4, ' class="rc-label rc-upright" fill="#222" stroke="none"')
            + "</g>")


def marker_layer(markers: dict, look: Look, size: float) -> str:
    return (f'<g class="rc-markers" stroke="#222" stroke-width="{size * 0.06:.2f}">'
            f'{"".join(marker_element(k, look, size) for k in markers)}</g>')


def model_element(mid: str, m: dict, look: Look, size: float, colour: str, owner: str, names: Names) -> str:
    gid = f"model-{mid}"
    msize = str(m.get("size") or "infantry")
    radius = MODEL_RADIUS.get(msize, MODEL_RADIUS["infantry"]) * size
    name = names.of("models", mid)
    label = names.short("models", mid)
    if msize == "huge":
        hull = (f'<polygon id="{e(gid)}-outline" class="rc-huge-outline" fill="#1d1d1d" stroke="#1d1d1d" '
                f'stroke-width="{2 * radius + size * 0.16:.1f}" stroke-linejoin="round"'
                f'{look_attrs(look, f"{gid}-outline", "points")}/>'
                f'<polygon id="{e(gid)}-body" class="rc-huge-body" stroke="{colour}" stroke-width="{2 * radius:.1f}" '
                f'stroke-linejoin="round"{look_attrs(look, f"{gid}-body", "points")}/>')
        lx, ly = float(look.get((f"{gid}-label", "x"), 0)), float(look.get((f"{gid}-label", "y"), 0))
    else:
        hull = f'<circle r="{radius:.1f}"/>'
        lx = ly = 0.0
    fs = label_size(label, 1.75 * radius, size * (0.85 if msize != "infantry" else 0.6))
    return (f'<g id="{e(gid)}" class="rc-model" data-player="{e(m.get("player"))}" data-size="{e(msize)}" '
            f'data-name="{e(name)}" fill="{colour}"{look_attrs(look, gid, "display", "transform", "data-at")}>'
            f"<title>{e(names.bare('models', mid))} · {e(owner)} · {e(size_name(msize))}</title>{hull}"
            + text(lx, ly, label, fs, f' id="{e(gid)}-label" class="rc-label rc-upright" fill="#fff" stroke="#1d1d1d" '
                                      f'stroke-width="{fs * 0.22:.2f}" paint-order="stroke"')
            + "</g>")


def model_layer(models: dict, look: Look, size: float, colours: dict, names: Names) -> str:
    body = "".join(model_element(mid, m, look, size, colours.get(m.get("player"), UNKNOWN_PLAYER),
                                 names.player(m.get("player")), names) for mid, m in models.items())
    return (f'<g class="rc-models" stroke="#1d1d1d" stroke-width="{size * 0.08:.2f}" font-weight="bold">'
            f"{body}</g>")


def coordinates_layer(width: int, height: int, size: float) -> str:
    """q along the top and bottom edges, r along the left and right: the coordinates events speak in."""
    if width <= 0 or height <= 0:
        return ""
    fs = size * 0.5
    out = []
    for row in (0, height - 1):
        dy = -size * 1.35 if row == 0 else size * 1.35
        for col in range(width):
            h = hx.from_offset(col, row)
            x, y = px(h, size)
            out.append(text(x, y + dy, str(h[0]), fs, f' class="rc-coord rc-coord-q rc-upright" data-q="{h[0]}"'))
    for row in range(height):
        for col, dx in ((0, -size * 1.45), (width - 1, size * 1.45)):
            x, y = px(hx.from_offset(col, row), size)
            out.append(text(x + dx, y, str(row), fs, f' class="rc-coord rc-coord-r rc-upright" data-r="{row}"'))
    return f'<g class="rc-coords" fill="#8a8170" font-style="italic">{"".join(out)}</g>'


# --- highlights -----------------------------------------------------------------------------------

def highlight_svg(highlight: dict | None, models: dict, size: float) -> str:
    """The highlight of an event: hexes marked, rings under the models concerned, the path of a move."""
    highlight = highlight or {}
    out = []
    hexes = positions(highlight.get("hexes"))
    if hexes:
        out.append(f'<g class="rc-hl-hexes" fill="#ffe066" fill-opacity=".6" stroke="{HL}" '
                   f'stroke-width="{size * 0.14:.2f}">{"".join(hex_polygon(h, size, "rc-hl-hex") for h in hexes)}</g>')
    for mid in highlight.get("models") or []:
        m = models.get(str(mid))
        if m:
            out.append(ring(str(mid), m, size))
    path = positions(highlight.get("path"))
    if path:
        out.append(path_svg(path, size))
    return "".join(out)


def ring(mid: str, m: dict, size: float) -> str:
    """A bright band just outside a model's outline."""
    pos = positions(m.get("at"))
    centres = [px(h, size) for h in pos]
    msize = m.get("size")
    if msize == "huge" and len(centres) > 1:
        pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in centres)
        body = (f'<polygon points="{pts}" stroke="{HL}" stroke-width="{2 * size * 1.7 + size * 0.9:.1f}" '
                f'stroke-linejoin="round"/>')
    else:
        radius = MODEL_RADIUS.get(str(msize), MODEL_RADIUS["infantry"]) * size + size * 0.38
        body = "".join(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{radius:.1f}"/>' for x, y in centres)
    return f'<g class="rc-hl-ring" data-model="{e(mid)}" data-at="{at_text(pos)}" fill="{HL}" stroke="none">{body}</g>'


def path_svg(path: list[tuple[int, int]], size: float) -> str:
    pts = [px(h, size) for h in path]
    out = [f'<g class="rc-hl-path" data-path="{at_text(path)}" fill="#ff7a00" stroke="#ff7a00">']
    if len(pts) > 1:
        out.append(f'<polyline points="{" ".join(f"{x:.1f},{y:.1f}" for x, y in pts)}" fill="none" '
                   f'stroke-width="{size * 0.22:.2f}" stroke-linecap="round" stroke-linejoin="round" '
                   f'stroke-dasharray="{size * 0.5:.1f} {size * 0.3:.1f}" opacity=".9"/>')
    out.extend(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{size * 0.2:.1f}" stroke="none"/>' for x, y in pts[:-1])
    tx, ty = pts[-1]
    if len(pts) > 1:
        fx, fy = pts[-2]
        n = math.hypot(tx - fx, ty - fy) or 1.0
        ux, uy = (tx - fx) / n, (ty - fy) / n
        tx, ty = tx - ux * size * 0.6, ty - uy * size * 0.6  # the tip stops at an infantry base's edge
        bx, by, hw = tx - ux * size * 0.6, ty - uy * size * 0.6, size * 0.38
        out.append(f'<polygon points="{tx:.1f},{ty:.1f} {bx - uy * hw:.1f},{by + ux * hw:.1f} '
                   f'{bx + uy * hw:.1f},{by - ux * hw:.1f}" stroke="none"/>')
    else:
        out.append(f'<circle cx="{tx:.1f}" cy="{ty:.1f}" r="{size * 0.3:.1f}" stroke="none"/>')
    return "".join(out) + "</g>"


# --- the legend and the whole drawing ---------------------------------------------------------

def bounds(width: int, height: int, size: float) -> tuple[float, float, float, float]:
    if width <= 0 or height <= 0:
        return 0.0, 0.0, 10 * size, 6 * size
    xs = [px(h, size)[0] for h in hx.board_hexes(width, height)]
    sx = size * hx.SQRT3
    return min(xs) - sx / 2, -size, max(xs) + sx / 2, size * 1.5 * (height - 1) + size


def legend_layer(players: list[tuple[str, str]], left: float, top: float, room: float, size: float) -> tuple[str, float]:
    """The terrain kinds and the players' colours in rows below the board; (SVG, its bottom)."""
    lfs = max(9.0, size * 0.7)
    sw, row_h = lfs * 1.1, lfs * 1.7
    items = [("terrain", TERRAIN_FILLS[k], _(TERRAIN_LABELS[k])) for k in TERRAIN_FILLS]
    items += [("player", colour, name) for colour, name in players]
    x, y = left, top
    out = []
    for kind, colour, label in items:
        w = sw + lfs * 0.4 + len(label) * lfs * 0.58 + lfs * 1.2
        if x + w > left + room and x > left:
            x, y = left, y + row_h
        sym = (f'<rect x="{x:.1f}" y="{y:.1f}" width="{sw:.1f}" height="{sw:.1f}" fill="{colour}" stroke="#555" '
               f'stroke-width=".6"/>' if kind == "terrain" else
               f'<circle cx="{x + sw / 2:.1f}" cy="{y + sw / 2:.1f}" r="{sw / 2:.1f}" fill="{colour}" '
               f'stroke="#1d1d1d" stroke-width=".6"/>')
        out.append(f'<g class="rc-legend-{kind}">{sym}<text x="{x + sw + lfs * 0.4:.1f}" y="{y + sw / 2:.1f}" '
                   f'dominant-baseline="central">{e(label)}</text></g>')
        x += w
    return f'<g class="rc-legend" font-size="{lfs:.1f}" fill="#333">{"".join(out)}</g>', y + row_h


def draw_board(game: Any, seq: Any, board: dict, objects: dict[str, dict], look: Look, players: dict,
               names: Names, colours: dict, size: float = HEX_SIZE, split: bool = False) -> str:
    """The board SVG with every object of ``objects`` (part -> id -> a value it takes, for what never
    changes: size, owner, kind) drawn as ``look`` says. ``split``: the ground (hexes, terrain,
    coordinates, legend) and the pieces (highlights, vortices, markers, models) as two SVGs stacked on
    each other, so that moving a piece repaints only the pieces."""
    width, height = int(board.get("width") or 0), int(board.get("height") or 0)
    x0, y0, x1, y1 = bounds(width, height, size)
    pad = size * 2.1  # room for the coordinates
    vx0, vy0, vw = x0 - pad, y0 - pad, (x1 - x0) + 2 * pad
    legend, bottom = legend_layer([(colours.get(pid, UNKNOWN_PLAYER), names.player(pid)) for pid in players],
                                  vx0 + size * 0.6, y1 + pad, vw - size * 1.2, size)
    vh = bottom - vy0
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    ground = (board_layer(width, height, size) + terrain_layer(objects.get("terrain", {}), look, size)
              + coordinates_layer(width, height, size))
    pieces = (f'<g id="rc-hl" class="rc-highlights">{look.get(("rc-hl", "html"), "")}</g>'
              + vortex_layer(objects.get("vortices", {}), look, size)
              + marker_layer(objects.get("markers", {}), look, size)
              + model_layer(objects.get("models", {}), look, size, colours, names))

    def svg(cls: str, body: str, extra: str = "") -> str:
        return (f'<svg xmlns="http://www.w3.org/2000/svg" class="{cls}" viewBox="{vx0:.1f} {vy0:.1f} {vw:.1f} '
                f'{vh:.1f}" width="{vw:.0f}" height="{vh:.0f}" font-family="sans-serif"{extra}>{body}</svg>')

    def turned(body: str) -> str:
        return f'<g class="rc-turn" data-centre="{cx:.1f},{cy:.1f}">{body}</g>'

    marks = f' data-game="{e(game)}" data-seq="{e(seq)}"'
    background = f'<rect class="rc-bg" x="{vx0:.1f}" y="{vy0:.1f}" width="{vw:.1f}" height="{vh:.1f}" fill="#fffdf8"/>'
    if not split:
        return svg("rc-board", background + turned(ground + pieces) + legend,
                   marks + ' style="max-width:100%;height:auto"')
    return (f'<div class="rc-board-stack">{svg("rc-board-ground", background + turned(ground) + legend)}'
            f'{svg("rc-board", turned(pieces), marks)}</div>')


def first_values(state: dict, changes: list) -> dict[str, dict]:
    """Every object that exists at any seq, with the first value it takes (part -> id -> value)."""
    out: dict[str, dict] = {part: dict(state.get(part) or {}) for part in OBJECTS}
    for _, part, key, value in changes:
        if part in out and value is not None and key not in out[part]:
            out[part][key] = value
    return out


def setup_look(state: dict, objects: dict[str, dict], size: float) -> Look:
    look: Look = {}
    for part, things in objects.items():
        present = state.get(part) or {}
        for key, first in things.items():
            value = present.get(key)
            look.update(object_look(part, key, first, size))  # drawn where it first stands, even if hidden
            look.update(object_look(part, key, value, size))
    return look


def render_board(state: dict, highlight: dict | None = None, hex_size: float = HEX_SIZE,
                 names: Names | None = None) -> str:
    """The board of one state (docs/replay.md) as one SVG element; ``highlight``: ``{"models": [ids],
    "hexes": [[q,r],...], "path": [[q,r],...]}``."""
    size = float(hex_size)
    names = names or state_names(state)
    objects = first_values(state, [])
    look = setup_look(state, objects, size)
    look[("rc-hl", "html")] = highlight_svg(highlight, state.get("models") or {}, size)
    colours = player_colours(state.get("players") or {})
    return draw_board(state.get("game", ""), state.get("seq", ""), state.get("board") or {}, objects, look,
                      state.get("players") or {}, names, colours, size)


def live_board(state: dict, mark: dict | None, names: Names | None = None,
               size: float = HEX_SIZE) -> tuple[str, Callable[[], str], list[list]]:
    """The board of one state for a page that keeps it drawn while the state moves on (the Record page):
    (a key that changes only when the drawing itself must: another board, other objects, other players;
    the drawing, made when asked; and the look of every element now, as [element id, attribute, value])."""
    names = names or state_names(state)
    objects = first_values(state, [])
    look = setup_look(state, objects, size)
    look[("rc-hl", "html")] = highlight_svg(mark, state.get("models") or {}, size)
    colours = player_colours(state.get("players") or {})
    shape = [state.get("game"), state.get("board"), {part: sorted(things) for part, things in objects.items()},
             sorted((names.by_kind.get("players") or {}).items()), sorted(colours.items()),
             sorted((names.by_kind.get("models") or {}).items()), current()]  # its words are the language's
    key = hashlib.sha1(json.dumps(shape, sort_keys=True, default=str).encode()).hexdigest()[:16]

    def drawing() -> str:
        return draw_board(state.get("game", ""), state.get("seq", ""), state.get("board") or {}, objects, look,
                          state.get("players") or {}, names, colours, size)
    return key, drawing, [[element, attr, value] for (element, attr), value in look.items()]


def player_colours(players: Any) -> dict[str, str]:
    """A colour per player (of a state's ``players``, or of a state)."""
    from domain.systems.presentation import Presentation

    if isinstance(players, dict) and "players" in players:
        players = players["players"]
    return Presentation().player_colours(players)


def state_names(state: dict) -> Names:
    """Names from a state alone (model names as the state keeps them)."""
    from domain.systems.presentation import short_labels, unique_names

    models = unique_names([(mid, str((m or {}).get("name") or mid)) for mid, m in (state.get("models") or {}).items()])
    players = {pid: str((p or {}).get("name") or pid) for pid, p in (state.get("players") or {}).items()}
    return Names({"players": players, "models": models, "models:short": short_labels(models)})


def board_scene(header: dict, changes: list, lines: list[dict], object_parts, names: Names, highlight_of,
                status_of, size: float = HEX_SIZE, skip: set[int] | None = None) -> Scene:
    """The board of a whole game drawn once, and per seq the looks that change (domain.systems.scene).
    ``highlight_of(event, before)`` is the pack's highlight; ``status_of(state)`` the look of the status
    line above the board."""
    log: FrameLog | None = None
    html = ""
    for moment in moments(header, changes, lines, object_parts):
        state = moment.state
        if log is None:
            objects = first_values(state, changes)
            look = setup_look(state, objects, size)
            look.update(status_of(state))
            colours = player_colours(state.get("players") or {})
            html = draw_board(state.get("game"), 0, state.get("board") or {}, objects, look,
                              state.get("players") or {}, names, colours, size, split=True)
            html = f'{status_html(look)}{html}'
            log = FrameLog(look)
        log.begin()
        look = {}
        for part, key in moment.changed:
            if part in OBJECTS:
                look.update(object_look(part, key, (state.get(part) or {}).get(key), size))
        event = None if skip and moment.seq in skip else moment.event
        before = before_state(moment) if event else None
        hl = highlight_of(event, before) if event else {}
        look[("rc-hl", "html")] = highlight_svg(hl, state.get("models") or {}, size)
        look.update(status_of(state))
        log.set(look)
    return Scene(html, CSS, log.frames if log else [])


def before_state(moment) -> dict:
    """The objects as they stood just before the moment's event (for its highlight)."""
    out = {part: dict(moment.state.get(part) or {}) for part in ("models", "markers", "vortices")}
    for (part, key), value in (moment.before or {}).items():
        if part in out:
            if value is None:
                out[part].pop(key, None)
            else:
                out[part][key] = value
    return out
