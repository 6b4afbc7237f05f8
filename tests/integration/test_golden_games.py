"""Golden records (tests/games/*.rollcall.jsonl): the four shove examples of seed 004, a huge model
and markers; and six ether-vortex games of seed 000 (their own stories are asserted in
test_golden_vortices.py). Each imports strictly, replays to its ``*.expected.json`` and exports its
derived fields as the seed's story says. The records of The 9th Age and Claustrophobia in the same
folder are asserted in test_golden_t9a_claustrophobia.py (their state has no board).

The expected files were generated once from ``Game.state.to_json()`` and checked by hand against the
seed's examples (positions listed in each record's ``#`` comment line)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from service.application import Rollcall

GAMES = Path(__file__).resolve().parents[1] / "games"
RECORDS = sorted(GAMES.glob("*.rollcall.jsonl"))
TORNSCAPE = [p for p in RECORDS if json.loads(p.read_text(encoding="utf-8").splitlines()[0])["system"] == "tornscape"]
#: keys of the replay state that depend on where/when it is read, not on the game
VOLATILE = frozenset({"last_seq", "recorded_at", "updated_at"})
#: keys every Tornscape replay state carries (docs/replay.md)
CONTRACT_KEYS = {"game", "system", "seq", "turn", "phase", "board", "players", "models", "terrain", "markers",
                 "vortices"}


def name_of(path: Path) -> str:
    return path.name[: -len(".rollcall.jsonl")]


def import_golden(tmp_path: Path, name: str) -> tuple[Rollcall, str, list[dict]]:
    app = Rollcall.open(tmp_path / "data")
    path = GAMES / f"{name}.rollcall.jsonl"
    with path.open(encoding="utf-8") as f:
        imported = app.import_record(f, str(path))
    assert imported.violations == 0
    exported = [json.loads(line) for line in app.export_lines(imported.game)]
    return app, imported.game, exported


def final_state(app: Rollcall, game: str) -> dict:
    return {k: v for k, v in app.get_game(game).state.to_json().items() if k not in VOLATILE}


def line(exported: list[dict], seq: int) -> dict:
    event = exported[seq]
    assert event["seq"] == seq
    return event


def at(state: dict, model: str) -> list:
    return state["models"][model]["at"]


def test_there_are_eighteen_golden_records() -> None:
    assert {name_of(p) for p in TORNSCAPE} == {
        "seed004-ex1-shove-enemy-failed-dodge", "seed004-ex2-shove-ally", "seed004-ex3-shove-enemy-dodged",
        "seed004-ex4-shove-order", "huge-shove-destroys-terrain", "markers-portable-and-bound",
        "seed000-stabilisation-crit-hostile-explore", "vortex-blocked-by-solid-terrain",
        "vortex-moves-onto-burning-ground", "explore-takes-the-last-ether", "double-entry-resolved-once",
        "domain-choice-crystals-reroll"}
    assert {name_of(p) for p in RECORDS} - {name_of(p) for p in TORNSCAPE} == {
        "claustrophobia-seed003-sceptre-three-dice", "claustrophobia-exhausted-lost-line-restored",
        "t9a-eight-flux-cards", "t9a-dispelled-failed-bound", "t9a-miscast-before-spell-and-attribute",
        "t9a-other-rolls-shooting"}
    assert all((GAMES / f"{name_of(p)}.expected.json").is_file() for p in RECORDS)


@pytest.mark.parametrize("path", TORNSCAPE, ids=name_of)
def test_golden_record_replays_to_expected_state(tmp_path: Path, path: Path) -> None:
    app, game, exported = import_golden(tmp_path, name_of(path))
    expected = json.loads((GAMES / f"{name_of(path)}.expected.json").read_text(encoding="utf-8"))
    assert CONTRACT_KEYS <= expected.keys()
    state = final_state(app, game)
    assert {k: state.get(k) for k in expected} == expected
    assert state["pending"] == [] and state["activation"] is None
    assert app.verify(game).ok


@pytest.mark.parametrize("path", RECORDS, ids=name_of)
def test_golden_record_has_a_comment_under_the_header_and_no_violations(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0])["rollcall"] == 1
    assert lines[1].startswith("# ") and len(lines[1]) > 80
    events = [json.loads(text) for text in lines[2:]]
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert all("hash" in e and "violations" not in e for e in events)


def test_example1_enemy_swordsman_fails_dodge_and_is_pushed_into_burning_ground(tmp_path: Path) -> None:
    app, game, exported = import_golden(tmp_path, "seed004-ex1-shove-enemy-failed-dodge")
    moved = line(exported, 4)
    assert moved["type"] == "ModelMoved" and moved["must_eject"] == ["swordsman"]
    assert moved["free_attacks"] == []  # not engaged at the start, passes nothing
    roll = line(exported, 5)
    assert roll["purpose"] == "dodge" and roll["player"] == "p1" and roll["faces"] == ["blank"]
    ejected = line(exported, 6)
    assert ejected["type"] == "ModelEjected" and ejected["dodge"] == 5
    assert ejected["dodged"] is False
    assert ejected["free_attacks"] == ["swordsman"]  # R58: the Faceless takes the Swordsman's free attack
    state = final_state(app, game)
    assert at(state, "faceless") == [[5, 6]]
    assert at(state, "swordsman") == [[7, 5]]
    assert state["terrain"]["fire1"] == {"kind": "burning_ground", "hexes": [[7, 5]]}  # hex 3: burning ground


def test_example1_nearest_free_hexes_are_the_three_of_the_seed(tmp_path: Path) -> None:
    app = Rollcall.open(tmp_path / "data")
    lines = (GAMES / "seed004-ex1-shove-enemy-failed-dodge.rollcall.jsonl").read_text(encoding="utf-8").splitlines()
    game = app.check_record(lines[:6], "ex1").game  # header, comment, seq 1-4: the Faceless has moved
    state = game.state
    targets = game.system.ejection_targets(state, state.models["swordsman"], state.models["faceless"])
    assert targets == [[(3, 6)], [(4, 5)], [(7, 5)]]


def test_example2_ally_guardsman_moves_to_a_hex_the_faceless_left(tmp_path: Path) -> None:
    app, game, exported = import_golden(tmp_path, "seed004-ex2-shove-ally")
    assert line(exported, 4)["must_eject"] == ["guardsman"]
    ejected = line(exported, 5)
    assert ejected["model"] == "guardsman" and ejected["to"] == [4, 5]
    assert "dodge" not in ejected and "dodged" not in ejected  # no dodge for an ally
    assert ejected["free_attacks"] == []  # no free attack from an ally
    state = final_state(app, game)
    setup = json.loads((GAMES / "seed004-ex2-shove-ally.rollcall.jsonl").read_text().splitlines()[0])["setup"]
    faceless_start = next(m["at"][0] for m in setup["models"] if m["id"] == "faceless")
    assert faceless_start == [3, 5]
    assert at(state, "guardsman") == [[4, 5]]  # [4,5] is in hexon [3,5], which the Faceless left
    assert at(state, "faceless") == [[5, 6]]


def test_example3_enemy_rogue_dodges_lands_next_to_his_swordsman_and_still_attacks(tmp_path: Path) -> None:
    app, game, exported = import_golden(tmp_path, "seed004-ex3-shove-enemy-dodged")
    ejected = line(exported, 6)
    assert ejected["model"] == "rogue" and ejected["dodged"] is True
    assert ejected["free_attacks"] == ["rogue"]
    state = final_state(app, game)
    assert at(state, "rogue") == [[7, 5]]
    assert at(state, "swordsman") == [[7, 6]]  # [7,5] and [7,6] are adjacent
    assert state["models"]["rogue"]["player"] == state["models"]["swordsman"]["player"] == "p1"


def test_example3_offers_seven_nearest_free_hexes(tmp_path: Path) -> None:
    app = Rollcall.open(tmp_path / "data")
    lines = (GAMES / "seed004-ex3-shove-enemy-dodged.rollcall.jsonl").read_text(encoding="utf-8").splitlines()
    game = app.check_record(lines[:6], "ex3").game
    state = game.state
    targets = game.system.ejection_targets(state, state.models["rogue"], state.models["faceless"])
    assert len(targets) == 7 and [(7, 5)] in targets


def test_example4_ally_ejected_before_enemy_who_lands_in_burning_ground(tmp_path: Path) -> None:
    app, game, exported = import_golden(tmp_path, "seed004-ex4-shove-order")
    moved = line(exported, 4)
    assert moved["action"] == "run" and moved["must_eject"] == ["guardsman", "swordsman"]  # R64
    first, second = line(exported, 5), line(exported, 7)
    assert (first["model"], second["model"]) == ("guardsman", "swordsman")
    assert first["free_attacks"] == [] and "dodged" not in first
    assert second["dodged"] is True and second["free_attacks"] == ["swordsman"]
    state = final_state(app, game)
    assert at(state, "guardsman") == [[4, 5]]
    assert at(state, "swordsman") == [[7, 5]]
    burning = {tuple(h) for t in state["terrain"].values() if t["kind"] == "burning_ground" for h in t["hexes"]}
    assert (7, 5) in burning


def test_example4_after_the_guardsman_only_burning_ground_is_nearest(tmp_path: Path) -> None:
    app = Rollcall.open(tmp_path / "data")
    lines = (GAMES / "seed004-ex4-shove-order.rollcall.jsonl").read_text(encoding="utf-8").splitlines()
    game = app.check_record(lines[:7], "ex4").game  # up to the Guardsman's ejection (seq 5)
    state = game.state
    targets = {t[0] for t in game.system.ejection_targets(state, state.models["swordsman"], state.models["faceless"])}
    burning = {tuple(h) for t in state.terrain.values() if t["kind"] == "burning_ground" for h in t["hexes"]}
    assert targets == {(3, 6), (7, 4), (7, 5)} and targets <= burning


def test_huge_destroys_terrain_passed_and_ended_on_and_huge_shoves_a_large(tmp_path: Path) -> None:
    app, game, exported = import_golden(tmp_path, "huge-shove-destroys-terrain")
    moved = line(exported, 4)
    assert moved["destroyed"] == ["rock1", "rock2"]  # R53 passed through, R55 ended on
    assert moved["free_attacks"] == ["faceless"]  # R74: passed next to the enemy Faceless
    assert moved["must_eject"] == ["swordsman", "faceless"]  # R64 ally first; R63 a large is shoved
    large = line(exported, 7)
    assert large["model"] == "faceless" and large["to"] == [[5, 6]]
    assert large["dodged"] is False and large["free_attacks"] == ["faceless"]
    state = final_state(app, game)
    assert state["terrain"] == {}
    assert at(state, "colossus") == [[6, 3], [8, 4]]
    assert at(state, "faceless") == [[5, 6]]  # the hexon where rock1 stood is free again
    assert at(state, "swordsman") == [[4, 4]]


def test_markers_portable_shoved_and_taken_bound_displaced_next_to_its_model(tmp_path: Path) -> None:
    app, game, exported = import_golden(tmp_path, "markers-portable-and-bound")
    assert line(exported, 4)["markers_to_eject"] == ["k1"]  # R68 infantry ends on a portable marker
    assert line(exported, 10)["markers_to_eject"] == ["k2"]  # the Faceless ends on bound k2
    state = final_state(app, game)
    assert state["markers"]["k1"] == {"kind": "portable", "at": [5, 1], "linked_to": None}
    assert state["markers"]["k2"] == {"kind": "bound", "at": [10, 1], "linked_to": "swordsman"}  # R69, R71
    assert "k3" not in state["markers"]  # R69 a taken portable marker leaves the board
    assert at(state, "swordsman") == [[9, 2]]
