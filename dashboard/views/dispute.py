"""Dispute: a game at the disputed moment, the evidence, and the judge's ruling.

Deep link: /dispute?game=G&seq=N (the disputed event; ``about=4,5,6`` for several). Shows the state
before and after the disputed events side by side, the rolls they involve with their provenance and
exact odds, the rule checks of those events, the disputes and rulings so far; a player's dispute and
a judge's ruling are recorded here (where the store has keys, by the device signed in in the sidebar).
"""

import streamlit as st

from dashboard import data, params, session, viewer
from dashboard import dispute_ui as dui
from dashboard import events as ev
from dashboard.layout import games_or_stop
from i18n import N_, _

DECISIONS = {"stands": N_("stands"), "void": N_("void")}  # the decision recorded -> its words

seen = viewer.seen()
games = games_or_stop(seen)
st.title(_("Dispute"))
dui.clear_written_forms()

top = st.columns([3, 1.2, 2], vertical_alignment="bottom")
game = dui.game_picker([g["game"] for g in games], top[0])
events = data.game_events(game, seen)
last = int(events[-1]["seq"]) if events else 0
viewer.note_delay(seen, [game])
seq = dui.seq_input(last, top[1])
with top[2]:
    about = dui.about_input(seq, last)
if not about:
    st.info(_("Pick the disputed events: set the event number, or list seqs under *{field}*.").format(
        field=_("Disputed events")))
    st.stop()

voided = data.voided(game, seen)
rolls = ev.rolls_by_seq(events)
by_seq = {int(e["seq"]): e for e in events}
first, final = min(about), max(about)
if st.session_state.pop("ruled_next", False):  # a void was just recorded: show the as-ruled game
    st.session_state["ruled"] = True
ruled = st.toggle(_("As ruled"), key="ruled", bind="query-params",
                  help=_("Leave out the events a ruling voided (the as-ruled game); off: the game as played."))

header = data.header(game)
presentation = ev.presentation(header["system"])
names = presentation.names(header)
before_col, after_col = st.columns(2, gap="medium")
before = data.state_at(game, first - 1, seen, ruled)
after = data.state_at(game, final, seen, ruled)
with before_col:
    st.subheader(_("Before · seq {seq}").format(seq=first - 1))
    st.markdown(presentation.picture(before, by_seq.get(first - 1), None, events, names), unsafe_allow_html=True)
with after_col:
    st.subheader(_("After · seq {seq} · as ruled").format(seq=final) if ruled else _("After · seq {seq}").format(seq=final))
    st.markdown(presentation.picture(after, by_seq.get(final), before, events, names), unsafe_allow_html=True)

st.subheader(_("The disputed events"))
st.dataframe(dui.events_frame([by_seq[s] for s in about], voided, rolls, header["system"], names), hide_index=True,
             width="stretch")
st.markdown(dui.replay_link(game, final, ruled), unsafe_allow_html=True)

st.subheader(_("Rule checks"))
dui.rule_checks(game, events, about)

st.subheader(_("Rolls involved"))
involved = data.rolls_involved(game, about, seen)
if involved:
    st.dataframe(dui.rolls_frame(involved, names), hide_index=True, width="stretch")
else:
    st.caption(_("No dice in these events."))
casts = data.casts_involved(game, about, seen)
if casts:
    st.dataframe(dui.casts_frame(casts, names), hide_index=True, width="stretch")

if header.get("clock"):
    st.subheader(_("The clock around these events"))
    clock_rows = data.clock_around(game, about, seen)
    if clock_rows:
        st.dataframe(dui.clock_frame(clock_rows, names, header["system"]), hide_index=True, width="stretch")
    else:
        st.caption(_("The clock was not started by then."))

st.subheader(_("Disputes and rulings so far"))
dui.disputes_and_rulings(data.disputes(game, seen), data.rulings(game, seen), names)

players = list(before.get("players") or {})
who = session.signed_in()
if who is not None and who.role == "judge" and not st.session_state.get("ruling-judge"):
    st.session_state["ruling-judge"] = who.name  # the judge signed in on this device
open_col, rule_col = st.columns(2, gap="medium")
with open_col, st.form("open-dispute"):
    st.markdown(_("**Open a dispute** about seq {seqs}").format(seqs=", ".join(map(str, about))))
    by = st.selectbox(_("Player calling the judge"), players, format_func=names.player)
    claim = st.text_area(_("Claim"), key="dispute-claim", max_chars=params.MAX_TEXT)
    if st.form_submit_button(_("Open dispute"), icon=":material/flag:"):
        dui.write("open_dispute", game, dui.OPEN, clear=("dispute-claim",), by=by, about=about,  # untranslated: the command's name
                  claim=claim.strip() or "(no claim given)")  # untranslated: written into the record
    dui.show_message(dui.OPEN)
with rule_col, st.form("ruling"):
    st.markdown(_("**Record a ruling** on seq {seqs}").format(seqs=", ".join(map(str, about))))
    judge = st.text_input(_("Judge"), key="ruling-judge", placeholder=_("the judge's name"), max_chars=params.MAX_NAME)
    decision = st.radio(_("Decision"), list(DECISIONS), horizontal=True, format_func=lambda d: _(DECISIONS[d]),
                        help=_("void leaves the events out of the as-ruled game; refused if what remains breaks a "
                               "rule"))
    text = st.text_area(_("Ruling"), key="ruling-text", placeholder=_("what the judge decided, and why"),
                        max_chars=params.MAX_TEXT)
    if st.form_submit_button(_("Record ruling"), icon=":material/gavel:", type="primary"):
        missing = dui.ruling_missing(judge, text)
        if missing:
            st.error(missing, icon=":material/edit_note:")
        else:
            dui.write("make_ruling", game, dui.RULING, clear=("ruling-judge", "ruling-text"), judge=judge.strip(),  # untranslated: the command's name
                      about=about, decision=decision, text=text.strip())
    dui.show_message(dui.RULING)
dui.written_forms_drawn()
