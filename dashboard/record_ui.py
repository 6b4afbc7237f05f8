"""The Record page's pieces: the legal actions as buttons and small forms, and the one write they make.

Everything offered comes from the rules pack (``legal_actions``): an action without open fields is one
button; one with open fields (the faces the dice showed, a card, a score) is picked, then filled by taps and
recorded. Moves, ejections and activations are also a tap on the board (the pack's ``taps``). Every write
goes through the application service (``Rollcall.record``, ``roll``, ``draw_card``) with the session's key
and the seq this page last showed, so a refusal names its rule, nothing of it is stored, and a device that
is behind is told the game moved on.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from html import escape
from datetime import datetime, timezone
from typing import Any

import streamlit as st

from dashboard import data, record_component, safe, session
from dashboard.layout import in_the_pages_language
from dashboard.params import MAX_TEXT
from dashboard.record_view import Offer, RecordView, record_view
from domain.systems.actions import Action, Choice
from domain.systems.presentation import Names, Presentation, dice_symbols, die_symbol, game_title, pos_text
from i18n import N_, _, current as language, ngettext

MESSAGE = "record_message"  # (kind, text) of the last write, shown once
PICKED = "record_picked"  # the key of the action picked for filling
SEEN = "record_seen"  # (game, seq) the page last showed: a write is refused if the game moved on since
MODE = "record_mode"  # the kind of move the board offers: step or run
ROLL = "record_roll_dice"
WRITTEN = "record_written"  # (what was written, its message) of a write the page has not shown yet
ANSWERED = "record_answered"  # the number of the last tap of the table's component that was answered
VIEWS_KEPT = 64  # the views kept in the server's memory (a tablet's game: its state now and the one before)
_views: OrderedDict[tuple, RecordView] = OrderedDict()
_views_lock = threading.Lock()


def now() -> str:
    """The time at the table, as events carry it (``at``)."""
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def view_of(game, kind: str | None) -> RecordView:
    """The page's view of ``game`` (the aggregate) now, made once per state, language and kind of move:
    every device showing the same state shares it, and a tap finds what it offered (``offered``)."""
    key = (str(data.data_dir()), game.state.game, game.state.seq, language(), kind)
    with _views_lock:
        found = _views.get(key)
        if found is not None and found.head == game.state.head:
            _views.move_to_end(key)
            return found
    made = record_view(game, move_kind=kind)
    with _views_lock:
        _views[key] = _views[key[:-1] + (made.move_kind,)] = made  # as asked for, and as the kind it shows
        while len(_views) > VIEWS_KEPT:
            _views.popitem(last=False)
    return made


def offered(game: str, seq: int, kind: str | None) -> RecordView | None:
    """The view the page showed of ``game`` at ``seq`` (None if no longer kept)."""
    with _views_lock:
        return _views.get((str(data.data_dir()), game, seq, language(), kind))


@in_the_pages_language
def on_tap(game: str, mount: str) -> None:
    """A tap on the table's component (``mount``: its board or its offers): a form picked, or an event
    recorded as the view the tap was made on offered it — checked against the seq it was offered at, so a tap
    on a state another device has moved on from is refused, never recorded on the new one."""
    found = record_component.tapped(mount)
    if not found:
        return
    st.session_state[ANSWERED] = max(int(found.get("n") or 0), st.session_state.get(ANSWERED, 0))
    if found.get("pick"):
        unpick()
        pick(str(found["pick"]))
        return
    if found.get("nothing"):
        say("warning", _("Nothing to record at [{hex}] now.").format(hex=found["nothing"]), game)
        return
    seq = found.get("seq")
    view = offered(game, seq, st.session_state.get(MODE)) if isinstance(seq, int) else None
    doable = view.doable.get(str(found.get("id"))) if view is not None else None
    if doable is None:
        write(game, None, offered=seq if isinstance(seq, int) else None, moved_on=True)
        return
    write(game, doable.event, done=doable.done, offered=seq)


def game_choice(game: str, row: dict | None) -> str:
    """A game in the page's game picker, by its name (its round and table, or its players), not its id."""
    if not row:
        return game
    players = row.get("players")
    if isinstance(players, str):
        players = json.loads(players)
    said = game_title({**row, "players": players or []})
    if row.get("round") is not None and row.get("table_no") is not None and players:
        said += " · " + _(" vs ").join(str(p.get("name") or p.get("id")) for p in players if isinstance(p, dict))
    return said


