"""A player's own sign-in (issued at check-in) over a real SQLite store: what it may write and what it may not
(rules P01–P06, each refusal naming its rule), both players signing the result (P07–P08), the dispute when they
disagree, and pairing the next round waiting for confirmed results (P09)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from domain.access import AccessDenied
from domain.confirmation import AWAITING, CONFIRMED, DISPUTED, PLAYING
from domain.errors import RuleViolation
from domain.tournaments import TournamentError
from service.application import Rollcall
from tests.venue import read_codes

T = "Spring Cup"
PLAYERS = ("Anna", "Boris", "Clara", "Dmitri")


def stored_rows(data: Path) -> int:
    with sqlite3.connect(data / "events.sqlite") as con:
        return con.execute("SELECT count(*) FROM stored_events").fetchone()[0]


@pytest.fixture
def event(tmp_data: Path):
    """A tournament of four checked-in players with round 1 paired, an organiser's and a judge's key, and a
    sign-in code for every player."""
    first = Rollcall.open(tmp_data)
    organiser = first.add_key("organiser", "Olga")
    first.close()
    app = Rollcall.open(tmp_data, key=organiser)
    judge = app.add_key("judge", "Jules")
    app.create_tournament(T, "t9a", rounds=3)
    for player in PLAYERS:
        app.register_player(T, player, "orcs")
        app.check_in(T, player)
    app.pair_round(T, 1, seed=7)
    codes = {player: app.issue_player_signin(T, player) for player in PLAYERS}
    tables = {t["table"]: t for t in app.tournament(T).rounds[1]["tables"]}
    app.close()
    return {"data": tmp_data, "organiser": organiser, "judge": judge, "codes": codes, "tables": tables}


def as_player(event, player: str) -> Rollcall:
    return Rollcall.open(event["data"], key=event["codes"][player])


def table_of(event, player: str) -> dict:
    return next(t for t in event["tables"].values() if player in [p["name"] for p in t["players"]])


def other_table(event, player: str) -> dict:
    return next(t for t in event["tables"].values() if player not in [p["name"] for p in t["players"]])


def seat(table: dict, player: str) -> str:
    return ("p1", "p2")[[p["name"] for p in table["players"]].index(player)]


def refused(rule: str, call) -> AccessDenied | RuleViolation:
    with pytest.raises((AccessDenied, RuleViolation)) as caught:
        call()
    assert caught.value.rule == rule, str(caught.value)
    assert str(caught.value).startswith(rule)
    return caught.value


def ended(app: Rollcall, game: str, score: dict) -> None:
    a, b = score.values()
    winner = None if a == b else max(score, key=score.get)
    app.record(game, {"type": "GameEnded", "score": score, "winner": winner, "reason": "turn limit"})


def test_a_players_code_signs_in_as_that_player_for_the_tournament(event) -> None:
    app = as_player(event, "Anna")
    holder = app.holder()
    assert (holder.name, holder.role, holder.tournament) == ("Anna", "player", T)
    typed = event["codes"]["Anna"].lower().replace("-", " ")  # typed in any case, with a space for the dash
    assert Rollcall.open(event["data"], key=typed).holder().name == "Anna"


def test_a_player_records_the_game_where_they_are_seated(event) -> None:
    game = table_of(event, "Anna")["game"]
    stored = as_player(event, "Anna").record(game, {"type": "TurnStarted", "turn": 1})
    assert stored["seq"] == 1


def test_a_player_may_not_write_another_game(event) -> None:
    other = other_table(event, "Anna")["game"]
    before = stored_rows(event["data"])
    refused("P01", lambda: as_player(event, "Anna").record(other, {"type": "TurnStarted", "turn": 1}))
    assert stored_rows(event["data"]) == before


def test_a_player_may_not_write_a_ruling(event) -> None:
    app = as_player(event, "Anna")
    game = table_of(event, "Anna")["game"]
    app.record(game, {"type": "TurnStarted", "turn": 1})
    refused("P03", lambda: app.make_ruling(game, "Anna", [1], "stands", "mine"))


def test_a_player_may_not_write_a_tournament_event(event) -> None:
    app = as_player(event, "Anna")
    refused("P04", lambda: app.set_broadcast_delay(T, 60))
    refused("P04", lambda: app.award_bye(T, 2, "Anna"))


def test_a_player_may_not_write_a_sealed_game(event) -> None:
    game = table_of(event, "Anna")["game"]
    organiser = Rollcall.open(event["data"], key=event["organiser"])
    ended(organiser, game, {"p1": 3, "p2": 1})
    organiser.seal_game(game, ["p1", "p2"])
    refused("P05", lambda: as_player(event, "Anna").record(game, {"type": "Noted", "text": "gg"}))


def test_a_player_writes_only_in_the_round_being_played(event) -> None:
    organiser = Rollcall.open(event["data"], key=event["organiser"])
    first = table_of(event, "Anna")
    for t in event["tables"].values():
        ended(organiser, t["game"], {"p1": 2, "p2": 2})
        organiser.confirm_result(t["game"], {"p1": 2, "p2": 2}, "p1", absent=True)
        organiser.confirm_result(t["game"], {"p1": 2, "p2": 2}, "p2", absent=True)
    organiser.pair_round(T, 2, seed=3)
    refused("P02", lambda: as_player(event, "Anna").open_dispute(first["game"], seat(first, "Anna"), [1], "late"))


def test_a_player_confirms_only_their_own_seat(event) -> None:
    table = table_of(event, "Anna")
    organiser = Rollcall.open(event["data"], key=event["organiser"])
    ended(organiser, table["game"], {"p1": 3, "p2": 1})
    theirs = "p2" if seat(table, "Anna") == "p1" else "p1"
    refused("P06", lambda: as_player(event, "Anna").confirm_result(table["game"], {"p1": 3, "p2": 1}, theirs))
    refused("P06", lambda: as_player(event, "Anna").record(table["game"], {"type": "GameSealed",
                                                                          "confirmed_by": ["p1", "p2"]}))


def test_both_confirmations_seal_the_game(event) -> None:
    table = table_of(event, "Anna")
    a, b = (p["name"] for p in table["players"])
    ended(as_player(event, a), table["game"], {"p1": 3, "p2": 1})
    organiser = Rollcall.open(event["data"], key=event["organiser"])
    assert organiser.game_status(table["game"]).status == AWAITING
    as_player(event, a).confirm_result(table["game"], {"p1": 3, "p2": 1})
    assert organiser.game_status(table["game"]).confirmed == ("p1",)
    lines = as_player(event, b).confirm_result(table["game"], {"p1": 3, "p2": 1})
    assert [line["type"] for line in lines] == ["ResultConfirmed", "GameSealed"]
    assert organiser.game_status(table["game"]).status == CONFIRMED
    refused("P05", lambda: as_player(event, a).record(table["game"], {"type": "Noted", "text": "after"}))
    organiser.close()
    judge = Rollcall.open(event["data"], key=event["judge"])
    assert judge.record(table["game"], {"type": "Noted", "text": "a judge writes after the seal"})["type"] == "Noted"


def test_a_confirmation_that_differs_from_the_record_is_refused(event) -> None:
    table = table_of(event, "Anna")
    a, b = (p["name"] for p in table["players"])
    ended(as_player(event, a), table["game"], {"p1": 3, "p2": 1})
    before = stored_rows(event["data"])
    refused("P07", lambda: as_player(event, b).confirm_result(table["game"], {"p1": 1, "p2": 3}))
    assert stored_rows(event["data"]) == before


def test_a_confirmation_before_the_end_is_refused(event) -> None:
    table = table_of(event, "Anna")
    refused("P08", lambda: as_player(event, "Anna").confirm_result(table["game"], {"p1": 3, "p2": 1}))


def test_a_player_who_saw_another_result_opens_a_dispute(event) -> None:
    table = table_of(event, "Anna")
    a, b = (p["name"] for p in table["players"])
    ended(as_player(event, a), table["game"], {"p1": 3, "p2": 1})
    as_player(event, a).confirm_result(table["game"], {"p1": 3, "p2": 1})
    dispute = as_player(event, b).dispute_result(table["game"], {"p1": 1, "p2": 3})
    assert dispute["type"] == "DisputeOpened" and dispute["x_result"]["winner"] == "p2"
    organiser = Rollcall.open(event["data"], key=event["organiser"])
    assert organiser.game_status(table["game"]).status == DISPUTED
    assert organiser.table_statuses(T)[table["table"]].status == DISPUTED
    assert organiser.table_statuses(T)[other_table(event, "Anna")["table"]].status == PLAYING


def test_the_organiser_confirms_for_a_player_who_left_and_a_player_may_not(event) -> None:
    table = table_of(event, "Anna")
    a, b = (p["name"] for p in table["players"])
    ended(as_player(event, a), table["game"], {"p1": 3, "p2": 1})
    refused("P06", lambda: as_player(event, a).confirm_result(table["game"], {"p1": 3, "p2": 1}, absent=True))
    as_player(event, a).confirm_result(table["game"], {"p1": 3, "p2": 1})
    organiser = Rollcall.open(event["data"], key=event["organiser"])
    organiser.confirm_result(table["game"], {"p1": 3, "p2": 1}, "p2", absent=True)
    status = organiser.game_status(table["game"])
    assert status.status == CONFIRMED and status.absent == ("p2",)


def test_a_scorekeeper_may_not_confirm_for_a_player_who_left(event) -> None:
    table = table_of(event, "Anna")
    organiser = Rollcall.open(event["data"], key=event["organiser"])
    scorekeeper = organiser.add_key("scorekeeper", "Sam")
    ended(organiser, table["game"], {"p1": 3, "p2": 1})
    with pytest.raises(AccessDenied):
        Rollcall.open(event["data"], key=scorekeeper).confirm_result(table["game"], {"p1": 3, "p2": 1}, "p1",
                                                                     absent=True)


def test_a_sign_in_issued_again_revokes_the_one_before(event) -> None:
    organiser = Rollcall.open(event["data"], key=event["organiser"])
    new = organiser.issue_player_signin(T, "anna")  # the name as registered, in any case
    with pytest.raises(AccessDenied):
        Rollcall.open(event["data"], key=event["codes"]["Anna"]).holder()
    assert Rollcall.open(event["data"], key=new).holder().name == "Anna"
    organiser.revoke_player_signin(T, "Anna")
    with pytest.raises(AccessDenied):
        Rollcall.open(event["data"], key=new).holder()


def test_only_an_organiser_issues_a_sign_in(event) -> None:
    with pytest.raises(AccessDenied):
        as_player(event, "Anna").issue_player_signin(T, "Boris")
    with pytest.raises(AccessDenied):
        Rollcall.open(event["data"], key=event["judge"]).issue_player_signin(T, "Boris")


def test_pairing_waits_for_confirmed_results_unless_the_organiser_overrides(event) -> None:
    organiser = Rollcall.open(event["data"], key=event["organiser"])
    for t in event["tables"].values():
        ended(organiser, t["game"], {"p1": 3, "p2": 1})
    first = min(event["tables"])
    for s in ("p1", "p2"):
        organiser.confirm_result(event["tables"][first]["game"], {"p1": 3, "p2": 1}, s, absent=True)
    with pytest.raises(TournamentError) as caught:
        organiser.pair_round(T, 2, seed=1)
    assert str(caught.value).startswith("P09") and "table(s) 2" in str(caught.value)
    paired = organiser.pair_round(T, 2, seed=1, unconfirmed=True)
    assert paired["unconfirmed"] == {"round": 1, "tables": [2]}


def test_the_command_line_issues_a_sign_in_with_its_qr_code(event, tmp_path: Path, monkeypatch) -> None:
    from typer.testing import CliRunner

    from cli.main import app

    monkeypatch.delenv("ROLLCALL_KEY", raising=False)
    png = tmp_path / "anna.png"
    result = CliRunner().invoke(app, ["tournament", "signin", T, "--player", "Anna", "--qr", str(png), "--base-url",
                                      "http://192.0.2.10:8501", "--data", str(event["data"]), "--key",
                                      event["organiser"]])
    assert result.exit_code == 0, result.output
    code = next(line.split(": ", 1)[1] for line in result.output.splitlines() if line.startswith("code: "))
    assert Rollcall.open(event["data"], key=code).holder().name == "Anna"
    with pytest.raises(AccessDenied):  # issued again: the code of the fixture is void
        Rollcall.open(event["data"], key=event["codes"]["Anna"]).holder()
    assert read_codes(png) == [f"http://192.0.2.10:8501/me?signin={code}"]
    refused_cli = CliRunner().invoke(app, ["tournament", "signin", T, "--player", "Boris", "--data",
                                           str(event["data"]), "--key", code])
    assert refused_cli.exit_code != 0 and "P04" in refused_cli.output
