"""What spectators are sent (projections/spectators.py): snapshots made once per change of what a spectator may
see, the broadcast delay applied where they are made — a snapshot of a delayed game is the very snapshot of the
game as it stood then, nothing of an event inside the delay in it — made again when a held event comes due with
time alone, and only those that changed; the last roll is of the game as ruled, with its odds and luck."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import orjson
import pytest
from delayed import DELAY, ENDED, LIVE, NAME, PAIRED, PLAYING, SPLIT, Delayed, _lines, delayed_data

from projections.projector import Projector
from projections.queries import connect_read, rows
from projections.spectators import Spectators, bundle, key, made_now, parts
from projections.visibility import EVERYTHING
from service.application import Rollcall

ROOT = Path(__file__).resolve().parents[2]
EX1 = ROOT / "tests" / "games" / "seed004-ex1-shove-enemy-failed-dodge.rollcall.jsonl"


@pytest.fixture(scope="module")
def delayed(tmp_path_factory) -> Delayed:
    return delayed_data(tmp_path_factory.mktemp("delay") / "data")


@pytest.fixture(scope="module")
def as_it_stood(tmp_path_factory) -> Path:
    """The same games stored only up to the last event a spectator sees of each at ``Delayed.now``, no delay."""
    folder = tmp_path_factory.mktemp("stood") / "data"
    store = Rollcall.open(folder)
    store.create_tournament(NAME, "tornscape")
    for seed, game, table, upto in ((3, ENDED, 1, SPLIT[ENDED]), (4, PLAYING, 2, SPLIT[PLAYING])):
        head, events = _lines(seed, game, tournament=NAME, round=1, table=table)
        store.import_record([json.dumps(head), *map(json.dumps, events[:upto])], game)
    head, events = _lines(5, LIVE)
    store.import_record([json.dumps(head), *map(json.dumps, events[:50])], LIVE)
    store.close()
    Projector(folder).run()
    return folder


def made(folder: Path, now=None, spectators: Spectators | None = None) -> dict[str, dict]:
    """key -> snapshot (without ``v``) of every snapshot a look at ``folder``'s read models makes at ``now``."""
    con = connect_read(folder)
    try:
        return {k: {f: v for f, v in orjson.loads(b).items() if f != "v"}
                for k, b in (spectators or Spectators()).look(con, now)}
    finally:
        con.close()


def test_a_delayed_games_snapshots_are_those_of_the_game_as_it_stood_with_nothing_of_the_delay(
        delayed: Delayed, as_it_stood: Path) -> None:
    sent = made(delayed.data, delayed.now)
    stood = made(as_it_stood)
    for game in (ENDED, PLAYING, LIVE):
        for kind in ("table", "board"):
            for lang in ("en", "ru"):
                assert sent[key(kind, lang, game)] == stood[key(kind, lang, game)], (kind, lang, game)
    assert sent[key("table", "en", ENDED)]["seq"] == SPLIT[ENDED] and not sent[key("table", "en", ENDED)]["ended"]
    assert sent[key("table", "en", PLAYING)]["seq"] == SPLIT[PLAYING]
    assert sent[key("round", "en", "delay-cup", 1)]["tables"] == stood[key("round", "en", "delay-cup", 1)]["tables"]
    assert "delay of 900 s" in sent[key("round", "en", "delay-cup", 1)]["note"]
    paired = next(b for k, b in sent.items() if k.startswith("table/en/") and b["tournament"] == PAIRED)
    assert paired["seq"] == 0 and not paired["ended"]  # its result was entered within the delay
    every = b"".join(orjson.dumps(b) for b in sent.values())
    assert b"a claim made within the delay" not in every


def test_a_held_event_coming_due_with_time_alone_makes_the_games_snapshots_again(delayed: Delayed) -> None:
    spectators = Spectators()
    made(delayed.data, delayed.now, spectators)
    con = connect_read(delayed.data)
    try:
        after = rows(con, "SELECT game, recorded_at FROM fct_events WHERE (game = $e AND seq = $se) "
                          "OR (game = $p AND seq = $sp)", {"e": ENDED, "se": SPLIT[ENDED] + 1, "p": PLAYING,
                                                             "sp": SPLIT[PLAYING] + 1})
    finally:
        con.close()
    due = min(r["recorded_at"] for r in after) + timedelta(seconds=DELAY)
    assert spectators.due == due
    between = delayed.now + (due - delayed.now) / 2
    assert made(delayed.data, between, spectators) == {}  # nothing came due: nothing is sent
    assert not spectators.is_due(between) and spectators.is_due(due)
    moved = made(delayed.data, due, spectators)
    first = min(after, key=lambda r: r["recorded_at"])["game"]
    assert moved[key("table", "en", first)]["seq"] > SPLIT[first]
    assert {parts(k)[2][0] for k in moved if parts(k)[0] in ("table", "board")} == {first}


