"""SVG rendering of a Tornscape replay state (see docs/replay.md).

Pure string building, no dependencies beyond the stdlib.  The hex geometry is
deliberately self-contained here (axial, pointy-top, odd rows shifted) so the
dashboard does not depend on ``domain/systems/tornscape/hexes.py``.

Public API:
    render_board(state, highlight=None, hex_size=16) -> str   complete <svg> element
    legend_html(state) -> str                                  small HTML player legend
    player_colours(state) -> dict[player_id, "#rrggbb"]
"""

from __future__ import annotations

import math
from functools import lru_cache
from html import escape

__all__ = ["render_board", "legend_html", "player_colours", "TERRAIN_FILLS"]

SQRT3 = math.sqrt(3.0)

# Axial neighbour directions, indexed by the hexagon edge that faces them.
# Corner k of a pointy-top hexagon sits at angle 60k - 30 degrees (SVG y points
# down), so edge k (corner k -> corner k+1) faces angle 60k.
EDGE_DIRS: tuple[tuple[int, int], ...] = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
# Hexon directions (centre to neighbouring hexon centre), facing index 0-5.
HEXON_DIRS: tuple[tuple[int, int], ...] = ((2, 1), (-1, 3), (-3, 2), (-2, -1), (1, -3), (3, -2))

# (3q + r) % 7 of a hex -> axial offset to the centre of the hexon it belongs to.
_TO_CENTRE: dict[int, tuple[int, int]] = {0: (0, 0)}
for _d in EDGE_DIRS:
    _TO_CENTRE[(-(3 * _d[0] + _d[1])) % 7] = _d
del _d

TERRAIN_FILLS: dict[str, str] = {
    "solid": "#4d4d4d",
    "burning_ground": "#e8562a",
    "deadly_bog": "#7a7436",
    "cover": "#a9d8a0",
}
TERRAIN_LABELS: dict[str, str] = {
    "solid": "Solid",
    "burning_ground": "Burning ground",
    "deadly_bog": "Deadly bog",
    "cover": "Cover",
}
_UNKNOWN_TERRAIN_FILL = "#c9b8e3"
_PLAYER_PALETTE = ("#2f6fdb", "#d7353b", "#2a9d5c", "#8e5bd0", "#e08a1e", "#1fa3a3")
_UNKNOWN_PLAYER = "#8c8c8c"
ALLEGIANCE_COLOURS: dict[str | None, str] = {
    "creation": "#d4a017",
    "destruction": "#b0182a",
    "life": "#2e9e44",
    "death": "#6b2e8f",
    None: "#8c8c8c",
}
_HEX_FILL = "#f5f2ea"
_HEX_STROKE = "#d2ccbd"
_HEXON_STROKE = "#857d6c"
_HL = "#ffb000"
ALLEGIANCE_SYMBOLS = {"creation": "CR", "destruction": "DE", "life": "LI", "death": "DT"}


# --------------------------------------------------------------------------- geometry
def _hexon_centre(q: int, r: int) -> tuple[int, int]:
    dq, dr = _TO_CENTRE[(3 * q + r) % 7]
    return q + dq, r + dr


def _on_board(q: int, r: int, width: int, height: int) -> bool:
    if r < 0 or r >= height:
        return False
    col = q + (r - (r & 1)) // 2
    return 0 <= col < width


