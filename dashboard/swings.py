"""The Replay page's "next big swing" button: moves the replay to the next throw of dice whose luck swing is big.

A swing is big when |z| >= 2, z = (observed - expected) / sd of the throw's successes (pips for numbered
dice) under the dice in force (projections.stats.swings): an outcome about 1 throw in 20 would beat. One
die alone rarely gets there (one attack die: z is -1.41 or +0.71), so the swings are rolls of several dice.
"""

from __future__ import annotations

import streamlit as st

from dashboard import data
from dashboard.replay_ui import go_to


@st.cache_data(max_entries=64, show_spinner=False)
def _swings(ver: tuple[str, int], game: str) -> list[dict]:
    from projections.stats import swings

    return list(data._reader(*ver).run(swings, game))


def big_swings(game: str) -> list[dict]:
    """The big swings of ``game``: seq, player, unit, observed, expected, luck, z."""
    return _swings(data.version(), game)


def next_swing_button(game: str, seq: int, container=st) -> int | None:
    """The button moving the replay (the URL-bound ``seq``) to the next big swing after ``seq``; that seq."""
    swings = big_swings(game)
    after = [s for s in swings if int(s["seq"]) > seq]
    target = int(after[0]["seq"]) if after else None
    label = f"Next big swing (seq {target})" if target is not None else "No big swing ahead"
    tip = (f"{len(swings)} throws of this game had a luck swing with |z| ≥ 2 (observed − expected, over its sd)"
           if swings else "No throw of this game had a luck swing with |z| ≥ 2")
    container.button(label, key="next_swing", icon=":material/bolt:", on_click=go_to, args=(target or 0,),
                     disabled=target is None, help=tip)
    return target
