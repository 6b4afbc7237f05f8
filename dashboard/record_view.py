"""What the Record page shows of a game, as a pure function of the game and the viewer: ``record_view``.

No Streamlit here: the page (dashboard/views/record.py) lays a ``RecordView`` out and its component
(dashboard/record_component.py, static/record.js) draws the status line, the board and the offers. Every offer
that records at one tap (a button, a hex, a model) carries what its tap changes — the status line, the board's
changed elements, the event's words (``Preview``) — so that the browser draws the new state in the frame of the
tap and the server only confirms it (or the page rolls it back with the refusal's message).

Everything offered comes from the rules pack (``legal_actions``); the previews come from the pack's own
``decide`` and ``apply`` on a copy of the state (``GameState.forks``): no rule is written here.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from domain.errors import RollcallError
from domain.systems.actions import Action
from domain.systems.presentation import Names, Presentation, game_title, phase_words, rolls_by_seq
from domain.systems.state import Checks, GameState
from domain.corrections import in_play  # (after the packs, whose specs it extends)
from i18n import _

LAST_SHOWN = 8  # how many of the last events the page lists
PREVIEWS_MAX = 24  # taps previewed a state, the buttons first, then the board's models and hexes: a move's many
# hexes would cost the run after a tap more than the tap saves (each preview applies its event to a copy)


def action_key(action: Action) -> str:
    return json.dumps([action.event, sorted(action.open)], sort_keys=True, default=str)


@dataclass
class Offer:
    """The actions of one button: one action, or the rolls of one player, purpose and die (one per number
    of dice), asked as one."""

    label: str
    actions: list[Action]
    group: str
    key: str = ""
    rolls: bool = False
    free_text: str | None = None  # the free text its event may carry (GameSystem.free_text)

    @property
    def action(self) -> Action:
        return self.actions[0]

    @property
    def complete(self) -> bool:
        """One tap records it: one action, nothing to fill (not even optional text)."""
        return len(self.actions) == 1 and self.action.complete and self.free_text is None


@dataclass
class Offers:
    groups: dict[str, list[Offer]] = field(default_factory=dict)
    moves: dict[str, list[Action]] = field(default_factory=dict)  # step/run -> the move actions

    def all(self) -> list[Offer]:
        return [o for offers in self.groups.values() for o in offers]


def purpose_words(purpose: Any) -> str:
    """A roll's purpose in the reader's words (``casting`` -> ``casting``, ``бросок на сотворение``…)."""
    return phase_words(purpose) if purpose else ""


def offers(actions: list[Action], pres: Presentation, names: Names) -> Offers:
    """The legal actions as the page offers them, in the pack's order, grouped."""
    out = Offers()
    rolls: dict[tuple, Offer] = {}
    for action in actions:
        event = action.event
        if pres.pack.records("moves", event):
            out.moves.setdefault(event.get("action", "step"), []).append(action)
            continue
        if event["type"] == "DiceRolled" and set(action.open) == {"faces"}:
            ident = (event.get("player"), event.get("purpose"), event.get("die"))
            offer = rolls.get(ident)
            if offer is None:
                label = _("{player}: {purpose} roll").format(player=names.player(event.get("player")),
                                                             purpose=purpose_words(event.get("purpose")))
                offer = rolls[ident] = Offer(label, [], action.group, "roll:" + json.dumps(ident), rolls=True)
                out.groups.setdefault(action.group, []).append(offer)
            offer.actions.append(action)
            continue
        out.groups.setdefault(action.group, []).append(
            Offer(pres.action_label(action.label, names), [action], action.group, action_key(action),
                  free_text=pres.pack.free_text.get(event.get("type"))))
    late = [g for g in pres.LATE_GROUPS if g in out.groups]  # what may come at any time goes after what is due
    out.groups = {g: o for g, o in out.groups.items() if g not in late} | {g: out.groups[g] for g in late}
    return out


@dataclass(frozen=True)
class Preview:
    """What one tap changes, drawn before the write is acknowledged: the status line after it, the board's
    elements it changes (``[element id, attribute, value]``) or, for a pack without a kept board, its whole
    picture after it, and the event in words as the list of last events will say it."""

    status: str
    look: list
    picture: str | None
    line: str

    def as_json(self) -> dict:
        return {"status": self.status, "look": self.look, "picture": self.picture, "line": self.line}


