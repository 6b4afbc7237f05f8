"""Streamlit pieces of the Replay page around the stepper: the deep link (``?game=&seq=&ruled=``), its
plain-spoken errors, and the details of the current event.

The position lives in the browser (dashboard/replay_component.py); the page reads it back, debounced, and
writes it into the URL, so a link always opens the game where it was left.
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from dashboard import events as ev
from dashboard import safe
from domain.systems.presentation import Names
from i18n import _, ngettext

GAME, SEQ, RULED = "game", "seq", "ruled"


@dataclass
class Link:
    game: str | None
    seq: int
    ruled: bool
    problems: list[str]


def read_link(ids: list[str]) -> Link:
    """The game, seq and as-ruled switch of the URL, with what is wrong with them said plainly."""
    from dashboard.params import shown, whole

    params = st.query_params
    game = params.get(GAME)
    problems = []
    if game is not None and game not in ids:
        problems.append(_("There is no game **{game}** in the recorded games: pick one below.").format(
            game=safe.md(shown(game))))
        game = None
    seq, problem = whole(params.get(SEQ), _("an event number"))
    if problem:
        problems.append(_("{problem} Showing the setup (seq 0): events start at 1.").format(problem=problem))
    return Link(game, seq or 0, str(params.get(RULED, "")).lower() in ("true", "1", "yes"), problems)


def write_link(game: str, seq: int, ruled: bool) -> None:
    """The URL follows the page (without a rerun)."""
    if st.query_params.get(GAME) != game:
        st.query_params[GAME] = game
    if st.query_params.get(SEQ) != str(seq):
        st.query_params[SEQ] = str(seq)
    if ruled:
        st.query_params[RULED] = "true"
    elif RULED in st.query_params:
        del st.query_params[RULED]


def game_label(games: dict[str, dict]):
    def label(game: str) -> str:
        g = games.get(game) or {}
        players = _(" vs ").join(str(p.get("name") or p.get("id")) for p in g.get("players") or [] if isinstance(p, dict))
        bits = [game, players, str(g.get("system") or "")]
        return " · ".join(b for b in bits if b)
    return label


def _picked() -> None:
    st.query_params[GAME] = st.session_state["game_pick"]
    st.query_params[SEQ] = "0"


def game_picker(ids: list[str], game: str | None, label, container=st) -> str | None:
    """The game picker; it moves the URL to the game picked, at its setup."""
    if game is not None:
        st.session_state["game_pick"] = game
    # the session state holds the game: a default index beside it would make Streamlit warn in its log
    return container.selectbox(_("Game"), ids, index=None, key="game_pick",
                               format_func=label, placeholder=_("Pick a game to replay"), on_change=_picked)


def ruled_toggle(voided: dict[int, str], ruled: bool, container=st) -> bool:
    """The as-played / as-ruled switch; only shown when events were voided or taken back."""
    if not voided:
        return False
    return container.toggle(_("As ruled"), value=ruled, key="ruled_pick",
                            help=ngettext("Leave out the {n} event voided by a ruling or taken back (off: the game "
                                          "as played)", "Leave out the {n} events voided by a ruling or taken back "
                                          "(off: the game as played)", len(voided)).format(n=len(voided)))


def dispute_link(game: str, seq: int, voided: dict[int, str]) -> None:
    """A link opening the Dispute page at the current event."""
    from urllib.parse import urlencode

    if seq <= 0:
        return
    note = f" ({voided[seq]})" if seq in voided else ""
    words = _("Dispute this event")  # (a call inside an f-string is not found by the catalogs' extraction)
    st.markdown(f'<a class="rc-dispute-link" href="/dispute?{urlencode({"game": game, "seq": seq})}" '  # untranslated: markup
                f'target="_self">⚖ {safe.html(words)}{safe.html(note)}</a>', unsafe_allow_html=True)


# --- the current event ------------------------------------------------------------------------

def _named(value, names: Names):
    """A value with the pieces and players it names in words: ``Warden (p1m1)``."""
    if isinstance(value, list):
        return [_named(v, names) for v in value]
    if isinstance(value, str):
        for kind in ("models", "players", "vortices"):
            name = names.bare(kind, value)
            if name != value:
                return f"{name} ({value})"
    return value


def _field_table(fields: dict, rules: dict | None = None, head: str | None = None, names: Names | None = None) -> str:
    head = _("field") if head is None else head
    value = _("value")
    lines = [f"| {head} | {value} |", "|---|---|"]
    for name, value in fields.items():
        if names is not None:
            value = _named(value, names)
        text = safe.html(ev.value_text(value))
        rule = f" <small>({safe.html(rules[name])})</small>" if rules and rules.get(name) else ""
        shown = f"`{name}`" if "`" not in name and "|" not in name else safe.html(name)  # (a code span is text)
        lines.append(f"| {shown}{rule} | {text} |")
    return "\n".join(lines)


def event_details(event: dict | None, game: str, system: str, names: Names, rolls: dict[int, dict],
                  odds: dict[int, float] | None = None) -> None:
    """The current event: header line, its fields, dice, derived fields, violations."""
    if event is None:
        st.markdown(_("**Setup** (seq 0) — the starting position of {game}.").format(game=safe.md(game)))
        return
    pres = ev.presentation(system)
    where = _("turn {turn}").format(turn=event.get("turn") or 0) + (f" · {event['phase']}" if event.get("phase") else "")
    who = " · " + _("by {player}").format(player=names.player(event["player"])) if event.get("player") else ""
    seq = _("seq {seq}").format(seq=event["seq"])
    st.markdown(f"**{safe.md(event['type'])}** · {safe.md(seq)} · {safe.md(where)}{safe.md(who)}  \n"
                f"{safe.md(pres.summary(event, rolls, names))}")
    card = pres.details(event, names)
    if card:
        st.markdown(_("Card: {card}").format(card=card))
    given, derived = ev.split_fields(event, system)
    if given:
        st.markdown(_field_table(given, names=names), unsafe_allow_html=True)
    ref = event["seq"] if event.get("type") == "DiceRolled" else ev.roll_ref(event)
    faces = ev.payload(event).get("faces") if event.get("type") == "DiceRolled" else (
        (rolls.get(ref) or {}).get("faces") if ref is not None else None)
    if faces and odds and ref in odds:
        source = (rolls.get(ref) or {}).get("source") or ev.payload(event).get("source") or "physical"
        st.caption(_("Roll {seq} ({source}): this outcome has probability {p} under the dice in force").format(
            seq=ref, source=safe.md(source), p=f"{odds[ref]:.1%}"))
    if faces:
        st.markdown(safe.html(_("Dice:")) + f" <span style='font-size:1.6em;letter-spacing:.15em'>"  # untranslated: markup
                    f"{ev.dice_symbols(faces)}</span> "
                    f"<span style='opacity:.7'>({safe.html(', '.join(map(str, faces)))})</span>",
                    unsafe_allow_html=True)
    if derived:
        rules = ev.derived_rules(system, event.get("type"))
        st.markdown(_field_table(derived, rules, _("derived by the rules"), names), unsafe_allow_html=True)
    for v in ev.violations(event):
        st.error(f"**{safe.md(v['rule'])}** — {safe.md(v['message'])}", icon="⚠️")


END = "replay_end"  # (game, its last seq, whether the page showed that last seq) of the page's last run


def note_end(game: str, last: int, seq: int) -> None:
    """Remember where the page is against the game's end, for the next run (``was_at_the_end``)."""
    st.session_state[END] = (game, last, seq >= last)


def was_at_the_end(game: str, last: int) -> bool:
    """Whether the page showed this game's last event and the game has gone on since (new events arrived:
    the page follows the game live)."""
    seen = st.session_state.get(END)
    if not seen or seen[0] != game or last <= seen[1]:
        return False
    browser = (st.session_state.get("replay") or {}).get("position") or {}
    at_end = browser.get("seq") == seen[1] if isinstance(browser.get("seq"), int) else seen[2]
    return bool(at_end)
