"""The rules pack every system extends: the events common to all games, decided and applied.

A system is a small subclass of :class:`GameSystem`, registered under its aliases (domain.systems finds
it). For each event type it has a spec (the fields a record line must carry), a ``decide_<Type>``
method that checks the rules and returns the derived fields, and an ``apply_<Type>`` method that
changes the state.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

from domain import clock, corrections, limits, randomness, rulings
from domain.errors import MalformedRecord, RollcallError, RuleViolation
from domain.record import bounded, did_you_mean, near_miss
from domain.systems.actions import Action, count, one_of as one_value
from domain.systems.dice import Dice, load_rule_data, merge
from domain.systems.facts import Fact
from domain.systems.presentation import Presentation, phase_words
from domain.systems.odds import chance, exactly, shown_chance
from domain.systems.fields import (AT_TIME, CORRECTIONS, JUDGE_EVENTS, PURPOSES, EventSpec, a_list, an_object, any_value,
                                   flag, integer, integer_in, integers, one_of, text, text_or_null, texts)
from domain.systems.state import Checks, GameState, Roll
from i18n import N_, _

# --- the rules pack ------------------------------------------------------------------------

# events that may come at any moment of play (check_sequence): judges', corrections, the clock's
OUTSIDE_PLAY = JUDGE_EVENTS | CORRECTIONS | clock.CLOCK_EVENTS
AFTER_THE_END = JUDGE_EVENTS | {"GameSealed", "GameEnded", "TakenBack", "ResultConfirmed"}  # GameEnded again is F04 (one GameEnded)

class GameSystem:
    """A rules pack. Subclasses add their events; the registry finds them by alias."""

    alias: ClassVar[str] = ""
    aliases: ClassVar[tuple[str, ...]] = ()
    title: ClassVar[str] = ""  # the system's name in words
    rule_data: ClassVar[str] = ""
    registry: ClassVar[dict[str, type[GameSystem]]] = {}
    state_class: ClassVar[type[GameState]] = GameState
    # the named phases of a turn, in order: they carry rules (FORMAT.md allows any other name, but a near
    # miss of one of these is a typo and refused) and the common legal actions offer them
    phases: ClassVar[tuple[str, ...]] = ()
    phase_words: ClassVar[tuple[str, ...]] = ()  # the phases' words, marked N_() for the catalogs (phase_words())
    # what the common legal actions ask of a system (legal_actions below)
    # (recorded as they are; shown with _(): presentation.reason_words)
    scoring_reasons: ClassVar[tuple[str, ...]] = (N_("objective"),)  # the reasons PointsScored offers
    # the reasons of a game played out (a game stopped when time is called ends at time: ``AT_TIME``)
    end_reasons: ClassVar[tuple[str, ...]] = (N_("turn limit"), N_("scenario end"), N_("concession"))
    most_points: ClassVar[int] = 20  # the most points one PointsScored offers
    highest_score: ClassVar[int] = 100  # the highest final score GameEnded offers (or the highest so far)
    # the events of the card draws ``digital_draw`` makes (Rollcall draws their card in a digital game)
    draw_events: ClassVar[tuple[str, ...]] = ()
    # what its events are to the read models: moves, casts, … (domain.systems.facts)
    facts: ClassVar[tuple[Fact, ...]] = ()
    # free text an event may carry beside what the rules check (event type -> field), which a form offers
    free_text: ClassVar[dict[str, str]] = {}
    #: How the system's games are shown (domain.systems.presentation); ``presentation`` is its instance.
    presentation_class: ClassVar[type[Presentation]] = Presentation

    specs: ClassVar[dict[str, EventSpec]] = {
        "TurnStarted": EventSpec({"turn": integer}),
        "PhaseStarted": EventSpec({"phase": text}),
        "DiceRolled": EventSpec({"player": text, "purpose": one_of(*PURPOSES), "die": text, "faces": a_list},
                                {"source": one_of("physical", "digital"), "label": text,
                                 "needs": integer_in(-limits.STAT, limits.STAT)}),
        "DieRerolled": EventSpec({"roll": integer, "index": integer, "face": any_value, "player": text}),
        "CardDrawn": EventSpec({"deck": text, "card": text, "player": text}),
        "PointsScored": EventSpec({"player": text, "points": integer_in(-limits.COUNT, limits.COUNT), "reason": text}),
        "GameEnded": EventSpec({"score": an_object, "winner": text_or_null, "reason": text},
                               {"seed": text, "secondary": text}),  # secondary: the seat holding the objective
        "GameSealed": EventSpec({"confirmed_by": texts}),
        # a player's confirmation of the result recorded (P07, P08); ``absent``: the organiser's, for a player
        # who left
        "ResultConfirmed": EventSpec({"seat": text, "score": an_object, "winner": text_or_null}, {"absent": flag}),
        "DisputeOpened": EventSpec({"by": text, "about": integers, "claim": text}),
        "RulingMade": EventSpec({"judge": text, "about": integers, "decision": one_of("stands", "void"), "text": text}),
        "Noted": EventSpec({"text": text}),
        **corrections.SPECS,
        # the game clock (domain.clock): each event with its time
        "ClockStarted": EventSpec({"at": text, "player": text}),
        "ClockPassed": EventSpec({"at": text, "player": text}),
        "ClockPaused": EventSpec({"at": text}, {"judge": text}),
        "ClockResumed": EventSpec({"at": text}, {"judge": text}),
        "ClockAdjusted": EventSpec({"at": text, "player": text,
                                    "seconds": integer_in(-clock.MOST_SECONDS, clock.MOST_SECONDS),
                                    "judge": text, "reason": text}),
        "FlagFell": EventSpec({"at": text, "player": text}),
    }


    @classmethod
    def records(cls, fact: str, event: dict) -> bool:
        """Whether ``event`` records the fact ``fact`` of this pack (domain.systems.facts)."""
        return any(f.name == fact and f.type == event.get("type") and (f.purpose is None or f.purpose == event.get(
            "purpose")) for f in cls.facts)
    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.alias:
            for name in (cls.alias, *cls.aliases):
                GameSystem.registry[name] = cls
        cls.specs = {**GameSystem.specs, **cls.__dict__.get("specs", {})}

    def __init__(self) -> None:
        self._decide = {t: getattr(self, f"decide_{t}", None) for t in self.specs}
        self._apply = {t: getattr(self, f"apply_{t}", None) for t in self.specs}
        self.defaults = load_rule_data(self.rule_data) if self.rule_data else {}

    @property
    def presentation(self) -> Presentation:
        """The pack's presentation hooks (one instance per pack)."""
        found = self.__dict__.get("_presentation")
        if found is None:
            found = self.__dict__["_presentation"] = self.presentation_class(self)
        return found

    # setup ---------------------------------------------------------------------------------
    def rules_in_force(self, header: dict) -> dict:
        overrides = header.get("rules") or {}
        rules = merge(self.defaults, overrides)
        for die, faces in (overrides.get("dice") or {}).items():  # a die is replaced whole: its face
            rules["dice"][die] = dict(faces)                      # order is the order digital rolls use
        return rules

    def new_state(self, header: dict) -> GameState:
        rules = self.rules_in_force(header)
        state = self.state_class(header, rules)
        state.dice = Dice(rules.get("dice", {}), rules.get("crit_counts_as_success", True))
        return state

    def check_setup(self, state: GameState, chk: Checks) -> None:
        """Validate the header's setup; systems override."""

    # what may happen next ------------------------------------------------------------------
    def legal_actions(self, state: GameState) -> list[Action]:
        """What the rules allow to be recorded next at ``state`` (domain.systems.actions).

        Here the events every system shares: the next turn (``may_start_turn``), the phases due
        (``phases_due``), points scored, the end of the game with its score, and once it has ended only
        its seal. Judge events and free-text notes are not offered. A system extends the list with its
        own actions while ``playing(state)``."""
        if state.sealed:
            return []
        if state.ended:
            return [Action({"type": "GameSealed", "confirmed_by": list(state.players)},
                           _("Both players confirm the record"), "end")]
        if self.interrupted(state):
            return [self.time_action(state)]
        actions = []
        turn = {"type": "TurnStarted", "turn": state.turn + 1}
        if self.may_start_turn(state) and self.allows(state, turn):
            actions.append(Action(turn, _("Turn {turn}").format(turn=state.turn + 1), "turn"))
        actions += [Action({"type": "PhaseStarted", "phase": phase}, capitalised(_("{phase} phase").format(
                           phase=phase_words(phase))), "turn") for phase in self.phases_due(state)
                    if self.allows(state, {"type": "PhaseStarted", "phase": phase})]
        actions.append(self.points_action(state))
        if self.allows(state, {"type": "GameEnded", "score": {p: 0 for p in state.players}, "winner": None,
                               "reason": "probe"}):
            actions.append(self.end_action(state))
        return actions + [self.time_action(state)]

    def allows(self, state: GameState, event: dict) -> bool:
        """Whether the rules would take ``event`` as the next event now (a strict decide; nothing changes)."""
        try:
            self.decide(state, {**event, "seq": state.seq + 1}, Checks(strict=True))
        except (RuleViolation, MalformedRecord):
            return False
        return True

    def actor(self, state: GameState, event: dict) -> str | None:
        """The player who made ``event`` at ``state`` (the state before it): its ``player``, else the owner
        of the piece it names (``owner``)."""
        player = event.get("player")
        return player if isinstance(player, str) else self.owner(state, event)

    def owner(self, state: GameState, event: dict) -> str | None:
        """The player whose piece ``event`` names (a model, a wizard, a warrior); systems say."""
        return None

    def playing(self, state: GameState) -> bool:
        """Whether the game is under way (not ended, not sealed, no flag fallen that ends it at once): a system
        offers its own actions only then."""
        return not state.ended and not state.sealed and not clock.ends_now(state.clock)

    def interrupted(self, state: GameState) -> bool:
        """Whether the rules require particular events first (an ether phenomenon card to draw, an
        ejection to resolve): meanwhile no common action is offered, only the system's own. By default
        the rules are asked whether they would take an ordinary event now (points scored); a system may
        answer directly."""
        probe = {"type": "PointsScored", "player": next(iter(state.players)), "points": 1, "reason": "probe",
                 "seq": state.seq + 1}
        try:
            self.decide(state, probe, Checks(strict=True))
        except RuleViolation:
            return True
        return False

    def may_start_turn(self, state: GameState) -> bool:
        """Whether a new turn may start now; systems refuse one in the middle of something (a magic phase)."""
        return True

    def phases_due(self, state: GameState) -> list[str]:
        """The phases that may start now: the first of ``phases`` once a turn has started, then each in
        turn (none after the last: the next turn comes); systems add their conditions."""
        if state.turn == 0 or not self.phases:
            return []
        if state.phase is None:
            return [self.phases[0]]
        if state.phase in self.phases[:-1]:
            return [self.phases[self.phases.index(state.phase) + 1]]
        return []

    def digital_draw(self, state: GameState, seed: bytes, choice: str | None = None) -> dict:
        """The event of the card draw due now, the card picked from the committed ``seed`` (domain.randomness);
        ``choice`` narrows what is drawn where several draws are due (a pack's own meaning)."""
        raise RollcallError(_("no card draw is due in game '{game}' ({system} has no digital draws)").format(
            game=state.game, system=self.alias))

    def seats(self, a: tuple[str, str | None], b: tuple[str, str | None]) -> tuple[tuple, tuple]:
        """The seats (p1, p2) of two paired (name, faction), ``a`` the better-ranked: p1 is ``a``."""
        return a, b

    def points_action(self, state: GameState) -> Action:
        return Action({"type": "PointsScored"}, _("Points scored"), "score",
                      open={"player": one_value(state.players), "points": count(1, self.most_points),
                            "reason": one_value(self.scoring_reasons)})

    def end_action(self, state: GameState) -> Action:
        """The end of the game: a score per player (``score.<player>``), the reason; the winner follows
        from the score (``winner_of``)."""
        low, high = min(0, *state.scores.values()), max(self.highest_score, *state.scores.values())
        scores = {f"score.{pid}": count(low, high) for pid in state.players}
        return Action({"type": "GameEnded"}, _("End of the game"), "end",
                      open={**scores, "reason": one_value(self.end_reasons)}, derive=winner_field)

    def time_action(self, state: GameState) -> Action:
        """The end at time (time was called): a score per player, in any phase, whatever is pending."""
        action = self.end_action(state)
        return Action({"type": "GameEnded", "reason": AT_TIME}, _("End at time"), "end",
                      open={k: v for k, v in action.open.items() if k != "reason"}, derive=winner_field)

    @staticmethod
    def ends_at_time(event: dict) -> bool:
        """Whether ``event`` ends its game at time (a ``GameEnded`` whose reason is ``time``)."""
        return event.get("type") == "GameEnded" and event.get("reason") == AT_TIME

    # events --------------------------------------------------------------------------------
    def spec(self, event_type: str, system: str) -> EventSpec:
        try:
            return self.specs[event_type]
        except KeyError:
            raise MalformedRecord(_("unknown event type `{type}` for system {system}").format(
                type=event_type, system=system), field="type") from None

    def decide(self, state: GameState, event: dict, chk: Checks) -> dict:
        event_type = event["type"]
        if state.ended:
            if state.sealed and event_type not in JUDGE_EVENTS:
                chk.fail("F04", _("the game is sealed; only judge events may follow, not {type}").format(type=event_type))
            elif event_type not in AFTER_THE_END:
                chk.fail("F10", _("the game has ended; only judge events and GameSealed may follow, not {type}").format(
                    type=event_type))
        elif state.sealed and event_type not in JUDGE_EVENTS:
            chk.fail("F04", _("the game is sealed; only judge events may follow, not {type}").format(type=event_type))
        if event_type not in OUTSIDE_PLAY and event_type != "ResultConfirmed":  # (a confirmation: after the end)
            clock.check_after_flag(state.clock, event, chk)
            if event_type != "GameEnded":  # (the end: decide_GameEnded)
                self.check_sequence(state, event, chk)
        handler = self._decide[event_type]
        return handler(state, event, chk) or {} if handler else {}

    def check_sequence(self, state: GameState, event: dict, chk: Checks) -> None:
        """What the rules require to come first, before an event of play (``event``): an ejection to resolve,
        a card to draw. Judges' events and corrections come at any moment. Systems override."""

    def derived_rule(self, state: GameState, event: dict, name: str, given: Any, value: Any) -> str:
        """The rule broken when a record gives derived field ``name`` as ``given`` but the rules give
        ``value`` (called before the event is applied); systems refine the spec's default."""
        return self.specs[event["type"]].derived[name]

    # how each purpose's roll is judged, where it is not by the faces shown: "successes" (exactly that many
    # successes), "any" (at least one success, or none); systems name their own (Tornscape: explore, dodge)
    roll_outcomes: ClassVar[dict[str, str]] = {}

    def roll_odds(self, state: GameState, roll) -> tuple[int, float]:
        """A roll's successes and the exact probability of its outcome under the dice in force: a roll that
        names the face its dice need (purpose other), exactly that many dice reaching it; a purpose the pack
        judges by successes (``roll_outcomes``), exactly that many, or at least one or none; any other roll,
        the faces shown, in any order."""
        die, faces = state.dice.data[roll.die], list(roll.faces)
        if roll.needs is not None:
            reached = sum(1 for f in faces if f >= roll.needs)
            return reached, exactly(len(faces), reached, chance(die, lambda f: int(f) >= roll.needs))
        successes = state.dice.successes(faces)
        p = chance(die, lambda f: state.dice.successes([f]) == 1)
        judged = self.roll_outcomes.get(roll.purpose)
        if judged == "successes":
            return successes, exactly(len(faces), successes, p)
        if judged == "any":
            none = (1 - p) ** len(faces)
            return successes, 1 - none if successes else none
        return successes, shown_chance(die, faces)

    def odds(self, state: GameState, event: dict) -> dict[str, float] | None:
        """The exact probability of each outcome the event decides (e.g. ``{"pass": 0.58, "miscast": 0.03}``),
        under the rules in force for the game, from ``state`` just before it; None for an event that decides
        none by chance. Systems name their own (domain.systems.odds counts the rolls)."""
        return None

    def accepts_derived(self, state: GameState, event: dict, name: str, given: Any, value: Any) -> bool:
        """Whether a derived field given as ``given``, not ``value``, is as good (the rules allow either; the
        record keeps the one given). None is by default; systems name their own (an order the rules leave
        open)."""
        return False

    def note_event(self, text: str) -> dict:
        """The event of a note a table adds to its record (free text, no rule)."""
        return {"type": "Noted", "text": text}

    def apply(self, state: GameState, event: dict) -> None:
        state.lines.append(event)
        handler = self._apply[event["type"]]
        if handler:
            handler(state, event)
        state.seq = event["seq"]
        state.head = event["hash"]

    # common events -------------------------------------------------------------------------
    def player(self, state: GameState, event: dict, name: str = "player") -> str:
        pid = event[name]
        if pid not in state.players:
            raise MalformedRecord(_("field `{field}`: unknown player '{player}'").format(field=name, player=pid),
                                  field=name)
        return pid

    def decide_TurnStarted(self, state: GameState, event: dict, chk: Checks) -> None:
        if event["turn"] != state.turn + 1:
            chk.fail("F02", _("turn {turn} follows turn {last}; turns count 1, 2, 3…").format(
                turn=event["turn"], last=state.turn))

    def apply_TurnStarted(self, state: GameState, event: dict) -> None:
        state.turn = event["turn"]
        state.phase = None

    def decide_PhaseStarted(self, state: GameState, event: dict, chk: Checks) -> dict:
        """Any phase name is allowed (FORMAT.md), but not a near miss of one of the system's own."""
        meant = near_miss(event["phase"], self.phases)
        if meant is not None:
            raise MalformedRecord(_("field `phase`: {phase} is no phase of {system} (did you mean `{meant}`?)").format(
                phase=repr(event["phase"]), system=self.alias, meant=meant), field="phase")
        return {}

    def apply_PhaseStarted(self, state: GameState, event: dict) -> None:
        state.phase = event["phase"]

    def decide_DiceRolled(self, state: GameState, event: dict, chk: Checks) -> None:
        self.player(state, event)
        die = event["die"]
        if die not in state.dice.data:
            raise MalformedRecord(_("field `die`: unknown die '{die}' (dice in force: {dice})").format(
                die=die, dice=", ".join(state.dice.data)) + did_you_mean(die, state.dice.data), field="die")
        if not 1 <= len(event["faces"]) <= limits.DICE:
            raise MalformedRecord(_("field `faces` must list from 1 to {most} faces, one per die").format(
                most=limits.DICE), field="faces")
        if event.get("source") == "digital" and state.header.get("dice_mode") != "digital":
            chk.fail("F07", _("a digital roll needs a digital game (header `dice_mode: digital` with a commit)"))
        for face in event["faces"]:
            if not state.dice.is_face(die, face):
                raise MalformedRecord(_("field `faces`: {face} is not a face of the {die} die ({faces})").format(
                    face=json.dumps(face), die=die, faces=", ".join(map(str, state.dice.faces_of(die)))),
                    field="faces")
        self._other_roll(state, event)

    def _other_roll(self, state: GameState, event: dict) -> None:
        """A roll outside the phases the rules model (purpose ``other``, in any phase) says what it was for in
        ``label`` and, on a numbered die, the face a die must reach to count as a success in ``needs``; no
        other purpose takes either (Rollcall's addition to the record format)."""
        for name in ("label", "needs"):
            if name in event and event["purpose"] != "other":
                raise MalformedRecord(_("field `{field}`: only a roll of purpose `other` takes a {field} (this one is "
                                        "a {purpose} roll)").format(field=name, purpose=event["purpose"]), field=name)
        label = event.get("label")
        if label is not None and not 0 < len(label.strip()) <= limits.LABEL:
            raise MalformedRecord(_("field `label`: says what the roll was for in 1 to {most} characters").format(
                most=limits.LABEL), field="label")
        needs = event.get("needs")
        if needs is not None:
            faces = state.dice.faces_of(event["die"])
            if not state.dice.numbered(event["die"]):
                raise MalformedRecord(_("field `needs`: the {die} die has no numbers to reach ({faces})").format(
                    die=event["die"], faces=", ".join(map(str, faces))), field="needs")
            if not min(faces) <= needs <= max(faces):
                raise MalformedRecord(_("field `needs`: {needs} is no face of the {die} die ({low} to {high})").format(
                    needs=needs, die=event["die"], low=min(faces), high=max(faces)), field="needs")

    def apply_DiceRolled(self, state: GameState, event: dict) -> None:
        state.rolls[event["seq"]] = Roll(event["seq"], event["player"], event["purpose"], event["die"],
                                         list(event["faces"]), event.get("source", "physical"),
                                         initial=tuple(event["faces"]), label=event.get("label"),
                                         needs=event.get("needs"))
        state.touch("rolls", event["seq"])

    def roll(self, state: GameState, seq: int, name: str = "roll") -> Roll:
        roll = state.rolls.get(seq)
        if roll is None:
            raise MalformedRecord(_("field `{field}`: no DiceRolled at seq {seq}").format(field=name, seq=seq),
                                  field=name)
        return roll

    def use_roll(self, state: GameState, chk: Checks, seq: int, *, purpose: str, player: str, die: str,
                 count: int | None, what: str, name: str = "roll", count_rule: str = "F03",
                 player_rule: str = "F03") -> Roll:
        """Check that roll ``seq`` is unused, of this purpose, player, die and number of dice.

        A wrong number of dice breaks the rule that fixes it (``count_rule``, e.g. R61 for a dodge), and
        a roll by the wrong player the rule that names the roller (``player_rule``, e.g. R10: the
        opponent rolls the stabilisation)."""
        roll = self.roll(state, seq, name)
        if roll.used_by is not None:
            chk.fail("F03", _("roll {roll} was already used by the event at seq {seq}").format(
                roll=seq, seq=roll.used_by))
        if roll.purpose != purpose:
            chk.fail("F03", _("roll {roll} is a {purpose} roll, not a {needed} roll for {what}").format(
                roll=seq, purpose=roll.purpose, needed=purpose, what=what))
        if roll.player != player:
            chk.fail(player_rule, _("roll {roll} was rolled by {roller}; {what} is rolled by {player}").format(
                roll=seq, roller=roll.player, what=what, player=player))
        if roll.die != die:
            chk.fail("F03", _("roll {roll} used {used} dice; {what} uses {die} dice").format(
                roll=seq, used=roll.die, what=what, die=die))
        if count is not None and len(roll.faces) != count:
            chk.fail(count_rule, _("roll {roll} has {dice} dice; {what} rolls {count}").format(
                roll=seq, dice=len(roll.faces), what=what, count=count))
        return roll

    def decide_DieRerolled(self, state: GameState, event: dict, chk: Checks) -> None:
        roll = self.roll(state, event["roll"])
        self.player(state, event)
        if not 0 <= event["index"] < len(roll.faces):
            raise MalformedRecord(_("field `index`: roll {roll} has {dice} dice").format(
                roll=roll.seq, dice=len(roll.faces)), field="index")
        if not state.dice.is_face(roll.die, event["face"]):
            raise MalformedRecord(_("field `face`: {face} is not a face of the {die} die").format(
                face=json.dumps(event["face"]), die=roll.die), field="face")
        if roll.used_by is not None:
            chk.fail("F03", _("roll {roll} was already used at seq {seq}; re-rolls come before the use").format(
                roll=roll.seq, seq=roll.used_by))
        if event["player"] != roll.player:
            chk.fail("R39", _("{player} may re-roll only their own dice; roll {roll} is {roller}'s").format(
                player=event["player"], roll=roll.seq, roller=roll.player))

    def apply_DieRerolled(self, state: GameState, event: dict) -> None:
        roll = state.rolls[event["roll"]]
        roll.faces[event["index"]] = event["face"]
        state.touch("rolls", roll.seq)
        if event.get("source") == "digital":
            state.digital_rerolls.append((event["seq"], roll.die, event["face"]))

    def decide_CardDrawn(self, state: GameState, event: dict, chk: Checks) -> None:
        self.player(state, event)

    def decide_PointsScored(self, state: GameState, event: dict, chk: Checks) -> None:
        self.player(state, event)

    def apply_PointsScored(self, state: GameState, event: dict) -> None:
        state.scores[event["player"]] += event["points"]
        state.touch("players", event["player"])

    def decide_GameEnded(self, state: GameState, event: dict, chk: Checks) -> None:
        if state.ended:
            chk.fail("F04", _("the game has already ended"))
        score = event["score"]
        if set(score) != set(state.players):
            raise MalformedRecord(_("field `score` must give a score for each of {players}").format(
                players=", ".join(state.players)), field="score")
        for pid in state.players:
            bounded(score, pid, -limits.SCORE, limits.SCORE, where="score")
        if event["winner"] is not None:
            self.player(state, event, "winner")
        if event.get("secondary") is not None:
            self.player(state, event, "secondary")
        best = max(score.values())
        leaders = [pid for pid in state.players if score[pid] == best]
        winner = leaders[0] if len(leaders) == 1 else None
        if event["winner"] != winner:
            scores = ", ".join(f"{pid} {score[pid]}" for pid in state.players)
            should = _("the winner is {player}").format(player=winner) if winner else \
                _("equal scores are a draw, with no winner (null)")
            chk.fail("F09", _("the score is {scores}: {should}, not {given}").format(
                scores=scores, should=should, given=event["winner"] or "null"))
        if state.header.get("dice_mode") == "digital":
            seed = event.get("seed")
            if seed is None:
                chk.fail("F07", _("a digital game's GameEnded reveals its seed (`seed`)"))
            else:
                for problem in digital_mismatches(state, seed):
                    chk.fail("F07", problem)
        if not self.ends_at_time(event):
            played_out = PlayedOut(chk)
            self.check_sequence(state, event, played_out)
            self.check_played_out(state, played_out)

    def check_played_out(self, state: GameState, chk: Checks) -> None:
        """What the rules require before a game played out ends (not one ended at time): a turn's last phase,
        every die dealt; systems override. Each refusal says which end it holds for (:class:`PlayedOut`)."""

    def apply_GameEnded(self, state: GameState, event: dict) -> None:
        clock.stop(state.clock, event)
        state.ended = True
        state.ended_at_time = self.ends_at_time(event)
        state.result = {"score": event["score"], "winner": event["winner"]}

    def decide_ResultConfirmed(self, state: GameState, event: dict, chk: Checks) -> None:
        seat = self.player(state, event, "seat")
        result = getattr(state, "result", None)
        if not state.ended or result is None:
            chk.fail("P08", _("a result is confirmed once the game has ended (GameEnded); game {game} has not").format(
                game=state.game))
            return
        if seat in getattr(state, "confirmed", {}):
            chk.fail("P08", _("{seat} has confirmed the result already").format(seat=seat))
        given = {"score": event["score"], "winner": event["winner"]}
        if given != result:
            said = lambda r: ", ".join(f"{pid} {r['score'].get(pid)}" for pid in state.players) + (  # noqa: E731
                "; " + _("{player} wins").format(player=r["winner"]) if r["winner"] else "; " + _("a draw"))
            chk.fail("P07", _("the result confirmed ({given}) differs from the result recorded ({recorded}): a player "
                              "who saw another result disputes it").format(given=said(given), recorded=said(result)))

    def apply_ResultConfirmed(self, state: GameState, event: dict) -> None:
        if not hasattr(state, "confirmed"):
            state.confirmed = {}
        state.confirmed[event["seat"]] = event["seq"]

    def decide_GameSealed(self, state: GameState, event: dict, chk: Checks) -> None:
        for pid in event["confirmed_by"]:
            if pid not in state.players:
                raise MalformedRecord(_("field `{field}`: unknown player '{player}'").format(
                    field="confirmed_by", player=pid), field="confirmed_by")
        if set(event["confirmed_by"]) != set(state.players):
            chk.fail("F04", _("a game is sealed when both players confirm it"))

    def apply_GameSealed(self, state: GameState, event: dict) -> None:
        state.sealed = True

    def decide_DisputeOpened(self, state: GameState, event: dict, chk: Checks) -> None:
        self.player(state, event, "by")
        self._about(state, event)

    def apply_DisputeOpened(self, state: GameState, event: dict) -> None:
        state.disputes.append(event)

    def decide_RulingMade(self, state: GameState, event: dict, chk: Checks) -> None:
        self._about(state, event)
        if event["decision"] != "void":
            return
        by_seq = {line["seq"]: line for line in state.lines}
        for seq in event["about"]:
            if by_seq[seq]["type"] in rulings.NOT_VOIDABLE:
                raise MalformedRecord(_("field `about`: seq {seq} is a {type}, which a ruling cannot void").format(
                    seq=seq, type=by_seq[seq]["type"]), field="about")
            if seq in state.voided:
                raise MalformedRecord(_("field `about`: seq {seq} is void already").format(seq=seq), field="about")
            if seq in state.taken_back:
                raise MalformedRecord(_("field `about`: seq {seq} was taken back; it is out of the game already")
                                      .format(seq=seq), field="about")
        out = state.voided | state.taken_back | set(event["about"])
        remaining = [line for line in state.lines if line["seq"] not in out]
        _state, breaches = rulings.replay(self, state.header, remaining)
        voided = ", ".join(map(str, event["about"]))
        for b in breaches:
            chk.fail(b.rule, _("voiding seq {voided} would leave seq {seq} ({type}) breaking {rule}: {why}").format(
                voided=voided, seq=b.seq, type=b.type, rule=b.rule, why=b.message))

    def apply_RulingMade(self, state: GameState, event: dict) -> None:
        state.rulings.append(event)
        if event["decision"] == "void":
            state.voided.update(event["about"])
            if not state.as_played:
                rulings.rebuild(self, state)

    def decide_TakenBack(self, state: GameState, event: dict, chk: Checks) -> dict:
        return corrections.decide_take_back(state, event, chk)

    def apply_TakenBack(self, state: GameState, event: dict) -> None:
        if corrections.apply_correction(state, event):
            rulings.rebuild(self, state)

    def decide_GameRewound(self, state: GameState, event: dict, chk: Checks) -> dict:
        return corrections.decide_rewind(state, event, chk)

    apply_GameRewound = apply_TakenBack

    # the game clock (domain.clock) ------------------------------------------------------------
    def decide_clock(self, state: GameState, event: dict, chk: Checks) -> None:
        clock.decide(state.clock, state.players, event, chk, turn=state.turn, phase=state.phase)

    def apply_clock(self, state: GameState, event: dict) -> None:
        if state.clock is not None:
            clock.apply(state.clock, event, turn=state.turn, phase=state.phase)

    decide_ClockStarted = decide_ClockPassed = decide_ClockPaused = decide_ClockResumed = decide_clock
    decide_ClockAdjusted = decide_FlagFell = decide_clock
    apply_ClockStarted = apply_ClockPassed = apply_ClockPaused = apply_ClockResumed = apply_clock
    apply_ClockAdjusted = apply_FlagFell = apply_clock

    def _about(self, state: GameState, event: dict) -> None:
        if not event["about"]:
            raise MalformedRecord(_("field `about` must list at least one seq"), field="about")
        for seq in event["about"]:
            if not 1 <= seq <= state.seq:
                raise MalformedRecord(_("field `about`: seq {seq} is not an earlier event of this game").format(seq=seq),
                                      field="about")




