"""A data folder whose every text a person types is hostile: Markdown images and links, HTML tags and scripts,
bold — in the tournament's name, the players' names, factions and clubs, a key holder's name, a note, a
dispute's claim and a judge's ruling. For the tests that pages show such text as text."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

IMAGE = "![x](http://evil.example/x.png)"
LINK = "[Appeal the ruling here](http://evil.example)"
SCRIPT = "<script>alert(1)</script>"
IMG = "<img src=x onerror=alert(1)>"
BOLD = "**bold**"
HOSTILE = (IMAGE, LINK, SCRIPT, IMG, BOLD)

TOURNAMENT = f"Cup {BOLD} {LINK}"
PLAYERS = (f"Ann {IMAGE} {IMG}", f"Bob {LINK} {SCRIPT}")
FACTION = f"{BOLD} {IMG}"
CLUB = f"{LINK} {IMAGE}"
HOLDER = f"Judge {SCRIPT} {LINK}"
NOTE = f"note {IMAGE} {LINK} {SCRIPT} {IMG} {BOLD}"
CLAIM = f"claim {IMAGE} {LINK} {SCRIPT} {IMG} {BOLD}"
RULING = f"ruling {IMAGE} {LINK} {SCRIPT} {IMG} {BOLD}"
GAME = "hostile-1"


@dataclass(frozen=True)
class Hostile:
    data: Path
    key: str  # a judge's key, held by HOLDER
    game: str


def hostile_data(folder: Path) -> Hostile:
    """A tournament TOURNAMENT with the players PLAYERS (faction FACTION, club CLUB) registered, round 1 played
    as GAME (a Tornscape game with hostile names, a note, a dispute and a ruling), a judge's key held by HOLDER;
    projected."""
    from service.application import Rollcall
    from projections.projector import Projector
    from simulation.games import record_lines, simulate_tornscape

    store = Rollcall.open(folder)
    store.key = store.add_key("organiser", "Olga")
    judge = store.add_key("judge", HOLDER)
    store.create_tournament(TOURNAMENT, "tornscape")
    lines = [json.loads(x) for x in record_lines(simulate_tornscape(7, GAME))]
    players = [{**p, "name": name, "faction": p.get("faction")} for p, name in zip(lines[0]["players"], PLAYERS)]
    head = {**lines[0], "players": players, "tournament": TOURNAMENT, "round": 1, "table": 1, "hash": None}
    for p in players:
        store.register_player(TOURNAMENT, p["name"], FACTION, club=CLUB)
    events = [{k: v for k, v in e.items() if k != "hash"} for e in lines[1:]]
    store.import_record([json.dumps(head), *map(json.dumps, events[:40])], GAME)
    store.record(GAME, {"type": "Noted", "text": NOTE})
    store.open_dispute(GAME, "p1", [5], CLAIM)
    store.key = judge
    store.make_ruling(GAME, HOLDER, [5], "stands", RULING)
    store.close()
    Projector(folder).run()
    return Hostile(folder, judge, GAME)
