"""What a page shows of a game's clock, as a pure function of the game's state, the instant and the viewer:
``clock_view``. No Streamlit here: the Record page's clock (dashboard/clock_ui.py, static/clock.js) lays it out
and counts the running time down in the browser from ``remaining`` at ``now``; the replay, Live and the overlay
show the same two figures (``faces``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from domain import clock as game_clock
from i18n import _


@dataclass(frozen=True)
class Face:
    """One player's side of the clock."""

    player: str
    name: str
    remaining: int  # ms at the view's instant (negative once the flag fell and play goes on)
    running: bool
    flagged: bool
    shown: str  # the time as the clock shows it ("2:29:58")


@dataclass(frozen=True)
class ClockView:
    """The clock of one game at one instant, and the taps the viewer may make on it: ``taps`` maps an action
    (``start:<player>``, ``pass``, ``pause``, ``resume``, ``flag:<player>``) to its event (without ``at``, which
    is the instant of the tap, but for the flag of the running player: the instant their time ran out) and its
    words."""

    game: str
    seq: int
    now: str  # the instant the figures are for (ISO), the browser counting on from it
    faces: list[Face]
    started: bool
    paused: bool
    stopped: bool
    status: str
    taps: dict[str, tuple[dict, str]] = field(default_factory=dict)

    def as_json(self) -> dict:
        """What the page's component needs (static/clock.js)."""
        return {"game": self.game, "seq": self.seq, "now": self.now, "started": self.started,
                "paused": self.paused, "stopped": self.stopped, "status": self.status,
                "faces": [{"player": f.player, "name": f.name, "remaining": f.remaining, "running": f.running,
                           "flagged": f.flagged, "shown": f.shown} for f in self.faces],
                "taps": {key: words for key, (_event, words) in self.taps.items()},
                "flag_words": {f.player: _("{name}'s flag fell").format(name=f.name) for f in self.faces}
                if self.started and not self.stopped and self.taps else {}}


def faces(clock: dict | game_clock.Clock, names: dict[str, str], now: str | int | None) -> list[Face]:
    """Both players' sides of ``clock`` (a Clock or the replay's ``clock``) at instant ``now``."""
    view = clock.to_json() if isinstance(clock, game_clock.Clock) else clock
    left = game_clock.remaining_at(view, now)
    return [Face(pid, names.get(pid, pid), ms, view.get("running") == pid, pid in (view.get("flagged") or ()),
                 game_clock.shown(max(ms, 0) if pid not in (view.get("flagged") or ()) else ms))
            for pid, ms in left.items()]


def clock_view(state, names: dict[str, str], now: str, *, writable: bool) -> ClockView | None:
    """The clock of the game at ``state`` at instant ``now`` (None for a game without a clock); ``writable``:
    the viewer may record in this game (start, pass, pause, resume, the flag)."""
    clock = state.clock
    if clock is None:
        return None
    shown = faces(clock, names, now)
    taps: dict[str, tuple[dict, str]] = {}
    over = state.ended or state.sealed
    if writable and not over:
        if not clock.started:
            for face in shown:
                taps[f"start:{face.player}"] = ({"type": "ClockStarted", "player": face.player},
                                                _("Start: {name}'s time runs").format(name=face.name))
        elif clock.paused:
            taps["resume"] = ({"type": "ClockResumed"}, _("Resume the clock"))
        else:
            running = clock.turn_of
            taps["pass"] = ({"type": "ClockPassed", "player": running},
                            _("{name}: pass the clock").format(name=names.get(running, running)))
            taps["pause"] = ({"type": "ClockPaused"}, _("Pause"))
        due = game_clock.due_flag(clock, game_clock.instant(now))
        for face in shown:
            if clock.started and face.remaining <= 0 and not face.flagged:
                event = due if due is not None and due["player"] == face.player else {"type": "FlagFell",
                                                                                      "player": face.player}
                taps[f"flag:{face.player}"] = (event, _("{name}'s flag fell").format(name=face.name))
    return ClockView(state.game, state.seq, now, shown, clock.started, clock.paused, clock.stopped,
                     status_words(clock, names), taps)


def status_words(clock: game_clock.Clock, names: dict[str, str]) -> str:
    """What the clock is doing, in words."""
    if clock.flagged:
        flagged = ", ".join(names.get(p, p) for p in clock.flagged)
        return _("Flag fell: {names}. The game ends at time.").format(names=flagged) if clock.flag == "time" else \
            _("Flag fell: {names}. The current phase may be finished, then the game ends at time.").format(
                names=flagged)
    if clock.stopped:
        return _("The clock stopped: the game ended.")
    if not clock.started:
        return _("The clock is not started.")
    if clock.paused:
        return _("The clock is paused.")
    return _("{name}'s time runs.").format(name=names.get(clock.turn_of, clock.turn_of))
