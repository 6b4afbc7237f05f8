"""Games: the recorded games, each with a link to its replay."""

import streamlit as st

from dashboard import data
from dashboard.games_table import games_frame
from dashboard.layout import games_or_stop

st.title("Games")
games = games_or_stop()
frame, config = games_frame(games)
st.caption(f"{len(games)} games in {data.data_dir()} · ▶ replay opens a game at its setup")
st.dataframe(frame, column_config=config, hide_index=True, width="stretch")
