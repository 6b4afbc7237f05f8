"""Rounds played elsewhere come in as records, as exported or as edited (docs/organiser.md): a record changed after
its export keeps hashes that no longer match, and is refused saying so and how an edited record comes in; with
`rollcall import --edited` (or its hashes removed by hand) it is taken as a new record, chained again, which
verifies; the next round is paired after them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app
from elsewhere import players_csv, round_records

NAME = "Paper Cup"


@pytest.fixture
def run(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("ROLLCALL_KEY", raising=False)
    runner = CliRunner()

    def invoke(data: Path, *args: str, ok: bool = True):
        result = runner.invoke(app, [*args, "--data", str(data)])
        if ok:
            assert result.exit_code == 0, result.output
        assert "Traceback" not in result.output
        return result

    return invoke


def exported_round(run, tmp_path: Path) -> Path:
    """Round 1 recorded in another store (the club's laptop) and exported game by game, hashes and all."""
    club, folder = tmp_path / "club", tmp_path / "round1"
    folder.mkdir()
    for number, lines in enumerate(round_records(NAME, 1), start=1):
        written = tmp_path / f"written-{number}.rollcall.jsonl"
        written.write_text("\n".join(lines) + "\n", encoding="utf-8")
        run(club, "import", str(written))
        run(club, "export", f"paper-r1-t{number}", "-o", str(folder / f"paper-r1-t{number}.rollcall.jsonl"))
    return folder


def edit_score(path: Path) -> None:
    """The result corrected by hand in a text editor: 3–1 was 2–2 (the winner follows), the hashes left as they were."""
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    ended = next(line for line in lines if line.get("type") == "GameEnded")
    ended.update(score={"p1": 2, "p2": 2}, winner=None)
    path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")


def test_a_record_edited_after_export_is_refused_saying_how_an_edited_record_comes_in(run, tmp_path: Path) -> None:
    folder = exported_round(run, tmp_path)
    edit_score(folder / "paper-r1-t2.rollcall.jsonl")
    venue = tmp_path / "venue"
    refused = run(venue, "import", str(folder), ok=False)
    assert refused.exit_code == 1
    assert f"{folder / 'paper-r1-t2.rollcall.jsonl'}:2 (GameEnded): `hash` does not match the line: the record was " \
           "changed after it was exported. A record edited by hand is taken as a new record, chained again, once " \
           "the `hash` of every line is left out (`rollcall import --edited` leaves them out)" in refused.output
    assert "imported paper-r1-t1" in refused.output and "paper-r1-t2:" not in refused.output


def test_edited_records_come_in_with_edited_chained_again_and_the_next_round_pairs(run, tmp_path: Path) -> None:
    folder = exported_round(run, tmp_path)
    edit_score(folder / "paper-r1-t2.rollcall.jsonl")
    venue = tmp_path / "venue"
    listed = tmp_path / "players.csv"
    listed.write_bytes(players_csv())
    run(venue, "tournament", "create", NAME, "--system", "t9a")
    run(venue, "tournament", "register", NAME, "--csv", str(listed))
    said = run(venue, "import", str(folder), "--edited").output
    assert said.count("imported paper-r1-t") == 4
    ended = json.loads(run(venue, "export", "paper-r1-t2").stdout.splitlines()[-1])
    assert (ended["score"], ended["winner"]) == ({"p1": 2, "p2": 2}, None)
    original = json.loads((folder / "paper-r1-t2.rollcall.jsonl").read_text(encoding="utf-8").splitlines()[-1])
    assert ended["hash"] != original["hash"], "a new record: chained again"
    assert run(venue, "verify").exit_code == 0
    results = json.loads(run(venue, "tournament", "results", NAME, "--json").stdout)
    assert [r["result"] for r in results] == ["W", "D", "W", "W"]
    assert "round 2 of Paper Cup: 4 tables" in run(venue, "tournament", "pair", NAME, "--round", "2").output


def test_a_record_without_its_hashes_comes_in_as_a_new_record_without_edited(run, tmp_path: Path) -> None:
    folder = exported_round(run, tmp_path)
    path = folder / "paper-r1-t3.rollcall.jsonl"
    edit_score(path)
    lines = [{k: v for k, v in json.loads(line).items() if k != "hash"}
             for line in path.read_text(encoding="utf-8").splitlines()]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    assert "imported paper-r1-t3: 1 event" in run(tmp_path / "venue", "import", str(path)).output
