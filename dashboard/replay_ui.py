"""Streamlit pieces of the Replay page: navigation callbacks, the event details, the event list.

The page's position lives in two URL-bound widgets: ``game`` (selectbox) and ``seq``
(number input). Buttons and pickers move it only through the callbacks below, which set
``st.session_state["seq"]`` before the next run instantiates the widget; the URL follows.
"""

from __future__ import annotations

from functools import partial
from html import escape

import pandas as pd
import streamlit as st

from dashboard import events as ev

SEQ = "seq"
GAME = "game"
TURN_PICK = "turn_pick"
CURRENT_BG = "#ffe8a3"
VIOLATION_FG = "#c62828"


# --- callbacks --------------------------------------------------------------------------------

def go_to(seq: int) -> None:
    st.session_state[SEQ] = int(seq)


def step(delta: int, last: int) -> None:
    current = int(st.session_state.get(SEQ) or 0)
    st.session_state[SEQ] = min(max(current + delta, 0), last)


def game_changed() -> None:
    st.session_state[SEQ] = 0


def turn_picked(starts: dict[int, int]) -> None:
    turn = st.session_state.get(TURN_PICK)
    if turn is not None:
        st.session_state[SEQ] = starts.get(turn, 0)


def row_picked(key: str, seqs: list[int]) -> None:
    rows = st.session_state[key].selection.rows
    if rows:
        st.session_state[SEQ] = seqs[rows[0]]


# --- widgets ----------------------------------------------------------------------------------

def game_picker(ids: list[str], container=st) -> str:
    """Selectbox of games bound to the URL parameter ``game``.

    It has no default option, so the chosen game always stays in the URL (a bound widget drops
    its parameter while at its default); with none in the URL the first game is chosen.
    """
    if st.session_state.get(GAME) not in ids and st.query_params.get(GAME) not in ids:
        st.session_state[GAME] = ids[0]
    game = container.selectbox("Game", ids, index=None, key=GAME, bind="query-params", on_change=game_changed)
    if game is None:
        st.info("Pick a game to replay.")
        st.stop()
    return game


def seq_input(last: int, container=st) -> int:
    """Number input of the event (0 = setup) bound to the URL parameter ``seq``."""
    if int(st.session_state.get(SEQ) or 0) > last:
        st.session_state[SEQ] = last
    return int(container.number_input(f"Event (0–{last})", min_value=0, max_value=last, value=0, step=1,
                                      key=SEQ, bind="query-params", help="0 is the setup; → and ← step"))


def step_buttons(seq: int, last: int) -> None:
    """First / previous / next / last (previous and next also on the arrow keys)."""
    cols = st.columns(4, gap="small")
    cols[0].button("First", key="first", icon=":material/first_page:", on_click=go_to, args=(0,),
                   disabled=seq <= 0, width="stretch", shortcut="Home", help="First event (Home)")
    cols[1].button("Previous", key="prev", icon=":material/chevron_left:", on_click=step, args=(-1, last),
                   disabled=seq <= 0, width="stretch", shortcut="Left", help="Previous event (←)")
    cols[2].button("Next", key="next", icon=":material/chevron_right:", on_click=step, args=(1, last),
                   disabled=seq >= last, width="stretch", shortcut="Right", help="Next event (→)")
    cols[3].button("Last", key="last", icon=":material/last_page:", on_click=go_to, args=(last,),
                   disabled=seq >= last, width="stretch", shortcut="End", help="Last event (End)")


def turn_picker(starts: list[tuple[int, int]], turn: int, container=st) -> None:
    """Selectbox of turns showing the current turn; picking one jumps to its TurnStarted."""
    begin = {0: 0, **{t: s for t, s in starts}}
    options = sorted(begin)
    st.session_state[TURN_PICK] = turn if turn in begin else options[0]
    container.selectbox("Turn", options, key=TURN_PICK, on_change=turn_picked, args=(begin,),
                        format_func=lambda t: "Setup" if t == 0 else f"Turn {t} (from seq {begin[t]})")


def ruled_toggle(voided: dict[int, int]) -> bool:
    """The as-played / as-ruled switch (URL parameter ``ruled``); only shown when a ruling voided events."""
    if not voided:
        return False
    return st.toggle("As ruled", key="ruled", bind="query-params",
                     help=f"Leave out the {len(voided)} events a ruling voided (off: the game as played)")


