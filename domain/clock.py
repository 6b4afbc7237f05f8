"""The game clock: an optional chess clock per game, its events and the rules C01–C08 (docs/rules.md).

A game has a clock when its header says so (``clock``: each player's time, and what follows a flag fall).
Clock events are events of the game, each with its time ``at``: ``ClockStarted`` (whose time runs first),
``ClockPassed`` (by the player whose time runs: the opponent's runs), ``ClockPaused`` / ``ClockResumed``,
``ClockAdjusted`` (a judge's, with a reason) and ``FlagFell`` (a player's time ran out). Times are kept in
milliseconds; a player's remaining time at any instant is ``remaining_at`` of the clock as it stood after
the last clock event (pure: no clock is read here, every instant comes from the record).

- C01 a clock event needs a game with a clock (header ``clock``)
- C02 the clock is started once, before any other clock event
- C03 the clock is passed by the player whose time runs, while it runs
- C04 a running clock is paused, a paused one resumed
- C05 a clock event's time is not earlier than the previous clock event's
- C06 an adjustment never takes a player's time below zero
- C07 a flag falls for the player whose time has run out at that moment, once
- C08 after a flag falls the game ends at time: at once (flag ``time``), or once the current phase is
  finished (flag ``phase``: no new phase or turn begins)
"""

from __future__ import annotations

from dataclasses import dataclass, field as dc_field
from datetime import datetime, timezone

from domain.errors import MalformedRecord
from domain.record import show
from i18n import _

CLOCK_EVENTS = frozenset({"ClockStarted", "ClockPassed", "ClockPaused", "ClockResumed", "ClockAdjusted",
                          "FlagFell"})
FLAGS = ("time", "phase")  # what follows a flag fall: the game ends at time at once, or after the current phase
MOST_SECONDS = 7 * 24 * 3600  # a player's time at most (a week), an adjustment at most as much either way
AT_TIME = "time"  # GameEnded's reason for the end at time (domain.systems.fields.AT_TIME)


@dataclass(frozen=True, slots=True)
class Setting:
    """A game's clock: each player's time in seconds, and what follows a flag fall."""

    seconds: dict[str, int]
    flag: str = "time"


def setting_of(header: dict) -> Setting | None:
    """The clock setting of a header (checked by ``check_setting``), None for a game without a clock."""
    given = header.get("clock")
    if given is None:
        return None
    seconds = given["seconds"]
    ids = [p["id"] for p in header["players"]]
    per = {pid: seconds for pid in ids} if type(seconds) is int else dict(seconds)
    return Setting(per, given.get("flag", "time"))


def check_setting(header: dict) -> None:
    """The header's ``clock``, if any: ``{"seconds": 9000}`` (both players) or ``{"seconds": {"p1": 9000,
    "p2": 7200}}``, and optionally ``"flag"``: ``time`` (the default) or ``phase``."""
    given = header.get("clock")
    if given is None:
        return
    if type(given) is not dict:
        raise MalformedRecord(_("field `clock` must be an object such as {example}").format(
            example='{"seconds": 9000, "flag": "time"}'), field="clock")
    for name in given:
        if name not in ("seconds", "flag"):
            raise MalformedRecord(_("unknown field `{field}`").format(field=f"clock.{name}"), field=f"clock.{name}")
    if "seconds" not in given:
        raise MalformedRecord(_("missing field `{field}`").format(field="clock.seconds"), field="clock.seconds")
    seconds = given["seconds"]
    ids = [p.get("id") for p in header.get("players", []) if isinstance(p, dict)]
    if type(seconds) is dict:
        if set(seconds) != set(ids):
            raise MalformedRecord(_("field `clock.seconds` gives a time for each of {players}").format(
                players=", ".join(map(str, ids))), field="clock.seconds")
        for pid, value in seconds.items():
            _check_seconds(value, f"clock.seconds.{pid}")
    else:
        _check_seconds(seconds, "clock.seconds")
    flag = given.get("flag", "time")
    if flag not in FLAGS:
        raise MalformedRecord(_("field `clock.flag` is one of {allowed}, not {value}").format(
            allowed=", ".join(FLAGS), value=show(flag)), field="clock.flag")


def _check_seconds(value, name: str) -> None:
    if type(value) is not int or not 1 <= value <= MOST_SECONDS:
        raise MalformedRecord(_("field `{field}` is a player's time in whole seconds, 1 to {most:,}, not {value}")
                              .format(field=name, most=MOST_SECONDS, value=show(value)), field=name)


