"""The Live page under AppTest over a real store: every table of a round with its score and turn, each a link
that follows the game; a tournament's broadcast delay keeps spectators behind, and a key shows everything."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from signing import app_page, sign_in
from streamlit.testing.v1 import AppTest

from service.application import Rollcall
from domain.tournaments import TournamentError
from projections.projector import Projector
from projections.queries import connect_read
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


def cards(at: AppTest) -> dict[str, str]:
    """game -> the seq its card shows."""
    import re

    out = {}
    for m in at.markdown:
        found = re.search(r'class="rc-live-card" data-game="([^"]+)" data-seq="(\d+)"', m.value)
        if found:
            out[found.group(1)] = found.group(2)
    return out


def test_every_table_of_the_round_is_shown_with_its_score_turn_and_a_link_to_follow(data: Path) -> None:
    at = live(tournament=NAME)
    shown = cards(at)
    assert shown == {"live-1": "11", "live-2": "11"}
    card = next(m.value for m in at.markdown if 'data-game="live-1"' in m.value)
    assert "Anna 1" in card and "Boris 1" in card and "table 1" in card and "turn " in card
    assert 'href="/replay?game=live-1&amp;seq=11"' in card
    assert "<svg" in card  # the board, small


def test_a_broadcast_delay_keeps_spectators_behind_and_a_key_shows_everything(data: Path) -> None:
    store = Rollcall.open(data)
    organiser = store.add_key("organiser", "Olga")
    store.key = organiser
    store.set_broadcast_delay(NAME, 600)  # every event was stored just now: spectators see none yet
    Projector(data).run()
    at = live(tournament=NAME)
    assert cards(at) == {"live-1": "0", "live-2": "0"}
    assert any("delay of 600 s" in c.value for c in at.caption)
    replay = AppTest.from_file(REPLAY, default_timeout=30)
    replay.query_params["game"] = "live-1"
    replay.query_params["seq"] = "11"
    replay.run()
    assert any("shown up to seq 0" in i.value for i in replay.info)
    at = sign_in(app_page("live", tournament=NAME), organiser)  # the sidebar's sign-in
    assert cards(at) == {"live-1": "11", "live-2": "11"}


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
    card = next(m.value for m in live(tournament=NAME).markdown if 'data-game="live-3"' in m.value)
    assert "Carla 3 – Dmitri 1" in card and "ended" in card