def answered() -> int:
    return int(st.session_state.get(ANSWERED, 0))


# --- writing ------------------------------------------------------------------------------------------

@in_the_pages_language
def write(game: str, event: dict | None = None, *, roll: dict | None = None, draw: str | None | bool = False,
          done: str = "", offered: int | None = None, moved_on: bool = False) -> None:
    """Record one event of ``game`` (or roll, or draw, with Rollcall's dice) at the seq it was ``offered`` at
    (else the seq the page last showed); the outcome is the page's next message. The same write sent again after
    its answer was lost is recognised by the service: stored once. ``moved_on``: the tap was offered on a state
    the page no longer knows: it is refused as such."""
    from domain.access import AccessDenied
    from domain.errors import GameMovedOn, RollcallError

    seen = st.session_state.get(SEEN)
    offered = offered if type(offered) is int and offered >= 0 else None  # (what a browser says is checked)
    after = offered if offered is not None else seen[1] if seen and seen[0] == game else None
    if moved_on:
        say("warning", moved_on_text(session.store().last_seq(game)), game)
        return
    attempt = json.dumps([game, event, roll, draw], sort_keys=True, default=str)
    done_before = st.session_state.get(WRITTEN)
    if done_before and done_before[0] == attempt:
        # The same tap delivered again before the page showed its outcome (Streamlit replays a trigger when
        # a rerun of the whole page cuts short the run it came in): it is stored already, once.
        say("success", done_before[1], game)
        unpick()
        return
    app = session.store()
    try:
        if roll is not None:
            line = app.roll(game, after=after, at=now(), **roll)
        elif draw is not False:
            line = app.draw_card(game, draw or None, after=after, at=now())
        else:
            line = app.record(game, {**event, "at": now()}, after=after)
    except AccessDenied as exc:
        say("error", _("Not recorded — {why}").format(why=session.refused(exc, _("record this game"))), game)
    except GameMovedOn as exc:
        say("warning", moved_on_text(exc.now_at), game)
    except RollcallError as exc:
        say("error", _("Not recorded — {why}").format(why=exc), game)
    else:
        text = _("Recorded seq {seq}: {what}").format(seq=line["seq"], what=done or line["type"])
        st.session_state[WRITTEN] = (attempt, text)
        st.session_state[SEEN] = (game, line["seq"])  # the page's own write is no news to the store's watch
        say("success", text, game)
        unpick()


def moved_on_text(now_at) -> str:
    return _("The game moved on: another device recorded up to event {seq} meanwhile. Nothing was stored; "
             "this is the game now.").format(seq=now_at)


def shown_seq() -> int | None:
    """The seq the page is drawing (``showing``)."""
    seen = st.session_state.get(SEEN)
    return seen[1] if seen else None


def at_seq(key: str) -> str:
    """The key of a widget that writes, at the seq the page is drawing: a tap on it that reaches the server after
    the page moved on (its answer lost) finds no such widget and stores nothing again."""
    seq = shown_seq()
    return key if seq is None else f"{key}@{seq}"


def showing(game: str, seq: int) -> None:
    """The page shows ``game`` at ``seq`` now: later writes are checked against it, and a write before it
    has been shown."""
    st.session_state[SEEN] = (game, seq)
    st.session_state.pop(WRITTEN, None)


def held_back(game: str, delay: int, keys: bool) -> None:
    """What a spectator sees of a game its tournament broadcasts with a delay: where to follow it, delayed,
    and what recording it needs (nothing of the game itself)."""
    from urllib.parse import urlencode

    follow = f"/replay?{urlencode({'game': game})}"
    needs = (_("Sign in with a scorekeeper's key in the sidebar to record it.") if keys else
             _("This store has no keys to tell a scorekeeper from a spectator: it is recorded here once an "
               "organiser has added keys."))
    st.info(_("This game is broadcast with a delay of {delay} s. {needs} Spectators follow it on the "
              "[Replay page]({link}), {delay} s behind.").format(delay=delay, needs=needs, link=follow),
            icon=":material/schedule:")


def say(kind: str, text: str, game: str) -> None:
    """The page's message about ``game``: shown until the game moves on or another message replaces it."""
    st.session_state[MESSAGE] = (kind, text, game, None)