def dispute_link(game: str, seq: int, voided: dict[int, int]) -> None:
    """A link opening the Dispute page at the current event."""
    from urllib.parse import urlencode

    if seq <= 0:
        return
    note = f" (void: ruling {voided[seq]})" if seq in voided else ""
    st.markdown(f'<a class="rc-dispute-link" href="/dispute?{urlencode({"game": game, "seq": seq})}" '
                f'target="_self">⚖ Dispute this event{note}</a>', unsafe_allow_html=True)


def players_line(state: dict) -> None:
    from dashboard.board import legend_html

    st.markdown(legend_html(state), unsafe_allow_html=True)


# --- the current event ------------------------------------------------------------------------

def _field_table(fields: dict, rules: dict | None = None, head: str = "field") -> str:
    lines = [f"| {head} | value |", "|---|---|"]
    for name, value in fields.items():
        text = ev.value_text(value).replace("|", "\\|")
        rule = f" <small>({rules[name]})</small>" if rules and rules.get(name) else ""
        lines.append(f"| `{name}`{rule} | {text} |")
    return "\n".join(lines)


def event_details(event: dict | None, state: dict, rolls: dict[int, dict], odds: dict[int, float] | None = None) -> None:
    """The current event: header line, its fields, dice, derived fields, violations."""
    if event is None:
        st.markdown(f"**Setup** (seq 0) — the starting position of `{escape(str(state.get('game')))}`.")
        return
    p = ev.payload(event)
    where = f"turn {event.get('turn') or 0}" + (f" · {event['phase']}" if event.get("phase") else "")
    who = f" · {event['player']}" if event.get("player") else ""
    st.markdown(f"**{event['type']}** · seq {event['seq']} · {where}{who}  \n{ev.summary(event, rolls)}")
    card = ev.phenomenon_text(event)
    if card:
        st.markdown(f"Card: {card}")
    given, derived = ev.split_fields(event, state.get("system"))
    if given:
        st.markdown(_field_table(given))
    if event.get("type") == "DiceRolled":
        faces = p.get("faces")
    else:
        ref = ev.roll_ref(event)
        faces = (rolls.get(ref) or {}).get("faces") if ref is not None else None
    ref = event["seq"] if event.get("type") == "DiceRolled" else ev.roll_ref(event)
    if faces and odds and ref in odds:
        source = (rolls.get(ref) or {}).get("source") or ev.payload(event).get("source") or "physical"
        st.caption(f"Roll {ref} ({source}): this outcome has probability {odds[ref]:.1%} under the dice in force")
    if faces:
        st.markdown(f"Dice: <span style='font-size:1.6em;letter-spacing:.15em'>{ev.dice_symbols(faces)}</span> "
                    f"<span style='opacity:.7'>({escape(', '.join(map(str, faces)))})</span>",
                    unsafe_allow_html=True)
    if derived:
        rules = ev.derived_rules(state.get("system"), event.get("type"))
        st.markdown(_field_table(derived, rules, "derived by the rules"), unsafe_allow_html=True)
    for v in ev.violations(event):
        st.error(f"**{v['rule']}** — {v['message']}", icon="⚠️")


# --- the event list ---------------------------------------------------------------------------

def event_list(game: str, rows: list[dict], seq: int) -> None:
    """A window of the event list around ``seq``, the current row marked; click a row to jump."""
    shown = ev.window(rows, seq)
    if not shown:
        st.caption("No events recorded yet.")
        return
    columns = ["seq", "turn", "type", "player", "rules", "summary"]
    df = pd.DataFrame([{"": "▶" if r["seq"] == seq else "", **{c: r[c] for c in columns}} for r in shown])

    def style(row: pd.Series) -> list[str]:
        if row["seq"] == seq:
            return [f"background-color:{CURRENT_BG};font-weight:bold"] * len(row)
        if row["rules"]:
            return [f"color:{VIOLATION_FG}"] * len(row)
        return [""] * len(row)

    key = f"events-{game}-{shown[0]['seq']}-{seq}"
    st.dataframe(
        df.style.apply(style, axis=1), key=key, hide_index=True, width="stretch",
        height=min(385, 35 * (len(shown) + 1) + 3),
        on_select=partial(row_picked, key, [r["seq"] for r in shown]), selection_mode="single-row",
        column_config={
            "": st.column_config.TextColumn("", width=18),
            "seq": st.column_config.NumberColumn("seq", width=42),
            "turn": st.column_config.NumberColumn("turn", width=36),
            "type": st.column_config.TextColumn("type", width=120),
            "player": st.column_config.TextColumn("player", width=54),
            "summary": st.column_config.TextColumn("summary", width="large"),
            "rules": st.column_config.TextColumn("⚠", width=48, help="Broken rules (lenient imports)"),
        },
    )
