"""A tournament's broadcast delay holds on every page (AppTest over a real store and read models): a spectator
sees each game of the delayed tournament as it stood after its last event older than the delay — on the Replay,
Dispute, Analytics, Games, Live, Standings and Pairings pages — and the Record page, which reads its game from
the application, sends a spectator to the delayed replay; a session signed in with a key sees everything."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import record_table
from delayed import ENDED, NAME, PAIRED, PLAYING, SPLIT, Delayed, delayed_data
from replay_payload import component_data
from spectated import cards, spectate_data
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
VIEWS = ROOT / "dashboard" / "views"


@pytest.fixture(scope="module")
def delayed(tmp_path_factory) -> Delayed:
    return delayed_data(tmp_path_factory.mktemp("delayed") / "data")


@pytest.fixture(autouse=True)
def at_the_moment(delayed: Delayed, monkeypatch: pytest.MonkeyPatch) -> None:
    """The dashboard reads ``delayed``'s data at ``delayed.now``."""
    monkeypatch.setenv("ROLLCALL_DATA", str(delayed.data))
    monkeypatch.setattr("projections.visibility.current_time", lambda: delayed.now)


@pytest.fixture(params=["spectator", "signed in"])
def who(request, monkeypatch: pytest.MonkeyPatch) -> str:
    """The viewer: a spectator, or a session signed in with an organiser's key (dashboard.session)."""
    if request.param == "signed in":
        from dashboard.session import Who

        monkeypatch.setattr("dashboard.session.signed_in", lambda: Who("Olga", "organiser"))
    return request.param


def page(name: str, **params: str) -> AppTest:
    at = AppTest.from_file(str(VIEWS / f"{name}.py"), default_timeout=60)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def expected_last(delayed: Delayed, who: str, game: str) -> int:
    return SPLIT[game] if who == "spectator" else delayed.last[game]


def test_the_replay_page_sends_a_spectator_the_game_up_to_its_last_seq_shown(delayed, who) -> None:
    at = page("replay", game=ENDED, seq=str(delayed.last[ENDED]))
    _, game = component_data(at)
    last = expected_last(delayed, who, ENDED)
    assert game["last"] == last and max(game["row_seqs"]) == last and len(game["scene"]["frames"]) == last + 1
    luck = [int(s) for s in re.findall(r'data-seq="(\d+)"', game["luck"]["svg"])]
    assert luck and max(luck) <= last and (max(luck) > SPLIT[ENDED]) == (who != "spectator")
    said = [i.value for i in at.info]
    assert any(f"shown up to seq {SPLIT[ENDED]}" in s for s in said) == (who == "spectator")


def test_the_dispute_page_shows_and_checks_only_the_events_a_spectator_may_see(delayed, who) -> None:
    at = page("dispute", game=ENDED, seq="300", about="150-240")
    disputed = list(at.dataframe[0].value["seq"])
    last = expected_last(delayed, who, ENDED)
    assert disputed == list(range(150, min(last, 240) + 1))
    checked = [m.value for m in list(at.success) + list(at.error) if m.value.startswith("seq ")]
    assert checked and max(int(m.split()[1]) for m in checked) == min(last, 240)


def _numbers(values) -> list[float]:
    """A plotly trace's values as its JSON holds them (a list, or a typed array in base64)."""
    if isinstance(values, dict):
        import base64

        import numpy as np

        return list(np.frombuffer(base64.b64decode(values["bdata"]), dtype=values["dtype"]))
    return list(values)


def test_the_analytics_page_leaves_a_held_game_out_and_stops_its_luck_line(delayed, who) -> None:
    at = page("analytics", tournament=NAME, luck_game=ENDED)
    charts = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    luck = next(c for c in charts if "Cumulative luck" in json.dumps(c["layout"].get("title")))
    seqs = [x for trace in luck["data"] for x in _numbers(trace.get("x", []))]
    assert (max(seqs) <= SPLIT[ENDED]) == (who == "spectator")
    per_player = [c for c in charts if "Luck per player" in json.dumps(c["layout"].get("title"))]
    assert (per_player == []) == (who == "spectator")
    assert any("count in the figures once the delay has passed" in c.value for c in at.caption) == (who == "spectator")


