"""The 9th Age, magic phase (seed 001: R77–R97, extra checks X01–X07 as switchable rule data).

A phase runs: MagicPhaseStarted → FluxCardDrawn → VeilSiphoned → casting attempts, each
A cast → B dispel → C miscast → D spell → E attribute (R77–R80) → MagicPhaseEnded.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import cache

from domain import limits, randomness
from domain.errors import MalformedRecord, RollcallError
from domain.record import (bounded, check_keys, did_you_mean, field as get_field, one_of_field, player_field,
                           setup_items, show)
from domain.systems.odds import probability
from domain.systems.fields import EventSpec, dice_count, integer, integer_in, one_of, text
from domain.systems.pack import GameSystem
from domain.systems.facts import Fact
from domain.systems.t9a.presentation import T9APresentation
from domain.systems.state import Checks, GameState
from domain.systems.t9a.legal import MagicActions
from i18n import N_, SOURCE, Translated, _, current

KINDS = ("normal", "bound", "attribute", "replicable")
SETUP_FIELDS = ("spells", "wizards", "channel")
SPELL_FIELDS = ("id", "name", "path", "kind", "casting_value", "boosted_value", "power_level")
WIZARD_FIELDS = ("id", "player", "spells", "fleeing")
STEPS = ("started", "flux", "siphoned", "ended")


@dataclass(slots=True)
class Cast:
    """The casting attempt in progress (steps A–E)."""

    seq: int
    wizard: str
    spell: str
    total: int
    passed: bool
    miscast: bool
    dispelled: bool = False
    broken: bool = False  # a miscast of broken concentration: the cast fails after all (X06)
    step: str = "A"  # A cast, B dispel, C miscast, D spell, E attribute

    def awaits_effect(self) -> bool:
        """Passed, neither dispelled nor broken by its miscast, and its effect (D) not yet resolved."""
        return self.passed and not self.dispelled and not self.broken and self.step in "ABC"


@dataclass(slots=True)
class Phase:
    active: str
    step: str = "started"
    card: str | None = None
    miscast_modifier: int = 0
    veil: int = 0
    cast_spells: set = field(default_factory=set)       # (spell) cast this phase by the active player (R92)
    cast_by_wizard: set = field(default_factory=set)    # (wizard, spell) (R91, X05)
    passed_paths: set = field(default_factory=set)      # paths of spells passed this phase (X04)
    cast: Cast | None = None


class T9AState(GameState):
    OBJECT_PARTS = ("players", "wizards", "spells")
    TRACKED_PARTS = frozenset({"wizards", "spells"})  # set up once: no event changes them
    SCALARS = (*GameState.SCALARS, "magic")

    def __init__(self, header: dict, rules: dict) -> None:
        super().__init__(header, rules)
        setup = header.get("setup") or {}
        self.spells: dict[str, dict] = {}
        self.wizards: dict[str, dict] = {}
        self.channel = {pid: 0 for pid in self.players}
        self.magic_dice = {pid: 0 for pid in self.players}
        self.carried = {pid: 0 for pid in self.players}   # veil tokens kept from the last phase (R87, R90)
        cards = [k for k in rules["flux_cards"] if not k.startswith("_")]
        self.flux_left = {pid: list(cards) for pid in self.players}
        self.flux_drawn: list[tuple[str, str]] = []
        self.phase_state: Phase | None = None
        self.amnesia: set = set()
        self.setup = setup

    def scalar_values(self) -> tuple:
        phase = self.phase_state
        return *super().scalar_values(), {
            "active": phase.active if phase else None, "step": phase.step if phase else None,
            "flux_card": phase.card if phase else None,
            "miscast_modifier": phase.miscast_modifier if phase else 0,
            "cast": None if not phase or not phase.cast else {
                "seq": phase.cast.seq, "wizard": phase.cast.wizard, "spell": phase.cast.spell,
                "total": phase.cast.total, "passed": phase.cast.passed, "dispelled": phase.cast.dispelled,
                "miscast": phase.cast.miscast, "step": phase.cast.step}}

    def object_keys(self, part: str):
        found = {"wizards": self.wizards, "spells": self.spells}
        return sorted(found[part]) if part in found else super().object_keys(part)

    def object_json(self, part: str, key: str):
        if part == "wizards":
            wizard = self.wizards.get(key)
            return None if wizard is None else {"player": wizard["player"], "spells": list(wizard["spells"]),
                                                "fleeing": wizard.get("fleeing", False)}
        if part == "spells":
            spell = self.spells.get(key)
            return None if spell is None else dict(spell)
        return super().object_json(part, key)

    def player_json(self, pid: str) -> dict:
        phase = self.phase_state
        veil = phase.veil if phase and phase.active == pid and phase.step != "ended" else self.carried[pid]
        return {**super().player_json(pid), "magic_dice": self.magic_dice[pid], "veil": veil,
                "flux_left": list(self.flux_left[pid])}


def natural_fails(faces: list[int], failing: list[int]) -> bool:
    """X01: a single die showing a natural 1 or 2 always fails."""
    return len(faces) == 1 and faces[0] in failing


def triple_value(faces: list[int]) -> int | None:
    """X06: the value shown by three or more dice, if any."""
    value, count = max(Counter(faces).items(), key=lambda kv: (kv[1], kv[0]), default=(None, 0))
    return value if count >= 3 else None


def miscasts(faces: list[int], trigger: str | None) -> bool:
    """X06: whether the casting dice miscast under ``trigger`` (None: the switch is off, they never do)."""
    if trigger is None:
        return False
    if trigger == "double_six":
        return faces.count(6) >= 2
    return triple_value(faces) is not None


@cache
def _p_reaches(dice: int, threshold: int, fails: tuple) -> float:
    """P(the sum of ``dice`` d6 reaches ``threshold``), a lone die showing a face of ``fails`` failing (X01)."""
    return probability(dice, lambda shown: sum(shown) >= threshold and not natural_fails(list(shown), fails))


@cache
def _p_miscast(dice: int, trigger: str | None) -> float:
    return probability(dice, lambda shown: miscasts(list(shown), trigger))


def miscast_effect(table: dict, value: int) -> str:
    keys = sorted(int(k) for k in table if not k.startswith("_"))
    value = min(max(value, keys[0]), keys[-1])
    return table[str(value)]


def either(values) -> str:
    """``2 or 3`` in the language spoken (keeping its English, which a lenient record stores)."""
    text = " or ".join(map(str, values))
    if current() == SOURCE:
        return text
    word = _("or")
    return Translated(f" {word} ".join(map(str, values)), text)


def _in_setup(things: dict, event: dict, name: str, missing: str) -> dict:
    """The setup's thing that the event's field ``name`` names; refused naming the near miss (``missing``: the
    refusal's text, with ``{name}``, ``{value}`` and ``{did_you_mean}``)."""
    found = things.get(event[name])
    if found is None:
        raise MalformedRecord(missing.format(name=name, value=event[name],
                                             did_you_mean=did_you_mean(event[name], things)), field=name)
    return found


class T9A(MagicActions, GameSystem):
    presentation_class = T9APresentation
    alias = "t9a"
    title = "The 9th Age"
    aliases = ("9th-age", "the-9th-age")
    rule_data = "t9a"
    state_class = T9AState
    scoring_reasons = ("spell damage", "objective")
    highest_score = 10_000  # victory points: up to the armies' points (4,500 at the 9th Age's events) and beyond
    draw_events = ("FluxCardDrawn",)
    free_text = {"CastingAttempted": N_("target")}  # the spell's target, as the players name it (a form's label)
    facts = (Fact("casts", "CastingAttempted"), Fact("dispels", "DispelAttempted"),
             Fact("magic_phases", "MagicPhaseStarted"), Fact("flux_draws", "FluxCardDrawn", kind="flux"))

    specs = {
        "MagicPhaseStarted": EventSpec({"active": text}),
        "FluxCardDrawn": EventSpec({"card": text}, {"source": one_of("physical", "digital"), "player": text},
                                   derived={"magic_dice": "R82", "veil_tokens": "R82", "miscast_modifier": "R85"}),
        "VeilSiphoned": EventSpec({"converted_dice": dice_count}, derived={"pool": "R87", "kept": "R90", "magic_dice": "R88"}),
        "CastingAttempted": EventSpec({"wizard": text, "spell": text, "dice": dice_count},
                                      {"roll": integer, "version": one_of("basic", "boosted"),
                                       "modifier": integer_in(-limits.STAT, limits.STAT),
                                       "target": text},
                                      derived={"total": "R96", "passed": "R96", "miscast": "X06"}),
        "DispelAttempted": EventSpec({"wizard": text, "dice": dice_count, "roll": integer}, derived={"total": "X07",
                                                                                     "dispelled": "X07"}),
        "MiscastResolved": EventSpec({"wizard": text}, derived={"value": "X06", "effect": "X06"}),
        "SpellResolved": EventSpec({"spell": text}),
        "AttributeResolved": EventSpec({"spell": text}),
        "MagicPhaseEnded": EventSpec({}, derived={"carried": "R90"}),
    }

    # --- setup -----------------------------------------------------------------------------
    def check_setup(self, state: T9AState, chk: Checks) -> None:
        setup = state.setup
        check_keys(setup, SETUP_FIELDS, "setup")
        for where, raw in setup_items(setup, "spells", SPELL_FIELDS):
            sid = get_field(raw, "id", str)
            kind = one_of_field(raw, "kind", KINDS, where, default="normal")
            spell = {"name": raw.get("name", sid), "path": raw.get("path"), "kind": kind,
                     "casting_value": bounded(raw, "casting_value", 0, limits.STAT,
                                              optional=kind in ("bound", "attribute"), where=where),
                     "boosted_value": bounded(raw, "boosted_value", 0, limits.STAT, optional=True, where=where)}
            if kind == "bound":
                levels = raw.get("power_level")
                if not (isinstance(levels, list) and len(levels) == 2
                        and all(type(v) is int and 0 <= v <= limits.STAT for v in levels)):
                    raise MalformedRecord(_("{where}.power_level must be [value with 2 dice, value with 3 dice], "
                                            "each from 0 to {most}").format(where=where, most=limits.STAT),
                                            field=f"{where}.power_level")
                spell["power_level"] = levels
            state.spells[sid] = spell
        for where, raw in setup_items(setup, "wizards", WIZARD_FIELDS):
            wid = get_field(raw, "id", str)
            player = player_field(raw, where, state.players)
            spells = get_field(raw, "spells", list, optional=True, default=[])
            for sid in spells:
                if not isinstance(sid, str):
                    raise MalformedRecord(_("{where}.spells must list spell ids, not {sid}").format(
                                              where=where, sid=show(sid)),
                                          field=f"{where}.spells")
                if sid not in state.spells:
                    raise MalformedRecord(_("{where}.spells: unknown spell '{sid}'{did_you_mean}").format(
                                              where=where, sid=sid, did_you_mean=did_you_mean(sid, state.spells)),
                                          field=f"{where}.spells")
            state.wizards[wid] = {"player": player, "spells": spells, "fleeing": bool(raw.get("fleeing", False))}
        for pid, value in (get_field(setup, "channel", dict, optional=True, default={}) or {}).items():
            if pid not in state.players or type(value) is not int or not 0 <= value <= limits.STAT:
                raise MalformedRecord(_("setup.channel: '{pid}' must be a player with a number of tokens (0 to "
                                        "{most})").format(pid=pid, most=limits.STAT), field="setup.channel")
            state.channel[pid] = value

    # --- helpers ---------------------------------------------------------------------------
    def on(self, state: T9AState, rule: str) -> bool:
        return bool(state.rules.get("switches", {}).get(rule, True))

    @staticmethod
    def open_phase(state: T9AState) -> Phase | None:
        """The magic phase under way (None outside one: a lenient import applies such events to nothing)."""
        phase = state.phase_state
        return phase if phase is not None and phase.step != "ended" else None

    def phase(self, state: T9AState, event: dict, chk: Checks, *, step: str | None = None) -> Phase | None:
        phase = state.phase_state
        if phase is None or phase.step == "ended":
            chk.fail("R77", _("{type} comes outside a magic phase (MagicPhaseStarted first)").format(
                                type=event['type']))
            return None
        if step is not None and phase.step != step:
            chk.fail("R77", _("{type} comes at step '{step}' of the magic phase; the order is start, Flux card, "
                              "Siphon the Veil, casting, end").format(type=event['type'], step=phase.step))
        return phase

    def wizard(self, state: T9AState, event: dict, name: str = "wizard") -> dict:
        return _in_setup(state.wizards, event, name,
                         _("field `{name}`: no wizard '{value}' in the setup{did_you_mean}"))

    def spell(self, state: T9AState, event: dict, name: str = "spell") -> dict:
        return _in_setup(state.spells, event, name, _("field `{name}`: no spell '{value}' in the setup{did_you_mean}"))

    def derived_rule(self, state: T9AState, event: dict, name: str, given, value) -> str:
        """A wrong derived field breaks the rule that makes it: card 8's miscast modifier R86 (card 1's
        R85, any other card's R82); a bound spell's total/passed X03; a lone natural 1-2 that fails a
        cast or dispel X01."""
        kind = event["type"]
        if kind == "FluxCardDrawn" and name == "miscast_modifier":
            return "R85" if value > 0 else "R86" if value < 0 else "R82"
        if kind == "CastingAttempted" and name in ("total", "passed"):
            spell = state.spells.get(event["spell"], {})
            if spell.get("kind") == "bound" and self.on(state, "X03"):
                return "X03"
            if name == "passed" and given and self._natural_fail(state, event, "casting"):
                return "X01"
        if kind == "DispelAttempted" and name == "dispelled" and given and self._natural_fail(state, event, "dispel"):
            return "X01"
        return super().derived_rule(state, event, name, given, value)

    def _natural_fail(self, state: T9AState, event: dict, rules: str) -> bool:
        roll = state.rolls.get(event.get("roll"))
        return (roll is not None and self.on(state, "X01")
                and natural_fails([int(f) for f in roll.faces], state.rules[rules]["single_die_natural_fail"]))

    def owner(self, state: T9AState, event: dict) -> str | None:
        wizard = state.wizards.get(event.get("wizard")) if isinstance(event.get("wizard"), str) else None
        if wizard is not None:
            return wizard["player"]
        return event.get("active") if isinstance(event.get("active"), str) else None

    def digital_draw(self, state: T9AState, seed: bytes, choice: str | None = None) -> dict:
        """The Flux card of the magic phase just started, from the active player's cards left (R84)."""
        phase = state.phase_state
        if phase is None or phase.step != "started":
            raise RollcallError(_("no Flux card is due in game '{game}' (a magic phase has just started?)").format(
                                    game=state.game))
        card = randomness.draw(seed, state.game, state.seq + 1, state.flux_left[phase.active])
        return {"type": "FluxCardDrawn", "card": card, "source": "digital"}

    # --- the phase -------------------------------------------------------------------------
    def decide_MagicPhaseStarted(self, state: T9AState, event: dict, chk: Checks) -> None:
        self.player(state, event, "active")
        if state.phase_state is not None and state.phase_state.step != "ended":
            chk.fail("R77", _("a magic phase starts while the last one has not ended"))

    def apply_MagicPhaseStarted(self, state: T9AState, event: dict) -> None:
        state.phase_state = Phase(event["active"])
        state.phase = "magic"

    def decide_FluxCardDrawn(self, state: T9AState, event: dict, chk: Checks) -> dict:
        phase = self.phase(state, event, chk, step="started")
        card = event["card"]
        data = state.rules["flux_cards"].get(card)
        if data is None or card.startswith("_"):
            raise MalformedRecord(_("field `card`: no Flux card '{card}' (cards 1-8)").format(card=card), field="card")
        if event.get("player") is not None:
            drawer = self.player(state, event)
            if phase is not None and drawer != state.opponent(phase.active):
                chk.fail("R81", _("the reactive player {opponent} draws the Flux card from {active}'s deck, not "
                                  "{drawer}").format(
                                    opponent=state.opponent(phase.active), active=phase.active, drawer=drawer))
        if phase is not None and card not in state.flux_left[phase.active]:
            chk.fail("R83", _("{active}'s Flux card {card} was already used this game (left: {flux_left})").format(
                                active=phase.active, card=card,
                                flux_left=', '.join(state.flux_left[phase.active]) or _("none")))
        return {"magic_dice": data["magic_dice"], "veil_tokens": data["veil_tokens"],
                "miscast_modifier": data.get("miscast_modifier", 0)}

    def apply_FluxCardDrawn(self, state: T9AState, event: dict) -> None:
        phase = self.open_phase(state)
        if phase is None:
            return
        if event.get("source") == "digital":
            state.digital_draws.append((event["seq"], event["card"], tuple(state.flux_left[phase.active])))
        if event["card"] in state.flux_left[phase.active]:
            state.flux_left[phase.active].remove(event["card"])
        state.flux_drawn.append((phase.active, event["card"]))
        phase.step, phase.card, phase.miscast_modifier = "flux", event["card"], event["miscast_modifier"]
        for pid in state.magic_dice:
            state.magic_dice[pid] = event["magic_dice"]  # R82: both players
        phase.veil = event["veil_tokens"] + state.channel[phase.active] + state.carried[phase.active]  # R87

    def decide_VeilSiphoned(self, state: T9AState, event: dict, chk: Checks) -> dict:
        phase = self.phase(state, event, chk, step="flux")
        rules = state.rules["siphon"]
        dice = event["converted_dice"]
        if dice < 0:
            raise MalformedRecord(_("field `converted_dice` must not be negative"), field="converted_dice")
        if phase is None:
            return {"pool": 0, "kept": 0, "magic_dice": dict(state.magic_dice)}
        if dice > rules["max_dice"]:
            chk.fail("R89", _("{dice} magic dice from veil tokens; at most {max_dice} per phase").format(
                                dice=dice, max_dice=rules['max_dice']))
        if dice * rules["tokens_per_die"] > phase.veil:
            chk.fail("R88",
                     _("{dice} dice cost {cost} veil tokens ({tokens_per_die} each); the pool holds {veil}").format(
                                dice=dice, cost=dice * rules['tokens_per_die'], tokens_per_die=rules['tokens_per_die'],
                                veil=phase.veil))
        pool = max(phase.veil - dice * rules["tokens_per_die"], 0)
        magic = dict(state.magic_dice)
        magic[phase.active] += dice
        return {"pool": pool, "kept": min(pool, rules["max_kept"]), "magic_dice": magic}

    def apply_VeilSiphoned(self, state: T9AState, event: dict) -> None:
        phase = self.open_phase(state)
        if phase is None:
            return
        state.magic_dice.update(event["magic_dice"])
        phase.veil = event["kept"]  # R90: the rest are discarded
        state.carried[phase.active] = event["kept"]
        phase.step = "siphoned"

    # --- casting ---------------------------------------------------------------------------
    def decide_CastingAttempted(self, state: T9AState, event: dict, chk: Checks) -> dict:
        phase = self.phase(state, event, chk, step="siphoned")
        wizard, spell = self.wizard(state, event), self.spell(state, event)
        sid, wid = event["spell"], event["wizard"]
        active = phase.active if phase is not None else wizard["player"]
        casting = state.rules["casting"]
        if phase is not None:
            if wizard["player"] != phase.active:
                chk.fail("R91", _("{wid} belongs to {player}; only the active player {active} casts").format(
                                    wid=wid, player=wizard['player'], active=phase.active))
            if wizard["fleeing"]:
                chk.fail("R91", _("{wid} is fleeing and may not cast").format(wid=wid))
            if sid not in wizard["spells"]:
                chk.fail("R91", _("{wid} does not know spell {sid}").format(wid=wid, sid=sid))
            if (wid, sid) in state.amnesia and self.on(state, "X06"):
                chk.fail("X06", _("{wid} forgot {sid} to an amnesia miscast and cannot cast it again this game").format(
                                    wid=wid, sid=sid))
            if (wid, sid) in phase.cast_by_wizard and spell["kind"] != "attribute":  # R91: each model, each spell,
                rule = "X05" if spell["kind"] == "replicable" else "R91"           # once a phase (bound ones too)
                chk.fail(rule, _("{wid} already tried {sid} this phase").format(wid=wid, sid=sid))
            exempt = casting["exempt_from_once_per_phase"]
            if sid in phase.cast_spells and spell["kind"] not in exempt:
                chk.fail("R92", _("{active} already tried {sid} this phase; a spell is tried once per phase").format(
                                    active=phase.active, sid=sid))
            if spell["kind"] == "attribute" and self.on(state, "X04") and spell.get("path") not in phase.passed_paths:
                chk.fail("X04", _("attribute {sid} follows a successful spell of its path {path}").format(
                                    sid=sid, path=spell.get('path')))
            pending = phase.cast
            if pending is not None and pending.awaits_effect():
                chk.fail("R77", _("the cast of {spell} passed and was not dispelled: its effect (step D) comes "
                                  "before the next casting attempt").format(spell=pending.spell))
        version = event.get("version", "basic")
        dice = event["dice"]
        if spell["kind"] == "bound" and self.on(state, "X03"):
            return self._bound(state, event, spell, dice, version, active, chk)
        if not casting["min_dice"] <= dice <= casting["max_dice"]:
            chk.fail("R94", _("{dice} dice; a casting attempt uses {min_dice} to {max_dice}").format(
                                dice=dice, min_dice=casting['min_dice'], max_dice=casting['max_dice']))
        if dice > state.magic_dice[active]:
            chk.fail("R95", _("{dice} dice but {active}'s pool holds {magic_dice}").format(
                                dice=dice, active=active, magic_dice=state.magic_dice[active]))
        if event.get("roll") is None:
            raise MalformedRecord(_("field `roll`: a casting attempt names its roll (only bound spells are not "
                                    "rolled)"),
                                  field="roll")
        roll = self.use_roll(state, chk, event["roll"], purpose="casting", player=active, die="d6",
                             count=dice, what=_("{wid}'s casting of {sid}").format(wid=wid, sid=sid), count_rule="R95")
        value = spell["boosted_value"] if version == "boosted" else spell["casting_value"]
        if version == "boosted" and value is None:
            chk.fail("R97", _("spell {sid} has no boosted version").format(sid=sid))
            value = spell["casting_value"]
        faces = [int(f) for f in roll.faces]
        total = sum(faces) + event.get("modifier", 0)
        passed = total >= (value or 0)  # R96
        if self.on(state, "X01") and natural_fails(faces, casting["single_die_natural_fail"]):
            passed = False
        miscast = self.on(state, "X06") and self._miscast_trigger(state, faces)
        return {"total": total, "passed": passed, "miscast": bool(miscast)}

    def _bound(self, state: T9AState, event: dict, spell: dict, dice: int, version: str, active: str,
               chk: Checks) -> dict:
        allowed = state.rules["bound_spells"]["dice"]
        if event.get("roll") is not None:
            chk.fail("X03",
                     _("a bound spell's dice are removed from the pool unrolled; roll {roll} is not used").format(
                                roll=event['roll']))
        if dice not in allowed:
            chk.fail("X03", _("a bound spell uses {allowed} dice, not {dice}").format(allowed=either(allowed),
                                                                                         dice=dice))
        if version == "boosted":
            chk.fail("X03", _("a bound spell is never boosted"))
        if event.get("modifier"):
            chk.fail("X03", _("casting modifiers do not apply to bound spells"))
        if dice > state.magic_dice[active]:
            chk.fail("R95", _("{dice} dice but {active}'s pool holds {magic_dice}").format(
                                dice=dice, active=active, magic_dice=state.magic_dice[active]))
        levels = spell["power_level"]
        return {"total": levels[0] if dice <= 2 else levels[1], "passed": True, "miscast": False}

    def _miscast_trigger(self, state: T9AState, faces) -> bool:
        return miscasts(list(faces), state.rules["miscast"]["trigger"])

    # --- odds ------------------------------------------------------------------------------
    def odds(self, state: T9AState, event: dict) -> dict[str, float] | None:
        """A casting attempt's P(pass) and P(miscast), a dispel's P(dispel): the rules that decide them, with
        the game's switches (a bound spell under X03 always passes and never miscasts; X01 off lets a lone
        1 or 2 pass; X06 off, nothing miscasts)."""
        kind = event.get("type")
        dice = event.get("dice")
        if kind not in ("CastingAttempted", "DispelAttempted") or type(dice) is not int or not 0 < dice <= limits.DICE:
            return None
        if kind == "DispelAttempted":
            rules = state.rules["dispel"]
            cast = state.phase_state.cast if state.phase_state is not None else None
            fails = tuple(rules["single_die_natural_fail"]) if self.on(state, "X01") else ()
            return {"dispel": _p_reaches(dice, (cast.total if cast else 0) + (rules["tie"] != "dispelled"), fails)}
        spell = state.spells.get(event.get("spell"))
        if spell is None:
            return None
        if spell["kind"] == "bound" and self.on(state, "X03"):
            return {"pass": 1.0, "miscast": 0.0}
        value = spell["boosted_value"] if event.get("version") == "boosted" else None
        value = spell["casting_value"] if value is None else value
        modifier = event.get("modifier", 0) if type(event.get("modifier", 0)) is int else 0
        casting = state.rules["casting"]
        fails = tuple(casting["single_die_natural_fail"]) if self.on(state, "X01") else ()
        trigger = state.rules["miscast"]["trigger"] if self.on(state, "X06") else None
        return {"pass": _p_reaches(dice, (value or 0) - modifier, fails), "miscast": _p_miscast(dice, trigger)}

    def apply_CastingAttempted(self, state: T9AState, event: dict) -> None:
        phase = self.open_phase(state)
        spell = state.spells[event["spell"]]
        used = event["dice"]
        bound = spell["kind"] == "bound" and self.on(state, "X03")
        if event.get("roll") is not None and not bound:
            state.mark_used(event["roll"], event["seq"])
            faces = [int(f) for f in state.rolls[event["roll"]].faces]
            if (not event["passed"] and used >= 2 and state.rules["casting"]["fizzle"]
                    and self.on(state, "X02")):
                used -= faces.count(1)  # X02: natural 1s of a failed attempt go back to the pool
        if phase is None:
            return
        state.magic_dice[phase.active] = max(state.magic_dice[phase.active] - used, 0)
        phase.cast_spells.add(event["spell"])
        phase.cast_by_wizard.add((event["wizard"], event["spell"]))
        phase.cast = Cast(event["seq"], event["wizard"], event["spell"], event["total"], event["passed"],
                          event["miscast"])
        if event["passed"] and spell["kind"] != "attribute":
            phase.passed_paths.add(spell.get("path"))

    def decide_DispelAttempted(self, state: T9AState, event: dict, chk: Checks) -> dict:
        phase = self.phase(state, event, chk, step="siphoned")
        wizard = self.wizard(state, event)
        cast = phase.cast if phase is not None else None
        reactive = state.opponent(phase.active) if phase is not None else wizard["player"]
        x07 = self.on(state, "X07")
        if phase is None:
            pass
        elif cast is None or cast.step != "A":
            chk.fail("R77", _("a dispel answers the casting attempt just made"))
        elif not cast.passed:
            chk.fail("R78", _("the cast of {spell} failed: no dispel (skip B-E)").format(spell=cast.spell))
        elif state.spells[cast.spell]["kind"] == "attribute" and self.on(state, "X04"):
            chk.fail("X04", _("attribute {spell} cannot be dispelled").format(spell=cast.spell))
        if x07 and wizard["player"] != reactive:
            chk.fail("X07", _("{wizard} belongs to {player}; the reactive player {reactive} dispels").format(
                                wizard=event['wizard'], player=wizard['player'], reactive=reactive))
        if x07 and wizard["fleeing"]:
            chk.fail("X07", _("{wizard} is fleeing and may not dispel").format(wizard=event['wizard']))
        rules = state.rules["dispel"]
        dice = event["dice"]
        if x07 and (dice < rules["min_dice"] or (rules["max_dice"] is not None and dice > rules["max_dice"])):
            chk.fail("X07", (_("{dice} dispel dice; at least {least}") if rules["max_dice"] is None else
                             _("{dice} dispel dice; at least {least}, at most {most}")).format(
                                 dice=dice, least=rules["min_dice"], most=rules["max_dice"]))
        if dice > state.magic_dice[reactive]:
            chk.fail("R95", _("{dice} dice but {reactive}'s pool holds {magic_dice}").format(
                                dice=dice, reactive=reactive, magic_dice=state.magic_dice[reactive]))
        roll = self.use_roll(state, chk, event["roll"], purpose="dispel", player=reactive, die="d6", count=dice,
                             what=_("{wizard}'s dispel").format(wizard=event['wizard']),
                             count_rule="X07" if x07 else "F03",
                             player_rule="X07" if x07 else "F03")
        faces = [int(f) for f in roll.faces]
        total = sum(faces)
        target = cast.total if cast else 0
        dispelled = total >= target if rules["tie"] == "dispelled" else total > target
        if natural_fails(faces, rules["single_die_natural_fail"]) and self.on(state, "X01"):
            dispelled = False
        return {"total": total, "dispelled": dispelled}

    def apply_DispelAttempted(self, state: T9AState, event: dict) -> None:
        phase = self.open_phase(state)
        used = event["dice"]
        faces = [int(f) for f in state.rolls[event["roll"]].faces]
        state.mark_used(event["roll"], event["seq"])
        if phase is None:
            return
        reactive = state.opponent(phase.active)
        if not event["dispelled"] and used >= 2 and self.on(state, "X02"):
            used -= faces.count(1)
        state.magic_dice[reactive] = max(state.magic_dice[reactive] - used, 0)
        if phase.cast:
            phase.cast.step = "B"
            phase.cast.dispelled = event["dispelled"]

    def _cast_to_resolve(self, state: T9AState, event: dict, chk: Checks, step: str) -> Cast | None:
        phase = self.phase(state, event, chk, step="siphoned")
        if phase is None:
            return None
        cast = phase.cast
        if cast is None:
            chk.fail("R77", _("{type} follows a casting attempt").format(type=event['type']))
            return None
        if not cast.passed:
            chk.fail("R78", _("the cast of {spell} failed: skip B-E").format(spell=cast.spell))
        elif cast.dispelled:
            chk.fail("R79", _("{spell} was dispelled: skip C-E").format(spell=cast.spell))
        elif cast.broken and step in "DE":
            chk.fail("X06", _("the miscast broke {wizard}'s concentration: {spell} fails, no effect").format(
                                wizard=cast.wizard, spell=cast.spell))
        order = "ABCDE"
        if order.index(cast.step) >= order.index(step):
            chk.fail("R80", _("step {step} comes after step {step2} of the cast of {spell}: miscast (C), spell "
                              "(D), attribute (E)").format(step=step, step2=cast.step, spell=cast.spell))
        return cast

    def decide_MiscastResolved(self, state: T9AState, event: dict, chk: Checks) -> dict:
        cast = self._cast_to_resolve(state, event, chk, "C")
        if cast is None:
            return {}
        if event["wizard"] != cast.wizard:
            chk.fail("X06", _("the miscast falls on the caster {wizard}, not {wizard2}").format(
                                wizard=cast.wizard, wizard2=event['wizard']))
        if not cast.miscast:
            chk.fail("X06", _("the cast of {spell} rolled no miscast").format(spell=cast.spell))
            return {"value": None, "effect": "none"}
        rules = state.rules["miscast"]
        roll = next(r for r in state.rolls.values() if r.used_by == cast.seq)
        faces = [int(f) for f in roll.faces]
        base = triple_value(faces) if rules["trigger"] != "double_six" else 6
        value = (base or 0) + state.phase_state.miscast_modifier + rules["dice_count_modifier"].get(str(len(faces)), 0)
        return {"value": value, "effect": miscast_effect(rules["table"], value)}

    def apply_MiscastResolved(self, state: T9AState, event: dict) -> None:
        cast = self.cast_of(state)
        if cast is None:
            return
        cast.step = "C"
        if event["effect"] == "broken_concentration":
            cast.broken = True
        if event["effect"] == "amnesia":
            state.amnesia.add((cast.wizard, cast.spell))

    def decide_SpellResolved(self, state: T9AState, event: dict, chk: Checks) -> None:
        self.spell(state, event)
        cast = self._cast_to_resolve(state, event, chk, "D")
        if cast is not None and event["spell"] != cast.spell:
            chk.fail("R80", _("the spell resolved is the one cast, {spell}").format(spell=cast.spell))
        if cast is not None and cast.miscast and cast.step in "AB":  # A: not dispelled, B: a dispel that failed
            chk.fail("R80", _("the miscast of {spell} is resolved (C) before its effect (D)").format(spell=cast.spell))

    def apply_SpellResolved(self, state: T9AState, event: dict) -> None:
        if self.cast_of(state) is not None:
            self.cast_of(state).step = "D"

    def decide_AttributeResolved(self, state: T9AState, event: dict, chk: Checks) -> None:
        spell = self.spell(state, event)
        cast = self._cast_to_resolve(state, event, chk, "E")
        if cast is None:
            return
        if cast.step != "D":
            chk.fail("R80", _("the attribute (E) follows the effect of {spell} (D)").format(spell=cast.spell))
        if spell["kind"] != "attribute":
            chk.fail("X04", _("{spell} is not an attribute spell").format(spell=event['spell']))
        elif self.on(state, "X04") and spell.get("path") != state.spells[cast.spell].get("path"):
            chk.fail("X04", _("attribute {spell} belongs to path {path}, not to the path of {spell2}").format(
                                spell=event['spell'], path=spell.get('path'), spell2=cast.spell))

    def apply_AttributeResolved(self, state: T9AState, event: dict) -> None:
        if self.cast_of(state) is not None:
            self.cast_of(state).step = "E"

    def cast_of(self, state: T9AState) -> Cast | None:
        phase = self.open_phase(state)
        return phase.cast if phase is not None else None

    def decide_MagicPhaseEnded(self, state: T9AState, event: dict, chk: Checks) -> dict:
        phase = self.phase(state, event, chk)
        if phase is None:
            return {"carried": 0}
        if phase.step in ("started", "flux"):
            chk.fail("R77", _("the magic phase ends before its Flux card and Siphon the Veil"))
        pending = phase.cast
        if pending is not None and pending.awaits_effect():
            chk.fail("R77", _("the cast of {spell} passed and was not dispelled: its effect (step D) comes before "
                              "the end of the phase").format(spell=pending.spell))
        return {"carried": state.carried[phase.active]}

    def apply_MagicPhaseEnded(self, state: T9AState, event: dict) -> None:
        phase = self.open_phase(state)
        if phase is None:
            return
        phase.step = "ended"
        phase.cast = None
        state.magic_dice = {pid: 0 for pid in state.magic_dice}  # unused dice do not carry over
