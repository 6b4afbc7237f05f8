"""Every ether-vortex rule of seed 000 (R01–R40) that a record can break, and F07 (digital dice).

Each ``test_*_R<nn>`` builds a small record that breaks one rule and asserts that

* a strict import raises ``RecordError`` reading ``FILE:LINE (EventType): R<nn> …`` naming the
  vortices / models / cards concerned, and stores nothing of that game (``app.exists`` is False);
* a lenient import stores the game, with ``violations`` naming the rule on the offending line (and on
  no earlier line).

Rules of R01–R40 a record cannot break, and why:

* R06, R07, R08 — the hostility table itself (creation↔destruction, life↔death, one hostile and two
  neutral domains each). A record names no relation of domains, it only uses them; the table is
  tested directly (``relation``), and through R11/R29/R30 records that derive from it.
* R20 — "take the ether, then draw the cards": the ether taken is a derived field of the
  ``VortexExplored`` event itself, so it always comes before the ``PhenomenonDrawn`` lines that follow.
* R24 — two cards are resolved one after the other: each card is its own ``PhenomenonDrawn`` line in
  record order and the second is the one marked ``shuffled``; a record cannot draw "both at once".
* R36 — moving onto burning ground / deadly bog is a permission (tested as accepted). Its second half
  (terrain effects are ignored for miniatures entering the covered hexon) is about effects Rollcall
  does not record: there is no terrain-effect event that could break it.
* R37 — soft: a card measuring from a removed vortex measures from its last hexon. Cards' effects are
  not recorded; what a logger must do is keep the last hexon, tested on the replay state.
* R38 — conversion is 1:1 into any colour at any time: the event carries only an amount and a
  domain, so it cannot convert at another rate; the state is tested (crystals down, faith up by the
  same amount). Converting crystals one does not hold breaks R40, tested.
* R39 "exactly one crystal per re-roll" — the cost is applied, not stated by the record (state
  tested); what a record can break is re-rolling a die of the other player (tested as R39) or
  re-rolling without a crystal (R40).

Derived fields given wrongly on import break the rule that derives them: ``allegiance`` R11/R12/R13
(by the face rolled), ``success`` R17, ``ether_gained`` R18 (R19 above the supply, R21 on a failed
explore), ``vortex_removed`` R03, ``entered`` R25/R26/R27 (R28 when the vortex was already entered in
the activation), ``relation`` R29 (unaligned) or R30, ``shuffled`` R22, ``trigger`` R23, ``side`` and
``to`` R34 (``to`` R35 when the vortex is blocked), ``blocked`` R35.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from domain import randomness
from service.application import Rollcall
from domain.systems.tornscape.vortices import DOMAINS, HOSTILE, relation
from rulecheck import refused_and_marked

FILE = "game.rollcall.jsonl"
GAME = "g"
BOARD = {"width": 14, "height": 12}
PLAYERS = [{"id": "p1", "name": "Torgvar", "faction": "engeln"}, {"id": "p2", "name": "Otraax", "faction": "castilla"}]
DECK = ["air_vortex", "ember_spiral", "frost_ring", "stone_maw", "tide_pull", "arc_split", "void_peel", "wild_bloom",
        "iron_chain", "mirror_mask", "ash_whisper", "comet_trail", "bog_weight", "echo_chamber", "glass_shard",
        "deep_root"]

# Vortex v1 stands on hexon [5,6]: hexes [5,6] [6,6] [6,5] [5,5] [4,6] [4,7] [5,7].
# With facing 0 its sides 0-5 lead to the hexons [7,7] [4,9] [2,8] [3,5] [6,3] [8,4]
# (default pairs: 0 crit+crit, 1 crit+success, 2 success+success, 3 success+blank, 4 blank+blank, 5 blank+crit).
V1 = (5, 6)
NEXT_TO_V1 = (7, 6)      # a hex of the ring of hexon [5,6]
ALSO_NEXT_TO_V1 = (6, 7)
IN_V1 = (6, 5)
FAR = (10, 2)


# --- building records ----------------------------------------------------------------------------------

def inf(mid: str, player: str, at: tuple[int, int], domains: tuple = ("creation",), **extra: Any) -> dict:
    return {"id": mid, "player": player, "name": mid, "size": "infantry", "at": [list(at)], "step": 3, "run": 5,
            "agility": 1, "explore": 1, "domains": list(domains), **extra}


def vortex(vid: str, at: tuple[int, int], ether: int = 3, facing: int = 0, **extra: Any) -> dict:
    return {"id": vid, "at": list(at), "facing": facing, "ether": ether, **extra}


def solid(tid: str, *hexes: tuple[int, int]) -> dict:
    return {"id": tid, "kind": "solid", "hexes": [list(h) for h in hexes]}


def header(*models: dict, vortices: tuple = (), terrain: tuple = (), deck: list | None = None,
           **extra: Any) -> dict:
    setup: dict = {"board": BOARD, "terrain": list(terrain), "models": list(models), "vortices": list(vortices)}
    if deck is not None:
        setup["phenomena_deck"] = deck
    return {"rollcall": 1, "system": "tornscape", "game": GAME, "players": PLAYERS, "setup": setup, **extra}


def ev(event_type: str, **fields: Any) -> dict:
    return {"type": event_type, **fields}


def lines_of(head: dict, *events: dict) -> list[str]:
    return [json.dumps(head)] + [json.dumps(e) for e in events]


def game_of(head: dict, *events: dict) -> list[str]:
    """A record: the header, turn 1, the activation phase, then ``events`` (seq 3 on line 4)."""
    return lines_of(head, ev("TurnStarted", turn=1), ev("PhaseStarted", phase="activation"), *events)


def roll(player: str, purpose: str, *faces: Any, die: str = "attack", **extra: Any) -> dict:
    return ev("DiceRolled", player=player, purpose=purpose, die=die, faces=list(faces), **extra)


def stabilised(model: str, roll_seq: int, vid: str = "v1", **derived: Any) -> dict:
    return ev("VortexStabilised", vortex=vid, model=model, roll=roll_seq, **derived)


def explored(model: str, roll_seq: int, vid: str = "v1", **derived: Any) -> dict:
    return ev("VortexExplored", vortex=vid, model=model, roll=roll_seq, **derived)


def drawn(card: str, effect: str, **fields: Any) -> dict:
    return ev("PhenomenonDrawn", card=card, effect=effect, **fields)


def moved(vid: str, roll_seq: int, **fields: Any) -> dict:
    return ev("VortexMoved", vortex=vid, roll=roll_seq, **fields)


def step(model: str, action: str, *path: tuple[int, int], **derived: Any) -> dict:
    return ev("ModelMoved", model=model, action=action, path=[list(p) for p in path], **derived)


def one_swordsman(**extra: Any) -> dict:
    """p1's Engeln Swordsman ``s`` (creation) next to unaligned vortex v1 (3 ether); p2's Rogue far away."""
    return header(inf("s", "p1", NEXT_TO_V1), inf("r", "p2", FAR, domains=("destruction",)),
                  vortices=(vortex("v1", V1),), **extra)


def explore_unaligned(stab_face: str, *explore_faces: str) -> list[dict]:
    """s's activation (seq 3), p2's stabilisation roll (seq 4) and its use (seq 5), s's explore roll
    (seq 6) and the explore (seq 7). The next event is seq 8, on line 9."""
    return [ev("ActivationStarted", model="s"), roll("p2", "stabilisation", stab_face), stabilised("s", 4),
            roll("p1", "explore", *explore_faces), explored("s", 6)]


def v1_removed() -> list[dict]:
    """s takes the last ether of v1 (1 ether): seq 3–9, lines 4–10; the next event is seq 10 on line 11."""
    return [*explore_unaligned("success", "success"), drawn("air_vortex", "positive"),
            ev("ActivationEnded", model="s")]


# --- asserting ------------------------------------------------------------------------------------------

def broken(app: Rollcall, lines: list[str], *, line: int, event: str | None, rule: str, names: tuple = ()) -> str:
    """Strict import refuses at ``line`` with ``rule``; lenient import marks it (see rulecheck)."""
    return refused_and_marked(app, lines, file=FILE, game=GAME, line=line, event=event, rule=rule, names=names)


def accepted(app: Rollcall, lines: list[str]):
    """Strict import succeeds with no violation; the replayed game."""
    imported = app.import_record(lines, FILE)
    assert imported.violations == 0
    return app.get_game(imported.game)


def exported(app: Rollcall, seq: int) -> dict:
    """The exported line of ``seq`` of the stored game (derived fields filled in)."""
    return json.loads(list(app.export_lines(GAME))[seq])


def exported_after(app: Rollcall, lines: list[str], seq: int) -> dict:
    """Import ``lines`` strictly (no violation) and return the exported line of ``seq``."""
    accepted(app, lines)
    return exported(app, seq)


# --- R01–R05: deck, supply, removal, allegiance --------------------------------------------------------

def test_a_deck_of_fifteen_cards_is_refused_R01(app: Rollcall) -> None:
    broken(app, lines_of(header(vortices=(vortex("v1", V1),), deck=DECK[:15])), line=1, event=None, rule="R01",
           names=("15", "exactly 16"))


def test_a_deck_with_a_card_twice_is_refused_R01(app: Rollcall) -> None:
    broken(app, lines_of(header(vortices=(vortex("v1", V1),), deck=DECK[:15] + [DECK[0]])), line=1, event=None,
           rule="R01", names=("15 different cards of 16",))


def test_a_card_that_is_not_in_the_deck_cannot_be_drawn_R01(app: Rollcall) -> None:
    lines = game_of(one_swordsman(), *explore_unaligned("success", "success"), drawn("joker", "positive"))
    broken(app, lines, line=9, event="PhenomenonDrawn", rule="R01", names=("joker",))


def test_the_default_deck_has_sixteen_different_cards_R01(app: Rollcall) -> None:
    game = accepted(app, game_of(one_swordsman()))
    assert len(game.state.deck) == 16 and len(set(game.state.deck)) == 16
    assert game.state.deck_left() == game.state.deck


def test_a_vortex_starts_with_a_supply_of_ether_R02(app: Rollcall) -> None:
    broken(app, lines_of(header(vortices=(vortex("v1", V1, ether=0),))), line=1, event=None, rule="R02",
           names=("v1", "0 ether"))


def test_a_removed_vortex_cannot_be_explored_R03(app: Rollcall) -> None:
    head = header(inf("s", "p1", NEXT_TO_V1), inf("t", "p1", ALSO_NEXT_TO_V1), vortices=(vortex("v1", V1, ether=1),))
    lines = game_of(head, *v1_removed(), ev("ActivationStarted", model="t"), roll("p1", "explore", "crit"),
                    explored("t", 11))
    broken(app, lines, line=13, event="VortexExplored", rule="R03", names=("v1", "removed"))


def test_a_removed_vortex_cannot_be_stabilised_R03(app: Rollcall) -> None:
    head = header(inf("s", "p1", NEXT_TO_V1), inf("t", "p1", ALSO_NEXT_TO_V1), vortices=(vortex("v1", V1, ether=1),))
    lines = game_of(head, *v1_removed(), ev("ActivationStarted", model="t"), roll("p2", "stabilisation", "blank"),
                    stabilised("t", 11))
    broken(app, lines, line=13, event="VortexStabilised", rule="R03", names=("v1",))


def test_a_removed_vortex_does_not_move_in_phase_v_R03(app: Rollcall) -> None:
    head = header(inf("s", "p1", NEXT_TO_V1), vortices=(vortex("v1", V1, ether=1), vortex("v2", (2, 1))))
    lines = game_of(head, *v1_removed(), ev("PhaseStarted", phase="vortex_movement"),
                    roll("p1", "vortex_move", "crit", "crit"), moved("v1", 11))
    broken(app, lines, line=13, event="VortexMoved", rule="R03", names=("v1",))


def test_the_last_ether_removes_the_vortex_R03(app: Rollcall) -> None:
    lines = game_of(header(inf("s", "p1", NEXT_TO_V1), vortices=(vortex("v1", V1, ether=1),)),
                    *explore_unaligned("success", "success"))
    lines[-1] = json.dumps(explored("s", 6, vortex_removed=False))
    broken(app, lines, line=8, event="VortexExplored", rule="R03", names=("vortex_removed", "false", "true"))


def test_a_vortex_keeps_its_ether_while_some_is_left_R03(app: Rollcall) -> None:
    lines = game_of(one_swordsman(), *explore_unaligned("success", "success"))
    lines[-1] = json.dumps(explored("s", 6, vortex_removed=True))
    broken(app, lines, line=8, event="VortexExplored", rule="R03", names=("vortex_removed",))


def test_an_aligned_vortex_is_not_stabilised_again_R04(app: Rollcall) -> None:
    head = header(inf("s", "p1", NEXT_TO_V1), inf("t", "p1", ALSO_NEXT_TO_V1), vortices=(vortex("v1", V1),))
    lines = game_of(head, ev("ActivationStarted", model="s"), roll("p2", "stabilisation", "blank"), stabilised("s", 4),
                    ev("ActivationEnded", model="s"), ev("ActivationStarted", model="t"),
                    roll("p2", "stabilisation", "crit"), stabilised("t", 8))
    broken(app, lines, line=10, event="VortexStabilised", rule="R04", names=("v1", "creation"))


def test_every_vortex_starts_unaligned_R05(app: Rollcall) -> None:
    broken(app, lines_of(header(vortices=(vortex("v1", V1, allegiance="life"),))), line=1, event=None, rule="R05",
           names=("v1", "life"))


# --- R06–R08: the hostility table (not in a record) ---------------------------------------------------

def test_creation_and_destruction_are_hostile_R06() -> None:
    assert HOSTILE["creation"] == "destruction" and HOSTILE["destruction"] == "creation"
    assert relation("destruction", "creation") == relation("creation", "destruction") == "hostile"


def test_life_and_death_are_hostile_R07() -> None:
    assert HOSTILE["life"] == "death" and HOSTILE["death"] == "life"
    assert relation("death", "life") == relation("life", "death") == "hostile"


def test_each_domain_has_one_hostile_and_two_neutral_domains_R08() -> None:
    assert set(DOMAINS) == {"creation", "destruction", "life", "death"}
    for mine in DOMAINS:
        others = [relation(theirs, mine) for theirs in DOMAINS if theirs != mine]
        assert sorted(others) == ["hostile", "neutral", "neutral"], mine
        assert relation(mine, mine) == "allied"
        assert HOSTILE[HOSTILE[mine]] == mine


def test_an_unaligned_vortex_is_neutral_to_every_domain_R29() -> None:
    assert {relation(None, d) for d in DOMAINS} == {"neutral"}


# --- R09: a model of several domains chooses one per activation ---------------------------------------

def two_domains() -> dict:
    return header(inf("w", "p1", NEXT_TO_V1, domains=("life", "creation")), vortices=(vortex("v1", V1),))


def test_a_model_of_two_domains_must_choose_one_before_its_stabilisation_R09(app: Rollcall) -> None:
    lines = game_of(two_domains(), ev("ActivationStarted", model="w"), roll("p2", "stabilisation", "crit"),
                    stabilised("w", 4))
    broken(app, lines, line=6, event="VortexStabilised", rule="R09", names=("w", "life", "creation"))


def test_a_model_of_two_domains_must_choose_one_before_its_phenomena_R09(app: Rollcall) -> None:
    head = header(inf("w", "p1", IN_V1, domains=("life", "creation")), vortices=(vortex("v1", V1),))
    lines = game_of(head, ev("ActivationStarted", model="w"), drawn("air_vortex", "negative"))
    broken(app, lines, line=5, event="PhenomenonDrawn", rule="R09", names=("w", "DomainChosen"))


def test_a_model_chooses_only_one_of_its_own_domains_R09(app: Rollcall) -> None:
    lines = game_of(two_domains(), ev("ActivationStarted", model="w"), ev("DomainChosen", model="w", domain="death"))
    broken(app, lines, line=5, event="DomainChosen", rule="R09", names=("w", "death", "life, creation"))


def test_the_chosen_domain_holds_to_the_end_of_the_activation_R09(app: Rollcall) -> None:
    lines = game_of(two_domains(), ev("ActivationStarted", model="w"), ev("DomainChosen", model="w", domain="life"),
                    ev("DomainChosen", model="w", domain="creation"))
    broken(app, lines, line=6, event="DomainChosen", rule="R09", names=("w", "life"))


def test_the_chosen_domain_decides_stabilisation_and_the_table_row_R09(app: Rollcall) -> None:
    lines = game_of(two_domains(), ev("ActivationStarted", model="w"), ev("DomainChosen", model="w", domain="life"),
                    roll("p2", "stabilisation", "crit"), stabilised("w", 5), roll("p1", "explore", "blank"),
                    explored("w", 7), drawn("air_vortex", "negative"), drawn("stone_maw", "negative"),
                    ev("ActivationEnded", model="w"), ev("PhaseStarted", phase="vortex_movement"),
                    roll("p1", "vortex_move", "blank", "blank"), moved("v1", 13), ev("TurnStarted", turn=2),
                    ev("ActivationStarted", model="w"), ev("DomainChosen", model="w", domain="creation"))
    game = accepted(app, lines)
    assert exported(app, 6)["allegiance"] == "death"  # crit: hostile to the chosen life, not to creation
    assert exported(app, 9)["relation"] == "hostile"
    assert game.state.chosen == {"w": "creation"}  # a new activation chooses again


# --- R10–R14: stabilisation -----------------------------------------------------------------------------

def test_the_stabilisation_roll_is_made_by_the_opponent_R10(app: Rollcall) -> None:
    lines = game_of(one_swordsman(), ev("ActivationStarted", model="s"), roll("p1", "stabilisation", "blank"),
                    stabilised("s", 4))
    broken(app, lines, line=6, event="VortexStabilised", rule="R10", names=("p2", "s"))


def test_the_stabilisation_roll_is_one_attack_die_R10(app: Rollcall) -> None:
    lines = game_of(one_swordsman(), ev("ActivationStarted", model="s"), roll("p2", "stabilisation", "blank", "crit"),
                    stabilised("s", 4))
    broken(app, lines, line=6, event="VortexStabilised", rule="R10", names=("2 dice", "rolls 1"))


def test_exploring_an_unaligned_vortex_needs_the_stabilisation_roll_R10(app: Rollcall) -> None:
    lines = game_of(one_swordsman(), ev("ActivationStarted", model="s"), roll("p1", "explore", "success"),
                    explored("s", 4))
    broken(app, lines, line=6, event="VortexExplored", rule="R10", names=("v1", "unaligned", "p2"))


def test_one_stabilisation_roll_per_activation_serves_every_interaction_R10_R14(app: Rollcall) -> None:
    # s at [4,5] is next to hexon [5,6] (v1) and to hexon [6,3] (v2): the roll made for v1 stands for
    # the whole activation (R14), so exploring the unaligned v2 needs no second roll
    head = header(inf("s", "p1", (4, 5)), vortices=(vortex("v1", V1), vortex("v2", (6, 3))))
    game = accepted(app, game_of(head, ev("ActivationStarted", model="s"), roll("p2", "stabilisation", "success"),
                                 stabilised("s", 4), roll("p1", "explore", "blank"), explored("s", 6, vid="v2"),
                                 drawn("air_vortex", "negative")))
    assert game.state.vortices["v1"].allegiance is None and game.state.vortices["v2"].allegiance is None
    assert exported(app, 8)["vortex"] == "v2" and exported(app, 8)["trigger"] == "explore_failure"


def test_a_critical_success_gives_the_hostile_domain_R11(app: Rollcall) -> None:
    lines = game_of(one_swordsman(), ev("ActivationStarted", model="s"), roll("p2", "stabilisation", "crit"),
                    stabilised("s", 4, allegiance="creation"))
    broken(app, lines, line=6, event="VortexStabilised", rule="R11", names=("creation", "destruction"))


def test_nothing_gives_the_models_own_domain_R12(app: Rollcall) -> None:
    lines = game_of(one_swordsman(), ev("ActivationStarted", model="s"), roll("p2", "stabilisation", "blank"),
                    stabilised("s", 4, allegiance="destruction"))
    broken(app, lines, line=6, event="VortexStabilised", rule="R12", names=("destruction", "creation"))


def test_a_success_leaves_the_vortex_unaligned_R13(app: Rollcall) -> None:
    lines = game_of(one_swordsman(), ev("ActivationStarted", model="s"), roll("p2", "stabilisation", "success"),
                    stabilised("s", 4, allegiance="creation"))
    broken(app, lines, line=6, event="VortexStabilised", rule="R13", names=("creation", "null"))


@pytest.mark.parametrize(("face", "allegiance"), [("crit", "destruction"), ("blank", "creation"), ("success", None)])
def test_stabilisation_faces_give_the_allegiance_R11_R12_R13(app: Rollcall, face: str, allegiance: str | None) -> None:
    game = accepted(app, game_of(one_swordsman(), ev("ActivationStarted", model="s"),
                                 roll("p2", "stabilisation", face), stabilised("s", 4)))
    assert exported(app, 5)["allegiance"] == allegiance
    assert game.state.vortices["v1"].allegiance == allegiance


def test_one_stabilisation_roll_per_activation_R14(app: Rollcall) -> None:
    lines = game_of(one_swordsman(), ev("ActivationStarted", model="s"), roll("p2", "stabilisation", "success"),
                    stabilised("s", 4), roll("p2", "stabilisation", "blank"), stabilised("s", 6))
    broken(app, lines, line=8, event="VortexStabilised", rule="R14", names=("s",))


# --- R15–R21: explore ---------------------------------------------------------------------------------------

def test_explore_only_within_its_range_R15(app: Rollcall) -> None:
    # stabilised from next to the hexon, then a step to [8,6], two hexes from it, before exploring
    head = header(inf("s", "p1", NEXT_TO_V1), vortices=(vortex("v1", V1),))
    lines = game_of(head, ev("ActivationStarted", model="s"), roll("p2", "stabilisation", "success"),
                    stabilised("s", 4), ev("ModelMoved", model="s", action="step", path=[[8, 6]]),
                    roll("p1", "explore", "success"), explored("s", 7))
    broken(app, lines, line=9, event="VortexExplored", rule="R15", names=("s", "[[8,6]]", "v1", "[5,6]"))


def test_explore_from_inside_the_vortex_is_in_range_R15(app: Rollcall) -> None:
    head = header(inf("s", "p1", IN_V1), vortices=(vortex("v1", V1),))
    lines = game_of(head, ev("ActivationStarted", model="s"), roll("p2", "stabilisation", "success"),
                    stabilised("s", 4), drawn("air_vortex", "negative"), roll("p1", "explore", "success"),
                    explored("s", 7), drawn("ember_spiral", "positive"))
    assert exported_after(app, lines, 8)["ether_gained"] == 1


def test_explore_rolls_the_dice_of_the_explore_tile_R16(app: Rollcall) -> None:
    lines = game_of(one_swordsman(), *explore_unaligned("success", "success", "blank"))
    broken(app, lines, line=8, event="VortexExplored", rule="R16", names=("roll 6 has 2 dice", "rolls 1"))


def test_explore_succeeds_on_one_success_or_crit_R17(app: Rollcall) -> None:
    lines = game_of(one_swordsman(), *explore_unaligned("success", "crit"))
    lines[-1] = json.dumps(explored("s", 6, success=False))
    broken(app, lines, line=8, event="VortexExplored", rule="R17", names=("success", "false", "true"))


def test_explore_fails_on_blanks_R17(app: Rollcall) -> None:
    lines = game_of(one_swordsman(), *explore_unaligned("success", "blank"))
    lines[-1] = json.dumps(explored("s", 6, success=True))
    broken(app, lines, line=8, event="VortexExplored", rule="R17")


def test_ether_gained_counts_successes_and_crits_R18(app: Rollcall) -> None:
    head = header(inf("s", "p1", NEXT_TO_V1, explore=3), vortices=(vortex("v1", V1, ether=5),))
    lines = game_of(head, *explore_unaligned("success", "crit", "success", "blank"))
    lines[-1] = json.dumps(explored("s", 6, ether_gained=1))
    broken(app, lines, line=8, event="VortexExplored", rule="R18", names=("ether_gained", "1", "2"))


def test_ether_gained_is_taken_from_the_vortex_R18(app: Rollcall) -> None:
    head = header(inf("s", "p1", NEXT_TO_V1, explore=3), vortices=(vortex("v1", V1, ether=5),))
    game = accepted(app, game_of(head, *explore_unaligned("success", "crit", "success", "blank"),
                                 drawn("air_vortex", "positive")))
    line = exported(app, 7)
    assert (line["success"], line["ether_gained"], line["vortex_removed"]) == (True, 2, False)
    assert game.state.vortices["v1"].ether == 3 and game.state.crystals == {"p1": 2, "p2": 0}


def test_ether_gained_never_exceeds_the_supply_R19(app: Rollcall) -> None:
    head = header(inf("s", "p1", NEXT_TO_V1, explore=3), vortices=(vortex("v1", V1, ether=2),))
    lines = game_of(head, *explore_unaligned("success", "crit", "success", "success"))
    lines[-1] = json.dumps(explored("s", 6, ether_gained=3))
    broken(app, lines, line=8, event="VortexExplored", rule="R19", names=("ether_gained", "3", "2"))


def test_ether_gained_is_capped_by_the_supply_R19(app: Rollcall) -> None:
    head = header(inf("s", "p1", NEXT_TO_V1, explore=3), vortices=(vortex("v1", V1, ether=2),))
    game = accepted(app, game_of(head, *explore_unaligned("success", "crit", "success", "success"),
                                 drawn("air_vortex", "positive")))
    assert exported(app, 7)["ether_gained"] == 2 and exported(app, 7)["vortex_removed"] is True
    assert game.state.crystals["p1"] == 2 and game.state.vortices["v1"].ether == 0


def test_a_failed_explore_gains_no_ether_R21(app: Rollcall) -> None:
    lines = game_of(one_swordsman(), *explore_unaligned("success", "blank"))
    lines[-1] = json.dumps(explored("s", 6, ether_gained=1))
    broken(app, lines, line=8, event="VortexExplored", rule="R21", names=("ether_gained", "1", "0"))


def test_a_failed_explore_still_owes_the_cards_of_the_failure_column_R21_R23(app: Rollcall) -> None:
    lines = game_of(one_swordsman(), *explore_unaligned("success", "blank"), ev("ActivationEnded", model="s"))
    broken(app, lines, line=9, event="ActivationEnded", rule="R23", names=("v1", "explore_failure"))


# --- R22–R24: phenomenon cards --------------------------------------------------------------------------

def hostile_success() -> list[dict]:
    """Crit on the stabilisation: v1 turns destruction, hostile to s; the explore succeeds: two cards due."""
    return explore_unaligned("crit", "success")


def test_a_drawn_card_is_out_of_the_deck_until_shuffled_back_R22(app: Rollcall) -> None:
    lines = game_of(one_swordsman(), *hostile_success(), drawn("air_vortex", "positive"),
                    drawn("air_vortex", "negative"))
    broken(app, lines, line=10, event="PhenomenonDrawn", rule="R22", names=("air_vortex", "15 cards"))


def test_cards_are_shuffled_back_after_the_last_card_R22(app: Rollcall) -> None:
    lines = game_of(one_swordsman(), *hostile_success(), drawn("air_vortex", "positive"),
                    drawn("ember_spiral", "negative", shuffled=False))
    broken(app, lines, line=10, event="PhenomenonDrawn", rule="R22", names=("shuffled",))


def test_the_deck_is_whole_again_after_a_resolution_R22(app: Rollcall) -> None:
    game = accepted(app, game_of(one_swordsman(), *hostile_success(), drawn("air_vortex", "positive"),
                                 drawn("ember_spiral", "negative"), ev("ActivationEnded", model="s"),
                                 ev("ActivationStarted", model="r"), ev("ActivationEnded", model="r")))
    assert exported(app, 8)["shuffled"] is False and exported(app, 9)["shuffled"] is True
    assert game.state.deck_left() == game.state.deck and len(game.state.deck_left()) == 16


def test_each_card_plays_the_effect_of_its_table_cell_R23(app: Rollcall) -> None:
    lines = game_of(one_swordsman(), *hostile_success(), drawn("air_vortex", "positive"),
                    drawn("ember_spiral", "positive"))
    broken(app, lines, line=10, event="PhenomenonDrawn", rule="R23", names=("card 2 of 2", "hostile", "negative"))


def test_no_card_is_drawn_when_none_is_due_R23(app: Rollcall) -> None:
    lines = game_of(one_swordsman(), ev("ActivationStarted", model="s"), drawn("air_vortex", "negative"))
    broken(app, lines, line=5, event="PhenomenonDrawn", rule="R23", names=("air_vortex",))


def test_a_cell_asks_for_its_number_of_cards_R23(app: Rollcall) -> None:
    lines = game_of(one_swordsman(), *hostile_success(), drawn("air_vortex", "positive"),
                    ev("ActivationEnded", model="s"))
    broken(app, lines, line=10, event="ActivationEnded", rule="R23", names=("1 ether phenomenon card", "v1"))


def test_the_trigger_of_a_card_is_derived_R23(app: Rollcall) -> None:
    lines = game_of(one_swordsman(), *hostile_success(), drawn("air_vortex", "positive", trigger="entering"))
    broken(app, lines, line=9, event="PhenomenonDrawn", rule="R23", names=("trigger", "explore_success"))


# --- R25–R28: entering a vortex ---------------------------------------------------------------------------

def in_v1() -> dict:
    return header(inf("s", "p1", IN_V1), inf("r", "p2", FAR, domains=("destruction",)), vortices=(vortex("v1", V1),))


def start_in_v1() -> list[dict]:
    """s starts its activation in the unaligned v1 (seq 3): p2's stabilisation roll (seq 4, success: v1 stays
    unaligned) and its use (seq 5), then the neutral entering card (seq 6). The next event is seq 7, on line 8."""
    return [ev("ActivationStarted", model="s"), roll("p2", "stabilisation", "success"), stabilised("s", 4),
            drawn("air_vortex", "negative")]


def test_starting_an_activation_in_a_vortex_is_entering_it_R25(app: Rollcall) -> None:
    lines = game_of(in_v1(), ev("ActivationStarted", model="s", entered=[]))
    broken(app, lines, line=4, event="ActivationStarted", rule="R25", names=("entered", "v1"))


def test_ending_an_activation_in_a_vortex_is_entering_it_R26(app: Rollcall) -> None:
    lines = game_of(one_swordsman(), ev("ActivationStarted", model="s"), step("s", "step", (6, 6)),
                    ev("ActivationEnded", model="s", entered=[]))
    broken(app, lines, line=6, event="ActivationEnded", rule="R26", names=("entered", "v1"))


def test_passing_through_a_vortex_is_entering_it_R27(app: Rollcall) -> None:
    lines = game_of(one_swordsman(), ev("ActivationStarted", model="s"),
                    step("s", "step", (6, 6), (5, 6), (4, 6), entered=[]))
    lines[-1] = json.dumps(step("s", "run", (6, 6), (5, 6), (4, 6), (3, 6), entered=[]))
    broken(app, lines, line=5, event="ModelMoved", rule="R27", names=("entered", "v1"))


def test_passing_through_a_vortex_derives_the_entry_R27(app: Rollcall) -> None:
    game = accepted(app, game_of(one_swordsman(), ev("ActivationStarted", model="s"),
                                 step("s", "run", (6, 6), (5, 6), (4, 6), (3, 6)),
                                 roll("p2", "stabilisation", "success"), stabilised("s", 5),
                                 drawn("air_vortex", "negative")))
    assert exported(app, 4)["entered"] == ["v1"]
    assert exported(app, 7)["trigger"] == "entering" and exported(app, 7)["relation"] == "neutral"
    assert game.state.draws == []


def test_a_start_and_an_end_in_the_same_vortex_resolve_once_R28(app: Rollcall) -> None:
    lines = game_of(in_v1(), *start_in_v1(), ev("ActivationEnded", model="s", entered=["v1"]))
    broken(app, lines, line=8, event="ActivationEnded", rule="R28", names=("entered", "v1"))


def test_leaving_a_vortex_entered_at_the_start_is_not_a_second_entry_R28(app: Rollcall) -> None:
    lines = game_of(in_v1(), *start_in_v1(), step("s", "step", (7, 4), entered=["v1"]))
    broken(app, lines, line=8, event="ModelMoved", rule="R28", names=("entered", "v1"))


def test_no_card_is_due_for_a_second_entry_R28_R23(app: Rollcall) -> None:
    lines = game_of(in_v1(), *start_in_v1(), step("s", "step", (7, 4)), step("s", "run", (6, 5)),
                    ev("ActivationEnded", model="s"), drawn("ember_spiral", "negative"))
    broken(app, lines, line=11, event="PhenomenonDrawn", rule="R23", names=("no ether phenomenon is due",))


# --- R10, R14 on entering: the stabilisation roll comes before the cards -----------------------------------

def test_entering_an_unaligned_vortex_needs_the_stabilisation_roll_before_its_card_R10(app: Rollcall) -> None:
    lines = game_of(in_v1(), ev("ActivationStarted", model="s"), drawn("air_vortex", "negative"))
    broken(app, lines, line=5, event="PhenomenonDrawn", rule="R10", names=("s", "v1", "p2", "VortexStabilised"))


def test_passing_through_an_unaligned_vortex_needs_the_stabilisation_roll_R10(app: Rollcall) -> None:
    lines = game_of(one_swordsman(), ev("ActivationStarted", model="s"),
                    step("s", "run", (6, 6), (5, 6), (4, 6), (3, 6)), drawn("air_vortex", "negative"))
    broken(app, lines, line=6, event="PhenomenonDrawn", rule="R10", names=("s", "v1"))


def test_ending_in_an_unaligned_vortex_needs_the_stabilisation_roll_R10(app: Rollcall) -> None:
    lines = game_of(one_swordsman(), ev("ActivationStarted", model="s"), step("s", "step", (6, 6)),
                    ev("ActivationEnded", model="s"), drawn("air_vortex", "negative"))
    broken(app, lines, line=7, event="PhenomenonDrawn", rule="R10", names=("s", "v1"))


@pytest.mark.parametrize(("face", "allegiance", "relation", "cards"), [
    ("crit", "destruction", "hostile", 2), ("blank", "creation", "allied", 1), ("success", None, "neutral", 1)])
def test_the_stabilisation_on_entering_picks_the_row_of_the_cards_R10_R30(app: Rollcall, face: str,
                                                                         allegiance: str | None, relation: str,
                                                                         cards: int) -> None:
    events = [ev("ActivationStarted", model="s"), roll("p2", "stabilisation", face), stabilised("s", 4),
              *[drawn(card, "negative") for card in DECK[:cards]]]
    game = accepted(app, game_of(in_v1(), *events, ev("ActivationEnded", model="s")))
    assert game.state.vortices["v1"].allegiance == allegiance
    assert [exported(app, seq)["relation"] for seq in range(6, 6 + cards)] == [relation] * cards


def test_the_roll_after_leaving_the_vortex_is_still_the_interaction_R10_R15(app: Rollcall) -> None:
    # s runs through v1 and on, out of explore range: the roll for the entry is still due and accepted
    head = header(inf("s", "p1", (9, 6)), inf("r", "p2", FAR, domains=("destruction",)), vortices=(vortex("v1", V1),))
    game = accepted(app, game_of(head, ev("ActivationStarted", model="s"),
                                 step("s", "run", (8, 6), (7, 6), (6, 6), (5, 6), (4, 6)),
                                 step("s", "step", (3, 6), (2, 6), (1, 6)), roll("p2", "stabilisation", "blank"),
                                 stabilised("s", 6), drawn("air_vortex", "negative")))
    assert exported(app, 5)["entered"] == ["v1"] and exported(app, 8)["relation"] == "allied"
    assert game.state.vortices["v1"].allegiance == "creation"


def test_one_roll_serves_the_entry_and_the_explore_of_an_activation_R10_R14(app: Rollcall) -> None:
    game = accepted(app, game_of(in_v1(), *start_in_v1(), roll("p1", "explore", "success"), explored("s", 7),
                                 drawn("ember_spiral", "positive"), ev("ActivationEnded", model="s")))
    assert exported(app, 8)["ether_gained"] == 1 and game.state.vortices["v1"].allegiance is None


def test_entering_an_aligned_vortex_needs_no_roll_R10(app: Rollcall) -> None:
    head = header(inf("s", "p1", NEXT_TO_V1), inf("t", "p1", IN_V1), inf("r", "p2", FAR, domains=("destruction",)),
                  vortices=(vortex("v1", V1),))
    # s stabilises v1 to creation (blank) and explores it; then t starts its activation inside the aligned v1
    game = accepted(app, game_of(head, *explore_unaligned("blank", "blank"), drawn("air_vortex", "positive"),
                                 ev("ActivationEnded", model="s"), ev("ActivationStarted", model="t"),
                                 drawn("ember_spiral", "negative")))
    assert exported(app, 11)["relation"] == "allied" and exported(app, 11)["trigger"] == "entering"
    assert game.state.stabilised_in_activation is False  # t's activation made no roll


# --- R09, R29: a model without a domain ------------------------------------------------------------------------

def no_domain_in_v1() -> dict:
    return header(inf("n", "p1", IN_V1, domains=()), inf("r", "p2", FAR, domains=("destruction",)),
                  vortices=(vortex("v1", V1),))


def test_a_model_without_a_domain_meets_the_neutral_row_and_chooses_nothing_R09_R29(app: Rollcall) -> None:
    game = accepted(app, game_of(no_domain_in_v1(), ev("ActivationStarted", model="n"),
                                 roll("p2", "stabilisation", "crit"), stabilised("n", 4), drawn("air_vortex", "negative"),
                                 roll("p1", "explore", "success"), explored("n", 7), drawn("ember_spiral", "positive"),
                                 ev("ActivationEnded", model="n"), ev("ActivationStarted", model="r")))
    assert exported(app, 5)["allegiance"] is None  # no domain: no hostile one, no own one
    assert [exported(app, seq)["relation"] for seq in (6, 9)] == ["neutral", "neutral"]
    assert game.state.activation == "r" and game.state.draws == []


def test_a_model_without_a_domain_meets_an_aligned_vortex_as_neutral_R29(app: Rollcall) -> None:
    head = header(inf("s", "p1", NEXT_TO_V1), inf("n", "p1", IN_V1, domains=()), vortices=(vortex("v1", V1),))
    accepted(app, game_of(head, *explore_unaligned("blank", "blank"), drawn("air_vortex", "positive"),
                          ev("ActivationEnded", model="s"), ev("ActivationStarted", model="n"),
                          drawn("ember_spiral", "negative")))
    assert exported(app, 11)["relation"] == "neutral"


def test_a_model_without_a_domain_chooses_none_R09(app: Rollcall) -> None:
    lines = game_of(no_domain_in_v1(), ev("ActivationStarted", model="n"), ev("DomainChosen", model="n", domain="life"))
    broken(app, lines, line=5, event="DomainChosen", rule="R09", names=("n", "no domain", "life"))


# --- R29, R30: the row of the table ------------------------------------------------------------------------

def test_an_unaligned_vortex_uses_the_neutral_row_R29(app: Rollcall) -> None:
    lines = game_of(in_v1(), *start_in_v1()[:3], drawn("air_vortex", "negative", relation="hostile"))
    broken(app, lines, line=7, event="PhenomenonDrawn", rule="R29", names=("relation", "neutral"))


def test_a_vortex_of_the_antagonist_uses_the_hostile_row_R30(app: Rollcall) -> None:
    lines = game_of(one_swordsman(), *hostile_success(), drawn("air_vortex", "positive", relation="neutral"))
    broken(app, lines, line=9, event="PhenomenonDrawn", rule="R30", names=("relation", "hostile"))


def test_a_vortex_of_the_models_domain_plays_the_allied_row_R30_R23(app: Rollcall) -> None:
    lines = game_of(one_swordsman(), *explore_unaligned("blank", "success"), drawn("air_vortex", "positive"),
                    drawn("ember_spiral", "negative"))
    broken(app, lines, line=10, event="PhenomenonDrawn", rule="R23", names=("allied", "positive"))


# --- R31–R35: Phase V ----------------------------------------------------------------------------------------

def phase_v_board(*vortices: dict, terrain: tuple = ()) -> dict:
    return header(inf("a", "p1", (2, 2)), inf("b", "p2", (8, 9), domains=("death",)),
                  vortices=vortices or (vortex("v1", V1),), terrain=terrain)


def activations(*order: str) -> list[dict]:
    out: list[dict] = []
    for model in order:
        out += [ev("ActivationStarted", model=model), ev("ActivationEnded", model=model)]
    return out


def phase_v(*order: str) -> list[dict]:
    """Activations in ``order`` (seq 3…), then Phase V: with two models, PhaseStarted is seq 7 and the first
    vortex roll seq 8 (line 9)."""
    return [*activations(*order), ev("PhaseStarted", phase="vortex_movement")]


def test_phase_v_starts_after_every_model_activated_R31(app: Rollcall) -> None:
    lines = game_of(phase_v_board(), *activations("a"), ev("PhaseStarted", phase="vortex_movement"))
    broken(app, lines, line=6, event="PhaseStarted", rule="R31", names=("b",))


def test_vortices_move_only_in_phase_v_R31(app: Rollcall) -> None:
    lines = game_of(phase_v_board(), roll("p1", "vortex_move", "crit", "crit"), moved("v1", 3))
    broken(app, lines, line=5, event="VortexMoved", rule="R31", names=("v1", "vortex_movement"))


def test_the_player_who_finished_first_rolls_first_R32(app: Rollcall) -> None:
    lines = game_of(phase_v_board(), *phase_v("b", "a"), roll("p1", "vortex_move", "crit", "crit"), moved("v1", 8))
    broken(app, lines, line=10, event="VortexMoved", rule="R32", names=("p2", "finished activating first"))


def test_players_alternate_vortex_rolls_R32(app: Rollcall) -> None:
    board = phase_v_board(vortex("v1", V1), vortex("v2", (10, 5)))
    lines = game_of(board, *phase_v("a", "b"), roll("p1", "vortex_move", "crit", "crit"), moved("v1", 8),
                    roll("p1", "vortex_move", "crit", "crit"), moved("v2", 10))
    broken(app, lines, line=12, event="VortexMoved", rule="R32", names=("p2",))


def test_each_vortex_moves_once_in_phase_v_R33(app: Rollcall) -> None:
    lines = game_of(phase_v_board(), *phase_v("a", "b"), roll("p1", "vortex_move", "crit", "crit"), moved("v1", 8),
                    roll("p2", "vortex_move", "crit", "crit"), moved("v1", 10))
    broken(app, lines, line=12, event="VortexMoved", rule="R33", names=("v1", "already moved"))


def test_phase_v_ends_after_every_vortex_moved_R33(app: Rollcall) -> None:
    board = phase_v_board(vortex("v1", V1), vortex("v2", (10, 5)))
    lines = game_of(board, *phase_v("a", "b"), roll("p1", "vortex_move", "crit", "crit"), moved("v1", 8),
                    ev("TurnStarted", turn=2))
    broken(app, lines, line=11, event="TurnStarted", rule="R33", names=("v2",))


def test_a_model_activates_once_per_turn_R31(app: Rollcall) -> None:
    lines = game_of(phase_v_board(), *activations("a", "a"))
    broken(app, lines, line=6, event="ActivationStarted", rule="R31", names=("a", "once per turn"))


def test_a_model_activates_again_in_the_next_turn_R31(app: Rollcall) -> None:
    game = accepted(app, game_of(phase_v_board(), *phase_v("a", "b"), roll("p1", "vortex_move", "crit", "crit"),
                                 moved("v1", 8), ev("TurnStarted", turn=2), ev("PhaseStarted", phase="activation"),
                                 *activations("b", "a")))
    assert game.state.activated == {"p1": {"a"}, "p2": {"b"}} and game.state.finished == ["p2", "p1"]


def test_the_next_turn_waits_for_phase_v_while_vortices_are_on_the_board_R31(app: Rollcall) -> None:
    lines = game_of(phase_v_board(), *activations("a", "b"), ev("TurnStarted", turn=2))
    broken(app, lines, line=8, event="TurnStarted", rule="R31", names=("turn 2", "v1", "vortex_movement"))


def test_the_game_ends_after_phase_v_R31(app: Rollcall) -> None:
    lines = game_of(phase_v_board(), *activations("a", "b"),
                    ev("GameEnded", score={"p1": 0, "p2": 0}, winner=None, reason="turn limit"))
    broken(app, lines, line=8, event="GameEnded", rule="R31", names=("the game ends", "v1"))


def test_the_game_ends_after_every_vortex_moved_R33(app: Rollcall) -> None:
    board = phase_v_board(vortex("v1", V1), vortex("v2", (10, 5)))
    lines = game_of(board, *phase_v("a", "b"), roll("p1", "vortex_move", "crit", "crit"), moved("v1", 8),
                    ev("GameEnded", score={"p1": 0, "p2": 0}, winner=None, reason="turn limit"))
    broken(app, lines, line=11, event="GameEnded", rule="R33", names=("v2",))


def test_phase_v_comes_once_a_turn_R33(app: Rollcall) -> None:
    lines = game_of(phase_v_board(), *phase_v("a", "b"), roll("p1", "vortex_move", "crit", "crit"), moved("v1", 8),
                    ev("PhaseStarted", phase="vortex_movement"))
    broken(app, lines, line=11, event="PhaseStarted", rule="R33", names=("once a turn",))


def test_turns_with_phase_v_and_the_end_after_it_R31(app: Rollcall) -> None:
    game = accepted(app, game_of(phase_v_board(), *phase_v("a", "b"), roll("p1", "vortex_move", "crit", "crit"),
                                 moved("v1", 8), ev("TurnStarted", turn=2), *phase_v("b", "a"),
                                 roll("p2", "vortex_move", "blank", "blank"), moved("v1", 16),
                                 ev("GameEnded", score={"p1": 0, "p2": 0}, winner=None, reason="turn limit")))
    assert game.state.turn == 2 and game.state.ended


def test_no_phase_v_is_due_once_the_last_vortex_is_removed_R31_R03(app: Rollcall) -> None:
    head = header(inf("s", "p1", NEXT_TO_V1), vortices=(vortex("v1", V1, ether=1),))
    game = accepted(app, game_of(head, *v1_removed(), ev("TurnStarted", turn=2), *activations("s"),
                                 ev("GameEnded", score={"p1": 1, "p2": 0}, winner="p1", reason="time")))
    assert game.state.vortices["v1"].removed and game.state.turn == 2


def test_a_removed_model_is_not_waited_for_in_phase_v_R31(app: Rollcall) -> None:
    head = phase_v_board(vortex("v1", V1))
    head["setup"]["models"].append(inf("c", "p2", (4, 9), domains=("death",)))
    # b activates, c is removed before its activation: p2 has finished (first), then a activates
    game = accepted(app, game_of(head, *activations("b"), ev("ModelRemoved", model="c", reason="slain"),
                                 *activations("a"), ev("PhaseStarted", phase="vortex_movement"),
                                 roll("p2", "vortex_move", "crit", "crit"), moved("v1", 9)))
    assert game.state.finished == ["p2", "p1"]


def test_a_player_whose_last_models_are_removed_has_finished_R32(app: Rollcall) -> None:
    head = phase_v_board(vortex("v1", V1))
    head["setup"]["models"].append(inf("c", "p2", (4, 9), domains=("death",)))
    lines = game_of(head, *activations("b"), ev("ModelRemoved", model="c", reason="slain"), *activations("a"),
                    ev("PhaseStarted", phase="vortex_movement"), roll("p1", "vortex_move", "crit", "crit"),
                    moved("v1", 9))
    broken(app, lines, line=11, event="VortexMoved", rule="R32", names=("p2", "finished activating first"))


def test_a_model_removed_in_its_activation_ends_it_R31(app: Rollcall) -> None:
    game = accepted(app, game_of(phase_v_board(), ev("ActivationStarted", model="a"),
                                 ev("ModelRemoved", model="a", reason="slain"), *activations("b"),
                                 ev("PhaseStarted", phase="vortex_movement"), roll("p1", "vortex_move", "crit", "crit"),
                                 moved("v1", 8)))
    assert game.state.activation is None and "a" not in game.state.models
    assert game.state.finished == ["p1", "p2"]  # p1 had no model left to activate once a was removed


def test_a_vortex_move_rolls_two_attack_dice_R34(app: Rollcall) -> None:
    lines = game_of(phase_v_board(), *phase_v("a", "b"), roll("p1", "vortex_move", "crit"), moved("v1", 8))
    broken(app, lines, line=10, event="VortexMoved", rule="R34", names=("1 dice", "rolls 2"))


def test_a_vortex_moves_one_hexon_to_the_side_of_its_pair_R34(app: Rollcall) -> None:
    lines = game_of(phase_v_board(), *phase_v("a", "b"), roll("p1", "vortex_move", "success", "success"),
                    moved("v1", 8, to=[7, 7]))
    broken(app, lines, line=10, event="VortexMoved", rule="R34", names=("[7,7]", "[2,8]"))


def test_the_side_is_read_from_the_arrow_R34(app: Rollcall) -> None:
    board = phase_v_board(vortex("v1", V1, facing=1))
    lines = game_of(board, *phase_v("a", "b"), roll("p1", "vortex_move", "success", "success"), moved("v1", 8, side=1))
    broken(app, lines, line=10, event="VortexMoved", rule="R34", names=("side", "2"))


@pytest.mark.parametrize(("faces", "facing", "side", "to"), [
    (("crit", "crit"), 0, 0, [7, 7]), (("success", "crit"), 0, 1, [4, 9]), (("success", "success"), 0, 2, [2, 8]),
    (("blank", "success"), 0, 3, [3, 5]), (("blank", "blank"), 0, 4, [6, 3]), (("crit", "blank"), 0, 5, [8, 4]),
    (("success", "success"), 3, 2, [8, 4]),
])
def test_the_pair_of_faces_selects_a_side_counted_from_the_arrow_R34(app: Rollcall, faces: tuple, facing: int,
                                                                      side: int, to: list) -> None:
    game = accepted(app, game_of(phase_v_board(vortex("v1", V1, facing=facing)), *phase_v("a", "b"),
                                 roll("p1", "vortex_move", *faces), moved("v1", 8)))
    line = exported(app, 9)
    assert (line["side"], line["to"], line["blocked"]) == (side, to, False)
    assert game.state.vortices["v1"].at == tuple(to) and game.state.vortices["v1"].facing == facing


def test_solid_terrain_blocks_a_vortex_R35(app: Rollcall) -> None:
    board = phase_v_board(terrain=(solid("rock", (3, 8)),))
    lines = game_of(board, *phase_v("a", "b"), roll("p1", "vortex_move", "success", "success"),
                    moved("v1", 8, blocked=False))
    broken(app, lines, line=10, event="VortexMoved", rule="R35", names=("blocked", "true"))


def test_a_blocked_vortex_stays_where_it_is_R35(app: Rollcall) -> None:
    board = phase_v_board(terrain=(solid("rock", (3, 8)),))
    lines = game_of(board, *phase_v("a", "b"), roll("p1", "vortex_move", "success", "success"),
                    moved("v1", 8, to=[2, 8]))
    broken(app, lines, line=10, event="VortexMoved", rule="R35", names=("[2,8]", "[5,6]"))


def test_another_vortex_blocks_a_vortex_R35(app: Rollcall) -> None:
    board = phase_v_board(vortex("v1", V1), vortex("v2", (7, 7)))
    lines = game_of(board, *phase_v("a", "b"), roll("p1", "vortex_move", "crit", "crit"),
                    moved("v1", 8, blocked=False))
    broken(app, lines, line=10, event="VortexMoved", rule="R35", names=("blocked",))


def test_a_blocked_vortex_may_still_turn_R35(app: Rollcall) -> None:
    board = phase_v_board(terrain=(solid("rock", (3, 8)),))
    game = accepted(app, game_of(board, *phase_v("a", "b"), roll("p1", "vortex_move", "success", "success"),
                                 moved("v1", 8, facing=4)))
    assert exported(app, 9)["blocked"] is True and exported(app, 9)["to"] == [5, 6]
    assert game.state.vortices["v1"].at == (5, 6) and game.state.vortices["v1"].facing == 4


def test_a_vortex_moves_onto_burning_ground_and_covers_it_R36(app: Rollcall) -> None:
    fire = {"id": "fire", "kind": "burning_ground", "hexes": [[2, 8], [3, 8]]}
    bog = {"id": "bog", "kind": "deadly_bog", "hexes": [[2, 9]]}
    game = accepted(app, game_of(phase_v_board(terrain=(fire, bog)), *phase_v("a", "b"),
                                 roll("p1", "vortex_move", "success", "success"), moved("v1", 8)))
    assert exported(app, 9)["blocked"] is False
    state = game.state
    assert state.vortices["v1"].at == (2, 8)
    assert {(2, 8), (3, 8), (2, 9)} <= state.vortices["v1"].hexes
    assert set(state.terrain) == {"fire", "bog"}  # still there, covered


# --- R37: a removed vortex keeps its last hexon ---------------------------------------------------------------

def test_a_removed_vortex_keeps_its_last_hexon_R37(app: Rollcall) -> None:
    head = header(inf("s", "p1", NEXT_TO_V1), vortices=(vortex("v1", V1, ether=1),))
    game = accepted(app, game_of(head, *v1_removed()))
    assert game.state.to_json()["vortices"]["v1"] == {"at": [5, 6], "facing": 0, "ether": 0, "allegiance": None,
                                                      "removed": True}


# --- R38–R40: ether crystals ----------------------------------------------------------------------------------

def rich_swordsman() -> list[dict]:
    """s gains 2 crystals (seq 3–8, lines 4–9); the next event is seq 9 on line 10."""
    return [*explore_unaligned("success", "crit", "success"), drawn("air_vortex", "positive")]


def rich_board() -> dict:
    return header(inf("s", "p1", NEXT_TO_V1, explore=2), inf("r", "p2", FAR, domains=("destruction",)),
                  vortices=(vortex("v1", V1, ether=5),))


def test_a_crystal_converts_into_one_faith_token_of_any_colour_R38(app: Rollcall) -> None:
    game = accepted(app, game_of(rich_board(), *rich_swordsman(),
                                 ev("EtherConverted", player="p1", amount=1, domain="death"),
                                 ev("EtherConverted", player="p1", amount=1, domain="life")))
    assert game.state.crystals == {"p1": 0, "p2": 0}
    assert game.state.faith["p1"] == {"creation": 0, "destruction": 0, "life": 1, "death": 1}


def test_a_player_rerolls_only_their_own_dice_R39(app: Rollcall) -> None:
    lines = game_of(rich_board(), *rich_swordsman(), ev("ActivationEnded", model="s"),
                    ev("ActivationStarted", model="r"), roll("p2", "attack", "crit"),
                    ev("DieRerolled", roll=11, index=0, face="blank", player="p1", paid="crystal"))
    broken(app, lines, line=13, event="DieRerolled", rule="R39", names=("p1", "roll 11", "p2"))


def test_each_reroll_costs_one_crystal_and_a_die_may_be_rerolled_again_R39(app: Rollcall) -> None:
    game = accepted(app, game_of(rich_board(), *rich_swordsman(), roll("p1", "attack", "blank", "blank"),
                                 ev("DieRerolled", roll=9, index=0, face="blank", player="p1", paid="crystal"),
                                 ev("DieRerolled", roll=9, index=0, face="crit", player="p1", paid="crystal")))
    assert game.state.crystals["p1"] == 0
    assert game.state.rolls[9].faces == ["crit", "blank"] and list(game.state.rolls[9].initial) == ["blank", "blank"]


def test_a_reroll_needs_a_crystal_R40(app: Rollcall) -> None:
    lines = game_of(one_swordsman(), ev("ActivationStarted", model="s"), roll("p2", "stabilisation", "success"),
                    stabilised("s", 4), roll("p1", "explore", "blank"),
                    ev("DieRerolled", roll=6, index=0, face="success", player="p1", paid="crystal"))
    broken(app, lines, line=8, event="DieRerolled", rule="R40", names=("p1", "no ether crystal"))


def test_no_more_crystals_converted_than_held_R40(app: Rollcall) -> None:
    lines = game_of(rich_board(), *rich_swordsman(), ev("EtherConverted", player="p1", amount=3, domain="life"))
    broken(app, lines, line=10, event="EtherConverted", rule="R40", names=("p1", "3", "holds 2"))


def test_the_last_crystal_spent_leaves_none_for_a_reroll_R40(app: Rollcall) -> None:
    lines = game_of(rich_board(), *rich_swordsman(), ev("EtherConverted", player="p1", amount=2, domain="life"),
                    roll("p1", "attack", "blank"),
                    ev("DieRerolled", roll=10, index=0, face="crit", player="p1", paid="crystal"))
    broken(app, lines, line=12, event="DieRerolled", rule="R40", names=("p1",))


# --- F07: digital dice ---------------------------------------------------------------------------------------

SEED = bytes(range(32))


def digital_header(**extra: Any) -> dict:
    """Two models and no vortex: a game may end in turn 1 (no Phase V is due)."""
    return header(inf("s", "p1", NEXT_TO_V1), inf("r", "p2", FAR, domains=("destruction",)), dice_mode="digital",
                  commit=hashlib.sha256(SEED).hexdigest(), **extra)


def the_end(**extra: Any) -> dict:
    return ev("GameEnded", score={"p1": 0, "p2": 0}, winner=None, reason="time", **extra)


def test_a_digital_roll_needs_a_digital_game_F07(app: Rollcall) -> None:
    lines = game_of(one_swordsman(), roll("p1", "attack", "crit", source="digital"))
    broken(app, lines, line=4, event="DiceRolled", rule="F07", names=("dice_mode: digital",))


def test_a_digital_game_reveals_its_seed_at_the_end_F07(app: Rollcall) -> None:
    broken(app, game_of(digital_header(), the_end()), line=4, event="GameEnded", rule="F07", names=("seed",))


def test_the_revealed_seed_matches_the_commit_F07(app: Rollcall) -> None:
    lines = game_of(digital_header(), the_end(seed=bytes(32).hex()))
    broken(app, lines, line=4, event="GameEnded", rule="F07", names=("commit",))


def test_digital_faces_are_those_of_the_seed_F07(app: Rollcall, tmp_path: Path) -> None:
    faces = randomness.roll(SEED, GAME, 3, {"crit": 1, "success": 3, "blank": 2}, 2)
    wrong = ["blank" if f != "blank" else "crit" for f in faces]
    good = game_of(digital_header(), roll("p1", "attack", *faces, source="digital"), the_end(seed=SEED.hex()))
    assert Rollcall.open(tmp_path / "good").import_record(good, FILE).violations == 0
    lines = game_of(digital_header(), roll("p1", "attack", *wrong, source="digital"), the_end(seed=SEED.hex()))
    broken(app, lines, line=5, event="GameEnded", rule="F07", names=("digital roll 3", f"the seed gives {faces}"))


def test_only_a_model_interacting_with_the_vortex_stabilises_it_R15(app: Rollcall) -> None:
    head = header(inf("s", "p1", FAR), inf("r", "p2", NEXT_TO_V1, domains=("destruction",)),
                  vortices=(vortex("v1", V1),))
    lines = game_of(head, ev("ActivationStarted", model="s"), roll("p2", "stabilisation", "blank"),
                    stabilised("s", 4))
    broken(app, lines, line=6, event="VortexStabilised", rule="R15", names=("s", "v1"))


def test_a_stabilisation_happens_in_the_models_activation_F05(app: Rollcall) -> None:
    lines = game_of(one_swordsman(), roll("p2", "stabilisation", "blank"), stabilised("s", 3))
    broken(app, lines, line=5, event="VortexStabilised", rule="F05", names=("s", "v1"))
