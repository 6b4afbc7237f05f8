"""Behaviour of the SVG board renderer (dashboard/board.py)."""

from __future__ import annotations

import copy
import math
import xml.etree.ElementTree as ET

import pytest

from domain.systems import system_for
from domain.systems.tornscape import board
from domain.systems.tornscape.board import player_colours, render_board

NS = "{http://www.w3.org/2000/svg}"
SQRT3 = math.sqrt(3)


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def find_id(root: ET.Element, element_id: str) -> ET.Element:
    found = [e for e in root.iter() if e.get("id") == element_id]
    assert len(found) == 1, f"expected exactly one element with id={element_id!r}, got {len(found)}"
    return found[0]


def centre(g: ET.Element) -> tuple[float, float]:
    """Where a model's group is drawn (its translate)."""
    x, y = g.get("transform").removeprefix("translate(").rstrip(")").split(",")
    return float(x), float(y)


def by_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def offset_to_axial(col: int, row: int) -> tuple[int, int]:
    return col - (row - (row & 1)) // 2, row


def make_state(**over) -> dict:
    state = {
        "game": "g1", "system": "tornscape", "seq": 12, "last_seq": 40, "turn": 2,
        "phase": "activation",
        "board": {"width": 24, "height": 18},
        "players": {
            "p1": {"name": "Anna", "faction": "engeln", "score": 0},
            "p2": {"name": "Ben", "faction": "dusk", "score": 2},
        },
        "models": {
            "m1": {"player": "p1", "name": "Engeln Swordsman", "size": "infantry", "at": [[2, 4]]},
            "m2": {"player": "p2", "name": "Dusk Reaver", "size": "infantry", "at": [[10, 4]]},
            "L1": {"player": "p1", "name": "Engeln Angel", "size": "large", "at": [[6, 10]]},
            "H1": {"player": "p2", "name": "Great Wyrm", "size": "huge", "at": [[10, 12], [12, 13]]},
        },
        "terrain": {
            "rock1": {"kind": "solid", "hexes": [[5, 3], [6, 3]]},
            "fire": {"kind": "burning_ground", "hexes": [[6, 7]]},
            "bog": {"kind": "deadly_bog", "hexes": [[4, 15]]},
            "wood": {"kind": "cover", "hexes": [[13, 8]]},
        },
        "markers": {
            "k1": {"kind": "portable", "at": [4, 4], "linked_to": None},
            "k2": {"kind": "bound", "at": [11, 5], "linked_to": "m2"},
        },
        "vortices": {
            "v1": {"at": [6, 3], "facing": 0, "ether": 3, "allegiance": "creation", "removed": False},
            "v2": {"at": [17, 5], "facing": 4, "ether": 0, "allegiance": None, "removed": True},
        },
    }
    state.update(over)
    return state


# --------------------------------------------------------------------------- structure
def test_output_is_a_single_well_formed_self_contained_svg_element():
    svg = render_board(make_state())
    root = parse(svg)
    assert root.tag == f"{NS}svg"
    assert len(root.get("viewBox").split()) == 4
    assert "href" not in svg  # no external resources (images, fonts, stylesheets)
    assert "<script" not in svg


def test_every_on_board_hex_is_drawn_as_exactly_one_polygon():
    for width, height in [(24, 18), (5, 4), (1, 1)]:
        root = parse(render_board(make_state(board={"width": width, "height": height})))
        hexes = [e for e in root.iter(f"{NS}polygon") if "rc-hex" in (e.get("class") or "").split()]
        assert len(hexes) == width * height
        expected = {
            "%d,%d" % offset_to_axial(col, row) for row in range(height) for col in range(width)
        }
        assert {e.get("data-hex") for e in hexes} == expected


def _pixel(q: float, r: float, size: float) -> tuple[float, float]:
    return size * SQRT3 * (q + r / 2), size * 1.5 * r


