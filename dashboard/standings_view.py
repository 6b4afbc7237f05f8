"""The standings as a page shows them (decision 17: a view model, no Streamlit): the Standings page and the
players' page lay out the same view — the tournament's format in a line, a column per tiebreak in the format's
order, the bonuses and penalties with their reasons — as a grid on a wide window and as a compact table on a
phone."""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from domain.formats import Format, parse
from projections.tournaments import match_in_words
from domain.systems.presentation import title_words
from i18n import N_, _, ngettext

# each tiebreak (domain.formats.TIEBREAKS) -> its column's heading and what the heading's help says
TIEBREAK_COLUMNS = {"score": (N_("score"), N_("the format's total: games, byes, bonuses and penalties")),
                    "sos": (N_("SoS"), N_("strength of schedule: the opponents' scores")),
                    "esos": (N_("ESoS"), N_("extended strength of schedule: the opponents' strengths of schedule")),
                    "vp_diff": (N_("VP ±"), N_("victory points for minus against")),
                    "vp_for": (N_("VP for"), N_("victory points scored")),
                    "head_to_head": (N_("H2H"), N_("head-to-head: the score taken off the players tied with")),
                    "random": (N_("lot"), N_("the seeded random draw"))}
COMPACT_TIEBREAKS = 2  # a phone shows the score and the first tiebreaks after it


@dataclass
class StandingsView:
    """What a page shows of the standings: ``said`` (the format in a line), ``columns`` (key -> heading) and
    ``helps`` (heading -> help) of the grid and its ``frame``; ``head``, ``rows`` and ``numeric`` of the compact
    table; ``bonuses``: each bonus or penalty in words, best player first."""

    said: str
    frame: pd.DataFrame
    helps: dict[str, str]
    head: list[str]
    rows: list[list]
    numeric: list[str]
    bonuses: list[str] = field(default_factory=list)


def format_from(row: dict) -> Format:
    """A tournament's format from its row (projections.tournaments.format_rows)."""
    return parse(row["data"], row["format"])


def record(row: dict) -> str:
    """Wins–draws–losses, and the byes."""
    return f"{row['wins']}–{row['draws']}–{row['losses']}" + (
        " +" + ngettext("{n} bye", "{n} byes", row["byes"]).format(n=row["byes"]) if row.get("byes") else "")


def dropped(round_no) -> str:
    return _("dropped after round {round}").format(round=round_no) if round_no is not None else ""


def bonus_said(player: str, bonus: dict) -> str:
    said = _("{player}: +{points} in round {round} ({reason})") if bonus["points"] > 0 else \
        _("{player}: {points} in round {round} ({reason})")
    return said.format(player=player, points=bonus["points"], round=bonus["round"], reason=bonus["reason"])


