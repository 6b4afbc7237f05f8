"""Standings: a tournament's standings, the points race and the results of each round, every game
linked to its replay; an organiser registers players (a CSV list, or everyone who played its games), pairs the
next round after the rounds played and prints the table cards here. Deep link: /standings?tournament=NAME."""

from __future__ import annotations

from urllib.parse import quote

import pandas as pd
import plotly.express as px
import streamlit as st

from dashboard import compact, safe, session, viewer
from dashboard.games_table import replay_link
from dashboard.tournament_ui import (REGISTERED, base_url, pair_round, query, register_from_games, register_players,
                                     show_message, tournament_picker, tournaments_or_stop)
from domain.tournaments import MAX_REGISTRATION_BYTES
from i18n import N_, _, ngettext
from projections.cards import cards_html
RESULT_COLUMNS = {"table_no": "table", "player": "player", "score": "VP", "opponent": "opponent", "result": "result",
                  "replay": "replay"}  # each player's faction is in the standings above
CHART_PLAYERS = 12  # the points race shows the leaders only
RESULT_WORDS = {"W": N_("W"), "D": N_("D"), "L": N_("L")}  # a result's letter in the page's language
FACTION_FIELDS = ("faction", "opponent_faction")
# as many clearly different colours as the chart has players (one per player, never shared)
RACE_COLOURS = tuple(dict.fromkeys(px.colors.qualitative.Dark24 + px.colors.qualitative.Light24))
NARROW_CSS = """<style>
.st-key-standings-cols [data-testid="stHorizontalBlock"]{flex-wrap:wrap}
.st-key-standings-cols [data-testid="stColumn"]{min-width:min(100%,430px)}
</style>"""


def narrow_columns() -> dict:
    """The standings' figures in narrow columns, so that the whole table shows at 820 px; headers in the page's
    language (the frame's columns keep their names)."""
    return {"#": st.column_config.NumberColumn("#", width=28),
            "player": st.column_config.TextColumn(_("player"), width=112),
            "faction": st.column_config.TextColumn(_("faction"), width=96),
            "TP": st.column_config.NumberColumn(_("TP"), width=34, help=_("tournament points")),
            "VP": st.column_config.TextColumn(_("VP"), width=58, help=_("victory points for – against")),
            "VP ±": st.column_config.NumberColumn(_("VP ±"), width=44),
            "SoS": st.column_config.NumberColumn(_("SoS"), width=40, help=_("strength of schedule")),
            "W–D–L": st.column_config.TextColumn(_("W–D–L"), width=70, help=_("wins, draws, losses (and byes)"))}


def in_words(row: dict) -> dict:
    """Factions in words ("Dread Elves", not ``dread_elves``)."""
    from domain.systems.presentation import title_words

    return {k: title_words(v) if k in FACTION_FIELDS and v else v for k, v in row.items()}


def standings_frame(rows: list[dict]) -> pd.DataFrame:
    """The standings, compact enough to show whole on a tablet (820 px): W–D–L (and byes; the games played)
    in one column, VP for and against in another."""
    out = []
    for row in rows:
        row = in_words(row)
        record = f"{row['wins']}–{row['draws']}–{row['losses']}" + (
            " +" + ngettext("{n} bye", "{n} byes", row["byes"]).format(n=row["byes"]) if row.get("byes") else "")
        out.append({"#": row["rank"], "player": row["player"], "faction": row["faction"], "W–D–L": record, "TP": row["tournament_points"], "VP": f"{row['vp_for']}–{row['vp_against']}",
                    "VP ±": row["vp_diff"], "SoS": row["sos"]})
    return pd.DataFrame(out, columns=["#", "player", "faction", "W–D–L", "TP", "VP", "VP ±", "SoS"])


def compact_standings(rows: list[dict]) -> tuple[list[str], list[list], list[str]]:
    """The standings on a phone: the faction under the player, VP for–against under the difference."""
    out = []
    for row in rows:
        row = in_words(row)
        record = f"{row['wins']}–{row['draws']}–{row['losses']}" + (
            " +" + _("{n}B").format(n=row["byes"]) if row.get("byes") else "")
        out.append([row["rank"], (row["player"], row["faction"]), record, row["tournament_points"],
                    (row["vp_diff"], f"{row['vp_for']}–{row['vp_against']}"), row["sos"]])
    tp, diff, sos = _("TP"), _("VP ±"), _("SoS")
    return ["#", _("player"), _("W–D–L"), tp, diff, sos], out, ["#", tp, diff, sos]


