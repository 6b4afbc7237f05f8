"""Pairings and standings for the players: read-only, no key, nothing else of the store. Deep link:
/public?tournament=NAME (&round=R for an earlier round's pairings). Every round shows, paired here or with games
that came in otherwise (imported, recorded elsewhere). Both tables download as CSV, names a spreadsheet would
run written as text."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from dashboard import compact, safe, viewer
from dashboard.tournament_ui import query, tournament_picker, tournaments_or_stop
from domain.systems.presentation import plural, title_words
from projections.tournaments import PAIRINGS_CSV, STANDINGS_CSV, csv_text

ROUND = "round"
PAIRING_COLUMNS = {"table_no": "table", "player": "player", "faction": "faction", "opponent": "opponent",
                   "opponent_faction": "opponent's faction", "score": "VP", "opponent_score": "opponent's VP",
                   "result": "result"}
STANDING_COLUMNS = {"rank": "#", "player": "player", "faction": "faction", "club": "club", "games": "games",
                    "wins": "W", "draws": "D", "losses": "L", "byes": "byes", "tournament_points": "TP",
                    "vp_diff": "VP ±", "vp_for": "VP for", "sos": "SoS", "dropped": "dropped"}
WIDE = 1100  # px: a narrower window shows the compact tables (the grids' many columns would not fit)
RESULTS = {"W": "won", "D": "draw", "L": "lost", "B": "bye", None: "playing"}


def pairings_frame(rows: list[dict]) -> pd.DataFrame:
    shown = [{**r, "table_no": "bye" if r["game"] is None else str(r["table_no"] or ""),
              "opponent": r["opponent"] or "", "opponent_faction": r["opponent_faction"] or "",
              "result": RESULTS[r["result"]]} for r in rows]
    return pd.DataFrame([{label: r[k] for k, label in PAIRING_COLUMNS.items()} for r in shown],
                        columns=list(PAIRING_COLUMNS.values()))


def standings_frame(rows: list[dict]) -> pd.DataFrame:
    shown = [{**r, "club": r.get("club") or "", "dropped": f"after round {r['dropped_after_round']}"
              if r.get("dropped_after_round") is not None else ""} for r in rows]
    return pd.DataFrame([{label: r.get(k) for k, label in STANDING_COLUMNS.items()} for r in shown],
                        columns=list(STANDING_COLUMNS.values()))


def compact_pairings(rows: list[dict]) -> tuple[list[str], list[list], list[str]]:
    """A round's pairings on a phone: each player with the faction under the name."""
    return (["table", "player", "opponent", "VP"],
            [[r["table_no"] if r["table_no"] is not None else "bye", (r["player"], title_words(r["faction"] or "")),
              (r["opponent"] or "", title_words(r["opponent_faction"] or "")),
              (f"{r['score']}–{r['opponent_score']}" if r["score"] is not None else "", RESULTS[r["result"]])]
             for r in rows], ["table", "VP"])


def compact_standings(rows: list[dict]) -> tuple[list[str], list[list], list[str]]:
    """The standings on a phone: the faction and club under the player, the games under W–D–L, VP for under
    the difference."""
    out = []
    for r in rows:
        under = " · ".join(x for x in (title_words(r["faction"] or ""), r.get("club") or "",
                                       f"dropped after round {r['dropped_after_round']}"
                                       if r.get("dropped_after_round") is not None else "") if x)
        record = f"{r['wins']}–{r['draws']}–{r['losses']}"
        out.append([r["rank"], (r["player"], under), (record, f"{plural(r['games'], 'game')}"
                                                      + (f", {plural(r['byes'], 'bye')}" if r.get("byes") else "")),
                    r["tournament_points"], (r["vp_diff"], f"for {r['vp_for']}"), r["sos"]])
    return ["#", "player", "W–D–L", "TP", "VP ±", "SoS"], out, ["#", "TP", "VP ±", "SoS"]


def round_picker(rounds: list[int]) -> int:
    """Round selectbox bound to the URL parameter ``round``; the last round paired unless the link names one."""
    if st.session_state.get(ROUND) not in rounds and st.query_params.get(ROUND) not in [str(r) for r in rounds]:
        st.session_state[ROUND] = rounds[-1]
    return st.selectbox("Round", rounds, key=ROUND, bind="query-params")


seen = viewer.seen()
tournaments = tournaments_or_stop(seen)
name = tournament_picker([t["tournament"] for t in tournaments])
st.title(safe.md(safe.line(name)))

st.subheader("Pairings")
last = query("pairings", name, None, seen=seen)
if not last:
    st.caption("No round paired yet.")
else:
    number = round_picker(list(range(1, last[0]["round"] + 1)))
    pairing = query("pairings", name, number, seen=seen)
    viewer.note_delay(seen, [r["game"] for r in pairing if r["game"]])
    compact.table("pairings", lambda: st.dataframe(pairings_frame(pairing), hide_index=True, width="stretch",
                                                   key="pairings_table"), *compact_pairings(pairing),
                  below=WIDE)
    st.download_button("Pairings (CSV)", csv_text(pairing, PAIRINGS_CSV), f"{name} round {number} pairings.csv",
                       mime="text/csv", icon=":material/download:", key="pairings_csv")

st.subheader("Standings")
standing = query("standings", name, seen=seen)
if not standing:
    st.caption("No results yet.")
else:
    compact.table("public-standings", lambda: st.dataframe(standings_frame(standing), hide_index=True,
                                                           width="stretch", key="public_standings"),
                  *compact_standings(standing), below=WIDE)
    st.download_button("Standings (CSV)", csv_text(standing, STANDINGS_CSV), f"{name} standings.csv",
                       mime="text/csv", icon=":material/download:", key="standings_csv")
st.caption("Ranked by tournament points, then VP difference, VP for and strength of schedule (SoS: the "
           "opponents' tournament points).")