def _board_hexes(width: int, height: int) -> list[tuple[int, int]]:
    return [
        (col - (row - (row & 1)) // 2, row) for row in range(height) for col in range(width)
    ]


def _corner_offsets(size: float) -> list[tuple[float, float]]:
    return [
        (size * math.cos(math.radians(60 * k - 30)), size * math.sin(math.radians(60 * k - 30)))
        for k in range(6)
    ]


@lru_cache(maxsize=32)
def _static_layer(width: int, height: int, size: float):
    """Per-hex polygon point strings, hexon outline path and pixel bounds (cached)."""
    corners = _corner_offsets(size)
    sx = size * SQRT3
    sy = size * 1.5
    points: list[tuple[tuple[int, int], str]] = []
    segments: list[str] = []
    for q, r in _board_hexes(width, height):
        cx = sx * (q + r / 2)
        cy = sy * r
        pts = [f"{cx + ox:.1f},{cy + oy:.1f}" for ox, oy in corners]
        points.append(((q, r), " ".join(pts)))
        own = (3 * q + r) % 7
        own = (q + _TO_CENTRE[own][0], r + _TO_CENTRE[own][1])
        for k in range(6):
            dq, dr = EDGE_DIRS[k]
            nq, nr = q + dq, r + dr
            if not _on_board(nq, nr, width, height) or (k < 3 and _hexon_centre(nq, nr) != own):
                segments.append(f"M{pts[k]}L{pts[(k + 1) % 6]}")
    if points:
        xs = [sx * (q + r / 2) for (q, r), _ in points]
        ys = [sy * r for (q, r), _ in points]
        bounds = (
            min(xs) - sx / 2,
            min(ys) - size,
            max(xs) + sx / 2,
            max(ys) + size,
        )
    else:
        bounds = (0.0, 0.0, 10 * size, 6 * size)
    return tuple(points), "".join(segments), bounds


@lru_cache(maxsize=8)
def _spiral_path(size: float) -> str:
    """Relative swirl path (starts at the origin), radius ~0.8*size."""
    parts = ["M0 0"]
    turns, steps = 2.2, 36
    rmax = 0.82 * size
    for i in range(1, steps + 1):
        t = i / steps
        ang = t * turns * 2 * math.pi
        rad = rmax * t
        parts.append(f"L{rad * math.cos(ang):.1f} {rad * math.sin(ang):.1f}")
    return "".join(parts)


# --------------------------------------------------------------------------- helpers
def _pos_list(at) -> list[tuple[int, int]]:
    """Accept [[q,r],...] or a bare [q,r]; ignore anything malformed."""
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


def _px(q: int, r: int, size: float) -> tuple[float, float]:
    return size * SQRT3 * (q + r / 2), size * 1.5 * r


def _data_at(positions: list[tuple[int, int]]) -> str:
    return ";".join(f"{q},{r}" for q, r in positions)


def player_colours(state: dict) -> dict[str, str]:
    """Deterministic colour per player id, by order of ``state["players"]``."""
    players = state.get("players") or {}
    return {pid: _PLAYER_PALETTE[i % len(_PLAYER_PALETTE)] for i, pid in enumerate(players)}


def _text(x: float, y: float, label: str, fs: float, extra: str = "") -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{fs:.1f}" text-anchor="middle" '
        f'dominant-baseline="central"{extra}>{escape(label)}</text>'
    )


def _halo(sid: str, msize: str, centres: list[tuple[float, float]], size: float) -> str:
    """Highlight ring for one model: a bright band just outside the model's outline."""
    if msize == "huge" and len(centres) > 1:
        line_pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in centres)
        body = (
            f'<polygon points="{line_pts}" stroke="{_HL}" '
            f'stroke-width="{2 * size * 1.7 + size * 0.9:.1f}" stroke-linejoin="round"/>'
        )
    else:
        base = {"huge": 1.7, "large": 1.5}.get(msize, 0.62) * size
        body = "".join(
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{base + size * 0.38:.1f}"/>' for x, y in centres
        )
    return f'<g class="rc-hl-ring" data-model="{sid}" fill="{_HL}" stroke="none">{body}</g>'


