"""Event summaries and highlights (each rules pack's presentation) and the event list (dashboard/events.py):
pure functions, no Streamlit."""

from __future__ import annotations

from dashboard import events as ev
from domain.systems import system_for
from domain.systems.tornscape.presentation import phenomenon_name

TORNSCAPE = system_for("tornscape").presentation
T9A = system_for("t9a").presentation
CLAUSTROPHOBIA = system_for("claustrophobia").presentation


def event(seq: int, kind: str, **payload) -> dict:
    return {"seq": seq, "type": kind, "turn": 1, "phase": "activation", "player": "p1",
            "payload": {"seq": seq, "type": kind, **payload, "hash": "x"}, "violations": None}


BEFORE = {"models": {"a1": {"player": "p1", "size": "large", "at": [[2, 1]]},
                     "b1": {"player": "p2", "size": "infantry", "at": [[6, 3]]}},
          "markers": {"k1": {"kind": "portable", "at": [4, 4]}}}


def test_dice_symbols() -> None:
    assert ev.dice_symbols(["crit", "success", "blank"]) == "✹ ● ○"
    assert ev.dice_symbols([1, 6]) == "⚀ ⚅"
    assert ev.dice_symbols(["odd"]) == "odd"


def test_move_highlight_starts_where_the_model_stood() -> None:
    moved = event(5, "ModelMoved", model="a1", action="run", path=[[4, 2], [6, 3]], must_eject=["b1"])
    assert TORNSCAPE.highlight(moved, BEFORE) == {"models": ["a1", "b1"], "path": [[2, 1], [4, 2], [6, 3]]}
    assert "ejects b1" in TORNSCAPE.summary(moved)


def test_ejection_highlight_shows_destination() -> None:
    ejected = event(6, "ModelEjected", model="b1", by="a1", to=[7, 4], dodge=3, dodged=False)
    assert TORNSCAPE.highlight(ejected, BEFORE) == {"models": ["b1", "a1"], "hexes": [[7, 4]], "path": [[6, 3], [7, 4]]}
    rolls = {3: {"faces": ["blank"]}}
    assert TORNSCAPE.summary(ejected, rolls) == "b1 ejected by a1 → [7,4], dodge ○: failed"


def test_marker_ejection_and_untouched_events() -> None:
    marker = event(7, "MarkerEjected", marker="k1", to=[5, 4])
    assert TORNSCAPE.highlight(marker, BEFORE) == {"hexes": [[5, 4]], "path": [[4, 4], [5, 4]]}
    assert TORNSCAPE.highlight(event(1, "TurnStarted", turn=1), BEFORE) == {}
    assert TORNSCAPE.highlight(None, BEFORE) == {}


def test_fields_split_and_violations() -> None:
    e = event(4, "ModelMoved", model="a2", action="step", path=[[9, 1]], free_attacks=[], entered=[])
    e["violations"] = [{"rule": "R42", "message": "too far"}]
    given, derived = ev.split_fields(e, "tornscape")
    assert given == {"model": "a2", "action": "step", "path": [[9, 1]]}
    assert derived == {"free_attacks": [], "entered": []}
    assert ev.violations(e) == [{"rule": "R42", "message": "too far"}]
    assert ev.event_rows([e])[0]["rules"] == "R42"


def test_rerolls_apply_to_rolls() -> None:
    events = [event(3, "DiceRolled", player="p2", purpose="dodge", die="agility", faces=["blank", "crit"]),
              event(4, "DieRerolled", roll=3, index=0, face="success", player="p2")]
    assert ev.rolls_by_seq(events)[3]["faces"] == ["success", "crit"]


def test_window_around_current_seq() -> None:
    rows = [{"seq": s} for s in range(1, 101)]
    assert [r["seq"] for r in ev.window(rows, 50, before=2, after=3)] == [48, 49, 50, 51, 52, 53]
    assert [r["seq"] for r in ev.window(rows, 1, before=2, after=3)] == [1, 2, 3, 4, 5, 6]
    assert [r["seq"] for r in ev.window(rows, 100, before=2, after=3)] == [95, 96, 97, 98, 99, 100]
    assert [r["seq"] for r in ev.window(rows, 0, before=2, after=3)] == [1, 2, 3, 4, 5, 6]


def test_magic_phase_summaries() -> None:
    rolls = {5: {"faces": [2, 2, 2, 5]}, 7: {"faces": [1, 4]}}
    cases = [
        (event(2, "MagicPhaseStarted", active="p1"), "magic phase of p1"),
        (event(3, "FluxCardDrawn", card="1", magic_dice=4, veil_tokens=3, miscast_modifier=1),
         "Flux card 1: 4 magic dice each, 3 veil tokens, miscast +1"),
        (event(4, "VeilSiphoned", converted_dice=1, pool=2, kept=2, magic_dice={"p1": 6, "p2": 5}),
         "1 die from the veil, 2 tokens kept; magic dice p1 6, p2 5"),
        (event(6, "CastingAttempted", wizard="druid", spell="heal", dice=4, roll=5, total=11, passed=True,
               miscast=True), "druid casts heal with 4 dice ⚁ ⚁ ⚁ ⚄: 11, passed, miscast!"),
        (event(8, "DispelAttempted", wizard="shaman", dice=2, roll=7, total=5, dispelled=False),
         "shaman dispels with 2 dice ⚀ ⚃: 5, failed"),
        (event(9, "MiscastResolved", wizard="druid", value=2, effect="broken_concentration"),
         "miscast of druid: 2 → broken concentration"),
        (event(10, "SpellResolved", spell="heal"), "heal takes effect"),
        (event(11, "AttributeResolved", spell="regrowth"), "attribute regrowth takes effect"),
        (event(12, "MagicPhaseEnded", carried=1), "magic phase ends, 1 veil token carried"),
    ]
    for e, expected in cases:
        assert T9A.summary(e, rolls) == expected


