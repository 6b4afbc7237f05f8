"""The Record and New game pages under AppTest, over a real store: what is offered, refusals shown inline
with their rule and nothing stored, a take-back, a judge's rewind, a device that is behind, the key asked
once per session (never in the URL), and a new game's header."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import record_table
from signing import app_page, key_fields, sign_in, signed_in_as
from streamlit.testing.v1 import AppTest

from service.application import Rollcall
from projections.projector import Projector

ROOT = Path(__file__).resolve().parents[2]
RECORD = str(ROOT / "dashboard" / "views" / "record.py")
NEW_GAME = str(ROOT / "dashboard" / "views" / "new_game.py")
EX1 = ROOT / "tests" / "games" / "seed004-ex1-shove-enemy-failed-dodge.rollcall.jsonl"
GAME = "seed004-ex1"


def lines_of(path: Path) -> list[str]:
    return [x for x in path.read_text(encoding="utf-8").splitlines() if x.strip() and not x.startswith("#")]


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A store holding seed 004's first example up to the Faceless's activation (seq 3)."""
    folder = tmp_path / "data"
    store = Rollcall.open(folder)
    store.import_record(lines_of(EX1)[:4], str(EX1))
    Projector(folder).run()
    monkeypatch.setenv("ROLLCALL_DATA", str(folder))
    return folder


def record_page(**params: str) -> AppTest:
    at = AppTest.from_file(RECORD, default_timeout=30)
    at.query_params["game"] = params.pop("game", GAME)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def button(at: AppTest, label: str):
    found = [b for b in at.button if b.label == label]
    assert found, f"no button {label!r} among {[b.label for b in at.button]}"
    return found[0]


offered, seq_field = record_table.offered, record_table.seq_field
tap = record_table.tap_any


def stored(data: Path, game: str = GAME) -> list[dict]:
    return Rollcall.open(data).stored_lines(game)


def test_the_page_offers_what_the_rules_allow_now(data: Path) -> None:
    at = record_page()
    labels = offered(at)
    assert "end the activation of The Faceless (Boris)" in labels
    assert not any(label.startswith("activate") for label in labels)  # one activation at a time (F05)
    assert at.selectbox(key="rc-move-end:step").options  # the ends of a step, also tappable on the board
    assert record_table.board(at)["status"].startswith("event 3 · turn 1")


def test_a_move_from_the_list_is_recorded_and_shown_at_once(data: Path) -> None:
    at = record_page()
    at.selectbox(key="rc-move-end:step").set_value("[5,6]").run()
    at = tap(at, "Move")
    assert any("Recorded seq 4: step The Faceless (Boris) to \\[5,6\\]" in s.value for s in at.success)  # (as text)
    assert stored(data)[-1]["must_eject"] == ["swordsman"]
    assert "Anna: dodge roll …" in offered(at)  # read from the store, not the read models


def test_a_refusal_names_its_rule_and_stores_nothing(data: Path) -> None:
    store = Rollcall.open(data)
    store.record(GAME, {"type": "ModelMoved", "model": "faceless", "action": "step", "path": [[1, 4]]})
    store.open_dispute(GAME, "p1", [4], "the Faceless went the wrong way")
    at = record_page()
    seq_field(at, "rc-take-from").set_value(4)
    at = tap(tap(at, "Take back"), "Confirm take-back")
    assert any("F12" in e.value and "DisputeOpened at seq 5" in e.value for e in at.error)
    assert len(stored(data)) == 6


def test_a_mis_tap_is_taken_back_and_play_goes_on_from_before_it(data: Path) -> None:
    at = record_page()
    at.selectbox(key="rc-move-end:step").set_value("[1,4]").run()
    at = tap(at, "Move")
    assert seq_field(at, "rc-take-from").value == 4  # the last event, at once
    at = tap(tap(at, "Take back"), "Confirm take-back")
    assert any("Recorded seq 5: took back 1 event from seq 4" in s.value for s in at.success)
    assert stored(data)[-1] == {**stored(data)[-1], "type": "TakenBack", "from": 4, "taken_back": [4]}
    assert any("<s>4." in m.value for m in at.markdown)  # the event taken back, struck through
    at.selectbox(key="rc-move-end:step").set_value("[5,6]").run()
    at = tap(at, "Move")
    assert stored(data)[-1]["path"] == [[5, 6]] and stored(data)[-1]["seq"] == 6


def test_a_judge_rewinds_the_game(data: Path) -> None:
    store = Rollcall.open(data)
    for event in (json.loads(x) for x in lines_of(EX1)[4:]):
        store.record(GAME, {k: v for k, v in event.items() if k not in ("seq", "hash")})
    at = record_page()
    seq_field(at, "rc-rewind-to").set_value(3)
    at.text_input(key="rc-rewind-judge").input("Jules")
    at.text_input(key="rc-rewind-text").input("replay the shove")
    at = tap(tap(at, "Rewind the game"), "Confirm rewind")
    last = stored(data)[-1]
    assert (last["type"], last["to"], last["taken_back"]) == ("GameRewound", 3, [4, 5, 6, 7])
    assert "end the activation of The Faceless (Boris)" in offered(at)


def test_a_rewind_needs_the_judges_name_and_why(data: Path) -> None:
    at = record_page()
    at.text_input(key="rc-rewind-judge").input("")
    at = tap(at, "Rewind the game")
    assert any("needs the judge's name" in e.value for e in at.error)
    assert len(stored(data)) == 4