@dataclass(frozen=True)
class Doable:
    """One tap that records at once: its event (complete) and the words said when it is recorded."""

    event: dict
    done: str


@dataclass(frozen=True)
class LastEvent:
    seq: int
    text: str
    struck: bool  # taken out of play (a take-back, a rewind) or voided by a ruling


@dataclass(frozen=True)
class OfferShown:
    """A button of the offers: ``id`` is the Doable's (records at one tap) or the offer's key (picks a form)."""

    id: str
    label: str
    at_once: bool


@dataclass
class RecordView:
    """The Record page of one game at one seq, for one kind of move on the board (step or run)."""

    game: str
    title: str
    seq: int
    head: str
    status: str  # the event, turn, phase, who is active, sealed or ended, the scores (words)
    sealed: bool
    ended: bool
    groups: list[tuple[str, list[OfferShown]]]  # (title, buttons), in the pack's order
    offers: dict[str, Offer]  # by key: the offers that open a form, and those that record at once
    moves: dict[str, list[Action]]  # step/run -> the moves offered (the list beside the board)
    move_kind: str | None  # the kind of move the board offers now
    doable: dict[str, Doable]  # id -> a tap that records at once (buttons, hexes, models)
    hexes: dict[str, str]  # "q,r" -> the id of what a tap on it records
    models: dict[str, str]  # model id -> the id of what a tap on it records
    marked: list  # the hexes the board highlights as choices
    active: str | None  # the model being activated (highlighted)
    board: tuple | None  # the pack's kept picture: (key, drawing(), look), or None
    picture: str | None  # the pack's picture where it keeps none
    last: list[LastEvent]
    nothing_due: bool
    in_play: list[dict]  # the lines a take-back may take out, in order
    rolls: dict[int, dict]
    _fork: Any = field(repr=False, default=None)  # copies of the state as it was when the view was made
    _state_json: dict = field(repr=False, default=None)
    _pack: Any = field(repr=False, default=None)
    _names: Names = field(repr=False, default=None)
    _mark: dict = field(repr=False, default=None)

    @property
    def last_in_play(self) -> int | None:
        """The seq a take-back starts on: the last event in play."""
        return self.in_play[-1]["seq"] if self.in_play else None

    @cached_property
    def previews(self) -> dict[str, Preview]:
        """What each tap of ``doable`` changes (one that the rules would refuse has none: the page then
        waits for the server's word). Computed once per view, after the view itself is shown."""
        fork = self._fork
        pres = self._pack.presentation
        before = self._look(self._state_json, self._mark)  # as shown: the choices of now marked
        out = {}
        order = sorted(self.doable, key=lambda k: (k.startswith("models:"), k.startswith("hexes:")))
        for key in order[:PREVIEWS_MAX]:
            doable = self.doable[key]
            shown = _after(fork(), self._pack, doable.event, self.head)
            if shown is None:
                continue
            state, line = shown
            state_json = state.to_json()
            look = self._look(state_json)
            changed = [[el, attr, value] for (el, attr), value in look.items() if before.get((el, attr)) != value]
            picture = None if self.board is not None else pres.picture(state_json, names=self._names,
                                                                      events=state.lines)
            out[key] = Preview(status_text(state, self._names), changed, picture,
                               f"{line['seq']}. {pres.summary(line, rolls_by_seq(state.lines), self._names)}")
        return out

    def _look(self, state_json: dict, mark: dict | None = None) -> dict:
        """The board's every element (the choices of ``mark`` highlighted; after a tap none: they are the
        next state's to say)."""
        kept = self._pack.presentation.kept_picture(state_json, self._names, mark or {"hexes": [], "models": []})
        return {} if kept is None else {(el, attr): value for el, attr, value in kept[2]}


def _after(state: GameState, pack, event: dict, head: str) -> tuple[GameState, dict] | None:
    """``state`` (a fork) with ``event`` applied as the next event, and the line as it would be stored; None
    if the rules refuse it."""
    line = {**event, "seq": state.seq + 1}
    try:
        line.update(pack.decide(state, line, Checks(True)))
        line["hash"] = head
        pack.apply(state, line)
    except (RollcallError, KeyError, ValueError, TypeError):
        return None
    return state, line


