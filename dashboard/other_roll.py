"""The Record page's "Other roll…": a roll the rules Rollcall checks do not model (a 9th Age game's shooting,
Claustrophobia's combat), in any phase of every system — the player, the die, how many, the face each die
needs (on a numbered die, if any) and what it was for, then the faces in one row however many dice were thrown:
a tap on a face adds a die that showed it (its count on the button), or the faces typed ("6 5 5 4 1", "65541"),
and the roll said back ("6 of 10 reach 4+") before it is recorded (or Rollcall's dice in a digital game). The
labels already used in the game are offered again: the table's own words."""

from __future__ import annotations

import re

import streamlit as st

from dashboard import record_ui as ui
from dashboard import safe
from dashboard.layout import in_the_pages_language
from domain import limits
from domain.systems.presentation import Names, dice_symbols, die_symbol
from i18n import _, ngettext

KEY = "rc-other"
NO_NEEDS = "no target"  # the needs picker's value for none (shown in words by its format_func)


def faces_typed(text: str, faces: list) -> tuple[list, str | None]:
    """The faces in ``text`` (each one of the die's ``faces``), and what is wrong with it (None: nothing): faces
    apart by spaces or commas, or, on a die whose faces are single digits, written together ("65541"); a face
    by its number, its word (``crit``) or its symbol (⚅)."""
    by_word = {str(f).lower(): f for f in faces} | {die_symbol(f): f for f in faces}
    out = []
    for token in [t for t in re.split(r"[\s,;]+", (text or "").strip().lower()) if t]:
        if token in by_word:
            out.append(by_word[token])
        elif all(ch in by_word for ch in token) and all(len(str(f)) == 1 for f in faces):
            out.extend(by_word[ch] for ch in token)
        else:
            return out, _("{face} is not a face of this die (its faces: {faces})").format(
                face=token, faces=" ".join(str(f) for f in faces))
    return out, None


def said_back(faces: list, needs: int | None) -> str:
    """A roll as the table checks it before recording: how many dice, the faces, how many reach the target."""
    shown = ngettext("{n} die", "{n} dice", len(faces)).format(n=len(faces)) + f": {dice_symbols(faces)}"
    if needs is not None:
        shown += " · " + _("{n} of {count} reach {needs}").format(
            n=sum(1 for f in faces if f >= needs), count=len(faces), needs=f"{needs}+")
    return shown


def _add_face(key: str, face) -> None:
    """A tap on a face: one more die that showed it."""
    st.session_state[key] = " ".join(x for x in ((st.session_state.get(key) or "").strip(), str(face)) if x)


def _take_last(key: str) -> None:
    st.session_state[key] = " ".join((st.session_state.get(key) or "").split()[:-1])


def labels_used(lines: list[dict]) -> list[str]:
    """The labels of the game's other rolls, the latest first, each once."""
    seen: list[str] = []
    for line in reversed(lines):
        label = line.get("label") if line.get("type") == "DiceRolled" and line.get("purpose") == "other" else None
        if isinstance(label, str) and label not in seen:
            seen.append(label)
    return seen


def event_of(player: str, die: str, faces: list, needs: int | None, label: str) -> dict:
    event = {"type": "DiceRolled", "player": player, "purpose": "other", "die": die, "faces": faces}
    if needs is not None:
        event["needs"] = needs
    if label:
        event["label"] = label
    return event


def done_text(names: Names, player: str, label: str, faces: list | None, needs: int | None) -> str:
    what = label or _("other roll")
    shown = f": {dice_symbols(faces)}" if faces else ""
    reached = (" " + _("({n} of {count} reach {needs})").format(n=sum(1 for f in faces if f >= needs),
                                                                 count=len(faces), needs=needs)
               if faces and needs is not None else "")
    return _("{player}'s {what}").format(player=names.player(player), what=what) + shown + reached


