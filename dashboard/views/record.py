"""Record: a game recorded live at the table, by taps. Deep link: /record?game=G.

The page reads the game from the application service (read-your-writes: a tap shows at once), offers what
the rules allow now (the pack's legal actions: buttons, small forms, taps on the board) and writes through
the same command as ``rollcall record`` and import. Mis-taps are taken back (a scorekeeper) or the game is
rewound (a judge): both are events, and the game goes on from the state before them. A game its tournament
broadcasts with a delay is shown only to a session signed in with a key (dashboard.viewer): a spectator is
sent to its delayed replay.
"""

from urllib.parse import urlencode

import streamlit as st

from dashboard import data, params, safe, session, viewer
from dashboard import corrections_ui as corrections
from dashboard import other_roll
from dashboard import record_ui as ui
from dashboard.components import static_text
from dashboard.layout import fragment, in_the_pages_language
from dashboard.record_component import board, tapped
from domain.errors import GameNotFound
from domain.systems.presentation import phase_words, rolls_by_seq
from i18n import _

NARROW_CSS = """<style>
.st-key-rc-record-cols>[data-testid="stLayoutWrapper"]>[data-testid="stHorizontalBlock"]{flex-wrap:wrap}
.st-key-rc-record-cols>[data-testid="stLayoutWrapper"]>[data-testid="stHorizontalBlock"]>[data-testid="stColumn"]:first-child{min-width:min(100%,420px)}
.st-key-rc-record-cols>[data-testid="stLayoutWrapper"]>[data-testid="stHorizontalBlock"]>[data-testid="stColumn"]:last-child{min-width:min(100%,320px)}
.st-key-rc-picked{background:rgba(255,224,102,.12)}
.rc-rec-line{font-size:.9rem;margin:.1rem 0}.rc-rec-line s{opacity:.6}
.rc-rec-status{font-size:1.05rem}
</style>"""

st.html(NARROW_CSS)
st.html(f"<style>{static_text('record_page.css')}</style>")
st.title(_("Record a game"))

try:
    listed = [g["game"] for g in data.list_games(viewer.seen())]
except data.NoReadModels:
    listed = []
wanted = st.query_params.get("game")
ids = list(dict.fromkeys(([wanted] if wanted else []) + listed))
if not ids:
    st.info(_("No game to record yet: start one on the [New game](/new_game) page."), icon=":material/add_circle:")
    st.stop()
game = st.selectbox(_("Game"), ids, index=ids.index(wanted) if wanted in ids else None, key="rc-game",
                    placeholder=_("Pick the game to record"))
if game is None:
    st.info(_("Pick a game, or start one on the **New game** page."), icon=":material/info:")
    st.stop()
if st.query_params.get("game") != game:
    st.query_params["game"] = game

who = session.signed_in()  # (the device's sign-in is in the sidebar)


