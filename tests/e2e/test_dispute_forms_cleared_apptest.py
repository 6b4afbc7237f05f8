"""A dispute form whose write went through is emptied even when the run that empties it is cut short by another
(the events just written are published a moment later and run the page again, and the browser sends back what was
typed): its fields are emptied on every run until one has drawn the forms (dashboard.dispute_ui)."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest


def page() -> None:
    import streamlit as st

    from dashboard import dispute_ui as dui

    dui.clear_written_forms()
    if st.session_state.pop("cut_short", False):
        st.stop()  # another run took its place before the forms were drawn
    st.session_state["shown"] = st.session_state.get("ruling-text", "")
    dui.written_forms_drawn()


def test_a_written_form_is_emptied_when_the_run_that_empties_it_is_cut_short() -> None:
    at = AppTest.from_function(page)
    at.session_state["ruling-text"] = "the nearest free hex was chosen"
    at.session_state["clear_fields"] = ("ruling-text",)  # the ruling was recorded
    at.session_state["cut_short"] = True
    at.run()
    at.session_state["ruling-text"] = "the nearest free hex was chosen"  # what the browser still holds
    at.run()
    assert at.session_state["shown"] == ""
    at.session_state["ruling-text"] = "the next ruling"  # typed afterwards: kept
    at.run()
    assert at.session_state["shown"] == "the next ruling"