def show_message(game: str, seq: int, container=st) -> None:
    found = st.session_state.get(MESSAGE)
    if not found or found[2] != game:
        return
    kind, text, _game, at = found
    if at is None:
        st.session_state[MESSAGE] = (kind, text, game, seq)  # said about the game as it is now
    elif at != seq:
        st.session_state.pop(MESSAGE, None)
        return
    icon = {"success": ":material/check_circle:", "warning": ":material/sync_problem:",
            "error": ":material/block:"}[kind]
    getattr(container, kind)(safe.message(text), icon=icon)


# --- the forms of open fields -----------------------------------------------------------------------------

def value_text(value: Any, pres: Presentation, names: Names) -> str:
    if isinstance(value, list) and value and all(isinstance(v, int) for v in value):
        return pos_text(value)
    if isinstance(value, list):
        return " ".join(pos_text(v) for v in value)
    return pres.action_label(str(value), names)


def choose(name: str, choice: Choice, key: str, pres: Presentation, names: Names) -> tuple[bool, Any]:
    """A widget for one open field: (whether it is filled, its value)."""
    title = name.split(".", 1)[1] if "." in name else name.replace("_", " ")
    if "." in name:
        title = _("{player}'s {field}").format(player=names.player(title), field=name.split(".", 1)[0])
    title = title[:1].upper() + title[1:]  # a player's name as written ("Anna Lind's score", not "Anna lind's")
    if choice.kind == "count":
        if choice.high - choice.low <= 12:
            st.segmented_control(safe.md(title), list(range(choice.low, choice.high + 1)), key=key)
        else:
            st.number_input(safe.md(title), min_value=choice.low, max_value=choice.high, step=1, key=key,
                            value=None)
    elif choice.kind == "one_of":
        labels = [value_text(v, pres, names) for v in choice.values]
        pictures = [pres.choice_picture(name, v) for v in choice.values]
        if all(pictures):  # a small picture of each value (a vortex's facing), in the order of the choices
            st.markdown('<div class="rc-choice-pictures">' + "".join(  # untranslated: markup around words
                f'<figure class="rc-choice-picture">{picture}<figcaption>{escape(label)}</figcaption></figure>'
                for picture, label in zip(pictures, labels)) + "</div>", unsafe_allow_html=True)
        if len(labels) <= 8 and len(set(labels)) == len(labels):
            st.segmented_control(safe.md(title), labels, key=key, format_func=safe.md)
        else:
            st.selectbox(safe.md(title), labels, index=None, placeholder=_("Choose…"), key=key)
    else:
        with st.container(key="rc-dice-open"):
            for i in range(choice.count):
                st.segmented_control(_("Die {n}").format(n=i + 1) if choice.count > 1 else _("Face"),
                                     [die_symbol(f) for f in choice.values], key=f"{key}:{i}")
    return chosen(choice, key, pres, names)


def chosen(choice: Choice, key: str, pres: Presentation, names: Names) -> tuple[bool, Any]:
    """What the widget of one open field holds now (whether it is filled, its value): read when Record is
    tapped, so a value changed just before the tap counts even if the page had no run in between."""
    picked = st.session_state.get(key)
    if choice.kind == "count":
        return picked is not None, None if picked is None else int(picked)
    if choice.kind == "one_of":
        labels = [value_text(v, pres, names) for v in choice.values]
        return picked in labels, choice.values[labels.index(picked)] if picked in labels else None
    faces = faces_held(choice, key, choice.count)
    return all(f is not None for f in faces), faces


def filled_event(action: Action, offer_key: str, pres: Presentation, names: Names) -> dict | None:
    """The event of a picked offer as its form holds it now; None while a field is open."""
    values = {}
    for name, choice in action.open.items():
        ok, value = chosen(choice, f"rc-open:{offer_key}:{name}", pres, names)
        if not ok:
            return None
        values[name] = value
    event = action.fill(**values)
    extra = _optional_text(action, pres)
    text = st.session_state.get(f"rc-extra:{offer_key}") if extra else None
    event = {**event, extra: text} if text else event
    holder = st.session_state.get(f"{SECONDARY}{offer_key}")
    return {**event, "secondary": holder} if event.get("type") == "GameEnded" and holder else event


SECONDARY = "rc-secondary:"  # the form's holder of the secondary objective (a seat)


