"""The Dispute page (and the as-ruled replay) under AppTest, over a real store and read models."""

from __future__ import annotations

import json
from html import unescape
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from replay_payload import component_data, picture_at
from signing import app_page, form, sign_in, sign_out
from streamlit.testing.v1 import AppTest

from service.application import Rollcall
from projections.projector import Projector

ROOT = Path(__file__).resolve().parents[2]
DISPUTE = str(ROOT / "dashboard" / "views" / "dispute.py")
REPLAY = str(ROOT / "dashboard" / "views" / "replay.py")
EX1 = ROOT / "tests" / "games" / "seed004-ex1-shove-enemy-failed-dodge.rollcall.jsonl"
GAME = "seed004-ex1"
# where the setup puts each model, as the board's data-at gives it (its first hex, "q,r")
SETUP = {m["id"]: ",".join(map(str, m["at"][0]))
         for m in json.loads(EX1.read_text().splitlines()[0])["setup"]["models"]}


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    store = Rollcall.open(folder)
    with open(EX1, encoding="utf-8") as handle:
        store.import_record(handle, str(EX1))
    store.close()
    Projector(folder).run()
    monkeypatch.setenv("ROLLCALL_DATA", str(folder))
    return folder


def page(path: str, **params: str) -> AppTest:
    at = AppTest.from_file(path, default_timeout=30)
    for name, value in params.items():
        at.query_params[name] = value
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def boards(at: AppTest) -> list[ET.Element]:
    return [ET.fromstring(m.value[m.value.index("<svg"):m.value.rindex("</svg>") + 6])
            for m in at.markdown if "<svg" in m.value]


def model_at(board: ET.Element, model: str) -> str:
    found = [e for e in board.iter() if e.get("id") == f"model-{model}"]
    assert len(found) == 1
    return found[0].get("data-at")


def rule(at: AppTest, judge: str, decision: str, text: str) -> AppTest:
    form_inputs = [t for t in at.text_input if t.label == "Judge"]
    form_inputs[0].input(judge)
    at.radio[0].set_value(decision)
    [a for a in at.text_area if a.label == "Ruling"][0].input(text)
    [b for b in at.button if b.label == "Record ruling"][0].click()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def followed(at: AppTest) -> AppTest:
    """What the page shows once the dashboard's projector followed the write (projections.follow): here the
    projector runs once and the page again, as the live page does when the read models are republished."""
    Projector(data_dir()).run()
    at.run()
    return at


def data_dir() -> Path:
    import os

    return Path(os.environ["ROLLCALL_DATA"])


def test_a_link_opens_the_disputed_moment_with_the_state_before_and_after(data: Path) -> None:
    at = page(DISPUTE, game=GAME, seq="4", about="4-6")
    before, after = boards(at)
    assert model_at(before, "faceless") == SETUP["faceless"]
    assert model_at(after, "faceless") != SETUP["faceless"]
    assert model_at(after, "swordsman") != SETUP["swordsman"]
    events = at.dataframe[0].value
    assert list(events["seq"]) == [4, 5, 6] and list(events["as ruled"]) == ["stands"] * 3


def test_the_rolls_involved_show_their_provenance_and_exact_odds(data: Path) -> None:
    at = page(DISPUTE, game=GAME, seq="6")  # the ejection uses the dodge roll of seq 5
    rolls = at.dataframe[1].value
    assert list(rolls["roll"]) == [5]
    assert rolls["provenance"][0] == "physical" and rolls["P(this outcome)"][0] == "50.0%"
    assert any("every rule checked holds" in s.value for s in at.success)