def instant(at: str) -> int:
    """An ISO 8601 time (``2026-11-28T10:00:00Z``, fractions of a second allowed) in milliseconds since the
    epoch; a time without its zone is UTC."""
    moment = datetime.fromisoformat(at)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return round(moment.timestamp() * 1000)


def iso(ms: int) -> str:
    """Milliseconds since the epoch as the ISO 8601 time a record writes (UTC, ``Z``, milliseconds when any)."""
    moment = datetime.fromtimestamp(ms / 1000, timezone.utc)
    text = moment.isoformat(timespec="milliseconds" if ms % 1000 else "seconds")
    return text.replace("+00:00", "Z")


def parse_at(event: dict) -> int:
    """The instant of a clock event (its required ``at``), refused naming the field when it is no ISO time."""
    at = event.get("at")
    try:
        return instant(at)
    except (TypeError, ValueError):
        raise MalformedRecord(_("field `at` must be an ISO 8601 date and time such as 2026-11-28T10:00:00Z, "
                                "not {value}").format(value=show(at)), field="at") from None


@dataclass(slots=True)
class Clock:
    """A game's clock after its last clock event. ``remaining`` is each player's time in ms at ``since`` (the
    instant of the last clock event); the time of ``turn_of`` runs from then on unless the clock is paused,
    not started or stopped (the game ended)."""

    remaining: dict[str, int]
    flag: str = "time"
    turn_of: str | None = None  # whose time the clock is on (the one that runs, unless paused)
    since: int | None = None
    started: bool = False
    paused: bool = False
    stopped: bool = False
    flagged: list[str] = dc_field(default_factory=list)
    flag_phase: tuple | None = None  # (turn, phase) in which the first flag fell

    @property
    def running(self) -> str | None:
        """The player whose time is running now, if any."""
        return self.turn_of if self.started and not self.paused and not self.stopped else None

    def settle(self, at: int) -> None:
        """Charge the running time up to ``at`` (ms) and make ``at`` the clock's last instant."""
        running = self.running
        if running is not None and self.since is not None:
            self.remaining[running] -= max(0, at - self.since)
        if self.since is None or at > self.since:
            self.since = at

    def to_json(self) -> dict:
        """The clock as the replay and the pages show it: remaining ms at ``since``, who runs."""
        return {"remaining": dict(self.remaining), "running": self.running, "turn_of": self.turn_of,
                "since": iso(self.since) if self.since is not None else None, "started": self.started,
                "paused": self.paused, "stopped": self.stopped, "flagged": list(self.flagged), "flag": self.flag}


def initial(header: dict) -> Clock | None:
    """The clock of a game before any event (None without a clock)."""
    setting = setting_of(header)
    if setting is None:
        return None
    return Clock({pid: s * 1000 for pid, s in setting.seconds.items()}, setting.flag)


def remaining_at(clock: dict | Clock, at: str | int | None = None) -> dict[str, int]:
    """Each player's remaining time in ms at instant ``at`` (ISO or ms; None: the clock's last instant), from
    the clock after its last clock event (a ``Clock`` or its ``to_json``): the running player's time goes
    down from ``since``. It may be negative once a flag fell and play goes on."""
    view = clock.to_json() if isinstance(clock, Clock) else clock
    left = dict(view["remaining"])
    running, since = view.get("running"), view.get("since")
    if at is None or running is None or since is None:
        return left
    now = instant(at) if isinstance(at, str) else at
    left[running] -= max(0, now - instant(since))
    return left


# --- the rules ----------------------------------------------------------------------------------------------