def compact_results(rows: list[dict]) -> tuple[list[str], list[list], list[str]]:
    """A round's results on a phone: the opponent under the player, the result a link to the replay."""
    shown = [shown_result(row) for row in rows]
    table, vp = _("table"), _("VP")
    return ([table, _("player"), vp, _("result")],
            [[r["table_no"], (r["player"], _("vs {opponent}").format(opponent=r["opponent"]) if r["opponent"] else ""),
              r["score"], compact.Link(f"{r['result']} ▶", r["replay"]) if r["replay"] else r["result"]]
             for r in shown],
            [table, vp])


def results_grid(rows: list[dict], number: int) -> None:
    st.dataframe(results_frame(rows), hide_index=True, width="stretch",
                 column_config={"replay": st.column_config.LinkColumn(_("replay"), display_text=_("▶ replay"),
                                                                      width=76),
                                "table": st.column_config.NumberColumn(_("table"), width=46),
                                "player": st.column_config.TextColumn(_("player"), width=124),
                                "VP": st.column_config.TextColumn(_("VP"), width=52,
                                                                  help=_("victory points for – against")),
                                "opponent": st.column_config.TextColumn(_("opponent"), width=124),
                                "result": st.column_config.TextColumn(_("result"), width=58)},
                 key=f"results_round_{number}")


def shown_result(row: dict) -> dict:
    """A row of a round's results as shown: factions in words, the replay's link, the result and score."""
    return {**in_words(row), "replay": replay_link(row["game"]) if row["game"] else None,
            "result": _("bye") if row["result"] == "B" else _(RESULT_WORDS.get(row["result"], row["result"])) if row["result"] else _("playing"),
            "score": None if row.get("score") is None else f"{row['score']}–{row.get('opponent_score')}"}


def results_frame(rows: list[dict]) -> pd.DataFrame:
    frame = [{label: shown[key] for key, label in RESULT_COLUMNS.items()} for shown in map(shown_result, rows)]
    return pd.DataFrame(frame, columns=list(RESULT_COLUMNS.values()))


def points_race(rows: list[dict], leaders: list[str]):
    frame = pd.DataFrame([{**r, "player": safe.label(r["player"])} for r in rows if r["player"] in leaders],
                         columns=["round", "player", "tournament_points"])
    figure = px.line(frame, x="round", y="tournament_points", color="player", markers=True,
                     category_orders={"player": [safe.label(p) for p in leaders]},
                     labels={"tournament_points": _("tournament points"), "round": _("round"), "player": _("player")},
                     color_discrete_sequence=RACE_COLOURS)
    figure.update_layout(height=340, margin={"l": 10, "r": 10, "t": 10, "b": 10}, xaxis={"dtick": 1})
    return figure


st.title(_("Standings"))
seen = viewer.seen()
tournaments = tournaments_or_stop(seen)

name = tournament_picker([t["tournament"] for t in tournaments])
info = next(t for t in tournaments if t["tournament"] == name)
standing = query("standings", name, seen=seen)
played_rounds = info["rounds_played"] or 0
rounds_said = (ngettext("{n} of {planned} round played", "{n} of {planned} rounds played", info["planned_rounds"])
               if info["planned_rounds"] else
               ngettext("{n} round played", "{n} rounds played", played_rounds)).format(
    n=played_rounds, planned=info["planned_rounds"])
origin = "" if info["created"] else " · " + _("named by its games only")
st.caption(" · ".join((info["system"], ngettext("{n} game", "{n} games", info["games"]).format(n=info["games"]),
                       rounds_said + origin,
                       _("points: win {win}, draw {draw}, loss {loss}, bye {bye}").format(
                           win=info["win_points"], draw=info["draw_points"], loss=info["loss_points"],
                           bye=info["bye_points"]),
                       _("ties broken by VP difference, VP for, then strength of schedule (the opponents' "
                         "tournament points)"))))

st.html(NARROW_CSS)
left, right = st.container(key="standings-cols").columns([1.4, 1], gap="medium")
with left:
    st.subheader(_("Standings"))
    compact.table("standings", lambda: st.dataframe(standings_frame(standing), hide_index=True, width="stretch",
                                                    key="standings_table", column_config=narrow_columns()),
                  *compact_standings(standing))
