"""The statistics read models (projections/stats.py) against an independent computation from the records
of simulated tournaments of the three systems: luck, goodness of fit with scipy, multiple-testing
adjustments, Wilson intervals, results, card draws, turn times; the statistics tables after an incremental
run equal those of a rebuild; `rollcall stats --json`."""

from __future__ import annotations

import itertools
import json
import math
import shutil
from collections import Counter, defaultdict
from datetime import datetime
from pathlib import Path

import pytest
from scipy import stats as sp
from typer.testing import CliRunner

from service.application import Rollcall
from simulation.tournaments import simulate_tournament
from domain.systems import system_for
from projections.projector import Projector
from projections.queries import connect_read
from projections.stats import ANALYTICS_QUERIES, Scope, scope_games

TOURNAMENTS = (("tornscape", "Stats Open", 6, 2), ("t9a", "Stats Magic", 6, 2), ("claustrophobia", "Stats Descent", 4, 2))
STAT_TABLES = ("stat_throws", "stat_luck", "stat_luck_dice", "stat_faces", "stat_games", "stat_turns", "stat_casts", "stat_dispels",
               "stat_stabilisations", "stat_cards", "stat_initiative", "stat_vortices", "stat_ether", "stat_fairness_faces")


@pytest.fixture(scope="module")
def simulated(tmp_path_factory) -> tuple[Path, dict[str, list]]:
    """A data folder holding three simulated tournaments, projected: the tournament's games of each system
    were imported after a first projection of the others, so the statistics were refreshed incrementally."""
    data = tmp_path_factory.mktemp("stats") / "data"
    store = Rollcall.open(data)
    games: dict[str, list] = {}
    for i, (system, name, players, rounds) in enumerate(TOURNAMENTS):
        games[name] = list(simulate_tournament(system, name, players, rounds, seed=7 + i))
        for game in games[name]:
            store.import_record(game.lines, f"simulated {game.game}")
        Projector(data, app=store).run()
    store.close()
    return data, games


@pytest.fixture(scope="module")
def con(simulated):
    connection = connect_read(simulated[0])
    yield connection
    connection.close()


def records(games) -> list[tuple[dict, list[dict]]]:
    """(header, events) of each simulated game."""
    out = []
    for game in games:
        header, *events = (json.loads(line) for line in game.lines)
        out.append((header, events))
    return out


def dice_in_force(header: dict) -> dict[str, dict[str, int]]:
    dice = {d: dict(f) for d, f in system_for(header["system"]).defaults.get("dice", {}).items() if not d.startswith("_")}
    dice.update((header.get("rules") or {}).get("dice") or {})
    return {d: {k: v for k, v in faces.items() if not k.startswith("_")} for d, faces in dice.items()}


def face_value(faces: dict[str, int], face) -> float:
    if all(k.lstrip("-").isdigit() for k in faces):
        return float(face)
    return 1.0 if str(face) in ("success", "crit") else 0.0


def throws(header: dict, events: list[dict]):
    """(player id, die, [faces]) of every throw: the dice of each roll as first shown, each re-roll."""
    rolls = {}
    for event in events:
        if event["type"] == "DiceRolled":
            rolls[event["seq"]] = event
            yield event["player"], event["die"], [str(f) for f in event["faces"]]
        elif event["type"] == "DieRerolled":
            roll = rolls[event["roll"]]
            yield roll["player"], roll["die"], [str(event["face"])]


def names(header: dict) -> dict[str, str]:
    return {p["id"]: p.get("name") or p["id"] for p in header["players"]}


def by_key(rows: list[dict], *keys: str) -> dict:
    return {tuple(r[k] for k in keys): r for r in rows}


def holm(p: list[float]) -> list[float]:
    order = sorted(range(len(p)), key=lambda i: p[i])
    out, running = [0.0] * len(p), 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(p) - rank) * p[i]))
        out[i] = running
    return out