def decide(clock: Clock | None, players, event: dict, chk, *, turn: int = 0, phase: str | None = None) -> None:
    """Check clock event ``event`` against the clock as it stands (C01–C07); nothing changes."""
    kind = event["type"]
    at = parse_at(event)
    if clock is None:
        chk.fail("C01", _("game has no clock (its header sets none): {type} cannot be recorded").format(type=kind))
        return
    if "player" in event and event["player"] not in players:
        raise MalformedRecord(_("field `{field}`: unknown player '{player}'").format(
            field="player", player=event["player"]), field="player")
    if kind == "ClockStarted":
        if clock.started:
            chk.fail("C02", _("the clock was started already; it starts once"))
        return
    if not clock.started:
        chk.fail("C02", _("the clock is not started: {type} comes after ClockStarted").format(type=kind))
        return
    if clock.since is not None and at < clock.since:
        chk.fail("C05", _("{type} at {at} is earlier than the clock's last event, at {last}").format(
            type=kind, at=event["at"], last=iso(clock.since)))
    left = remaining_at(clock, at)
    if kind == "ClockPassed":
        if clock.paused:
            chk.fail("C03", _("the clock is paused: resume it before passing it"))
        elif event["player"] != clock.turn_of:
            chk.fail("C03", _("{player} cannot pass the clock: it runs for {running}").format(
                player=event["player"], running=clock.turn_of))
    elif kind == "ClockPaused":
        if clock.paused:
            chk.fail("C04", _("the clock is paused already"))
    elif kind == "ClockResumed":
        if not clock.paused:
            chk.fail("C04", _("the clock is running: only a paused clock is resumed"))
    elif kind == "ClockAdjusted":
        after = left[event["player"]] + event["seconds"] * 1000
        if after < 0:
            chk.fail("C06", _("adjusting {player}'s time by {seconds} s would leave {after} (their time is "
                              "{left}); a clock never goes below zero").format(
                player=event["player"], seconds=event["seconds"], after=shown(after), left=shown(left[event["player"]])))
    elif kind == "FlagFell":
        pid = event["player"]
        if pid in clock.flagged:
            chk.fail("C07", _("{player}'s flag fell already").format(player=pid))
        elif left[pid] > 0:
            chk.fail("C07", _("{player}'s flag cannot fall: {left} of their time is left at {at}").format(
                player=pid, left=shown(left[pid]), at=event["at"]))


def apply(clock: Clock, event: dict, *, turn: int = 0, phase: str | None = None) -> None:
    """Change the clock by clock event ``event`` (decided already)."""
    kind = event["type"]
    at = instant(event["at"])
    if kind == "ClockStarted":
        clock.started, clock.turn_of, clock.since = True, event["player"], at
        return
    clock.settle(at)
    if kind == "ClockPassed":
        clock.turn_of = next(p for p in clock.remaining if p != event["player"])
    elif kind == "ClockPaused":
        clock.paused = True
    elif kind == "ClockResumed":
        clock.paused = False
    elif kind == "ClockAdjusted":
        clock.remaining[event["player"]] += event["seconds"] * 1000
    elif kind == "FlagFell":
        clock.flagged.append(event["player"])
        if clock.flag_phase is None:
            clock.flag_phase = (turn, phase)


def stop(clock: Clock | None, event: dict) -> None:
    """The game ended (``event``: its GameEnded): the clock stops, the running time charged up to the end's
    ``at`` when it has one."""
    if clock is None or not clock.started:
        return
    at = event.get("at")
    if isinstance(at, str):
        try:
            clock.settle(instant(at))
        except ValueError:
            pass
    clock.stopped = True


def due_flag(clock: Clock | None, now: int) -> dict | None:
    """The flag that has fallen by instant ``now`` (ms) and is not recorded yet: a ``FlagFell`` for the player whose
    time runs, at the very instant it ran out (so the record says when, however late a page or a server heard of
    it); None while their time lasts, the clock is paused, stopped or not started, or their flag fell already."""
    if clock is None:
        return None
    running = clock.running
    if running is None or running in clock.flagged or clock.since is None:
        return None
    out = clock.since + max(0, clock.remaining[running])
    if now < out:
        return None
    return {"type": "FlagFell", "player": running, "at": iso(out)}


def ends_now(clock: Clock | None) -> bool:
    """Whether a flag fell under the flag ``time``: nothing of play but the end at time may follow (C08)."""
    return clock is not None and bool(clock.flagged) and clock.flag == "time"


def check_after_flag(clock: Clock | None, event: dict, chk) -> None:
    """C08: once a flag fell, the game ends at time: with flag ``time`` no event of play but the end at time
    follows; with flag ``phase`` the current phase may be finished, but no new phase or turn begins."""
    if clock is None or not clock.flagged or event["type"] in CLOCK_EVENTS:
        return
    kind = event["type"]
    if kind == "GameEnded":
        return
    who = clock.flagged[0]
    if clock.flag == "time":
        chk.fail("C08", _("{player}'s flag fell: the game ends at time (GameEnded, reason `{reason}`), not with "
                          "{type}").format(player=who, reason=AT_TIME, type=kind))
    elif kind in ("TurnStarted", "PhaseStarted"):
        chk.fail("C08", _("{player}'s flag fell: the current phase may be finished, then the game ends at time "
                          "(GameEnded, reason `{reason}`); no {type}").format(player=who, reason=AT_TIME, type=kind))


