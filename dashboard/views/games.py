"""Games: the recorded games, each with a link to its replay; filter by tournament, round, player, system."""

import streamlit as st

from dashboard import safe, viewer
from dashboard.games_table import filter_games, games_frame, player_names
from dashboard.layout import games_or_stop
from i18n import _, ngettext

st.title(_("Games"))
seen = viewer.seen()
games = games_or_stop(seen)
cols = st.columns(4)
tournaments = cols[0].multiselect(_("Tournament"), sorted({g.get("tournament") or "—" for g in games}),
                                  placeholder=_("every tournament"))
rounds = cols[1].multiselect(_("Round"), sorted({g["round"] for g in games if g.get("round") is not None}),
                             placeholder=_("every round"))
players = cols[2].multiselect(_("Player"), sorted({n for g in games for n in player_names(g)}),
                              placeholder=_("every player"))
systems = cols[3].multiselect(_("System"), sorted({g.get("system") for g in games if g.get("system")}),
                              placeholder=_("every system"))
shown = filter_games(games, tournaments, rounds, players, systems)
for broken in (g for g in games if g.get("replay_error")):
    st.warning(_("Game {game} cannot be replayed from {event} — its events are kept, its board stops there.").format(
        game=safe.md(broken["game"]), event=safe.md(broken["replay_error"])), icon=":material/error:")
viewer.note_delay(seen, [g["game"] for g in shown])
frame, config = games_frame(shown)
st.caption(ngettext("{shown} of {total} game · ▶ replay opens a game at its setup",
                    "{shown} of {total} games · ▶ replay opens a game at its setup", len(games)).format(
    shown=len(shown), total=len(games)))
st.dataframe(frame, column_config=config, hide_index=True, width="stretch",
             height=min(36 * (len(shown) + 1) + 3, 900))
