"""The initiative picture (dashboard/initiative.py): warrior cards and action dice, parsed as XML."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from domain.systems.claustrophobia.initiative import dice_owners, render_initiative
from htmlcheck import by_class, one, text
from htmlcheck import parse as parse_picture


def parse(html: str) -> ET.Element:
    return parse_picture(html, "rc-init")


def lines(**given: dict) -> dict:
    return {str(n): given.get(str(n), {"available": False}) for n in range(1, 7)}


def warrior(**fields) -> dict:
    return {"kind": "blade_for_hire", "line": None, "die": None, "exhausted": False, "mvt": None, "cbt": None,
            "def": None, "sceptre": False, "in_play": True, "gifts": {},
            "lines": lines(**{"2": {"available": True, "mvt": 1, "cbt": 2, "def": 4}}), **fields}


def state(phase: str = "action", **warriors) -> dict:
    return {"game": "g", "system": "claustrophobia", "seq": 7, "turn": 1, "phase": phase, "human": "p1",
            "players": {"p1": {"name": "Anna"}, "p2": {"name": "Boris"}},
            "warriors": warriors,
            "initiative": {"roll": 3, "faces": [5, 2, 6], "taken": [0, 1], "set_aside": [2]}}


REDEEMER = warrior(kind="redeemer", sceptre=True, die=5, line=5, mvt=0, cbt=0, exhausted=True,
                   gifts={"5": "aura_of_foresight"}, **{"def": 3},
                   lines=lines(**{"5": {"available": False, "mvt": 1, "cbt": 1, "def": 5}}))
BLADE = warrior(die=2, line=2, mvt=1, cbt=2, **{"def": 4})


def test_lines_die_slot_and_gift() -> None:
    root = parse(render_initiative(state(blade=BLADE, redeemer=REDEEMER)))
    blade = one(root, "rc-warrior", warrior="blade")
    row = one(blade, "rc-line", line="2")
    assert row.get("data-status") == "available" and "rc-current" in row.get("class")
    assert [td.text for td in row.findall("td")][2:5] == ["1", "2", "4"]
    assert one(row, "rc-slot").get("data-die") == "2" and by_class(row, "rc-d6")[0].get("data-face") == "2"
    assert all(one(blade, "rc-line", line=n).get("data-status") == "none" for n in "13456")
    assert not by_class(one(blade, "rc-line", line="3"), "rc-d6")  # an empty slot
    assert "Line 2: MVT 1 · CBT 2 · DEF 4" in text(one(blade, "rc-warrior-stats"))


def test_exhausted_warrior_on_a_lost_line() -> None:
    root = parse(render_initiative(state(redeemer=REDEEMER)))
    red = one(root, "rc-warrior", warrior="redeemer")
    assert red.get("data-exhausted") == "true" and "rc-exhausted" in red.get("class")
    assert by_class(red, "rc-sceptre") and by_class(red, "rc-exhausted-badge")
    row = one(red, "rc-line", line="5")
    assert row.get("data-status") == "lost" and one(row, "rc-slot").get("data-die") == "5"
    assert one(row, "rc-gift").get("data-gift") == "aura_of_foresight" and "aura of foresight" in text(row)
    assert "DEF 3 · MVT 0 · CBT 0" in text(one(red, "rc-warrior-stats"))


def test_out_of_play_is_faded() -> None:
    root = parse(render_initiative(state(blade=warrior(in_play=False))))
    blade = one(root, "rc-warrior", warrior="blade")
    assert blade.get("data-in-play") == "false" and "rc-out" in blade.get("class")
    assert "out of play" in text(blade)


def test_action_dice_taken_and_set_aside() -> None:
    s = state(blade=BLADE, redeemer=REDEEMER)
    assert dice_owners(s) == {0: "redeemer", 1: "blade"}
    dice = by_class(parse(render_initiative(s)), "rc-action-die")
    assert [(d.get("data-face"), d.get("data-status")) for d in dice] == [
        ("5", "taken"), ("2", "taken"), ("6", "set-aside")]
    assert "→ redeemer" in text(dice[0]) and "set aside" in text(dice[2])
    # during the initiative the dice not given yet are not set aside
    during = by_class(parse(render_initiative(state("initiative", blade=BLADE, redeemer=REDEEMER))), "rc-action-die")
    assert during[2].get("data-status") == "free"
    none = state(blade=warrior())
    none["initiative"] = None
    assert "not rolled yet" in text(parse(render_initiative(none)))


def test_focus_follows_the_event() -> None:
    event = {"seq": 8, "type": "LineLost", "payload": {"type": "LineLost", "warrior": "redeemer", "line": 5}}
    root = parse(render_initiative(state(blade=BLADE, redeemer=REDEEMER), event))
    assert "rc-focus" in one(root, "rc-warrior", warrior="redeemer").get("class")
    assert "rc-focus" not in one(root, "rc-warrior", warrior="blade").get("class")
    assert "rc-focus-line" in one(one(root, "rc-warrior", warrior="redeemer"), "rc-line", line="5").get("class")
    assert "rc-focus-line" not in one(one(root, "rc-warrior", warrior="blade"), "rc-line", line="5").get("class")
    assign = {"seq": 4, "type": "ActionDieAssigned", "payload": {"warrior": "blade", "roll": 3, "index": 1}}
    dice = by_class(parse(render_initiative(state(blade=BLADE), assign)), "rc-action-die")
    assert "rc-focus" in dice[1].get("class")


def test_text_is_escaped() -> None:
    nasty = '<img src=x onerror="alert(1)">'
    s = state(**{nasty: warrior(kind="<b>kind</b>", die=2, line=2, gifts={"2": "<i>gift</i> & more"})})
    s["players"]["p1"]["name"] = "Anna <script>"
    html = render_initiative(s)
    assert "<img" not in html and "<script>" not in html and "<i>gift" not in html
    root = parse(html)
    w = one(root, "rc-warrior", warrior=nasty)
    assert "<b>kind</b>" in text(w) and "<i>gift</i> & more" in text(w)
    assert "Anna <script>" in text(root)
