"""Analytics: luck, dice and card fairness, the games' odds and results of a tournament or a set of games.

Deep link: /analytics?tournament=T (and &luck_game=G). Every figure is a query of
projections.stats.ANALYTICS_QUERIES over the published read models, cached per published version and per what
the viewer may see (a game a broadcast delay keeps behind counts once its delay has passed; its luck line stops
at its last seq shown).
"""

from __future__ import annotations

from urllib.parse import urlencode

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from dashboard import data, safe, viewer
from dashboard.layout import games_or_stop
from projections.visibility import Seen

ALL = "(all games)"
TOURNAMENT = "tournament"
GAMES = "games"
LUCK_GAME = "luck_game"


@st.cache_data(max_entries=512, show_spinner=False)
def _query(ver: tuple[str, int], name: str, tournament: str | None, games: tuple[str, ...], game: str | None,
           seen: Seen) -> list[dict]:
    from projections.stats import ANALYTICS_QUERIES, Scope

    return list(data._reader(*ver).run(ANALYTICS_QUERIES[name], Scope(tournament, games, game, seen)))


def figures(name: str, game: str | None = None) -> pd.DataFrame:
    return pd.DataFrame(_query(data.version(), name, scope_tournament, scope_games, game,
                               seen.only(game) if game else seen))


def bar(x, ys: dict[str, list], title: str, *, error: tuple[list, list] | None = None, y_title: str = "",
        percent: bool = False) -> go.Figure:
    """Grouped bars, one trace per entry of ``ys``; ``error``: (low, high) of the first trace."""
    fig = go.Figure()
    for i, (label, values) in enumerate(ys.items()):
        err = None
        if error is not None and i == 0:
            low, high = error
            err = dict(type="data", symmetric=False, array=[h - v for h, v in zip(high, values)],
                       arrayminus=[v - lo for lo, v in zip(low, values)])
        fig.add_bar(x=[safe.label(v) if isinstance(v, str) else v for v in x], y=list(values), name=safe.label(label),
                    error_y=err)
    x_title = str(getattr(x, "name", "") or "").replace("_", " ")
    fig.update_layout(title=safe.label(title), barmode="group", height=340, margin=dict(l=10, r=10, t=40, b=10),
                      xaxis_title=x_title, yaxis_title=y_title or (next(iter(ys)) if len(ys) == 1 else ""), yaxis_tickformat=".0%" if percent else None, legend_orientation="h")
    return fig


def table(frame: pd.DataFrame, columns: list[str]) -> None:
    from dashboard.readable import readable

    st.dataframe(readable(frame[[c for c in columns if c in frame.columns]]), hide_index=True, width="stretch")


def nothing(what: str) -> None:
    later = " yet: the games within their broadcast delay count once it has passed" if held else ""
    st.caption(f"No {what} in this scope{later}.")


# --- scope -------------------------------------------------------------------------------------

st.title("Analytics")
seen = viewer.seen()
all_games = games_or_stop(seen)
tournaments = sorted({g["tournament"] for g in all_games if g.get("tournament")})
options = [ALL, *tournaments]
if st.session_state.get(TOURNAMENT) not in options and st.query_params.get(TOURNAMENT) not in options:
    st.session_state[TOURNAMENT] = tournaments[0] if tournaments else ALL
top = st.columns([2, 3])
picked = top[0].selectbox("Tournament", options, index=None, key=TOURNAMENT, bind="query-params")
scope_tournament = None if picked in (None, ALL) else picked
in_tournament = [g["game"] for g in all_games if scope_tournament is None or g.get("tournament") == scope_tournament]
chosen = top[1].multiselect("Games (optional: only these)", in_tournament, key=GAMES,
                            help="Leave empty for every game of the tournament.")
scope_games = tuple(g for g in chosen if g in in_tournament)
shown_games = list(scope_games) or in_tournament
held = [g for g in shown_games if seen.upto(g) is not None]
if held:
    st.caption(f":material/schedule: Broadcast with a delay: {len(held)} of these games are shown as they stood "
               f"{max(seen.delay(g) for g in held)} s ago, and count in the figures once the delay has passed (a "
               "game's luck line shows it as far as it is broadcast). Judges and scorekeepers signed in see every "
               "game as it is recorded.")
st.caption(f"{len(shown_games)} games · luck counts every throw of dice (a re-roll is a throw of its own) as observed "
           "minus expected successes, or pips for numbered dice (d6); verdicts control for multiple tests (Holm, 5%).")