def benjamini_hochberg(p: list[float]) -> list[float]:
    order = sorted(range(len(p)), key=lambda i: p[i])
    out, running = [0.0] * len(p), 1.0
    for rank in range(len(p) - 1, -1, -1):
        i = order[rank]
        running = min(running, len(p) * p[i] / (rank + 1))
        out[i] = running
    return out


# --- luck --------------------------------------------------------------------------------------

def test_luck_per_player_sums_observed_minus_expected_over_every_throw(con, simulated):
    for name, games in simulated[1].items():
        expected = defaultdict(lambda: [0.0, 0.0, 0.0])  # observed, expected, variance
        for header, events in records(games):
            dice = dice_in_force(header)
            for player, die, faces in throws(header, events):
                counts = dice[die]
                total = sum(counts.values())
                mean = sum(n * face_value(counts, f) for f, n in counts.items()) / total
                var = sum(n * face_value(counts, f) ** 2 for f, n in counts.items()) / total - mean ** 2
                unit = "pips" if all(k.isdigit() for k in counts) else "successes"
                row = expected[(names(header)[player], unit)]
                row[0] += sum(face_value(counts, f) for f in faces)
                row[1] += len(faces) * mean
                row[2] += len(faces) * var
        got = by_key(ANALYTICS_QUERIES["luck_by_player"](con, Scope(tournament=name)), "player", "unit")
        assert set(got) == set(expected), name
        for key, (observed, mean, var) in expected.items():
            assert got[key]["observed"] == pytest.approx(observed)
            assert got[key]["luck"] == pytest.approx(observed - mean, abs=1e-9)
            assert got[key]["z_score"] == pytest.approx((observed - mean) / math.sqrt(var), abs=1e-9)


def test_luck_line_accumulates_each_players_luck_through_the_game(con, simulated):
    games = simulated[1]["Stats Magic"]
    header, events = records(games)[0]
    line = ANALYTICS_QUERIES["luck_line"](con, Scope(tournament="Stats Magic", game=games[0].game))
    assert [r["seq"] for r in line] == sorted(r["seq"] for r in line)
    for player in {r["player"] for r in line}:
        mine = [r for r in line if r["player"] == player]
        assert [r["cumulative"] for r in mine] == pytest.approx(list(itertools.accumulate(r["luck"] for r in mine)))
    rolled = [e for e in events if e["type"] in ("DiceRolled", "DieRerolled")]
    assert len(line) == len(rolled)


def test_big_swings_are_the_throws_two_standard_deviations_from_expectation(con, simulated):
    for name, games in simulated[1].items():
        for game in games[:2]:
            scope = Scope(tournament=name, game=game.game)
            line = ANALYTICS_QUERIES["luck_line"](con, scope)
            swings = ANALYTICS_QUERIES["swings"](con, scope)
            assert [s["seq"] for s in swings] == [r["seq"] for r in line if r["z_score"] is not None and abs(r["z_score"]) >= 2]


# --- fairness ----------------------------------------------------------------------------------

def test_dice_fairness_matches_scipys_chi_square_overall_and_per_player(con, simulated):
    for name, games in simulated[1].items():
        counts: dict[tuple, Counter] = defaultdict(Counter)
        faces_of: dict[str, dict[str, int]] = {}
        for header, events in records(games):
            dice = dice_in_force(header)
            for player, die, faces in throws(header, events):
                faces_of[die] = dice[die]
                counts[("overall", "all", die)].update(faces)
                counts[("player", names(header)[player], die)].update(faces)
        rows = by_key(ANALYTICS_QUERIES["fairness"](con, Scope(tournament=name)), "level", "who", "die")
        for key, seen in counts.items():
            die_faces = faces_of[key[2]]
            total, sides = sum(seen.values()), sum(die_faces.values())
            observed = [seen.get(f, 0) for f in die_faces]
            expected = [total * n / sides for n in die_faces.values()]
            chi2, p = sp.chisquare(observed, expected)
            assert rows[key]["throws"] == total
            assert rows[key]["chi2"] == pytest.approx(chi2, rel=1e-9, abs=1e-12)
            assert rows[key]["p_value"] == pytest.approx(p, rel=1e-9, abs=1e-15)
            assert (rows[key]["verdict"] == "too few to tell") == (min(expected) < 5)


