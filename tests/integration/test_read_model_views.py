"""The analytic read models over the events: casts and dispels with their exact odds, Flux draws,
card draws and initiatives, projected from the golden records into a real DuckDB file."""

from __future__ import annotations

from pathlib import Path

import pytest

from service.application import Rollcall
from exact_odds import casting_pass_probability, dispel_probability
from projections.projector import Projector
from projections.queries import connect_read

GAMES = Path(__file__).resolve().parents[1] / "games"


@pytest.fixture(scope="module")
def con(tmp_path_factory):
    data = tmp_path_factory.mktemp("views")
    app = Rollcall.open(data)
    for path in sorted(GAMES.glob("*.rollcall.jsonl")):
        with path.open() as handle:
            app.import_record(handle, str(path))
    Projector(data, app=app).run()
    connection = connect_read(data)
    yield connection
    connection.close()


def rows(con, sql):
    result = con.execute(sql)
    names = [d[0] for d in result.description]
    return [dict(zip(names, row)) for row in result.fetchall()]


def test_every_cast_carries_the_exact_odds_of_passing(con):
    casts = rows(con, "SELECT * FROM fct_casts ORDER BY game, seq")
    assert casts
    for cast in casts:
        if cast["kind"] == "bound":
            assert cast["p_pass"] == 1.0
            continue
        expected = casting_pass_probability(cast["dice"], cast["casting_value"], cast["modifier"])
        assert cast["p_pass"] == pytest.approx(float(expected), abs=1e-12), cast
        assert cast["player"] is not None


def test_every_dispel_carries_the_exact_odds_against_the_casting_total(con):
    dispels = rows(con, "SELECT * FROM fct_dispels ORDER BY game, seq")
    assert dispels
    for dispel in dispels:
        expected = dispel_probability(dispel["dice"], dispel["casting_total"])
        assert dispel["p_dispel"] == pytest.approx(float(expected), abs=1e-12), dispel


def test_the_eight_flux_cards_are_each_drawn_once_per_player(con):
    draws = rows(con, "SELECT player, card, magic_dice, veil_tokens, miscast_modifier FROM fct_flux_draws "
                      "WHERE game = (SELECT game FROM dim_games WHERE header->>'game' LIKE '%flux%' LIMIT 1)")
    assert len({(d["player"], d["card"]) for d in draws}) == len(draws) >= 8
    modifiers = {d["card"]: d["miscast_modifier"] for d in draws}
    assert modifiers["1"] == 1 and modifiers["8"] == -1


def test_initiative_rows_show_the_die_set_aside(con):
    game = rows(con, "SELECT game FROM dim_games WHERE game LIKE '%sceptre%'")[0]["game"]
    dice = rows(con, f"SELECT * FROM fct_initiative WHERE game = '{game}' ORDER BY seq, set_aside")
    assigned = [d for d in dice if not d["set_aside"]]
    aside = [d for d in dice if d["set_aside"]]
    assert len(assigned) == 2 and len(aside) == 1
    assert {d["warrior"] for d in assigned} == {"redeemer", "blade"}


def test_phenomenon_draws_keep_relation_trigger_and_effect(con):
    draws = rows(con, "SELECT * FROM fct_card_draws WHERE deck = 'phenomena'")
    assert draws
    assert all(d["relation"] in ("allied", "neutral", "hostile") for d in draws)
    assert all(d["trigger"] in ("explore_success", "explore_failure", "entering") for d in draws)
    assert all(d["effect"] in ("positive", "negative") for d in draws)


def test_a_digital_games_secret_seed_never_reaches_the_read_models(tmp_path):
    app = Rollcall.open(tmp_path)
    header = {"rollcall": 1, "system": "tornscape", "game": "secret-1", "dice_mode": "digital",
              "players": [{"id": "p1"}, {"id": "p2"}], "setup": {"board": {"width": 6, "height": 6}}}
    app.write(header=header)
    secret = app.secret_seed("secret-1").hex()
    app.roll("secret-1", "p1", "other", "attack", 3)
    Projector(tmp_path, app=app).run()
    published = b"".join(path.read_bytes() for path in tmp_path.glob("rollcall*.duckdb"))
    assert secret.encode() not in published
    con = connect_read(tmp_path)
    try:
        assert rows(con, "SELECT count(*) AS n FROM fct_events WHERE game IS NULL OR type IS NULL")[0]["n"] == 0
        assert rows(con, "SELECT count(*) AS n FROM fct_rolls WHERE game = 'secret-1'")[0]["n"] == 1
    finally:
        con.close()