class PlayedOut(Checks):
    """The checks of a game's end played out: each rule it breaks says that it holds for that end, and how a game
    stopped when time is called ends (at time, in any phase)."""

    __slots__ = ("inner",)

    def __init__(self, inner: Checks) -> None:
        super().__init__(inner.strict)
        self.inner, self.found = inner, inner.found

    def fail(self, rule: str, message: str, source: str | None = None) -> None:
        self.inner.fail(rule, _("{why} (so a game played out may not end yet; when time is called it ends at time, "
                                "reason `{reason}`, in any phase)").format(why=message, reason=AT_TIME), source)


def capitalised(text: str) -> str:
    """``text`` with its first letter upper case (a button's label)."""
    return text[:1].upper() + text[1:]


def winner_of(score: dict) -> str | None:
    """The winner a final score gives: the one player with the highest score; a draw has none."""
    best = max(score.values())
    leaders = [pid for pid, points in score.items() if points == best]
    return leaders[0] if len(leaders) == 1 else None


def winner_field(event: dict) -> dict:
    """The ``winner`` of a GameEnded event, from its ``score``."""
    return {"winner": winner_of(event["score"])}


def digital_mismatches(state: GameState, seed_hex: str) -> list[str]:
    """Every digital roll, re-roll and card draw recomputed from the revealed seed; what differs."""
    try:
        seed = bytes.fromhex(seed_hex)
    except ValueError:
        return [_("the seed {seed} is not hexadecimal").format(seed=repr(seed_hex))]
    if len(seed) != 32 or randomness.commit_of(seed) != state.header.get("commit"):
        return [_("the revealed seed does not match the header's commit")]
    problems = []
    for roll in state.rolls.values():
        if roll.source == "digital":
            expected = randomness.roll(seed, state.game, roll.seq, state.dice.data[roll.die], len(roll.initial))
            if list(roll.initial) != expected:
                problems.append(_("digital roll {roll} shows {faces}; the seed gives {expected}").format(
                    roll=roll.seq, faces=list(roll.initial), expected=expected))
    for seq, die, face in state.digital_rerolls:
        expected = randomness.roll(seed, state.game, seq, state.dice.data[die], 1)[0]
        if face != expected:
            problems.append(_("digital re-roll {seq} shows {face}; the seed gives {expected}").format(
                seq=seq, face=repr(face), expected=repr(expected)))
    for seq, card, deck_left in state.digital_draws:
        expected = randomness.draw(seed, state.game, seq, deck_left)
        if card != expected:
            problems.append(_("digital draw {seq} is {card}; the seed gives {expected}").format(
                seq=seq, card=card, expected=expected))
    return problems
