"""The organiser's part of the Standings page under streamlit.testing.v1.AppTest: registering players from an
uploaded CSV or from the tournament's games, pairing the round after rounds that came in as records, the
printable table cards; and the Pairings page showing those rounds."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from elsewhere import PLAYERS, met_before, players_csv, round_records
from signing import app_page, sign_in, signed_in_as
from projections.projector import Projector

ROOT = Path(__file__).resolve().parents[2]
STANDINGS = str(ROOT / "dashboard" / "views" / "standings.py")
PUBLIC = str(ROOT / "dashboard" / "views" / "public.py")
NAME = "Paper Cup"


def imported(data: Path, rounds=(1, 2, 3), *, create: bool = True) -> None:
    """The tournament (created unless ``create`` is False) with rounds ``rounds`` imported as records; projected."""
    from service.application import Rollcall

    store = Rollcall.open(data)
    if create:
        store.create_tournament(NAME, "t9a")
    for round_no in rounds:
        for lines in round_records(NAME, round_no):
            store.import_record(lines)
    store.close()
    Projector(data).run()


def open_page(page: str, data: Path, monkeypatch: pytest.MonkeyPatch, **state) -> AppTest:
    monkeypatch.setenv("ROLLCALL_DATA", str(data))
    at = AppTest.from_file(page, default_timeout=30)
    at.query_params["tournament"] = NAME
    for key, value in state.items():
        at.session_state[key] = value
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def press(at: AppTest, label: str) -> AppTest:
    next(b for b in at.button if b.label == label).click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def registered(data: Path) -> list[tuple]:
    from service.application import Rollcall

    store = Rollcall.open(data)
    try:
        return [(p["player"], p.get("faction"), p.get("club")) for p in store.tournament(NAME).players.values()]
    finally:
        store.close()


def test_an_organiser_uploads_the_players_list_and_pairs_round_four_after_three_imported(tmp_path, monkeypatch):
    data = tmp_path / "data"
    imported(data)
    at = open_page(STANDINGS, data, monkeypatch)
    assert any("Nobody is registered yet" in i.value for i in at.info)
    assert at.number_input(key="pair_round_no").value == 4, "the round after the three played"
    at.file_uploader(key="register_file").upload("players.csv", players_csv(), "text/csv")
    press(at, "Register the list")
    assert any(s.value == "registered 8 players" for s in at.success), [s.value for s in at.success]
    assert registered(data) == list(PLAYERS)
    Projector(data).run()
    at.file_uploader(key="register_file").upload("players.csv", players_csv(), "text/csv")
    press(at, "Register the list")
    assert any("registered 0 players (8 players already registered)" in s.value for s in at.success)
    assert len(registered(data)) == 8
    press(at, "Pair round")
    assert any("round 4 paired: 4 tables" in s.value for s in at.success), [e.value for e in at.error]
    Projector(data).run()
    at.run()
    assert at.number_input(key="pair_round_no").value == 5
    cards = [d for d in at.get("download_button") if d.proto.label.startswith("Table cards")]
    assert [d.proto.label for d in cards] == ["Table cards, round 4 (HTML, to print)"]


def test_a_bad_upload_is_refused_naming_the_line_and_field(tmp_path, monkeypatch) -> None:
    data = tmp_path / "data"
    imported(data, rounds=())
    at = open_page(STANDINGS, data, monkeypatch)
    at.file_uploader(key="register_file").upload("players.csv", b"name,faction\nAnna,\n", "text/csv")
    press(at, "Register the list")
    assert [e.value for e in at.error] == ["players.csv:2: field `faction` is empty"]
    assert registered(data) == []


def test_the_players_of_the_games_register_from_the_page_and_round_two_pairs(tmp_path, monkeypatch) -> None:
    data = tmp_path / "data"
    imported(data, rounds=(1,))
    at = open_page(STANDINGS, data, monkeypatch)
    press(at, "Register from games")
    assert any(s.value == "registered 8 players" for s in at.success)
    assert sorted((n, f) for n, f, _ in registered(data)) == sorted((n, f) for n, f, _ in PLAYERS)
    at.run()
    press(at, "Pair round")
    assert any("round 2 paired: 4 tables" in s.value for s in at.success), [e.value for e in at.error]


def test_a_tournament_named_only_by_its_games_offers_no_registration_but_its_cards(tmp_path, monkeypatch):
    data = tmp_path / "data"
    imported(data, create=False)
    at = open_page(STANDINGS, data, monkeypatch)
    assert not at.file_uploader and not any(b.label == "Register from games" for b in at.button)
    cards = [d.proto.label for d in at.get("download_button")]
    assert cards == ["Table cards, round 3 (HTML, to print)"]


def test_without_an_organisers_sign_in_the_page_offers_no_registration(tmp_path, monkeypatch) -> None:
    from service.application import Rollcall

    data = tmp_path / "data"
    imported(data, rounds=())
    store = Rollcall.open(data)
    store.key = store.add_key("organiser", "Olga")
    sam = store.add_key("scorekeeper", "Sam")
    store.close()
    at = open_page(STANDINGS, data, monkeypatch)
    assert not at.file_uploader and not any(b.label == "Register from games" for b in at.button)
    assert any("Sign in with an organiser's key in the sidebar to register players." in c.value for c in at.caption)
    scorekeeper = sign_in(app_page("standings", tournament=NAME), sam)  # the sidebar's sign-in
    assert signed_in_as(scorekeeper) == ["Signed in as **Sam** (scorekeeper)"]
    assert not scorekeeper.file_uploader


def test_the_pairings_page_shows_the_rounds_of_imported_games(tmp_path, monkeypatch) -> None:
    data = tmp_path / "data"
    imported(data)
    at = open_page(PUBLIC, data, monkeypatch)
    assert at.selectbox(key="round").value == 3 and at.selectbox(key="round").options == ["1", "2", "3"]
    pairing = at.dataframe[0].value
    assert list(pairing["table"]) == ["1", "2", "3", "4"] and set(pairing["result"]) == {"won"}
    shown = {frozenset((r["player"], r["opponent"])) for _, r in pairing.iterrows()}
    assert shown == met_before(4) - met_before(3)


def test_registering_without_a_file_asks_for_one(tmp_path, monkeypatch) -> None:
    data = tmp_path / "data"
    imported(data, rounds=())
    at = press(open_page(STANDINGS, data, monkeypatch), "Register the list")
    assert [w.value for w in at.warning] == ["Choose the players' list (a CSV file) first."]
