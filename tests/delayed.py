"""A data folder with a tournament under a broadcast delay, and the moment at which a spectator sees each of its
games only in part: for the tests of what the delay covers (projections, pages, command line)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

NAME = "Delay Cup"
PAIRED = "Paired Cup"  # a delayed tournament paired in Rollcall: its one game's result was entered within the delay
DELAY = 900
ENDED, PLAYING, LIVE = "delay-ended", "delay-playing", "friendly"  # LIVE: a game of no tournament
SPLIT = {ENDED: 200, PLAYING: 30}  # the last seq a spectator sees of each at ``Delayed.now``


@dataclass(frozen=True)
class Delayed:
    data: Path
    key: str  # an organiser's key: a privileged viewer
    last: dict[str, int]  # each game's last seq
    now: datetime  # the moment: a spectator sees each game of the tournament up to SPLIT


def _lines(seed: int, game: str, **header) -> tuple[dict, list[dict]]:
    from simulation.games import record_lines, simulate_tornscape

    lines = [json.loads(x) for x in record_lines(simulate_tornscape(seed, game))]
    players = [{**p, "name": f"{p.get('name') or p['id']} {seed}"} for p in lines[0]["players"]]
    head = {**lines[0], "players": players, **header, "hash": None}
    return head, [{k: v for k, v in e.items() if k != "hash"} for e in lines[1:]]


def delayed_data(folder: Path) -> Delayed:
    """``Delay Cup`` (tornscape, delay DELAY s) with two games of round 1 — ENDED, a whole game that ended, and
    PLAYING, 60 events and then a dispute — and LIVE, a game of no tournament; PAIRED, its round 1 paired and its
    one result entered; a store with keys; projected. At ``now``, ENDED's events after seq SPLIT[ENDED], PLAYING's
    after SPLIT[PLAYING] (its dispute too) and PAIRED's result are within the delay."""
    from service.application import Rollcall
    from projections.projector import Projector
    from projections.queries import connect_read, rows

    store = Rollcall.open(folder)
    key = store.add_key("organiser", "Olga")
    store.key = key
    store.create_tournament(NAME, "tornscape")
    store.set_broadcast_delay(NAME, DELAY)
    ended = _lines(3, ENDED, tournament=NAME, round=1, table=1)
    playing = _lines(4, PLAYING, tournament=NAME, round=1, table=2)
    live = _lines(5, LIVE)
    store.create_tournament(PAIRED, "t9a")
    store.set_broadcast_delay(PAIRED, DELAY)
    for player in ("Ada", "Bo"):
        store.register_player(PAIRED, player, "orcs")
    store.pair_round(PAIRED, 1, seed=1)
    store.import_record([json.dumps(playing[0]), *map(json.dumps, playing[1][:SPLIT[PLAYING]])], PLAYING)
    store.import_record([json.dumps(ended[0]), *map(json.dumps, ended[1])], ENDED)  # ends with GameEnded
    store.write(PLAYING, playing[1][SPLIT[PLAYING]:60])
    store.open_dispute(PLAYING, "p1", [SPLIT[PLAYING]], "a claim made within the delay")
    store.enter_result(PAIRED, 1, 1, {"p1": 5, "p2": 2})
    store.import_record([json.dumps(live[0]), *map(json.dumps, live[1][:50])], LIVE)
    store.close()
    Projector(folder).run()
    con = connect_read(folder)
    try:
        at = rows(con, "SELECT recorded_at FROM fct_events WHERE game = $g AND seq = $s",
                  {"g": ENDED, "s": SPLIT[ENDED]})[0]["recorded_at"]
        last = {r["game"]: r["last_seq"] for r in rows(con, "SELECT game, last_seq FROM dim_games")}
    finally:
        con.close()
    return Delayed(folder, key, last, at + timedelta(seconds=DELAY))
