"""Games: the recorded games, each with a link to its replay; filter by tournament, round, player, system."""

import streamlit as st

from dashboard import safe, viewer
from dashboard.games_table import filter_games, games_frame, player_names
from dashboard.layout import games_or_stop

st.title("Games")
seen = viewer.seen()
games = games_or_stop(seen)
cols = st.columns(4)
tournaments = cols[0].multiselect("Tournament", sorted({g.get("tournament") or "—" for g in games}),
                                  placeholder="every tournament")
rounds = cols[1].multiselect("Round", sorted({g["round"] for g in games if g.get("round") is not None}),
                             placeholder="every round")
players = cols[2].multiselect("Player", sorted({n for g in games for n in player_names(g)}),
                              placeholder="every player")
systems = cols[3].multiselect("System", sorted({g.get("system") for g in games if g.get("system")}),
                              placeholder="every system")
shown = filter_games(games, tournaments, rounds, players, systems)
for broken in (g for g in games if g.get("replay_error")):
    st.warning(f"Game {safe.md(broken['game'])} cannot be replayed from {safe.md(broken['replay_error'])} — its "
               "events are kept, its board stops there.", icon=":material/error:")
viewer.note_delay(seen, [g["game"] for g in shown])
frame, config = games_frame(shown)
st.caption(f"{len(shown)} of {len(games)} games · ▶ replay opens a game at its setup")
st.dataframe(frame, column_config=config, hide_index=True, width="stretch",
             height=min(36 * (len(shown) + 1) + 3, 900))
