"""A round's time: the organiser starts the time of a paired round with its length (the tournament's event
``RoundStarted``: ``round``, ``seconds``, and the instant ``at``); time is called when it has run out. Pages count it
down from ``ends`` (no page runs per second), and when time is called a game still in play ends at time
(``GameEnded``, reason ``time``; rules.md R31 allows it in any phase).

- C09 a round's time is started for a round that is paired, once
- C10 a round lasts a whole number of seconds, from a minute to a day

Pure: every instant comes from the caller (a tournament event's ``at``, a page's injected clock)."""

from __future__ import annotations

from dataclasses import dataclass

from domain.clock import instant, iso, shown
from i18n import _

SHORTEST, LONGEST = 60, 24 * 3600  # a round's length in seconds, at least and at most (C10)


@dataclass(frozen=True, slots=True)
class RoundTime:
    """The time of one round: started at ``started`` (ms since the epoch), ``seconds`` long."""

    round: int
    started: int
    seconds: int

    @property
    def ends(self) -> int:
        """The instant time is called, in ms."""
        return self.started + self.seconds * 1000

    def left(self, now: int) -> int:
        """Ms left at instant ``now`` (0 once time is called)."""
        return max(0, self.ends - now)

    def called(self, now: int) -> bool:
        """Whether time is called at instant ``now``."""
        return now >= self.ends

    def words(self, now: int) -> str:
        """The round's time in words at ``now``: what is left, or that time is called."""
        if self.called(now):
            return _("Round {round}: time is called").format(round=self.round)
        return _("Round {round}: {left} left").format(round=self.round, left=shown(self.left(now)))

    def as_json(self, now: int | None = None) -> dict:
        """What a page's countdown needs: the round, its start and end (ISO) and its length; with ``now``, the
        server's instant (ISO) the browser counts on from, and the words at that instant."""
        out = {"round": self.round, "started": iso(self.started), "ends": iso(self.ends), "seconds": self.seconds,
               "called_words": _("Round {round}: time is called").format(round=self.round),
               "left_words": _("Round {round}: {left} left").format(round=self.round, left="{left}")}
        if now is not None:
            out.update(now=iso(now), words=self.words(now), called=self.called(now))
        return out


def round_time(data: dict) -> RoundTime:
    """The round time of a ``RoundStarted`` event's data."""
    return RoundTime(int(data["round"]), instant(data["at"]), int(data["seconds"]))


def check_start(round_no, seconds, at, *, paired: bool, started: dict | None) -> None:
    """C09–C10 for starting round ``round_no``'s time (``started``: the round's RoundStarted data, if any);
    raises ValueError with the rule's words."""
    if type(round_no) is not int or round_no < 1:
        raise ValueError(_("C09 no round is paired yet: a round's time starts once it is"))
    if not paired:
        raise ValueError(_("C09 round {round} is not paired: its time starts once it is").format(round=round_no))
    if started is not None:
        raise ValueError(_("C09 round {round}'s time was started already, at {at}; a round's time starts once")
                         .format(round=round_no, at=started["at"]))
    if type(seconds) is not int or not SHORTEST <= seconds <= LONGEST:
        raise ValueError(_("C10 a round lasts a whole number of seconds from {least} to {most} (a minute to a day), "
                           "not {value}").format(least=SHORTEST, most=LONGEST, value=repr(seconds)))
    try:
        instant(at)
    except (TypeError, ValueError):
        raise ValueError(_("C09 field `at` must be an ISO 8601 date and time such as 2026-11-28T10:00:00Z, not {value}")
                         .format(value=repr(at))) from None


__all__ = ["RoundTime", "round_time", "check_start", "SHORTEST", "LONGEST"]
