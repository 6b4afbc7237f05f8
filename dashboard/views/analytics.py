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
import i18n
from i18n import N_, _, ngettext
from projections.visibility import Seen

ALL = N_("(all games)")  # the picker's first choice (shown in the page's language)
TOURNAMENT = "tournament"
GAMES = "games"
LUCK_GAME = "luck_game"
# the figures' columns as their tables and charts head them (in the page's language where shown)
HEADERS = {"player": N_("player"), "unit": N_("unit"), "games": N_("games"), "dice": N_("dice"),
           "observed": N_("observed"), "expected": N_("expected"), "luck": N_("luck"), "z_score": N_("z score"),
           "verdict": N_("verdict"), "die": N_("die"), "purpose": N_("purpose"), "throws": N_("throws"),
           "level": N_("level"), "who": N_("who"), "faces": N_("faces"), "p_value": N_("p value"),
           "p_holm": N_("p holm"), "q_bh": N_("q bh"), "deck": N_("deck"), "draws": N_("draws"),
           "cards": N_("cards"), "test": N_("test"), "n": N_("n"), "attempts": N_("attempts"),
           "passed": N_("passed"), "expected_passed": N_("expected passed"), "miscasts": N_("miscasts"),
           "expected_miscasts": N_("expected miscasts"), "faction": N_("faction"), "wins": N_("wins"),
           "losses": N_("losses"), "win_rate": N_("win rate"), "ci_low": N_("ci low"), "ci_high": N_("ci high"),
           "mirror_games": N_("mirror games"), "system": N_("system"), "decided": N_("decided"),
           "first_wins": N_("first wins"), "rate": N_("rate"), "face": N_("face"), "card": N_("card"),
           "outcome": N_("outcome"), "warrior": N_("warrior"), "turn": N_("turn"), "net_hexes": N_("net hexes"),
           "mean_score": N_("mean score")}
# the figures' words that name a verdict, a level or a unit (the read models say them in English)
VALUES = {v: v for v in (
    N_("no evidence of bias"), N_("worth a look"), N_("too few to tell"), N_("about as expected"),
    N_("luckier than expected"), N_("unluckier than expected"), N_("the first player is favoured"),
    N_("the second player is favoured"), N_("no clear advantage"), N_("overall"), N_("all"), N_("player"), N_("table"), N_("pips"),
    N_("successes"), N_("all warriors"), N_("stays unaligned"), N_("own domain"), N_("hostile domain"),
    N_("stabilisation outcomes"), N_("casting passes"), N_("dispels"))}
TRANSLATED_VALUES = ("verdict", "level", "unit", "who", "test", "outcome")


def pgettext(context: str, message: str) -> str:
    """``message`` in the page's language, as meant in ``context`` (a word with two meanings: a card's draws,
    a game's draws)."""
    lang = i18n.current()
    return message if lang == i18n.SOURCE else i18n.translations(lang).pgettext(context, message)


def said(value):
    """A figure's word in the page's language (a name or a number as it is)."""
    return _(VALUES[value]) if isinstance(value, str) and value in VALUES else value


def header(column) -> str:
    return _(HEADERS[column]) if column in HEADERS else str(column).replace("_", " ")


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
        fig.add_bar(x=[safe.label(said(v)) if isinstance(v, str) else v for v in x], y=list(values),
                    name=safe.label(label), error_y=err)
    x_title = header(getattr(x, "name", "") or "") if getattr(x, "name", "") else ""
    fig.update_layout(title=safe.label(title), barmode="group", height=340, margin=dict(l=10, r=10, t=40, b=10),
                      xaxis_title=x_title, yaxis_title=y_title or (next(iter(ys)) if len(ys) == 1 else ""), yaxis_tickformat=".0%" if percent else None, legend_orientation="h")
    return fig


def table(frame: pd.DataFrame, columns: list[str], titles: dict[str, str] | None = None) -> None:
    """The figures' ``columns`` of ``frame`` as people read them (``titles``: a column's own header)."""
    from dashboard.readable import readable

    kept = [c for c in columns if c in frame.columns]
    shown = readable(frame[kept])
    shown.columns = [(titles or {}).get(c) or header(c) for c in kept]
    for c, column in zip(kept, shown.columns):
        if c in TRANSLATED_VALUES:
            shown[column] = [said(v) for v in shown[column]]
    st.dataframe(shown, hide_index=True, width="stretch")


def nothing(what: str) -> None:
    st.caption(_("No {what} in this scope yet: the games within their broadcast delay count once it has passed.")
               .format(what=what) if held else _("No {what} in this scope.").format(what=what))