def secondary_choices(game: str) -> dict[str, str] | None:
    """Where the game's tournament's format has a secondary objective (domain.formats): its players' seats -> names,
    the choices of who holds it; None otherwise."""
    from domain.errors import RollcallError

    store = session.store()
    try:
        header = store.stored_lines(game)[0]
        name = header.get("tournament")
        if not isinstance(name, str) or not store.tournament(name).format.secondary:
            return None
    except (RollcallError, LookupError):
        return None
    return {p["id"]: str(p.get("name") or p["id"]) for p in header["players"]}


def secondary_field(game: str, offer_key: str) -> None:
    """Who holds the secondary objective, asked at the end of a game whose tournament's format has one."""
    seats = secondary_choices(game)
    if not seats:
        return
    st.segmented_control(_("Secondary objective (held by)"), list(seats), key=f"{SECONDARY}{offer_key}",
                         format_func=lambda seat: safe.md(seats[seat]),
                         help=_("Its points move from the other player to its holder; leave it unset when "
                                "nobody holds it."))


@in_the_pages_language
def write_form(game: str, action: Action, offer_key: str, pres: Presentation, names: Names, done: str,
               offered: int | None = None) -> None:
    event = filled_event(action, offer_key, pres, names)
    if event is None:
        say("error", _("Not recorded — a field of the form is still open."), game)
        return
    write(game, event, done=done, offered=offered)


def dice_key(offer_key: str, dice: int) -> str:
    """The widget key of a roll form's face pickers of ``dice`` dice (``…:i`` for the i-th die)."""
    return f"rc-die:{offer_key}:{dice}"


def faces_held(choice: Choice, key: str, dice: int) -> list:
    """The faces the pickers ``key:0`` … ``key:dice-1`` hold now (None where none is picked)."""
    symbols = {die_symbol(f): f for f in choice.values}
    return [symbols.get(st.session_state.get(f"{key}:{i}")) for i in range(dice)]


@in_the_pages_language
def write_faces(game: str, action: Action, offer_key: str, dice: int, label: str, offered: int | None = None) -> None:
    faces = faces_held(action.open["faces"], dice_key(offer_key, dice), dice)
    if not all(f is not None for f in faces):
        say("error", _("Not recorded — a die has no face yet."), game)
        return
    write(game, action.fill(faces=faces), done=f"{label}: {dice_symbols(faces)}", offered=offered)


def fill_form(game: str, offer: Offer, pres: Presentation, names: Names, *, digital: bool) -> None:
    """The form of a picked offer: its open fields by taps, then Record (or Roll, or Draw)."""
    with st.container(border=True, key="rc-picked"):
        st.markdown(f"**{safe.md(offer.label)}**")
        if offer.rolls:
            roll_form(game, offer, names, digital=digital)
            return
        action = offer.action
        if digital and _drawn_card(action, pres):
            st.button(_("Draw the card"), type="primary", key=at_seq("rc-draw"),
                      on_click=write, args=(game,), kwargs={"draw": action.event.get("vortex") or None,
                                                           "done": offer.label, "offered": shown_seq()})
            st.button(_("Cancel"), key="rc-cancel", on_click=unpick)
            return
        for name, choice in action.open.items():
            choose(name, choice, f"rc-open:{offer.key}:{name}", pres, names)
        extra = _optional_text(action, pres)
        if extra:
            st.text_input(_("{field} (optional)").format(field=safe.md(_(extra).capitalize())), key=f"rc-extra:{offer.key}", max_chars=MAX_TEXT)
        if action.event.get("type") == "GameEnded":
            secondary_field(game, offer.key)
        cols = st.columns(2)
        ready = filled_event(action, offer.key, pres, names) is not None
        cols[0].button(_("Record"), type="primary", disabled=not ready, key=at_seq("rc-record"), on_click=write_form,
                       args=(game, action, offer.key, pres, names, offer.label, shown_seq()), width="stretch")
        cols[1].button(_("Cancel"), key="rc-cancel", on_click=unpick, width="stretch")


