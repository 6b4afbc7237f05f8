"""Live: every table of a round as a grid of small boards with the score and the turn, following the games as
their events arrive (the dashboard's projector republishes within a second; the page runs again). A click on
a table follows it on the Replay page, at its last event. Deep link: /live?tournament=T&round=R.

A tournament may delay its broadcast (``rollcall tournament delay``): spectators without a key then see each
game only up to its events older than the delay (dashboard.viewer), and the page moves on as those come due;
anyone signed in with a key sees everything."""

from html import escape
from urllib.parse import urlencode

import streamlit as st

from dashboard import data, safe, viewer
from dashboard import events as ev
from dashboard.params import whole
from dashboard.tournament_ui import query
from i18n import N_, _

CSS = """<style>
.rc-live-card{border:1px solid rgba(49,51,63,.2);border-radius:.5rem;padding:.4rem .6rem;margin-bottom:.6rem}
.rc-live-card a.rc-live-follow{text-decoration:none;color:inherit;display:block}
.rc-live-head{font-size:.9rem;display:flex;justify-content:space-between;gap:.5rem;flex-wrap:wrap}
.rc-live-pic{margin-top:.3rem}
.rc-live-pic>svg{width:100%;height:auto;max-height:290px}
.rc-live-pic>svg .rc-legend{display:none}
.rc-live-meta{font-size:.8rem;opacity:.75}
</style>"""

ALL = N_("(every game under way)")  # the picker's first choice (shown in the page's language)

st.html(CSS)
st.title(_("Live"))
seen = viewer.seen()
try:
    games = data.list_games(seen)
except data.NoReadModels as exc:
    st.info(str(exc))
    st.stop()

tournaments = [t["tournament"] for t in query("list_tournaments")]
options = [ALL, *tournaments]
wanted = st.query_params.get("tournament")
top = st.columns([3, 1])
picked = top[0].selectbox(_("Tournament"), options, index=options.index(wanted) if wanted in options else 0,
                          key="live-tournament", format_func=lambda t: _(ALL) if t == ALL else t)
if picked == ALL:
    shown = [g for g in games if not g.get("ended")]
    st.query_params.pop("tournament", None)
    round_no = None
else:
    st.query_params["tournament"] = picked
    own = [g for g in games if g.get("tournament") == picked]
    rounds = sorted({g["round"] for g in own if g.get("round") is not None})
    if rounds:
        wanted_round, _problem = whole(st.query_params.get("round"), _("a round"))
        default = wanted_round if wanted_round in rounds else rounds[-1]
        round_no = top[1].selectbox(_("Round"), rounds, index=rounds.index(default), key="live-round")
        st.query_params["round"] = str(round_no)
        shown = [g for g in own if g.get("round") == round_no]
    else:
        round_no, shown = None, own
shown.sort(key=lambda g: (g.get("table_no") is None, g.get("table_no") or 0, g["game"]))
if not shown:
    st.info(_("No game under way here.") if picked == ALL else _("No games of {tournament} yet.").format(
        tournament=safe.md(picked)),
            icon=":material/info:")
    st.stop()

viewer.note_delay(seen, [g["game"] for g in shown])

columns = 3 if len(shown) > 4 else 2 if len(shown) > 1 else 1
grid: list = []
for i, game in enumerate(shown):
    if i % columns == 0:  # a row of columns at a time: on a phone, where columns stack, tables stay in order
        grid = st.columns(columns, gap="small")
    gid = game["game"]
    seq = game.get("last_seq") or 0  # as the viewer sees it (data.list_games)
    state = data.state_at(gid, seq, seen)
    header = data.header(gid)
    pres = ev.presentation(header["system"])
    names = pres.names(header)
    final = game.get("score") if game.get("ended") else None  # an ended game: its result, as it was entered
    final = final if isinstance(final, dict) else {}
    scores = " – ".join(f"{safe.html(names.player(pid))} {final.get(pid, p.get('score', 0))}"
                        for pid, p in (state.get("players") or {}).items())
    where = " · ".join(x for x in (_("table {number}").format(number=game["table_no"]) if game.get("table_no") else "",
                                   _("turn {number}").format(number=state.get("turn") or 0),
                                   _("seq {seq}").format(seq=seq)) if x)
    ended = " · " + _("ended") if game.get("ended") else ""
    link = f"/replay?{urlencode({'game': gid, 'seq': seq})}"
    picture = pres.card(state, names)
    with grid[i % columns]:
        st.markdown(f'<div class="rc-live-card" data-game="{safe.attr(gid)}" data-seq="{seq}">'  # untranslated: markup; its words are translated above
                    f'<a class="rc-live-follow" href="{escape(link)}" target="_self">'
                    f'<div class="rc-live-head"><b>{scores}</b><span class="rc-live-meta">{safe.html(where)}{ended}</span></div>'
                    f'<div class="rc-live-pic">{picture}</div></a></div>', unsafe_allow_html=True)