# --- scope -------------------------------------------------------------------------------------

st.title(_("Analytics"))
seen = viewer.seen()
all_games = games_or_stop(seen)
tournaments = sorted({g["tournament"] for g in all_games if g.get("tournament")})
options = [ALL, *tournaments]
if st.session_state.get(TOURNAMENT) not in options and st.query_params.get(TOURNAMENT) not in options:
    st.session_state[TOURNAMENT] = tournaments[0] if tournaments else ALL
top = st.columns([2, 3])
picked = top[0].selectbox(_("Tournament"), options, index=None, placeholder=_("Choose…"), key=TOURNAMENT, bind="query-params",
                          format_func=lambda t: _(ALL) if t == ALL else t)
scope_tournament = None if picked in (None, ALL) else picked
in_tournament = [g["game"] for g in all_games if scope_tournament is None or g.get("tournament") == scope_tournament]
chosen = top[1].multiselect(_("Games (optional: only these)"), in_tournament, key=GAMES, placeholder=_("every game"),
                            help=_("Leave empty for every game of the tournament."))
scope_games = tuple(g for g in chosen if g in in_tournament)
shown_games = list(scope_games) or in_tournament
held = [g for g in shown_games if seen.upto(g) is not None]
if held:
    clock = ":material/schedule: "
    st.caption(clock + ngettext(
        "Broadcast with a delay: {n} of these games is shown as it stood {delay} s ago, and counts in the figures "
        "once the delay has passed (a game's luck line shows it as far as it is broadcast). Judges and scorekeepers "
        "signed in see every game as it is recorded.",
        "Broadcast with a delay: {n} of these games are shown as they stood {delay} s ago, and count in the figures "
        "once the delay has passed (a game's luck line shows it as far as it is broadcast). Judges and scorekeepers "
        "signed in see every game as it is recorded.", len(held)).format(
        n=len(held), delay=max(seen.delay(g) for g in held)))
st.caption(ngettext("{n} game", "{n} games", len(shown_games)).format(n=len(shown_games)) + " · " + _(
    "luck counts every throw of dice (a re-roll is a throw of its own) as observed minus expected successes, or pips "
    "for numbered dice (d6); verdicts control for multiple tests (Holm, 5%)."))

luck_tab, fair_tab, games_tab, results_tab = st.tabs([_("Luck"), _("Fairness"), _("The games"), _("Results")])

# --- luck --------------------------------------------------------------------------------------

with luck_tab:
    players = figures("luck_by_player")
    if players.empty:
        nothing(_("dice thrown"))
    else:
        for unit, rows in players.groupby("unit", sort=True):
            st.plotly_chart(bar(rows["player"], {_("luck ({unit})").format(unit=said(unit)): rows["luck"]},
                                _("Luck per player: {unit} observed minus expected").format(unit=said(unit)),
                                y_title=said(unit)),
                            key=f"luck-players-{unit}")
        table(players, ["player", "unit", "games", "dice", "observed", "expected", "luck", "z_score", "verdict"])
        st.subheader(_("Per die and purpose"))
        table(figures("luck_by_die"), ["die", "purpose", "unit", "throws", "dice", "observed", "expected", "luck", "z_score"])
    st.subheader(_("Through a game"))
    if st.session_state.get(LUCK_GAME) not in shown_games and st.query_params.get(LUCK_GAME) not in shown_games:
        st.session_state[LUCK_GAME] = shown_games[0]
    luck_game = st.selectbox(_("Game"), shown_games, index=None, placeholder=_("Choose…"), key=LUCK_GAME, bind="query-params")
    line = figures("luck_line", luck_game) if luck_game else pd.DataFrame()
    if line.empty:
        nothing(_("dice thrown in that game"))
    else:
        fig = go.Figure()
        for (name, unit), rows in line.groupby(["name", "unit"], sort=True):
            fig.add_scatter(x=rows["seq"], y=rows["cumulative"], mode="lines+markers",
                            name=safe.label(f"{name} ({said(unit)})"),
                            line_shape="hv", customdata=rows[["purpose", "luck"]],
                            hovertemplate=_("seq %{x}: %{customdata[0]}, luck %{customdata[1]:+.2f}<br>"
                                            "cumulative %{y:+.2f}") + "<extra></extra>")
        big = line[line["big"].fillna(False)]
        if not big.empty:
            fig.add_scatter(x=big["seq"], y=big["cumulative"], mode="markers", name=_("big swing (|z| ≥ 2)"),
                            marker=dict(size=13, symbol="star", color="#c62828"))
        fig.update_layout(title=safe.label(_("Cumulative luck through {game}").format(game=luck_game)), height=360,
                          xaxis_title=_("event (seq)"), yaxis_title=_("cumulative luck (above expectation)"),
                          margin=dict(l=10, r=10, t=40, b=10), legend_orientation="h")
        st.plotly_chart(fig, key="luck-line")
        if not big.empty:
            links = " · ".join(f"[{_('seq {seq}').format(seq=int(s))}](/replay?{urlencode({'game': luck_game, 'seq': int(s)})})"
                               for s in big["seq"])
            st.markdown(_("Big swings (replay): {links}").format(links=links))

