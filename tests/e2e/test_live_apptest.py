"""The Live page under AppTest over a real store: a spectator's page follows a round's snapshots from the feed
(the cards are pushed, not made by the page); every table of the round is sent with its score and turn, each a
link that follows the game; a tournament's broadcast delay keeps spectators behind, and a key shows everything."""

from __future__ import annotations

import json
import re
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from signing import app_page, sign_in
from spectated import cards, spectate_data
from streamlit.testing.v1 import AppTest

from service.application import Rollcall
from domain.tournaments import TournamentError
from projections.projector import Projector
from projections.queries import connect_read
from projections.spectators import bundle
from projections.visibility import seen

ROOT = Path(__file__).resolve().parents[2]
LIVE = str(ROOT / "dashboard" / "views" / "live.py")
REPLAY = str(ROOT / "dashboard" / "views" / "replay.py")
NAME = "Live Cup"


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A tournament of two tables in round 1, each with a few events recorded."""
    from simulation.games import record_lines, simulate_tornscape

    folder = tmp_path / "data"
    store = Rollcall.open(folder)
    store.create_tournament(NAME, "tornscape")
    for table, seed in ((1, 3), (2, 4)):
        lines = record_lines(simulate_tornscape(seed, f"live-{table}"))
        header = {**json.loads(lines[0]), "tournament": NAME, "round": 1, "table": table, "hash": None,
                  "players": [{"id": "p1", "name": f"Anna {table}", "faction": "engeln"},
                              {"id": "p2", "name": f"Boris {table}", "faction": "castilla"}]}
        events = [json.dumps({k: v for k, v in json.loads(x).items() if k != "hash"}) for x in lines[1:12]]
        store.import_record([json.dumps(header), *events], f"table {table}")
    Projector(folder).run()
    monkeypatch.setenv("ROLLCALL_DATA", str(folder))
    return folder


def live(**params: str) -> AppTest:
    at = AppTest.from_file(LIVE, default_timeout=30)
    for name, value in params.items():
        at.query_params[name] = value
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def sent(data: Path, wanted: str, privileged: bool = False) -> list[dict]:
    """The snapshots a spectator's page is sent for ``wanted`` (and what it follows), made now."""
    con = connect_read(data)
    try:
        return [json.loads(b) for b in bundle(con, wanted, seen(con, privileged=privileged))]
    finally:
        con.close()


def test_a_spectators_live_page_follows_the_latest_round_pushed_from_the_feed(data: Path) -> None:
    shown = spectate_data(live(tournament=NAME))
    assert shown["keys"] == ["tournament/en/live-cup"] and shown["feed"] == "/rc/broadcast/feed"
    assert shown["view"] == "live" and shown["snapshots"] == []  # pushed: nothing made by the page itself
    assert spectate_data(live(tournament=NAME, round="1"))["keys"] == ["round/en/live-cup/1"]
    assert spectate_data(live())["keys"] == ["index/en"]


def test_every_table_of_the_round_is_sent_with_its_score_turn_and_a_link_to_follow(data: Path) -> None:
    snapshots = sent(data, "tournament/en/live-cup")
    assert cards({"snapshots": snapshots}) == {"live-1": 11, "live-2": 11}
    round_1 = next(s for s in snapshots if s["kind"] == "round")
    assert round_1["tables"] == ["live-1", "live-2"]
    card = next(s for s in snapshots if s.get("game") == "live-1")
    assert card["scores"].startswith("Anna 1 ") and "Boris 1" in card["scores"]
    assert re.fullmatch(r"table 1 · turn \d+ · seq 11", card["where"]), card["where"]
    assert card["link"] == "/replay?game=live-1&seq=11" and "<svg" in card["card"]


def test_a_broadcast_delay_keeps_spectators_behind_and_a_key_shows_everything(data: Path) -> None:
    store = Rollcall.open(data)
    organiser = store.add_key("organiser", "Olga")
    store.key = organiser
    store.set_broadcast_delay(NAME, 600)  # every event was stored just now: spectators see none yet
    Projector(data).run()
    snapshots = sent(data, "round/en/live-cup/1")
    assert cards({"snapshots": snapshots}) == {"live-1": 0, "live-2": 0}
    assert "delay of 600 s" in next(s for s in snapshots if s["kind"] == "round")["note"]
    replay = AppTest.from_file(REPLAY, default_timeout=30)
    replay.query_params["game"] = "live-1"
    replay.query_params["seq"] = "11"
    replay.run()
    assert any("shown up to seq 0" in i.value for i in replay.info)
    at = sign_in(app_page("live", tournament=NAME), organiser)  # the sidebar's sign-in
    shown = spectate_data(at)
    assert shown["feed"] is None and cards(shown) == {"live-1": 11, "live-2": 11}  # made by the page: everything


def test_the_visible_seq_is_the_last_event_older_than_the_delay(data: Path) -> None:
    store = Rollcall.open(data)
    store.set_broadcast_delay(NAME, 60)
    Projector(data).run()
    con = connect_read(data)
    try:
        now = datetime.now(timezone.utc)
        assert (seen(con, privileged=False, now=now).upto("live-1"), seen(con, privileged=False, now=now).delay("live-1")) == (0, 60)
        later = now + timedelta(seconds=61)
        assert seen(con, privileged=False, now=later).upto("live-1") is None  # all 11 events older than the delay
    finally:
        con.close()


def test_a_broadcast_delay_is_a_whole_number_of_seconds_set_by_an_organiser(data: Path) -> None:
    from domain.access import AccessDenied

    store = Rollcall.open(data)
    for wrong in (-1, 1.5, 10**9, "60"):
        with pytest.raises(TournamentError):
            store.set_broadcast_delay(NAME, wrong)
    organiser = store.add_key("organiser", "Olga")
    store.key = organiser
    scorekeeper = store.add_key("scorekeeper", "Sam")
    store.key = scorekeeper
    with pytest.raises(AccessDenied):
        store.set_broadcast_delay(NAME, 30)


def test_a_game_taken_by_its_result_alone_shows_its_final_score(data: Path) -> None:
    store = Rollcall.open(data)
    header = {"rollcall": 1, "system": "tornscape", "game": "live-3", "tournament": NAME, "round": 1, "table": 3,
              "players": [{"id": "p1", "name": "Carla", "faction": "engeln"},
                          {"id": "p2", "name": "Dmitri", "faction": "castilla"}],
              "setup": {"board": {"width": 6, "height": 6}}}
    store.import_record([json.dumps(header), json.dumps({"type": "GameEnded", "score": {"p1": 3, "p2": 1},
                                                         "winner": "p1", "reason": "result entered"})], "table 3")
    store.close()
    Projector(data).run()
    card = next(s for s in sent(data, "round/en/live-cup/1") if s.get("game") == "live-3")
    assert card["scores"] == "Carla 3 – Dmitri 1" and card["where"].endswith("· ended") and card["ended"]