with right:
    st.subheader(_("Points race"))
    race = query("progress", name, seen=seen)
    if race:
        leaders = [row["player"] for row in standing[:CHART_PLAYERS]]
        st.plotly_chart(points_race(race, leaders), key="points_race")
    else:
        st.caption(_("No finished game yet."))

st.subheader(_("Results"))
results = query("results", name, None, seen=seen)
viewer.note_delay(seen, [r["game"] for r in results if r["game"]])
rounds = sorted({r["round"] for r in results if r["round"] is not None})
if not rounds:
    st.caption(_("No games yet."))
for tab, number in zip(st.tabs([_("Round {number}").format(number=r) for r in rounds]) if rounds else [], rounds):
    with tab:
        shown = [r for r in results if r["round"] == number]
        compact.table(f"results-{number}", lambda shown=shown, number=number: results_grid(shown, number),
                      *compact_results(shown))

last = query("pairings", name, None)  # the last round: paired here, or its games came in otherwise
played = max(info["rounds_played"] or 0, last[0]["round"] if last else 0)
if info["created"]:
    st.subheader(_("Players"))
    registered = query("players", name)
    active = [p for p in registered if p["dropped_after_round"] is None]
    st.caption((ngettext("{n} player registered, {active} still in.", "{n} players registered, {active} still in.",
                         len(registered)) if len(active) != len(registered) else
                ngettext("{n} player registered.", "{n} players registered.", len(registered))).format(
        n=len(registered), active=len(active)))
    if not registered and info["games"]:
        st.info(_("Nobody is registered yet, so nobody can be paired: register the players of its games, or upload "
                  "the players' list."), icon=":material/group_add:")
    if session.may("organise"):
        upload, games = st.columns([3, 2], vertical_alignment="bottom")
        with upload.form("register_csv", clear_on_submit=True, border=False):
            listed = st.file_uploader(_("Players' list (CSV with name and faction columns, club optional)"),
                                      type=["csv", "txt"], key="register_file",
                                      max_upload_size=max(1, MAX_REGISTRATION_BYTES // 1_000_000),
                                      help=_("A pairing tool's export: a header row naming name and faction; "
                                             "other columns are ignored. Players already registered are left as "
                                             "they are."))
            if st.form_submit_button(_("Register the list"), icon=":material/upload_file:"):
                if listed is None:
                    st.warning(_("Choose the players' list (a CSV file) first."), icon=":material/upload_file:")
                else:
                    register_players(name, listed)
        if info["games"] and games.button(_("Register from games"), icon=":material/group_add:", key="register_games",
                                          help=_("Everyone who played a game of this tournament, with their faction")):
            register_from_games(name)
        show_message(REGISTERED)
    else:
        st.caption(_("Sign in with an organiser's key in the sidebar to register players."))

    st.subheader(_("Next round"))
    with st.form("pair_round"):
        st.caption(_("Pairs from the standings (Swiss: no rematch when avoidable, one bye to the lowest-ranked "
                     "player without one, clubs kept apart in round 1) and creates the round's games. A round can be "
                     "paired again until one of its games has an event."))
        left, _right = st.columns([1, 2])
        if st.session_state.get("pair_round_next") != (name, played + 1):  # a round was played meanwhile
            st.session_state["pair_round_next"] = (name, played + 1)
            st.session_state["pair_round_no"] = played + 1
        round_no = left.number_input(_("Round"), min_value=1, step=1, key="pair_round_no")
        if st.form_submit_button(_("Pair round"), icon=":material/shuffle:"):
            pair_round(name, int(round_no))
        show_message()  # the pairing's outcome, under its button
if last and any(r["game"] for r in last):
    round_shown, base = last[0]["round"], base_url()
    st.download_button(_("Table cards, round {round} (HTML, to print)").format(round=round_shown),
                       lambda: cards_html(name, last, base),
                       _("{tournament} round {round} table cards.html").format(tournament=name, round=round_shown),
                       mime="text/html", icon=":material/print:", key="table_cards", on_click="ignore",
                       help=_("One card per table: its number, the players, and QR codes of the table's Record "
                              "page and of the round's Live view. Two cards per A4 page."))
st.markdown(_("Players' page: [pairings and standings]({link})").format(link=f"public?tournament={quote(name)}"))