def test_a_look_with_nothing_new_sends_nothing_and_an_event_sends_its_games_snapshots(tmp_path: Path) -> None:
    data = tmp_path / "data"
    store = Rollcall.open(data)
    with open(EX1, encoding="utf-8") as handle:
        store.import_record(handle, str(EX1))
    Projector(data).run()
    spectators = Spectators()
    first = made(data, spectators=spectators)
    assert set(first) >= {key("table", "en", "seed004-ex1"), key("board", "ru", "seed004-ex1"), key("index", "en"),
                          key("round", "en", "seed-004-examples", 1), key("tournament", "ru", "seed-004-examples")}
    assert made(data, spectators=spectators) == {}
    store.record("seed004-ex1", {"type": "Noted", "text": "a note"})
    Projector(data).run()
    again = made(data, spectators=spectators)
    assert set(again) == {key(kind, lang, "seed004-ex1") for kind in ("table", "board") for lang in ("en", "ru")}
    assert again[key("table", "en", "seed004-ex1")]["seq"] == 8


def test_the_last_roll_is_of_the_game_as_ruled_with_its_odds_and_luck(tmp_path: Path) -> None:
    data = tmp_path / "data"
    store = Rollcall.open(data)
    with open(EX1, encoding="utf-8") as handle:
        store.import_record(handle, str(EX1))
    store.key = store.add_key("organiser", "Olga")
    store.key = store.add_key("judge", "Jules")
    store.record("seed004-ex1", {"type": "DiceRolled", "die": "agility", "faces": ["success", "blank"],
                                 "player": "p2", "purpose": "other", "label": "morale"})  # seq 8
    store.make_ruling("seed004-ex1", "Jules", [8], "void", "not a real roll")
    Projector(data).run()
    table = made(data)[key("table", "en", "seed004-ex1")]
    assert table["roll"]["seq"] == 5  # the roll at seq 8 was voided: seq 5 is the last roll that stands
    assert table["roll"]["odds"] == "odds 50.0%"
    assert table["roll"]["luck"] == "luck -0.50 (expected 0.50, got 0.00)"
    assert made(data)[key("table", "ru", "seed004-ex1")]["roll"]["odds"] == "вероятность 50.0%"


def test_a_spectators_last_roll_under_the_delay_keeps_its_luck(delayed: Delayed) -> None:
    table = made(delayed.data, delayed.now)[key("table", "en", ENDED)]
    assert table["roll"] is not None and table["roll"]["seq"] <= SPLIT[ENDED]
    assert table["roll"]["odds"].startswith("odds ") and table["roll"]["luck"].startswith("luck ")


def test_a_page_asking_for_a_snapshot_the_follower_did_not_make_gets_it_as_a_spectator_sees(delayed: Delayed) -> None:
    con = connect_read(delayed.data)
    try:
        table = orjson.loads(made_now(con, key("table", "en", ENDED)))
        assert table["seq"] <= SPLIT[ENDED] or table["seq"] == delayed.last[ENDED]  # the present: as far as it is due
        assert made_now(con, key("table", "en", "no-such-game")) is None
        assert made_now(con, "nonsense") is None and made_now(con, key("table", "xx", ENDED)) is None
        signed_in = [orjson.loads(b) for b in bundle(con, key("round", "en", "delay-cup", 1), EVERYTHING)]
        assert {b["key"] for b in signed_in} == {key("round", "en", "delay-cup", 1), key("table", "en", ENDED),
                                                 key("table", "en", PLAYING)}
        assert next(b for b in signed_in if b.get("game") == ENDED)["seq"] == delayed.last[ENDED]
    finally:
        con.close()


def test_a_team_rounds_snapshot_says_its_matches_with_their_totals_so_far(tmp_path: Path) -> None:
    from domain.formats import shipped_format
    from domain.player_lists import Registration

    folder = tmp_path / "data"
    store = Rollcall.open(folder)
    store.create_tournament("Team Cup", "t9a", format=shipped_format("t9a-teams-4"))
    store.register_players("Team Cup", [Registration(f"{t} {i}", "orcs", t) for t in ("Aachen", "Bergen")
                                        for i in range(1, 5)])
    first, other = store.pair_round("Team Cup", 1, seed=1)["matches"][0]["teams"]
    store.enter_matchups("Team Cup", 1, 1, [(f"{first} {i}", f"{other} {i}") for i in range(1, 5)])
    store.enter_result("Team Cup", 1, 1, {"p1": 3000, "p2": 1000})  # 44.4 %: 18-2
    store.close()
    Projector(folder).run()
    sent = made(folder)
    assert sent["round/en/team-cup/1"]["matches"] == [
        f"Match 1: {first} 18 – 2 {other} (so far: 1 of 4 games ended)"]
    assert sent["round/ru/team-cup/1"]["matches"][0].startswith(f"Матч 1: {first} 18 – 2 {other}")
