"""Standings: a tournament's standings, the points race and the results of each round, every game
linked to its replay; an organiser registers players (a CSV list, or everyone who played its games), pairs the
next round after the rounds played and prints the table cards here. Deep link: /standings?tournament=NAME."""

from __future__ import annotations

from urllib.parse import quote, urlsplit

import pandas as pd
import plotly.express as px
import streamlit as st

from dashboard import checkin_ui, compact, registration, round_time_ui, safe, session, viewer
from dashboard.games_table import replay_link
from dashboard.join import join, qr_png
from dashboard.tournament_ui import (MATCHUPS, REGISTERED, enter_matchups, pair_round, preview_list, query, register_from_games, register_players,
                                     show_message, tournament_picker, tournaments_or_stop, uploader_key)
from domain.player_lists import MAX_BYTES
from i18n import N_, _, ngettext
from projections.cards import cards_html
from domain.tournaments import rounds_said
from dashboard.standings_view import StandingsView, format_from, standings_view, teams_view
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


def in_words(row: dict) -> dict:
    """Factions in words ("Dread Elves", not ``dread_elves``)."""
    from domain.systems.presentation import title_words

    return {k: title_words(v) if k in FACTION_FIELDS and v else v for k, v in row.items()}


def standings_grid(view: StandingsView) -> None:
    """The standings' grid, its figures' headers with their help (the same view as the players' page)."""
    st.dataframe(view.frame, hide_index=True, width="stretch", key="standings_table",
                 column_config={label: st.column_config.Column(label, help=view.helps.get(label))
                                for label in view.frame.columns})


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
                                "result": st.column_config.TextColumn(_("result"), width=84)},
                 key=f"results_round_{number}")


def shown_result(row: dict) -> dict:
    """A row of a round's results as shown: factions in words, the replay's link, the result and score."""
    said = _("bye") if row["result"] == "B" else _(RESULT_WORDS.get(row["result"], row["result"])) if row["result"] \
        else _("playing")
    return {**in_words(row), "replay": replay_link(row["game"]) if row["game"] else None,
            "result": _("{result}, at time").format(result=said) if row.get("ended_at_time") else said,
            "score": "" if row.get("score") is None else f"{row['score']}–{row.get('opponent_score')}"}


def results_frame(rows: list[dict]) -> pd.DataFrame:
    frame = [{label: shown[key] for key, label in RESULT_COLUMNS.items()} for shown in map(shown_result, rows)]
    return pd.DataFrame(frame, columns=list(RESULT_COLUMNS.values()))


def join_section(joined) -> None:
    """The dashboard's address for the venue's tablets and phones, as a big QR code to scan and as text."""
    with st.expander(_("Tablets and phones: join the dashboard"), icon=":material/qr_code_2:"):
        if joined.local_only:
            st.info(_("This dashboard serves this machine alone: no tablet or phone of the venue reaches it."),
                    icon=":material/wifi_off:")
        st.image(qr_png(joined.base), caption=joined.base, width=360, output_format="PNG")
        others = [a for a in joined.addresses if a != joined.base]
        if others:
            st.caption(_("Also served at: {addresses}").format(addresses=", ".join(others)))


def cards_link(given: str) -> str | None:
    """The address typed for the cards, if it is a dashboard's (http or https, with a host)."""
    parts = urlsplit(given.strip())
    return given.strip().rstrip("/") if parts.scheme in ("http", "https") and parts.hostname else None


def points_race(rows: list[dict], leaders: list[str]):
    frame = pd.DataFrame([{**r, "player": safe.label(r["player"])} for r in rows if r["player"] in leaders],
                         columns=["round", "player", "tournament_points"])
    figure = px.line(frame, x="round", y="tournament_points", color="player", markers=True,
                     category_orders={"player": [safe.label(p) for p in leaders]},
                     labels={"tournament_points": _("score"), "round": _("round"), "player": _("player")},
                     color_discrete_sequence=RACE_COLOURS)
    figure.update_layout(height=340, margin={"l": 10, "r": 10, "t": 10, "b": 10}, xaxis={"dtick": 1})
    return figure


