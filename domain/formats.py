"""A tournament's format, as data: how a game scores, the secondary objective, the bye, bonuses and penalties,
and the tiebreaks in order (decision 19: everything that ranks or pairs asks the format).

A format is a JSON object (shipped ones in ``domain/formats_data/<name>.json``, or an organiser's file of the
same shape)::

    {"format": "t9a-20-0", "title": "…",
     "scoring": {"type": "margin", "points": 4500, "band_width": 5, "cap": 20},
     "secondary": {"points": 3}, "bye": 10,
     "tiebreaks": ["score", "sos", "vp_diff", "head_to_head"]}

Scoring ``type``:
- ``wins``: ``win``, ``draw``, ``loss`` points (3 / 1 / 0 by default);
- ``chess``: 1, ½, 0;
- ``margin``: the margin m = 100 × |VP₁ − VP₂| / ``points`` %; either ``band_width`` (below one width the game
  is drawn cap/2 – cap/2, then one point more to the winner per further width, up to cap – 0) or ``bands``, a
  list of ``{"from": %, "to": % (the last: none), "winner": points, "loser": points}`` from 0 %, in order,
  without overlap or gap; ``cap`` the most a game scores.

``secondary.points`` move from the loser of the secondary objective to its holder, each side kept within 0 and
the most a game scores. ``bye`` is what a bye scores. Bonuses (painting, sportsmanship: positive) and penalties
(late to the table: negative) are given per player and round, with a reason, as events of the tournament; they
add to the total score.

A team format adds ``teams``: ``{"size": 4, "win": 44, "draw": 37, "match_points": {"win": 2, "draw": 1, "loss": 0},
"bye": 44, "tiebreaks": ["match_points", "score", "sos"]}``: teams of ``size`` players (a player's team is the club or
team they registered with) are paired Swiss; in each team match the team's total is the sum of its players' game
scores, ``win`` or more a win, ``draw`` or more a draw, less a loss, worth ``match_points``; a bye team's total is
``bye``; teams rank by their ``tiebreaks`` from ``match_points``, ``score`` (the teams' totals summed) and ``sos``
(the opponent teams' match points). Players rank as in any format.

Tiebreaks, in the format's order, from: ``score`` (the total), ``sos`` (strength of schedule: the opponents'
total scores, once per game), ``esos`` (extended: the opponents' strengths of schedule), ``vp_diff``, ``vp_for``,
``head_to_head`` (among the players tied so far: the game scores they took off each other), ``random`` (a draw
seeded by the tournament). Players equal on every tiebreak share a rank (listed by name).

Time: ``clock`` gives every game of the tournament its chess clock (a header's ``clock``: ``{"seconds": 9000,
"flag": "time"}``, each player's time and what follows a flag fall, domain.clock), ``round_seconds`` a round's
length when its time is started (domain.round_time), ``round_end`` what follows when time is called: ``time`` (the
default: a game still in play ends at time at once) or ``phase`` (the current phase is finished first).

Pure: the standard library only."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from domain.clock import FLAGS, MOST_SECONDS
from domain.errors import RollcallError
from domain.round_time import LONGEST, SHORTEST
from i18n import N_, _

FOLDER = Path(__file__).resolve().parent / "formats_data"
DEFAULT_FORMAT = "wins"
DEFAULT_POINTS = {"win": 3, "draw": 1, "loss": 0, "bye": 3}
TIEBREAKS = ("score", "sos", "esos", "vp_diff", "vp_for", "head_to_head", "random")
SCORINGS = ("wins", "chess", "margin")
TEAM_TIEBREAKS = ("match_points", "score", "sos")
MAX_TEAM = 12  # the most players a team fields in one match
TIME_FIELDS = ("clock", "round_seconds", "round_end")  # the format's time (_timed)
MOST = 10 ** 6  # no number of a format is larger (a cap, army points, a bonus)
# the shipped formats' titles, marked so that a page says them in its language (a file's own title stays as written)
SHIPPED_TITLES = (N_("Wins"), N_("Chess scoring"), N_("The 9th Age, 20-0"), N_("The 9th Age, teams of 4"))


class FormatError(RollcallError):
    """A format that cannot be used: the message names the file and the field."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


Score = Fraction