def roll_form(game: str, offer: Offer, names: Names, *, digital: bool) -> None:
    by_count = {a.open["faces"].count: a for a in offer.actions}
    counts = sorted(by_count)
    if len(counts) > 1:
        dice = st.segmented_control(_("Dice"), counts, key=f"{ROLL}:{offer.key}")
    else:
        dice = counts[0]
    if dice is None:
        st.caption(_("How many dice?"))
        st.button(_("Cancel"), key="rc-cancel", on_click=unpick)
        return
    action = by_count[dice]
    event = action.event
    if digital:
        st.button(ngettext("Roll {n} die", "Roll {n} dice", dice).format(n=dice), type="primary", key=at_seq("rc-roll"),
                  on_click=write, args=(game,), kwargs={"roll": {"player": event["player"], "purpose": event["purpose"],
                                                                 "die": event["die"], "count": dice},
                                                        "done": offer.label, "offered": shown_seq()})
        st.button(_("Cancel"), key="rc-cancel", on_click=unpick)
        return
    choice = action.open["faces"]
    if dice == 1:  # one die: each face is a button that records at once
        named = not all(type(f) is int for f in choice.values)  # faces named by words (crit, success, blank)
        cols = st.container(key="rc-dice-one-named" if named else "rc-dice-one").columns(len(choice.values))
        for col, face in zip(cols, choice.values):
            col.button(f"{die_symbol(face)} {face}", key=at_seq(f"rc-face:{face}"), on_click=write,
                       args=(game, action.fill(faces=[face])),
                       kwargs={"done": f"{offer.label}: {face}", "offered": shown_seq()}, width="stretch")
        st.button(_("Cancel"), key="rc-cancel", on_click=unpick)
        return
    with st.container(key="rc-dice-faces"):
        for i in range(dice):
            st.segmented_control(_("Die {n}").format(n=i + 1), [die_symbol(f) for f in choice.values],
                                 key=f"{dice_key(offer.key, dice)}:{i}")
    ready = all(f is not None for f in faces_held(choice, dice_key(offer.key, dice), dice))
    cols = st.columns(2)
    cols[0].button(_("Record"), type="primary", disabled=not ready, key=at_seq("rc-record"), on_click=write_faces,
                   args=(game, action, offer.key, dice, offer.label, shown_seq()), width="stretch")
    cols[1].button(_("Cancel"), key="rc-cancel", on_click=unpick, width="stretch")


def _drawn_card(action: Action, pres: Presentation) -> bool:
    """A card draw Rollcall makes in a digital game (the card is the seed's): one of the pack's digital draws."""
    return action.event.get("type") in pres.pack.draw_events and "card" in action.open


def _optional_text(action: Action, pres: Presentation) -> str | None:
    """The free text the pack lets this action's event carry beside what the rules check (GameSystem.free_text)."""
    return pres.pack.free_text.get(action.event.get("type"))


def pick(key: str) -> None:
    st.session_state[PICKED] = key


FORM_KEYS = ("rc-die:", "rc-open:", "rc-extra:", f"{ROLL}:", "rc-move-end:", SECONDARY)  # what a picked form holds


def unpick() -> None:
    """Put the picked form away, with whatever was tapped in it (the next one starts empty)."""
    st.session_state.pop(PICKED, None)
    for key in [k for k in st.session_state if isinstance(k, str) and k.startswith(FORM_KEYS)]:
        del st.session_state[key]


MOVE_KINDS = {"step": N_("Step"), "run": N_("Run")}
MOVE_ENDS = {"step": N_("Tap a highlighted hex, or pick the end of the step"),
             "run": N_("Tap a highlighted hex, or pick the end of the run")}


def move_choices(game: str, moves: dict[str, list[Action]], pres: Presentation, names: Names,
                 positions: Callable[[Action], str]) -> list[Action]:
    """The moves the board shows (one kind at a time: step or run) with a list to pick from as well; the
    moves of the kind chosen."""
    kinds = [k for k in ("step", "run") if k in moves]
    if not kinds:
        return []
    if len(kinds) > 1:
        kind = st.segmented_control(_("Move"), kinds, key=MODE, default=kinds[0],
                                    format_func=lambda k: _(MOVE_KINDS[k])) or kinds[0]
    else:
        kind = kinds[0]
        st.caption(_("Move: {kind}").format(kind=_(MOVE_KINDS[kind]).lower()))
    shown = moves[kind]
    labels = {f"{positions(a)}": a for a in shown}
    row = st.columns([3, 1], vertical_alignment="bottom")
    picked = row[0].selectbox(_(MOVE_ENDS[kind]), list(labels), index=None, placeholder=_("Choose…"), key=f"rc-move-end:{kind}")
    row[1].button(_("Move"), key=at_seq("rc-move"), disabled=picked is None, on_click=write,
                  args=(game, labels[picked].event if picked else None),
                  kwargs={"done": pres.action_label(labels[picked].label, names) if picked else "",
                          "offered": shown_seq()}, width="stretch")
    return shown
