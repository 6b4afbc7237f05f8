"""A crowded venue, for the browser tests and bench/venue_load.py: a tournament of ``tables`` Tornscape tables paired
in round 1, a scorekeeper's key for each table's tablet, and what a tablet does there (sign in on the Record page
of its table, tap what records at once) and what a spectator sees (the round's cards on the Live page)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote_plus

NAME = "Crowd Open"
FACTIONS = ("engeln", "castilla", "faceless", "shadowstep")
TAPPABLE = ("end ", "activate ", "Turn ", "Activation phase")  # offers that record at once, without a form
WAIT = 180_000


@dataclass
class Venue:
    games: list[str]  # by table (table 1 first)
    keys: list[str]  # a scorekeeper's key for each table
    organiser: str


def venue(data: Path, tables: int) -> Venue:
    """The store of ``data``: the tournament, its ``tables`` games (header only), the keys; projected."""
    from domain.scenarios import scenarios
    from projections.projector import Projector
    from service.application import Rollcall

    store = Rollcall.open(data)
    try:
        organiser = store.add_key("organiser", "Olga")
        store.key = organiser
        keys = [store.add_key("scorekeeper", f"Table {n}") for n in range(1, tables + 1)]
        store.create_tournament(NAME, "tornscape", rounds=3)
        for n in range(2 * tables):
            store.register_player(NAME, f"Player {n + 1:02d}", FACTIONS[n % len(FACTIONS)])
        setup = {**scenarios("tornscape")["ash-crossing"], "vortices": []}  # turns go on without Phase V
        paired = store.pair_round(NAME, 1, setup=setup, seed=1)
    finally:
        store.close()
    Projector(data).run()
    games = [t["game"] for t in sorted(paired["tables"], key=lambda t: t["table"])]
    return Venue(games, keys, organiser)


def record_url(base: str, game: str) -> str:
    return f"{base}/record?game={quote_plus(game)}"


def live_url(base: str) -> str:
    return f"{base}/live?tournament={quote_plus(NAME)}"


def shows(page, game: str, seq: int, timeout: float = WAIT) -> None:
    """The Record page shows ``game`` as stored at ``seq`` (its own run, no tap's preview pending)."""
    page.wait_for_function(
        "([game, seq]) => { const t = (window.rcRecordTables || {})[game];"
        " return t && !t.pending && t.boardRoot?.dataset.seq === String(seq); }", arg=[game, seq], timeout=timeout)


def tap(page) -> str | None:
    """Tap the first offer that records at once (None: none offered just now); its label."""
    labels = page.locator("button.rc-offer").all_inner_texts()
    label = next((x for x in labels if x.startswith(TAPPABLE) and not x.endswith("…")), None)
    if label is not None:
        page.get_by_role("button", name=label, exact=True).first.click()
    return label


def cards_at(page, games: list[str], seq: int, timeout: float = WAIT) -> None:
    """The Live page shows every game of ``games`` at ``seq`` or later."""
    page.wait_for_function(
        "([games, seq]) => games.every((g) => [...document.querySelectorAll('.rc-live-card')]"
        ".some((c) => c.dataset.game === g && Number(c.dataset.seq) >= seq))", arg=[games, seq], timeout=timeout)


def seq_of(status: str) -> int:
    found = re.search(r"event (\d+)", status)
    return int(found.group(1)) if found else 0
