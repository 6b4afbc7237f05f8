"""The Standings page's players, as view models (pure: no Streamlit): the registered players' table, the preview
of a players' list before it registers (who, faction, club, check-in, which columns are ignored, which rows would
be refused and why), and the round the next pairing is for."""

from __future__ import annotations

from dataclasses import dataclass

from domain.player_lists import PlayerList, columns_said
from domain.systems.presentation import title_words
from domain.tournaments import Registered
from i18n import N_, _, ngettext

# a table's columns: key -> the header a person reads (said with _())
PLAYER_COLUMNS = {"registration": "#", "player": N_("player"), "faction": N_("faction"), "club": N_("club"),
                  "checked_in": N_("checked in"), "dropped": N_("dropped")}
PREVIEW_COLUMNS = {"line": N_("line"), "player": N_("player"), "faction": N_("faction"), "club": N_("club"),
                   "checked_in": N_("checked in"), "outcome": N_("registering")}


def headers(columns: dict[str, str]) -> dict[str, str]:
    return {key: label if label == "#" else _(label) for key, label in columns.items()}


def yes_no(value: bool) -> str:
    return _("yes") if value else _("no")


COMPACT_ROWS = 300  # rows a phone's compact table shows (the grid of a wider window shows them all)


def faction_words(faction: str | None) -> str:
    """A faction as a person reads it: an id in words (``dread_elves``: Dread Elves), a name as it is written."""
    if not faction:
        return ""
    return title_words(faction) if faction == faction.lower() else faction


def players_rows(players: list[dict]) -> list[dict]:
    """The registered players (projections.tournaments.players), as the table shows them."""
    return [{"registration": p["registration"], "player": p["player"],
             "faction": faction_words(p.get("faction")), "club": p.get("club") or "",
             "checked_in": yes_no(p.get("checked_in")),
             "dropped": _("after round {round}").format(round=p["dropped_after_round"])
             if p.get("dropped_after_round") is not None else ""} for p in players]


def players_said(players: list[dict]) -> str:
    active = sum(1 for p in players if p.get("dropped_after_round") is None)
    checked = sum(1 for p in players if p.get("checked_in") and p.get("dropped_after_round") is None)
    said = (ngettext("{n} player registered, {active} still in.", "{n} players registered, {active} still in.",
                     len(players)) if active != len(players) else
            ngettext("{n} player registered.", "{n} players registered.", len(players))).format(
        n=len(players), active=active)
    return said + (" " + ngettext("{n} checked in (only they are paired).", "{n} checked in (only they are paired).",
                                  checked).format(n=checked) if checked else "")


@dataclass(frozen=True)
class ListPreview:
    """What registering an uploaded list would do: how it was read, in one line (``read``) and in a sentence
    (``summary``), a row per line of the list (``rows``: PREVIEW_COLUMNS), and the register button's label, or
    None when registering it would change nothing."""

    read: str
    summary: str
    rows: list[dict]
    button: str | None
    refused: int


def list_preview(listed: PlayerList, plan: Registered) -> ListPreview:
    """The preview of ``listed`` against the tournament as it is (``plan``: domain.tournaments.Tournament.plan)."""
    new = {r["player"].casefold() for r in plan.registered}
    checking = {p.casefold() for p in plan.checked_in}
    rows = []
    for entry in listed.entries:
        key = entry.player.casefold()
        outcome = _("new") if key in new else _("already registered, checks in now") if key in checking else \
            _("already registered")
        rows.append({"line": entry.line, "player": entry.player, "faction": faction_words(entry.faction),
                     "club": entry.club or "", "checked_in": yes_no(entry.checked_in), "outcome": outcome})
    rows += [{"line": r.line, "player": r.row, "faction": "", "club": "", "checked_in": "",
              "outcome": _("refused: {why}").format(why=r.why)} for r in listed.refused]  # (the row as it reads)
    rows.sort(key=lambda r: r["line"] or 0)
    parts = [ngettext("{n} new player", "{n} new players", len(plan.registered)).format(n=len(plan.registered))]
    if plan.already:
        parts.append(ngettext("{n} already registered (left as they are)", "{n} already registered (left as they are)",
                              len(plan.already)).format(n=len(plan.already)))
    if plan.checked_in:
        parts.append(ngettext("{n} of them checks in", "{n} of them check in", len(plan.checked_in)).format(
            n=len(plan.checked_in)))
    if listed.refused:
        parts.append(ngettext("{n} row refused (not registered)", "{n} rows refused (not registered)",
                              len(listed.refused)).format(n=len(listed.refused)))
    button = None
    if plan.registered:
        button = ngettext("Register {n} player", "Register {n} players", len(plan.registered)).format(
            n=len(plan.registered))
    elif plan.checked_in:
        button = ngettext("Check in {n} player", "Check in {n} players", len(plan.checked_in)).format(
            n=len(plan.checked_in))
    return ListPreview(columns_said(listed), "; ".join(parts) + ".", rows, button, len(listed.refused))


def compact_players(rows: list[dict]) -> tuple[list[str], list[list], list[str]]:
    """The registered players on a phone (rows of :func:`players_rows`): the faction under the name, the club, the
    check-in (and a drop) in one column; the first COMPACT_ROWS."""
    return (["#", _("player"), _("club"), _("checked in")],
            [[r["registration"], (r["player"], r["faction"]), r["club"],
              (r["checked_in"], r["dropped"]) if r["dropped"] else r["checked_in"]] for r in rows[:COMPACT_ROWS]],
            ["#"])


def compact_preview(rows: list[dict]) -> tuple[list[str], list[list], list[str]]:
    """A list's preview on a phone (ListPreview.rows): the faction and club under the name, what registering does."""
    return ([_("line"), _("player"), _("registering")],
            [[r["line"], (r["player"], " · ".join(x for x in (r["faction"], r["club"]) if x)), r["outcome"]]
             for r in rows[:COMPACT_ROWS]], [_("line")])


def next_round(tournament: dict) -> int:
    """The round the Pair button offers (a row of projections.tournaments.list_tournaments): the last round while
    its results are still coming in (it may be paired again until its first event), else the one after it."""
    last = tournament.get("last_round") or 0
    unfinished = last and (tournament.get("last_round_results") or 0) < (tournament.get("last_round_games") or 0)
    return last if unfinished else last + 1
