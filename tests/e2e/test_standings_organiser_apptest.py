"""The organiser's part of the Standings page under streamlit.testing.v1.AppTest: registering players from an
uploaded list (previewed, then registered at a second tap) or from the tournament's games, the registered players'
table, pairing the round after rounds that came in as records, the
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


def upload(at: AppTest, data: bytes, name: str = "players.csv") -> AppTest:
    """The players' list chosen in the uploader (its key changes once a list is registered: a new one is empty)."""
    uploader = next(u for u in at.file_uploader if u.key.startswith("register_file"))
    uploader.upload(name, data, "text/csv").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def table(at: AppTest, column: str):
    """The table of the page that has ``column``."""
    return next(d.value for d in at.dataframe if column in d.value.columns)


def preview(at: AppTest):
    return table(at, "outcome")


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
    upload(at, players_csv())
    assert list(preview(at)["player"]) == [n for n, *_ in PLAYERS] and set(preview(at)["outcome"]) == {"new"}
    assert any('columns ignored: "Player ID", "E-mail"' in c.value for c in at.caption)
    assert registered(data) == [], "a preview registers nobody"
    press(at, "Register 8 players")
    assert any(s.value == "registered 8 players" for s in at.success), [s.value for s in at.success]
    assert registered(data) == list(PLAYERS)
    Projector(data).run()
    at.run()
    assert list(table(at, "dropped")["player"]) == [n for n, *_ in PLAYERS]
    assert any(c.value == "8 players registered." for c in at.caption)
    upload(at, players_csv())
    assert set(preview(at)["outcome"]) == {"already registered"}
    assert not any(b.label.startswith("Register ") and b.label != "Register from games" for b in at.button)
    assert any(c.value == "Registering this list would change nothing." for c in at.caption)
    assert len(registered(data)) == 8
    press(at, "Pair round")
    assert any("round 4 paired: 4 tables" in s.value for s in at.success), [e.value for e in at.error]
    Projector(data).run()
    at.run()
    assert at.number_input(key="pair_round_no").value == 4, "round 4 is paired, not played: the box stays on it"
    assert any("3 rounds played; round 4: 0 of 4 results" in c.value for c in at.caption), [c.value for c in at.caption]
    cards = [d for d in at.get("download_button") if d.proto.label.startswith("Table cards")]
    assert [d.proto.label for d in cards] == ["Table cards, round 4 (HTML, to print)"]


def test_a_preview_names_each_row_that_would_be_refused_and_registers_the_others(tmp_path, monkeypatch) -> None:
    data = tmp_path / "data"
    imported(data, rounds=())
    at = open_page(STANDINGS, data, monkeypatch)
    upload(at, "First Name,Last Name,Army,Team,Checked In\nAnna,Lind,orcs,North,yes\nBoris,Brandt,,North,no\n"
               "Evil,\u202eBoris,orcs,,no\n".encode())
    rows = preview(at)
    assert list(rows["line"]) == [2, 3, 4]
    assert list(rows["player"]) == ["Anna Lind", "Boris, Brandt, , North, no", "Evil, \\u202eBoris, orcs, , no"], \
        "a refused row as it reads, its invisible character written as an escape"
    assert list(rows["outcome"]) == [
        "new", "refused: field `Army` is empty",
        "refused: field `First Name + Last Name` holds a text-direction control (U+202E), which no name may hold"]
    assert any(m.value == "1 new player; 2 rows refused (not registered)." for m in at.markdown)
    press(at, "Register 1 player")
    assert registered(data) == [("Anna Lind", "orcs", "North")]


def test_a_file_that_is_no_list_is_refused_saying_which_headers_name_the_players(tmp_path, monkeypatch) -> None:
    data = tmp_path / "data"
    imported(data, rounds=())
    at = upload(open_page(STANDINGS, data, monkeypatch), b"Nickname,Faction\nAnna,orcs\n")
    [error] = [e.value for e in at.error]
    assert error.startswith("players.csv:1: the header row names no column of the players' names") and "first name" in error
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


def test_without_a_list_chosen_nothing_offers_to_register_it(tmp_path, monkeypatch) -> None:
    data = tmp_path / "data"
    imported(data, rounds=())
    at = open_page(STANDINGS, data, monkeypatch)
    assert not at.warning and not any(b.label.startswith("Register ") and b.label != "Register from games"
                                      for b in at.button)