def test_fairness_adjusts_the_family_of_tests_by_holm_and_benjamini_hochberg(con, simulated):
    for name in simulated[1]:
        rows = ANALYTICS_QUERIES["fairness"](con, Scope(tournament=name))
        family = [r for r in rows if r["min_expected"] >= 5 and r["df"] > 0]
        assert [r for r in rows if r["p_holm"] is not None] == family
        p = [r["p_value"] for r in family]
        assert [r["p_holm"] for r in family] == pytest.approx(holm(p), rel=1e-12)
        assert [r["q_bh"] for r in family] == pytest.approx(benjamini_hochberg(p), rel=1e-12)
        for r in family:
            assert r["verdict"] == ("worth a look" if r["p_holm"] < 0.05 else "no evidence of bias")


def test_adjustments_of_a_known_family_match_a_direct_computation(con):
    p = [0.01, 0.04, 0.03, 0.005, 0.5, 0.04]
    rows = con.execute(
        "WITH t AS (SELECT unnest($p::DOUBLE[]) AS p_value, unnest(range(len($p::DOUBLE[]))) AS k), "
        "r AS (SELECT *, row_number() OVER (ORDER BY p_value, k) AS i, count(*) OVER () AS m FROM t) "
        "SELECT k, least(1.0, max((m - i + 1) * p_value) OVER (ORDER BY i ROWS UNBOUNDED PRECEDING)), "
        "least(1.0, min(m / i * p_value) OVER (ORDER BY i ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING)) "
        "FROM r ORDER BY k", {"p": p}).fetchall()
    assert [r[1] for r in rows] == pytest.approx(holm(p))
    assert [r[2] for r in rows] == pytest.approx(benjamini_hochberg(p))


@pytest.mark.parametrize("df", [1, 2, 3, 5, 7, 15, 40])
def test_chi_square_survival_in_sql_matches_scipy(con, df):
    for x in (0.0, 1e-3, 0.3, 1.0, df - 0.5, df + 2.0, 2.5 * df + 3, 60.0, 400.0):
        got = con.execute("SELECT stat_chi2_sf($x::DOUBLE, $df::INTEGER)", {"x": x, "df": df}).fetchall()[0][0]
        assert got == pytest.approx(sp.chi2.sf(x, df), rel=1e-9, abs=1e-300)


def test_each_casts_miscast_odds_count_every_roll_of_three_dice_of_one_value(con):
    casts = con.execute("SELECT dice, kind, p_miscast FROM stat_casts").fetchall()
    assert {kind for _, kind, _ in casts} >= {"normal", "bound"}
    for dice, kind, p in casts:
        if kind == "bound":  # X03: unrolled, never miscast
            assert p == 0
            continue
        outcomes = list(itertools.product(range(1, 7), repeat=dice))
        assert p == pytest.approx(sum(max(Counter(o).values()) >= 3 for o in outcomes) / len(outcomes), abs=1e-12)


def test_card_draws_count_each_card_against_a_uniform_deck(con, simulated):
    for name, games in simulated[1].items():
        seen: dict[str, Counter] = defaultdict(Counter)
        for _, events in records(games):
            for e in events:
                if e["type"] in ("PhenomenonDrawn", "CardDrawn", "FluxCardDrawn"):
                    deck = {"PhenomenonDrawn": "phenomena", "FluxCardDrawn": "flux"}.get(e["type"]) or e["deck"]
                    seen[deck][str(e["card"])] += 1
        draws = ANALYTICS_QUERIES["card_draws"](con, Scope(tournament=name))
        assert {(r["deck"], r["card"]): r["draws"] for r in draws} == {
            (d, c): n for d, cards in seen.items() for c, n in cards.items()}
        decks = by_key(ANALYTICS_QUERIES["card_fairness"](con, Scope(tournament=name)), "deck")
        for deck, cards in seen.items():
            chi2, p = sp.chisquare(list(cards.values()))
            assert decks[(deck,)]["p_value"] == pytest.approx(p, rel=1e-9, abs=1e-15)


