"""A write's outcome stays said under its button through the runs that follow by themselves (the events just
written are published a moment later and run the page again), for KEEP_SECONDS, unless the next write's outcome
takes its place (dashboard.layout.show_message, with an injected clock)."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest


def page() -> None:
    import streamlit as st

    from dashboard import layout

    if st.session_state.pop("write", None):
        st.session_state["outcome"] = ("success", st.session_state.pop("said"))
    layout.show_message("outcome", clock=lambda: st.session_state["now"])


def run(at: AppTest, now: float, write: str | None = None) -> list[str]:
    at.session_state["now"] = now
    if write is not None:
        at.session_state["write"], at.session_state["said"] = True, write
    at.run()
    assert not at.exception
    return [s.value for s in at.success]


def test_a_writes_outcome_is_said_through_the_runs_that_follow_by_themselves_then_goes() -> None:
    from dashboard.layout import KEEP_SECONDS

    at = AppTest.from_function(page)
    assert run(at, 0.0) == []
    assert run(at, 100.0, write="recorded seq 4 (DisputeOpened)") == ["recorded seq 4 (DisputeOpened)"]
    assert run(at, 100.5) == ["recorded seq 4 (DisputeOpened)"]  # the read models published again: still said
    assert run(at, 100 + KEEP_SECONDS - 1) == ["recorded seq 4 (DisputeOpened)"]
    assert run(at, 101 + KEEP_SECONDS) == []  # said long enough
    assert run(at, 200.0) == []


def test_the_next_writes_outcome_takes_the_place_of_the_last() -> None:
    at = AppTest.from_function(page)
    run(at, 0.0, write="recorded seq 4 (DisputeOpened)")
    assert run(at, 5.0, write="recorded seq 5 (RulingMade)") == ["recorded seq 5 (RulingMade)"]
    assert run(at, 6.0) == ["recorded seq 5 (RulingMade)"]