def test_a_device_behind_the_game_is_told_it_moved_on_and_shown_the_new_state(data: Path) -> None:
    at = record_page()
    Rollcall.open(data).record(GAME, {"type": "ModelMoved", "model": "faceless", "action": "step", "path": [[1, 4]]})
    at = tap(at, "end the activation of The Faceless (Boris)")
    assert any("moved on" in w.value and "event 4" in w.value for w in at.warning)
    assert stored(data)[-1]["type"] == "ModelMoved"  # nothing of the late tap was stored
    assert record_table.board(at)["seq"] == 4


def _tap_delivered_twice() -> None:
    """One tap whose trigger reaches the page twice (as when a rerun of the whole page cuts short the run
    it started in, and Streamlit replays the trigger)."""
    import streamlit as st

    from dashboard import record_ui as ui

    st.session_state[ui.SEEN] = ("seed004-ex1", 3)
    for _ in range(2):
        ui.write("seed004-ex1", {"type": "ActivationEnded", "model": "faceless"}, done="end of the activation")
    ui.show_message("seed004-ex1", 4)


def test_a_tap_delivered_twice_is_stored_once_and_said_recorded(data: Path) -> None:
    at = AppTest.from_function(_tap_delivered_twice, default_timeout=30)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert [s.value for s in at.success] == ["Recorded seq 4: end of the activation"]
    assert not at.warning
    assert [line["type"] for line in stored(data)[3:]] == ["ActivationStarted", "ActivationEnded"]


def test_with_keys_the_page_asks_for_the_sidebar_sign_in_and_never_puts_the_key_in_the_url(data: Path) -> None:
    store = Rollcall.open(data)
    organiser = store.add_key("organiser", "Olga")
    store.key = organiser
    scorekeeper = store.add_key("scorekeeper", "Sam")
    at = app_page("record", game=GAME)
    assert not [b for b in offered(at) if b.startswith("end ")]  # nothing offered before signing in
    assert "Sign in with a scorekeeper's key in the sidebar to record this game." in [i.value for i in at.info]
    assert not key_fields(at)  # the sidebar's sign-in is the only key entry
    at = sign_in(at, "rk_wrong")
    assert any("not a key of this store" in e.value for e in at.sidebar.error)
    at = sign_in(at, scorekeeper)
    assert signed_in_as(at) == ["Signed in as **Sam** (scorekeeper)"]
    at = tap(at, "end the activation of The Faceless (Boris)")
    assert stored(data)[-1]["type"] == "ActivationEnded"
    assert all(scorekeeper not in str(v) for v in at.query_params.values())
    reader = Rollcall.open(data)
    events = reader.recorder.select_events(reader.get_game(GAME).id)
    assert json.loads(events[-1].state)["author"] == "Sam"


def test_a_new_game_from_a_shipped_scenario_is_a_format_1_header(data: Path) -> None:
    at = AppTest.from_file(NEW_GAME, default_timeout=30)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    names = [t for t in at.text_input if t.label == "Name"]
    names[0].input("Anna Lind")
    names[1].input("Boris Berg")
    factions = [t for t in at.text_input if t.label == "Faction"]
    factions[0].input("engeln")
    factions[1].input("castilla")
    at.text_input(key=[t.key for t in at.text_input if t.label == "Game id"][0]).input("club-night-1")
    at.run()
    button(at, "Start the game").click()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    header = Rollcall.open(data).stored_lines("club-night-1")[0]
    assert header["rollcall"] == 1 and header["system"] == "tornscape" and header["dice_mode"] == "physical"
    assert [(p["id"], p["name"], p["faction"]) for p in header["players"]] == [
        ("p1", "Anna Lind", "engeln"), ("p2", "Boris Berg", "castilla")]
    from domain.scenarios import scenarios
    assert header["setup"] == next(iter(scenarios("tornscape").values()))


def test_a_scenario_of_the_data_folder_is_offered_and_a_bad_one_named(data: Path) -> None:
    folder = data / "scenarios" / "tornscape"
    folder.mkdir(parents=True)
    from domain.scenarios import scenarios
    (folder / "club-night.json").write_text(json.dumps(next(iter(scenarios("tornscape").values()))))
    (folder / "broken.json").write_text("{not json")
    at = AppTest.from_file(NEW_GAME, default_timeout=30)
    at.run()
    setup = [s for s in at.selectbox if s.label == "Setup"][0]
    assert "club-night (data folder)" in setup.options
    assert any("broken.json: not a JSON file" in w.value for w in at.warning)


def test_a_target_typed_just_before_record_is_tapped_is_recorded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The form's Record reads the form as it is at the tap: a value typed and the tap arriving together (no
    run of the page between them) both count."""
    golden = ROOT / "tests" / "games" / "t9a-dispelled-failed-bound.rollcall.jsonl"
    folder = tmp_path / "data"
    Rollcall.open(folder).import_record(lines_of(golden)[:6], str(golden))  # up to the casting roll, seq 5
    Projector(folder).run()
    monkeypatch.setenv("ROLLCALL_DATA", str(folder))
    at = record_page(game="t9a-dispelled-failed-bound")
    at = tap(at, "Archmage (Anna) casts Fireball …")
    at.text_input(key=next(t.key for t in at.text_input if t.label == "Target (optional)")).input("goblin_mob")
    at = tap(at, "Record")  # the text and the tap in the same message
    last = stored(folder, "t9a-dispelled-failed-bound")[-1]
    assert (last["type"], last["spell"], last.get("target")) == ("CastingAttempted", "fireball", "goblin_mob")