def _edge_between(a: tuple[int, int], b: tuple[int, int], size: float) -> frozenset:
    """The two corners shared by adjacent hexes a and b, rounded like the renderer."""
    ax, ay = _pixel(*a, size)
    bx, by = _pixel(*b, size)
    mx, my = (ax + bx) / 2, (ay + by) / 2
    ux, uy = (bx - ax), (by - ay)
    n = math.hypot(ux, uy)
    half = size / 2  # half the edge length of a regular hexagon of circumradius size
    px, py = -uy / n * half, ux / n * half
    return frozenset(
        (round(mx + s * px, 1), round(my + s * py, 1)) for s in (1, -1)
    )


def _hexon_segments(root: ET.Element) -> set[frozenset]:
    (path,) = by_class(root, "rc-hexons")
    segs = set()
    for part in path.get("d").split("M")[1:]:
        a, b = part.split("L")
        segs.add(frozenset(tuple(round(float(v), 1) for v in p.split(",")) for p in (a, b)))
    return segs


def test_hexon_outline_follows_the_outer_boundary_of_each_hexon_only():
    size = 16
    root = parse(render_board(make_state(), hex_size=size))
    segs = _hexon_segments(root)
    centre = (8, 4)  # (3q + r) % 7 == 0 and the whole hexon is on the 24x18 board
    dirs = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
    members = [centre] + [(centre[0] + dq, centre[1] + dr) for dq, dr in dirs]
    inner = outer = 0
    for h in members:
        for dq, dr in dirs:
            n = (h[0] + dq, h[1] + dr)
            edge = _edge_between(h, n, size)
            if n in members:
                assert edge not in segs, f"inner edge {h}->{n} must not be outlined"
                inner += 1
            else:
                assert edge in segs, f"boundary edge {h}->{n} must be outlined"
                outer += 1
    assert outer == 18 and inner == 24  # 12 inner edges, each seen from both sides


def test_terrain_kinds_get_distinct_fills_and_appear_in_the_legend():
    root = parse(render_board(make_state()))
    hexes = {e.get("data-hex"): e for e in by_class(root, "rc-hex")}
    terrain = {e.get("data-hex"): e for e in by_class(root, "rc-terrain-hex")}
    pieces = {e.get("data-terrain"): e for e in by_class(root, "rc-terrain")}
    fills = {}
    for hex_id, kind in [("5,3", "solid"), ("6,7", "burning_ground"), ("4,15", "deadly_bog"),
                         ("13,8", "cover")]:
        assert terrain[hex_id].get("data-terrain") == kind
        fills[kind] = pieces[kind].get("fill")
    assert len(set(fills.values())) == 4
    assert hexes["0,0"].get("fill") is None and "0,0" not in terrain  # a plain hex has the light board fill
    legend_text = " ".join(t.text for g in by_class(root, "rc-legend") for t in g.iter(f"{NS}text"))
    for label in ["Solid", "Burning ground", "Deadly bog", "Cover", "Anna", "Ben"]:
        assert label in legend_text


# --------------------------------------------------------------------------- models
def test_each_model_is_a_group_with_its_id_its_name_a_short_label_and_a_tooltip_in_words():
    state = make_state()
    root = parse(render_board(state))
    labels = set()
    for mid, m in state["models"].items():
        g = find_id(root, f"model-{mid}")
        (label,) = [t.text for t in g.iter(f"{NS}text")]
        labels.add(label)
        assert len(label) <= 3 and label[0] == m["name"][0]  # a few letters of the name, fitting the base
        assert g.get("data-name") == m["name"]
        title = g.find(f"{NS}title").text
        player_name = state["players"][m["player"]]["name"]
        assert m["name"] in title and player_name in title and m["size"] in title
        assert mid not in title.split()  # a name, not an id, in what a person reads
        assert g.get("data-at") == ";".join(f"{q},{r}" for q, r in m["at"])
        assert g.get("data-size") == m["size"]
    assert len(labels) == len(state["models"])  # never two models with one label


def test_labels_fit_inside_the_model():
    state = make_state()
    state["models"]["m1"]["name"] = "Engeln Swordsman of the Very Long Name"
    root = parse(render_board(state, hex_size=16))
    g = find_id(root, "model-m1")
    (label,) = g.iter(f"{NS}text")
    radius = float(g.find(f"{NS}circle").get("r"))
    assert 0.62 * float(label.get("font-size")) * len(label.text) <= 2 * radius


