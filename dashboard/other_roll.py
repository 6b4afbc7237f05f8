"""The Record page's "Other roll…": a roll the rules Rollcall checks do not model (a 9th Age game's shooting,
Claustrophobia's combat), in any phase of every system — the player, the die, how many, the face each die
needs (on a numbered die, if any) and what it was for, then the faces by taps (or Rollcall's dice in a
digital game). The labels already used in the game are offered again: the table's own words."""

from __future__ import annotations

import streamlit as st

from dashboard import record_ui as ui
from dashboard import safe
from dashboard.layout import in_the_pages_language
from domain import limits
from domain.systems.presentation import Names, dice_symbols, die_symbol
from i18n import _, ngettext

KEY = "rc-other"
NO_NEEDS = "no target"  # the needs picker's value for none (shown in words by its format_func)


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
    symbols = {die_symbol(f): f for f in dice_faces}
    faces = [symbols.get(got.get(f"{KEY}:face:{die}:{i}")) for i in range(int(count))]
    if any(f is None for f in faces):
        ui.say("error", _("Not recorded — a die has no face yet."), game)
        return
    ui.write(game, event_of(player, die, faces, needs, label), done=done_text(names, player, label, faces, needs))
    for i in range(int(count)):
        got.pop(f"{KEY}:face:{die}:{i}", None)


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
    count = st.number_input(_("How many dice"), min_value=1, max_value=limits.DICE, value=1, step=1, key=f"{KEY}:count")
    faces = dice.faces_of(die) if die else []
    if die and dice.numbered(die):
        st.segmented_control(_("Each die needs"), [NO_NEEDS, *[str(f) for f in faces]], default=NO_NEEDS,
                             format_func=lambda v: _("no target") if v == NO_NEEDS else f"{v}+", key=f"{KEY}:needs")
    else:
        st.session_state.pop(f"{KEY}:needs", None)
    recent = labels_used(lines)
    if recent:
        st.pills(_("Used at this table"), recent[:8], format_func=safe.md, key=f"{KEY}:recent", on_change=_use_recent)
    st.text_input(_("What for"), key=f"{KEY}:label", max_chars=limits.LABEL, placeholder=_("e.g. shooting: to hit"))
    if not digital and die:
        with st.container(key="rc-other-faces"):
            for i in range(int(count)):
                st.segmented_control(_("Die {n}").format(n=i + 1), [die_symbol(f) for f in faces], key=f"{KEY}:face:{die}:{i}")
    st.button(ngettext("Roll {n} die", "Roll {n} dice", int(count)).format(n=int(count)) if digital
              else _("Record the roll"), type="primary",
              key=f"{KEY}:record", on_click=write_other, args=(game, names, faces, digital), width="stretch")
