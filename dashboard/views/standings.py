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
from domain.systems.presentation import plural
from domain.tournaments import MAX_REGISTRATION_BYTES
from projections.cards import cards_html
RESULT_COLUMNS = {"table_no": "table", "player": "player", "score": "VP", "opponent": "opponent", "result": "result",
                  "replay": "replay"}  # each player's faction is in the standings above
CHART_PLAYERS = 12  # the points race shows the leaders only
# the standings' figures in narrow columns, so that the whole table shows at 820 px
NARROW_COLUMNS = {"#": st.column_config.NumberColumn("#", width=28), "player": st.column_config.TextColumn("player", width=112),
                  "faction": st.column_config.TextColumn("faction", width=96),
                  "TP": st.column_config.NumberColumn("TP", width=34, help="tournament points"),
                  "VP": st.column_config.TextColumn("VP", width=58, help="victory points for – against"),
                  "VP ±": st.column_config.NumberColumn("VP ±", width=44),
                  "SoS": st.column_config.NumberColumn("SoS", width=40, help="strength of schedule"),
                  "W–D–L": st.column_config.TextColumn("W–D–L", width=70, help="wins, draws, losses (and byes)")}
FACTION_FIELDS = ("faction", "opponent_faction")
# as many clearly different colours as the chart has players (one per player, never shared)
RACE_COLOURS = tuple(dict.fromkeys(px.colors.qualitative.Dark24 + px.colors.qualitative.Light24))
NARROW_CSS = """<style>
.st-key-standings-cols [data-testid="stHorizontalBlock"]{flex-wrap:wrap}
.st-key-standings-cols [data-testid="stColumn"]{min-width:min(100%,430px)}
</style>"""


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
        record = f"{row['wins']}–{row['draws']}–{row['losses']}" + (f" +{row['byes']} bye" if row.get("byes") else "")
        out.append({"#": row["rank"], "player": row["player"], "faction": row["faction"], "W–D–L": record, "TP": row["tournament_points"], "VP": f"{row['vp_for']}–{row['vp_against']}",
                    "VP ±": row["vp_diff"], "SoS": row["sos"]})
    return pd.DataFrame(out, columns=["#", "player", "faction", "W–D–L", "TP", "VP", "VP ±", "SoS"])


def compact_standings(rows: list[dict]) -> tuple[list[str], list[list], list[str]]:
    """The standings on a phone: the faction under the player, VP for–against under the difference."""
    out = []
    for row in rows:
        row = in_words(row)
        record = f"{row['wins']}–{row['draws']}–{row['losses']}" + (f" +{row['byes']}B" if row.get("byes") else "")
        out.append([row["rank"], (row["player"], row["faction"]), record, row["tournament_points"],
                    (row["vp_diff"], f"{row['vp_for']}–{row['vp_against']}"), row["sos"]])
    return ["#", "player", "W–D–L", "TP", "VP ±", "SoS"], out, ["#", "TP", "VP ±", "SoS"]


def compact_results(rows: list[dict]) -> tuple[list[str], list[list], list[str]]:
    """A round's results on a phone: the opponent under the player, the result a link to the replay."""
    shown = [shown_result(row) for row in rows]
    return (["table", "player", "VP", "result"],
            [[r["table_no"], (r["player"], f"vs {r['opponent']}" if r["opponent"] else ""), r["score"],
              compact.Link(f"{r['result']} ▶", r["replay"]) if r["replay"] else r["result"]] for r in shown],
            ["table", "VP"])


def results_grid(rows: list[dict], number: int) -> None:
    st.dataframe(results_frame(rows), hide_index=True, width="stretch",
                 column_config={"replay": st.column_config.LinkColumn("replay", display_text="▶ replay", width=76),
                                "table": st.column_config.NumberColumn("table", width=46),
                                "player": st.column_config.TextColumn("player", width=124),
                                "VP": st.column_config.TextColumn("VP", width=52, help="victory points for – against"),
                                "opponent": st.column_config.TextColumn("opponent", width=124),
                                "result": st.column_config.TextColumn("result", width=58)},
                 key=f"results_round_{number}")


def shown_result(row: dict) -> dict:
    """A row of a round's results as shown: factions in words, the replay's link, the result and score."""
    return {**in_words(row), "replay": replay_link(row["game"]) if row["game"] else None,
            "result": "bye" if row["result"] == "B" else row["result"] or "playing",
            "score": None if row.get("score") is None else f"{row['score']}–{row.get('opponent_score')}"}


def results_frame(rows: list[dict]) -> pd.DataFrame:
    frame = [{label: shown[key] for key, label in RESULT_COLUMNS.items()} for shown in map(shown_result, rows)]
    return pd.DataFrame(frame, columns=list(RESULT_COLUMNS.values()))


def points_race(rows: list[dict], leaders: list[str]):
    frame = pd.DataFrame([{**r, "player": safe.label(r["player"])} for r in rows if r["player"] in leaders],
                         columns=["round", "player", "tournament_points"])
    figure = px.line(frame, x="round", y="tournament_points", color="player", markers=True,
                     category_orders={"player": [safe.label(p) for p in leaders]}, labels={"tournament_points": "tournament points"},
                     color_discrete_sequence=RACE_COLOURS)
    figure.update_layout(height=340, margin={"l": 10, "r": 10, "t": 10, "b": 10}, xaxis={"dtick": 1})
    return figure