def matchups_forms(name: str, size: int) -> None:
    """The captains' matchups of each team match of the last round paired that has none yet: for each player of the
    first team, the other team's player across the table (an organiser's key)."""
    paired = query("team_rounds", name)
    last = max((r["round"] for r in paired), default=None)
    waiting = [r for r in paired if r["round"] == last and r["match"] is not None and not r["entered"]]
    show_message(MATCHUPS)  # the last matchups entered
    if not waiting:
        return
    members: dict[str, list[str]] = {}
    for p in query("players", name):
        if p["club"] and p["dropped_after_round"] is None:
            members.setdefault(p["club"], []).append(p["player"])
    st.subheader(_("Matchups, round {round}").format(round=last))
    st.caption(_("The captains pair their players table by table: for each player of the first team, the player of "
                 "the other team across the table. Entering a match's matchups creates its games."))
    for m in waiting:
        first, other = members.get(m["team"], []), members.get(m["opponent"], [])
        with st.form(f"matchups_{last}_{m['match']}"):
            st.markdown(safe.md(_("Match {match}: {team} v {opponent}").format(
                match=m["match"], team=m["team"], opponent=m["opponent"])))
            chosen = []
            for i, player in enumerate(first[:size]):
                chosen.append((player, st.selectbox(
                    _("{player} plays").format(player=player), other, index=i if i < len(other) else None,
                    key=f"matchup_{last}_{m['match']}_{i}")))
            if st.form_submit_button(_("Enter matchups"), icon=":material/handshake:"):
                enter_matchups(name, last, m["match"], [(a, b) for a, b in chosen if b])


st.title(_("Standings"))
seen = viewer.seen()
tournaments = tournaments_or_stop(seen)

name = tournament_picker([t["tournament"] for t in tournaments])
info = next(t for t in tournaments if t["tournament"] == name)
standing = query("standings", name, seen=seen)
fmt = format_from(query("format_rows", name)[0])
view = standings_view(standing, fmt)
origin = "" if info["created"] else " · " + _("named by its games only")
st.caption(" · ".join((info["system"], ngettext("{n} game", "{n} games", info["games"]).format(n=info["games"]),
                       rounds_said(info) + origin)))
st.caption(safe.md(view.said))
timer = round_time_ui.of_round(name, info["last_round"]) if info["last_round"] else None
round_time_ui.show(timer, key="standings-round-time")  # the last round's time, counting down

fmt = format_from(query("format_rows", name)[0])
if fmt.teams is not None:
    teams = teams_view(query("team_standings", name, seen=seen), query("team_matches", name, seen=seen), fmt)
    st.subheader(_("Teams"))
    compact.table("teams", lambda: st.dataframe(
        teams.frame, hide_index=True, width="stretch", key="teams_table",
        column_config={label: st.column_config.Column(label, help=teams.helps.get(label))
                       for label in teams.frame.columns}), teams.head, teams.rows, teams.numeric)
    match_rounds = sorted(teams.matches, reverse=True)
    for tab, number in zip(st.tabs([_("Matches, round {number}").format(number=r) for r in match_rounds])
                           if match_rounds else [], match_rounds):
        with tab:
            for line in teams.matches[number]:
                st.markdown(safe.md(line))

