"""A cold start: a follower that finds no read models on a large store publishes the current tournament's first,
keeps it live, fills in every other game at quiet moments, and ends with the read models of a clean rebuild.
Real SQLite store, real DuckDB files."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from stored import published_tables

from domain.settings import COLD_START_ENV, EVENTS_FILE, FILL_FILE
from projections.projector import SCOPE_TABLE, Projector
from projections.queries import connect_read, list_games
from service.application import Rollcall
from simulation.tournaments import simulate_tournament

pytestmark = [pytest.mark.slow]


def store_of(data: Path, *tournaments: tuple[str, str, int, int]) -> dict[str, list[str]]:
    """The tournaments simulated and stored one after the other: their games' names."""
    app = Rollcall.open(data)
    games = {}
    try:
        for i, (system, name, players, rounds) in enumerate(tournaments):
            games[name] = []
            for game in simulate_tournament(system, name, players, rounds, seed=30 + i, turns=1):
                app.import_record(game.lines, game.game)
                games[name].append(game.game)
    finally:
        app.close()
    return games


def tournaments_shown(data: Path) -> dict[str, int]:
    con = connect_read(data)
    try:
        shown: dict[str, int] = {}
        for game in list_games(con):
            shown[game["tournament"]] = shown.get(game["tournament"], 0) + 1
        return shown
    finally:
        con.close()


def test_a_cold_start_shows_the_current_tournament_first_then_fills_in_every_game(tmp_path, monkeypatch):
    data = tmp_path / "data"
    games = store_of(data, ("tornscape", "Old Cup", 8, 2), ("claustrophobia", "Spring Open", 6, 2),
                     ("tornscape", "Live Cup", 6, 2))
    monkeypatch.setenv(COLD_START_ENV, "1")  # this small store counts as large
    with Projector(data).session(cold=True) as session:
        session.step(statistics=True)
        assert session.filling() is not None
        assert tournaments_shown(data) == {"Live Cup": len(games["Live Cup"])}  # the current tournament alone
        con = connect_read(data)
        try:
            assert con.execute(f"SELECT tournament FROM {SCOPE_TABLE}").fetchall() == [("Live Cup",)]
        finally:
            con.close()

        # games begun while the rest is filled in are shown at the next step
        more = store_of(data, ("tornscape", "Evening Cup", 2, 1))["Evening Cup"]
        session.step(statistics=False)
        assert tournaments_shown(data) == {"Live Cup": len(games["Live Cup"]), "Evening Cup": len(more)}

        steps = 0
        while session.fill_some():
            steps += 1
            assert steps < 100, "the fill never ended"
        assert session.filling() is None and not (data / FILL_FILE).exists()
        assert steps >= 1
        assert tournaments_shown(data) == {"Old Cup": len(games["Old Cup"]), "Spring Open": len(games["Spring Open"]),
                                           "Live Cup": len(games["Live Cup"]), "Evening Cup": len(more)}
        session.step(statistics=True)

    # a clean rebuild of the same store gives the same read models
    clean = tmp_path / "clean"
    clean.mkdir()
    with sqlite3.connect(data / EVENTS_FILE) as source, sqlite3.connect(clean / EVENTS_FILE) as copy:
        source.backup(copy)
    Projector(clean).run(rebuild=True)
    assert published_tables(data) == published_tables(clean)
    # and the next session of the folder is no cold start: the read models hold every game
    with Projector(data).session(cold=True) as session:
        assert session.filling() is None


def test_a_small_store_is_projected_whole(tmp_path):
    data = tmp_path / "data"
    games = store_of(data, ("tornscape", "Old Cup", 4, 1), ("tornscape", "Live Cup", 4, 1))
    with Projector(data).session(cold=True) as session:
        session.step()
        assert session.filling() is None
    assert tournaments_shown(data) == {name: len(found) for name, found in games.items()}


@pytest.mark.postgres
def test_a_cold_start_on_a_postgres_store_shows_the_current_tournament_first(tmp_path, monkeypatch, postgres_env):
    sqlite = tmp_path / "sqlite"
    games = store_of(sqlite, ("tornscape", "Old Cup", 6, 1), ("tornscape", "Live Cup", 6, 1))
    app, source = Rollcall(env=postgres_env), Rollcall.open(sqlite)
    try:
        for name in games["Old Cup"] + games["Live Cup"]:  # the same games, stored in PostgreSQL
            app.import_record(list(source.export_lines(name)), name)
        monkeypatch.setenv(COLD_START_ENV, "1")
        data = tmp_path / "pg"
        with Projector(data, app=app).session(cold=True) as session:
            session.step()
            assert tournaments_shown(data) == {"Live Cup": len(games["Live Cup"])}
            while session.fill_some():
                pass
        assert tournaments_shown(data) == {name: len(found) for name, found in games.items()}
    finally:
        app.close()
        source.close()
