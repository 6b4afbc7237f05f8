"""Tournaments end to end through the command line (CliRunner): create, simulate, import, standings and
results read from the DuckDB read models."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app

GAMES = Path(__file__).resolve().parents[1] / "games"


@pytest.fixture
def run(tmp_data: Path):
    runner = CliRunner()

    def invoke(*args: str, data: Path = tmp_data):
        return runner.invoke(app, [*args, "--data", str(data)])

    return invoke


def naive_standings(records: list[list[dict]], byes: list[str], win: int = 3, draw: int = 1, loss: int = 0,
                    bye: int = 3) -> dict[str, tuple[int, int, int, int, int]]:
    """Independent of the read models: player -> (rank, TP, VP diff, VP for, SoS) from the records themselves."""
    rows: dict[str, dict] = {}
    for lines in records:
        header, ended = lines[0], lines[-1]
        names = {p["id"]: p["name"] for p in header["players"]}
        for pid, name in names.items():
            other = next(o for o in names if o != pid)
            r = rows.setdefault(name, {"tp": 0, "for": 0, "against": 0, "opps": []})
            r["tp"] += draw if ended["winner"] is None else win if ended["winner"] == pid else loss
            r["for"] += ended["score"][pid]
            r["against"] += ended["score"][other]
            r["opps"].append(names[other])
    for name in byes:
        rows.setdefault(name, {"tp": 0, "for": 0, "against": 0, "opps": []})["tp"] += bye
    keys = {n: (r["tp"], r["for"] - r["against"], r["for"], sum(rows[o]["tp"] for o in r["opps"]))
            for n, r in rows.items()}
    return {n: (1 + sum(other > k for other in keys.values()), *k) for n, k in keys.items()}


def stored_records(tmp_data: Path, tournament_slug: str) -> list[list[dict]]:
    from service.application import Rollcall

    store = Rollcall.open(tmp_data)
    try:
        return [[json.loads(line) for line in store.export_lines(h["game"])]
                for h in store.headers() if h["game"].startswith(tournament_slug)]
    finally:
        store.close()


def test_tournament_create_then_list_shows_it_with_its_system(run) -> None:
    created = run("tournament", "create", "Spring Cup", "--system", "t9a", "--rounds", "4")
    assert created.exit_code == 0, created.output
    assert "created tournament Spring Cup (t9a)" in created.output
    listed = run("tournament", "list")
    assert listed.exit_code == 0 and "Spring Cup  t9a  0 games, 0 of 4 rounds played\n" in listed.output


def test_creating_a_tournament_twice_or_of_an_unknown_system_fails_clearly(run) -> None:
    assert run("tournament", "create", "Spring Cup", "--system", "tornscape").exit_code == 0
    again = run("tournament", "create", "spring cup", "--system", "tornscape")
    assert again.exit_code == 1 and "already exists" in again.output and "Traceback" not in again.output
    unknown = run("tournament", "create", "Chess Open", "--system", "chess")
    assert unknown.exit_code == 1 and "unknown system 'chess'" in unknown.output


def test_importing_a_game_of_another_system_than_its_tournament_is_refused(run, tmp_path: Path) -> None:
    assert run("tournament", "create", "Spring Cup", "--system", "t9a").exit_code == 0
    header = {"rollcall": 1, "system": "tornscape", "tournament": "Spring Cup", "round": 1, "table": 3,
              "players": [{"id": "p1", "name": "Anna"}, {"id": "p2", "name": "Boris"}],
              "setup": {"board": {"width": 8, "height": 8}, "models": []}}
    path = tmp_path / "t3.rollcall.jsonl"
    path.write_text(json.dumps(header) + "\n")
    result = run("import", str(path))
    assert result.exit_code == 1
    assert f"{path}:1: field `tournament`: 'Spring Cup' is a t9a tournament, not tornscape" in result.output
    assert "spring-cup-r1-t3" not in run("games").output


def test_a_tournament_named_only_by_game_headers_is_listed(run, tmp_path: Path) -> None:
    header = {"rollcall": 1, "system": "tornscape", "tournament": "Garage Cup", "round": 1, "table": 1,
              "players": [{"id": "p1", "name": "Anna"}, {"id": "p2", "name": "Boris"}],
              "setup": {"board": {"width": 8, "height": 8}, "models": []}}
    path = tmp_path / "g.rollcall.jsonl"
    path.write_text(json.dumps(header) + "\n")
    assert run("import", str(path)).exit_code == 0
    listed = run("tournament", "list")
    # its round 1 is under way, not played: a round is played once every game of it has its result
    assert "Garage Cup  tornscape  1 game, 0 rounds played; round 1: 0 of 1 result  (named by games only)" in listed.output


def test_simulated_tournament_standings_match_an_independent_computation(run, tmp_data: Path) -> None:
    result = run("simulate", "--tournament", "Club Night", "--system", "claustrophobia", "--players", "5",
                 "--rounds", "3", "--seed", "4", "--turns", "3")
    assert result.exit_code == 0, result.output
    assert "recorded 6 simulated claustrophobia games" in result.output
    shown = run("tournament", "standings", "club night", "--json")
    assert shown.exit_code == 0, shown.output
    rows = json.loads(shown.output)
    results = json.loads(run("tournament", "results", "Club Night", "--json").output)
    byes = [r["player"] for r in results if r["result"] == "B"]
    assert len(byes) == 3 and len(set(byes)) == 3
    expected = naive_standings(stored_records(tmp_data, "club-night"), byes)
    assert {r["player"]: (r["rank"], r["tournament_points"], r["vp_diff"], r["vp_for"], r["sos"]) for r in rows} \
        == expected
    assert [r["rank"] for r in rows] == sorted(r["rank"] for r in rows)
    assert all(r["games"] + r["byes"] == 3 for r in rows)


def test_a_tournament_created_with_its_own_points_ranks_by_them(run, tmp_data: Path) -> None:
    created = run("tournament", "create", "Club Night", "--system", "claustrophobia", "--win", "2", "--loss", "1",
                  "--bye", "0")
    assert created.exit_code == 0, created.output
    assert run("simulate", "--tournament", "Club Night", "--system", "claustrophobia", "--players", "5",
               "--rounds", "3", "--seed", "4", "--turns", "3").exit_code == 0
    rows = json.loads(run("tournament", "standings", "Club Night", "--json").output)
    results = json.loads(run("tournament", "results", "Club Night", "--json").output)
    byes = [r["player"] for r in results if r["result"] == "B"]
    expected = naive_standings(stored_records(tmp_data, "club-night"), byes, win=2, draw=1, loss=1, bye=0)
    assert {r["player"]: (r["rank"], r["tournament_points"], r["vp_diff"], r["vp_for"], r["sos"]) for r in rows} \
        == expected
    assert expected != naive_standings(stored_records(tmp_data, "club-night"), byes)  # the points mattered
    refused = run("tournament", "create", "Other Cup", "--system", "t9a", "--win", "-x")
    assert refused.exit_code != 0 and "Traceback" not in refused.output


def test_results_of_a_round_list_each_game_and_the_bye_with_the_games_result(run, tmp_data: Path) -> None:
    assert run("simulate", "--tournament", "Club Night", "--system", "t9a", "--players", "5", "--rounds", "2",
               "--turns", "2").exit_code == 0
    rows = json.loads(run("tournament", "results", "Club Night", "--round", "2", "--json").output)
    assert {r["round"] for r in rows} == {2}
    games = [r for r in rows if r["game"]]
    assert [r["table_no"] for r in games] == [1, 2] and [r["result"] for r in rows if not r["game"]] == ["B"]
    records = {lines[0]["game"]: lines for lines in stored_records(tmp_data, "club-night-r2")}
    for r in games:
        ended = records[r["game"]][-1]
        assert (r["score"], r["opponent_score"]) == (ended["score"]["p1"], ended["score"]["p2"])
        assert r["result"] == ("D" if ended["winner"] is None else "W" if ended["winner"] == "p1" else "L")
    table = run("tournament", "results", "Club Night", "--round", "2")
    assert table.exit_code == 0 and "club-night-r2-t1" in table.output


def test_the_same_seed_gives_byte_identical_exports(run, tmp_path: Path) -> None:
    exports = []
    for folder in ("one", "two"):
        data = tmp_path / folder
        assert run("simulate", "--tournament", "Twin Cup", "--players", "4", "--rounds", "2", "--seed", "9",
                   "--turns", "2", data=data).exit_code == 0
        games = [f"twin-cup-r{r}-t{t}" for r in (1, 2) for t in (1, 2)]
        exports.append([run("export", game, data=data).stdout for game in games])
    assert exports[0] == exports[1] and all(exports[0])


def test_simulating_into_a_tournament_of_another_system_is_refused(run) -> None:
    assert run("tournament", "create", "Spring Cup", "--system", "t9a").exit_code == 0
    result = run("simulate", "--tournament", "Spring Cup", "--system", "tornscape", "--players", "2")
    assert result.exit_code == 1 and "is a t9a tournament, not tornscape" in result.output


def test_standings_of_an_unknown_tournament_are_a_clear_error(run) -> None:
    assert run("project").exit_code == 0
    result = run("tournament", "standings", "Nowhere Open")
    assert result.exit_code == 1 and "no tournament 'Nowhere Open'" in result.output


def test_importing_a_folder_shows_a_progress_bar(run, tmp_path: Path) -> None:
    from simulation.games import record_lines, simulate

    folder = tmp_path / "round1"
    folder.mkdir()
    for i in range(5):
        lines = record_lines(simulate("claustrophobia", i, f"bar-{i}", turns=1))
        (folder / f"t{i}.rollcall.jsonl").write_text("\n".join(lines) + "\n")
    result = run("import", str(folder))
    assert result.exit_code == 0, result.output
    assert "importing" in result.output and result.output.count("imported bar-") == 5


def test_a_tournament_named_in_russian_has_its_games_players_and_delay_in_the_read_models(tmp_data: Path) -> None:
    from projections.projector import Projector
    from projections.queries import connect_read
    from projections.tournaments import list_tournaments, players, standings
    from service.application import Rollcall
    from simulation.tournaments import simulate_tournament

    store = Rollcall.open(tmp_data)
    store.create_tournament("Кубок Вихря", "tornscape")
    for name in ("Анна Линд", "Борис Берг"):
        store.register_player("Кубок Вихря", name, "engeln")
    for game in simulate_tournament("tornscape", "Кубок Вихря", 4, 2, 5, turns=2):
        store.import_record(game.lines, game.game)
    store.close()
    Projector(tmp_data).run()
    con = connect_read(tmp_data)
    try:
        [found] = [t for t in list_tournaments(con) if t["tournament"] == "Кубок Вихря"]
        assert found["games"] == 4 and found["created"]
        assert {p["player"] for p in players(con, "Кубок Вихря")} >= {"Анна Линд", "Борис Берг"}
        assert len(standings(con, "Кубок Вихря")) >= 4
    finally:
        con.close()