def test_initiative_summaries() -> None:
    rolls = {3: {"faces": [5, 2, 6]}}
    assigned = event(4, "ActionDieAssigned", warrior="redeemer", roll=3, index=0, line=5, mvt=0, cbt=0,
                     exhausted=True, **{"def": 3})
    assert CLAUSTROPHOBIA.summary(assigned, rolls) == "redeemer takes ⚄ (5): line 5, MVT 0 CBT 0 DEF 3, exhausted"
    assert CLAUSTROPHOBIA.summary(event(8, "LineLost", warrior="redeemer", line=5)) == "redeemer loses line 5"
    assert CLAUSTROPHOBIA.summary(event(9, "LineRestored", warrior="redeemer", line=5)) == "redeemer regains line 5"
    assert CLAUSTROPHOBIA.summary(event(5, "GiftUsed", warrior="redeemer", gift="aura_of_foresight")) == (
        "redeemer uses aura of foresight")
    assert CLAUSTROPHOBIA.summary(event(6, "WarriorRemoved", warrior="blade")) == "blade out of play"
    assert CLAUSTROPHOBIA.summary(event(7, "PhaseStarted", phase="action", set_aside=[2])) == (
        "action phase, 1 action die set aside")
    assert CLAUSTROPHOBIA.summary(event(7, "PhaseStarted", phase="action")) == "action phase"


def test_phenomenon_card_name_and_details() -> None:
    drawn = event(8, "PhenomenonDrawn", card="ember_spiral", effect="positive", model="w", vortex="v1",
                  relation="hostile", trigger="explore_success", shuffled=False)
    assert TORNSCAPE.summary(drawn) == "Ember Spiral (positive) for w at v1"
    details = TORNSCAPE.details(drawn)
    assert details == "**Ember Spiral** · positive effect · hostile vortex · trigger: explore success"
    assert phenomenon_name("not_a_card") == "not_a_card"
    assert TORNSCAPE.details(event(1, "TurnStarted", turn=1)) is None


def test_summaries_speak_of_players_and_models_by_name() -> None:
    header = {"players": [{"id": "p1", "name": "Anna", "faction": "dread_elves"}, {"id": "p2", "name": "Boris"}],
              "setup": {"models": [{"id": "a1", "name": "Warden"}, {"id": "a2", "name": "Swordsman"},
                                   {"id": "a3", "name": "Swordsman"}]}}
    names = TORNSCAPE.names(header)
    assert names.faction("dread_elves") == "Dread Elves"
    assert names.of("models", "a2") == "Swordsman 1" and names.of("models", "a3") == "Swordsman 2"
    assert len({names.short("models", m) for m in ("a1", "a2", "a3")}) == 3
    moved = event(5, "ModelMoved", model="a1", action="run", path=[[4, 2]])
    assert TORNSCAPE.summary(moved, None, names) == "Warden run → [4,2] (1 step)"
    scored = event(9, "PointsScored", player="p1", points=2, reason="objective")
    assert TORNSCAPE.summary(scored, None, names) == "Anna +2 (objective)"
    ended = event(10, "GameEnded", score={"p1": 2, "p2": 2}, winner=None, reason="turn limit")
    assert T9A.summary(ended, None, names) == "Anna 2 – Boris 2; winner none (draw) (turn limit)"


def test_struck_rows_are_a_function_of_a_set_of_seqs() -> None:
    rows = ev.event_rows([event(s, "TurnStarted", turn=s) for s in (1, 2, 3)])
    struck = ev.strike(rows, {2}, {2: "void: ruling 7"})
    assert [r["struck"] for r in struck] == [False, True, False]
    assert struck[1]["note"] == "void: ruling 7"
    assert not any(r["struck"] for r in rows)


def test_an_other_roll_is_summed_up_by_its_label_and_the_face_it_needs() -> None:
    shooting = {"seq": 3, "type": "DiceRolled", "player": "p2", "purpose": "other", "die": "d6", "faces": [6, 1],
                "needs": 4, "label": "shooting: to hit"}
    assert T9A.summary(shooting) == "p2: shooting: to hit, 4+ roll, d6: ⚅ ⚀"
    plain = {k: v for k, v in shooting.items() if k not in ("needs", "label")}
    assert CLAUSTROPHOBIA.summary(plain) == "p2: other roll, d6: ⚅ ⚀"