luck_tab, fair_tab, games_tab, results_tab = st.tabs(["Luck", "Fairness", "The games", "Results"])

# --- luck --------------------------------------------------------------------------------------

with luck_tab:
    players = figures("luck_by_player")
    if players.empty:
        nothing("dice thrown")
    else:
        for unit, rows in players.groupby("unit", sort=True):
            st.plotly_chart(bar(rows["player"], {f"luck ({unit})": rows["luck"]},
                                f"Luck per player: {unit} observed minus expected", y_title=unit),
                            key=f"luck-players-{unit}")
        table(players, ["player", "unit", "games", "dice", "observed", "expected", "luck", "z_score", "verdict"])
        st.subheader("Per die and purpose")
        table(figures("luck_by_die"), ["die", "purpose", "unit", "throws", "dice", "observed", "expected", "luck", "z_score"])
    st.subheader("Through a game")
    if st.session_state.get(LUCK_GAME) not in shown_games and st.query_params.get(LUCK_GAME) not in shown_games:
        st.session_state[LUCK_GAME] = shown_games[0]
    luck_game = st.selectbox("Game", shown_games, index=None, key=LUCK_GAME, bind="query-params")
    line = figures("luck_line", luck_game) if luck_game else pd.DataFrame()
    if line.empty:
        nothing("dice thrown in that game")
    else:
        fig = go.Figure()
        for (name, unit), rows in line.groupby(["name", "unit"], sort=True):
            fig.add_scatter(x=rows["seq"], y=rows["cumulative"], mode="lines+markers", name=safe.label(f"{name} ({unit})"),
                            line_shape="hv", customdata=rows[["purpose", "luck"]],
                            hovertemplate="seq %{x}: %{customdata[0]}, luck %{customdata[1]:+.2f}<br>"
                                          "cumulative %{y:+.2f}<extra></extra>")
        big = line[line["big"].fillna(False)]
        if not big.empty:
            fig.add_scatter(x=big["seq"], y=big["cumulative"], mode="markers", name="big swing (|z| ≥ 2)",
                            marker=dict(size=13, symbol="star", color="#c62828"))
        fig.update_layout(title=safe.label(f"Cumulative luck through {luck_game}"), height=360, xaxis_title="event (seq)",
                          yaxis_title="cumulative luck (above expectation)",
                          margin=dict(l=10, r=10, t=40, b=10), legend_orientation="h")
        st.plotly_chart(fig, key="luck-line")
        if not big.empty:
            links = " · ".join(f"[seq {int(s)}](/replay?{urlencode({'game': luck_game, 'seq': int(s)})})"
                               for s in big["seq"])
            st.markdown(f"Big swings (replay): {links}")

# --- fairness ----------------------------------------------------------------------------------

with fair_tab:
    fairness = figures("fairness")
    if fairness.empty:
        nothing("dice thrown")
    else:
        st.markdown("Each die type's faces against the dice in force (chi-square), overall, per player and per "
                    "table. A re-rolled die counts by the face it first showed, and its re-roll as a throw of its own.")
        table(fairness, ["verdict", "level", "who", "die", "throws", "faces", "p_value", "p_holm", "q_bh"])
        faces = figures("face_distribution")
        for (die, spec), rows in faces.groupby(["die", "spec"], sort=True):
            st.plotly_chart(bar(rows["face"], {"thrown": rows["observed"], "expected": rows["expected"]},
                                f"Faces of the {die} die ({spec})", y_title="throws"), key=f"faces-{die}-{spec}")
    st.subheader("Card draws")
    decks = figures("card_fairness")
    if decks.empty:
        nothing("cards drawn")
    else:
        table(decks, ["verdict", "deck", "draws", "cards", "expected", "p_value", "p_holm"])
        cards = figures("card_draws")
        for deck, rows in cards.groupby("deck", sort=True):
            st.plotly_chart(bar(rows["card"], {"drawn": rows["draws"], "uniform": rows["expected"]},
                                f"Cards drawn: {deck} deck", y_title="draws"), key=f"cards-{deck}")

# --- the games ---------------------------------------------------------------------------------