def standings_view(rows: list[dict], fmt: Format) -> StandingsView:
    """The view of ``rows`` (projections.tournaments.standings) under the tournament's format."""
    order = list(fmt.tiebreaks)
    clubs, bonus, gone = (any(r.get(k) for r in rows) for k in ("club", "bonuses", "dropped_after_round"))
    columns = {"rank": "#", "player": _("player"), "faction": _("faction")}
    if clubs:
        columns["club"] = _("club")
    columns["record"] = _("W–D–L")
    columns.update({f"tb_{t}": _(TIEBREAK_COLUMNS[t][0]) for t in order})
    if bonus:
        columns["bonus"] = _("bonus")
    columns["vp"] = _("VP")
    if gone:
        columns["dropped"] = _("dropped")
    helps = {_(TIEBREAK_COLUMNS[t][0]): _(TIEBREAK_COLUMNS[t][1]) for t in order}
    helps.update({_("W–D–L"): _("wins, draws, losses (and byes)"), _("VP"): _("victory points for – against"),
                  **({_("bonus"): _("bonuses and penalties, in the score")} if bonus else {})})
    shown = []
    for r in rows:
        values = {f"tb_{t['name']}": t["value"] for t in r["tiebreaks"]}
        shown.append({"rank": r["rank"], "player": r["player"], "faction": title_words(r["faction"] or ""),
                      "club": r.get("club") or "", "record": record(r), **values, "bonus": r.get("bonus") or 0,
                      "vp": f"{r['vp_for']}–{r['vp_against']}",
                      "dropped": _("after round {round}").format(round=r["dropped_after_round"])
                      if r.get("dropped_after_round") is not None else ""})
    frame = pd.DataFrame([{label: s.get(k) for k, label in columns.items()} for s in shown],
                         columns=list(columns.values()))
    score, kept = _(TIEBREAK_COLUMNS["score"][0]), [t for t in order if t != "score"][:COMPACT_TIEBREAKS]
    head = ["#", _("player"), _("W–D–L"), score] + [_(TIEBREAK_COLUMNS[t][0]) for t in kept]
    compact = []
    for r, s in zip(rows, shown):
        under = " · ".join(x for x in (s["faction"], s["club"], dropped(r.get("dropped_after_round"))) if x)
        played = ngettext("{n} game", "{n} games", r["games"]).format(n=r["games"])
        score_cell = (r["score"], _("bonus {points:+}").format(points=r["bonus"])) if r.get("bonus") else r["score"]
        compact.append([r["rank"], (r["player"], under), (s["record"], played), score_cell,
                        *[s.get(f"tb_{t}") for t in kept]])
    said = [bonus_said(r["player"], b) for r in rows for b in r.get("bonuses") or ()]
    return StandingsView(fmt.said(), frame, helps, head, compact, ["#", score, *head[4:]], said)


# each team tiebreak (domain.formats.TEAM_TIEBREAKS) -> its column's heading and help
TEAM_TIEBREAK_COLUMNS = {"match_points": (N_("MP"), N_("match points: a won match, a drawn one")),
                         "score": (N_("score"), N_("the team's match totals summed")),
                         "sos": (N_("SoS"), N_("strength of schedule: the opponent teams' match points"))}


@dataclass
class TeamsView:
    """What a page shows of a team tournament's teams: the grid (``columns`` in its ``frame``, ``helps``), the
    compact table (``head``, ``rows``, ``numeric``) and each round's matches in words (``matches``: round -> lines)."""

    frame: pd.DataFrame
    helps: dict[str, str]
    head: list[str]
    rows: list[list]
    numeric: list[str]
    matches: dict[int, list[str]] = field(default_factory=dict)


def teams_view(rows: list[dict], matches: list[dict], fmt: Format) -> TeamsView:
    """The view of a team tournament's ``rows`` (projections.tournaments.team_standings) and ``matches``
    (projections.tournaments.team_matches) under its format."""
    order = list(fmt.teams.tiebreaks) if fmt.teams else ["match_points", "score", "sos"]
    columns = {"rank": "#", "team": _("team"), "record": _("W–D–L")}
    columns.update({f"tb_{t}": _(TEAM_TIEBREAK_COLUMNS[t][0]) for t in order})
    columns["players"] = _("players")
    helps = {_(TEAM_TIEBREAK_COLUMNS[t][0]): _(TEAM_TIEBREAK_COLUMNS[t][1]) for t in order}
    helps[_("W–D–L")] = _("matches won, drawn, lost (and byes)")
    shown = [{"rank": r["rank"], "team": r["team"], "record": record(r), "players": ", ".join(r["players"]),
              **{f"tb_{t['name']}": t["value"] for t in r["tiebreaks"]}} for r in rows]
    frame = pd.DataFrame([{label: s.get(k) for k, label in columns.items()} for s in shown],
                         columns=list(columns.values()))
    head = ["#", _("team")] + [_(TEAM_TIEBREAK_COLUMNS[t][0]) for t in order[:2]]  # a phone: the record under the team
    compact = [[s["rank"], (s["team"], f"{s['record']} · {s['players']}"), *[s.get(f"tb_{t}") for t in order[:2]]]
               for s in shown]
    said: dict[int, list[str]] = {}
    for m in matches:
        said.setdefault(m["round"], []).append(match_in_words(m))
    return TeamsView(frame, helps, head, compact, ["#", *head[2:]], said)
