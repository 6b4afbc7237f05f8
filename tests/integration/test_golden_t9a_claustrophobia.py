"""Golden records of The 9th Age magic phase (seed 001) and the Claustrophobia initiative phase
(seed 003), each told in the ``#`` comment line under its header:

* ``claustrophobia-seed003-sceptre-three-dice`` — the seed's example: the Redeemer holding the Sceptre
  of Command and a Blade for Hire roll three action dice; a 2 gives MVT 1 / CBT 2 / DEF 4, the
  Redeemer's 5 his line 5 and the gift Aura of Foresight; the third die is set aside.
* ``claustrophobia-exhausted-lost-line-restored`` — a die on a lost line exhausts the Redeemer
  (DEF 3, MVT 0, CBT 0), the gift of that line is refused (R104), healing the line ends it (X08).
* ``t9a-eight-flux-cards`` — eight magic phases, players alternating, Flux cards 1–8 once each,
  with card 1's +1 and card 8's −1 on a miscast.
* ``t9a-dispelled-failed-bound`` — siphon, a cast dispelled on a tie, a failed cast that skips
  B–E, a bound spell at its power level.
* ``t9a-miscast-before-spell-and-attribute`` — a triple: miscast (C), spell (D), attribute (E).

Each imports strictly without violations and replays to its ``*.expected.json`` (written by hand
from the scene, not generated); the stories are asserted on the exported lines and on the state at
chosen seqs, and changed copies of the records show the rules that hold them together.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from service.application import Rollcall
from domain.errors import RecordError
from domain.systems import system_for

GAMES = Path(__file__).resolve().parents[1] / "games"
NAMES = ["claustrophobia-seed003-sceptre-three-dice", "claustrophobia-exhausted-lost-line-restored",
         "t9a-eight-flux-cards", "t9a-dispelled-failed-bound", "t9a-miscast-before-spell-and-attribute"]

#: RULES.md §3 (e1), typed from the seed's table: card -> (magic dice, veil tokens, miscast modifier)
FLUX = {"1": (4, 3, 1), "2": (5, 2, 0), "3": (5, 5, 0), "4": (5, 7, 0), "5": (5, 9, 0), "6": (6, 5, 0),
        "7": (6, 7, 0), "8": (7, 7, -1)}


def record_lines(name: str) -> list[str]:
    return (GAMES / f"{name}.rollcall.jsonl").read_text(encoding="utf-8").splitlines()


def import_golden(tmp_path: Path, name: str) -> tuple[Rollcall, str, list[dict]]:
    app = Rollcall.open(tmp_path / "data")
    imported = app.import_record(record_lines(name), name)
    assert imported.violations == 0
    return app, imported.game, [json.loads(line) for line in app.export_lines(imported.game)]


def bare(name: str) -> tuple[dict, list[dict]]:
    """The record as a user would type it (so it can be changed): no comment, no hashes, no seq and
    none of the fields the rules derive (each event type's spec says which)."""
    lines = [json.loads(line) for line in record_lines(name) if not line.startswith("#")]
    specs = system_for(lines[0]["system"]).specs
    head = {k: v for k, v in lines[0].items() if k != "hash"}
    events = [{k: v for k, v in e.items() if k not in ("hash", "seq", *specs[e["type"]].derived)} for e in lines[1:]]
    return head, events


def insert(events: list[dict], index: int, event: dict) -> None:
    """Insert ``event`` as seq ``index + 1``; later events' ``roll`` references move with their rolls."""
    for later in events[index:]:
        if isinstance(later.get("roll"), int) and later["roll"] > index:
            later["roll"] += 1
    events.insert(index, event)


def as_lines(head: dict, events: list[dict]) -> list[str]:
    return [json.dumps(head)] + [json.dumps(e) for e in events]


def state_at(app: Rollcall, game: str, seq: int) -> dict:
    return app.get_game(game, version=seq + 1).state.to_json()


# --- every record --------------------------------------------------------------------------------------

def test_the_five_records_are_in_the_folder() -> None:
    for name in NAMES:
        assert (GAMES / f"{name}.rollcall.jsonl").is_file() and (GAMES / f"{name}.expected.json").is_file()


@pytest.mark.parametrize("name", NAMES)
def test_golden_record_replays_to_its_hand_checked_state(tmp_path: Path, name: str) -> None:
    app, game, exported = import_golden(tmp_path, name)
    expected = json.loads((GAMES / f"{name}.expected.json").read_text(encoding="utf-8"))
    assert app.get_game(game).state.to_json() == expected
    assert expected["seq"] == len(exported) - 1
    assert app.verify(game).ok


@pytest.mark.parametrize("name", NAMES)
def test_golden_record_is_the_apps_export_with_a_comment(tmp_path: Path, name: str) -> None:
    lines = record_lines(name)
    assert lines[1].startswith("# ") and len(lines[1]) > 80
    _, _, exported = import_golden(tmp_path, name)
    assert [json.loads(line) for line in lines if not line.startswith("#")] == exported
    assert all("violations" not in e for e in exported)


@pytest.mark.parametrize("name", NAMES)
def test_golden_record_typed_without_derived_fields_exports_the_same(tmp_path: Path, name: str) -> None:
    app = Rollcall.open(tmp_path / "data")
    head, events = bare(name)
    assert any(set(e) != set(json.loads(line)) - {"hash", "seq"}
               for e, line in zip(events, record_lines(name)[2:]))  # some derived fields were left out
    game = app.import_record(as_lines(head, events), name).game
    assert [json.loads(line) for line in app.export_lines(game)] == [
        json.loads(line) for line in record_lines(name) if not line.startswith("#")]


# --- Claustrophobia ------------------------------------------------------------------------------------

def test_seed003_three_dice_for_the_redeemer_with_the_sceptre_and_a_blade_for_hire(tmp_path: Path) -> None:
    app, game, exported = import_golden(tmp_path, "claustrophobia-seed003-sceptre-three-dice")
    roll = exported[3]
    assert (roll["type"], roll["purpose"], roll["player"], len(roll["faces"])) == ("DiceRolled", "initiative", "p1", 3)
    start = app.get_game(game, version=1)
    assert start.system.dice_due(start.state) == 3  # two warriors + the Sceptre of Command (R98, R106)

    redeemer, gift, blade, action = exported[4], exported[5], exported[6], exported[7]
    assert (redeemer["warrior"], roll["faces"][redeemer["index"]]) == ("redeemer", 5)
    assert (redeemer["line"], redeemer["mvt"], redeemer["cbt"], redeemer["def"]) == (5, 1, 1, 5)
    assert (gift["type"], gift["gift"]) == ("GiftUsed", "aura_of_foresight")
    assert (blade["warrior"], roll["faces"][blade["index"]]) == ("blade", 2)
    assert (blade["line"], blade["mvt"], blade["cbt"], blade["def"], blade["exhausted"]) == (2, 1, 2, 4, False)
    assert action["phase"] == "action" and action["set_aside"] == [2]  # the 6 is not used this round (R105)


def test_seed003_the_redeemer_with_a_die_other_than_5_has_no_gift(tmp_path: Path) -> None:
    head, events = bare("claustrophobia-seed003-sceptre-three-dice")
    events[3]["index"], events[5]["index"] = 2, 1             # the Redeemer takes the 6 instead
    with pytest.raises(RecordError) as info:
        Rollcall.open(tmp_path / "data").import_record(as_lines(head, events), "six")
    assert str(info.value).startswith("six:6 (GiftUsed): R101 ")


def test_a_die_on_a_lost_line_exhausts_and_healing_the_line_ends_it(tmp_path: Path) -> None:
    app, game, exported = import_golden(tmp_path, "claustrophobia-exhausted-lost-line-restored")
    assert exported[8] | {"hash": None} == {"seq": 8, "type": "LineLost", "warrior": "redeemer", "line": 5,
                                            "hash": None}
    tired = exported[13]
    assert (tired["warrior"], tired["line"], tired["exhausted"]) == ("redeemer", 5, True)
    assert (tired["mvt"], tired["cbt"], tired["def"]) == (0, 0, 3)
    assert exported[14]["set_aside"] == [2]
    before = state_at(app, game, 14)["warriors"]["redeemer"]
    assert (before["exhausted"], before["def"], before["lines"]["5"]["available"]) == (True, 3, False)
    after = state_at(app, game, 15)["warriors"]["redeemer"]
    assert (after["exhausted"], after["mvt"], after["cbt"], after["def"]) == (False, 1, 1, 5)  # X08


def test_the_exhausted_redeemer_cannot_use_the_gift_of_his_lost_line_but_can_once_it_is_healed(tmp_path: Path) -> None:
    head, events = bare("claustrophobia-exhausted-lost-line-restored")
    gift = {"type": "GiftUsed", "warrior": "redeemer", "gift": "aura_of_foresight"}
    exhausted = events[:13] + [gift]                          # right after his die of 5 (seq 13)
    with pytest.raises(RecordError) as info:
        Rollcall.open(tmp_path / "a").import_record(as_lines(head, exhausted), "gift")
    assert str(info.value).startswith("gift:15 (GiftUsed): R104 ")
    healed = events + [gift]
    assert Rollcall.open(tmp_path / "b").import_record(as_lines(head, healed), "gift").violations == 0


def test_without_X08_the_healed_redeemer_stays_exhausted(tmp_path: Path) -> None:
    head, events = bare("claustrophobia-exhausted-lost-line-restored")
    head = {**head, "rules": {"switches": {"X08": False}}}
    app = Rollcall.open(tmp_path / "data")
    game = app.import_record(as_lines(head, events), "x08").game
    redeemer = app.get_game(game).state.to_json()["warriors"]["redeemer"]
    assert (redeemer["exhausted"], redeemer["def"], redeemer["lines"]["5"]["available"]) == (True, 3, True)


# --- The 9th Age ---------------------------------------------------------------------------------------

def test_eight_flux_cards_each_once_with_their_dice_and_tokens(tmp_path: Path) -> None:
    app, game, exported = import_golden(tmp_path, "t9a-eight-flux-cards")
    draws = [e for e in exported[1:] if e["type"] == "FluxCardDrawn"]
    assert [d["card"] for d in draws] == list("12345678")     # each card once (R83)
    for draw in draws:
        assert (draw["magic_dice"], draw["veil_tokens"], draw["miscast_modifier"]) == FLUX[draw["card"]]
    actives = [e["active"] for e in exported[1:] if e["type"] == "MagicPhaseStarted"]
    assert actives == ["p1", "p2"] * 4
    # both players get the card's dice (R82); the active player adds the dice he siphons (R88)
    siphons = [e for e in exported[1:] if e["type"] == "VeilSiphoned"]
    for active, draw, siphon in zip(actives, draws, siphons):
        reactive = "p2" if active == "p1" else "p1"
        assert siphon["magic_dice"][reactive] == draw["magic_dice"]
        assert siphon["magic_dice"][active] == draw["magic_dice"] + siphon["converted_dice"]
    # the pool: card + Channel (p1: 1) + tokens kept last time by the same player (R87), 3 per die (R88)
    kept = {"p1": 0, "p2": 0}
    for active, draw, siphon in zip(actives, draws, siphons):
        pool = draw["veil_tokens"] + (1 if active == "p1" else 0) + kept[active]
        assert siphon["pool"] == pool - 3 * siphon["converted_dice"]
        assert siphon["kept"] == min(siphon["pool"], 3)       # R90
        kept[active] = siphon["kept"]
    assert [s["pool"] for s in siphons] == [1, 2, 1, 0, 5, 2, 2, 6]
    assert [s["kept"] for s in siphons] == [1, 2, 1, 0, 3, 2, 2, 3]
    final = app.get_game(game).state.to_json()
    assert final["players"]["p1"]["flux_left"] == ["2", "4", "6", "8"]
    assert final["players"]["p2"]["flux_left"] == ["1", "3", "5", "7"]


def test_card_1_adds_one_and_card_8_takes_one_from_the_miscast(tmp_path: Path) -> None:
    _, _, exported = import_golden(tmp_path, "t9a-eight-flux-cards")
    miscasts = [e for e in exported[1:] if e["type"] == "MiscastResolved"]
    first, last = miscasts
    assert exported[6]["miscast"] is True and exported[45]["miscast"] is True
    assert (first["wizard"], first["value"], first["effect"]) == ("archmage", 3, "magical_inferno")  # 3 +1 -1 (3 dice)
    assert (last["wizard"], last["value"], last["effect"]) == ("shaman", 5, "backlash")              # 6 -1
    assert exported[47]["dispelled"] is False                 # 11 < 20: the miscast and the spell follow


def test_eight_flux_cards_without_their_modifiers_give_other_miscasts(tmp_path: Path) -> None:
    head, events = bare("t9a-eight-flux-cards")
    head = {**head, "rules": {"flux_cards": {"1": {"miscast_modifier": 0}, "8": {"miscast_modifier": 0}}}}
    app = Rollcall.open(tmp_path / "data")
    game = app.import_record(as_lines(head, events), "plain").game
    miscasts = [e for e in map(json.loads, app.export_lines(game)) if e.get("type") == "MiscastResolved"]
    assert [(m["value"], m["effect"]) for m in miscasts] == [(2, "witchfire"), (6, "implosion")]


def test_a_ninth_phase_may_not_reuse_a_card(tmp_path: Path) -> None:
    head, events = bare("t9a-eight-flux-cards")
    events += [{"type": "TurnStarted", "turn": 9}, {"type": "MagicPhaseStarted", "active": "p1"},
               {"type": "FluxCardDrawn", "card": "3"}]
    with pytest.raises(RecordError) as info:
        Rollcall.open(tmp_path / "data").import_record(as_lines(head, events), "ninth")
    assert str(info.value).startswith("ninth:54 (FluxCardDrawn): R83 p1's Flux card 3 was already used")
    assert "left: 2, 4, 6, 8" in str(info.value)


def test_siphon_cast_dispelled_then_a_failed_cast_then_a_bound_spell(tmp_path: Path) -> None:
    app, game, exported = import_golden(tmp_path, "t9a-dispelled-failed-bound")
    assert (exported[3]["magic_dice"], exported[3]["veil_tokens"]) == (5, 9)
    siphon = exported[4]
    assert (siphon["converted_dice"], siphon["pool"], siphon["kept"]) == (3, 1, 1)   # 9 + 1 Channel - 9
    assert siphon["magic_dice"] == {"p1": 8, "p2": 5}
    fireball, dispel = exported[6], exported[8]
    assert (fireball["total"], fireball["passed"], fireball["miscast"]) == (12, True, False)
    assert (dispel["total"], dispel["dispelled"]) == (12, True)                    # a tie dispels (X07 default)
    assert exported[9]["type"] == "DiceRolled"                # R79: no miscast, spell nor attribute of the Fireball
    failed = exported[10]
    assert (failed["spell"], failed["total"], failed["passed"]) == ("flame_wall", 4, False)
    assert exported[11]["type"] == "CastingAttempted"         # R78: straight to the next attempt
    wand = exported[11]
    assert "roll" not in wand and (wand["total"], wand["passed"]) == (4, True)    # X03: power level with 2 dice
    assert (exported[13]["total"], exported[13]["dispelled"]) == (3, False)
    pools = {seq: state_at(app, game, seq)["players"] for seq in (4, 8, 10, 11, 13)}
    assert [(pools[s]["p1"]["magic_dice"], pools[s]["p2"]["magic_dice"]) for s in (4, 8, 10, 11, 13)] == [
        (8, 5), (5, 2), (4, 2), (2, 2), (2, 1)]               # seq 10: the failed cast's 1 came back (X02)
    assert state_at(app, game, 8)["magic"]["cast"] | {} == {
        "seq": 6, "wizard": "archmage", "spell": "fireball", "total": 12, "passed": True, "dispelled": True,
        "miscast": False, "step": "B"}


def test_the_dispelled_fireball_may_not_take_effect(tmp_path: Path) -> None:
    head, events = bare("t9a-dispelled-failed-bound")
    insert(events, 8, {"type": "SpellResolved", "spell": "fireball"})
    with pytest.raises(RecordError) as info:
        Rollcall.open(tmp_path / "data").import_record(as_lines(head, events), "d")
    assert str(info.value).startswith("d:10 (SpellResolved): R79 ")


def test_with_ties_to_the_caster_the_fireball_is_not_dispelled(tmp_path: Path) -> None:
    head, events = bare("t9a-dispelled-failed-bound")
    head = {**head, "rules": {"dispel": {"tie": "caster"}}}
    with pytest.raises(RecordError) as info:                  # the Fireball now takes effect before the next cast
        Rollcall.open(tmp_path / "a").import_record(as_lines(head, events), "tie")
    assert str(info.value).startswith("tie:11 (CastingAttempted): R77 the cast of fireball passed")
    insert(events, 8, {"type": "SpellResolved", "spell": "fireball"})
    app = Rollcall.open(tmp_path / "b")
    game = app.import_record(as_lines(head, events), "tie").game
    assert json.loads(list(app.export_lines(game))[8])["dispelled"] is False


def test_a_triple_resolves_the_miscast_before_the_spell_and_its_attribute(tmp_path: Path) -> None:
    app, game, exported = import_golden(tmp_path, "t9a-miscast-before-spell-and-attribute")
    cast = exported[6]
    assert (cast["wizard"], cast["spell"], cast["total"], cast["passed"], cast["miscast"]) == (
        "druid", "heal", 11, True, True)
    assert (exported[8]["total"], exported[8]["dispelled"]) == (5, False)
    assert [e["type"] for e in exported[9:12]] == ["MiscastResolved", "SpellResolved", "AttributeResolved"]
    assert (exported[9]["value"], exported[9]["effect"]) == (2, "witchfire")      # triple 2, 4 dice: no modifier
    assert exported[11]["spell"] == "regrowth"                 # the attribute of Heal's path, druidism
    steps = [state_at(app, game, seq)["magic"]["cast"]["step"] for seq in (6, 8, 9, 10, 11)]
    assert steps == ["A", "B", "C", "D", "E"]
    assert state_at(app, game, 8)["players"]["p2"]["magic_dice"] == 4             # 5 - 2 + the 1 back (X02)
    assert state_at(app, game, 8)["players"]["p1"]["magic_dice"] == 2             # 6 - 4


def test_the_spell_may_not_come_before_its_miscast(tmp_path: Path) -> None:
    head, events = bare("t9a-miscast-before-spell-and-attribute")
    events[8], events[9] = events[9], events[8]
    with pytest.raises(RecordError) as info:
        Rollcall.open(tmp_path / "data").import_record(as_lines(head, events), "order")
    assert str(info.value).startswith("order:10 (SpellResolved): R80 the miscast of heal")
