"""Players' lists as the pairing tools export them (tests/lists: a Best Coast Pairings export, one with an Army
column and semicolons, a Longshanks-style list, a plain one, a hostile one): read as they come, every row read
or refused with its line and why, and registered in one event, check-ins included."""

from __future__ import annotations

from pathlib import Path

import pytest

from domain.player_lists import PlayerListError, columns_said, quoted, read_player_list
from domain.tournaments import TournamentError
from service.application import Rollcall

LISTS = Path(__file__).resolve().parents[1] / "lists"


def listed(name: str):
    return read_player_list((LISTS / name).read_bytes(), name)


def players(name: str) -> list[tuple]:
    return [(e.player, e.faction, e.club, e.checked_in) for e in listed(name).entries]


@pytest.fixture
def app() -> Rollcall:
    app = Rollcall(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
    app.create_tournament("Paper Cup", "t9a")
    return app


def test_a_best_coast_pairings_export_joins_first_and_last_names_reads_team_as_club_and_check_in() -> None:
    assert players("bcp.csv") == [("Anna Lind", "Orcs and Goblins", "North Guard", True),
                                  ("Boris Brandt", "Sylvan Elves", "North Guard", False),
                                  ("Chiara Costa", "Orcs and Goblins", None, True),
                                  ("Dmitri Lind, Jr.", "Sylvan Elves", "South Blades", True)]
    read = listed("bcp.csv")
    assert read.columns == {"name": ("First Name", "Last Name"), "faction": ("Faction",), "club": ("Team",),
                            "checked_in": ("Checked In",)}
    assert read.ignored == ["Email"] and read.refused == []


def test_an_export_with_an_army_column_semicolons_underscores_and_a_byte_order_mark_reads_the_same() -> None:
    assert players("bcp-army.csv") == [("Élodie Ørsted", "Dread Elves", "Les Lames", True),
                                       ("Gül Şahin", "Dwarven Holds", None, False)]
    assert listed("bcp-army.csv").ignored == ["E-mail"]


def test_a_longshanks_style_list_reads_its_player_column_and_ignores_rank_id_country_and_payment() -> None:
    assert players("longshanks.csv") == [("Hana Horáková", "Orcs and Goblins", "Prague Pikes", False),
                                         ("Ivo Ilić", "Sylvan Elves", None, False),
                                         ("Jana Jirásková", "Dread Elves", "Prague Pikes", False)]
    assert listed("longshanks.csv").ignored == ["Rank", "ID", "Country", "Paid"]


def test_a_plain_list_reads_name_faction_and_club() -> None:
    assert players("plain.csv") == [("Olga Smirnova", "orcs", "Neva", False), ("Pavel Petrov", "sylvan", None, False)]
    assert listed("plain.csv").ignored == []


def test_how_a_list_was_read_names_each_column_and_those_ignored() -> None:
    assert columns_said(listed("bcp.csv")) == ('bcp.csv: name from "First Name" + "Last Name"; faction from '
                                               '"Faction"; club from "Team"; check-in from "Checked In"; columns '
                                               'ignored: "Email"')


def test_a_list_without_a_name_column_says_which_headers_name_players() -> None:
    with pytest.raises(PlayerListError) as refused:
        listed("no-name.csv")
    said = str(refused.value)
    assert said.startswith("no-name.csv:1: the header row names no column of the players' names")
    for header in ("name", "player", "first name", "last name", "surname"):
        assert header in said
    assert "it has Player ID, Nickname, Faction" in said


def test_rows_that_cannot_be_players_are_refused_naming_line_and_field_and_the_others_are_read() -> None:
    read = listed("hostile.csv")
    assert [e.player for e in read.entries] == ["Anna Lind"]
    assert [str(r) for r in read.refused] == [
        "hostile.csv:3: field `name` holds a text-direction control (U+202E), which no name may hold",
        "hostile.csv:4: field `name` holds a control character (U+0000), which no name may hold",
        "hostile.csv:5: field `faction` is empty",
        "hostile.csv:6: field `name`: anna lind is listed on line 2 already",
        "hostile.csv:7: field `club` holds a control character (U+0009), which no name may hold"]


@pytest.mark.parametrize("text", [
    'NAME;FACTION;Club\n"Lind; Anna";orcs;\n',  # semicolons, as a spreadsheet of some countries saves
    '\ufeffname,faction\n"Lind; Anna",orcs\n',  # a byte order mark
    'faction\tname\nOrcs\tLind; Anna\n',  # tabs, columns in another order
])
def test_a_player_list_is_read_whatever_its_delimiter_case_and_order(text: str) -> None:
    [entry] = read_player_list(text.encode("utf-8"), "players.csv").entries
    assert (entry.player, entry.faction.lower(), entry.club) == ("Lind; Anna", "orcs", None)


def test_a_quoted_name_may_hold_commas_and_quotes_but_no_line_break() -> None:
    text = 'name,faction\n"Lind, ""Anna""",orcs\n"Boris\nBrandt",sylvan\n'
    read = read_player_list(text.encode(), "players.csv")
    assert [e.player for e in read.entries] == ['Lind, "Anna"']
    assert [str(r) for r in read.refused] == [
        "players.csv:3: field `name` holds a control character (U+000A), which no name may hold"]


@pytest.mark.parametrize("data, error", [
    (b"name,faction\nAnna,orcs\nB\xf6ris,orcs\n", r"players.csv:3: not UTF-8 text"),
    (b'name,faction\nAnna,orcs\n"Boris,orcs\n', r"players.csv:3: not CSV"),
    (b"name,faction\n" + b"Anna,orcs\n" * 120_000, r"players.csv: a player list is at most 1000 kB"),
    (b"name,club\nAnna,North\n", r"players.csv:1: the header row names no `faction` column \(headed faction, army;"),
])
def test_a_file_that_is_no_list_is_refused_whole_naming_the_file_and_line(data: bytes, error: str) -> None:
    with pytest.raises(PlayerListError, match=error):
        read_player_list(data, "players.csv")


@pytest.mark.parametrize("row, error", [
    (b"x" * 121 + b",orcs", "players.csv:2: field `name`: longer than 120 characters"),
    (b"Anna,orcs,maybe", "players.csv:2: field `checked in`: 'maybe' is neither yes nor no"),
])
def test_a_row_too_long_or_with_an_unreadable_check_in_is_refused(row: bytes, error: str) -> None:
    read = read_player_list(b"name,faction,checked in\n" + row + b"\n", "players.csv")
    assert [str(r) for r in read.refused] == [error] and read.entries == []


def test_names_are_quoted_so_that_a_comma_in_a_name_reads_as_one_name() -> None:
    assert quoted(["Lind, Anna", "Boris Brandt"]) == '"Lind, Anna", "Boris Brandt"'
    assert quoted([f"P{i}" for i in range(12)], most=2) == '"P0", "P1" and 10 more'


# --- registering a list -------------------------------------------------------------------------------

def test_a_list_registers_in_one_event_with_check_ins_and_clubs(app: Rollcall) -> None:
    done = app.register_players("Paper Cup", listed("bcp.csv").entries)
    assert [r["player"] for r in done.registered] == ["Anna Lind", "Boris Brandt", "Chiara Costa", "Dmitri Lind, Jr."]
    tournament = app.tournament("Paper Cup")
    assert tournament.version == 2, "the creation and one event for the whole list"
    assert {p: (e["club"] if "club" in e else None, e["checked_in"]) for p, e in tournament.players.items()} == {
        "Anna Lind": ("North Guard", True), "Boris Brandt": ("North Guard", False), "Chiara Costa": (None, True),
        "Dmitri Lind, Jr.": ("South Blades", True)}
    assert tournament.entrants() == ["Anna Lind", "Chiara Costa", "Dmitri Lind, Jr."], "check-in has begun"


def test_registering_a_list_again_adds_nobody_and_checks_in_those_it_says_checked_in(app: Rollcall) -> None:
    before = read_player_list(b"name,faction\nAnna Lind,orcs\nBoris Brandt,sylvan\nCarl Cole,orcs\n", "day-1.csv")
    app.register_players("Paper Cup", before.entries)
    app.drop_player("Paper Cup", "Carl Cole")
    later = read_player_list(b"name,faction,checked in\nanna lind,orcs,yes\nBoris Brandt,sylvan,no\n"
                             b"Carl Cole,orcs,yes\nDana Dorn,orcs,yes\n", "day-2.csv")
    preview = app.preview_players("Paper Cup", later.entries)
    assert app.tournament("Paper Cup").players["Anna Lind"]["checked_in"] is False, "a preview changes nothing"
    done = app.register_players("Paper Cup", later.entries)
    assert (preview.registered, preview.already, preview.checked_in) == (done.registered, done.already, done.checked_in)
    assert [r["player"] for r in done.registered] == ["Dana Dorn"]
    assert done.already == ["Anna Lind", "Boris Brandt", "Carl Cole"] and done.checked_in == ["Anna Lind"]
    assert app.tournament("Paper Cup").entrants() == ["Anna Lind", "Dana Dorn"], "Carl dropped out: not checked in"


@pytest.mark.parametrize("hidden", ["\u202e", "\x00", "\n", "\u2066"])
def test_a_name_with_a_control_or_text_direction_character_is_refused_one_by_one_too(app: Rollcall,
                                                                                    hidden: str) -> None:
    code = rf"U\+{ord(hidden):04X}"
    with pytest.raises(TournamentError, match=rf"field `player` holds .*\({code}\), which no name may hold"):
        app.register_player("Paper Cup", f"Anna{hidden}Lind", "orcs")
    with pytest.raises(TournamentError, match=rf"field `club` holds .*\({code}\)"):
        app.register_player("Paper Cup", "Anna", "orcs", f"North{hidden}Guard")
    assert app.tournament("Paper Cup").players == {}


def test_a_tournament_named_with_a_text_direction_control_is_refused(app: Rollcall) -> None:
    with pytest.raises(TournamentError, match=r"U\+202E"):
        app.create_tournament("Open\u202e2026", "t9a")