# --------------------------------------------------------------------------- render
def render_board(state: dict, highlight: dict | None = None, hex_size: float = 16) -> str:
    """Render a replay state dict as a self-contained SVG string.

    ``highlight`` (optional): ``{"models": [ids], "hexes": [[q,r],...], "path": [[q,r],...]}``.
    Element hooks: hex polygons ``class="rc-hex" data-hex="q,r" data-terrain=kind``;
    models ``<g id="model-<id>" class="rc-model" data-at="q,r;..." data-player data-size>``;
    markers ``id="marker-<id>"``; vortices ``id="vortex-<id>"`` (``opacity=".35"`` when removed);
    highlight elements ``class="rc-hl-hex" | "rc-hl-ring" | "rc-hl-path"``.
    """
    size = float(hex_size)
    board = state.get("board") or {}
    width = int(board.get("width") or 0)
    height = int(board.get("height") or 0)
    points, hexon_path, (x0, y0, x1, y1) = _static_layer(width, height, size)

    players = state.get("players") or {}
    colours = player_colours(state)
    models = state.get("models") or {}
    markers = state.get("markers") or {}
    vortices = state.get("vortices") or {}
    terrain = state.get("terrain") or {}
    highlight = highlight or {}

    # terrain lookup: hex -> (kind, terrain id)
    terrain_at: dict[tuple[int, int], tuple[str, str]] = {}
    for tid, t in terrain.items():
        kind = str((t or {}).get("kind") or "unknown")
        for pos in _pos_list((t or {}).get("hexes")):
            terrain_at[pos] = (kind, str(tid))

    pad = size * 0.6
    vx0, vy0 = x0 - pad, y0 - pad
    board_w = (x1 - x0) + 2 * pad
    out: list[str] = []
    add = out.append

    # ---- hexes (one polygon per on-board hex, terrain fill inline)
    add(f'<g class="rc-hexes" fill="{_HEX_FILL}" stroke="{_HEX_STROKE}" stroke-width="{size * 0.05:.2f}">')
    if terrain_at:
        for (q, r), pts in points:
            t = terrain_at.get((q, r))
            if t is None:
                add(f'<polygon class="rc-hex" data-hex="{q},{r}" points="{pts}"/>')
            else:
                kind, tid = t
                fill = TERRAIN_FILLS.get(kind, _UNKNOWN_TERRAIN_FILL)
                add(
                    f'<polygon class="rc-hex" data-hex="{q},{r}" data-terrain="{escape(kind)}" '
                    f'fill="{fill}" points="{pts}"><title>{escape(tid)}: {escape(kind)}</title></polygon>'
                )
    else:
        for (q, r), pts in points:
            add(f'<polygon class="rc-hex" data-hex="{q},{r}" points="{pts}"/>')
    add("</g>")
    if hexon_path:
        add(
            f'<path class="rc-hexons" fill="none" stroke="{_HEXON_STROKE}" '
            f'stroke-width="{size * 0.11:.2f}" stroke-linecap="round" d="{hexon_path}"/>'
        )

    corners = _corner_offsets(size)

    # ---- highlighted hexes (under the pieces)
    hl_hexes = _pos_list(highlight.get("hexes"))
    if hl_hexes:
        add(f'<g class="rc-hl-hexes" fill="#ffe066" fill-opacity=".6" stroke="{_HL}" stroke-width="{size * 0.14:.2f}">')
        for q, r in hl_hexes:
            cx, cy = _px(q, r, size)
            pts = " ".join(f"{cx + ox:.1f},{cy + oy:.1f}" for ox, oy in corners)
            add(f'<polygon class="rc-hl-hex" data-hex="{q},{r}" points="{pts}"/>')
        add("</g>")

    # ---- vortices
    if vortices:
        spiral = _spiral_path(size)
        vr = size * 1.15
        add('<g class="rc-vortices">')
        for vid, v in vortices.items():
            v = v or {}
            pos = _pos_list(v.get("at"))
            if not pos:
                continue
            q, r = pos[0]
            cx, cy = _px(q, r, size)
            allegiance = v.get("allegiance")
            col = ALLEGIANCE_COLOURS.get(allegiance, ALLEGIANCE_COLOURS[None])
            removed = bool(v.get("removed"))
            ether = v.get("ether")
            facing = v.get("facing")
            sid = escape(str(vid))
            opacity = ' opacity=".35"' if removed else ""
            add(
                f'<g id="vortex-{sid}" class="rc-vortex" data-at="{q},{r}" '
                f'data-allegiance="{escape(str(allegiance)) if allegiance is not None else ""}" '
                f'data-removed="{str(removed).lower()}" transform="translate({cx:.1f},{cy:.1f})"{opacity}>'
                f"<title>vortex {sid} · {escape(str(allegiance) if allegiance else 'unaligned')}"
                f" · ether {escape(str(ether))}{' · removed' if removed else ''}</title>"
            )
            if isinstance(facing, int) and not isinstance(facing, bool):
                dq, dr = HEXON_DIRS[facing % 6]
                ax, ay = _px(dq, dr, 1.0)
                n = math.hypot(ax, ay)
                ux, uy = ax / n, ay / n
                tip = vr + size * 0.75
                bx, by = ux * (vr + size * 0.1), uy * (vr + size * 0.1)
                tx, ty = ux * tip, uy * tip
                hw = size * 0.32
                px_, py_ = -uy * hw, ux * hw
                base_x, base_y = ux * (tip - size * 0.45), uy * (tip - size * 0.45)
                add(
                    f'<g class="rc-vortex-facing" data-facing="{facing % 6}" fill="{col}" stroke="{col}">'
                    f'<line x1="{bx:.1f}" y1="{by:.1f}" x2="{base_x:.1f}" y2="{base_y:.1f}" '
                    f'stroke-width="{size * 0.16:.2f}"/>'
                    f'<polygon points="{tx:.1f},{ty:.1f} {base_x + px_:.1f},{base_y + py_:.1f} '
                    f'{base_x - px_:.1f},{base_y - py_:.1f}" stroke="none"/></g>'
                )
            add(
                f'<circle r="{vr:.1f}" fill="{col}" fill-opacity=".28" stroke="{col}" '
                f'stroke-width="{size * 0.12:.2f}"/>'
                f'<path d="{spiral}" fill="none" stroke="{col}" stroke-width="{size * 0.1:.2f}" '
                f'stroke-linecap="round"/>'
            )
            if allegiance:  # the domain's symbol beside its colour
                symbol = ALLEGIANCE_SYMBOLS.get(allegiance, str(allegiance)[:2].upper())
                add(_text(-vr * 0.72, -vr * 0.72, symbol, size * 0.5,
                          f' class="rc-allegiance" fill="{col}" font-weight="bold"'))
            if ether is not None:
                add(
                    f'<circle cx="{vr * 0.72:.1f}" cy="{-vr * 0.72:.1f}" r="{size * 0.42:.1f}" '
                    f'fill="#fff" stroke="{col}" stroke-width="{size * 0.08:.2f}"/>'
                    + _text(vr * 0.72, -vr * 0.72, str(ether), size * 0.55,
                            f' class="rc-ether" fill="{col}" font-weight="bold"')
                )
            add("</g>")
        add("</g>")

    # ---- markers
    if markers:
        ms = size * 0.32
        add(f'<g class="rc-markers" stroke="#222" stroke-width="{size * 0.06:.2f}">')
        for kid, k in markers.items():
            k = k or {}
            pos = _pos_list(k.get("at"))
            if not pos:
                continue
            q, r = pos[0]
            cx, cy = _px(q, r, size)
            cx += size * 0.42
            cy += size * 0.42
            kind = str(k.get("kind") or "portable")
            sid = escape(str(kid))
            linked = k.get("linked_to")
            title = f"marker {sid} · {escape(kind)}" + (f" · linked to {escape(str(linked))}" if linked else "")
            if kind == "bound":
                shape = (
                    f'<rect x="{cx - ms:.1f}" y="{cy - ms:.1f}" width="{2 * ms:.1f}" '
                    f'height="{2 * ms:.1f}" fill="#b7a6d9"/>'
                )
            else:
                d = ms * 1.3
                shape = (
                    f'<polygon points="{cx:.1f},{cy - d:.1f} {cx + d:.1f},{cy:.1f} '
                    f'{cx:.1f},{cy + d:.1f} {cx - d:.1f},{cy:.1f}" fill="#f2d16b"/>'
                )
            add(
                f'<g id="marker-{sid}" class="rc-marker" data-kind="{escape(kind)}" data-at="{q},{r}">'
                f"<title>{title}</title>{shape}"
                + _text(cx, cy + ms + size * 0.32, str(kid), size * 0.4,
                        ' class="rc-label" fill="#222" stroke="none"')
                + "</g>"
            )
        add("</g>")

    # ---- move path (under the pieces, so labels stay readable)
    path = _pos_list(highlight.get("path"))
    if path:
        pts = [_px(q, r, size) for q, r in path]
        add(
            f'<g class="rc-hl-path" data-path="{_data_at(path)}" fill="#ff7a00" stroke="#ff7a00">'
        )
        if len(pts) > 1:
            add(
                f'<polyline points="{" ".join(f"{x:.1f},{y:.1f}" for x, y in pts)}" fill="none" '
                f'stroke-width="{size * 0.22:.2f}" stroke-linecap="round" stroke-linejoin="round" '
                f'stroke-dasharray="{size * 0.5:.1f} {size * 0.3:.1f}" opacity=".9"/>'
            )
        for x, y in pts[:-1]:
            add(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{size * 0.2:.1f}" stroke="none"/>')
        tx, ty = pts[-1]
        if len(pts) > 1:
            fx, fy = pts[-2]
            ux, uy = tx - fx, ty - fy
            n = math.hypot(ux, uy) or 1.0
            ux, uy = ux / n, uy / n
            # stop the tip at the edge of an infantry base on the destination hex
            tx, ty = tx - ux * size * 0.6, ty - uy * size * 0.6
            back = size * 0.6
            hw = size * 0.38
            bx, by = tx - ux * back, ty - uy * back
            add(
                f'<polygon points="{tx:.1f},{ty:.1f} {bx - uy * hw:.1f},{by + ux * hw:.1f} '
                f'{bx + uy * hw:.1f},{by - ux * hw:.1f}" stroke="none"/>'
            )
        else:
            add(f'<circle cx="{tx:.1f}" cy="{ty:.1f}" r="{size * 0.3:.1f}" stroke="none"/>')
        add("</g>")

    # ---- models (a highlighted model gets a halo ring drawn just under its body)
    hl_models = {str(x) for x in (highlight.get("models") or [])}
    if models:
        fs = size * 0.55
        add(
            f'<g class="rc-models" stroke="#1d1d1d" stroke-width="{size * 0.08:.2f}" '
            f'font-weight="bold">'
        )
        for mid, m in models.items():
            m = m or {}
            pos = _pos_list(m.get("at"))
            if not pos:
                continue
            msize = str(m.get("size") or "infantry")
            pid = m.get("player")
            col = colours.get(pid, _UNKNOWN_PLAYER)
            pname = (players.get(pid) or {}).get("name") if pid in players else None
            sid = escape(str(mid))
            add(
                f'<g id="model-{sid}" class="rc-model" data-at="{_data_at(pos)}" '
                f'data-player="{escape(str(pid))}" data-size="{escape(msize)}" fill="{col}">'
                f"<title>{escape(str(m.get('name') or mid))} ({sid}) · "
                f"{escape(str(pname or pid))} · {escape(msize)}</title>"
            )
            centres = [_px(q, r, size) for q, r in pos]
            if str(mid) in hl_models:
                add(_halo(sid, msize, centres, size))
            if msize == "huge":
                hr = size * 1.7
                if len(centres) > 1:
                    # closed polygon + thick round-joined stroke = rounded hull over the centres
                    line_pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in centres)
                    add(
                        f'<polygon class="rc-huge-outline" points="{line_pts}" fill="#1d1d1d" '
                        f'stroke="#1d1d1d" stroke-width="{2 * hr + size * 0.16:.1f}" '
                        f'stroke-linejoin="round"/>'
                        f'<polygon class="rc-huge-body" points="{line_pts}" stroke="{col}" '
                        f'stroke-width="{2 * hr:.1f}" stroke-linejoin="round"/>'
                    )
                    for x, y in centres:
                        add(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{size * 0.35:.1f}" fill="#fff" '
                            f'fill-opacity=".45" stroke="none"/>')
                else:
                    x, y = centres[0]
                    add(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{hr:.1f}"/>')
                lx = sum(x for x, _ in centres) / len(centres)
                ly = sum(y for _, y in centres) / len(centres)
                lfs = fs * 1.5
            else:
                rad = size * (1.5 if msize == "large" else 0.62)
                for x, y in centres:
                    add(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{rad:.1f}"/>')
                lx, ly = centres[0]
                lfs = fs * (1.5 if msize == "large" else 1.0)
            add(
                _text(lx, ly, str(mid), lfs,
                      f' class="rc-label" fill="#fff" stroke="#1d1d1d" '
                      f'stroke-width="{lfs * 0.22:.2f}" paint-order="stroke"')
                + "</g>"
            )
        add("</g>")

    # ---- legend (below the board)
    lfs = max(9.0, size * 0.7)
    sw = lfs * 1.1
    items: list[tuple[str, str, str]] = [
        ("terrain", TERRAIN_FILLS[k], TERRAIN_LABELS[k]) for k in TERRAIN_FILLS
    ]
    for pid, p in players.items():
        items.append(("player", colours[pid], str((p or {}).get("name") or pid)))
    lx = vx0 + pad
    ly = y1 + pad + lfs * 0.4
    row_h = lfs * 1.7
    legend_bottom = ly + row_h
    add(f'<g class="rc-legend" font-size="{lfs:.1f}" fill="#333">')
    for kind, col, label in items:
        w = sw + lfs * 0.4 + len(label) * lfs * 0.58 + lfs * 1.2
        if lx + w > vx0 + board_w and lx > vx0 + pad:
            lx = vx0 + pad
            ly += row_h
            legend_bottom = ly + row_h
        cls = "rc-legend-terrain" if kind == "terrain" else "rc-legend-player"
        if kind == "terrain":
            sym = (f'<rect x="{lx:.1f}" y="{ly:.1f}" width="{sw:.1f}" height="{sw:.1f}" '
                   f'fill="{col}" stroke="#555" stroke-width=".6"/>')
        else:
            sym = (f'<circle cx="{lx + sw / 2:.1f}" cy="{ly + sw / 2:.1f}" r="{sw / 2:.1f}" '
                   f'fill="{col}" stroke="#1d1d1d" stroke-width=".6"/>')
        add(
            f'<g class="{cls}">{sym}<text x="{lx + sw + lfs * 0.4:.1f}" y="{ly + sw / 2:.1f}" '
            f'dominant-baseline="central">{escape(label)}</text></g>'
        )
        lx += w
    add("</g>")

    vw = board_w
    vh = legend_bottom - vy0
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="rc-board" '
        f'viewBox="{vx0:.1f} {vy0:.1f} {vw:.1f} {vh:.1f}" width="{vw:.0f}" height="{vh:.0f}" '
        f'style="max-width:100%;height:auto" font-family="sans-serif" '
        f'data-game="{escape(str(state.get("game", "")))}" data-seq="{escape(str(state.get("seq", "")))}">'
        f'<rect class="rc-bg" x="{vx0:.1f}" y="{vy0:.1f}" width="{vw:.1f}" height="{vh:.1f}" fill="#fffdf8"/>'
    )
    return head + "".join(out) + "</svg>"


def legend_html(state: dict) -> str:
    """Small inline HTML legend: one coloured swatch + name (faction, score) per player."""
    players = state.get("players") or {}
    colours = player_colours(state)
    parts = ['<div class="rc-player-legend" style="display:flex;flex-wrap:wrap;gap:.9em;'
             'font-family:sans-serif;font-size:.9em">']
    for pid, p in players.items():
        p = p or {}
        bits = [escape(str(p.get("name") or pid))]
        extra = [escape(str(p[k])) for k in ("faction",) if p.get(k)]
        if "score" in p:
            extra.append(f"score {escape(str(p['score']))}")
        if extra:
            bits.append(f'<span style="opacity:.7">({", ".join(extra)})</span>')
        parts.append(
            f'<span data-player="{escape(str(pid))}" style="display:inline-flex;align-items:center;gap:.35em">'
            f'<span style="display:inline-block;width:.9em;height:.9em;border-radius:50%;'
            f'background:{colours[pid]};border:1px solid #222"></span>{" ".join(bits)}</span>'
        )
    parts.append("</div>")
    return "".join(parts)
