"""A store whose states eventsourcing encrypts and compresses (CIPHER_TOPIC/CIPHER_KEY, COMPRESSOR_TOPIC): import
(one by one and in bulk), record, project (by the projector's reading children too), verify and export all work,
on SQLite and on PostgreSQL, and no name of the records is left readable in the store."""

from __future__ import annotations

from pathlib import Path

import pytest
from eventsourcing.cipher import AESCipher

from service.application import Rollcall, Written
from domain.settings import EVENTS_FILE
from projections.projector import Projector
from projections.queries import connect_read
from service.importing import import_files

GAMES = sorted((Path(__file__).resolve().parents[1] / "games").glob("*.rollcall.jsonl"))
T9A = next(p for p in GAMES if p.name.startswith("t9a-dispelled"))


@pytest.fixture(params=["sqlite", "postgres"])
def store_settings(request, tmp_data: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A data folder whose store (the embedded SQLite file, or a PostgreSQL schema) encrypts and compresses."""
    if request.param == "postgres":
        request.applymarker(pytest.mark.postgres)
        for name, value in request.getfixturevalue("postgres_env").items():
            monkeypatch.setenv(name, value)
    monkeypatch.setenv("CIPHER_TOPIC", "eventsourcing.cipher:AESCipher")
    monkeypatch.setenv("CIPHER_KEY", AESCipher.create_key(16))
    monkeypatch.setenv("COMPRESSOR_TOPIC", "eventsourcing.compressor:ZlibCompressor")
    return tmp_data


def test_an_encrypted_and_compressed_store_imports_records_projects_verifies_and_exports(store_settings: Path) -> None:
    data = store_settings
    app = Rollcall.open(data)
    try:
        app.import_record(T9A.read_text().splitlines(), str(T9A))
        results = list(import_files(app, [p for p in GAMES if p != T9A], workers=2))
        assert all(isinstance(r, Written) for r in results), results
        game = "tornscape-recorded-here"
        app.write(header={"rollcall": 1, "system": "tornscape", "game": game,
                          "players": [{"id": "p1", "name": "Zoltan"}, {"id": "p2", "name": "Yelena"}],
                          "setup": {"board": {"width": 6, "height": 6}}})
        app.record(game, {"type": "TurnStarted", "turn": 1})

        assert Projector(data, app=app).run(rebuild=True, batch_size=40) > 0  # read in windows by children
        games = {h["game"] for h in app.headers()}
        assert len(games) == len(GAMES) + 1
        assert all(app.verify(g).ok for g in games)
        assert list(app.export_lines(T9A.stem.removesuffix(".rollcall"))) == [
            line for line in T9A.read_text().splitlines() if line and not line.startswith("#")]
    finally:
        app.close()
    con = connect_read(data)
    try:
        assert con.execute("SELECT count(DISTINCT game) FROM dim_games").fetchone()[0] == len(GAMES) + 1
        assert con.execute("SELECT count(*) FROM fct_events WHERE game = 'tornscape-recorded-here'").fetchone()[0] == 1
        assert con.execute("SELECT count(*) FROM fct_projection_failures").fetchone()[0] == 0
        [(p_pass,)] = con.execute("SELECT p_pass FROM fct_casts WHERE game = 't9a-dispelled-failed-bound' "
                                  "ORDER BY seq LIMIT 1").fetchall()
        assert 0 < p_pass < 1
    finally:
        con.close()
    embedded = data / EVENTS_FILE
    if embedded.is_file() and embedded.stat().st_size > 50_000:
        stored = embedded.read_bytes()
        assert b"Zoltan" not in stored and b"Anna" not in stored  # the states are ciphertext
