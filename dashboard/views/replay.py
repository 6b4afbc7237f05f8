"""Replay: step through a recorded game event by event. Deep link: /replay?game=G&seq=N (&ruled=true:
the as-ruled game, without the events a ruling voided)."""

import streamlit as st

from dashboard import data
from dashboard import events as ev
from dashboard import replay_ui as ui
from dashboard.layout import games_or_stop
from dashboard.picture import picture_html, system_alias
from dashboard.swings import next_swing_button

games = games_or_stop()

top = st.columns([3, 2, 1.2], vertical_alignment="bottom")
game = ui.game_picker([g["game"] for g in games], top[0])
events = data.game_events(game)
last = int(events[-1]["seq"]) if events else 0
seq = ui.seq_input(last, top[2])
voided = data.voided(game)
ruled = ui.ruled_toggle(voided)
state = data.state_at(game, seq, ruled)
ui.turn_picker(data.turn_starts(game), int(state.get("turn") or 0), top[1])

event = next((e for e in events if int(e["seq"]) == seq), None)
# the state just before the event: the board's highlight needs it (the other pictures do not)
before = data.state_at(game, seq - 1, ruled) if seq > 0 and system_alias(state.get("system")) == "tornscape" else None
rolls = ev.rolls_by_seq(events)

ui.step_buttons(seq, last)
next_swing_button(game, seq)
left, right = st.columns([1.7, 1], gap="medium")
with left:
    ui.players_line(state)
    st.markdown(picture_html(state, event, before, events), unsafe_allow_html=True)
    ui.event_list(game, ev.event_rows(events, rolls, voided), seq)
with right, st.container(border=True):
    ui.event_details(event, state, rolls, data.roll_odds(game))
    ui.dispute_link(game, seq, voided)