def test_the_games_page_lists_a_held_game_with_its_events_turn_and_result_then(delayed, who) -> None:
    at = page("games")
    frame = at.dataframe[0].value
    text = frame.to_string()
    assert str(expected_last(delayed, who, ENDED)) in text
    assert (str(delayed.last[ENDED]) in text) == (who != "spectator")
    assert any("Broadcast with a delay of 900 s" in c.value for c in at.caption) == (who == "spectator")


def test_the_live_page_shows_each_table_as_a_spectator_may_see_it(delayed, who) -> None:
    from projections.queries import connect_read
    from projections.spectators import bundle
    from projections.visibility import seen

    shown = spectate_data(page("live", tournament=NAME))
    if who == "spectator":  # pushed from the feed: what the follower makes (and the hub makes when asked) now
        assert shown["feed"] and not shown["snapshots"]
        con = connect_read(delayed.data)
        try:
            shown = {"snapshots": [json.loads(b) for b in bundle(con, shown["keys"][0], seen(con, privileged=False))]}
        finally:
            con.close()
    assert cards(shown) == {ENDED: expected_last(delayed, who, ENDED), PLAYING: expected_last(delayed, who, PLAYING)}


def test_the_standings_show_a_game_that_ended_within_the_delay_as_playing(delayed, who) -> None:
    at = page("standings", tournament=NAME)
    results = at.dataframe[-1].value  # round 1's results
    row = results[results["replay"].str.contains(ENDED)].iloc[0]
    assert (row["result"] == "playing") == (who == "spectator")
    standing = at.dataframe[0].value
    assert (standing["score"].sum() == 0) == (who == "spectator")


@pytest.fixture
def downloads(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """file name -> the text of each file a page offers for download (as the media storage receives it)."""
    from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage

    files: dict[str, str] = {}
    load = MemoryMediaFileStorage.load_and_get_id

    def kept(self, path_or_data, mimetype, kind, filename=None):
        if filename and isinstance(path_or_data, (bytes, str)):
            files[filename] = path_or_data.decode() if isinstance(path_or_data, bytes) else path_or_data
        return load(self, path_or_data, mimetype, kind, filename)

    monkeypatch.setattr(MemoryMediaFileStorage, "load_and_get_id", kept)
    return files


def test_the_pairings_page_and_its_csv_show_a_result_entered_within_the_delay_as_playing(delayed, who,
                                                                                         downloads) -> None:
    import csv
    import io

    at = page("public", tournament=PAIRED)
    assert list(at.dataframe[0].value["result"]) == (["playing"] if who == "spectator" else ["won"])
    pairings = list(csv.DictReader(io.StringIO(downloads[f"{PAIRED} round 1 pairings.csv"])))
    assert [(r["result"], r["score"]) for r in pairings] == ([("", "")] if who == "spectator" else [("W", "5")])
    standings = list(csv.DictReader(io.StringIO(downloads[f"{PAIRED} standings.csv"])))
    assert sorted(r["tournament_points"] for r in standings) == (["0", "0"] if who == "spectator" else ["0", "3"])


def test_the_record_page_sends_a_spectator_to_the_delayed_replay(delayed, who) -> None:
    at = page("record", game=ENDED)
    shown = " ".join(m.value for m in at.markdown)
    told = " ".join(i.value for i in at.info)
    if who == "spectator":
        assert "broadcast with a delay of 900 s" in told and "/replay?game=" + ENDED in told
        assert f"seq {delayed.last[ENDED]}" not in shown and record_table.board(at) is None
    else:
        assert record_table.board(at)["seq"] == delayed.last[ENDED]


def test_a_game_of_no_tournament_is_shown_live_to_everyone(delayed, who) -> None:
    at = page("replay", game="friendly", seq="50")
    assert component_data(at)[1]["last"] == delayed.last["friendly"]
