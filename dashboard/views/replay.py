"""Replay: step through a recorded game event by event, in the browser. Deep link: /replay?game=G&seq=N
(&ruled=true: the as-ruled game, without the events a ruling voided)."""

import streamlit as st

from dashboard import data, safe, viewer
from dashboard import events as ev
from dashboard import replay_ui as ui
from dashboard.layout import games_or_stop
from dashboard.replay_component import position, replay
from i18n import _

# on a narrow page the details go under the stepper instead of beside it
NARROW_CSS = """<style>
.st-key-rc-replay-cols [data-testid="stHorizontalBlock"]{flex-wrap:wrap}
.st-key-rc-replay-cols [data-testid="stColumn"]:first-child{min-width:min(100%,560px)}
.st-key-rc-replay-cols [data-testid="stColumn"]:last-child{min-width:min(100%,300px)}
</style>"""

seen = viewer.seen()
games = games_or_stop(seen)
by_id = {g["game"]: g for g in games}
ids = list(by_id)
link = ui.read_link(ids)
notice = st.container()
for problem in link.problems:
    notice.error(problem, icon=":material/link_off:")

top = st.columns([3, 1], vertical_alignment="bottom")
game = ui.game_picker(ids, link.game, ui.game_label(by_id), top[0])
if game is None:
    if not link.problems:
        notice.info(_("No game chosen: pick a game to replay (a link names one as `/replay?game=ID`)."),
                    icon=":material/info:")
    st.stop()

events = data.game_events(game, seen)
last = int(events[-1]["seq"]) if events else 0
if seen.upto(game) is not None:  # a spectator, kept behind the game by its tournament's broadcast delay
    notice.info(_("Broadcast with a delay of {delay} s: the game is shown up to seq {last} (judges and scorekeepers "
                  "signed in see it all); it moves on as its events come due.").format(delay=seen.delay(game), last=last),
                icon=":material/schedule:")
voided = data.voided(game, seen)
ruled = ui.ruled_toggle(voided, link.ruled, top[1])
token, body = data.replay_body(game, seen, ruled)
here = position(token)
seq = here["seq"] if here else link.seq
if here is None and ui.was_at_the_end(game, last):  # new events of the game: at its end, go on with it (live)
    seq = last
if here is None and seq > last:
    notice.warning(_("Event {seq} is past the end of **{game}**: its last event is seq {last}. Showing seq {last}.")
                   .format(seq=seq, game=safe.md(game), last=last), icon=":material/last_page:")
seq = min(seq, last)
ui.write_link(game, seq, ruled)
ui.note_end(game, last, seq)

header = data.header(game)
system = header["system"]
names = ev.presentation(system).names(header)
st.html(NARROW_CSS)
left, right = st.container(key="rc-replay-cols").columns([1.75, 1], gap="medium")
with left:
    replay(token, seq, body, bool(here and here.get("flipped")), sent=here is not None)
with right, st.container(border=True):
    event = next((x for x in events if int(x["seq"]) == seq), None)
    rolls = ev.rolls_by_seq([x["payload"] for x in events if int(x["seq"]) <= seq])
    ui.event_details(event, game, system, names, rolls, data.roll_odds(game, seen))
    ui.dispute_link(game, seq, voided)
