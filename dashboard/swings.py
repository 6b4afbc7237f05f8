"""A game's big luck swings: throws of dice whose luck swing is big (the Replay page jumps to them).

A swing is big when |z| >= 2, z = (observed - expected) / sd of the throw's successes (pips for numbered
dice) under the dice in force (projections.stats.swings): an outcome about 1 throw in 20 would beat. One
die alone rarely gets there (one attack die: z is -1.41 or +0.71), so the swings are rolls of several dice.
"""

from __future__ import annotations

import streamlit as st

from dashboard import data


@st.cache_data(max_entries=64, show_spinner=False)
def _swings(ver: tuple[str, int], game: str) -> list[dict]:
    from projections.stats import swings

    return list(data._reader(*ver).run(swings, game))


def big_swings(game: str) -> list[dict]:
    """The big swings of ``game``: seq, player, unit, observed, expected, luck, z."""
    return _swings(data.version(), game)