def number(value: Fraction | int | None) -> int | float | None:
    """A score as JSON writes it: a whole number when it is one (11), else a decimal (1.5)."""
    if value is None:
        return None
    value = Fraction(value)
    return int(value) if value.denominator == 1 else float(value)


@dataclass(frozen=True)
class Band:
    """A band of margins: from ``low`` % up to (not including) ``high`` % (None: no end), its two scores."""

    low: Fraction
    high: Fraction | None
    winner: Fraction
    loser: Fraction


@dataclass(frozen=True)
class TeamRules:
    """How a team tournament scores (a format's ``teams``): the players a team fields in a match, the totals that
    win and draw a match, the match points of a win, a draw and a loss, a bye team's total, the teams' tiebreaks."""

    size: int
    win: Fraction
    draw: Fraction
    match_points: tuple[int, int, int]
    bye: Fraction
    tiebreaks: tuple[str, ...]

    def match(self, total: Fraction) -> tuple[str, int]:
        """A team's outcome of a match (win, draw, loss) by its total, and the match points it earns."""
        outcome = "win" if total >= self.win else "draw" if total >= self.draw else "loss"
        return outcome, self.match_points[("win", "draw", "loss").index(outcome)]


@dataclass(frozen=True)
class Format:
    """A format, checked (:func:`parse`); ``data`` is the JSON object it was read from (what the tournament's
    event keeps)."""

    name: str
    scoring: str
    win: Fraction
    draw: Fraction
    loss: Fraction
    bye: Fraction
    tiebreaks: tuple[str, ...]
    points: int | None = None           # margin: the armies' size
    cap: Fraction | None = None         # margin: the most a game scores
    bands: tuple[Band, ...] = ()        # margin
    secondary: Fraction = Fraction(0)   # points the secondary objective moves
    clock: dict | None = None           # each game's clock, as a header's `clock` (domain.clock); None: none
    round_seconds: int | None = None    # a round's time (domain.round_time); None: given when it is started
    round_end: str = "time"             # when time is called: games end at once ("time") or after the phase ("phase")
    title: str = ""
    teams: TeamRules | None = None      # a team tournament's rules
    data: dict = field(default_factory=dict, compare=False)

    @property
    def most(self) -> Fraction:
        """The most one game scores."""
        return self.cap if self.scoring == "margin" else max(self.win, self.draw, self.loss)

    def margin(self, vp_a: int, vp_b: int) -> Fraction:
        """The margin of victory points, a percentage of the armies' size."""
        return Fraction(100 * abs(vp_a - vp_b), self.points)

    def band(self, vp_a: int, vp_b: int) -> Band:
        m = self.margin(vp_a, vp_b)
        return next(b for b in self.bands if m >= b.low and (b.high is None or m < b.high))

    def game_scores(self, vp_a: int, vp_b: int, winner: int | None, secondary: int | None = None
                    ) -> tuple[Fraction, Fraction]:
        """The scores of the two sides of a game: their victory points, the winner (0: side a, 1: side b, None:
        a draw; the margin format decides by the victory points) and the holder of the secondary objective (0, 1
        or None)."""
        if self.scoring == "margin":
            band = self.band(vp_a, vp_b)
            if vp_a == vp_b:
                scores = [band.winner, band.loser] if band.winner == band.loser else [self.cap / 2, self.cap / 2]
            else:
                scores = [band.winner, band.loser] if vp_a > vp_b else [band.loser, band.winner]
        elif winner is None:
            scores = [self.draw, self.draw]
        else:
            scores = [self.win, self.loss] if winner == 0 else [self.loss, self.win]
        if secondary is not None and self.secondary:
            scores[secondary] += self.secondary
            scores[1 - secondary] -= self.secondary
        return tuple(min(max(s, Fraction(0)), self.most) for s in scores)  # type: ignore[return-value]

    def said(self) -> str:
        """The format in a line, as the Standings page shows it."""
        if self.scoring == "margin":
            how = _("0–{cap} by the margin of victory points (armies of {points})").format(
                cap=number(self.cap), points=self.points)
        elif self.scoring == "chess":
            how = _("1 for a win, ½ for a draw, 0 for a loss")
        else:
            how = _("{win} for a win, {draw} for a draw, {loss} for a loss").format(
                win=number(self.win), draw=number(self.draw), loss=number(self.loss))
        parts = [how, _("a bye {points}").format(points=number(self.bye))]
        if self.secondary:
            parts.append(_("secondary objective ±{points}").format(points=number(self.secondary)))
        parts.append(_("tiebreaks: {tiebreaks}").format(tiebreaks=", ".join(tiebreak_name(t) for t in self.tiebreaks)))
        if self.teams:
            t = self.teams
            parts.append(_("teams of {size}: a match won at {win} or more, drawn at {draw} or more ({mp_win}/{mp_draw}/"
                           "{mp_loss} match points); teams rank by {tiebreaks}").format(
                size=t.size, win=number(t.win), draw=number(t.draw), mp_win=t.match_points[0],
                mp_draw=t.match_points[1], mp_loss=t.match_points[2],
                tiebreaks=", ".join(team_tiebreak_name(x) for x in t.tiebreaks)))
        title = _(self.title) if self.title in SHIPPED_TITLES else self.title or self.name
        return f"{title}: " + "; ".join(parts)