def test_model_sizes_have_distinct_shapes():
    size = 16
    root = parse(render_board(make_state(), hex_size=size))
    inf = find_id(root, "model-m1").find(f"{NS}circle")
    large = find_id(root, "model-L1").find(f"{NS}circle")
    assert float(large.get("r")) > float(inf.get("r"))
    cx, cy = _pixel(6, 10, size)
    assert centre(find_id(root, "model-L1")) == pytest.approx((cx, cy), abs=0.1)
    huge = find_id(root, "model-H1")
    assert huge.get("data-at") == "10,12;12,13"
    body = [p for p in huge.iter(f"{NS}polygon") if "rc-huge-body" in (p.get("class") or "")]
    assert len(body) == 1 and len(body[0].get("points").split()) == 2
    assert float(body[0].get("stroke-width")) > float(large.get("r"))  # thick, spans the hexons


def test_moving_a_model_changes_its_drawn_position():
    state = make_state()
    before = find_id(parse(render_board(state)), "model-m1")
    moved = copy.deepcopy(state)
    moved["models"]["m1"]["at"] = [[3, 4]]
    after = find_id(parse(render_board(moved)), "model-m1")
    assert before.get("data-at") == "2,4" and after.get("data-at") == "3,4"
    (x0, y0), (x1, y1) = centre(before), centre(after)
    assert x1 - x0 == pytest.approx(16 * SQRT3, abs=0.2)
    assert y1 == y0


def test_player_colours_follow_player_order_first_blue_second_red():
    state = make_state()
    colours = player_colours(state)
    r1, g1, b1 = (int(colours["p1"][i:i + 2], 16) for i in (1, 3, 5))
    r2, g2, b2 = (int(colours["p2"][i:i + 2], 16) for i in (1, 3, 5))
    assert b1 > r1 and r2 > b2
    root = parse(render_board(state))
    assert find_id(root, "model-m1").get("fill") == colours["p1"]
    assert find_id(root, "model-m2").get("fill") == colours["p2"]
    swapped = make_state(players=dict(reversed(list(state["players"].items()))))
    assert player_colours(swapped) == {"p2": colours["p1"], "p1": colours["p2"]}
    assert render_board(state) == render_board(copy.deepcopy(state))  # deterministic


def test_model_without_position_is_hidden():
    state = make_state()
    state["models"]["gone"] = {"player": "p1", "name": "Casualty", "size": "infantry", "at": []}
    root = parse(render_board(state))
    assert find_id(root, "model-gone").get("display") == "none"
    assert find_id(root, "model-m1").get("display") is None


# --------------------------------------------------------------------------- markers, vortices
def test_markers_are_diamonds_when_portable_and_squares_when_bound():
    root = parse(render_board(make_state()))
    k1, k2 = find_id(root, "marker-k1"), find_id(root, "marker-k2")
    assert len(k1.find(f"{NS}polygon").get("points").split()) == 4
    assert k2.find(f"{NS}rect") is not None
    assert k1.find(f"{NS}text").text == "k1" and k2.find(f"{NS}text").text == "k2"
    assert k1.get("data-at") == "4,4"


def test_removed_vortex_is_faded_and_live_vortex_shows_ether_and_facing():
    root = parse(render_board(make_state()))
    live, removed = find_id(root, "vortex-v1"), find_id(root, "vortex-v2")
    assert float(removed.get("opacity")) == pytest.approx(0.35)
    assert live.get("opacity") is None
    assert live.get("data-at") == "6,3"
    assert [t.text for t in live.iter(f"{NS}text") if "rc-ether" in (t.get("class") or "")] == ["3"]
    (facing,) = by_class(live, "rc-vortex-facing")
    assert facing.get("data-facing") == "0"


def test_vortex_colour_depends_on_allegiance():
    vortices = {
        a or "none": {"at": [6, 3], "facing": 0, "ether": 1, "allegiance": a, "removed": False}
        for a in ["creation", "destruction", "life", "death", None]
    }
    root = parse(render_board(make_state(vortices=vortices)))
    colours = {vid: find_id(root, f"vortex-{vid}").get("color") for vid in vortices}
    assert find_id(root, "vortex-none").find(f"{NS}circle").get("stroke") == "currentColor"
    assert len(set(colours.values())) == 5


