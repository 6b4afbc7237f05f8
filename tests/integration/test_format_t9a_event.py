"""A 16-player event scored by the 9th Age's 20-0 format (`t9a-20-0`) over three rounds, from the command line,
checked against standings computed by hand: margins in every band, secondary objectives (kept within 0-20),
a painting bonus and a late penalty, the standings in the format's tiebreak order (score, strength of schedule,
VP difference, head-to-head) with ties broken at each, `tournament standings --json` with the score and every
tiebreak's value, the dump's tournament_standings the same, Analytics' faction results with the mean game score, and
round 4 paired from those standings.

Rounds 1 and 2 were played on paper and come in as records (header and GameEnded with its `secondary`); round 3's
games come in as headers and take their results from `tournament result … --secondary`.

A game's margin m = 100 × |VP₁ − VP₂| / 4500 %; band k = ⌊m / 5⌋ (at most 10) scores 10 + k to the winner and
10 − k to the loser; the holder of the secondary objective +3, the other −3, each kept within 0-20.

| round | table | game (VP)                 | m %   | band | secondary | scores |
|-------|-------|---------------------------|-------|------|-----------|--------|
| 1     | 1     | Ada 2000 – 2000 Ben       | 0.00  | 0    | Ben       | 7–13   |
| 1     | 2     | Cem 2300 – 2000 Dana      | 6.67  | 1    |           | 11–9   |
| 1     | 3     | Egor 2000 – 2700 Faye     | 15.56 | 3    | Egor      | 10–10  |
| 1     | 4     | Gus 3000 – 1900 Hild      | 24.44 | 4    |           | 14–6   |
| 1     | 5     | Ines 3500 – 2200 Jon      | 28.89 | 5    | Ines      | 18–2   |
| 1     | 6     | Kai 2100 – 3500 Lena      | 31.11 | 6    |           | 4–16   |
| 1     | 7     | Milo 3900 – 2200 Nina     | 37.78 | 7    |           | 17–3   |
| 1     | 8     | Otto 1000 – 2900 Pia      | 42.22 | 8    |           | 2–18   |
| 2     | 1     | Ada 2500 – 2000 Cem       | 11.11 | 2    | Ada       | 15–5   |
| 2     | 2     | Ben 2500 – 2000 Egor      | 11.11 | 2    | Egor      | 9–11   |
| 2     | 3     | Dana 2900 – 2000 Gus      | 20.00 | 4    |           | 14–6   |
| 2     | 4     | Faye 3000 – 1600 Hild     | 31.11 | 6    |           | 16–4   |
| 2     | 5     | Ines 2000 – 4200 Kai      | 48.89 | 9    |           | 1–19   |
| 2     | 6     | Jon 4400 – 100 Lena       | 95.56 | 10   | Lena      | 17–3   |
| 2     | 7     | Milo 2000 – 2100 Otto     | 2.22  | 0    |           | 10–10  |
| 2     | 8     | Nina 2450 – 2000 Pia      | 10.00 | 2    |           | 12–8   |
| 3     | 1     | Ada 1800 – 2700 Dana      | 20.00 | 4    |           | 6–14   |
| 3     | 2     | Ben 1800 – 2700 Faye      | 20.00 | 4    |           | 6–14   |
| 3     | 3     | Cem 4300 – 200 Hild       | 91.11 | 10   | Cem       | 20–0   |
| 3     | 4     | Egor 2600 – 2100 Gus      | 11.11 | 2    |           | 12–8   |
| 3     | 5     | Ines 2400 – 2000 Milo     | 8.89  | 1    | Milo      | 8–12   |
| 3     | 6     | Jon 2000 – 3250 Nina      | 27.78 | 5    |           | 5–15   |
| 3     | 7     | Kai 2000 – 2000 Otto      | 0.00  | 0    | Otto      | 7–13   |
| 3     | 8     | Lena 3600 – 2000 Pia      | 35.56 | 7    |           | 17–3   |

Bonuses: Nina +2 (painting, round 1); Milo −2 (late to the table, round 3).

| rank | player | games      | bonus | score | SOS (opponents' scores) | VP diff | h2h | why here                        |
|------|--------|------------|-------|-------|-------------------------|---------|-----|---------------------------------|
| 1    | Faye   | 10+16+14   |       | 40    | Egor 33 + Hild 10 + Ben 28 = 71  | +3000 | 0 |                          |
| 2    | Dana   | 9+14+14    |       | 37    | Cem 36 + Gus 28 + Ada 28 = 92    | +1500 | 0 | 37 each: SOS 92 > 84     |
| 3    | Milo   | 17+10+12   | −2    | 37    | Nina 32 + Otto 25 + Ines 27 = 84 | +1200 | 0 |                          |
| 4    | Lena   | 16+3+17    |       | 36    | Kai 30 + Jon 24 + Pia 29 = 83    | −1300 | 0 | 36 each: SOS before VP   |
| 5    | Cem    | 11+5+20    |       | 36    | Dana 37 + Ada 28 + Hild 10 = 75  | +3900 | 0 |                          |
| 6    | Egor   | 10+11+12   |       | 33    | Faye 40 + Ben 28 + Gus 28 = 96   | −700  | 0 |                          |
| 7    | Nina   | 3+12+15    | +2    | 32    | Milo 37 + Pia 29 + Jon 24 = 90   | 0     | 0 | the bonus: Kai's 30 else |
| 8    | Kai    | 4+19+7     |       | 30    | Lena 36 + Ines 27 + Otto 25 = 88 | +800  | 0 |                          |
| 9    | Pia    | 18+8+3     |       | 29    | Otto 25 + Nina 32 + Lena 36 = 93 | −150  | 0 |                          |
| 10   | Ben    | 13+9+6     |       | 28    | Ada 28 + Egor 33 + Faye 40 = 101 | −400  | 13 | 28, SOS 101, −400 each: |
| 11   | Ada    | 7+15+6     |       | 28    | Ben 28 + Cem 36 + Dana 37 = 101  | −400  | 7  | head-to-head 13 > 7     |
| 12   | Gus    | 14+6+8     |       | 28    | Hild 10 + Dana 37 + Egor 33 = 80 | −300  | 0 | 28: SOS 80 < 101        |
| 13   | Ines   | 18+1+8     |       | 27    | Jon 24 + Kai 30 + Milo 37 = 91   | −500  | 0 |                          |
| 14   | Otto   | 2+10+13    |       | 25    | Pia 29 + Milo 37 + Kai 30 = 96   | −1800 | 0 |                          |
| 15   | Jon    | 2+17+5     |       | 24    | Ines 27 + Lena 36 + Nina 32 = 95 | +1750 | 0 |                          |
| 16   | Hild   | 6+4+0      |       | 10    | Gus 28 + Faye 40 + Cem 36 = 104  | −6600 | 0 |                          |

(Head-to-head counts only among the players still tied when it is reached: 0 for everyone else.)

Round 4, Swiss in that order (each player the best-ranked one left not met): Faye–Dana, Milo–Lena, Cem–Egor,
Nina–Kai, Pia–Ben, Ada–Gus, Ines–Otto, Jon–Hild (none of them met before)."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from cli.main import app

NAME = "Ninth Open"
PLAYERS = ("Ada", "Ben", "Cem", "Dana", "Egor", "Faye", "Gus", "Hild", "Ines", "Jon", "Kai", "Lena", "Milo", "Nina",
           "Otto", "Pia")
# round -> tables: (p1, VP, p2, VP, holder of the secondary objective)
ROUNDS = {
    1: [("Ada", 2000, "Ben", 2000, "Ben"), ("Cem", 2300, "Dana", 2000, None), ("Egor", 2000, "Faye", 2700, "Egor"),
        ("Gus", 3000, "Hild", 1900, None), ("Ines", 3500, "Jon", 2200, "Ines"), ("Kai", 2100, "Lena", 3500, None),
        ("Milo", 3900, "Nina", 2200, None), ("Otto", 1000, "Pia", 2900, None)],
    2: [("Ada", 2500, "Cem", 2000, "Ada"), ("Ben", 2500, "Egor", 2000, "Egor"), ("Dana", 2900, "Gus", 2000, None),
        ("Faye", 3000, "Hild", 1600, None), ("Ines", 2000, "Kai", 4200, None), ("Jon", 4400, "Lena", 100, "Lena"),
        ("Milo", 2000, "Otto", 2100, None), ("Nina", 2450, "Pia", 2000, None)],
    3: [("Ada", 1800, "Dana", 2700, None), ("Ben", 1800, "Faye", 2700, None), ("Cem", 4300, "Hild", 200, "Cem"),
        ("Egor", 2600, "Gus", 2100, None), ("Ines", 2400, "Milo", 2000, "Milo"), ("Jon", 2000, "Nina", 3250, None),
        ("Kai", 2000, "Otto", 2000, "Otto"), ("Lena", 3600, "Pia", 2000, None)],
}
# the docstring's standings: (player, score, SOS, VP difference, head-to-head), best first
EXPECTED = [("Faye", 40, 71, 3000, 0), ("Dana", 37, 92, 1500, 0), ("Milo", 37, 84, 1200, 0),
            ("Lena", 36, 83, -1300, 0), ("Cem", 36, 75, 3900, 0), ("Egor", 33, 96, -700, 0),
            ("Nina", 32, 90, 0, 0), ("Kai", 30, 88, 800, 0), ("Pia", 29, 93, -150, 0), ("Ben", 28, 101, -400, 13),
            ("Ada", 28, 101, -400, 7), ("Gus", 28, 80, -300, 0), ("Ines", 27, 91, -500, 0),
            ("Otto", 25, 96, -1800, 0), ("Jon", 24, 95, 1750, 0), ("Hild", 10, 104, -6600, 0)]
ROUND_4 = [("Faye", "Dana"), ("Milo", "Lena"), ("Cem", "Egor"), ("Nina", "Kai"), ("Pia", "Ben"), ("Ada", "Gus"),
           ("Ines", "Otto"), ("Jon", "Hild")]


@pytest.fixture
def run(tmp_data: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("ROLLCALL_KEY", raising=False)
    runner = CliRunner()

    def invoke(*args: str):
        result = runner.invoke(app, [*args, "--data", str(tmp_data)])
        assert result.exit_code == 0, result.output
        assert "Traceback" not in result.output
        return result

    return invoke


def records(folder: Path) -> None:
    """Every game of rounds 1-3 as a record: its header, and for rounds 1 and 2 its GameEnded (winner and
    secondary by seat)."""
    from domain.scenarios import scenarios

    setup = next(iter(scenarios("t9a").values()))
    for round_no, tables in ROUNDS.items():
        for table, (a, vp_a, b, vp_b, secondary) in enumerate(tables, start=1):
            header = {"rollcall": 1, "system": "t9a", "game": f"ninth-r{round_no}-t{table}", "tournament": NAME,
                      "round": round_no, "table": table, "setup": setup,
                      "players": [{"id": "p1", "name": a, "faction": "orcs"}, {"id": "p2", "name": b,
                                                                              "faction": "sylvan"}]}
            lines = [header]
            if round_no < 3:
                seat = {a: "p1", b: "p2"}
                lines.append({"type": "GameEnded", "score": {"p1": vp_a, "p2": vp_b}, "reason": "played on paper",
                              "winner": None if vp_a == vp_b else "p1" if vp_a > vp_b else "p2",
                              **({"secondary": seat[secondary]} if secondary else {})})
            (folder / f"ninth-r{round_no}-t{table}.rollcall.jsonl").write_text(
                "".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")


def test_a_t9a_20_0_event_ranks_by_margin_secondary_bonuses_and_its_tiebreaks(run, tmp_path: Path) -> None:
    said = run("tournament", "create", NAME, "--system", "t9a", "--format", "t9a-20-0").output
    assert "secondary objective ±3" in said and "head-to-head" in said
    listed = tmp_path / "players.csv"
    listed.write_text("Name,Faction\n" + "".join(f"{p},orcs\n" for p in PLAYERS), encoding="utf-8")
    run("tournament", "register", NAME, "--csv", str(listed))
    folder = tmp_path / "rounds"
    folder.mkdir()
    records(folder)
    run("import", str(folder))
    for table, (a, vp_a, b, vp_b, secondary) in enumerate(ROUNDS[3], start=1):
        run("tournament", "result", NAME, "--round", "3", "--table", str(table), "--score", f"{a}={vp_a}",
            "--score", f"{b}={vp_b}", *(["--secondary", secondary] if secondary else []))
    run("tournament", "bonus", NAME, "--player", "Nina", "--points", "2", "--reason", "painting", "--round", "1")
    run("tournament", "bonus", NAME, "--player", "Milo", "--points", "-2", "--reason", "late to the table",
        "--round", "3")

    rows = json.loads(run("tournament", "standings", NAME, "--json").stdout)
    assert [(r["player"], r["score"], r["sos"], r["vp_diff"]) for r in rows] == [e[:4] for e in EXPECTED]
    assert [r["rank"] for r in rows] == list(range(1, 17))
    assert [[(t["name"], t["value"]) for t in r["tiebreaks"]] for r in rows] == [
        [("score", score), ("sos", sos), ("vp_diff", diff), ("head_to_head", h2h)]
        for _, score, sos, diff, h2h in EXPECTED]
    by_player = {r["player"]: r for r in rows}
    assert by_player["Nina"]["bonuses"] == [{"round": 1, "points": 2, "reason": "painting"}]
    assert by_player["Milo"]["bonuses"] == [{"round": 3, "points": -2, "reason": "late to the table"}]
    assert (by_player["Nina"]["bonus"], by_player["Milo"]["bonus"], by_player["Faye"]["bonus"]) == (2, -2, 0)
    printed = run("tournament", "standings", NAME).output
    assert "Milo: -2 in round 3 (late to the table)" in printed and "Nina: +2 in round 1 (painting)" in printed

    dumped = tmp_path / "dump"
    run("dump", "--parquet", str(dumped))
    table = pq.read_table(dumped / "tournament_standings.parquet").to_pylist()
    assert [(r["player"], r["score"], r["sos"], r["vp_diff"], json.loads(r["tiebreaks"])[-1]["value"], r["format"])
            for r in table] == [(*e, "t9a-20-0") for e in EXPECTED]
    assert "| `tiebreaks` | string | The format's tiebreaks in its order" in (dumped / "README.md").read_text()

    figures = json.loads(run("stats", "--tournament", NAME, "--json").stdout)
    means = {r["faction"]: r["mean_score"] for r in figures["faction_results"]}
    assert means == {"orcs": 10.75, "sylvan": 9.25}  # seat p1's 83 + 94 + 81 of 24 games; p2's 480 − 258

    run("tournament", "pair", NAME, "--round", "4", "--seed", "1")
    tables = json.loads(run("tournament", "pairings", NAME, "--round", "4", "--json").stdout)
    assert [frozenset((t["player"], t["opponent"])) for t in tables] == [frozenset(p) for p in ROUND_4]


@pytest.mark.parametrize("change, field", [
    ({"scoring": {"type": "margin", "points": 4500, "cap": 20, "bands": [
        {"from": 0, "to": 10, "winner": 10, "loser": 10}, {"from": 5, "winner": 20, "loser": 0}]}},
     "scoring.bands[1].from"),
    ({"scoring": {"type": "margin", "points": 4500, "band_width": 5, "cap": -20}}, "scoring.cap"),
    ({"tiebreaks": ["score", "buchholz"]}, "tiebreaks[1]"),
])
def test_a_bad_format_file_is_refused_naming_the_field_and_nothing_is_stored(tmp_path: Path, tmp_data: Path,
                                                                             monkeypatch, change, field) -> None:
    from domain.formats import shipped

    monkeypatch.delenv("ROLLCALL_KEY", raising=False)
    pack = tmp_path / "pack.json"
    pack.write_text(json.dumps({**shipped()["t9a-20-0"], "format": "pack", **change}), encoding="utf-8")
    runner = CliRunner()
    refused = runner.invoke(app, ["tournament", "create", NAME, "--system", "t9a", "--format", str(pack),
                                  "--data", str(tmp_data)])
    assert refused.exit_code == 1 and "Traceback" not in refused.output
    assert f"error: {pack}: field `{field}`:" in refused.output
    listed = runner.invoke(app, ["tournament", "list", "--json", "--data", str(tmp_data)])
    assert json.loads(listed.stdout) == []
