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

from dashboard import changes, data, params, round_time_ui, safe, session, viewer
from dashboard import confirm_ui
from dashboard import corrections_ui as corrections
from dashboard import other_roll
from dashboard import record_ui as ui
from dashboard import clock_ui as game_clock
from dashboard.components import static_text
from dashboard.layout import fragment
from dashboard import record_component
from dashboard import record_view
from domain.errors import GameNotFound
from i18n import _, current

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
    listed = {g["game"]: g for g in data.list_games(viewer.seen())}
except data.NoReadModels:
    listed = {}
wanted = st.query_params.get("game")
ids = list(dict.fromkeys(([wanted] if wanted else []) + list(listed)))
if not ids:
    st.info(_("No game to record yet: start one on the [New game](/new_game) page."), icon=":material/add_circle:")
    st.stop()
# the picker names each game in the tab's language (named once, in this run), and keeps its choice per language
# (the link holds the game)
named = {g: ui.game_choice(g, listed.get(g)) for g in ids}
game = st.selectbox(_("Game"), ids, index=ids.index(wanted) if wanted in ids else None, key=f"rc-game:{current()}",
                    placeholder=_("Pick the game to record"), format_func=named.__getitem__)
if game is None:
    st.info(_("Pick a game, or start one on the **New game** page."), icon=":material/info:")
    st.stop()
if st.query_params.get("game") != game:
    st.query_params["game"] = game

who = session.signed_in()  # (the device's sign-in is in the sidebar)
row = listed.get(game) or {}
round_time_ui.show(round_time_ui.of_round(row.get("tournament"), row.get("round")) if row.get("round") else None,
                   key="rc-round-time", round_end=round_time_ui.round_end(row.get("tournament")))  # the round's time, counting down; "time is called" at its end


@fragment
def table(game: str, who) -> None:
    """The game at the table: a tap reruns this alone (the page around it stays as it is). The status line,
    the board and the offers are the table's component (dashboard/record_component.py): a tap is drawn there at
    once and answered by this run."""
    app = session.store()
    try:
        current = app.get_game(game)
    except GameNotFound:
        st.error(_("There is no game **{game}** in the store.").format(game=safe.md(game)), icon=":material/link_off:")
        return

    writable = session.may_record(current)  # a player's sign-in: the game where the player sits (domain.access)
    delay = viewer.delay_before_live(current.header.get("tournament"))
    if delay and not writable:
        ui.held_back(game, delay, session.needs_keys())
        return
    current = game_clock.fall_due(current, writable=writable)  # a flag that fell meanwhile, recorded first
    state, system = current.state, current.system
    pres = system.presentation
    names = pres.names(current.header)
    view = ui.view_of(current, st.session_state.get(ui.MODE))
    ui.showing(game, view.seq)
    changes.follow({changes.game_key(game): view.seq}, key="rc-record-changes")  # another device's tap: this again
    digital = current.header.get("dice_mode") == "digital"
    answered = ui.answered()
    left, right = st.container(key="rc-record-cols").columns([1.5, 1], gap="medium")

    with left:
        judge = (who.name if who else _("judge")) if session.may("judge") and (
            who is not None or not session.needs_keys()) else None
        game_clock.panel(current, game_clock.player_names(current), writable=writable, judge=judge)
        record_component.board(view, answered, lambda: ui.on_tap(game, record_component.BOARD), taps=writable)

    with right:
        message = st.container()  # beside the controls (under the board on a tablet: a message never moves it)
        ui.show_message(game, view.seq, message)
        if not writable:
            player_refusal = session.record_refusal(current)
            if not (player_refusal and state.sealed):  # (a sealed game: the confirmations below say it)
                message.info(safe.message(player_refusal) if player_refusal else
                             safe.md(session.asked("record", _("record this game"))), icon=":material/key:")
        confirm_ui.panel(game, current)
        picked_key = st.session_state.get(ui.PICKED)
        picked = view.offers.get(picked_key) if picked_key else None
        if picked is not None and writable:
            ui.fill_form(game, picked, pres, names, digital=digital)
        player_ended = state.ended and session.playing()  # a player's phone after the end: the confirmations
        if writable and view.groups and not player_ended:
            record_component.offers(view, answered, picked_key if picked is not None else None,
                                    lambda: ui.on_tap(game, record_component.OFFERS))
        if writable and view.moves:
            with st.container(border=True):
                ui.move_choices(game, view.moves, pres, names,
                                lambda a: ui.value_text(a.event["path"][-1], pres, names))
        if writable:
            if view.nothing_due:
                st.info(_("Nothing the rules allow is due here."), icon=":material/info:")
            if view.sealed:
                st.success(_("The game is sealed: only a judge may add to it."), icon=":material/verified:")

        lines = state.lines
        if writable and not view.sealed:
            with st.expander(_("Other roll…")):
                other_roll.form(game, state, names, lines, digital=digital)
        if writable and lines and not view.sealed:
            with st.expander(_("Corrections")):
                corrections.take_back(game, view, pres, names)
                with st.form("rc-note", border=False, clear_on_submit=True):
                    note = st.text_input(_("A note for the record"), key="rc-note-text", max_chars=params.MAX_TEXT)
                    if st.form_submit_button(_("Add the note")) and note.strip():
                        ui.write(game, system.note_event(note.strip()), done=_("note"))
                        st.rerun()
        if lines and session.may("judge") and (who is not None or not session.needs_keys()):
            with st.expander(_("Rewind (a judge)")):
                corrections.rewind(game, state, view, pres, names, who.name if who else "")

        theirs = record_view.opponents_last(current, who.name) if session.playing() and who is not None else None
        if theirs is not None:  # a player's phone: what the opponent recorded last
            them, lines_of_them = theirs
            with st.container(key="rc-opponent-last"):
                st.caption(_("{name}'s last events").format(name=safe.md(them)))
                for shown in lines_of_them:
                    body = f"<s>{safe.html(shown.text)}</s>" if shown.struck else safe.html(shown.text)
                    st.markdown(f'<div class="rc-rec-line rc-rec-theirs">{body}</div>', unsafe_allow_html=True)  # untranslated: markup around the event's summary
                if not lines_of_them:
                    st.caption(_("Nothing yet."))
        st.caption(_("Last events"))
        for shown in view.last:
            body = f"<s>{safe.html(shown.text)}</s>" if shown.struck else safe.html(shown.text)
            st.markdown(f'<div class="rc-rec-line">{body}</div>', unsafe_allow_html=True)  # untranslated: markup around the event's summary
        st.markdown(f'<a href="/replay?{urlencode({"game": game, "seq": view.seq})}" target="_self">'  # untranslated: markup; its words are translated
                    f'{safe.html(_("Replay this game"))}</a>', unsafe_allow_html=True)
    if writable and view.doable:
        record_component.previews(view)  # last: what a tap changes, once the rest is shown


table(game, who)