# --- the games ---------------------------------------------------------------------------------

def test_casting_and_dispels_count_the_records_outcomes(con, simulated):
    games = simulated[1]["Stats Magic"]
    casts = [e for _, events in records(games) for e in events if e["type"] == "CastingAttempted"]
    dispels = [e for _, events in records(games) for e in events if e["type"] == "DispelAttempted"]
    rows = ANALYTICS_QUERIES["casting"](con, Scope(tournament="Stats Magic"))
    assert {r["dice"]: (r["attempts"], r["passed"], r["miscasts"]) for r in rows} == {
        k: (len(v), sum(c["passed"] for c in v), sum(c["miscast"] for c in v))
        for k, v in itertools.groupby(sorted(casts, key=lambda c: c["dice"]), key=lambda c: c["dice"])
        for v in [list(v)]}
    rows = ANALYTICS_QUERIES["dispels"](con, Scope(tournament="Stats Magic"))
    assert sum(r["attempts"] for r in rows) == len(dispels)
    assert sum(r["dispelled"] for r in rows) == sum(d["dispelled"] for d in dispels)


def test_stabilisation_outcomes_follow_the_faces_shown(con, simulated):
    games = simulated[1]["Stats Open"]
    shown = Counter()
    for _, events in records(games):
        rolls = {e["seq"]: e for e in events if e["type"] == "DiceRolled"}
        for e in events:
            if e["type"] == "DieRerolled":
                rolls[e["roll"]]["faces"][e["index"]] = e["face"]
        shown.update(r["faces"][0] for r in rolls.values() if r["purpose"] == "stabilisation")
    rows = ANALYTICS_QUERIES["vortex_allegiance"](con, Scope(tournament="Stats Open"))
    assert {r["face"]: r["observed"] for r in rows if r["observed"]} == dict(shown)
    total = sum(shown.values())
    attack = dice_in_force(records(games)[0][0])["attack"]
    for r in rows:
        assert r["expected"] == pytest.approx(total * attack[r["face"]] / sum(attack.values()))


# --- results -----------------------------------------------------------------------------------

def test_faction_win_rates_count_results_without_mirror_matches_with_wilson_intervals(con, simulated):
    for name, games in simulated[1].items():
        tally: dict[str, Counter] = defaultdict(Counter)
        for game in games:
            (n1, f1), (n2, f2) = game.players
            if f1 == f2:
                tally[f1]["mirror"] += 1
                continue
            for (me, mine), (_, theirs) in (((n1, f1), (n2, f2)), ((n2, f2), (n1, f1))):
                tally[mine]["games"] += 1
                tally[mine]["wins" if game.winner == me else "draws" if game.winner is None else "losses"] += 1
        rows = by_key(ANALYTICS_QUERIES["faction_results"](con, Scope(tournament=name)), "faction")
        assert set(rows) == {(f,) for f in tally}
        for faction, t in tally.items():
            row = rows[(faction,)]
            assert (row["games"], row["wins"], row["draws"], row["losses"], row["mirror_games"]) == (
                t["games"], t["wins"], t["draws"], t["losses"], t["mirror"])
            if t["games"]:
                ci = sp.binomtest(t["wins"], t["games"]).proportion_ci(method="wilson")
                assert (row["ci_low"], row["ci_high"]) == pytest.approx((ci.low, ci.high), abs=1e-12)


def test_matchups_are_symmetric(con, simulated):
    rows = by_key(ANALYTICS_QUERIES["matchups"](con, Scope(tournament="Stats Open")), "faction", "opponent")
    for (a, b), row in rows.items():
        other = rows[(b, a)]
        assert (row["games"], row["wins"], row["losses"]) == (other["games"], other["losses"], other["wins"])


