"""The dashboard pages under streamlit.testing.v1.AppTest, over a small projected data folder."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from dashboard_records import LEGAL_EVENTS, write_record
from replay_payload import board, by_class, component_data, picture_at, positions, rings
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
REPLAY = str(ROOT / "dashboard" / "views" / "replay.py")
GAMES = str(ROOT / "dashboard" / "views" / "games.py")
APP = str(ROOT / "dashboard" / "app.py")


@pytest.fixture(autouse=True)
def data_env(replay_data: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ROLLCALL_DATA", str(replay_data))
    return replay_data


def replay_at(game: str | None, seq: int | None) -> AppTest:
    at = AppTest.from_file(REPLAY, default_timeout=30)
    if game is not None:
        at.query_params["game"] = game
    if seq is not None:
        at.query_params["seq"] = str(seq)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def by_id(root: ET.Element, element_id: str) -> ET.Element:
    found = [e for e in root.iter() if e.get("id") == element_id]
    assert len(found) == 1, element_id
    return found[0]


def details(at: AppTest) -> str:
    return "\n".join(m.value for m in at.markdown)


def test_deep_link_opens_that_moment(data_env: Path) -> None:
    at = replay_at("e2e-legal", 4)
    head, game = component_data(at)
    assert head["start"] == 4 and game["game"] == "e2e-legal" and game["last"] == 17
    pic = picture_at(game, 4)
    assert board(pic).get("data-game") == "e2e-legal" and board(pic).get("data-seq") == "4"
    # after seq 4 the Warden has stepped to [4,2]; nobody else has moved yet
    assert positions(pic) == {"a1": "4,2", "a2": "8,1", "b1": "6,3", "b2": "2,8"}
    # the moving model is ringed and its path drawn from where it stood
    assert rings(pic) == ["a1"]
    assert by_class(pic, "rc-hl-path")[0].get("data-path") == "2,1;4,2"
    assert "ModelMoved" in game["captions"][4] and "seq 4" in game["captions"][4]
    assert "ModelMoved" in details(at) and "seq 4" in details(at)
    assert at.query_params["seq"] == "4" and at.query_params["game"] == "e2e-legal"


def test_frames_step_forward_and_move_the_highlight(data_env: Path) -> None:
    _, game = component_data(replay_at("e2e-legal", 4))
    pic = picture_at(game, 5)
    assert positions(pic)["a1"] == "6,3"
    # the run ends on b1, which must be ejected: both are ringed
    assert rings(pic) == ["a1", "b1"]
    assert "ejects Rogue" in game["captions"][5]
    pic = picture_at(game, 6)
    assert positions(pic)["b1"] == "7,4"
    assert [e.get("data-hex") for e in by_class(pic, "rc-hl-hex")] == ["7,4"]
    assert rings(pic) == ["a1", "b1"]
    assert "ModelEjected" in game["captions"][6]
    assert positions(picture_at(game, 5))["b1"] == "6,3"


def test_first_last_and_turn_jumps(data_env: Path) -> None:
    _, game = component_data(replay_at("e2e-legal", 4))
    assert positions(picture_at(game, 17))["a2"] == "10,1"
    assert game["jumps"]["turn"] == [1, 12]
    assert positions(picture_at(game, 0)) == {"a1": "2,1", "a2": "8,1", "b1": "6,3", "b2": "2,8"}
    assert "Setup" in game["captions"][0]
    assert [int(s) for s in game["row_seqs"]] == list(range(1, 18))


def test_players_with_names_factions_and_scores(data_env: Path) -> None:
    _, game = component_data(replay_at("e2e-legal", 11))
    status = "".join(by_id(picture_at(game, 11), "rc-status").itertext())
    assert "Anna" in status and "Boris" in status and "Engeln" in status and "Castilla" in status
    assert "1 VP" in status  # p1 scored at seq 11
    assert "0 VP" in "".join(by_id(picture_at(game, 10), "rc-status").itertext())


def test_violation_shown_with_rule_id(data_env: Path) -> None:
    at = replay_at("e2e-lenient", 4)
    errors = [e.value for e in at.error]
    assert any("R42" in e and "step allows 3" in e for e in errors), errors
    _, game = component_data(at)
    assert positions(picture_at(game, 4))["a2"] == "9,3"
    assert "R42" in game["captions"][4] and "rc-broke" in game["rows"][3]
    assert game["jumps"]["violation"] == [4, 6]
    assert "F05" in game["captions"][6]


def test_deep_link_to_an_unknown_game_says_so(data_env: Path) -> None:
    at = replay_at("no-such-game", 3)
    assert any("no game **no-such-game**" in e.value for e in at.error), [e.value for e in at.error]
    assert not at.get("bidi_component")


def test_deep_link_past_the_end_says_so_and_shows_the_last_event(data_env: Path) -> None:
    at = replay_at("e2e-legal", 9999)
    assert any("past the end" in w.value and "last event is seq 17" in w.value for w in at.warning)
    head, _ = component_data(at)
    assert head["start"] == 17
    assert at.query_params["seq"] == "17"


def test_page_without_a_game_says_so(data_env: Path) -> None:
    at = replay_at(None, None)
    assert any("No game chosen" in i.value for i in at.info)
    assert not at.get("bidi_component")


def test_changing_game_starts_at_its_beginning(data_env: Path) -> None:
    at = replay_at("e2e-legal", 15)
    at.selectbox(key="game_pick").select("e2e-lenient").run()
    head, game = component_data(at)
    assert head["start"] == 0 and game["game"] == "e2e-lenient"


def test_games_page_lists_games_with_replay_links(data_env: Path) -> None:
    at = AppTest.from_file(GAMES, default_timeout=30).run()
    assert not at.exception
    frame = at.dataframe[0].value
    assert set(frame["game"]) == {"e2e-legal", "e2e-lenient"}
    links = dict(zip(frame["game"], frame["replay"]))
    assert links["e2e-legal"] == "replay?game=e2e-legal&seq=0"


def test_games_page_marks_a_game_its_rules_pack_cannot_replay(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import json
    import sqlite3

    from service.application import Rollcall
    from projections.projector import Projector

    data = tmp_path / "data"
    record = write_record(tmp_path / "broken.rollcall.jsonl", "e2e-broken", LEGAL_EVENTS)
    with open(record, encoding="utf-8") as handle:
        Rollcall.open(data).import_record(handle, str(record))
    con = sqlite3.connect(data / "events.sqlite")
    with con:  # the first move of the stored game now names a model it never had
        rowid, state = con.execute("SELECT rowid, state FROM stored_events WHERE topic = 'rollcall:ModelMoved' "
                                   "ORDER BY rowid LIMIT 1").fetchone()
        changed = json.loads(state)
        changed["data"]["model"] = "nobody"
        con.execute("UPDATE stored_events SET state = ? WHERE rowid = ?", (json.dumps(changed).encode(), rowid))
    con.close()
    Projector(data).run()
    monkeypatch.setenv("ROLLCALL_DATA", str(data))
    at = AppTest.from_file(GAMES, default_timeout=30).run()
    assert not at.exception
    assert any("e2e-broken cannot be replayed" in w.value for w in at.warning)
    frame = at.dataframe[0].value
    assert list(frame["ended"]) == ["cannot be replayed"]


def test_app_navigation_runs_both_pages(data_env: Path) -> None:
    at = AppTest.from_file(APP, default_timeout=30).run()
    assert not at.exception
    assert at.dataframe  # the Games page is the default
    at.switch_page("views/replay.py").run()
    assert not at.exception
    assert any("No game chosen" in i.value for i in at.info)


def test_missing_read_models_is_said_plainly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROLLCALL_DATA", str(tmp_path))
    at = AppTest.from_file(REPLAY, default_timeout=30).run()
    assert not at.exception
    assert any("Nothing has been recorded yet" in i.value for i in at.info)
    assert not any(str(tmp_path) in i.value or "rollcall" in i.value for i in at.info)


def test_republish_is_picked_up_without_blocking_the_projector(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The dashboard reads the published copy: the projector can run (and republish) meanwhile."""
    from service.application import Rollcall
    from projections.projector import Projector
    from dashboard_records import LEGAL_EVENTS, write_record

    data = tmp_path / "data"
    store = Rollcall.open(data)
    with open(write_record(tmp_path / "one.rollcall.jsonl", "one", LEGAL_EVENTS[:5]), encoding="utf-8") as f:
        store.import_record(f, "one")
    Projector(data).run()
    monkeypatch.setenv("ROLLCALL_DATA", str(data))
    at = replay_at("one", 5)
    assert [o.split(" · ")[0] for o in at.selectbox(key="game_pick").options] == ["one"]
    assert component_data(at)[1]["last"] == 5

    # the dashboard holds its connection; the projector still opens its live file and republishes
    with open(write_record(tmp_path / "two.rollcall.jsonl", "two", LEGAL_EVENTS), encoding="utf-8") as f:
        store.import_record(f, "two")
    store.close()
    assert Projector(data).run() == 18
    at.run()
    assert not at.exception
    assert [o.split(" · ")[0] for o in at.selectbox(key="game_pick").options] == ["one", "two"]


