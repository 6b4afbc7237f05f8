"""Pairings and standings for the players: read-only, no key, nothing else of the store. Deep link:
/public?tournament=NAME (&round=R for an earlier round's pairings). Every round shows, paired here or with games
that came in otherwise (imported, recorded elsewhere). Both tables download as CSV, names a spreadsheet would
run written as text."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from dashboard import compact, safe, viewer
from dashboard.standings_view import format_from, standings_view, teams_view
from dashboard.tournament_ui import query, tournament_picker, tournaments_or_stop
from domain.systems.presentation import title_words
from i18n import N_, _
from projections.tournaments import PAIRINGS_CSV, STANDINGS_CSV, csv_text

ROUND = "round"
# the tables' columns: read-model field -> the header a person reads (in the page's language where shown; the
# CSV downloads keep their own column names)
PAIRING_COLUMNS = {"table_no": N_("table"), "player": N_("player"), "faction": N_("faction"),
                   "opponent": N_("opponent"), "opponent_faction": N_("opponent's faction"), "score": N_("VP"),
                   "opponent_score": N_("opponent's VP"), "result": N_("result")}
WIDE = 1100  # px: a narrower window shows the compact tables (the grids' many columns would not fit)
RESULTS = {"W": N_("won"), "D": N_("draw"), "L": N_("lost"), "B": N_("bye"), None: N_("playing")}


def headers(columns: dict[str, str]) -> dict[str, str]:
    """The columns' headers in the page's language (``#`` stays as it is)."""
    return {key: label if label == "#" else _(label) for key, label in columns.items()}


def result_words(row: dict) -> str:
    """A table's result as the player in seat 1 reads it ("won"; "won at time" when time was called)."""
    said = _(RESULTS[row["result"]])
    return _("{result}, at time").format(result=said) if row.get("ended_at_time") else said


def pairings_frame(rows: list[dict]) -> pd.DataFrame:
    shown = [{**r, "table_no": _("bye") if r["game"] is None else str(r["table_no"] or ""),
              "opponent": r["opponent"] or "", "opponent_faction": r["opponent_faction"] or "",
              "result": result_words(r)} for r in rows]
    columns = headers(PAIRING_COLUMNS)
    return pd.DataFrame([{label: r[k] for k, label in columns.items()} for r in shown],
                        columns=list(columns.values()))


def compact_pairings(rows: list[dict]) -> tuple[list[str], list[list], list[str]]:
    """A round's pairings on a phone: each player with the faction under the name."""
    table, vp = _("table"), _("VP")
    return ([table, _("player"), _("opponent"), vp],
            [[r["table_no"] if r["table_no"] is not None else _("bye"), (r["player"], title_words(r["faction"] or "")),
              (r["opponent"] or "", title_words(r["opponent_faction"] or "")),
              (f"{r['score']}–{r['opponent_score']}" if r["score"] is not None else "", result_words(r))]
             for r in rows], [table, vp])


def round_picker(rounds: list[int]) -> int:
    """Round selectbox bound to the URL parameter ``round``; the last round paired unless the link names one."""
    if st.session_state.get(ROUND) not in rounds and st.query_params.get(ROUND) not in [str(r) for r in rounds]:
        st.session_state[ROUND] = rounds[-1]
    return st.selectbox(_("Round"), rounds, key=ROUND, bind="query-params")


seen = viewer.seen()
tournaments = tournaments_or_stop(seen)
name = tournament_picker([t["tournament"] for t in tournaments])
st.title(safe.md(safe.line(name)))

fmt = format_from(query("format_rows", name)[0])
teams = teams_view(query("team_standings", name, seen=seen), query("team_matches", name, seen=seen), fmt) \
    if fmt.teams is not None else None

st.subheader(_("Pairings"))
last = query("pairings", name, None, seen=seen)
if not last:
    st.caption(_("No round paired yet."))
else:
    number = round_picker(list(range(1, last[0]["round"] + 1)))
    pairing = query("pairings", name, number, seen=seen)
    viewer.note_delay(seen, [r["game"] for r in pairing if r["game"]])
    for line in (teams.matches.get(number, []) if teams else []):  # a team round: its matches' totals so far
        st.markdown(safe.md(line))
    compact.table("pairings", lambda: st.dataframe(pairings_frame(pairing), hide_index=True, width="stretch",
                                                   key="pairings_table"), *compact_pairings(pairing),
                  below=WIDE)
    st.download_button(_("Pairings (CSV)"), csv_text(pairing, PAIRINGS_CSV),
                       _("{tournament} round {round} pairings.csv").format(tournament=name, round=number),
                       mime="text/csv", icon=":material/download:", key="pairings_csv")

if teams is not None and teams.rows:
    st.subheader(_("Teams"))
    compact.table("public-teams", lambda: st.dataframe(
        teams.frame, hide_index=True, width="stretch", key="public_teams",
        column_config={label: st.column_config.Column(label, help=teams.helps.get(label))
                       for label in teams.frame.columns}), teams.head, teams.rows, teams.numeric, below=WIDE)

st.subheader(_("Standings"))
standing = query("standings", name, seen=seen)
if not standing:
    st.caption(_("No results yet."))
else:
    view = standings_view(standing, fmt)
    compact.table("public-standings", lambda: st.dataframe(
        view.frame, hide_index=True, width="stretch", key="public_standings",
        column_config={label: st.column_config.Column(label, help=view.helps.get(label)) for label in view.frame.columns}),
        view.head, view.rows, view.numeric, below=WIDE)
    for said in view.bonuses:
        st.caption(safe.md(said))
    st.download_button(_("Standings (CSV)"), csv_text(standing, STANDINGS_CSV),
                       _("{tournament} standings.csv").format(tournament=name),
                       mime="text/csv", icon=":material/download:", key="standings_csv")
    st.caption(safe.md(view.said))