def test_first_player_is_who_the_first_event_naming_a_player_names(con, simulated):
    for name, games in simulated[1].items():
        firsts = 0
        decided = 0
        for game, (header, events) in zip(games, records(games)):
            models = {m["id"]: m["player"] for m in (header.get("setup") or {}).get("models") or []}
            first = next(e.get("player") or models.get(e.get("model")) for e in events
                         if e.get("player") or e.get("model") in models)
            if game.winner is not None:
                decided += 1
                firsts += names(header)[first] == game.winner
        (row,) = ANALYTICS_QUERIES["first_player"](con, Scope(tournament=name))
        assert (row["decided"], row["first_wins"]) == (decided, firsts)


def test_time_per_turn_runs_from_a_turns_first_time_to_the_next_turns(con, simulated):
    games = simulated[1]["Stats Descent"]
    seconds = defaultdict(list)
    for _, events in records(games):
        turn, times = 0, defaultdict(list)
        for e in events:
            turn = e["turn"] if e["type"] == "TurnStarted" else turn
            if turn and e.get("at"):
                times[turn].append(datetime.fromisoformat(e["at"]))
        turns = sorted(times)
        for t, nxt in itertools.zip_longest(turns, turns[1:]):
            end = min(times[nxt]) if nxt else max(times[t])
            seconds[t].append((end - min(times[t])).total_seconds())
    assert seconds, "the simulated games carry times"
    rows = ANALYTICS_QUERIES["turn_times"](con, Scope(tournament="Stats Descent"))
    assert {r["turn"]: (r["games"], pytest.approx(r["mean_seconds"])) for r in rows} == {
        t: (len(v), sum(v) / len(v)) for t, v in seconds.items()}


# --- scope, refresh, CLI -----------------------------------------------------------------------

def test_a_scope_of_games_covers_only_those_games(con, simulated):
    picked = [g.game for g in simulated[1]["Stats Open"][:2]]
    assert scope_games(con, Scope(games=tuple(picked))) == sorted(picked, key=lambda g: picked.index(g))
    rows = ANALYTICS_QUERIES["luck_by_game"](con, Scope(games=tuple(picked)))
    assert {r["game"] for r in rows} == set(picked)


def _rounded(rows: list[dict]) -> list[dict]:
    """Rows with their floats to 9 significant digits (sums in another order differ in the last bits)."""
    return [{k: float(f"{v:.9g}") if isinstance(v, float) else v for k, v in row.items()} for row in rows]


def test_a_tournament_or_every_game_gives_the_figures_of_its_games_listed(con, simulated):
    """The scope is filtered in SQL (stat_scope): a tournament, or every game, gives what naming each of its
    games gives, query by query."""
    for tournament, games in simulated[1].items():
        listed = Scope(games=tuple(g.game for g in games))
        for name, query in ANALYTICS_QUERIES.items():
            assert _rounded(query(con, Scope(tournament=tournament))) == _rounded(query(con, listed)), (tournament, name)
    every = Scope(games=tuple(g.game for games in simulated[1].values() for g in games))
    for name, query in ANALYTICS_QUERIES.items():
        assert _rounded(query(con, Scope())) == _rounded(query(con, every)), name
    assert scope_games(con, Scope(), limit=1) == scope_games(con, every)[:1]


def test_statistics_refreshed_run_by_run_equal_a_rebuild(simulated, tmp_path):
    data = tmp_path / "copy"
    shutil.copytree(simulated[0], data, symlinks=True)
    before = connect_read(data)
    try:
        incremental = {t: sorted(before.execute(f"SELECT * FROM {t}").fetchall(), key=repr) for t in STAT_TABLES}
    finally:
        before.close()
    Projector(data).run(rebuild=True)
    after = connect_read(data)
    try:
        for table in STAT_TABLES:
            assert sorted(after.execute(f"SELECT * FROM {table}").fetchall(), key=repr) == incremental[table], table
    finally:
        after.close()


