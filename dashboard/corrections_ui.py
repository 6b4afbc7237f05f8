"""The Record page's corrections: a scorekeeper's take-back and a judge's rewind.

Each shows the events it would take out of play — struck through, in words — before anything is stored,
starts on the last event (the mis-tap noticed at once), and is stored only at a second tap (Confirm).
Changing what it would take out, or the game moving on, puts the pending confirmation away.
"""

from __future__ import annotations


import streamlit as st

from dashboard import params, safe
from dashboard import record_ui as ui
from dashboard.layout import in_the_pages_language
from domain.corrections import in_play
from domain.systems.presentation import Names, Presentation
from i18n import _, ngettext

TAKE_FROM = "rc-take-from"  # + ":game:seq": a field of its own for each state shown, so it starts on its default
TAKE_PENDING = "rc-take-pending"  # (game, from, seq shown) of a take-back tapped once
REWIND_TO = "rc-rewind-to"  # + ":game:seq", likewise
REWIND_JUDGE = "rc-rewind-judge"
REWIND_TEXT = "rc-rewind-text"
REWIND_PENDING = "rc-rewind-pending"  # (game, to, judge, text, seq shown) of a rewind tapped once


def field_key(name: str, game: str, seq: int) -> str:
    """The key of a correction's seq field for ``game`` shown at ``seq``: a new state (a write, another device,
    another game picked) or a field Streamlit forgot (the page left and visited again) starts it afresh on its
    default — the last event in play — and never on what another state left in it."""
    return f"{name}:{game}:{seq}"


def struck(lines: list[dict], pres: Presentation, rolls: dict, names: Names, kind: str) -> str:
    """The events a correction (``kind``: take-back, rewind) takes out, one a line, struck through and in words."""
    return "".join(f'<div class="rc-rec-line rc-taken-{kind}"><s>{line["seq"]}. {safe.html(pres.summary(line, rolls, names))}'
                   f'</s></div>' for line in lines)


def forget(key: str) -> None:
    st.session_state.pop(key, None)


@in_the_pages_language
def confirm_take_back(game: str, first: int, count: int) -> None:
    st.session_state.pop(TAKE_PENDING, None)
    ui.write(game, {"type": "TakenBack", "from": first},
             done=ngettext("took back {n} event from seq {seq}", "took back {n} events from seq {seq}",
                           count).format(n=count, seq=first))


@in_the_pages_language
def confirm_rewind(game: str, to: int, judge: str, text: str) -> None:
    st.session_state.pop(REWIND_PENDING, None)
    ui.write(game, {"type": "GameRewound", "to": to, "judge": judge, "text": text}, done=_("rewound to seq {seq}").format(seq=to))


def take_back(game: str, view, pres: Presentation, names: Names) -> None:
    """Take back every event in play from a seq (the last by default): shown, then confirmed."""
    playing = view.in_play
    if not playing:
        st.caption(_("No event in play to take back."))
        return
    pending = st.session_state.get(TAKE_PENDING)
    if pending is not None and (pending[0], pending[2]) != (game, view.seq):
        st.session_state.pop(TAKE_PENDING, None)  # tapped on another state: put away
    first = int(st.number_input(_("Take back every event from event"), min_value=playing[0]["seq"],
                                max_value=playing[-1]["seq"], value=view.last_in_play, step=1,
                                key=field_key(TAKE_FROM, game, view.seq), on_change=forget, args=(TAKE_PENDING,)))
    taken = [line for line in playing if line["seq"] >= first]
    title = ngettext("Taken back ({n} event):", "Taken back ({n} events):", len(taken)).format(n=len(taken))
    st.markdown(f"<div class='rc-taken-title'>{safe.html(title)}</div>"  # untranslated: markup around words
                + struck(taken, pres, view.rolls, names, "take-back"), unsafe_allow_html=True)
    pending = st.session_state.get(TAKE_PENDING)
    if pending != (game, first, view.seq):
        st.session_state.pop(TAKE_PENDING, None)
        st.button(_("Take back"), key="rc-take-back", width="stretch",
                  on_click=st.session_state.__setitem__, args=(TAKE_PENDING, (game, first, view.seq)))
        return
    st.warning(ngettext("Nothing is stored yet: confirm to take back {n} event.",
                        "Nothing is stored yet: confirm to take back {n} events.", len(taken)).format(n=len(taken)),
               icon=":material/undo:")
    cols = st.columns(2)
    cols[0].button(_("Confirm take-back"), type="primary", key="rc-take-confirm", width="stretch",
                   on_click=confirm_take_back, args=(game, first, len(taken)))
    cols[1].button(_("Keep them"), key="rc-take-cancel", width="stretch", on_click=forget, args=(TAKE_PENDING,))


def rewind(game: str, state, view, pres: Presentation, names: Names, judge_name: str) -> None:
    """A judge's rewind to a seq (just before the last event in play by default): shown, then confirmed."""
    last = view.last_in_play or view.seq
    if not st.session_state.get(REWIND_JUDGE) and judge_name:
        st.session_state[REWIND_JUDGE] = judge_name
    pending = st.session_state.get(REWIND_PENDING)
    if pending is not None and (pending[0], pending[-1]) != (game, view.seq):
        st.session_state.pop(REWIND_PENDING, None)
    to_key = field_key(REWIND_TO, game, view.seq)
    to = int(st.number_input(_("Keep the game up to event (every event in play after it is taken out)"), min_value=0,
                             max_value=max(state.seq - 1, 0), value=max(min(last - 1, state.seq - 1), 0), step=1,
                             key=to_key, on_change=forget, args=(REWIND_PENDING,)))
    judge = st.text_input(_("Judge"), key=REWIND_JUDGE, max_chars=params.MAX_NAME).strip()
    text = st.text_input(_("Why"), key=REWIND_TEXT, max_chars=params.MAX_TEXT).strip()
    taken = in_play(state, to)
    title = ngettext("Taken out ({n} event):", "Taken out ({n} events):", len(taken)).format(n=len(taken))
    st.markdown(f"<div class='rc-taken-title'>{safe.html(title)}</div>"  # untranslated: markup around words
                + struck(taken, pres, view.rolls, names, "rewind"), unsafe_allow_html=True)
    pending = st.session_state.get(REWIND_PENDING)
    if pending != (game, to, judge, text, state.seq):
        st.session_state.pop(REWIND_PENDING, None)

        @in_the_pages_language
        def ask() -> None:  # the fields as they are at the tap
            now = [(st.session_state.get(k) or "").strip() for k in (REWIND_JUDGE, REWIND_TEXT)]
            if all(now):
                st.session_state[REWIND_PENDING] = (game, int(st.session_state[to_key]), *now, state.seq)
            else:
                ui.say("error", _("A rewind needs the judge's name and why."), game)

        st.button(_("Rewind the game"), key="rc-rewind", width="stretch", on_click=ask)
        return
    st.warning(ngettext("Nothing is stored yet: confirm to take {n} event out of play.",
                        "Nothing is stored yet: confirm to take {n} events out of play.", len(taken)).format(n=len(taken)),
               icon=":material/fast_rewind:")
    cols = st.columns(2)
    cols[0].button(_("Confirm rewind"), type="primary", key="rc-rewind-confirm", width="stretch",
                   on_click=confirm_rewind, args=(game, to, judge, text))
    cols[1].button(_("Keep the game"), key="rc-rewind-cancel", width="stretch", on_click=forget, args=(REWIND_PENDING,))