@fragment
def table(game: str, who) -> None:
    """The game at the table: a tap reruns this alone (the page around it stays as it is)."""
    app = session.store()
    try:
        current = app.get_game(game)
    except GameNotFound:
        st.error(_("There is no game **{game}** in the store.").format(game=safe.md(game)), icon=":material/link_off:")
        return

    delay = viewer.delay_before_live(current.header.get("tournament"))
    if delay:
        ui.held_back(game, delay, session.needs_keys())
        return
    state, system = current.state, current.system
    pres = system.presentation
    names = pres.names(current.header)
    ui.showing(game, state.seq)
    actions = system.legal_actions(state)
    offers = ui.offers(actions, pres, names)
    digital = current.header.get("dice_mode") == "digital"
    writable = session.may("record")

    scores = " · ".join(f"{names.player(pid)} {points}" for pid, points in state.scores.items())
    status = [_("seq {seq}").format(seq=state.seq),
              _("turn {number}").format(number=state.turn) if state.turn else _("before turn 1")]
    if state.phase:
        status.append(_("{phase} phase").format(phase=phase_words(state.phase)))
    active = getattr(state, "activation", None)
    if active:
        status.append(_("active: {model}").format(model=names.of("models", active)))
    if state.sealed:
        status.append(_("sealed"))
    elif state.ended:
        status.append(_("ended"))
    st.markdown(f'<div class="rc-rec-status"><b>{safe.html(game)}</b> · {safe.html(" · ".join(status))} · '  # untranslated: markup; its words are translated above
                f'{safe.html(scores)}</div>', unsafe_allow_html=True)
    left, right = st.container(key="rc-record-cols").columns([1.5, 1], gap="medium")
    message = right.container()  # beside the controls (under the board on a tablet: a message never moves it)
    ui.show_message(game, state.seq, message)
    if not writable:
        message.info(safe.md(session.asked("record", _("record this game"))), icon=":material/key:")
    state_json = state.to_json()
    lines = list(state.lines)

    with right:
        picked_key = st.session_state.get(ui.PICKED)
        picked = next((o for o in offers.all() if o.key == picked_key), None)
        if picked is not None and writable:
            ui.fill_form(game, picked, pres, names, digital=digital)
        shown_moves = []
        if writable and offers.moves:
            with st.container(border=True):
                shown_moves = ui.move_choices(game, offers.moves, pres, names,
                                              lambda a: ui.value_text(a.event["path"][-1], pres, names))
        if writable:
            for group, group_offers in offers.groups.items():
                st.caption(pres.group_title(group))
                cols = st.columns(2)
                for i, offer in enumerate(group_offers):
                    ui.offer_button(game, offer, cols[i % 2])
            if not actions and not state.sealed:
                st.info(_("Nothing the rules allow is due here."), icon=":material/info:")
            if state.sealed:
                st.success(_("The game is sealed: only a judge may add to it."), icon=":material/verified:")

    with left:
        due_taps = [o.action for o in offers.all() if "to" in o.action.open] or shown_moves
        taps = pres.taps(due_taps + [a for a in actions if pres.pack.records("activations", a.event)], state_json)
        mark = {"hexes": taps.marked, "models": [active] if active else []}
        kept = pres.kept_picture(state_json, names, mark)
        if kept is not None:

            @in_the_pages_language
            def tap() -> None:
                where = tapped() or {}
                for kind, found in (("hexes", where.get("hex")), ("models", where.get("model"))):
                    choices = getattr(taps, kind).get(str(found)) if found else None
                    if choices and writable:
                        action, values = choices[0]
                        event = action.fill(**values) if action.open else action.event
                        ui.write(game, event, done=pres.action_label(action.label, names))
                        return
                if where.get("hex"):
                    ui.say("warning", _("Nothing to record at [{hex}] now.").format(hex=where["hex"]), game)

            board(*kept, state.seq, list(taps.hexes), list(taps.models), tap)
        else:
            st.markdown(pres.picture(state_json, names=names, events=lines), unsafe_allow_html=True)

        rolls = rolls_by_seq(lines)

    with right:
        if writable and not state.sealed:
            with st.expander(_("Other roll…")):
                other_roll.form(game, state, names, lines, digital=digital)
        if writable and lines and not state.sealed:
            with st.expander(_("Corrections")):
                corrections.take_back(game, state, pres, rolls, names)
                with st.form("rc-note", border=False, clear_on_submit=True):
                    note = st.text_input(_("A note for the record"), key="rc-note-text", max_chars=params.MAX_TEXT)
                    if st.form_submit_button(_("Add the note")) and note.strip():
                        ui.write(game, {"type": "Noted", "text": note.strip()}, done=_("note"))
                        st.rerun()
        if lines and session.may("judge") and (who is not None or not session.needs_keys()):
            with st.expander(_("Rewind (a judge)")):
                corrections.rewind(game, state, pres, rolls, names, who.name if who else "")

    with right:
        out = state.voided | state.taken_back
        st.caption(_("Last events"))
        for line in lines[-8:][::-1]:
            text = f"{line['seq']}. {pres.summary(line, rolls, names)}"
            body = f"<s>{safe.html(text)}</s>" if line["seq"] in out else safe.html(text)
            st.markdown(f'<div class="rc-rec-line">{body}</div>', unsafe_allow_html=True)  # untranslated: markup around the event's summary
        st.markdown(f'<a href="/replay?{urlencode({"game": game, "seq": state.seq})}" target="_self">'  # untranslated: markup; its words are translated
                    f'{safe.html(_("Replay this game"))}</a>', unsafe_allow_html=True)



table(game, who)
ui.watch(game)