st.html(NARROW_CSS)
left, right = st.container(key="standings-cols").columns([1.4, 1], gap="medium")
with left:
    st.subheader(_("Standings"))
    compact.table("standings", lambda: standings_grid(view), view.head, view.rows, view.numeric)
    for said in view.bonuses:
        st.caption(safe.md(said))
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
if info["created"]:
    st.subheader(_("Players"))
    registered = query("players", name)
    st.caption(registration.players_said(registered))
    if registered:
        players = registration.players_rows(registered)
        compact.table("players", lambda: st.dataframe(
            players, hide_index=True, width="stretch", height=min(36 + 35 * len(players), 400),
            column_config={k: st.column_config.Column(label) for k, label in
                           registration.headers(registration.PLAYER_COLUMNS).items()}),
                      *registration.compact_players(players))
    if not registered and info["games"]:
        st.info(_("Nobody is registered yet, so nobody can be paired: register the players of its games, or upload "
                  "the players' list."), icon=":material/group_add:")
    if session.may("organise"):
        upload, games = st.columns([3, 2], vertical_alignment="bottom")
        listed = upload.file_uploader(
            _("Players' list (a pairing tool's export: Best Coast Pairings, Longshanks or plain CSV)"),
            type=["csv", "txt"], key=uploader_key(), max_upload_size=max(1, MAX_BYTES // 1_000_000),
            help=_("A header row naming the players (name or player, or first and last names), their faction or "
                   "army, their club or team and check-in where given; other columns are ignored. You see what "
                   "it would register first. Players already registered are left as they are."))
        if info["games"] and games.button(_("Register from games"), icon=":material/group_add:", key="register_games",
                                          help=_("Everyone who played a game of this tournament, with their faction")):
            register_from_games(name)
        if listed is not None:
            preview = preview_list(name, listed)
            if isinstance(preview, str):
                st.error(safe.message(preview), icon=":material/block:")
            else:
                with st.container(border=True, key="list_preview"):
                    st.caption(safe.md(preview.read))
                    st.markdown(safe.md(preview.summary))
                    compact.table("preview", lambda: st.dataframe(
                        preview.rows, hide_index=True, width="stretch", height=min(36 + 35 * len(preview.rows), 400),
                        column_config={k: st.column_config.Column(label) for k, label in
                                       registration.headers(registration.PREVIEW_COLUMNS).items()}),
                                  *registration.compact_preview(preview.rows))
                    if preview.button is None:
                        st.caption(_("Registering this list would change nothing."))
                    elif st.button(preview.button, icon=":material/how_to_reg:", type="primary", key="register_list"):
                        register_players(name, listed)
        show_message(REGISTERED)
        checkin_ui.desk(name, registered, join(st.context.url).base)
    else:
        st.caption(_("Sign in with an organiser's key in the sidebar to register players."))

    checkin_ui.round_tables(name)
    if session.may("organise") and info["last_round"]:
        round_time_ui.start_form(name, info["last_round"], timer, fmt.round_seconds)
    st.subheader(_("Next round"))
    with st.form("pair_round"):
        st.caption(_("Pairs from the standings (Swiss: no rematch when avoidable, one bye to the lowest-ranked "
                     "player without one, clubs kept apart in round 1) and creates the round's games. A round can be "
                     "paired again until one of its games has an event.") if fmt.teams is None else
                   _("Pairs the teams from the teams' standings (Swiss: no rematch when avoidable, a bye team for an "
                     "odd count); the captains then enter each match's matchups, which create its games."))
        left, _right = st.columns([1, 2])
        offered = registration.next_round(info)
        if st.session_state.get("pair_round_next") != (name, offered):  # a round was played meanwhile
            st.session_state["pair_round_next"] = (name, offered)
            st.session_state["pair_round_no"] = offered
        round_no = left.number_input(_("Round"), min_value=1, step=1, key="pair_round_no")
        anyway = st.checkbox(_("Pair even where results await the players' confirmations"), key="pair_unconfirmed",
                             help=_("The pairing says which tables were not confirmed."))
        if st.form_submit_button(_("Pair round"), icon=":material/shuffle:"):
            pair_round(name, int(round_no), anyway)
        show_message()  # the pairing's outcome, under its button
    if fmt.teams is not None:
        matchups_forms(name, fmt.teams.size)
joined = join(st.context.url)
if session.may("organise"):
    join_section(joined)
if last and any(r["game"] for r in last):
    round_shown = last[0]["round"]
    typed, button = st.columns([2, 3], vertical_alignment="bottom")
    base = cards_link(typed.text_input(_("The cards link to"), value=joined.base, key="cards_base", max_chars=200,
                                       help=_("The dashboard's address as the tablets and phones reach it: this "
                                              "dashboard's network address, unless a proxy serves it elsewhere.")))
    if base is None:
        typed.error(_("The cards need the dashboard's address, such as {example}.").format(example=joined.base),
                    icon=":material/link_off:")
    button.download_button(_("Table cards, round {round} (HTML, to print)").format(round=round_shown),
                           lambda: cards_html(name, last, base), disabled=base is None,
                           file_name=_("{tournament} round {round} table cards.html").format(tournament=name,
                                                                                             round=round_shown),
                           mime="text/html", icon=":material/print:", key="table_cards", on_click="ignore",
                           help=_("One card per table: its number, the players, and QR codes of the table's Record "
                                  "page and of the round's Live view. Two cards per A4 page."))
st.markdown(_("Players' page: [pairings and standings]({link})").format(link=f"public?tournament={quote(name)}"))
