"""Claustrophobia, initiative phase (seed 003: R98–R106, extra checks X08–X09).

The human player rolls one action die per warrior in play (+1 for a Redeemer with the Sceptre of
Command), gives each warrior exactly one die, which sets its line of action until the next
initiative; a die on an unavailable line exhausts the warrior; dice left over are set aside.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from domain import limits
from domain.errors import MalformedRecord
from domain.record import check_keys, did_you_mean, field as get_field, setup_items
from domain.systems.claustrophobia.legal import InitiativeActions
from domain.systems.fields import EventSpec, integer, text
from domain.systems.pack import GameSystem
from domain.systems.facts import Fact
from domain.systems.claustrophobia.presentation import ClaustrophobiaPresentation
from domain.systems.state import Checks, GameState
from i18n import N_, _

LINES = range(1, 7)
SETUP_FIELDS = ("human", "warriors")
WARRIOR_FIELDS = ("id", "kind", "sceptre", "lines", "gifts")
STATS = ("mvt", "cbt", "def")


@dataclass(slots=True)
class Warrior:
    id: str
    kind: str
    lines: dict[int, dict]
    gifts: dict[int, str]
    sceptre: bool = False
    lost: set[int] = field(default_factory=set)
    in_play: bool = True
    die: int | None = None
    line: int | None = None
    exhausted: bool = False
    stats: dict = field(default_factory=dict)

    def available(self, line: int) -> bool:
        return line in self.lines and line not in self.lost

    def to_json(self) -> dict:
        return {"kind": self.kind, "line": self.line, "die": self.die, "exhausted": self.exhausted,
                "mvt": self.stats.get("mvt"), "cbt": self.stats.get("cbt"), "def": self.stats.get("def"),
                "sceptre": self.sceptre, "in_play": self.in_play,
                "lines": {str(n): {"available": self.available(n), **self.lines.get(n, {})} for n in LINES},
                "gifts": {str(n): g for n, g in sorted(self.gifts.items())}}


class ClaustrophobiaState(GameState):
    OBJECT_PARTS = ("players", "warriors")
    TRACKED_PARTS = frozenset({"warriors"})  # every apply marks the warriors it changes (GameState.touch)
    SCALARS = (*GameState.SCALARS, "human", "initiative")

    def __init__(self, header: dict, rules: dict) -> None:
        super().__init__(header, rules)
        self.human: str | None = None
        self.warriors: dict[str, Warrior] = {}
        self.initiative_roll: int | None = None
        self.dice_taken: set[int] = set()

    def stats_for(self, warrior: Warrior, face: int) -> tuple[dict, bool]:
        if warrior.available(face):
            return dict(warrior.lines[face]), False
        tired = self.rules["exhausted"]
        return {"mvt": tired["mvt"], "cbt": tired["cbt"], "def": tired["def"]}, True  # R102

    def dice_left(self) -> list[int]:
        """Indexes of this initiative's action dice no warrior has taken (set aside at its end, R105)."""
        roll = self.rolls.get(self.initiative_roll) if self.initiative_roll else None
        return [] if roll is None else [i for i in range(len(roll.faces)) if i not in self.dice_taken]

    def scalar_values(self) -> tuple:
        roll = self.rolls.get(self.initiative_roll) if self.initiative_roll else None
        return *super().scalar_values(), self.human, None if roll is None else {
            "roll": roll.seq, "faces": list(roll.faces), "taken": sorted(self.dice_taken),
            "set_aside": self.dice_left()}

    def object_keys(self, part: str):
        return sorted(self.warriors) if part == "warriors" else super().object_keys(part)

    def object_json(self, part: str, key: str):
        if part == "warriors":
            warrior = self.warriors.get(key)
            return warrior.to_json() if warrior is not None else None
        return super().object_json(part, key)


