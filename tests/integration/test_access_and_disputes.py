"""Access keys and disputes through the command line, over a real SQLite store (CliRunner)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app
from domain.access import Holder
from service.application import Rollcall, game_uuid

GAMES = Path(__file__).resolve().parents[1] / "games"
EXAMPLE = GAMES / "seed004-ex1-shove-enemy-failed-dodge.rollcall.jsonl"
GAME = "seed004-ex1"


@pytest.fixture
def run(tmp_data: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("ROLLCALL_KEY", raising=False)
    runner = CliRunner()

    def invoke(*args: str, key: str | None = None):
        extra = ["--key", key] if key else []
        return runner.invoke(app, [*args, "--data", str(tmp_data), *extra])

    return invoke


def added_key(result) -> str:
    assert result.exit_code == 0, result.output
    key = result.output.strip().splitlines()[-1]  # the key alone on the last line
    assert key.startswith("rk_") and " " not in key
    return key


@pytest.fixture
def keys(run) -> dict[str, str]:
    organiser = added_key(run("keys", "add", "organiser", "Olga"))
    return {"organiser": organiser,
            "judge": added_key(run("keys", "add", "judge", "Jules", key=organiser)),
            "scorekeeper": added_key(run("keys", "add", "scorekeeper", "Sam", key=organiser))}


def stored_rows(data: Path) -> int:
    with sqlite3.connect(data / "events.sqlite") as con:
        return con.execute("SELECT count(*) FROM stored_events").fetchone()[0]


def test_a_store_without_keys_is_single_user(run) -> None:
    assert run("import", str(EXAMPLE)).exit_code == 0
    assert run("dispute", "rule", GAME, "--judge", "J", "--about", "4", "--decision", "stands",
               "--text", "fine").exit_code == 0
    assert "single-user" in run("keys", "list").output


def test_the_first_key_must_be_an_organisers(run) -> None:
    result = run("keys", "add", "judge", "Jules")
    assert result.exit_code == 1 and "first key must be an organiser" in result.output


def test_only_the_hash_of_a_key_is_stored(run, tmp_data: Path, keys) -> None:
    with sqlite3.connect(tmp_data / "events.sqlite") as con:
        blob = b"".join(row[0] for row in con.execute("SELECT state FROM stored_events"))
    for key in keys.values():
        assert key.encode() not in blob
    listed = run("keys", "list").output
    assert "organiser    Olga" in listed and "judge        Jules" in listed and "rk_" not in listed


def test_writing_without_a_key_or_with_a_wrong_one_is_refused_and_writes_nothing(run, tmp_data: Path, keys) -> None:
    before = stored_rows(tmp_data)
    missing = run("import", str(EXAMPLE))
    assert missing.exit_code == 1 and "needs a key" in missing.output and "Traceback" not in missing.output
    wrong = run("import", str(EXAMPLE), key="rk_not-a-key")
    assert wrong.exit_code == 1 and "not a key of this store" in wrong.output
    assert stored_rows(tmp_data) == before
    # reading stays open
    assert run("games").exit_code == 0


def test_a_ruling_needs_a_judge_key_and_the_store_records_who_wrote_each_event(run, tmp_data: Path, keys) -> None:
    assert run("import", str(EXAMPLE), key=keys["scorekeeper"]).exit_code == 0
    opened = run("dispute", "open", GAME, "--by", "p1", "--about", "4,5,6", "--claim", "already activated",
                 key=keys["scorekeeper"])
    assert opened.exit_code == 0, opened.output
    assert "dispute opened by Anna about 4, 5, 6" in opened.output  # the player by name, not p1
    assert "Anna disputes 4, 5, 6" in run("dispute", "list", GAME).output
    before = stored_rows(tmp_data)
    refused = run("dispute", "rule", GAME, "--judge", "Jules", "--about", "4,5,6", "--decision", "void",
                  "--text", "upheld", key=keys["scorekeeper"])
    assert refused.exit_code == 1 and "needs a judge key" in refused.output and "'Sam'" in refused.output
    assert stored_rows(tmp_data) == before
    ruled = run("dispute", "rule", GAME, "--judge", "Jules", "--about", "4,5,6", "--decision", "void",
                "--text", "upheld", key=keys["judge"])
    assert ruled.exit_code == 0, ruled.output

    store = Rollcall.open(tmp_data)
    events = store.recorder.select_events(game_uuid(GAME))
    authors = [json.loads(e.state)["author"] for e in events]
    assert authors == ["Sam"] * 8 + ["Sam", "Jules"]


def test_a_refused_void_names_the_rule(run, keys) -> None:
    run("import", str(EXAMPLE), key=keys["scorekeeper"])
    result = run("dispute", "rule", GAME, "--judge", "Jules", "--about", "4", "--decision", "void", "--text", "x",
                 key=keys["judge"])
    assert result.exit_code == 1
    assert result.output.startswith("error: ") and "F01" in result.output and "seq 6 (ModelEjected)" in result.output


def test_replay_as_ruled_leaves_out_the_voided_events(run, keys) -> None:
    run("import", str(EXAMPLE), key=keys["scorekeeper"])
    run("dispute", "rule", GAME, "--judge", "Jules", "--about", "4,5,6", "--decision", "void", "--text", "x",
        key=keys["judge"])
    played = json.loads(run("replay", GAME, "--json").output)
    ruled = json.loads(run("replay", GAME, "--json", "--as-ruled").output)
    header = json.loads(EXAMPLE.read_text().splitlines()[0])
    setup = {m["id"]: m["at"] for m in header["setup"]["models"]}
    assert ruled["models"]["faceless"]["at"] == setup["faceless"]
    assert played["models"]["faceless"]["at"] != setup["faceless"]
    assert ruled["voided"] == [4, 5, 6] and ruled["seq"] == played["seq"] == 8
    listed = run("dispute", "list", GAME).output
    assert "Jules rules 4, 5, 6 void" in listed and "void in the as-ruled game: 4, 5, 6" in listed


def test_after_sealing_only_a_judge_may_write(run, keys) -> None:
    run("import", str(EXAMPLE), key=keys["scorekeeper"])
    assert run("seal", GAME, "--confirmed-by", "p1", "--confirmed-by", "p2", key=keys["scorekeeper"]).exit_code == 0
    note = json.dumps({"type": "Noted", "text": "scoresheet signed"})
    refused = run("record", GAME, note, key=keys["scorekeeper"])
    assert refused.exit_code == 1 and "sealed game" in refused.output
    assert run("record", GAME, note, key=keys["judge"]).exit_code == 0


def test_keys_are_added_and_revoked_by_an_organiser_only(run, keys) -> None:
    refused = run("keys", "add", "judge", "Jo", key=keys["judge"])
    assert refused.exit_code == 1 and "organiser" in refused.output
    assert run("keys", "revoke", "Sam", key=keys["organiser"]).exit_code == 0
    gone = run("import", str(EXAMPLE), key=keys["scorekeeper"])
    assert gone.exit_code == 1 and "not a key of this store" in gone.output


def test_the_key_may_come_from_the_environment(run, keys, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROLLCALL_KEY", keys["scorekeeper"])
    result = run("import", str(EXAMPLE))
    assert result.exit_code == 0, result.output


def test_a_refusal_says_what_the_write_needs_and_who_presented_the_key(run, tmp_data: Path, keys) -> None:
    """Besides its message, a refusal carries what a page needs to say it in its own words: the need, the reason
    and the holder of the key presented; it survives a worker process's pickling."""
    import pickle

    from domain.access import AccessDenied

    assert run("import", str(EXAMPLE), key=keys["scorekeeper"]).exit_code == 0
    ruling = {"judge": "Jules", "about": [4], "decision": "stands", "text": "fine"}
    refused = {}
    for who, key in (("nobody", None), ("stranger", "rk_not-a-key"), ("Sam", keys["scorekeeper"])):
        store = Rollcall.open(tmp_data, key=key)
        with pytest.raises(AccessDenied) as caught:
            store.make_ruling(GAME, **ruling)
        store.close()
        refused[who] = pickle.loads(pickle.dumps(caught.value))
    assert [(e.reason, e.need, e.holder) for e in refused.values()] == [
        (AccessDenied.NO_KEY, "judge", None), (AccessDenied.UNKNOWN_KEY, "judge", None),
        (AccessDenied.ROLE, "judge", Holder("Sam", "scorekeeper"))]
    assert all(e.roles == {"judge"} for e in refused.values())
    assert "pass --key" in str(refused["nobody"])  # the command line's own words are unchanged
    assert str(refused["Sam"]) == "a ruling needs a judge key; 'Sam' holds a scorekeeper key"
