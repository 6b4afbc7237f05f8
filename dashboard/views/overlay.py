"""Overlay: one game for a streaming tool's browser source (OBS) — a transparent page with no sidebar, header or
controls: the board, both players with their score, the turn and phase, and the last roll with its odds and
luck. Deep links: /overlay?game=G, or /overlay?tournament=T&table=N (the table's current game: the one under
way in the latest round, else its latest game).

An overlay is never privileged: it sees each game as any spectator does, behind the tournament's broadcast
delay (dashboard.viewer.spectator), and moves on as events come due (dashboard.live.follow_updates)."""

import streamlit as st

from dashboard import data, safe, viewer
from dashboard import events as ev
from dashboard.params import MAX_DIGITS, whole
from i18n import _

CSS = """<style>
html,body,.stApp,[data-testid="stAppViewContainer"],[data-testid="stMain"],[data-testid="stHeader"],
[data-testid="stBottom"],.stMain,.main{background:transparent!important;background-color:transparent!important}
[data-testid="stSidebar"],[data-testid="stSidebarCollapsedControl"],[data-testid="stHeader"],
[data-testid="stToolbar"],[data-testid="stDecoration"],[data-testid="stStatusWidget"],footer{display:none!important}
.block-container,[data-testid="stMainBlockContainer"]{padding:1rem 1.5rem!important;max-width:100%!important}
.rc-ov{display:flex;gap:1rem;align-items:flex-start;color:#fff;font-family:sans-serif;
 text-shadow:0 1px 3px rgba(0,0,0,.9)}
.rc-ov-board{flex:1 1 60%;background:rgba(0,0,0,.35);border-radius:.6rem;padding:.5rem}
.rc-ov-board svg{width:100%;height:auto;max-height:80vh}
.rc-ov-side{flex:0 0 30%;display:flex;flex-direction:column;gap:.6rem}
.rc-ov-panel{background:rgba(10,12,20,.72);border-radius:.6rem;padding:.6rem .9rem;font-size:1.3rem}
.rc-ov-player{display:flex;justify-content:space-between;gap:1rem;font-size:1.6rem;font-weight:700}
.rc-ov-score{font-variant-numeric:tabular-nums}
.rc-ov-meta{font-size:1.1rem;opacity:.9}
.rc-ov-dice{font-size:2.2rem;letter-spacing:.15em}
</style>"""

st.html(CSS)
seen = viewer.spectator()


def say(text: str) -> None:
    st.markdown(f'<div class="rc-ov"><div class="rc-ov-panel">{safe.html(text)}</div></div>', unsafe_allow_html=True)  # untranslated: markup around a text translated by the caller
    st.stop()


games = data.list_games(seen)
wanted = st.query_params.get("game")
if not wanted and st.query_params.get("tournament"):
    tournament = st.query_params.get("tournament")
    table, problem = whole(st.query_params.get("table"), _("a table"), 1, 10 ** MAX_DIGITS - 1)
    if problem or table is None:
        say(problem or _("Name a table: /overlay?tournament=T&table=N."))
    at_table = [g for g in games if g.get("tournament") == tournament and g.get("table_no") == table]
    if not at_table:
        say(_("No game at table {table} of {tournament}.").format(table=table, tournament=tournament))
    at_table.sort(key=lambda g: (not g.get("ended"), g.get("round") or 0, g.get("started") or ""))
    wanted = at_table[-1]["game"]
game = next((g for g in games if g["game"] == wanted), None) if wanted else None
if game is None:
    say(_("No game {game}.").format(game=wanted) if wanted else _("Name a game: /overlay?game=G."))

gid = game["game"]
seq = game.get("last_seq") or 0  # as a spectator sees it
state = data.state_at(gid, seq, seen)
header = data.header(gid)
pres = ev.presentation(header["system"])
names = pres.names(header)
events = data.game_events(gid, seen)
rolls = ev.rolls_by_seq(events)
odds = data.roll_odds(gid, seen)
players = "".join(
    f'<div class="rc-ov-panel"><div class="rc-ov-player"><span>{safe.html(names.player(pid))}</span>'
    f'<span class="rc-ov-score">{safe.html(p.get("score", 0))}</span></div>'
    + (f'<div class="rc-ov-meta">{safe.html(names.faction(p.get("faction")))}</div>' if p.get("faction") else "")
    + "</div>"
    for pid, p in (state.get("players") or {}).items())
phase = ev.value_text(state.get("phase") or "-")
turn = _("Turn {number}").format(number=state.get("turn") or 0) + f" · {phase}" + (
    " · " + _("ended") if game.get("ended") else "")
where = f'<div class="rc-ov-panel rc-ov-turn">{safe.html(turn)}</div>'
roll = ""
if rolls:
    last = max(rolls)
    r = rolls[last]
    luck = next((x for x in reversed(data.luck_line(gid, seen)) if x["seq"] == last), None)
    said = (_("Last roll by {player} (seq {seq})").format(player=names.player(r["player"]), seq=last)
            if r.get("player") else _("Last roll (seq {seq})").format(seq=last))
    lines = [f"<div>{safe.html(said)}</div>",
             f'<div class="rc-ov-dice">{ev.dice_symbols(r.get("faces"))}</div>']
    if last in odds:
        lines.append(f'<div class="rc-ov-meta rc-ov-odds">{safe.html(_("odds {odds}").format(odds=f"{odds[last]:.1%}"))}</div>')
    if luck:
        said = _("luck {luck} (expected {expected}, got {observed})").format(
            luck=f'{luck["luck"]:+.2f}', expected=f'{luck["expected"]:.2f}', observed=f'{luck["observed"]:.2f}')
        lines.append(f'<div class="rc-ov-meta rc-ov-luck">{safe.html(said)}</div>')
    roll = f'<div class="rc-ov-panel rc-ov-roll" data-seq="{last}">{"".join(lines)}</div>'
picture = pres.picture(state, names=names, mark={})
st.markdown(f'<div class="rc-ov" data-game="{safe.attr(gid)}" data-seq="{seq}">'  # untranslated: markup; its words are translated above
            f'<div class="rc-ov-board">{picture}</div>'
            f'<div class="rc-ov-side">{players}{where}{roll}</div></div>', unsafe_allow_html=True)