class Claustrophobia(InitiativeActions, GameSystem):
    presentation_class = ClaustrophobiaPresentation
    alias = "claustrophobia"
    title = "Claustrophobia"
    rule_data = "claustrophobia"
    state_class = ClaustrophobiaState
    phases = ("initiative", "action")
    phase_words = (N_("initiative"), N_("action"))  # the phases as read (presentation.phase_words)
    facts = (Fact("initiative", "ActionDieAssigned", kind="assigned"),
             Fact("initiative", "PhaseStarted", kind="set_aside"))  # the dice it sets aside
    scoring_reasons = ("objective", "warrior slain")

    def seats(self, a: tuple[str, str | None], b: tuple[str, str | None]) -> tuple[tuple, tuple]:
        """The player of the humans sits as p1 (the setups give p1 the humans' warriors)."""
        return (b, a) if b[1] == "humans" and a[1] != "humans" else (a, b)

    specs = {
        "ActionDieAssigned": EventSpec({"warrior": text, "roll": integer, "index": integer},
                                       derived={"line": "R100", "mvt": "R100", "cbt": "R100", "def": "R100",
                                                "exhausted": "R102"}),
        "LineLost": EventSpec({"warrior": text, "line": integer}),
        "LineRestored": EventSpec({"warrior": text, "line": integer}),
        "GiftUsed": EventSpec({"warrior": text, "gift": text}),
        "WarriorRemoved": EventSpec({"warrior": text}),
        "PhaseStarted": EventSpec({"phase": text}, derived={"set_aside": "R105"}),
    }

    # --- setup -----------------------------------------------------------------------------
    def check_setup(self, state: ClaustrophobiaState, chk: Checks) -> None:
        setup = state.header.get("setup") or {}
        check_keys(setup, SETUP_FIELDS, "setup")
        human = get_field(setup, "human", str)
        if human not in state.players:
            raise MalformedRecord(_("setup.human: unknown player '{human}'").format(human=human), field="setup.human")
        state.human = human
        for where, raw in setup_items(setup, "warriors", WARRIOR_FIELDS, optional=False):
            wid = get_field(raw, "id", str)
            lines, gifts = {}, {}
            for key, stats in (get_field(raw, "lines", dict, optional=True, default={}) or {}).items():
                number = self._line(key, f"{where}.lines")
                if not isinstance(stats, dict) or not all(type(stats.get(s)) is int and 0 <= stats[s] <= limits.STAT
                                                          for s in STATS):
                    raise MalformedRecord(_("{where}.lines.{key} needs mvt, cbt and def numbers from 0 to "
                                            "{most}").format(where=where, key=key, most=limits.STAT),
                                          field=f"{where}.lines")
                check_keys(stats, STATS, f"{where}.lines.{key}")
                lines[number] = {s: stats[s] for s in STATS}
            for key, gift in (get_field(raw, "gifts", dict, optional=True, default={}) or {}).items():
                gifts[self._line(key, f"{where}.gifts")] = gift
            if wid in state.warriors:
                raise MalformedRecord(_("{where}: warrior id '{wid}' is used twice").format(where=where, wid=wid),
                                      field=f"{where}.id")
            state.warriors[wid] = Warrior(wid, get_field(raw, "kind", str, optional=True, default=wid), lines, gifts,
                                          sceptre=bool(raw.get("sceptre", False)))
        limit = state.rules["max_party"]["warriors"]
        if self.on(state, "X09") and len(state.warriors) > limit:
            chk.fail("X09", _("a human party has at most {limit} warriors, not {n_warriors}").format(
                                limit=limit, n_warriors=len(state.warriors)))

    @staticmethod
    def _line(key: str, where: str) -> int:
        if not str(key).isdigit() or int(key) not in LINES:
            raise MalformedRecord(_("{where}: line '{key}' must be 1-6").format(where=where, key=key), field=where)
        return int(key)

    def derived_rule(self, state: ClaustrophobiaState, event: dict, name: str, given, value) -> str:
        """The stats of a warrior whose die fell on an unavailable line are those of exhaustion (R102);
        otherwise the line's own (R100)."""
        if event["type"] == "ActionDieAssigned" and name in ("mvt", "cbt", "def", "exhausted"):
            warrior = state.warriors[event["warrior"]]
            face = int(state.rolls[event["roll"]].faces[event["index"]])
            return "R102" if name == "exhausted" or not warrior.available(face) else "R100"
        return super().derived_rule(state, event, name, given, value)

    def owner(self, state: ClaustrophobiaState, event: dict) -> str | None:
        return state.human if isinstance(event.get("warrior"), str) else None

    def on(self, state: ClaustrophobiaState, rule: str) -> bool:
        return bool(state.rules.get("switches", {}).get(rule, True))

    def warrior(self, state: ClaustrophobiaState, event: dict) -> Warrior:
        warrior = state.warriors.get(event["warrior"])
        if warrior is None:
            raise MalformedRecord(_("field `warrior`: no warrior '{warrior}'{did_you_mean}").format(
                                      warrior=event['warrior'],
                                      did_you_mean=did_you_mean(event['warrior'], state.warriors)), field="warrior")
        return warrior

    def dice_due(self, state: ClaustrophobiaState) -> int:
        """R98, R106: one die per warrior in play, one more for a Redeemer holding the Sceptre."""
        rules = state.rules["action_dice"]
        in_play = [w for w in state.warriors.values() if w.in_play]
        bonus = rules["sceptre_of_command_bonus"] * any(w.sceptre for w in in_play)
        return rules["per_warrior_in_play"] * len(in_play) + bonus

    # --- phases ----------------------------------------------------------------------------
    def check_dice_dealt(self, state: ClaustrophobiaState, what: str, chk: Checks) -> None:
        """R99: once the action dice are rolled, every warrior in play takes one before the round goes on
        (the next phase, the next turn, the end of the game)."""
        if state.phase != "initiative" or state.initiative_roll is None:
            return
        waiting = [w.id for w in state.warriors.values() if w.in_play and w.die is None]
        if waiting:
            chk.fail("R99", _("every warrior takes one die before {what}: {waiting} has none").format(
                                what=what, waiting=', '.join(waiting)))

    def decide_PhaseStarted(self, state: ClaustrophobiaState, event: dict, chk: Checks) -> dict:
        super().decide_PhaseStarted(state, event, chk)
        self.check_dice_dealt(state, _("the initiative ends"), chk)
        if state.phase == "initiative" and state.initiative_roll is not None:
            return {"set_aside": state.dice_left()}  # R105
        return {}

    def decide_TurnStarted(self, state: ClaustrophobiaState, event: dict, chk: Checks) -> None:
        super().decide_TurnStarted(state, event, chk)
        self.check_dice_dealt(state, _("round {turn} starts").format(turn=event['turn']), chk)

    def check_played_out(self, state: ClaustrophobiaState, chk: Checks) -> None:
        self.check_dice_dealt(state, _("the game ends"), chk)

    def apply_PhaseStarted(self, state: ClaustrophobiaState, event: dict) -> None:
        super().apply_PhaseStarted(state, event)
        if event["phase"] == "initiative":
            state.initiative_roll = None
            state.dice_taken = set()
            for warrior in state.warriors.values():  # R100: the line holds until the next initiative
                if warrior.die is not None:
                    warrior.die = None
                    state.touch("warriors", warrior.id)

    def decide_DiceRolled(self, state: ClaustrophobiaState, event: dict, chk: Checks) -> None:
        super().decide_DiceRolled(state, event, chk)
        if event["purpose"] != "initiative":
            return
        if state.phase != "initiative":
            chk.fail("R98", _("action dice are rolled in the initiative phase"))
        if event["player"] != state.human:
            chk.fail("R98", _("the human player {human} rolls the action dice").format(human=state.human))
        if event["die"] != "d6":
            chk.fail("R98", _("action dice are six-sided (d6)"))
        due = self.dice_due(state)
        if len(event["faces"]) != due:  # R98 (R106 is the rule text's example of it, with the Sceptre)
            chk.fail("R98", _("{n_faces} action dice rolled; {due} are due (one per warrior in play, one more for "
                              "the Sceptre of Command)").format(n_faces=len(event['faces']), due=due))
        if state.initiative_roll is not None:
            chk.fail("R98", _("the action dice were already rolled this initiative"))

    def apply_DiceRolled(self, state: ClaustrophobiaState, event: dict) -> None:
        super().apply_DiceRolled(state, event)
        if event["purpose"] == "initiative" and state.initiative_roll is None:
            state.initiative_roll = event["seq"]

    def decide_ActionDieAssigned(self, state: ClaustrophobiaState, event: dict, chk: Checks) -> dict:
        warrior = self.warrior(state, event)
        roll = self.roll(state, event["roll"])
        if event["roll"] != state.initiative_roll:
            chk.fail("R99", _("roll {roll} is not this initiative's action dice roll").format(roll=event['roll']))
        if not 0 <= event["index"] < len(roll.faces):
            raise MalformedRecord(_("field `index`: roll {seq} has {n_faces} dice").format(
                                      seq=roll.seq, n_faces=len(roll.faces)), field="index")
        if event["index"] in state.dice_taken:
            chk.fail("R99", _("die {index} of roll {seq} was already given to a warrior").format(
                                index=event['index'], seq=roll.seq))
        if warrior.die is not None:
            chk.fail("R99", _("{warrior} already has a die this initiative (one die per warrior)").format(
                                warrior=warrior.id))
        if not warrior.in_play:
            chk.fail("R99", _("{warrior} is no longer in play").format(warrior=warrior.id))
        face = int(roll.faces[event["index"]])
        stats, exhausted = state.stats_for(warrior, face)
        return {"line": face, **stats, "exhausted": exhausted}

    def apply_ActionDieAssigned(self, state: ClaustrophobiaState, event: dict) -> None:
        warrior = state.warriors[event["warrior"]]
        state.touch("warriors", warrior.id)
        state.dice_taken.add(event["index"])
        warrior.die = event["line"]
        warrior.line = event["line"]
        warrior.exhausted = event["exhausted"]
        warrior.stats = {k: event[k] for k in ("mvt", "cbt", "def")}

    def decide_LineLost(self, state: ClaustrophobiaState, event: dict, chk: Checks) -> None:
        warrior = self.warrior(state, event)
        self._line(str(event["line"]), "line")
        if event["line"] in warrior.lost or event["line"] not in warrior.lines:
            chk.fail("R102", _("line {line} of {warrior} is already unavailable").format(
                                 line=event['line'], warrior=warrior.id))

    def apply_LineLost(self, state: ClaustrophobiaState, event: dict) -> None:
        state.warriors[event["warrior"]].lost.add(event["line"])
        state.touch("warriors", event["warrior"])

    def decide_LineRestored(self, state: ClaustrophobiaState, event: dict, chk: Checks) -> None:
        warrior = self.warrior(state, event)
        self._line(str(event["line"]), "line")
        if event["line"] not in warrior.lost:
            chk.fail("X08", _("line {line} of {warrior} was not lost").format(line=event['line'], warrior=warrior.id))

    def apply_LineRestored(self, state: ClaustrophobiaState, event: dict) -> None:
        warrior = state.warriors[event["warrior"]]
        state.touch("warriors", warrior.id)
        warrior.lost.discard(event["line"])
        if warrior.line == event["line"] and warrior.exhausted and self.on(state, "X08"):
            warrior.exhausted = False  # X08: healing the current line ends the exhaustion
            warrior.stats = dict(warrior.lines[warrior.line])

    def decide_GiftUsed(self, state: ClaustrophobiaState, event: dict, chk: Checks) -> None:
        warrior = self.warrior(state, event)
        lines = [n for n, g in warrior.gifts.items() if g == event["gift"]]
        if not lines:
            raise MalformedRecord(_("field `gift`: {warrior} has no gift '{gift}'").format(
                                      warrior=warrior.id, gift=event['gift']), field="gift")
        if warrior.die not in lines:
            chk.fail("R101", _("{warrior}'s gift {gift} needs a die of {line}; its die is {die}").format(
                                 warrior=warrior.id, gift=event["gift"], line=lines[0], die=warrior.die))
        elif warrior.exhausted:
            chk.fail("R104", _("{warrior} is exhausted: its line {die} is unavailable, so its gift {gift} cannot "
                               "be used").format(warrior=warrior.id, die=warrior.die, gift=event['gift']))

    def decide_WarriorRemoved(self, state: ClaustrophobiaState, event: dict, chk: Checks) -> None:
        self.warrior(state, event)

    def apply_WarriorRemoved(self, state: ClaustrophobiaState, event: dict) -> None:
        state.warriors[event["warrior"]].in_play = False
        state.touch("warriors", event["warrior"])
