"""Players' lists from the command line, on a real store and its read models: each shape of tests/lists
registered (names joined, team as club, check-in), how each was read said, a preview that registers nobody,
re-registration unambiguous about names holding commas, and nearly a megabyte of names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app

LISTS = Path(__file__).resolve().parents[1] / "lists"
NAME = "Paper Cup"


@pytest.fixture
def run(tmp_data: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("ROLLCALL_KEY", raising=False)
    runner = CliRunner()

    def invoke(*args: str, ok: bool = True):
        result = runner.invoke(app, [*args, "--data", str(tmp_data)])
        if ok:
            assert result.exit_code == 0, result.output
        return result

    invoke("tournament", "create", NAME, "--system", "t9a")
    return invoke


def registered(run) -> list[tuple]:
    return [(p["player"], p["faction"], p["club"], p["checked_in"])
            for p in json.loads(run("tournament", "players", NAME, "--json").stdout)]


def test_a_best_coast_pairings_export_registers_with_clubs_from_its_team_column_and_check_ins(run) -> None:
    said = run("tournament", "register", NAME, "--csv", str(LISTS / "bcp.csv")).output
    assert 'name from "First Name" + "Last Name"; faction from "Faction"; club from "Team"; check-in from ' \
           '"Checked In"; columns ignored: "Email"' in said
    assert "registered 4 players in Paper Cup" in said
    assert registered(run) == [("Anna Lind", "Orcs and Goblins", "North Guard", True),
                               ("Boris Brandt", "Sylvan Elves", "North Guard", False),
                               ("Chiara Costa", "Orcs and Goblins", None, True),
                               ("Dmitri Lind, Jr.", "Sylvan Elves", "South Blades", True)]
    again = run("tournament", "register", NAME, "--csv", str(LISTS / "bcp.csv")).output
    assert 'registered 0 players in Paper Cup; 4 already registered: "Anna Lind", "Boris Brandt", "Chiara Costa", ' \
           '"Dmitri Lind, Jr."' in again


@pytest.mark.parametrize("listed, ignored, players", [
    ("bcp-army.csv", '"E-mail"', [("Élodie Ørsted", "Dread Elves", "Les Lames", True),
                                  ("Gül Şahin", "Dwarven Holds", None, False)]),
    ("longshanks.csv", '"Rank", "ID", "Country", "Paid"', [("Hana Horáková", "Orcs and Goblins", "Prague Pikes", False),
                                                          ("Ivo Ilić", "Sylvan Elves", None, False),
                                                          ("Jana Jirásková", "Dread Elves", "Prague Pikes", False)]),
    ("plain.csv", None, [("Olga Smirnova", "orcs", "Neva", False), ("Pavel Petrov", "sylvan", None, False)]),
])
def test_every_shape_of_list_registers_and_names_the_columns_it_ignored(run, listed: str, ignored: str | None,
                                                                         players: list[tuple]) -> None:
    said = run("tournament", "register", NAME, "--csv", str(LISTS / listed)).output
    assert (f"columns ignored: {ignored}" if ignored else "no column ignored") in said
    assert registered(run) == players


def test_a_preview_says_what_registering_would_do_and_registers_nobody(run) -> None:
    run("tournament", "register", NAME, "--player", "Anna Lind", "--faction", "orcs")
    said = run("tournament", "register", NAME, "--csv", str(LISTS / "hostile.csv"), "--preview", ok=False)
    assert said.exit_code == 1
    assert 'would register 0 players in Paper Cup; 1 already registered: "Anna Lind"' in said.output
    assert "refused 5 rows (their players are not registered):" in said.output
    assert "hostile.csv:3: field `name` holds a text-direction control (U+202E)" in said.output
    assert "Traceback" not in said.output
    assert registered(run) == [("Anna Lind", "orcs", None, False)]


def test_a_list_of_nearly_a_megabyte_registers_whole_and_shows_in_the_read_models(run, tmp_path: Path) -> None:
    listed = tmp_path / "big.csv"  # (how fast: bench/player_list.py)
    rows = "".join(f"P{i:05d},orcs,C{i % 97}\n" for i in range(55_000))
    listed.write_text("name,faction,club\n" + rows, encoding="utf-8")
    assert listed.stat().st_size > 850_000
    said = run("tournament", "register", NAME, "--csv", str(listed)).output
    assert "registered 55000 players" in said
    players = json.loads(run("tournament", "players", NAME, "--json").stdout)
    assert len(players) == 55_000 and players[-1] == {"registration": 55_000, "player": "P54999", "faction": "orcs",
                                                      "club": "C0", "checked_in": False, "dropped_after_round": None}