with games_tab:
    checks = figures("odds_checks")
    if not checks.empty:
        st.subheader("Against the exact odds")
        table(checks, ["verdict", "test", "n", "observed", "expected", "p_value", "p_holm"])
    allegiance = figures("vortex_allegiance")
    if not allegiance.empty:
        st.plotly_chart(bar(allegiance["outcome"], {"observed": allegiance["share"],
                                                    "exact odds": allegiance["expected_share"]},
                            "Vortex stabilisation outcomes", percent=True), key="allegiance")
    drift = figures("vortex_drift")
    if not drift.empty:
        st.subheader("Vortex drift")
        cols = st.columns(4)
        cols[0].metric("Vortices", len(drift))
        cols[1].metric("Moves per vortex", f"{drift['moves'].mean():.1f}")
        cols[2].metric("Hexes travelled", f"{drift['hexes'].mean():.1f}")
        cols[3].metric("Net drift (hexes)", f"{drift['net_hexes'].mean():.1f}")
        counts = drift["net_hexes"].value_counts().sort_index()
        st.plotly_chart(bar(counts.index, {"vortices": counts.values}, "Net drift from the setup position (hexes)"),
                        key="drift")
    ether = figures("ether_by_faction")
    if not ether.empty:
        st.plotly_chart(bar(ether["faction"], {"ether per game": ether["ether_per_game"]}, "Ether harvested by faction"),
                        key="ether")
    casting = figures("casting")
    if not casting.empty:
        st.subheader("Casting and dispelling")
        st.plotly_chart(bar(casting["dice"].astype(str), {"passed": casting["pass_rate"],
                                                          "exact odds": casting["expected_pass_rate"]},
                            "Casting passes by number of dice", percent=True), key="casting")
        table(casting, ["dice", "attempts", "passed", "expected_passed", "miscasts", "expected_miscasts"])
    dispels = figures("dispels")
    if not dispels.empty:
        st.plotly_chart(bar(dispels["dice"].astype(str), {"dispelled": dispels["dispel_rate"],
                                                          "exact odds": dispels["expected_dispel_rate"]},
                            "Dispels by number of dice", percent=True), key="dispels")
    exhaustion = figures("exhaustion")
    if not exhaustion.empty:
        st.subheader("Initiative exhaustion")
        st.plotly_chart(bar(exhaustion["warrior"], {"exhausted": exhaustion["rate"]},
                            "Action dice that exhausted the warrior (95% interval)",
                            error=(exhaustion["ci_low"], exhaustion["ci_high"]), percent=True), key="exhaustion")
    if checks.empty and allegiance.empty and drift.empty and casting.empty and exhaustion.empty:
        nothing("vortex, magic or initiative events")

# --- results -----------------------------------------------------------------------------------

with results_tab:
    factions = figures("faction_results")
    if factions.empty:
        nothing("ended games")
    else:
        shown = factions[factions["games"] > 0]
        st.plotly_chart(bar(shown["faction"], {"win rate": shown["win_rate"]},
                            "Faction win rates (95% Wilson interval; mirror matches left out)",
                            error=(shown["ci_low"], shown["ci_high"]), percent=True), key="factions")
        table(factions, ["faction", "games", "wins", "draws", "losses", "win_rate", "ci_low", "ci_high", "mirror_games"])
        matchups = figures("matchups")
        if not matchups.empty:
            grid = matchups.pivot(index="faction", columns="opponent", values="win_rate")
            games = matchups.pivot(index="faction", columns="opponent", values="games")
            fig = go.Figure(go.Heatmap(z=grid.values, x=[safe.label(c) for c in grid.columns],
                                       y=[safe.label(r) for r in grid.index], zmin=0, zmax=1,
                                       colorscale="RdBu", text=games.fillna(0).astype(int).values,
                                       texttemplate="%{text}", hovertemplate="%{y} vs %{x}: %{z:.0%} of %{text} games"
                                                                             "<extra></extra>"))
            fig.update_layout(title="Win rate of the row's faction against the column's (number: games)", height=460,
                              margin=dict(l=10, r=10, t=40, b=10))
            st.plotly_chart(fig, key="matchups")
    first = figures("first_player")
    if not first.empty:
        st.subheader("First-player advantage")
        st.caption("The first player of a game is the one its first event names: the first activation in Tornscape, "
                   "the first casting roll in The 9th Age, the first initiative roll in Claustrophobia.")
        table(first, ["system", "verdict", "decided", "first_wins", "rate", "ci_low", "ci_high", "draws", "p_value"])
    turns = figures("turn_times")
    st.subheader("Time per turn")
    if turns.empty:
        st.caption("No event in this scope carries a time (`at`).")
    else:
        st.plotly_chart(bar(turns["turn"].astype(str), {"mean": turns["mean_seconds"] / 60,
                                                        "median": turns["median_seconds"] / 60},
                            "Minutes per turn", y_title="minutes"), key="turns")
