"""A page listens for the read models' lag from the step it was drawn at: a step told while the page reads the lag
runs the page again (the listener's value is taken before the lag is read, not after)."""

from __future__ import annotations

from broadcast.hub import Held
from dashboard import changes, live


def test_a_lag_step_told_while_the_page_reads_the_lag_runs_the_page_again(monkeypatch) -> None:
    monkeypatch.setitem(changes.HUB.latest, "lag", Held(3, b"", (), 0.0))
    told = {}

    def the_watcher_tells_a_step_meanwhile() -> None:  # the page read a lag under 5 s: it says nothing
        changes.HUB.latest["lag"] = Held(4, b"", (), 0.0)

    monkeypatch.setattr(live, "show_lag", the_watcher_tells_a_step_meanwhile)
    monkeypatch.setattr(changes, "follow", lambda watch, key: told.update(watch))
    live.follow_updates(rerun=False)
    assert told == {"lag": 3}  # drawn at 3; the listener, told 4, runs the page again