# --- fairness ----------------------------------------------------------------------------------

with fair_tab:
    fairness = figures("fairness")
    if fairness.empty:
        nothing(_("dice thrown"))
    else:
        st.markdown(_("Each die type's faces against the dice in force (chi-square), overall, per player and per "
                      "table. A re-rolled die counts by the face it first showed, and its re-roll as a throw of its "
                      "own."))
        table(fairness, ["verdict", "level", "who", "die", "throws", "faces", "p_value", "p_holm", "q_bh"])
        faces = figures("face_distribution")
        for (die, spec), rows in faces.groupby(["die", "spec"], sort=True):
            st.plotly_chart(bar(rows["face"], {_("thrown"): rows["observed"], _("expected"): rows["expected"]},
                                _("Faces of the {die} die ({spec})").format(die=die, spec=spec), y_title=_("throws")),
                            key=f"faces-{die}-{spec}")
    st.subheader(_("Card draws"))
    decks = figures("card_fairness")
    if decks.empty:
        nothing(_("cards drawn"))
    else:
        table(decks, ["verdict", "deck", "draws", "cards", "expected", "p_value", "p_holm"],
              titles={"draws": pgettext("cards", "draws")})
        cards = figures("card_draws")
        for deck, rows in cards.groupby("deck", sort=True):
            st.plotly_chart(bar(rows["card"], {_("drawn"): rows["draws"], _("uniform"): rows["expected"]},
                                _("Cards drawn: {deck} deck").format(deck=deck), y_title=pgettext("cards", "draws")),
                            key=f"cards-{deck}")

# --- the games ---------------------------------------------------------------------------------

with games_tab:
    checks = figures("odds_checks")
    if not checks.empty:
        st.subheader(_("Against the exact odds"))
        table(checks, ["verdict", "test", "n", "observed", "expected", "p_value", "p_holm"])
    allegiance = figures("vortex_allegiance")
    if not allegiance.empty:
        st.plotly_chart(bar(allegiance["outcome"], {_("observed"): allegiance["share"],
                                                    _("exact odds"): allegiance["expected_share"]},
                            _("Vortex stabilisation outcomes"), percent=True), key="allegiance")
    drift = figures("vortex_drift")
    if not drift.empty:
        st.subheader(_("Vortex drift"))
        cols = st.columns(4)
        cols[0].metric(_("Vortices"), len(drift))
        cols[1].metric(_("Moves per vortex"), f"{drift['moves'].mean():.1f}")
        cols[2].metric(_("Hexes travelled"), f"{drift['hexes'].mean():.1f}")
        cols[3].metric(_("Net drift (hexes)"), f"{drift['net_hexes'].mean():.1f}")
        counts = drift["net_hexes"].value_counts().sort_index()
        st.plotly_chart(bar(counts.index, {_("vortices"): counts.values}, _("Net drift from the setup position (hexes)")),
                        key="drift")
    ether = figures("ether_by_faction")
    if not ether.empty:
        st.plotly_chart(bar(ether["faction"], {_("ether per game"): ether["ether_per_game"]},
                            _("Ether harvested by faction")),
                        key="ether")
    casting = figures("casting")
    if not casting.empty:
        st.subheader(_("Casting and dispelling"))
        st.plotly_chart(bar(casting["dice"].astype(str), {_("passed"): casting["pass_rate"],
                                                          _("exact odds"): casting["expected_pass_rate"]},
                            _("Casting passes by number of dice"), percent=True), key="casting")
        table(casting, ["dice", "attempts", "passed", "expected_passed", "miscasts", "expected_miscasts"])
    dispels = figures("dispels")
    if not dispels.empty:
        st.plotly_chart(bar(dispels["dice"].astype(str), {_("dispelled"): dispels["dispel_rate"],
                                                          _("exact odds"): dispels["expected_dispel_rate"]},
                            _("Dispels by number of dice"), percent=True), key="dispels")
    exhaustion = figures("exhaustion")
    if not exhaustion.empty:
        st.subheader(_("Initiative exhaustion"))
        st.plotly_chart(bar(exhaustion["warrior"], {_("exhausted"): exhaustion["rate"]},
                            _("Action dice that exhausted the warrior (95% interval)"),
                            error=(exhaustion["ci_low"], exhaustion["ci_high"]), percent=True), key="exhaustion")
    if checks.empty and allegiance.empty and drift.empty and casting.empty and exhaustion.empty:
        nothing(_("vortex, magic or initiative events"))