@in_the_pages_language
def write_other(game: str, names: Names, dice_faces: list, digital: bool) -> None:
    got = st.session_state
    player, die, count = got.get(f"{KEY}:player"), got.get(f"{KEY}:die"), got.get(f"{KEY}:count") or 1
    needs = got.get(f"{KEY}:needs")
    needs = None if needs in (None, NO_NEEDS) else int(needs)
    label = (got.get(f"{KEY}:label") or "").strip()[:limits.LABEL]
    if player is None or die is None:
        ui.say("error", _("Not recorded — choose the player and the die."), game)
        return
    if digital:
        ui.write(game, roll={"player": player, "purpose": "other", "die": die, "count": int(count), "needs": needs,
                             "label": label or None}, done=done_text(names, player, label, None, needs))
        return
    faces, wrong = faces_typed(got.get(faces_key(die)) or "", dice_faces)
    if wrong or not faces:
        ui.say("error", _("Not recorded — {why}.").format(why=wrong or _("no die has a face yet")), game)
        return
    if len(faces) > limits.DICE:
        ui.say("error", _("Not recorded — at most {n} dice a roll.").format(n=limits.DICE), game)
        return
    ui.write(game, event_of(player, die, faces, needs, label), done=done_text(names, player, label, faces, needs))
    got.pop(faces_key(die), None)


def faces_key(die: str) -> str:
    return f"{KEY}:faces:{die}"


def _use_recent() -> None:
    """A label used before, tapped: it is what the roll is for."""
    st.session_state[f"{KEY}:label"] = st.session_state.get(f"{KEY}:recent") or ""


def form(game: str, state, names: Names, lines: list[dict], *, digital: bool) -> None:
    """The "Other roll…" controls (inside the Record page's column of controls)."""
    dice = state.dice
    players = list(state.players)
    st.radio(_("Who rolls"), players, format_func=lambda p: safe.md(names.player(p)), horizontal=True,
             key=f"{KEY}:player")
    die = st.selectbox(_("Die"), sorted(dice.data, key=lambda d: not dice.numbered(d)), key=f"{KEY}:die")
    faces = dice.faces_of(die) if die else []
    count = (st.number_input(_("How many dice"), min_value=1, max_value=limits.DICE, value=1, step=1, key=f"{KEY}:count")
             if digital else 1)
    needs = None
    if die and dice.numbered(die):
        needs = st.segmented_control(_("Each die needs"), [NO_NEEDS, *[str(f) for f in faces]], default=NO_NEEDS,
                             format_func=lambda v: _("no target") if v == NO_NEEDS else f"{v}+", key=f"{KEY}:needs")
    else:
        st.session_state.pop(f"{KEY}:needs", None)
    recent = labels_used(lines)
    if recent:
        st.pills(_("Used at this table"), recent[:8], format_func=safe.md, key=f"{KEY}:recent", on_change=_use_recent)
    st.text_input(_("What for"), key=f"{KEY}:label", max_chars=limits.LABEL, placeholder=_("e.g. shooting: to hit"))
    if not digital and die:
        key = faces_key(die)
        typed, wrong = faces_typed(st.session_state.get(key) or "", faces)
        st.caption(_("The faces the dice showed: tap a face once for each die that showed it, or type them"))
        with st.container(key="rc-other-faces", horizontal=True, gap="small"):
            for face in faces:
                shown = sum(1 for f in typed if f == face)
                st.button(f"{die_symbol(face)} ×{shown}" if shown else die_symbol(face), key=f"{KEY}:add:{die}:{face}",
                          on_click=_add_face, args=(key, face), help=_("one more die that showed {face}").format(face=face))
            st.button("⌫", key=f"{KEY}:undo:{die}", on_click=_take_last, args=(key,), disabled=not typed,
                      help=_("take the last face back"))
        st.text_input(_("Faces"), key=key, placeholder=_("e.g. 6 5 5 4 1"))
        if wrong:
            st.error(safe.message(wrong), icon=":material/block:")
        elif typed:
            st.markdown(f'<div class="rc-other-said">{safe.html(said_back(typed, None if needs in (None, NO_NEEDS) else int(needs)))}</div>',  # untranslated: markup around words
                        unsafe_allow_html=True)
    st.button(ngettext("Roll {n} die", "Roll {n} dice", int(count)).format(n=int(count)) if digital
              else _("Record the roll"), type="primary",
              key=f"{KEY}:record", on_click=write_other, args=(game, names, faces, digital), width="stretch")