def test_the_whole_seasons_fairness_follows_a_game_recorded_in_parts(tmp_path):
    """The season's faces per test (stat_fairness_faces) are kept by what each refresh takes out and puts in:
    a game projected half-recorded, then again when it is complete, gives what summing its games' faces gives."""
    data = tmp_path / "data"
    store = Rollcall.open(data)
    games = list(simulate_tournament("t9a", "Growing", 4, 1, seed=11))
    growing, whole = games
    store.import_record(whole.lines, "whole")
    half = len(growing.lines) // 2
    store.import_record(growing.lines[:half], "first half")
    Projector(data, app=store).run()
    store.write(growing.game, [json.loads(line) for line in growing.lines[half:]])
    Projector(data, app=store).run()
    store.close()
    con = connect_read(data)
    try:
        every = Scope(games=(growing.game, whole.game))
        season = ANALYTICS_QUERIES["fairness"](con, Scope())
        assert _rounded(season) == _rounded(ANALYTICS_QUERIES["fairness"](con, every))
        throws = con.execute("SELECT sum(thrown) FROM stat_faces").fetchone()[0]
        assert sum(r["throws"] for r in season if r["level"] == "overall") == throws > 0
    finally:
        con.close()


def test_stats_json_prints_every_figure_of_the_scope(simulated):
    from cli.main import app

    result = CliRunner().invoke(app, ["stats", "--tournament", "Stats Magic", "--json", "--data", str(simulated[0])])
    assert result.exit_code == 0, result.output
    printed = json.loads(result.stdout)
    assert set(printed) == {"scope", *ANALYTICS_QUERIES}
    assert sorted(printed["scope"]["games"]) == sorted(g.game for g in simulated[1]["Stats Magic"])
    con = connect_read(simulated[0])
    try:
        figures = {name: query(con, Scope(tournament="Stats Magic")) for name, query in ANALYTICS_QUERIES.items()}
    finally:
        con.close()
    assert printed["fairness"] == [{k: pytest.approx(v) if isinstance(v, float) else v for k, v in row.items()}
                                   for row in json.loads(json.dumps(figures["fairness"], default=str))]


def test_stats_of_an_unknown_tournament_fail_with_a_message(simulated):
    from cli.main import app

    result = CliRunner().invoke(app, ["stats", "--tournament", "Nowhere", "--data", str(simulated[0])])
    assert result.exit_code == 1
    assert "no games in tournament 'Nowhere'" in result.output


def test_a_scope_reads_the_listed_games_else_a_tournaments_else_every_game():
    import duckdb

    from projections.sqlfiles import statements

    con = duckdb.connect()
    con.execute("CREATE TABLE dim_games (game VARCHAR, tournament VARCHAR)")
    con.execute("INSERT INTO dim_games VALUES ('a', 'Spring'), ('b', 'Spring'), ('c', 'Autumn')")
    con.execute("CREATE TABLE counts (game VARCHAR, n INTEGER)")
    con.execute("INSERT INTO counts VALUES ('a', 1), ('b', 2), ('c', 3), ('c', 4)")
    for statement in statements("stat_macros"):
        con.execute(statement.sql)

    def scoped(games, tournament):
        return sorted(con.execute("SELECT n FROM stat_scoped('counts', $games, $tournament)",
                                  {"games": games, "tournament": tournament}).fetchall())

    assert scoped([], None) == [(1,), (2,), (3,), (4,)]
    assert scoped(None, None) == [(1,), (2,), (3,), (4,)]
    assert scoped([], "Spring") == [(1,), (2,)]
    assert scoped(["c"], "Spring") == [(3,), (4,)], "listed games come before a tournament"
    assert scoped(["a", "zz"], None) == [(1,)]
    assert scoped([], "Winter") == []


def test_each_analytics_query_is_described_by_its_files_comment_alone():
    from projections.stats import SECTIONS

    for name in (n for names in SECTIONS.values() for n in names):
        about = ANALYTICS_QUERIES[name].__doc__
        assert about and "SELECT" not in about and "WITH" not in about and "--" not in about, (name, about)