st.title("Standings")
seen = viewer.seen()
tournaments = tournaments_or_stop(seen)

name = tournament_picker([t["tournament"] for t in tournaments])
info = next(t for t in tournaments if t["tournament"] == name)
standing = query("standings", name, seen=seen)
origin = "" if info["created"] else " · named by its games only"
planned = f" of {info['planned_rounds']}" if info["planned_rounds"] else ""
st.caption(f"{info['system']} · {info['games']} games · {info['rounds_played'] or 0} rounds played{planned}{origin} · "
           f"points: win {info['win_points']}, draw {info['draw_points']}, loss {info['loss_points']}, "
           f"bye {info['bye_points']} · ties broken by VP difference, VP for, then strength of schedule "
           "(the opponents' tournament points)")

st.html(NARROW_CSS)
left, right = st.container(key="standings-cols").columns([1.4, 1], gap="medium")
with left:
    st.subheader("Standings")
    compact.table("standings", lambda: st.dataframe(standings_frame(standing), hide_index=True, width="stretch",
                                                    key="standings_table", column_config=NARROW_COLUMNS),
                  *compact_standings(standing))
with right:
    st.subheader("Points race")
    race = query("progress", name, seen=seen)
    if race:
        leaders = [row["player"] for row in standing[:CHART_PLAYERS]]
        st.plotly_chart(points_race(race, leaders), key="points_race")
    else:
        st.caption("No finished game yet.")

st.subheader("Results")
results = query("results", name, None, seen=seen)
viewer.note_delay(seen, [r["game"] for r in results if r["game"]])
rounds = sorted({r["round"] for r in results if r["round"] is not None})
if not rounds:
    st.caption("No games yet.")
for tab, number in zip(st.tabs([f"Round {r}" for r in rounds]) if rounds else [], rounds):
    with tab:
        shown = [r for r in results if r["round"] == number]
        compact.table(f"results-{number}", lambda shown=shown, number=number: results_grid(shown, number),
                      *compact_results(shown))

last = query("pairings", name, None)  # the last round: paired here, or its games came in otherwise
played = max(info["rounds_played"] or 0, last[0]["round"] if last else 0)
if info["created"]:
    st.subheader("Players")
    registered = query("players", name)
    active = [p for p in registered if p["dropped_after_round"] is None]
    st.caption(f"{plural(len(registered), 'player')} registered" + (
        f", {len(active)} still in" if len(active) != len(registered) else "") + ".")
    if not registered and info["games"]:
        st.info("Nobody is registered yet, so nobody can be paired: register the players of its games, or upload "
                "the players' list.", icon=":material/group_add:")
    if session.may("organise"):
        upload, games = st.columns([3, 2], vertical_alignment="bottom")
        with upload.form("register_csv", clear_on_submit=True, border=False):
            listed = st.file_uploader("Players' list (CSV with name and faction columns, club optional)",
                                      type=["csv", "txt"], key="register_file",
                                      max_upload_size=max(1, MAX_REGISTRATION_BYTES // 1_000_000),
                                      help="A pairing tool's export: a header row naming name and faction; other "
                                           "columns are ignored. Players already registered are left as they are.")
            if st.form_submit_button("Register the list", icon=":material/upload_file:"):
                if listed is None:
                    st.warning("Choose the players' list (a CSV file) first.", icon=":material/upload_file:")
                else:
                    register_players(name, listed)
        if info["games"] and games.button("Register from games", icon=":material/group_add:", key="register_games",
                                          help="Everyone who played a game of this tournament, with their faction"):
            register_from_games(name)
        show_message(REGISTERED)
    else:
        st.caption("Sign in with an organiser's key in the sidebar to register players.")

    st.subheader("Next round")
    with st.form("pair_round"):
        st.caption("Pairs from the standings (Swiss: no rematch when avoidable, one bye to the lowest-ranked player "
                   "without one, clubs kept apart in round 1) and creates the round's games. A round can be paired "
                   "again until one of its games has an event.")
        left, _ = st.columns([1, 2])
        if st.session_state.get("pair_round_next") != (name, played + 1):  # a round was played meanwhile
            st.session_state["pair_round_next"] = (name, played + 1)
            st.session_state["pair_round_no"] = played + 1
        round_no = left.number_input("Round", min_value=1, step=1, key="pair_round_no")
        if st.form_submit_button("Pair round", icon=":material/shuffle:"):
            pair_round(name, int(round_no))
        show_message()  # the pairing's outcome, under its button
if last and any(r["game"] for r in last):
    round_shown, base = last[0]["round"], base_url()
    st.download_button(f"Table cards, round {round_shown} (HTML, to print)",
                       lambda: cards_html(name, last, base), f"{name} round {round_shown} table cards.html",
                       mime="text/html", icon=":material/print:", key="table_cards", on_click="ignore",
                       help="One card per table: its number, the players, and QR codes of the table's Record page "
                            "and of the round's Live view. Two cards per A4 page.")
st.markdown(f"Players' page: [pairings and standings](public?tournament={quote(name)})")