def tiebreak_name(tiebreak: str) -> str:
    """A tiebreak as people read it."""
    return {"score": _("score"), "sos": _("strength of schedule"), "esos": _("extended strength of schedule"),
            "vp_diff": _("VP difference"), "vp_for": _("VP for"), "head_to_head": _("head-to-head"),
            "random": _("random draw")}.get(tiebreak, tiebreak)


def team_tiebreak_name(tiebreak: str) -> str:
    """A team tiebreak as people read it."""
    return {"match_points": _("match points"), "score": _("total game score"),
            "sos": _("strength of schedule")}.get(tiebreak, tiebreak)


# --- reading and checking ------------------------------------------------------------------------

def shipped() -> dict[str, dict]:
    """The formats shipped with Rollcall, by name (the file's stem), in name order."""
    return {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in sorted(FOLDER.glob("*.json"))}


def shipped_format(name: str) -> Format:
    """The shipped format ``name``, or a FormatError naming the shipped ones."""
    found = shipped().get(name)
    if found is None:
        raise FormatError(_("no format '{name}' is shipped (formats: {known}; or give a format file)").format(
            name=name, known=", ".join(shipped())), field="format")
    return parse(found, name)


def wins_format(points: dict | None = None) -> Format:
    """The default format (``wins``), its points per result and bye as a tournament created with ``points`` says."""
    data = shipped()[DEFAULT_FORMAT]
    if points:
        scoring = {**data["scoring"], **{k: v for k, v in points.items() if k != "bye"}}
        data = {**data, "scoring": scoring, **({"bye": points["bye"]} if "bye" in points else {})}
    return parse(data, DEFAULT_FORMAT)


def _fail(source: str, where: str, why: str) -> FormatError:
    return FormatError(_("{source}: field `{field}`: {why}").format(source=source, field=where, why=why), field=where)


