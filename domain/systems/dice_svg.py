"""Small inline SVG dice and tokens for the magic and initiative pictures (pure string building).

Public API:
    d6_svg(face, size=22, fill=..., pip=..., stroke=..., title=None, cls="rc-d6") -> str
    token_svg(size=14, fill=..., stroke=..., title=None, cls="rc-token") -> str
"""

from __future__ import annotations

import math
from html import escape

__all__ = ["d6_svg", "token_svg", "PIPS"]

# Pip positions on a 0..1 square, per face.
_L, _M, _H = 0.27, 0.5, 0.73
PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((_M, _M),),
    2: ((_L, _L), (_H, _H)),
    3: ((_L, _L), (_M, _M), (_H, _H)),
    4: ((_L, _L), (_H, _L), (_L, _H), (_H, _H)),
    5: ((_L, _L), (_H, _L), (_M, _M), (_L, _H), (_H, _H)),
    6: ((_L, _L), (_H, _L), (_L, _M), (_H, _M), (_L, _H), (_H, _H)),
}


def _face(face) -> int | None:
    try:
        value = int(face)
    except (TypeError, ValueError):
        return None
    return value if value in PIPS else None


def d6_svg(face=None, size: float = 22, fill: str = "#fffdf6", pip: str = "#222", stroke: str = "#333",
           title: str | None = None, cls: str = "rc-d6") -> str:
    """A six-sided die showing ``face`` (1–6) as pips; any other face gives a blank die with a small star
    (an unrolled die, e.g. in a magic dice pool)."""
    value = _face(face)
    s = float(size)
    radius = s * 0.09
    parts = [f'<svg class="{escape(cls)}" xmlns="http://www.w3.org/2000/svg" width="{s:g}" height="{s:g}" '
             f'viewBox="0 0 {s:g} {s:g}" role="img" data-face="{value if value is not None else ""}">']
    if title:
        parts.append(f"<title>{escape(title)}</title>")
    parts.append(f'<rect x="1" y="1" width="{s - 2:g}" height="{s - 2:g}" rx="{s * 0.18:.1f}" '
                 f'fill="{escape(fill)}" stroke="{escape(stroke)}" stroke-width="1.2"/>')
    if value is None:
        c, r1, r2 = s / 2, s * 0.26, s * 0.1
        pts = []
        for k in range(8):
            r = r1 if k % 2 == 0 else r2
            a = math.pi / 4 * k - math.pi / 2
            pts.append(f"{c + r * math.cos(a):.1f},{c + r * math.sin(a):.1f}")
        parts.append(f'<polygon points="{" ".join(pts)}" fill="{escape(pip)}"/>')
    else:
        for x, y in PIPS[value]:
            parts.append(f'<circle cx="{1 + x * (s - 2):.1f}" cy="{1 + y * (s - 2):.1f}" r="{radius:.1f}" '
                         f'fill="{escape(pip)}"/>')
    parts.append("</svg>")
    return "".join(parts)


def token_svg(size: float = 14, fill: str = "#5b3f99", stroke: str = "#2b1a55", title: str | None = None,
              cls: str = "rc-token") -> str:
    """A round token (a veil token)."""
    s = float(size)
    inner = f"<title>{escape(title)}</title>" if title else ""
    return (f'<svg class="{escape(cls)}" xmlns="http://www.w3.org/2000/svg" width="{s:g}" height="{s:g}" '
            f'viewBox="0 0 {s:g} {s:g}" role="img">{inner}'
            f'<circle cx="{s / 2:g}" cy="{s / 2:g}" r="{s / 2 - 1:g}" fill="{escape(fill)}" '
            f'stroke="{escape(stroke)}" stroke-width="1"/>'
            f'<circle cx="{s / 2:g}" cy="{s / 2:g}" r="{s / 5:g}" fill="none" stroke="#d9c8ff" '
            f'stroke-width="1"/></svg>')
