"""The Record page's "Other roll…": a roll outside the modelled phases, in any phase — player, die, how many, the
face each die needs and what it was for, then the faces by taps; the labels the game used are offered again."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest
from test_record_apptest import button, data, record_page, stored  # noqa: F401  (data: the store, a fixture)


def ran(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def fill(at: AppTest, *, player: str, needs: str, label: str, faces: str) -> AppTest:
    at.radio(key="rc-other:player").set_value(player)
    at = ran(at)
    at.session_state["rc-other:needs"] = needs
    at.text_input(key="rc-other:label").input(label)
    at.text_input(key="rc-other:faces:d6").input(faces)
    return ran(at)


def test_an_other_roll_is_recorded_with_its_label_needs_and_faces_in_the_middle_of_a_phase(data: Path) -> None:
    at = record_page()
    players = at.radio(key="rc-other:player").options
    assert len(players) == 2 and not any(p in ("p1", "p2") for p in players)  # names, not ids
    assert at.selectbox(key="rc-other:die").options[0] == "d6"
    at = fill(at, player=at.radio(key="rc-other:player").options[1], needs="4", label="shooting: to hit",
              faces="6 4 1")
    button(at, "Record the roll").click()
    at = ran(at)
    last = stored(data)[-1]
    assert {k: last[k] for k in ("type", "purpose", "player", "die", "faces", "needs", "label")} == {
        "type": "DiceRolled", "purpose": "other", "player": "p2", "die": "d6", "faces": [6, 4, 1], "needs": 4,
        "label": "shooting: to hit"}
    assert any("shooting: to hit" in s.value and "2 of 3 reach 4" in s.value for s in at.success)
    used = at.get("button_group")
    assert any("shooting: to hit" in str(u.proto) for u in used)  # offered again at this table


def test_an_other_roll_with_a_face_the_die_has_not_stores_nothing_and_says_which(data: Path) -> None:
    at = record_page()
    before = len(stored(data))
    at = fill(at, player=at.radio(key="rc-other:player").options[0], needs="no target", label="morale", faces="6 7")
    assert any("7 is not a face of this die" in e.value for e in at.error)  # said as it is typed
    button(at, "Record the roll").click()
    at = ran(at)
    assert len(stored(data)) == before
    assert any("Not recorded — 7 is not a face of this die" in e.value for e in at.error)


def test_a_ten_dice_roll_is_entered_in_one_row_by_tapping_each_face_and_said_back(data: Path) -> None:
    """Ten dice: a tap on a face for each die that showed it (ten taps on one row of six faces), the count on each
    face, and the roll said back — "6 of 10 reach 4+" — before it is recorded."""
    at = record_page()
    at.radio(key="rc-other:player").set_value(at.radio(key="rc-other:player").options[0])
    at = ran(at)
    at.session_state["rc-other:needs"] = "4"
    at = ran(at)
    for face in (6, 6, 5, 4, 4, 4, 3, 2, 1, 1):
        at.button(key=f"rc-other:add:d6:{face}").click()
        at = ran(at)
    faces = [b for b in at.button if b.key and b.key.startswith("rc-other:add:d6:")]
    assert len(faces) == 6  # one row: a button a face, however many dice
    assert [b.label for b in faces] == ["⚀ ×2", "⚁ ×1", "⚂ ×1", "⚃ ×3", "⚄ ×1", "⚅ ×2"]
    assert any("10 dice" in m.value and "6 of 10 reach 4+" in m.value for m in at.markdown)
    button(at, "Record the roll").click()
    at = ran(at)
    last = stored(data)[-1]
    assert (last["purpose"], last["faces"], last["needs"]) == ("other", [6, 6, 5, 4, 4, 4, 3, 2, 1, 1], 4)


def test_faces_typed_together_or_apart_are_read_as_the_dice() -> None:
    from dashboard.other_roll import faces_typed

    d6 = [1, 2, 3, 4, 5, 6]
    assert faces_typed("6 5 5 4 1", d6) == ([6, 5, 5, 4, 1], None)
    assert faces_typed("65541", d6) == ([6, 5, 5, 4, 1], None)
    assert faces_typed("6,5, 5", d6) == ([6, 5, 5], None)
    assert faces_typed("⚅⚄", d6) == ([6, 5], None)
    assert faces_typed("crit blank", ["crit", "success", "blank"]) == (["crit", "blank"], None)
    assert faces_typed("6 0", d6)[1] == "0 is not a face of this die (its faces: 1 2 3 4 5 6)"
