"""The state at one moment as a text board: one character per hex, odd rows shifted."""

from __future__ import annotations

import string

TERRAIN = {"solid": "#", "burning_ground": "^", "deadly_bog": "%", "cover": '"'}


def text_board(state: dict) -> str:
    width, height = state["board"]["width"], state["board"]["height"]
    cells: dict[tuple[int, int], str] = {}
    for piece in state["terrain"].values():
        for q, r in piece["hexes"]:
            cells[(q, r)] = TERRAIN.get(piece["kind"], "?")
    for marker in state["markers"].values():
        cells[tuple(marker["at"])] = "*"
    vortex_lines = []
    for vid, vortex in state.get("vortices", {}).items():
        if vortex["removed"]:
            vortex_lines.append(f"  {vid} removed (last at [{vortex['at'][0]},{vortex['at'][1]}])")
            continue
        for h in _footprint({"size": "large", "at": [vortex["at"]]}):
            cells.setdefault(h, "@")
        vortex_lines.append(f"  {vid} at [{vortex['at'][0]},{vortex['at'][1]}] facing {vortex['facing']}, "
                            f"{vortex['ether']} ether, {vortex['allegiance'] or 'unaligned'}")
    players = list(state["players"])
    symbols = iter(string.ascii_uppercase + string.digits)
    lower = iter(string.ascii_lowercase + "!$&+=?@")
    legend = []
    for mid, model in state["models"].items():
        symbol = next(symbols if model["player"] == players[0] else lower, "?")
        legend.append(f"  {symbol} {mid} ({model['player']}, {model['size']}) at "
                      + " ".join(f"[{q},{r}]" for q, r in model["at"]))
        for hexes in _footprint(model):
            cells[hexes] = symbol
    lines = []
    for row in range(height):
        shift = " " if row % 2 else ""
        line = []
        for col in range(width):
            q = col - (row - (row & 1)) // 2
            line.append(cells.get((q, row), "."))
        lines.append(f"{row:3d} {shift}" + " ".join(line))
    head = (f"{state['game']}  seq {state['seq']}/{state.get('last_seq', state['seq'])}  turn {state.get('turn')}"
            f"  phase {state.get('phase') or '-'}")
    scores = "  ".join(f"{pid} {p['name']} ({p.get('faction') or '-'}): {p['score']} VP"
                       + (f", {p['crystals']} crystals" if "crystals" in p else "")
                       for pid, p in state["players"].items())
    key = "  # solid  ^ burning ground  % deadly bog  \" cover  * marker  @ vortex"
    vortices = ["vortices:", *vortex_lines] if vortex_lines else []
    return "\n".join([head, scores, *lines, "models:", *legend, *vortices, key])


def _footprint(model: dict) -> list[tuple[int, int]]:
    around = ((0, 0), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
    if model["size"] == "infantry":
        return [tuple(model["at"][0])]
    return [(q + dq, r + dr) for q, r in model["at"] for dq, dr in around]
