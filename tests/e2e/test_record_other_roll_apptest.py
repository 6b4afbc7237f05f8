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


def fill(at: AppTest, *, player: str, count: int, needs: str, label: str, faces: list[str]) -> AppTest:
    at.radio(key="rc-other:player").set_value(player)
    at.number_input(key="rc-other:count").set_value(count)
    at = ran(at)
    at.session_state["rc-other:needs"] = needs
    at.text_input(key="rc-other:label").input(label)
    for i, face in enumerate(faces):
        at.session_state[f"rc-other:face:d6:{i}"] = face
    return ran(at)


def test_an_other_roll_is_recorded_with_its_label_needs_and_faces_in_the_middle_of_a_phase(data: Path) -> None:
    at = record_page()
    players = at.radio(key="rc-other:player").options
    assert len(players) == 2 and not any(p in ("p1", "p2") for p in players)  # names, not ids
    assert at.selectbox(key="rc-other:die").options[0] == "d6"
    at = fill(at, player=at.radio(key="rc-other:player").options[1], count=3, needs="4", label="shooting: to hit",
              faces=["⚅", "⚃", "⚀"])
    button(at, "Record the roll").click()
    at = ran(at)
    last = stored(data)[-1]
    assert {k: last[k] for k in ("type", "purpose", "player", "die", "faces", "needs", "label")} == {
        "type": "DiceRolled", "purpose": "other", "player": "p2", "die": "d6", "faces": [6, 4, 1], "needs": 4,
        "label": "shooting: to hit"}
    assert any("shooting: to hit" in s.value and "2 of 3 reach 4" in s.value for s in at.success)
    used = at.get("button_group")
    assert any("shooting: to hit" in str(u.proto) for u in used)  # offered again at this table


def test_an_other_roll_with_a_die_without_a_face_stores_nothing(data: Path) -> None:
    at = record_page()
    before = len(stored(data))
    at = fill(at, player=at.radio(key="rc-other:player").options[0], count=2, needs="no target", label="morale",
              faces=["⚅"])
    button(at, "Record the roll").click()
    at = ran(at)
    assert len(stored(data)) == before
    assert any("a die has no face yet" in e.value for e in at.error)