def test_a_judge_voids_the_events_and_the_as_ruled_game_follows(data: Path) -> None:
    at = page(DISPUTE, game=GAME, seq="4", about="4,5,6")
    at = rule(at, "Jules", "void", "the Faceless had activated already")
    assert any("recorded seq 8 (RulingMade)" in s.value for s in at.success)
    at = followed(at)
    assert at.toggle(key="ruled").value is True
    _, after = boards(at)
    assert model_at(after, "faceless") == SETUP["faceless"]
    assert model_at(after, "swordsman") == SETUP["swordsman"]
    history = at.dataframe[-1].value
    assert list(history["outcome"]) == ["void"] and list(history["who"]) == ["Jules"]
    assert any('href="/replay?game=seed004-ex1&amp;seq=6&amp;ruled=true"' in m.value
               or 'href="/replay?game=seed004-ex1&seq=6&ruled=true"' in m.value for m in at.markdown)

    replay = page(REPLAY, game=GAME, seq="8", ruled="true")
    assert model_at(picture_at(component_data(replay)[1], 8), "faceless") == SETUP["faceless"]
    played = page(REPLAY, game=GAME, seq="8")
    assert model_at(picture_at(component_data(played)[1], 8), "faceless") != SETUP["faceless"]
    struck = [row for row in component_data(played)[1]["rows"] if "rc-struck" in row]
    assert len(struck) == 3 and all("void: ruling 8" in row for row in struck)  # the voided events, struck out


def test_a_void_that_breaks_a_rule_is_refused_with_the_rule_and_nothing_is_written(data: Path) -> None:
    at = rule(page(DISPUTE, game=GAME, seq="4"), "Jules", "void", "only the step")
    assert any("F01" in e.value for e in at.error), ([e.value for e in at.error], [s.value for s in at.success], [t.value for t in at.text_input])
    assert len(Rollcall.open(data).stored_lines(GAME)) == 8


def test_a_ruling_needs_a_judge_signed_in_once_the_store_has_keys(data: Path) -> None:
    store = Rollcall.open(data)
    organiser = store.add_key("organiser", "Olga")
    store.key = organiser
    judge = store.add_key("judge", "Jules")
    at = sign_in(app_page("dispute", game=GAME, seq="6"), organiser)
    at = rule(at, "Jules", "stands", "fine")
    assert [unescape(e.value) for e in form(at, "ruling").error] == [
        "Signed in as Olga (organiser), who may not record a ruling: sign out in the sidebar and sign in with a "
        "judge's key."]
    at = sign_in(sign_out(at), judge)
    at = rule(at, "Jules", "stands", "fine")
    assert any("recorded seq 8 (RulingMade)" in s.value for s in form(at, "ruling").success)
    assert followed(at).dataframe[-1].value["written by"].tolist() == ["Jules"]


def test_a_player_opens_a_dispute_and_it_waits_for_a_ruling(data: Path) -> None:
    at = page(DISPUTE, game=GAME, seq="6")
    form_select = [s for s in at.selectbox if s.label == "Player calling the judge"][0]
    form_select.set_value("p1")
    [a for a in at.text_area if a.label == "Claim"][0].input("the Swordsman belongs on [3,6]")
    [b for b in at.button if b.label == "Open dispute"][0].click()
    at.run()
    assert any("recorded seq 8 (DisputeOpened)" in s.value for s in at.success)
    at = followed(at)
    history = at.dataframe[-1].value
    assert list(history["event"]) == ["dispute"] and list(history["outcome"]) == ["open"]
    assert list(history["text"]) == ["the Swordsman belongs on [3,6]"]
    at = followed(rule(at, "Jules", "stands", "the nearest free hex was chosen"))
    history = at.dataframe[-1].value
    assert list(history["outcome"]) == ["ruled at 9", "stands"]


def test_a_ruling_without_a_judge_or_a_text_is_refused_and_nothing_is_written(data: Path) -> None:
    at = rule(page(DISPUTE, game=GAME, seq="4"), "", "stands", "")
    assert any("needs the judge's name and the ruling's text" in e.value for e in at.error)
    at = rule(at, "Jules", "stands", "   ")
    assert any("needs the ruling's text" in e.value for e in at.error)
    assert len(Rollcall.open(data).stored_lines(GAME)) == 8


def test_a_refused_void_keeps_the_judges_text_in_the_form(data: Path) -> None:
    at = rule(page(DISPUTE, game=GAME, seq="4"), "Jules", "void", "only the step")
    assert any("F01" in e.value for e in at.error)
    assert [a.value for a in at.text_area if a.label == "Ruling"] == ["only the step"]
    assert [t.value for t in at.text_input if t.label == "Judge"] == ["Jules"]

