"""Pairings and standings for the players: read-only, no key, nothing else of the store. Deep link:
/public?tournament=NAME (&round=R for an earlier round's pairings). Every round shows, paired here or with games
that came in otherwise (imported, recorded elsewhere). Both tables download as CSV, names a spreadsheet would
run written as text."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from dashboard import compact, safe, viewer
from dashboard.tournament_ui import query, tournament_picker, tournaments_or_stop
from domain.systems.presentation import title_words
from i18n import N_, _, ngettext
from projections.tournaments import PAIRINGS_CSV, STANDINGS_CSV, csv_text

ROUND = "round"
# the tables' columns: read-model field -> the header a person reads (in the page's language where shown; the
# CSV downloads keep their own column names)
PAIRING_COLUMNS = {"table_no": N_("table"), "player": N_("player"), "faction": N_("faction"),
                   "opponent": N_("opponent"), "opponent_faction": N_("opponent's faction"), "score": N_("VP"),
                   "opponent_score": N_("opponent's VP"), "result": N_("result")}
STANDING_COLUMNS = {"rank": "#", "player": N_("player"), "faction": N_("faction"), "club": N_("club"),
                    "games": N_("games"), "wins": N_("W"), "draws": N_("D"), "losses": N_("L"), "byes": N_("byes"),
                    "tournament_points": N_("TP"), "vp_diff": N_("VP ±"), "vp_for": N_("VP for"), "sos": N_("SoS"),
                    "dropped": N_("dropped")}
WIDE = 1100  # px: a narrower window shows the compact tables (the grids' many columns would not fit)
RESULTS = {"W": N_("won"), "D": N_("draw"), "L": N_("lost"), "B": N_("bye"), None: N_("playing")}


def headers(columns: dict[str, str]) -> dict[str, str]:
    """The columns' headers in the page's language (``#`` stays as it is)."""
    return {key: label if label == "#" else _(label) for key, label in columns.items()}


def dropped(round_no) -> str:
    return _("dropped after round {round}").format(round=round_no) if round_no is not None else ""


def pairings_frame(rows: list[dict]) -> pd.DataFrame:
    shown = [{**r, "table_no": _("bye") if r["game"] is None else str(r["table_no"] or ""),
              "opponent": r["opponent"] or "", "opponent_faction": r["opponent_faction"] or "",
              "result": _(RESULTS[r["result"]])} for r in rows]
    columns = headers(PAIRING_COLUMNS)
    return pd.DataFrame([{label: r[k] for k, label in columns.items()} for r in shown],
                        columns=list(columns.values()))


def standings_frame(rows: list[dict]) -> pd.DataFrame:
    shown = [{**r, "club": r.get("club") or "", "dropped": _("after round {round}").format(
        round=r["dropped_after_round"]) if r.get("dropped_after_round") is not None else ""} for r in rows]
    columns = headers(STANDING_COLUMNS)
    return pd.DataFrame([{label: r.get(k) for k, label in columns.items()} for r in shown],
                        columns=list(columns.values()))


def compact_pairings(rows: list[dict]) -> tuple[list[str], list[list], list[str]]:
    """A round's pairings on a phone: each player with the faction under the name."""
    table, vp = _("table"), _("VP")
    return ([table, _("player"), _("opponent"), vp],
            [[r["table_no"] if r["table_no"] is not None else _("bye"), (r["player"], title_words(r["faction"] or "")),
              (r["opponent"] or "", title_words(r["opponent_faction"] or "")),
              (f"{r['score']}–{r['opponent_score']}" if r["score"] is not None else "", _(RESULTS[r["result"]]))]
             for r in rows], [table, vp])


def compact_standings(rows: list[dict]) -> tuple[list[str], list[list], list[str]]:
    """The standings on a phone: the faction and club under the player, the games under W–D–L, VP for under
    the difference."""
    out = []
    for r in rows:
        under = " · ".join(x for x in (title_words(r["faction"] or ""), r.get("club") or "",
                                       dropped(r.get("dropped_after_round"))) if x)
        record = f"{r['wins']}–{r['draws']}–{r['losses']}"
        played = ngettext("{n} game", "{n} games", r["games"]).format(n=r["games"]) + (
            ", " + ngettext("{n} bye", "{n} byes", r["byes"]).format(n=r["byes"]) if r.get("byes") else "")
        out.append([r["rank"], (r["player"], under), (record, played),
                    r["tournament_points"], (r["vp_diff"], _("for {vp}").format(vp=r["vp_for"])), r["sos"]])
    tp, diff, sos = _("TP"), _("VP ±"), _("SoS")
    return ["#", _("player"), _("W–D–L"), tp, diff, sos], out, ["#", tp, diff, sos]


def round_picker(rounds: list[int]) -> int:
    """Round selectbox bound to the URL parameter ``round``; the last round paired unless the link names one."""
    if st.session_state.get(ROUND) not in rounds and st.query_params.get(ROUND) not in [str(r) for r in rounds]:
        st.session_state[ROUND] = rounds[-1]
    return st.selectbox(_("Round"), rounds, key=ROUND, bind="query-params")


seen = viewer.seen()
tournaments = tournaments_or_stop(seen)
name = tournament_picker([t["tournament"] for t in tournaments])
st.title(safe.md(safe.line(name)))

st.subheader(_("Pairings"))
last = query("pairings", name, None, seen=seen)
if not last:
    st.caption(_("No round paired yet."))
else:
    number = round_picker(list(range(1, last[0]["round"] + 1)))
    pairing = query("pairings", name, number, seen=seen)
    viewer.note_delay(seen, [r["game"] for r in pairing if r["game"]])
    compact.table("pairings", lambda: st.dataframe(pairings_frame(pairing), hide_index=True, width="stretch",
                                                   key="pairings_table"), *compact_pairings(pairing),
                  below=WIDE)
    st.download_button(_("Pairings (CSV)"), csv_text(pairing, PAIRINGS_CSV),
                       _("{tournament} round {round} pairings.csv").format(tournament=name, round=number),
                       mime="text/csv", icon=":material/download:", key="pairings_csv")

st.subheader(_("Standings"))
standing = query("standings", name, seen=seen)
if not standing:
    st.caption(_("No results yet."))
else:
    compact.table("public-standings", lambda: st.dataframe(standings_frame(standing), hide_index=True,
                                                           width="stretch", key="public_standings"),
                  *compact_standings(standing), below=WIDE)
    st.download_button(_("Standings (CSV)"), csv_text(standing, STANDINGS_CSV),
                       _("{tournament} standings.csv").format(tournament=name),
                       mime="text/csv", icon=":material/download:", key="standings_csv")
st.caption(_("Ranked by tournament points, then VP difference, VP for and strength of schedule (SoS: the "
             "opponents' tournament points)."))