def test_state_without_vortices_or_markers_renders():
    root = parse(render_board(make_state(vortices={}, markers={}, terrain={})))
    assert not by_class(root, "rc-vortex") and not by_class(root, "rc-marker")


# --------------------------------------------------------------------------- escaping
def test_malicious_ids_and_names_are_escaped():
    evil = '<script>alert("x")</script>'
    state = make_state()
    state["players"]["p1"]["name"] = evil
    state["models"]['m<&"1'] = {"player": "p1", "name": evil, "size": "infantry", "at": [[1, 1]]}
    state["markers"]["<b>"] = {"kind": "portable", "at": [2, 2], "linked_to": None}
    state["terrain"]["<i>"] = {"kind": "<evil kind>", "hexes": [[3, 3]]}
    svg = render_board(state)
    assert "<script" not in svg and "<b>" not in svg and "<i>" not in svg
    root = parse(svg)  # still well-formed
    g = find_id(root, 'model-m<&"1')
    assert evil in g.find(f"{NS}title").text and g.get("id") == 'model-m<&"1'
    presentation = system_for("tornscape").presentation
    assert "<script" not in presentation.status_look(state, board.state_names(state))[("rc-status", "html")]


# --------------------------------------------------------------------------- highlight
def test_highlight_rings_models_marks_hexes_and_draws_the_path():
    plain = parse(render_board(make_state()))
    assert not by_class(plain, "rc-hl-ring") and not by_class(plain, "rc-hl-path")

    hl = {"models": ["m1", "H1", "nope"], "hexes": [[3, 4]], "path": [[1, 4], [2, 4]]}
    root = parse(render_board(make_state(), highlight=hl))
    rings = by_class(root, "rc-hl-ring")
    assert sorted(r.get("data-model") for r in rings) == ["H1", "m1"]
    ring_at = {r.get("data-model"): r.get("data-at") for r in rings}
    assert ring_at["m1"] == find_id(root, "model-m1").get("data-at")  # the ring sits on the model
    assert ring_at["H1"] == find_id(root, "model-H1").get("data-at")
    (circle,) = rings[[r.get("data-model") for r in rings].index("m1")].iter(f"{NS}circle")
    assert (float(circle.get("cx")), float(circle.get("cy"))) == pytest.approx(centre(find_id(root, "model-m1")))
    assert [h.get("data-hex") for h in by_class(root, "rc-hl-hex")] == ["3,4"]
    (path,) = by_class(root, "rc-hl-path")
    assert path.get("data-path") == "1,4;2,4"
    (line,) = path.iter(f"{NS}polyline")
    assert len(line.get("points").split()) == 2


# --------------------------------------------------------------------------- legend / speed
def test_status_line_lists_players_with_their_colours():
    state = make_state()
    presentation = system_for("tornscape").presentation
    html = presentation.status_look(state, board.state_names(state))[("rc-status", "html")]
    colours = player_colours(state)
    assert "Anna" in html and "Ben" in html
    assert colours["p1"] in html and colours["p2"] in html
    assert html.index("Anna") < html.index("Ben")


def test_aligned_vortex_shows_its_domain_symbol():
    import xml.etree.ElementTree as ET

    state = {"game": "g", "seq": 1, "board": {"width": 8, "height": 8},
             "players": {"p1": {"name": "A"}, "p2": {"name": "B"}}, "models": {}, "terrain": {}, "markers": {},
             "vortices": {"v1": {"at": [2, 1], "facing": 0, "ether": 2, "allegiance": "destruction", "removed": False},
                          "v2": {"at": [4, 2], "facing": 1, "ether": 1, "allegiance": None, "removed": False}}}
    root = ET.fromstring(render_board(state))
    ns = {"s": "http://www.w3.org/2000/svg"}
    symbols = {g.get("id"): [t.text for t in g.iter("{http://www.w3.org/2000/svg}text")
                             if "rc-allegiance" in (t.get("class") or "") and t.text]
               for g in root.iterfind(".//s:g[@class='rc-vortex']", ns)}
    assert symbols["vortex-v1"] == ["DE"]
    assert symbols["vortex-v2"] == []