# --- results -----------------------------------------------------------------------------------

with results_tab:
    factions = figures("faction_results")
    if factions.empty:
        nothing(_("ended games"))
    else:
        shown = factions[factions["games"] > 0]
        st.plotly_chart(bar(shown["faction"], {_("win rate"): shown["win_rate"]},
                            _("Faction win rates (95% Wilson interval; mirror matches left out)"),
                            error=(shown["ci_low"], shown["ci_high"]), percent=True), key="factions")
        table(factions, ["faction", "games", "wins", "draws", "losses", "win_rate", "ci_low", "ci_high", "mirror_games"]
              + (["mean_score"] if "mean_score" in factions else []))
        matchups = figures("matchups")
        if not matchups.empty:
            grid = matchups.pivot(index="faction", columns="opponent", values="win_rate")
            games = matchups.pivot(index="faction", columns="opponent", values="games")
            fig = go.Figure(go.Heatmap(z=grid.values, x=[safe.label(c) for c in grid.columns],
                                       y=[safe.label(r) for r in grid.index], zmin=0, zmax=1,
                                       colorscale="RdBu", text=games.fillna(0).astype(int).values,
                                       texttemplate="%{text}",
                                       hovertemplate=_("%{y} vs %{x}: %{z:.0%} of %{text} games") + "<extra></extra>"))
            fig.update_layout(title=_("Win rate of the row's faction against the column's (number: games)"), height=460,
                              margin=dict(l=10, r=10, t=40, b=10))
            st.plotly_chart(fig, key="matchups")
    first = figures("first_player")
    if not first.empty:
        st.subheader(_("First-player advantage"))
        st.caption(_("The first player of a game is the one its first event names: the first activation in "
                     "Tornscape, the first casting roll in The 9th Age, the first initiative roll in Claustrophobia."))
        table(first, ["system", "verdict", "decided", "first_wins", "rate", "ci_low", "ci_high", "draws", "p_value"])
    turns = figures("turn_times")
    st.subheader(_("Time per turn"))
    if turns.empty:
        st.caption(_("No event in this scope carries a time (`at`)."))
    else:
        st.plotly_chart(bar(turns["turn"].astype(str), {_("mean"): turns["mean_seconds"] / 60,
                                                        _("median"): turns["median_seconds"] / 60},
                            _("Minutes per turn"), y_title=_("minutes")), key="turns")
    clocked = figures("time_by_player")
    if not clocked.empty:
        st.subheader(_("Time on the game clock"))
        st.caption(_("Each player's time on the clock per turn (minutes; a game's players in their own bars, "
                     "factions over the scope's games with a clock)."))
        per_turn = clocked.groupby(["turn", "name"], as_index=False)["seconds"].sum()
        st.plotly_chart(bar(sorted({str(t) for t in per_turn["turn"]}, key=int),
                            {name: [per_turn[(per_turn["name"] == name) & (per_turn["turn"] == t)]["seconds"].sum() / 60
                                    for t in sorted(set(per_turn["turn"]))] for name in sorted(set(per_turn["name"]))},
                            _("Minutes on the clock per turn, by player"), y_title=_("minutes")), key="clock-players")
        clocked["faction"] = clocked["faction"].fillna("—")
        per_game = clocked.groupby(["game", "faction", "turn"], as_index=False)["seconds"].sum()
        by_faction = per_game.groupby(["faction", "turn"], as_index=False)["seconds"].mean()
        turns_seen = sorted(set(by_faction["turn"]))
        st.plotly_chart(bar([str(t) for t in turns_seen],
                            {faction: [by_faction[(by_faction["faction"] == faction) & (by_faction["turn"] == t)][
                                "seconds"].sum() / 60 for t in turns_seen] for faction in sorted(set(by_faction["faction"]))},
                            _("Mean minutes on the clock per turn, by faction"), y_title=_("minutes")),
                        key="clock-factions")
        table(clocked, ["game", "name", "faction", "turn", "phase", "seconds"])
