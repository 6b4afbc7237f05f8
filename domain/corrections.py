"""Corrections at the table: a scorekeeper's take-back and a judge's rewind, both appended as events.

Nothing is edited. ``TakenBack`` (``from``: a seq) takes back every event in play from that seq to the
last, for a mis-tap noticed at once; ``GameRewound`` (``to``: a seq, by a judge, with a text) takes back
every event in play after it, so that a dispute about event 40 of 420 can end in "replay from 40".
Both derive ``taken_back``, the seqs they took back. The game goes on from the state before those events
— the setup and every event still in play, applied again by the same rules (domain.rulings.rebuild) — and
what follows is checked against that state. The record keeps every event; replays show the taken-back
ones struck through, and the as-ruled game leaves them out.

Events *in play* are those that make the game: not judges' events or notes, not corrections, not voided
by a ruling and not taken back. What is in play after a correction is always a beginning of what was in
play before it, so a correction can never leave a game the rules would refuse.

- F12 (take-back): the last events only, up to the last judge's event (a judge rewinds past it); not a
  digital roll or draw (Rollcall threw those dice: taking them back would throw them again); not after
  the seal (F04).
- F13 (rewind): to an earlier seq with events in play after it; not past the end of a digital game,
  whose seed ``GameEnded`` made public.
"""

from __future__ import annotations

from domain.clock import CLOCK_EVENTS
from domain.errors import MalformedRecord
from domain.systems.fields import CORRECTIONS, JUDGE_EVENTS, EventSpec, integer, text
from domain.systems.state import Checks, GameState
from i18n import _

TAKE_BACK_RULE = "F12"
REWIND_RULE = "F13"
# the clock's events are not play: time spent is never taken back (domain.clock)
NOT_IN_PLAY = JUDGE_EVENTS | CORRECTIONS | CLOCK_EVENTS

SPECS = {
    "TakenBack": EventSpec({"from": integer}, {}, {"taken_back": TAKE_BACK_RULE}),
    "GameRewound": EventSpec({"to": integer, "judge": text, "text": text}, {}, {"taken_back": REWIND_RULE}),
}


def in_play(state: GameState, after: int = 0) -> list[dict]:
    """The lines in play with a seq above ``after``, in order."""
    out = state.voided | state.taken_back
    return [line for line in state.lines
            if line["seq"] > after and line["type"] not in NOT_IN_PLAY and line["seq"] not in out]


def _digital_seqs(state: GameState) -> set[int]:
    """The seqs of the digital rolls, re-rolls and draws Rollcall threw or drew."""
    rolls = {seq for seq, roll in state.rolls.items() if roll.source == "digital"}
    return rolls | {seq for seq, *_rest in state.digital_rerolls} | {seq for seq, *_rest in state.digital_draws}


def _revealed(state: GameState, lines: list[dict]) -> dict | None:
    """The GameEnded among ``lines`` that made a digital game's seed public."""
    if state.header.get("dice_mode") != "digital":
        return None
    return next((line for line in lines if line["type"] == "GameEnded"), None)


def decide_take_back(state: GameState, event: dict, chk: Checks) -> dict:
    first = event["from"]
    if not 1 <= first <= state.seq:
        raise MalformedRecord(_("field `from`: seq {seq} is not an event of this game (it has 1 to {last})").format(
            seq=first, last=state.seq), field="from")
    judged = next((line for line in state.lines if line["seq"] >= first
                   and line["type"] in JUDGE_EVENTS - {"Noted"} | {"GameRewound"}), None)
    if judged is not None:
        chk.fail(TAKE_BACK_RULE, _("a take-back stops at the judge's {event} at seq {seq}: only a judge rewinds past "
                                   "it").format(event=judged["type"], seq=judged["seq"]))
    taken = in_play(state, first - 1)
    if not taken:
        chk.fail(TAKE_BACK_RULE, _("no event from seq {seq} on is in play: there is nothing to take back").format(
            seq=first))
    digital = sorted(_digital_seqs(state) & {line["seq"] for line in taken})
    if digital:
        chk.fail(TAKE_BACK_RULE, _("seq {seq} is a digital roll or draw: dice Rollcall threw are not taken back (a "
                                   "judge may rewind the game)").format(seq=digital[0]))
    ended = _revealed(state, taken)
    if ended is not None:
        chk.fail(TAKE_BACK_RULE, _("the game's end at seq {seq} made its digital seed public: it is not taken "
                                   "back").format(seq=ended["seq"]))
    return {"taken_back": [line["seq"] for line in taken]}


def decide_rewind(state: GameState, event: dict, chk: Checks) -> dict:
    to = event["to"]
    if not 0 <= to < state.seq:
        raise MalformedRecord(_("field `to`: a game is rewound to an earlier seq, from 0 to {last}").format(
            last=state.seq - 1), field="to")
    taken = in_play(state, to)
    if not taken:
        chk.fail(REWIND_RULE, _("no event after seq {seq} is in play: there is nothing to rewind").format(seq=to))
    ended = _revealed(state, taken)
    if ended is not None:
        chk.fail(REWIND_RULE, _("the game's end at seq {seq} made its digital seed public: the game is not rewound "
                                "past it (its dice could be foreseen)").format(seq=ended["seq"]))
    return {"taken_back": [line["seq"] for line in taken]}


def apply_correction(state: GameState, event: dict) -> bool:
    """Mark the events taken back; whether the state still holds what they did (then it must be built
    again from the events in play: a reader that left them out already need not)."""
    seqs = set(event["taken_back"])
    state.taken_back |= seqs
    return any(line["seq"] in seqs for line in state.lines)