def _amount(obj: dict, key: str, source: str, where: str, *, default: Any = None, low: int = 0,
            whole: bool = False) -> Fraction:
    value = obj.get(key, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (whole and not isinstance(value, int)):
        raise _fail(source, where, _("a {kind}, not {value}").format(
            kind=_("whole number") if whole else _("number"), value=json.dumps(value)))
    if value < 0 <= low:
        raise _fail(source, where, _("must not be negative, not {value}").format(value=value))
    if not low <= value <= MOST:
        raise _fail(source, where, _("from {low} to {most}, not {value}").format(low=low, most=MOST, value=value))
    return Fraction(value).limit_denominator(1000)


def parse(data: Any, source: str) -> Format:
    """The format ``data`` (a JSON object) checked: a FormatError naming ``source`` and the field otherwise."""
    timed = _timed(data, source) if isinstance(data, dict) else {}
    if not isinstance(data, dict):
        raise FormatError(_("{source}: a format is a JSON object").format(source=source))
    known = {"format", "title", "scoring", "secondary", "bye", "tiebreaks", "notes", "seed", "teams"}
    for key in data:
        if key not in known and key not in TIME_FIELDS:
            raise _fail(source, key, _("not a field of a format (fields: {known})").format(
                known=", ".join(sorted(known | set(TIME_FIELDS)))))
    name = data.get("format", Path(source).stem)
    if not isinstance(name, str) or not name.strip():
        raise _fail(source, "format", _("the format's name, a text"))
    scoring = data.get("scoring", {"type": DEFAULT_FORMAT})
    if not isinstance(scoring, dict):
        raise _fail(source, "scoring", _("an object with its `type` ({types})").format(types=", ".join(SCORINGS)))
    kind = scoring.get("type")
    if kind not in SCORINGS:
        raise _fail(source, "scoring.type", _("one of {types}, not {value}").format(
            types=", ".join(SCORINGS), value=json.dumps(kind)))
    allowed = {"wins": {"type", "win", "draw", "loss"}, "chess": {"type"},
               "margin": {"type", "points", "band_width", "bands", "cap"}}[kind]
    for key in scoring:
        if key not in allowed:
            raise _fail(source, f"scoring.{key}", _("not a field of {type} scoring (fields: {known})").format(
                type=kind, known=", ".join(sorted(allowed))))
    made: dict[str, Any] = {"name": name.strip(), "scoring": kind, "title": str(data.get("title") or "")}
    if kind == "wins":
        for key in ("win", "draw", "loss"):
            made[key] = _amount(scoring, key, source, f"scoring.{key}", default=DEFAULT_POINTS[key], low=-MOST)
    elif kind == "chess":
        made.update(win=Fraction(1), draw=Fraction(1, 2), loss=Fraction(0))
    else:
        made.update(_margin(scoring, source))
    made["bye"] = _amount(data, "bye", source, "bye", default=float(made["win"]) if kind != "margin" else
                          float(made["cap"] / 2), low=-MOST)
    secondary = data.get("secondary", {})
    if not isinstance(secondary, dict) or set(secondary) - {"points"}:
        raise _fail(source, "secondary", _("an object with its `points`"))
    made["secondary"] = _amount(secondary, "points", source, "secondary.points", default=0)
    made.update(timed)
    tiebreaks = data.get("tiebreaks", ["score"])
    if not isinstance(tiebreaks, list) or not tiebreaks:
        raise _fail(source, "tiebreaks", _("a list of tiebreaks from {known}").format(known=", ".join(TIEBREAKS)))
    for i, tiebreak in enumerate(tiebreaks):
        if tiebreak not in TIEBREAKS:
            raise _fail(source, f"tiebreaks[{i}]", _("unknown tiebreak {value} (tiebreaks: {known})").format(
                value=json.dumps(tiebreak), known=", ".join(TIEBREAKS)))
        if tiebreak in tiebreaks[:i]:
            raise _fail(source, f"tiebreaks[{i}]", _("{value} is listed twice").format(value=json.dumps(tiebreak)))
    if tiebreaks[0] != "score":
        raise _fail(source, "tiebreaks[0]", _("the first tiebreak is the total score (\"score\")"))
    made["tiebreaks"] = tuple(tiebreaks)
    if "teams" in data:
        made["teams"] = _teams(data["teams"], source, made)
    return Format(**made, data={**data, "format": name.strip()})


def _teams(given: Any, source: str, made: dict) -> TeamRules:
    fields = {"size", "win", "draw", "match_points", "bye", "tiebreaks"}
    if not isinstance(given, dict):
        raise _fail(source, "teams", _("an object with the team's `size` and what wins and draws a match"))
    for key in given:
        if key not in fields:
            raise _fail(source, f"teams.{key}", _("not a field of `teams` (fields: {known})").format(
                known=", ".join(sorted(fields))))
    size = int(_amount(given, "size", source, "teams.size", whole=True, low=1))
    if size > MAX_TEAM:
        raise _fail(source, "teams.size", _("from 1 to {most}, not {value}").format(most=MAX_TEAM, value=size))
    most = made.get("cap") or max(made["win"], made["draw"], made["loss"])
    win = _amount(given, "win", source, "teams.win")
    draw = _amount(given, "draw", source, "teams.draw", default=float(win))
    if draw > win:
        raise _fail(source, "teams.draw", _("a draw needs at most what a win does ({win}), not {value}").format(
            win=number(win), value=number(draw)))
    if win > most * size:
        raise _fail(source, "teams.win", _("at most what {size} games score, {most}").format(
            size=size, most=number(most * size)))
    points = given.get("match_points", {"win": 2, "draw": 1, "loss": 0})
    if not isinstance(points, dict) or set(points) - {"win", "draw", "loss"}:
        raise _fail(source, "teams.match_points", _("an object with the match points of a `win`, `draw` and `loss`"))
    mp = tuple(int(_amount(points, k, source, f"teams.match_points.{k}", default=d, whole=True))
               for k, d in (("win", 2), ("draw", 1), ("loss", 0)))
    bye = _amount(given, "bye", source, "teams.bye", default=float(win))
    tiebreaks = given.get("tiebreaks", ["match_points", "score", "sos"])
    if not isinstance(tiebreaks, list) or not tiebreaks:
        raise _fail(source, "teams.tiebreaks", _("a list of tiebreaks from {known}").format(
            known=", ".join(TEAM_TIEBREAKS)))
    for i, tiebreak in enumerate(tiebreaks):
        if tiebreak not in TEAM_TIEBREAKS:
            raise _fail(source, f"teams.tiebreaks[{i}]", _("unknown tiebreak {value} (tiebreaks: {known})").format(
                value=json.dumps(tiebreak), known=", ".join(TEAM_TIEBREAKS)))
        if tiebreak in tiebreaks[:i]:
            raise _fail(source, f"teams.tiebreaks[{i}]", _("{value} is listed twice").format(
                value=json.dumps(tiebreak)))
    return TeamRules(size, win, draw, mp, bye, tuple(tiebreaks))  # type: ignore[arg-type]


def _margin(scoring: dict, source: str) -> dict:
    points = _amount(scoring, "points", source, "scoring.points", whole=True, low=1)
    cap = _amount(scoring, "cap", source, "scoring.cap")
    if "bands" in scoring and "band_width" in scoring:
        raise _fail(source, "scoring.bands", _("either `bands` or `band_width`, not both"))
    if "bands" in scoring:
        bands = _bands(scoring["bands"], cap, source)
    elif "band_width" in scoring:
        width = _amount(scoring, "band_width", source, "scoring.band_width", low=0)
        if width <= 0:
            raise _fail(source, "scoring.band_width", _("more than 0 %"))
        if cap % 2:
            raise _fail(source, "scoring.cap", _("an even number with `band_width` (a drawn game scores half of "
                                                 "it to each), not {value}").format(value=number(cap)))
        half, steps = cap / 2, int(cap / 2)
        bands = tuple(Band(width * k, width * (k + 1) if k < steps else None, half + k, half - k)
                      for k in range(steps + 1))
    else:
        raise _fail(source, "scoring.band_width", _("margin scoring needs a `band_width` or its `bands`"))
    return {"points": int(points), "cap": cap, "bands": bands, "win": cap, "draw": cap / 2, "loss": Fraction(0)}


def _bands(given: Any, cap: Fraction, source: str) -> tuple[Band, ...]:
    if not isinstance(given, list) or not given:
        raise _fail(source, "scoring.bands", _("a list of bands: {example}").format(
            example='{"from": 0, "to": 5, "winner": 10, "loser": 10}'))
    bands: list[Band] = []
    for i, band in enumerate(given):
        where = f"scoring.bands[{i}]"
        if not isinstance(band, dict) or set(band) - {"from", "to", "winner", "loser"}:
            raise _fail(source, where, _("a band is an object with `from`, `to`, `winner` and `loser`"))
        low = _amount(band, "from", source, f"{where}.from")
        last = i == len(given) - 1
        high = None if last and band.get("to") is None else _amount(band, "to", source, f"{where}.to")
        winner, loser = (_amount(band, k, source, f"{where}.{k}") for k in ("winner", "loser"))
        if high is not None and high <= low:
            raise _fail(source, f"{where}.to", _("a band ends after it begins ({low} %), not at {high} %").format(
                low=number(low), high=number(high)))
        if max(winner, loser) > cap:
            raise _fail(source, where, _("a game scores at most the cap, {cap}").format(cap=number(cap)))
        if winner < loser:
            raise _fail(source, f"{where}.winner", _("the winner scores at least what the loser does"))
        if i == 0 and low != 0:
            raise _fail(source, f"{where}.from", _("the first band begins at 0 %, not {low} %").format(low=number(low)))
        if bands:
            previous = bands[-1]
            if low < previous.high:  # type: ignore[operator]
                raise _fail(source, f"{where}.from", _("overlapping bands: band {n} begins at {low} %, before band "
                                                       "{m} ends at {high} %").format(
                    n=i, low=number(low), m=i - 1, high=number(previous.high)))
            if low > previous.high:  # type: ignore[operator]
                raise _fail(source, f"{where}.from", _("a gap between bands: band {m} ends at {high} %, band {n} "
                                                       "begins at {low} %").format(
                    n=i, low=number(low), m=i - 1, high=number(previous.high)))
        bands.append(Band(low, high, winner, loser))
    if bands[-1].high is not None:
        raise _fail(source, f"scoring.bands[{len(bands) - 1}].to", _("the last band has no end (every margin "
                                                                     "falls in a band)"))
    return tuple(bands)


def _timed(data: dict, source: str) -> dict:
    """The format's time: ``clock``, each game's clock as a header gives it (``{"seconds": 9000, "flag": "time"}``:
    each player's time, what follows a flag fall; domain.clock), and ``round_seconds``, a round's length."""
    out: dict[str, Any] = {}
    clock = data.get("clock")
    if clock is not None:
        if not isinstance(clock, dict) or set(clock) - {"seconds", "flag"} or "seconds" not in clock:
            raise _fail(source, "clock", _("an object such as {example}").format(example='{"seconds": 9000, "flag": "time"}'))
        seconds = clock["seconds"]
        if type(seconds) is not int or not 1 <= seconds <= MOST_SECONDS:
            raise _fail(source, "clock.seconds", _("each player's time in whole seconds, 1 to {most}, not {value}").format(
                most=MOST_SECONDS, value=json.dumps(seconds)))
        if clock.get("flag", "time") not in FLAGS:
            raise _fail(source, "clock.flag", _("one of {allowed}, not {value}").format(
                allowed=", ".join(FLAGS), value=json.dumps(clock.get("flag"))))
        out["clock"] = {"seconds": seconds, "flag": clock.get("flag", "time")}
    given = data.get("round_seconds")
    if given is not None:
        if type(given) is not int or not SHORTEST <= given <= LONGEST:
            raise _fail(source, "round_seconds", _("a round's length in whole seconds, {least} to {most}, not {value}")
                        .format(least=SHORTEST, most=LONGEST, value=json.dumps(given)))
        out["round_seconds"] = given
    end = data.get("round_end", "time")
    if end not in FLAGS:
        raise _fail(source, "round_end", _("one of {allowed}, not {value}").format(allowed=", ".join(FLAGS),
                                                                                 value=json.dumps(end)))
    out["round_end"] = end
    return out


def read_format(given: str, read_text=None) -> Format:
    """The format ``given``: a shipped format's name, else a file (its text read by ``read_text(path)``, the
    caller's: the domain reads no user file itself)."""
    if given in shipped() or read_text is None:
        return shipped_format(given)
    try:
        text = read_text(given)
    except FileNotFoundError:
        raise FormatError(_("no format '{name}' is shipped and there is no such file (formats: {known})").format(
            name=given, known=", ".join(shipped())), field="format") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise FormatError(_("{source}: cannot be read ({why})").format(source=given, why=exc)) from None
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise FormatError(_("{source}: not a JSON file ({why})").format(source=given, why=exc)) from None
    return parse(data, given)


# --- standings ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class GameResult:
    """One finished game between two players (names): their victory points, the winner (None: a draw) and the
    holder of the secondary objective (None: nobody, or the format has none)."""

    a: str
    b: str
    score_a: int
    score_b: int
    winner: str | None
    secondary: str | None = None
    round: int | None = None


@dataclass(frozen=True)
class Bonus:
    """Points given to (or, negative, taken from) a player in a round, with the reason."""

    player: str
    points: int
    reason: str
    round: int | None = None


@dataclass
class Standing:
    player: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    points: Fraction = Fraction(0)   # the total score: games, byes, bonuses and penalties
    bonus: Fraction = Fraction(0)    # of which bonuses and penalties
    vp_for: int = 0
    vp_against: int = 0
    sos: Fraction = Fraction(0)
    esos: Fraction = Fraction(0)
    head_to_head: Fraction = Fraction(0)
    draw: int = 0                    # the seeded random draw
    rank: int = 0
    opponents: list[str] = field(default_factory=list)
    against: list[tuple[str, Fraction]] = field(default_factory=list)  # (opponent, what this player scored)
    order: tuple[str, ...] = ("score", "vp_diff", "vp_for", "sos")

    @property
    def score(self) -> Fraction:
        return self.points

    @property
    def vp_diff(self) -> int:
        return self.vp_for - self.vp_against

    def value(self, tiebreak: str) -> Fraction | int:
        return {"score": self.points, "sos": self.sos, "esos": self.esos, "vp_diff": self.vp_diff,
                "vp_for": self.vp_for, "head_to_head": self.head_to_head, "random": self.draw}[tiebreak]

    @property
    def tiebreaks(self) -> list[tuple[str, Fraction | int]]:
        """Each tiebreak of the format, in its order, with this player's value."""
        return [(t, self.value(t)) for t in self.order]

    @property
    def key(self) -> tuple:
        """The tiebreaks' values in the format's order (higher is better)."""
        return tuple(self.value(t) for t in self.order)


def seeded_draw(seed: str, player: str) -> int:
    """A player's place in the seeded random draw (the same seed and name: the same draw, on any machine)."""
    return int.from_bytes(hashlib.sha256(f"{seed}\n{player}".encode()).digest()[:6], "big")


def standings(games: Iterable[GameResult], byes: Iterable[str] = (), players: Iterable[str] = (),
              points: dict | None = None, *, format: Format | None = None, bonuses: Iterable[Bonus] = (),
              seed: str = "") -> list[Standing]:
    """Every player's standing under ``format`` (the default: ``wins`` with ``points``), best first; players tied
    on every tiebreak share a rank (then by name)."""
    fmt = format or wins_format(points)
    table: dict[str, Standing] = {}

    def of(name: str) -> Standing:
        return table.setdefault(name, Standing(name, order=fmt.tiebreaks))

    for name in players:
        of(name)
    for g in games:
        winner = None if g.winner is None else 0 if g.winner == g.a else 1
        holder = None if g.secondary is None else 0 if g.secondary == g.a else 1 if g.secondary == g.b else None
        scores = fmt.game_scores(g.score_a, g.score_b, winner, holder)
        for side, (me, them, mine, theirs) in enumerate(((g.a, g.b, g.score_a, g.score_b),
                                                         (g.b, g.a, g.score_b, g.score_a))):
            s = of(me)
            outcome = "draw" if g.winner is None else "win" if g.winner == me else "loss"
            s.games += 1
            s.wins += outcome == "win"
            s.draws += outcome == "draw"
            s.losses += outcome == "loss"
            s.points += scores[side]
            s.vp_for += mine
            s.vp_against += theirs
            s.opponents.append(them)
            s.against.append((them, scores[side]))
    for name in byes:
        s = of(name)
        s.byes += 1
        s.points += fmt.bye
    for bonus in bonuses:
        s = of(bonus.player)
        s.points += bonus.points
        s.bonus += bonus.points
    for s in table.values():
        s.sos = sum((table[o].points for o in s.opponents), Fraction(0))
        s.draw = seeded_draw(seed, s.player)
    for s in table.values():
        s.esos = sum((table[o].sos for o in s.opponents), Fraction(0))
    ranked: list[Standing] = []
    for group in _refine(sorted(table.values(), key=lambda s: s.player), fmt.tiebreaks):
        rank = len(ranked) + 1
        for s in sorted(group, key=lambda s: s.player):
            s.rank = rank
            ranked.append(s)
    return ranked


def _refine(group: list[Standing], tiebreaks: Sequence[str]) -> list[list[Standing]]:
    """``group`` (players tied so far) split by the tiebreaks left, best first: groups tied on every one."""
    if not tiebreaks or len(group) == 1:
        return [group]
    tiebreak, rest = tiebreaks[0], tiebreaks[1:]
    if tiebreak == "head_to_head":
        names = {s.player for s in group}
        for s in group:
            s.head_to_head = sum((mine for them, mine in s.against if them in names and them != s.player), Fraction(0))
    values = sorted({s.value(tiebreak) for s in group}, reverse=True)
    out: list[list[Standing]] = []
    for value in values:
        out.extend(_refine([s for s in group if s.value(tiebreak) == value], rest))
    return out