def test_every_roll_carries_the_exact_probability_of_its_outcome(con):
    import json as _json

    from exact_odds import at_least_one_success, faces_probability, successes_exactly
    from domain.systems.dice import load_rule_data

    dice = load_rule_data("tornscape")["dice"]
    odds = rows(con, "SELECT o.*, g.system FROM fct_roll_odds o JOIN dim_games g USING (game)")
    assert {"stabilisation", "explore", "dodge", "vortex_move"} <= {o["purpose"] for o in odds}
    assert len(odds) == rows(con, "SELECT count(*) AS n FROM fct_rolls")[0]["n"]
    for roll in odds:
        if roll["system"] != "tornscape":
            continue
        faces_in_force = dice[roll["die"]]
        shown = _json.loads(roll["faces"]) if isinstance(roll["faces"], str) else roll["faces"]
        if roll["purpose"] == "explore":
            k = sum(1 for f in shown if f in ("crit", "success"))
            expected = successes_exactly(faces_in_force, len(shown), k)
        elif roll["purpose"] == "dodge":
            p = at_least_one_success(faces_in_force, len(shown))
            expected = p if any(f in ("crit", "success") for f in shown) else 1 - p
        else:
            expected = faces_probability(faces_in_force, shown)
        assert roll["p_outcome"] == pytest.approx(float(expected), abs=1e-12), roll
    stabilisations = {o["faces"]: o["p_outcome"] for o in odds if o["purpose"] == "stabilisation"}
    assert stabilisations  # the seed's worked example rolls one
    for faces, p in stabilisations.items():
        assert p == pytest.approx({"crit": 1 / 6, "blank": 1 / 3, "success": 1 / 2}[_json.loads(faces)[0]])


def test_a_disputes_casts_and_dispels_are_those_of_its_game_at_the_seqs_it_names(con):
    from projections.disputes import casts_involved

    (game,) = con.execute("SELECT game FROM fct_dispels GROUP BY game ORDER BY count(*) DESC LIMIT 1").fetchone()
    casts = rows(con, f"SELECT seq, p_pass FROM fct_casts WHERE game = '{game}' ORDER BY seq")
    dispels = rows(con, f"SELECT seq, p_dispel FROM fct_dispels WHERE game = '{game}' ORDER BY seq")
    about = [casts[0]["seq"], dispels[0]["seq"], 10**6]
    got = casts_involved(con, game, about)
    assert [(r["kind"], r["seq"], r["p"]) for r in got] == sorted(
        [("cast", casts[0]["seq"], casts[0]["p_pass"]), ("dispel", dispels[0]["seq"], dispels[0]["p_dispel"])],
        key=lambda r: r[1])


def switched(x01: bool) -> list[str]:
    """A 9th Age game whose one casting die shows 2, with +3 against casting value 5, X01 switched as given."""
    import json

    header = {"rollcall": 1, "system": "t9a", "game": f"x01-{'on' if x01 else 'off'}", "rules": {"switches": {"X01": x01}},
              "players": [{"id": "p1", "name": "Anna", "faction": "highborn"},
                          {"id": "p2", "name": "Boris", "faction": "orcs"}],
              "setup": {"spells": [{"id": "spark", "name": "Spark", "path": "evocation", "casting_value": 5}],
                        "wizards": [{"id": "mage", "player": "p1", "spells": ["spark"]},
                                    {"id": "shaman", "player": "p2", "spells": []}]}}
    events = [{"type": "TurnStarted", "turn": 1}, {"type": "MagicPhaseStarted", "active": "p1"},
              {"type": "FluxCardDrawn", "card": "5"}, {"type": "VeilSiphoned", "converted_dice": 0},
              {"type": "DiceRolled", "player": "p1", "purpose": "casting", "die": "d6", "faces": [2]},
              {"type": "CastingAttempted", "wizard": "mage", "spell": "spark", "dice": 1, "roll": 5, "modifier": 3}]
    return [json.dumps(line) for line in (header, *events)]


def test_a_cast_under_a_switched_off_rule_has_the_odds_of_the_rules_in_force(tmp_path: Path) -> None:
    """X01 off: a lone 2 with +3 reaches 5 and passes, 5 faces in 6 do; X01 on: it fails, 4 in 6 pass. The page's
    odds (the Dispute page's casts, the Analytics odds checks' stat_casts) agree with what was stored."""
    from projections.disputes import casts_involved

    app = Rollcall.open(tmp_path)
    for x01 in (False, True):
        app.import_record(switched(x01), f"x01-{x01}.rollcall.jsonl")
    Projector(tmp_path, app=app).run()
    app.close()
    con = connect_read(tmp_path)
    try:
        for x01, passed, p in ((False, True, 5 / 6), (True, False, 4 / 6)):
            game = f"x01-{'on' if x01 else 'off'}"
            [cast] = rows(con, f"SELECT passed, p_pass FROM fct_casts WHERE game = '{game}'")
            assert cast == {"passed": passed, "p_pass": pytest.approx(p, abs=1e-12)}
            [stat] = rows(con, f"SELECT passed, p_pass FROM stat_casts WHERE game = '{game}'")
            assert stat == cast
            [shown] = casts_involved(con, game, [6])
            assert shown["succeeded"] is passed and shown["p"] == pytest.approx(p, abs=1e-12)
    finally:
        con.close()