def opponents_last(game, me: str, n: int = 3) -> tuple[str, list[LastEvent]] | None:
    """For a player signed in as ``me`` (a name) at ``game`` (the aggregate): the opponent's name and their last
    ``n`` events, newest first (who made an event: the pack's ``actor``); None when ``me`` does not sit there."""
    pres = game.system.presentation
    names = pres.names(game.header)
    seats = [p.get("id") for p in game.header.get("players", [])
             if isinstance(p, dict) and str(p.get("name", "")).casefold() != me.casefold()]
    if len(seats) != 1 or len(game.header.get("players", [])) != 2:
        return None
    them = names.player(seats[0])
    lines = game.state.lines
    rolls = rolls_by_seq(lines)
    out = game.state.voided | game.state.taken_back
    theirs = [line for line in lines if pres.actor_by_name(line, names) == them][-n:][::-1]
    return them, [LastEvent(line["seq"], f"{line['seq']}. {pres.summary(line, rolls, names)}", line["seq"] in out)
                  for line in theirs]


def status_text(state: GameState, names: Names) -> str:
    """The status line: which event the game is at, the turn, the phase, who is active, sealed or ended."""
    words = [_("event {seq}").format(seq=state.seq),
             _("turn {number}").format(number=state.turn) if state.turn else _("before turn 1")]
    if state.phase:
        words.append(_("{phase} phase").format(phase=phase_words(state.phase)))
    active = getattr(state, "activation", None)
    if active:
        words.append(_("active: {model}").format(model=names.of("models", active)))
    if state.sealed:
        words.append(_("sealed"))
    elif state.ended:
        words.append(_("ended at time") if state.ended_at_time else _("ended"))
    scores = " · ".join(f"{names.player(pid)} {points}" for pid, points in state.scores.items())
    return " · ".join(words + ([scores] if scores else []))


def record_view(game, *, move_kind: str | None = None) -> RecordView:
    """The Record page of ``game`` (the aggregate, as the application gives it) now. ``move_kind``: the kind
    of move the board offers (step or run; the first the rules allow when None or not allowed)."""
    state, pack = game.state, game.system
    pres = pack.presentation
    names = pres.names(game.header)
    actions = pack.legal_actions(state)
    found = offers(actions, pres, names)
    kinds = [k for k in ("step", "run") if k in found.moves]
    kind = move_kind if move_kind in kinds else (kinds[0] if kinds else None)
    doable: dict[str, Doable] = {}
    groups = []
    for group, group_offers in found.groups.items():
        shown = []
        for offer in group_offers:
            if offer.complete:
                doable[offer.key] = Doable(offer.action.event, offer.label)
            shown.append(OfferShown(offer.key, offer.label, offer.complete))
        groups.append((pres.group_title(group), shown))
    due_taps = [o.action for o in found.all() if "to" in o.action.open] or found.moves.get(kind, [])
    state_json = state.to_json()
    taps = pres.taps(due_taps + [a for a in actions if pres.pack.records("activations", a.event)], state_json)
    tap_ids: dict[str, dict[str, str]] = {"hexes": {}, "models": {}}
    for kind_of, where in (("hexes", taps.hexes), ("models", taps.models)):
        for place, choices in where.items():
            action, values = choices[0]
            event = action.fill(**values) if action.open else action.event
            key = f"{kind_of}:{place}"
            doable[key] = Doable(event, pres.action_label(action.label, names))
            tap_ids[kind_of][place] = key
    active = getattr(state, "activation", None)
    mark = {"hexes": taps.marked, "models": [active] if active else []}
    board = pres.kept_picture(state_json, names, mark)
    lines = state.lines
    rolls = rolls_by_seq(lines)
    out = state.voided | state.taken_back
    last = [LastEvent(line["seq"], f"{line['seq']}. {pres.summary(line, rolls, names)}", line["seq"] in out)
            for line in lines[-LAST_SHOWN:][::-1]]
    return RecordView(
        game=state.game, title=game_title(game.header), seq=state.seq, head=state.head,
        status=status_text(state, names), sealed=state.sealed, ended=state.ended, groups=groups,
        offers={o.key: o for o in found.all()}, moves=found.moves, move_kind=kind, doable=doable,
        hexes=tap_ids["hexes"], models=tap_ids["models"], marked=list(taps.marked), active=active,
        board=board, picture=None if board is not None else pres.picture(state_json, names=names, events=lines),
        last=last, nothing_due=not actions and not state.sealed, in_play=in_play(state), rolls=rolls,
        _fork=state.forks(), _state_json=state_json, _pack=pack, _names=names, _mark=mark)
