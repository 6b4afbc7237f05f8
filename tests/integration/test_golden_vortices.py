"""The ether-vortex golden records of tests/games/ (seed 000), each told in its ``#`` comment line:

* ``seed000-stabilisation-crit-hostile-explore`` — the seed's worked example: Otraax's critical success
  gives Torgvar's vortex Destruction, and the Swordsman's explore draws from the hostile row;
* ``vortex-blocked-by-solid-terrain`` — Phase V, a vortex stays and turns (R35);
* ``vortex-moves-onto-burning-ground`` — a vortex covers burning ground (R36), then is entered on it;
* ``explore-takes-the-last-ether`` — an explore capped by the supply removes the vortex (R19, R03);
* ``double-entry-resolved-once`` — start and end of an activation in one vortex, one draw (R28);
* ``domain-choice-crystals-reroll`` — a chosen domain (R09), crystal re-rolls (R39), a conversion (R38).

Their final states are checked against ``*.expected.json`` by test_golden_games.py (written by hand);
here each record's derived fields, the parts of the state not in the replay JSON (crystals, faith,
dice after re-rolls) and what may not follow are asserted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from service.application import Rollcall
from domain.errors import RecordError, RuleViolation
from domain.systems.tornscape import hexes as hx

GAMES = Path(__file__).resolve().parents[1] / "games"
VORTEX_RECORDS = ("seed000-stabilisation-crit-hostile-explore", "vortex-blocked-by-solid-terrain",
                  "vortex-moves-onto-burning-ground", "explore-takes-the-last-ether", "double-entry-resolved-once",
                  "domain-choice-crystals-reroll")
#: derived fields by event type (FORMAT.md, docs/format.md): what a user need not type
DERIVED = {"ActivationStarted": {"entered"}, "ActivationEnded": {"entered"},
           "ModelMoved": {"free_attacks", "destroyed", "must_eject", "markers_to_eject", "entered"},
           "VortexStabilised": {"allegiance"}, "VortexExplored": {"success", "ether_gained", "vortex_removed"},
           "PhenomenonDrawn": {"vortex", "model", "relation", "trigger", "shuffled"},
           "VortexMoved": {"side", "to", "blocked"}}


def golden_lines(name: str) -> list[str]:
    return (GAMES / f"{name}.rollcall.jsonl").read_text(encoding="utf-8").splitlines()


def import_golden(tmp_path: Path, name: str) -> tuple[Rollcall, str, list[dict]]:
    app = Rollcall.open(tmp_path / "data")
    imported = app.import_record(golden_lines(name), name)
    assert imported.violations == 0
    return app, imported.game, [json.loads(line) for line in app.export_lines(imported.game)]


def line(exported: list[dict], seq: int, event_type: str) -> dict:
    event = exported[seq]
    assert (event["seq"], event["type"]) == (seq, event_type)
    return event


def bare(lines: list[str]) -> list[dict]:
    """The record as a user types it: no comment, no hashes, no seq, no derived fields."""
    objs = [json.loads(text) for text in lines if not text.startswith("#")]
    head = {k: v for k, v in objs[0].items() if k != "hash"}
    return [head] + [{k: v for k, v in e.items() if k not in {"hash", "seq", *DERIVED.get(e["type"], ())}}
                     for e in objs[1:]]


@pytest.mark.parametrize("name", VORTEX_RECORDS)
def test_typed_without_derived_fields_the_record_exports_the_golden_lines(tmp_path: Path, name: str) -> None:
    app = Rollcall.open(tmp_path / "data")
    game = app.import_record([json.dumps(o) for o in bare(golden_lines(name))], "typed").game
    golden = [json.loads(text) for text in golden_lines(name) if not text.startswith("#")]
    assert [json.loads(text) for text in app.export_lines(game)] == golden


# --- (a) the seed's worked example ------------------------------------------------------------------------

def test_seed_example_otraax_crit_gives_destruction_and_the_explore_draws_the_hostile_row(tmp_path: Path) -> None:
    app, game, exported = import_golden(tmp_path, "seed000-stabilisation-crit-hostile-explore")
    header = exported[0]
    swordsman = next(m for m in header["setup"]["models"] if m["id"] == "swordsman")
    assert swordsman["name"] == "Engeln Swordsman" and swordsman["domains"] == ["creation"]
    assert header["setup"]["vortices"][0]["id"] == "v1" and "allegiance" not in header["setup"]["vortices"][0]

    stabilisation = line(exported, 4, "DiceRolled")  # Otraax, the opponent, rolls one attack die (R10)
    assert (stabilisation["player"], stabilisation["purpose"], stabilisation["faces"]) == ("p2", "stabilisation",
                                                                                         ["crit"])
    assert line(exported, 5, "VortexStabilised")["allegiance"] == "destruction"  # R11: hostile to creation
    explore = line(exported, 7, "VortexExplored")
    assert (explore["success"], explore["ether_gained"], explore["vortex_removed"]) == (True, 1, False)
    cards = [line(exported, 8, "PhenomenonDrawn"), line(exported, 9, "PhenomenonDrawn")]
    assert [(c["relation"], c["trigger"], c["effect"], c["shuffled"]) for c in cards] == [
        ("hostile", "explore_success", "positive", False), ("hostile", "explore_success", "negative", True)]
    assert {c["model"] for c in cards} == {"swordsman"} and {c["vortex"] for c in cards} == {"v1"}

    state = app.get_game(game).state
    assert state.crystals == {"p1": 1, "p2": 0}
    assert state.vortices["v1"].allegiance == "destruction" and state.vortices["v1"].ether == 2
    assert state.deck_left() == state.deck  # both cards shuffled back (R22)
    assert app.verify(game).ok


def test_seed_example_with_nothing_on_the_die_the_vortex_would_be_the_swordsmans_own(tmp_path: Path) -> None:
    objs = bare(golden_lines("seed000-stabilisation-crit-hostile-explore"))
    objs[4]["faces"] = ["blank"]  # seq 4, the stabilisation die
    objs[8]["effect"] = "positive"  # allied row, successful explore: positive, positive
    objs[9]["effect"] = "positive"
    app = Rollcall.open(tmp_path / "data")
    game = app.import_record([json.dumps(o) for o in objs], "blank").game
    exported = [json.loads(text) for text in app.export_lines(game)]
    assert exported[5]["allegiance"] == "creation" and exported[8]["relation"] == "allied"


# --- (b) blocked by solid terrain -------------------------------------------------------------------------

def test_a_vortex_blocked_by_solid_terrain_stays_and_turns(tmp_path: Path) -> None:
    app, game, exported = import_golden(tmp_path, "vortex-blocked-by-solid-terrain")
    target = hx.hexon_neighbour((5, 6), (0 + 2) % 6)  # side 2 (success+success) of a tile facing 0
    rock = exported[0]["setup"]["terrain"][0]
    assert target == (2, 8) and {tuple(h) for h in rock["hexes"]} <= set(hx.hexon_hexes(target))
    roll = line(exported, 8, "DiceRolled")
    assert roll["player"] == "p1" and roll["faces"] == ["success", "success"]  # p1 finished activating first
    moved = line(exported, 9, "VortexMoved")
    assert (moved["side"], moved["to"], moved["blocked"], moved["facing"]) == (2, [5, 6], True, 3)
    assert line(exported, 10, "TurnStarted")["turn"] == 2  # R33: the only vortex was resolved
    vortex = app.get_game(game).state.vortices["v1"]
    assert (vortex.at, vortex.facing) == ((5, 6), 3)


def test_without_the_rock_the_same_roll_moves_the_vortex(tmp_path: Path) -> None:
    objs = bare(golden_lines("vortex-blocked-by-solid-terrain"))
    objs[0]["setup"]["terrain"] = []
    app = Rollcall.open(tmp_path / "data")
    game = app.import_record([json.dumps(o) for o in objs], "no-rock").game
    moved = json.loads(list(app.export_lines(game))[9])
    assert (moved["to"], moved["blocked"]) == ([2, 8], False)


# --- (c) onto burning ground ------------------------------------------------------------------------------

def test_a_vortex_moves_onto_burning_ground_covers_it_and_is_entered_there(tmp_path: Path) -> None:
    app, game, exported = import_golden(tmp_path, "vortex-moves-onto-burning-ground")
    first = line(exported, 9, "VortexMoved")
    assert (first["side"], first["to"], first["blocked"]) == (1, [2, 8], False)  # facing 1: direction 2
    assert line(exported, 10, "DiceRolled")["player"] == "p2"  # R32: players alternate
    second = line(exported, 11, "VortexMoved")
    assert (second["side"], second["to"], second["blocked"]) == (4, [9, 1], False)
    state = app.get_game(game).state
    fire = {tuple(h) for h in state.terrain["fire1"]["hexes"]}
    assert state.terrain["fire1"]["kind"] == "burning_ground" and fire <= state.vortices["v1"].hexes
    # the Swordsman ends on the covered fire at [3,7]: it meets the vortex (R26, R36)
    assert line(exported, 15, "ModelMoved")["entered"] == []  # it passes [3,8] but ends in the vortex
    assert line(exported, 16, "ActivationEnded")["entered"] == ["v1"]
    assert line(exported, 17, "DiceRolled")["player"] == "p2"
    card = line(exported, 19, "PhenomenonDrawn")
    assert (card["relation"], card["trigger"], card["effect"]) == ("neutral", "entering", "negative")


# --- (d) the last ether -----------------------------------------------------------------------------------

def test_an_explore_capped_by_the_supply_removes_the_vortex(tmp_path: Path) -> None:
    app, game, exported = import_golden(tmp_path, "explore-takes-the-last-ether")
    assert line(exported, 5, "VortexStabilised")["allegiance"] == "creation"  # R12: nothing -> own domain
    assert line(exported, 6, "DiceRolled")["faces"] == ["success", "crit"]  # two successes...
    explore = line(exported, 7, "VortexExplored")
    assert (explore["ether_gained"], explore["vortex_removed"]) == (1, True)  # ...but 1 ether left (R19, R03)
    assert [line(exported, s, "PhenomenonDrawn")["relation"] for s in (8, 9)] == ["allied", "allied"]
    walk = line(exported, 10, "ModelMoved")
    assert walk["path"] == [[6, 6], [5, 6], [4, 6]] and walk["entered"] == []  # no vortex there any more
    assert line(exported, 11, "ActivationEnded")["entered"] == []
    assert [e["vortex"] for e in exported[1:] if e["type"] == "VortexMoved"] == ["v2"]  # R33 without v1
    state = app.get_game(game).state
    assert state.crystals == {"p1": 1, "p2": 0}
    assert state.vortices["v1"].removed and state.vortices["v1"].at == (5, 6)  # R37: the last hexon


def test_a_removed_vortex_cannot_be_moved_in_phase_v(tmp_path: Path) -> None:
    lines = golden_lines("explore-takes-the-last-ether")[:-1]  # up to the move of v2 (seq 16)
    lines += [json.dumps({"type": "DiceRolled", "player": "p2", "purpose": "vortex_move", "die": "attack",
                          "faces": ["crit", "crit"]}),
              json.dumps({"type": "VortexMoved", "vortex": "v1", "roll": 17})]
    app = Rollcall.open(tmp_path / "data")
    with pytest.raises(RecordError) as info:
        app.import_record(lines, "late.rollcall.jsonl")
    assert str(info.value).startswith(f"late.rollcall.jsonl:{len(lines)} (VortexMoved): R03 ")
    assert app.exists("vortex-last-ether") is False


def test_a_removed_vortex_cannot_be_explored_later(tmp_path: Path) -> None:
    app, game, _ = import_golden(tmp_path, "explore-takes-the-last-ether")
    app.record(game, {"type": "PhaseStarted", "phase": "activation"})
    started = app.record(game, {"type": "ActivationStarted", "model": "swordsman"})
    assert started["entered"] == []  # it stands at [4,6], in v1's last hexon: v1 is gone
    roll = app.record(game, {"type": "DiceRolled", "player": "p1", "purpose": "explore", "die": "attack",
                             "faces": ["success", "success"]})
    before = list(app.export_lines(game))
    with pytest.raises(RuleViolation) as info:
        app.record(game, {"type": "VortexExplored", "vortex": "v1", "model": "swordsman", "roll": roll["seq"]})
    assert info.value.rule == "R03" and "v1" in info.value.message
    assert list(app.export_lines(game)) == before


# --- (e) a double entry -----------------------------------------------------------------------------------

def test_a_double_entry_is_resolved_once(tmp_path: Path) -> None:
    app, game, exported = import_golden(tmp_path, "double-entry-resolved-once")
    assert line(exported, 3, "ActivationStarted")["entered"] == ["v1"]  # R25
    assert line(exported, 7, "ModelMoved")["entered"] == []  # leaves: no second entry (R27 deduped, R28)
    back = line(exported, 8, "ModelMoved")
    assert back["path"][-1] == [5, 7] and back["entered"] == []
    assert line(exported, 9, "ActivationEnded")["entered"] == []  # ends in v1 again (R26 deduped, R28)
    draws = [e for e in exported[1:] if e["type"] == "PhenomenonDrawn"]
    assert [(d["model"], d["trigger"]) for d in draws] == [("swordsman", "entering"), ("rogue", "entering")]
    assert line(exported, 11, "ModelMoved")["entered"] == ["v1"]  # the Rogue passes through (R27)
    assert line(exported, 12, "DiceRolled")["player"] == "p1"  # the Rogue's opponent stabilises
    assert line(exported, 13, "VortexStabilised")["allegiance"] == "destruction"
    assert line(exported, 14, "PhenomenonDrawn")["relation"] == "allied"
    state = app.get_game(game).state
    assert (5, 7) in state.vortices["v1"].hexes and state.models["swordsman"].at == [(5, 7)]
    assert not state.vortices["v1"].hexes & state.models["rogue"].fp


# --- (f) domain choice, crystals, re-rolls, conversion -----------------------------------------------------

def test_a_chosen_domain_crystal_rerolls_and_a_conversion(tmp_path: Path) -> None:
    app, game, exported = import_golden(tmp_path, "domain-choice-crystals-reroll")
    assert line(exported, 4, "DomainChosen")["domain"] == "life"  # R09
    assert line(exported, 6, "VortexStabilised")["allegiance"] == "life"  # nothing: the chosen domain
    assert line(exported, 8, "VortexExplored")["ether_gained"] == 3
    assert {line(exported, s, "PhenomenonDrawn")["relation"] for s in (9, 10)} == {"allied"}
    rerolls = [line(exported, s, "DieRerolled") for s in (12, 13)]
    assert [(r["roll"], r["index"], r["face"], r["paid"]) for r in rerolls] == [(11, 0, "blank", "crystal"),
                                                                             (11, 0, "crit", "crystal")]
    state = app.get_game(game).state
    assert state.rolls[11].faces == ["crit", "success"] and list(state.rolls[11].initial) == ["blank", "success"]
    assert state.crystals == {"p1": 0, "p2": 0}  # 3 taken, 2 re-rolls, 1 converted
    assert state.faith["p1"] == {"creation": 0, "destruction": 0, "life": 0, "death": 1}  # R38
    assert state.vortices["v1"].ether == 2


def test_without_a_chosen_domain_the_two_domain_model_cannot_be_stabilised(tmp_path: Path) -> None:
    lines = golden_lines("domain-choice-crystals-reroll")
    del lines[5]  # seq 4, DomainChosen (line 6: header, comment, seq 1-3 before it)
    objs = bare(lines)
    for i, obj in enumerate(objs[1:], start=1):
        if "roll" in obj:
            obj["roll"] -= 1
    app = Rollcall.open(tmp_path / "data")
    with pytest.raises(RecordError) as info:
        app.import_record([json.dumps(o) for o in objs], "nochoice")
    assert str(info.value).startswith("nochoice:6 (VortexStabilised): R09 ")
