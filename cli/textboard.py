"""The state at one moment as a text board: one character per hex, odd rows shifted."""

from __future__ import annotations

import string

TERRAIN = {"solid": "#", "burning_ground": "^", "deadly_bog": "%", "cover": '"'}


def text_board(state: dict) -> str:
    if state.get("system") == "t9a":
        return magic_text(state)
    if state.get("system") == "claustrophobia":
        return initiative_text(state)
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


def _head(state: dict) -> str:
    return f"{state['game']}  seq {state['seq']}/{state.get('last_seq', state['seq'])}  turn {state.get('turn')}"


def magic_text(state: dict) -> str:
    magic = state.get("magic") or {}
    lines = [_head(state) + f"  magic phase of {magic.get('active') or '-'} ({magic.get('step') or 'not started'})"]
    if magic.get("flux_card"):
        lines.append(f"Flux card {magic['flux_card']}, miscast modifier {magic.get('miscast_modifier', 0):+d}")
    for pid, p in state["players"].items():
        lines.append(f"  {pid} {p['name']}: {p.get('magic_dice', 0)} magic dice, {p.get('veil', 0)} veil tokens, "
                     f"Flux cards left {' '.join(p.get('flux_left', [])) or 'none'}, {p['score']} VP")
    cast = magic.get("cast")
    if cast:
        outcome = "dispelled" if cast["dispelled"] else ("passed" if cast["passed"] else "failed")
        lines.append(f"last cast: {cast['wizard']} {cast['spell']} total {cast['total']} {outcome}"
                     + (", miscast" if cast["miscast"] else ""))
    return "\n".join(lines)


def initiative_text(state: dict) -> str:
    lines = [_head(state) + f"  phase {state.get('phase') or '-'}  human player {state.get('human')}"]
    for wid, w in state.get("warriors", {}).items():
        slots = " ".join(("[" + str(n) + "]" if w["die"] == int(n) else f" {n} ") if line["available"] else " x "
                         for n, line in w["lines"].items())
        status = "EXHAUSTED" if w["exhausted"] else f"MVT {w['mvt']} CBT {w['cbt']} DEF {w['def']}"
        lines.append(f"  {wid:<18} {slots}  {status if w['die'] else 'no die'}{'' if w['in_play'] else ' (out)'}")
    initiative = state.get("initiative")
    if initiative:
        aside = [initiative["faces"][i] for i in initiative["set_aside"]]
        lines.append(f"action dice {initiative['faces']}; not taken: {aside or 'none'}")
    return "\n".join(lines)