# --- the other systems: a magic phase (t9a), an initiative (claustrophobia) ------------------------

T9A = "t9a-miscast-before-spell-and-attribute"
CLAUS = "claustrophobia-seed003-sceptre-three-dice"


@pytest.fixture
def systems_env(systems_data: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ROLLCALL_DATA", str(systems_data))
    return systems_data


def picture(at: AppTest, cls: str, seq: int | None = None) -> ET.Element:
    """The picture of the page at ``seq`` (default: where the page opened); there is no board beside it."""
    head, game = component_data(at)
    root = picture_at(game, head["start"] if seq is None else seq)
    assert not by_class(root, "rc-board")
    (found,) = by_class(root, cls)
    return found


def current_row(at: AppTest, seq: int | None = None) -> dict:
    head, game = component_data(at)
    seq = head["start"] if seq is None else seq
    row = ET.fromstring(game["rows"][game["row_seqs"].index(seq)])
    return {"summary": "".join(by_class(row, "rc-ev-summary")[0].itertext())}


def one(root: ET.Element, cls: str, **attrs: str) -> ET.Element:
    found = [e for e in by_class(root, cls) if all(e.get(f"data-{k.replace('_', '-')}") == v for k, v in attrs.items())]
    assert len(found) == 1, (cls, attrs, len(found))
    return found[0]


def test_magic_phase_shows_pools_flux_and_the_cast(systems_env: Path) -> None:
    at = replay_at(T9A, 4)  # after Siphon the Veil: Anna 5 + 1 dice, Boris 5; 2 veil tokens kept
    magic = picture(at, "rc-magic")
    assert magic.get("data-active") == "p1" and magic.get("data-step") == "siphoned"
    anna, boris = one(magic, "rc-magic-side", player="p1"), one(magic, "rc-magic-side", player="p2")
    assert (anna.get("data-dice"), anna.get("data-veil")) == ("6", "2")
    assert (boris.get("data-dice"), boris.get("data-veil")) == ("5", "0")
    assert len(by_class(one(anna, "rc-pool"), "rc-d6")) == 6  # one die drawn per magic die
    assert len(by_class(one(anna, "rc-veil"), "rc-token")) == 2
    assert one(anna, "rc-flux-card", card="3").get("data-status") == "drawn"
    assert one(boris, "rc-flux-card", card="3").get("data-status") == "left"
    assert one(magic, "rc-drawn-card").get("data-card") == "3"
    assert "No casting attempt yet" in "".join(one(magic, "rc-cast-none").itertext())

    at = replay_at(T9A, 8)  # the Druid's Heal: 2+2+2+5 = 11 against 6, a triple; Boris's dispel of 5 fails
    magic = picture(at, "rc-magic")
    cast = one(magic, "rc-cast")
    assert (cast.get("data-total"), cast.get("data-value")) == ("11", "6")
    assert (cast.get("data-result"), cast.get("data-miscast")) == ("passed", "true")
    assert [d.get("data-face") for d in by_class(cast, "rc-d6")][:4] == ["2", "2", "2", "5"]
    assert "5" in "".join(one(cast, "rc-dispel").itertext())
    assert one(magic, "rc-magic-side", player="p1").get("data-dice") == "2"
    assert one(magic, "rc-magic-side", player="p2").get("data-dice") == "4"
    assert by_class(one(magic, "rc-wizard", wizard="druid"), "rc-cast-now")[0].get("data-spell") == "heal"
    assert current_row(at)["summary"].startswith("Shaman (Boris) dispels with 2 dice")

    cast = one(picture(at, "rc-magic", 9), "rc-cast")  # seq 9: the miscast (C)
    assert cast.get("data-step") == "C"
    assert "witchfire" in "".join(cast.itertext())


def test_initiative_shows_the_die_in_its_slot_and_the_set_aside_die(systems_env: Path) -> None:
    at = replay_at(CLAUS, 4)  # the Redeemer takes the 5; the 2 and the 6 are still to give
    init = picture(at, "rc-init")
    redeemer = one(init, "rc-warrior", warrior="redeemer")
    assert redeemer.get("data-die") == "5" and "rc-focus" in redeemer.get("class")
    slot = one(one(redeemer, "rc-line", line="5"), "rc-slot")
    assert slot.get("data-die") == "5" and by_class(slot, "rc-d6")[0].get("data-face") == "5"
    assert one(redeemer, "rc-gift").get("data-gift") == "aura_of_foresight"
    assert one(redeemer, "rc-line", line="1").get("data-status") == "none"
    assert one(init, "rc-warrior", warrior="blade").get("data-die") == ""
    assert [d.get("data-status") for d in by_class(init, "rc-action-die")] == ["taken", "free", "free"]

    at = replay_at(CLAUS, 7)  # the action phase starts: the 6 is set aside
    init = picture(at, "rc-init")
    blade = one(init, "rc-warrior", warrior="blade")
    assert one(one(blade, "rc-line", line="2"), "rc-slot").get("data-die") == "2"
    assert blade.get("data-exhausted") == "false"
    dice = by_class(init, "rc-action-die")
    assert [(d.get("data-face"), d.get("data-status")) for d in dice] == [
        ("5", "taken"), ("2", "taken"), ("6", "set-aside")]
    assert "set aside" in "".join(dice[2].itertext())
    assert current_row(at)["summary"] == "action phase, 1 action die set aside"


def test_phenomenon_details_name_the_card(systems_env: Path) -> None:
    at = replay_at("seed000-stabilisation", 8)
    board(picture_at(component_data(at)[1], 8))  # Tornscape keeps its board
    card = [m.value for m in at.markdown if m.value.startswith("Card:")]
    assert card and "Ember Spiral" in card[0], card
    assert "positive effect" in card[0] and "hostile vortex" in card[0] and "explore success" in card[0]
    assert current_row(at)["summary"].startswith("Ember Spiral (positive)")


def test_roll_details_give_provenance_and_the_exact_odds_of_the_outcome(systems_env: Path) -> None:
    at = replay_at("seed000-stabilisation", 5)  # VortexStabilised: Otraax's crit at seq 4
    captions = [c.value for c in at.caption if "probability" in c.value]
    assert captions and "Roll 4 (physical)" in captions[0] and "16.7%" in captions[0], captions


def test_the_event_details_name_the_models_in_words(data_env: Path) -> None:
    at = replay_at("e2e-legal", 4)
    text = details(at)
    assert "| `model` | Warden (a1) |" in text  # the model's name, its id beside it