def shown(ms: int) -> str:
    """A time in ms as a clock shows it: ``2:29:58``, ``4:05``, ``-0:12`` (whole seconds, rounded down)."""
    sign = "-" if ms < 0 else ""
    total = abs(ms) // 1000 if ms >= 0 else -(ms // 1000)
    hours, rest = divmod(total, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{sign}{hours}:{minutes:02}:{seconds:02}" if hours else f"{sign}{minutes}:{seconds:02}"


# --- the figures --------------------------------------------------------------------------------------------

def _moment(line: dict) -> int | None:
    """A record line's time (its ``at``) in milliseconds, or None where it has none that reads."""
    at = line.get("at")
    if not isinstance(at, str):
        return None
    try:
        return instant(at)
    except ValueError:
        return None


def _followed(clock: Clock, line: dict, turn: int, phase: str | None) -> tuple[int, str | None]:
    """The clock changed by record line ``line`` (a clock event, or the game's end) and the turn and phase in
    play after it."""
    kind = line.get("type")
    if kind == "TurnStarted":
        return line["turn"], None
    if kind == "PhaseStarted":
        return turn, line["phase"]
    if kind == "GameEnded":
        stop(clock, line)
    elif kind in CLOCK_EVENTS:
        apply(clock, line, turn=turn, phase=phase)
    return turn, phase


def history(header: dict, lines) -> list[dict]:
    """The clock after each clock event of ``lines`` (stored record lines, in order): one row per clock event
    with its seq, type, time, player, turn, phase and each player's remaining ms (``remaining``) — a game's
    clock table (the dump's ``clock``, the Dispute page's "slow play")."""
    clock = initial(header)
    if clock is None:
        return []
    rows, turn, phase = [], 0, None
    for line in lines:
        kind = line.get("type")
        turn, phase = _followed(clock, line, turn, phase)
        if kind in CLOCK_EVENTS:
            rows.append({"seq": line["seq"], "type": kind, "at": line["at"], "player": line.get("player"),
                         "turn": turn, "phase": phase, "running": clock.running, "remaining": dict(clock.remaining),
                         "seconds": line.get("seconds"), "reason": line.get("reason"), "judge": line.get("judge")})
    return rows


def at_each_event(header: dict, lines) -> dict[int, dict]:
    """Both clocks at every event of ``lines`` (stored record lines, in order), by seq: each player's remaining ms
    at the event's moment (its ``at``; the last clock event's, for an event without one) and whose time runs —
    what a replay shows at each step. Empty for a game without a clock."""
    clock = initial(header)
    if clock is None:
        return {}
    out = {}
    for line in lines:
        kind = line.get("type")
        if kind == "GameEnded":
            stop(clock, line)
        elif kind in CLOCK_EVENTS:
            apply(clock, line)
        moment = _moment(line) if clock.since is not None else None
        if moment is not None:
            moment = max(moment, clock.since)
        out[line["seq"]] = {"remaining": remaining_at(clock, moment), "running": clock.running,
                            "started": clock.started, "flagged": list(clock.flagged)}
    return out


def time_by_turn(header: dict, lines) -> list[dict]:
    """The time each player's clock ran, per turn and phase: rows ``{player, turn, phase, seconds}`` in order
    of first use. Running time between two timed events (any event with an ``at``: a clock event, a roll…)
    counts for the player whose time ran and the turn and phase in play at the earlier one."""
    clock = initial(header)
    if clock is None:
        return []
    spent: dict[tuple, int] = {}
    turn, phase, last = 0, None, None

    def charge(until: int) -> None:
        running = clock.running
        if running is not None and last is not None and until > last:
            key = (running, turn, phase)
            spent[key] = spent.get(key, 0) + until - last

    for line in lines:
        moment = _moment(line)
        if moment is not None:
            charge(moment)
            last = moment if last is None else max(last, moment)
        turn, phase = _followed(clock, line, turn, phase)
    return [{"player": p, "turn": t, "phase": ph, "seconds": ms / 1000} for (p, t, ph), ms in spent.items()]
