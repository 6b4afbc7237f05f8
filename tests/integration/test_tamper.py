"""Damage the SQLite event store behind Rollcall's back; ``verify`` names the first damaged seq and how."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from service.application import Rollcall, game_uuid
from domain.errors import GameNotFound

GOLDEN = Path(__file__).resolve().parents[1] / "games" / "seed004-ex4-shove-order.rollcall.jsonl"
GAME = "seed004-ex4"  # 8 events: seq 1..8 at originator_version 2..9


@pytest.fixture
def data(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    app = Rollcall.open(folder)
    app.import_record(GOLDEN.read_text(encoding="utf-8").splitlines(), str(GOLDEN))
    # a second game in the same table must not disturb the first one's verification
    other = [json.loads(line) for line in GOLDEN.read_text(encoding="utf-8").splitlines() if not line.startswith("#")]
    other[0] = {**{k: v for k, v in other[0].items() if k not in ("hash", "round")}, "game": "bystander"}
    app.import_record([json.dumps(other[0])] + [json.dumps({k: v for k, v in e.items() if k != "hash"})
                                                for e in other[1:]], "bystander")
    app.close()
    return folder


@pytest.fixture
def db(data: Path) -> Iterator[sqlite3.Connection]:
    con = sqlite3.connect(data / "events.sqlite")
    yield con
    con.commit()
    con.close()


OID = game_uuid(GAME).hex


def row_state(con: sqlite3.Connection, version: int) -> dict:
    (blob,) = con.execute("SELECT state FROM stored_events WHERE originator_id = ? AND originator_version = ?",
                          (OID, version)).fetchone()
    return json.loads(blob)


def set_state(con: sqlite3.Connection, version: int, state: dict) -> None:
    blob = json.dumps(state, separators=(",", ":"), ensure_ascii=False).encode()
    cur = con.execute("UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = ?",
                      (blob, OID, version))
    assert cur.rowcount == 1


def verify(data: Path, db: sqlite3.Connection):
    db.commit()
    app = Rollcall.open(data)
    try:
        return app.verify(GAME)
    finally:
        app.close()


def test_an_undamaged_game_verifies(data: Path, db: sqlite3.Connection) -> None:
    result = verify(data, db)
    assert result.ok and result.damage is None and result.events == 8
    assert db.execute("SELECT count(*) FROM stored_events WHERE originator_id = ?", (OID,)).fetchone() == (9,)


def test_the_store_holds_the_record_lines_as_json(db: sqlite3.Connection) -> None:
    (line,) = db.execute("SELECT json_extract(state, '$.data.to') FROM stored_events "
                         "WHERE originator_id = ? AND originator_version = 8", (OID,)).fetchone()
    assert json.loads(line) == [7, 5]


def test_a_field_changed_inside_a_stored_event_is_found(data: Path, db: sqlite3.Connection) -> None:
    state = row_state(db, 8)  # seq 7: the Swordsman's ejection
    assert state["data"]["to"] == [7, 5]
    state["data"]["to"] = [3, 6]
    set_state(db, 8, state)
    damage = verify(data, db).damage
    assert (damage.seq, damage.kind) == (7, "changed")
    assert "hash" in damage.detail


def test_a_field_changed_with_sqlite_json_functions_is_found(data: Path, db: sqlite3.Connection) -> None:
    db.execute("UPDATE stored_events SET state = json_set(state, '$.data.faces', json('[\"blank\"]')) "
               "WHERE originator_id = ? AND originator_version = 7", (OID,))  # seq 6: the dodge roll
    damage = verify(data, db).damage
    assert (damage.seq, damage.kind) == (6, "changed")


def test_a_changed_header_is_found(data: Path, db: sqlite3.Connection) -> None:
    state = row_state(db, 1)
    state["data"]["players"][0]["name"] = "Mallory"
    set_state(db, 1, state)
    damage = verify(data, db).damage
    assert (damage.seq, damage.kind) == (0, "changed")


def test_a_changed_topic_is_found(data: Path, db: sqlite3.Connection) -> None:
    db.execute("UPDATE stored_events SET topic = 'rollcall:Noted' WHERE originator_id = ? AND originator_version = 5",
               (OID,))
    damage = verify(data, db).damage
    assert (damage.seq, damage.kind) == (4, "changed")
    assert "rollcall:Noted" in damage.detail and "ModelMoved" in damage.detail


def test_a_deleted_row_is_found(data: Path, db: sqlite3.Connection) -> None:
    db.execute("DELETE FROM stored_events WHERE originator_id = ? AND originator_version = 6", (OID,))  # seq 5
    damage = verify(data, db).damage
    assert (damage.seq, damage.kind) == (5, "removed")
    assert "seq 5" in damage.detail and "seq 6" in damage.detail


def test_a_deleted_header_is_found(data: Path, db: sqlite3.Connection) -> None:
    db.execute("DELETE FROM stored_events WHERE originator_id = ? AND originator_version = 1", (OID,))
    damage = verify(data, db).damage
    assert (damage.seq, damage.kind) == (0, "removed")


def test_two_rows_with_swapped_states_are_found(data: Path, db: sqlite3.Connection) -> None:
    third, fifth = row_state(db, 4), row_state(db, 6)  # seq 3 and seq 5
    set_state(db, 4, fifth)
    set_state(db, 6, third)
    damage = verify(data, db).damage
    assert (damage.seq, damage.kind) == (3, "reordered")
    assert "seq 3" in damage.detail and "version 6" in damage.detail


def test_adjacent_rows_swapped_are_found(data: Path, db: sqlite3.Connection) -> None:
    a, b = row_state(db, 8), row_state(db, 9)  # the last two events, seq 7 and 8
    set_state(db, 8, b)
    set_state(db, 9, a)
    damage = verify(data, db).damage
    assert (damage.seq, damage.kind) == (7, "reordered")


def insert(db: sqlite3.Connection, version: int, topic: str, state: dict) -> None:
    db.execute("INSERT INTO stored_events (originator_id, originator_version, topic, state) VALUES (?, ?, ?, ?)",
               (OID, version, topic, json.dumps(state, separators=(",", ":")).encode()))


def test_an_inserted_copy_of_an_event_is_found(data: Path, db: sqlite3.Connection) -> None:
    insert(db, 10, "rollcall:ModelEjected", row_state(db, 6))  # replays seq 5 (the Guardsman's ejection)
    result = verify(data, db)
    assert (result.damage.seq, result.damage.kind) == (9, "inserted")
    assert "version 10" in result.damage.detail and "seq 5" in result.damage.detail


def test_an_inserted_event_after_a_gap_in_versions_is_found(data: Path, db: sqlite3.Connection) -> None:
    fake = row_state(db, 9)
    fake["data"] = {"type": "Noted", "text": "Boris conceded", "seq": 9, "hash": "0" * 64}
    insert(db, 20, "rollcall:Noted", fake)
    damage = verify(data, db).damage
    assert (damage.seq, damage.kind) == (9, "inserted")
    assert "version 20" in damage.detail


def test_an_inserted_event_that_pushes_the_others_along_is_found(data: Path, db: sqlite3.Connection) -> None:
    """Versions 5.. shifted up by one and a forged seq-4 event put at version 5."""
    rows = db.execute("SELECT originator_version, topic, state FROM stored_events WHERE originator_id = ? "
                      "AND originator_version >= 5 ORDER BY originator_version DESC", (OID,)).fetchall()
    for version, _topic, _state in rows:
        db.execute("UPDATE stored_events SET originator_version = ? WHERE originator_id = ? AND "
                   "originator_version = ?", (version + 1, OID, version))
    forged = row_state(db, 4)
    forged["data"] = {"type": "Noted", "text": "forged", "seq": 4, "hash": "f" * 64}
    insert(db, 5, "rollcall:Noted", forged)
    damage = verify(data, db).damage
    assert (damage.seq, damage.kind) == (4, "inserted")
    assert "version 5" in damage.detail and "version 6" in damage.detail  # the genuine seq 4 now at version 6


def test_the_other_game_in_the_store_still_verifies(data: Path, db: sqlite3.Connection) -> None:
    db.execute("DELETE FROM stored_events WHERE originator_id = ? AND originator_version = 6", (OID,))
    db.commit()
    app = Rollcall.open(data)
    assert not app.verify(GAME).ok
    assert app.verify("bystander").ok


def test_verify_of_an_unknown_game_says_so(data: Path) -> None:
    with pytest.raises(GameNotFound):
        Rollcall.open(data).verify("no-such-game")


# --- an anchor kept outside the store --------------------------------------------------------

def anchor() -> dict[int, str]:
    from domain.record import read_anchors

    with GOLDEN.open(encoding="utf-8") as handle:
        return read_anchors(handle, str(GOLDEN))[GAME]


def verify_against(data: Path, db: sqlite3.Connection, hashes: dict[int, str]):
    db.commit()
    app = Rollcall.open(data)
    try:
        return app.verify(GAME, hashes)
    finally:
        app.close()


def test_a_deleted_last_event_is_found_only_against_an_anchor(data: Path, db: sqlite3.Connection) -> None:
    db.execute("DELETE FROM stored_events WHERE originator_id = ? AND originator_version = 9", (OID,))  # seq 8
    assert verify(data, db).ok  # the chain that is left holds together
    damage = verify_against(data, db, anchor()).damage
    assert (damage.seq, damage.kind) == (8, "removed")
    assert "ends at seq 7" in damage.detail


def rewrite_from_seq_3(db: sqlite3.Connection, *, authorship_too: bool, change=None) -> None:
    """Change seq 3 (a note, or ``change(data)``), then compute every hash after it again (and the authorship
    chain, if asked)."""
    from domain.integrity import authorship
    from domain.record import event_hash

    previous = row_state(db, 3)["data"]["hash"]  # seq 2
    authored = row_state(db, 3)["authored"]
    for version in range(4, 10):
        state = row_state(db, version)
        if version == 4:
            (change or (lambda data: data.update(note="rewritten")))(state["data"])
        state["data"]["hash"] = previous = event_hash(previous, state["data"])
        if authorship_too:
            state["authored"] = authored = authorship(authored, previous, state["author"])
        set_state(db, version, state)


def test_a_game_rewritten_and_chained_again_breaks_the_authorship_chain(data: Path, db: sqlite3.Connection) -> None:
    rewrite_from_seq_3(db, authorship_too=False)
    damage = verify(data, db).damage
    assert (damage.seq, damage.kind) == (3, "changed")
    assert "authorship" in damage.detail


def test_a_game_rewritten_with_both_chains_again_is_found_against_an_anchor(data: Path, db: sqlite3.Connection) -> None:
    rewrite_from_seq_3(db, authorship_too=True)
    assert verify(data, db).ok
    damage = verify_against(data, db, anchor()).damage
    assert (damage.seq, damage.kind) == (3, "changed")


def test_an_author_changed_in_place_is_found(data: Path, db: sqlite3.Connection) -> None:
    state = row_state(db, 5)
    state["author"] = "Mallory"
    set_state(db, 5, state)
    damage = verify(data, db).damage
    assert (damage.seq, damage.kind) == (4, "changed")
    assert "Mallory" in damage.detail


def test_an_undamaged_game_verifies_against_its_own_export_and_its_head(data: Path, db: sqlite3.Connection) -> None:
    assert verify_against(data, db, anchor()).ok
    app = Rollcall.open(data)
    (head,) = app.heads([GAME])
    app.close()
    assert (head["seq"], head["hash"]) == (8, anchor()[8])
    assert verify_against(data, db, {head["seq"]: head["hash"]}).ok


def test_a_game_rewritten_into_one_its_rules_cannot_replay_is_found(data: Path, db: sqlite3.Connection) -> None:
    """Both chains computed again around a line the rules never accepted (seq 3 activates a model the game
    never had): the chains hold, the replay does not."""
    rewrite_from_seq_3(db, authorship_too=True, change=lambda data: data.update(model="nobody"))
    damage = verify(data, db).damage
    assert (damage.seq, damage.kind) == (3, "unreplayable")
    assert "KeyError" in damage.detail


# --- the command line names the damaged game and goes on with the others ---------------------------------------

def lose_the_header(db: sqlite3.Connection) -> None:
    db.execute("DELETE FROM stored_events WHERE originator_id = ? AND originator_version = 1", (OID,))


def write_a_lone_surrogate(db: sqlite3.Connection) -> None:
    (blob,) = db.execute("SELECT state FROM stored_events WHERE originator_id = ? AND originator_version = 4",
                         (OID,)).fetchone()
    blob = blob.replace(b'"type":"', b'"x_text":"\\ud800","type":"', 1)
    db.execute("UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = 4", (blob, OID))


def rename_the_game(db: sqlite3.Connection) -> None:
    state = row_state(db, 1)
    state["data"]["game"] = "another-game"
    set_state(db, 1, state)


def unreadable_row(db: sqlite3.Connection) -> None:
    db.execute("UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = 4",
               (b'{"data":', OID))


def cli(data: Path, *args: str):
    from typer.testing import CliRunner

    from cli.main import app as rollcall

    result = CliRunner().invoke(rollcall, [*args, "--data", str(data)])
    assert "Traceback" not in result.output and (result.exception is None or isinstance(result.exception, SystemExit))
    return result


@pytest.mark.parametrize("tamper, named, says", [
    (lose_the_header, str(game_uuid(GAME)), "seq 0 removed: the header is missing"),
    (write_a_lone_surrogate, GAME, "seq 3 changed: the stored event at version 4 cannot be read"),
    (unreadable_row, GAME, "seq 3 changed: the stored event at version 4 cannot be read"),
    (rename_the_game, "another-game", "seq 0 changed: the header does not match its hash"),
])
def test_verify_names_a_tampered_game_and_verifies_the_others(data: Path, db: sqlite3.Connection, tamper, named: str,
                                                              says: str) -> None:
    tamper(db)
    db.commit()
    result = cli(data, "verify")
    assert result.exit_code == 1
    assert f"DAMAGED  {named}: {says}" in result.output
    assert "OK       bystander (8 events)" in result.output


@pytest.mark.parametrize("tamper, says", [
    (lose_the_header, "its header (GameCreated) is not in the store"),
    (write_a_lone_surrogate, "its stored row at version 4 cannot be read"),
    (unreadable_row, "its stored row at version 4 cannot be read"),
])
def test_export_of_a_tampered_game_is_one_error_line(data: Path, db: sqlite3.Connection, tamper, says: str) -> None:
    tamper(db)
    db.commit()
    result = cli(data, "export", GAME)
    assert result.exit_code == 1 and result.output.startswith(f"error: game '{GAME}': {says}")
    assert len(result.output.strip().splitlines()) == 1
    assert cli(data, "export", "bystander").exit_code == 0
    assert cli(data, "games").exit_code == 0 and cli(data, "heads").exit_code == 0


@pytest.mark.parametrize("tamper, named, says", [
    (lose_the_header, f"the game stored as {OID}", " from seq 1: its header (GameCreated) is not in the store"),
    (write_a_lone_surrogate, f"game {GAME}", ": a stored event cannot be read"),
    (unreadable_row, f"game {GAME}", ": a stored event cannot be read"),
])
def test_project_names_a_tampered_game_and_keeps_the_others_current(data: Path, db: sqlite3.Connection, tamper,
                                                                    named: str, says: str) -> None:
    from projections.queries import connect_read, rows

    tamper(db)
    db.commit()
    result = cli(data, "project")
    assert result.exit_code == 1
    assert f"error: {named} cannot be replayed{says}" in result.output
    con = connect_read(data)
    try:
        assert rows(con, "SELECT count(*) AS n FROM fct_events WHERE game = 'bystander'")[0]["n"] == 8
    finally:
        con.close()
    replay = cli(data, "replay", "bystander", "--json")
    assert replay.exit_code == 0 and json.loads(replay.output)["last_seq"] == 8
