"""The magic phase picture (dashboard/magic.py): parsed as XML, text escaped."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

from domain.systems.t9a.magic import cast_outcome, render_magic
from htmlcheck import by_class, one, text
from htmlcheck import parse as parse_picture

GAMES = Path(__file__).resolve().parents[1] / "games"


def parse(html: str) -> ET.Element:
    return parse_picture(html, "rc-magic")


def state(**magic) -> dict:
    return {
        "game": "g", "system": "t9a", "seq": 6, "turn": 1, "phase": "magic",
        "players": {"p1": {"name": "Anna", "magic_dice": 3, "veil": 2, "flux_left": list("1245678")},
                    "p2": {"name": "Boris", "magic_dice": 5, "veil": 0, "flux_left": list("2345678")}},
        "magic": {"active": "p1", "step": "siphoned", "flux_card": "3", "miscast_modifier": 0, "cast": None, **magic},
        "wizards": {"druid": {"player": "p1", "spells": ["heal"], "fleeing": False},
                    "shaman": {"player": "p2", "spells": ["bolt", "wand"], "fleeing": True}},
        "spells": {"heal": {"name": "Heal", "path": "druidism", "kind": "normal", "casting_value": 6,
                            "boosted_value": 9},
                   "bolt": {"name": "Spirit Bolt", "kind": "normal", "casting_value": 8, "boosted_value": None},
                   "wand": {"name": "Wand", "kind": "bound", "casting_value": None, "boosted_value": None,
                            "power_level": [4, 8]}},
    }


def cast(**fields) -> dict:
    return {"seq": 6, "wizard": "druid", "spell": "heal", "total": 11, "passed": True, "dispelled": False,
            "miscast": False, "step": "A", **fields}


def test_pools_veil_and_flux_cards() -> None:
    root = parse(render_magic(state()))
    anna, boris = one(root, "rc-magic-side", player="p1"), one(root, "rc-magic-side", player="p2")
    assert "rc-active" in anna.get("class") and "rc-active" not in boris.get("class")
    assert len(by_class(one(anna, "rc-pool"), "rc-d6")) == 3 and len(by_class(one(boris, "rc-pool"), "rc-d6")) == 5
    assert len(by_class(one(anna, "rc-veil"), "rc-token")) == 2 and not by_class(one(boris, "rc-veil"), "rc-token")
    # Anna drew card 3 this phase; Boris used card 1 in an earlier one
    assert {c.get("data-card"): c.get("data-status") for c in by_class(anna, "rc-flux-card")}["3"] == "drawn"
    statuses = {c.get("data-card"): c.get("data-status") for c in by_class(boris, "rc-flux-card")}
    assert statuses == {"1": "used", **{str(n): "left" for n in range(2, 9)}}
    assert "rc-used" in one(boris, "rc-flux-card", card="1").get("class")
    drawn = one(root, "rc-drawn-card")
    assert drawn.get("data-card") == "3" and "5 magic dice" in text(drawn) and "miscast +0" in text(drawn)
    assert "fleeing" in text(one(root, "rc-wizard", wizard="shaman"))
    assert "No casting attempt yet" in text(one(root, "rc-cast-none"))


def test_flux_card_modifier_and_no_phase() -> None:
    root = parse(render_magic(state(flux_card="8", miscast_modifier=-1)))
    assert one(root, "rc-drawn-card").get("data-miscast-modifier") == "-1"
    assert "miscast -1" in text(one(root, "rc-drawn-card"))
    quiet = parse(render_magic(state(active=None, step=None, flux_card=None)))
    assert "no magic phase yet" in text(quiet) and not by_class(quiet, "rc-cast")


def test_cast_outcomes() -> None:
    assert cast_outcome(cast()) == "passed"
    assert cast_outcome(cast(passed=False)) == "failed"
    assert cast_outcome(cast(dispelled=True)) == "dispelled"
    root = parse(render_magic(state(cast=cast(miscast=True, step="B"))))
    c = one(root, "rc-cast")
    assert (c.get("data-total"), c.get("data-value"), c.get("data-result"), c.get("data-miscast")) == (
        "11", "6", "passed", "true")
    assert "≥" in text(c) and by_class(c, "rc-miscast")
    assert one(root, "rc-spell", spell="heal").get("class") == "rc-spell rc-cast-now"
    steps = {s.get("data-cast-step"): s.get("class") for s in by_class(c, "rc-chip")}
    assert "rc-now" in steps["B"] and "rc-done" in steps["A"]

    failed = one(parse(render_magic(state(cast=cast(total=4, passed=False)))), "rc-cast")
    assert failed.get("data-result") == "failed" and "<" in text(failed)
    assert all("rc-skipped" in s.get("class") for s in by_class(failed, "rc-chip") if s.get("data-cast-step") != "A")
    bound = one(parse(render_magic(state(cast=cast(spell="wand", total=4)))), "rc-cast")
    assert bound.get("data-value") == "4" and "power level 4" in text(bound)


def test_events_add_dice_version_dispel_and_miscast() -> None:
    """The golden game's events: dice 2,2,2,5 against the casting value, the dispel, the miscast."""
    lines = [json.loads(l) for l in (GAMES / "t9a-miscast-before-spell-and-attribute.rollcall.jsonl")
             .read_text(encoding="utf-8").splitlines() if l.strip() and not l.startswith("#")]
    header, body = lines[0], lines[1:]
    from domain.game import fold

    events = [{"seq": l["seq"], "type": l["type"], "payload": l} for l in body]
    st = fold(header, [l for l in body if l["seq"] <= 9]).to_json()
    c = one(parse(render_magic(st, events)), "rc-cast")
    assert [d.get("data-face") for d in by_class(c, "rc-d6")] == ["2", "2", "2", "5", "1", "4"]
    dispel = text(one(c, "rc-dispel"))
    assert "Dispel by shaman" in dispel and "5 < 11" in dispel and dispel.endswith("failed")
    assert "witchfire" in text(one(c, "rc-miscast-effect"))
    # events after the state's seq are not shown
    st8 = fold(header, [l for l in body if l["seq"] <= 8]).to_json()
    assert not by_class(parse(render_magic(st8, events)), "rc-miscast-effect")


def test_text_is_escaped() -> None:
    s = state(cast=cast(wizard='<b>"x"</b>'))
    s["players"]["p1"]["name"] = "<script>alert(1)</script> & co"
    s["wizards"] = {'<b>"x"</b>': {"player": "p1", "spells": ["heal"], "fleeing": False}}
    s["spells"]["heal"]["name"] = "Heal <i>me</i>"
    html = render_magic(s)
    assert "<script>" not in html and "<i>me</i>" not in html and '<b>"x"</b>' not in html
    root = parse(html)  # well-formed: every text escaped
    assert "<script>alert(1)</script> & co" in text(one(root, "rc-magic-side", player="p1"))
    assert one(root, "rc-cast").get("data-wizard") == '<b>"x"</b>'
    assert "Heal <i>me</i>" in text(one(root, "rc-cast"))
