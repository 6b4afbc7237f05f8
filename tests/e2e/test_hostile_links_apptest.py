"""Every page opened with hostile link parameters (AppTest over a real store): infinities, NaN, huge and negative
numbers, 10,000-character strings, unknown games and runaway seq ranges give a plain message or the page's
default, never a traceback, and a runaway `about` range is cut to the events one dispute may be about."""

from __future__ import annotations

from pathlib import Path

import pytest
from delayed import ENDED, NAME, Delayed, delayed_data
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
VIEWS = ROOT / "dashboard" / "views"
HOSTILE = ("inf", "-inf", "nan", "1e309", "-5", "9" * 5000, "x" * 10_000, "nope", "1-1000000000", "")
# each page with the parameters its links carry, and those the others need to reach the page's body
PAGES = {"replay": ("game", "seq", "ruled"), "dispute": ("game", "seq", "about", "ruled"), "live": ("tournament", "round"),
         "analytics": ("tournament", "luck_game", "games"), "standings": ("tournament",),
         "public": ("tournament", "round"), "record": ("game",), "games": ("game",), "new_game": ("tournament",)}
SOUND = {"game": ENDED, "tournament": NAME}


@pytest.fixture(scope="module")
def delayed(tmp_path_factory) -> Delayed:
    return delayed_data(tmp_path_factory.mktemp("hostile") / "data")


@pytest.fixture(autouse=True)
def at_the_moment(delayed: Delayed, monkeypatch: pytest.MonkeyPatch) -> None:
    """The pages read ``delayed``'s data at ``delayed.now`` (200 events of ENDED shown to a spectator)."""
    monkeypatch.setenv("ROLLCALL_DATA", str(delayed.data))
    monkeypatch.setattr("projections.visibility.current_time", lambda: delayed.now)


def opened(page: str, **params: str) -> AppTest:
    at = AppTest.from_file(str(VIEWS / f"{page}.py"), default_timeout=60)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    return at


@pytest.mark.parametrize("page", list(PAGES))
def test_no_page_shows_a_traceback_for_a_hostile_link(page: str, delayed: Delayed) -> None:
    failures = []
    for name in PAGES[page]:
        for value in HOSTILE:
            at = opened(page, **{**{k: v for k, v in SOUND.items() if k in PAGES[page]}, name: value})
            if at.exception:
                failures.append((name, value[:20], at.exception[0].value[:120]))
    assert not failures, failures


def test_a_link_to_an_event_that_is_not_a_number_says_so_plainly(delayed: Delayed) -> None:
    for value in ("inf", "-inf", "1e309", "nan", "-5", "9" * 5000):
        replay = opened("replay", game=ENDED, seq=value)
        assert any("is not an event number" in e.value for e in replay.error), value
        dispute = opened("dispute", game=ENDED, seq=value)
        assert any("is not an event number" in w.value for w in dispute.warning), value
        assert dispute.number_input(key="seq").value == 0


def test_a_runaway_about_range_is_cut_to_the_events_one_dispute_may_be_about(delayed: Delayed) -> None:
    from dashboard.params import MAX_ABOUT

    at = opened("dispute", game=ENDED, about="1-1000000000")
    assert not at.exception
    assert list(at.dataframe[0].value["seq"]) == list(range(1, MAX_ABOUT + 1))
    assert any(f"at most {MAX_ABOUT} events" in w.value for w in at.warning)
