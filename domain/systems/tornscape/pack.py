"""The Tornscape rules pack: setup, activations, movement and ejection (seed 004: R41–R76) and
ether vortices (seed 000: R01–R40, in vortices.py)."""

from __future__ import annotations

from typing import Any

from domain import limits
from domain.errors import MalformedRecord
from domain.record import (bounded, check_keys, did_you_mean, field, one_of_field, player_field, position, setup_items,
                           setup_object, show, unknown_value)
from domain.systems.fields import EventSpec, a_list, any_value, integer, integer_in, one_of, text
from domain.systems.pack import GameSystem
from domain.systems.facts import Fact
from domain.systems.tornscape.presentation import TornscapePresentation
from domain.systems.state import Checks, GameState
from domain.systems.actions import Action
from domain.systems.tornscape import hexes as hx, legal
from domain.systems.tornscape.state import SIZES, Marker, Model, Pending, TornscapeState, action_name, size_name
from domain.systems.tornscape.vortices import DOMAINS, RESOLVING, VortexRules
from i18n import N_, _, ngettext

MOVE_ACTIONS = ("step", "run")
EFFECT_ACTIONS = ("effect", "panic")  # moves caused by an effect (R65); panic also R75
TERRAIN_KINDS = ("solid", "burning_ground", "deadly_bog", "cover")
MARKER_KINDS = ("portable", "bound")
# The fields of the setup and of its objects (a near miss of one is refused as a typo, docs/format.md).
SETUP_FIELDS = ("board", "terrain", "vortices", "models", "markers", "phenomena_deck", "deployment_zones")
MODEL_FIELDS = ("id", "player", "name", "size", "at", "domains", "step", "run", "agility", "explore", "traits")
TERRAIN_FIELDS = ("id", "kind", "hexes")
MARKER_FIELDS = ("id", "kind", "at")


def _h(h: tuple[int, int]) -> str:
    return show(list(h))


def _meet(fp, other: Model) -> str:
    """The first hex (in order) where footprint ``fp`` meets ``other``'s, for a message."""
    return _h(sorted(fp & other.fp)[0])


def recorded_position(size: str, value: list) -> list[tuple[int, int]]:
    """A checked position as written in a record (``[q, r]``, ``[[q, r]]`` or, huge, ``[[q, r], ...]``)."""
    if size == "huge":
        return [tuple(c) for c in value]
    return [tuple(value[0]) if isinstance(value[0], list) else tuple(value)]


class Tornscape(VortexRules, GameSystem):
    presentation_class = TornscapePresentation
    alias = "tornscape"
    title = "Tornscape"
    rule_data = "tornscape"
    state_class = TornscapeState
    phases = ("activation", "vortex_movement")
    phase_words = (N_("activation"), N_("vortex movement"))  # the phases as read (presentation.phase_words)
    scoring_reasons = ("objective", "vortex explored", "vortex held")
    draw_events = ("PhenomenonDrawn",)
    facts = (Fact("moves", "ModelMoved"), Fact("placements", "ModelPlaced"), Fact("activations", "ActivationStarted"),
             Fact("ejections", "ModelEjected", kind="ejected"), Fact("ejections", "ModelDisplaced", kind="displaced"),
             Fact("phenomena", "PhenomenonDrawn", kind="phenomena"), Fact("explorations", "VortexExplored"),
             Fact("stabilisations", "DiceRolled", purpose="stabilisation"))
    roll_outcomes = {"explore": "successes", "dodge": "any"}  # R17 exploring counts successes; R61 one dodges

    specs = {
        "ActivationStarted": EventSpec({"model": text}, derived={"entered": "R25"}),
        "ActivationEnded": EventSpec({"model": text}, derived={"entered": "R26"}),
        "ModelMoved": EventSpec({"model": text, "action": one_of(*MOVE_ACTIONS, *EFFECT_ACTIONS), "path": a_list},
                                derived={"free_attacks": "R74", "destroyed": "R53", "must_eject": "R64",
                                         "markers_to_eject": "R67", "entered": "R27"}),
        "ModelEjected": EventSpec({"model": text, "by": text, "to": any_value}, {"dodge": integer, "chosen_by": text},
                                  derived={"dodged": "R61", "free_attacks": "R58"}),
        "ModelDisplaced": EventSpec({"model": text, "by": text, "to": any_value}, {"dodge": integer, "chosen_by": text},
                                    derived={"dodged": "R61"}),
        "MarkerEjected": EventSpec({"marker": text, "to": any_value}),
        "MarkerTaken": EventSpec({"model": text, "marker": text}),
        "ModelPlaced": EventSpec({"model": any_value}),
        "ModelRemoved": EventSpec({"model": text}, {"reason": text}),
        "DieRerolled": EventSpec({"roll": integer, "index": integer, "face": any_value, "player": text},
                                 {"paid": one_of("crystal", "ability"), "source": one_of("physical", "digital")}),
        "DomainChosen": EventSpec({"model": text, "domain": text}),
        "VortexStabilised": EventSpec({"vortex": text, "model": text, "roll": integer}, derived={"allegiance": "R11"}),
        "VortexExplored": EventSpec({"vortex": text, "model": text, "roll": integer},
                                    derived={"success": "R17", "ether_gained": "R18", "vortex_removed": "R03"}),
        "PhenomenonDrawn": EventSpec({"card": text, "effect": one_of("positive", "negative")},
                                     {"vortex": text, "source": one_of("physical", "digital")},
                                     derived={"model": "R23", "relation": "R30", "trigger": "R23",
                                              "shuffled": "R22"}),
        "VortexMoved": EventSpec({"vortex": text, "roll": integer}, {"facing": integer},
                                 derived={"side": "R34", "to": "R34", "blocked": "R35"}),
        "EtherConverted": EventSpec({"player": text, "amount": integer_in(-limits.COUNT, limits.COUNT), "domain": text}),
    }

    # --- what may happen next ---------------------------------------------------------------
    def legal_actions(self, state: TornscapeState) -> list[Action]:
        """The common actions, then Tornscape's own (domain.systems.tornscape.legal)."""
        return [*super().legal_actions(state), *legal.legal_actions(self, state)]

    def owner(self, state: TornscapeState, event: dict) -> str | None:
        model = event.get("model")
        if isinstance(model, dict):  # ModelPlaced
            return model.get("player")
        found = state.models.get(model) if isinstance(model, str) else None
        return found.player if found is not None else None

    def phases_due(self, state: TornscapeState) -> list[str]:
        """The activation phase once a turn starts; Phase V is Tornscape's own action (R31: when every model
        has activated, vortex by vortex)."""
        return [phase for phase in super().phases_due(state) if phase != "vortex_movement"]

    # --- setup -----------------------------------------------------------------------------
    def new_state(self, header: dict) -> GameState:
        setup = field(header, "setup", dict)
        check_keys(setup, SETUP_FIELDS, "setup")
        board = field(setup, "board", dict)
        for name in ("width", "height"):
            bounded(board, name, 1, limits.BOARD_SIDE, where="setup.board")
        return super().new_state(header)

    def check_setup(self, state: TornscapeState, chk: Checks) -> None:
        setup = state.header["setup"]
        for where, raw in setup_items(setup, "terrain", TERRAIN_FIELDS):
            self._add_terrain(state, raw, where)
        for where, raw in setup_items(setup, "markers", MARKER_FIELDS):
            self._add_marker(state, raw, where)
        for where, raw in setup_items(setup, "models", MODEL_FIELDS):
            model = self.parse_model(state, raw, where)
            clash = self._setup_clash(state, model)
            if clash:
                raise MalformedRecord(_("{where}: {model} at {at} overlaps {clash}").format(
                                          where=where, model=model.id, at=show([list(h) for h in model.at]),
                                          clash=clash), field=f"{where}.at")
            state.add_model(model)
        zones = field(setup, "deployment_zones", dict, optional=True, default={})
        for pid, hexes in zones.items():
            if pid not in state.players:
                raise MalformedRecord(_("setup.deployment_zones: unknown player '{pid}'").format(pid=pid),
                                      field="setup.deployment_zones")
            state.zones[pid] = {position(h, f"setup.deployment_zones.{pid}") for h in hexes}
        for model in state.models.values():
            self._check_deployment(state, model, chk)
        self.setup_vortices(state, chk)

    def _add_terrain(self, state: TornscapeState, raw: dict, where: str) -> None:
        tid = field(raw, "id", str)
        kind = one_of_field(raw, "kind", TERRAIN_KINDS, where)
        if tid in state.terrain:
            raise MalformedRecord(_("{where}: terrain id '{tid}' is used twice").format(where=where, tid=tid),
                                  field=f"{where}.id")
        cells = [self.on_board(state, position(h, f"{where}.hexes"), f"{where}.hexes") for h in field(raw, "hexes", list)]
        state.terrain[tid] = {"kind": kind, "hexes": cells}
        if kind == "solid":
            for h in cells:
                state.solid[h] = tid

    def _add_marker(self, state: TornscapeState, raw: dict, where: str) -> None:
        mid = field(raw, "id", str)
        kind = one_of_field(raw, "kind", MARKER_KINDS, where)
        at = self.on_board(state, position(raw.get("at"), f"{where}.at"), f"{where}.at")
        if mid in state.markers or at in state.marker_at:
            raise MalformedRecord(_("{where}: marker '{mid}' repeats an id or a hex").format(where=where, mid=mid),
                                  field=f"{where}.id")
        state.markers[mid] = Marker(mid, kind, at)
        state.marker_at[at] = mid

    def parse_model(self, state: TornscapeState, raw: Any, where: str) -> Model:
        setup_object(raw, MODEL_FIELDS, where)
        mid = field(raw, "id", str)
        if mid in state.models:
            raise MalformedRecord(_("{where}: model id '{mid}' is used twice").format(where=where, mid=mid),
                                  field=f"{where}.id")
        player = player_field(raw, where, state.players)
        size = one_of_field(raw, "size", SIZES, where)
        at = self.position_of(state, size, field(raw, "at", list), f"{where}.at")
        numbers = {k: bounded(raw, k, 0, limits.STAT if k in ("step", "run") else limits.DICE, optional=True,
                              default=0, where=where) for k in ("step", "run", "agility", "explore")}
        domains = field(raw, "domains", list, optional=True, default=[])
        for domain in domains:
            if domain not in DOMAINS:
                raise unknown_value(f"{where}.domains", domain, DOMAINS)
        model = Model(mid, player, field(raw, "name", str, optional=True, default=mid), size, at,
                      domains=domains, traits=frozenset(field(raw, "traits", list, optional=True, default=[])),
                      **numbers)
        model.place(at)
        return model

    def _setup_clash(self, state: TornscapeState, model: Model) -> str | None:
        """What ``model`` would overlap, with the hex: ``model m1 at [3,4]``; None if nothing."""
        cells = sorted(model.fp)
        others = state.models_on(cells)
        if others:
            return f"model {others[0].id} at {_h(next(h for h in cells if h in others[0].fp))}"
        solid = next((h for h in cells if h in state.solid), None)
        if solid:
            return f"solid terrain {state.solid[solid]} at {_h(solid)}"
        marker = next((h for h in cells if h in state.marker_at), None)
        return f"marker {state.marker_at[marker]} at {_h(marker)}" if marker else None

    def _check_deployment(self, state: TornscapeState, model: Model, chk: Checks) -> None:
        zone = state.zones.get(model.player)
        if not zone or model.fp <= zone:
            return
        if model.size == "huge" and self._huge_cannot_fit(model, zone) and any(
                set(hx.hexon_hexes(c)) <= zone for c in model.at):
            return
        outside = sorted(model.fp - zone)
        chk.fail("R76", _("{model} ({size}) is deployed at {outside}, outside {player}'s deployment zone").format(
                            model=model.id, size=size_name(model.size), outside=_h(outside[0]), player=model.player))

    @staticmethod
    def _huge_cannot_fit(model: Model, zone: set) -> bool:
        """True if no translation of the huge model's shape (by hexon steps) lies inside the zone."""
        anchor = model.at[0]
        shape = [(c[0] - anchor[0], c[1] - anchor[1]) for c in model.at]
        centres = {hx.hexon_centre_of(h) for h in zone}
        for c in centres:
            fp = set().union(*(hx.hexon_hexes((c[0] + d[0], c[1] + d[1])) for d in shape))
            if fp <= zone:
                return False
        return True

    # --- positions -------------------------------------------------------------------------
    def on_board(self, state: TornscapeState, h: tuple[int, int], name: str) -> tuple[int, int]:
        if not hx.on_board(h, state.width, state.height):
            raise MalformedRecord(_("field `{name}`: hex {h} is off the {width}×{height} board").format(
                                      name=name, h=_h(h), width=state.width, height=state.height),
                                  field=name)
        return h

    def position_of(self, state: TornscapeState, size: str, value: Any, name: str) -> list[tuple[int, int]]:
        """A model position (list of hexes / hexon centres) of the given size, checked to be on the board."""
        if size != "huge" and type(value) is list and len(value) == 2:  # fast path: [q, r] of plain ints
            q, r = value
            if type(q) is int and type(r) is int:
                board = hx.board_cells(state.width, state.height)
                if size == "infantry":
                    if (q, r) in board:
                        return [(q, r)]
                elif size == "large" and (3 * q + r) % 7 == 0:
                    centre = (q, r)
                    if board.issuperset(hx.footprint(size, [centre])):
                        return [centre]
        if size == "huge":
            if not isinstance(value, list) or len(value) < 2:
                raise MalformedRecord(_("field `{name}`: a huge model stands on a list of two or more hexon "
                                        "centres").format(
                                          name=name),
                                      field=name)
            at = [position(v, name) for v in value]
        else:
            if isinstance(value, list) and len(value) == 1 and isinstance(value[0], list):
                value = value[0]
            at = [position(value, name)]
        if size != "infantry":
            for c in at:
                if not hx.is_hexon_centre(c):
                    raise MalformedRecord(_("field `{name}`: {hexon} is not a hexon centre ({size} models stand on "
                                            "hexons)").format(name=name, hexon=_h(c), size=size_name(size)), field=name)
            if size == "huge" and (len(set(at)) != len(at) or not hx.hexons_connected(at)):
                raise MalformedRecord(_("field `{name}`: the hexons {at} of a huge model must be distinct and "
                                        "adjacent").format(name=name, at=show([list(c) for c in at])), field=name)
        board = hx.board_cells(state.width, state.height)
        for h in hx.footprint(size, at):
            if h not in board:
                self.on_board(state, h, name)
        return at

    def model(self, state: TornscapeState, event: dict, name: str = "model") -> Model:
        mid = event[name]
        model = state.models.get(mid)
        if model is None:
            raise MalformedRecord(_("field `{name}`: no model '{mid}' on the board{did_you_mean}").format(
                                      name=name, mid=mid, did_you_mean=did_you_mean(mid, state.models)),
                                  field=name)
        return model

    def enemies(self, model: Model, others) -> list[Model]:
        return [o for o in others if o.player != model.player]

    def adjacent_enemies(self, state: TornscapeState, model: Model, hexes) -> list[str]:
        """Enemies of ``model`` within one hex of any of ``hexes`` (R73–R75)."""
        near = hx.near(hexes)
        player = model.player
        occupants, models = state.occupants, state.models
        get = occupants.get
        for h in near:  # most often no enemy is near
            ids = get(h)
            if ids is not None:
                for mid in ids:
                    if models[mid].player != player:
                        return [o.id for o in state.models_on(near) if o.player != player]
        return []

    # --- generic sequencing ----------------------------------------------------------------
    def check_sequence(self, state: GameState, event: dict, chk: Checks) -> None:
        """What the rules require first: the cards of an interaction, Phase V's vortices, the ejections due."""
        if state.draws:  # (both checks pass at once otherwise)
            self.check_resolving(state, event, chk)
        if state.phase == "vortex_movement":
            self.check_phase_v_complete(state, event, chk)
        if state.pending and event["type"] not in RESOLVING:
            waiting = ", ".join(p.id for p in state.pending)
            chk.fail(self._pending_rule(state, state.pending[0]),
                     _("the ejection of {waiting} must be resolved before {type}").format(
                         waiting=waiting, type=event['type']))

    @staticmethod
    def _pending_rule(state: TornscapeState, pending: Pending) -> str:
        """The rule that makes an ejection compulsory: R67 a marker, R50 large, R56 huge, R59 printed Shove."""
        if pending.kind == "marker":
            return "R67"
        by = state.models.get(pending.by)
        target = state.models.get(pending.id)
        if by is not None and target is not None and by.size == target.size:
            return "R59"
        return {"large": "R50", "huge": "R56"}.get(by.size if by else "", "R59")

    def derived_rule(self, state: GameState, event: dict, name: str, given: Any, value: Any) -> str:
        """Blame the rule that derives the differing part: R73/R75 (engaged at the start) or R74
        (passing) for ``free_attacks``; R53 (passing) or R55 (ending) for ``destroyed``; R64
        (order) or R50/R56/R59 (which models) for ``must_eject``; the vortex fields as in
        ``vortex_derived_rule``."""
        default = self.vortex_derived_rule(state, event, name, given, value) or super().derived_rule(
            state, event, name, given, value)
        if default == "R28" or event["type"] != "ModelMoved" or event["model"] not in state.models:
            return default
        model = state.models[event["model"]]
        given_set = set(given) if isinstance(given, list) and all(isinstance(g, str) for g in given) else None
        differ = set(value) ^ given_set if given_set is not None else set(value)
        if name == "free_attacks" and event["action"] in ("step", "run", "panic"):
            at_start = set(self.adjacent_enemies(state, model, model.fp))
            if differ & at_start:
                return "R75" if event["action"] == "panic" else "R73"
        if name == "destroyed" and event.get("path"):
            try:
                end = hx.footprint(model.size, self.position_of(state, model.size, event["path"][-1], "path"))
            except (MalformedRecord, ValueError):
                return default
            at_end = {state.solid[h] for h in end if h in state.solid}
            if differ and differ <= at_end:
                return "R55"
        if name == "must_eject" and given_set is not None and given_set != set(value):
            return {"large": "R50", "huge": "R56"}.get(model.size, "R59")
        return default

    def accepts_derived(self, state: GameState, event: dict, name: str, given: Any, value: Any) -> bool:
        """R64 orders allies before enemies and nothing within each: a ``must_eject`` listing the same models
        with every ally before every enemy is as good as the rules' own order."""
        if name != "must_eject" or event["type"] != "ModelMoved" or event["model"] not in state.models:
            return False
        if not isinstance(given, list) or sorted(map(str, given)) != sorted(value) or len(set(given)) != len(given):
            return False
        player = state.models[event["model"]].player
        allied = [state.models[mid].player == player for mid in given]
        return allied == sorted(allied, reverse=True)

    # --- activations -----------------------------------------------------------------------
    def decide_ActivationStarted(self, state: TornscapeState, event: dict, chk: Checks) -> dict:
        model = self.model(state, event)
        if state.activation is not None:
            chk.fail("F05", _("{model} starts an activation while {activation}'s is still open").format(
                                model=model.id, activation=state.activation))
        if model.id in state.activated[model.player]:
            chk.fail("R31", _("{model} already activated in turn {turn}; each model activates once per turn").format(
                                model=model.id, turn=state.turn))
        return {"entered": self.in_vortices(state, model.fp)}  # R25

    def apply_ActivationStarted(self, state: TornscapeState, event: dict) -> None:
        model = state.models[event["model"]]
        state.activation = model.id
        state.actions_used = set()
        state.chosen.pop(model.id, None)
        state.stabilised_in_activation = False
        state.entered_in_activation = set(event["entered"])
        state.draws.extend(self.cells(state, model, "entering", event["entered"], event["seq"]))

    def decide_ActivationEnded(self, state: TornscapeState, event: dict, chk: Checks) -> dict:
        model = self.model(state, event)
        if state.activation != model.id:
            chk.fail("F05", _("{model} ends an activation it has not started (open: {activation})").format(
                                model=model.id, activation=state.activation or _("none")))
        return {"entered": [v for v in self.in_vortices(state, model.fp)
                            if v not in state.entered_in_activation]}  # R26, R28

    def apply_ActivationEnded(self, state: TornscapeState, event: dict) -> None:
        model = state.models[event["model"]]
        state.activation = None
        state.actions_used = set()
        state.entered_in_activation.update(event["entered"])
        state.draws.extend(self.cells(state, model, "entering", event["entered"], event["seq"]))
        self.note_activation_end(state, model)

    # --- movement --------------------------------------------------------------------------
    def decide_ModelMoved(self, state: TornscapeState, event: dict, chk: Checks) -> dict:
        model = self.model(state, event)
        action = event["action"]
        raw_path = event["path"]
        if not raw_path:
            raise MalformedRecord(_("field `path` must list at least one position"), field="path")
        size = model.size
        path = [self.position_of(state, size, p, "path") for p in raw_path]
        if action in MOVE_ACTIONS:
            if state.activation != model.id:
                chk.fail("F05",
                         _("{model} makes a {action} action outside its own activation (open: {activation})").format(
                                    model=model.id, action=action_name(action),
                                    activation=state.activation or _("none")))
            if action in state.actions_used:
                chk.fail("R41", _("{model} already made a {action} action in this activation").format(
                                    model=model.id, action=action_name(action)))
            allowed = model.step if action == "step" else model.run
            if len(path) > allowed:
                moved = (ngettext("{n} hex", "{n} hexes", len(path)) if model.size == "infantry"
                         else ngettext("{n} hexon", "{n} hexons", len(path))).format(n=len(path))
                chk.fail("R42", _("{model} moves {moved} but its {action} allows {allowed}").format(
                                    model=model.id, moved=moved, action=action_name(action), allowed=allowed))
        before = model.at
        step_is_adjacent = hx.step_is_adjacent
        for after in path:
            if not step_is_adjacent(size, before, after):
                text = (_("{model} jumps from {start} to {end}; each step moves one hex") if model.size == "infantry"
                        else _("{model} jumps from {start} to {end}; each step moves one hexon"))
                chk.fail("R42", text.format(model=model.id, start=show([list(h) for h in before]),
                                            end=show([list(h) for h in after])))
            before = after

        free_attacks: list[str] = []
        if action in ("step", "run", "panic"):
            free_attacks.extend(self.adjacent_enemies(state, model, model.fp))  # R73, R75
        destroyed: list[str] = []
        passed = [frozenset(at) for at in path[:-1]] if size == "infantry" else [
            hx.footprint(size, at) for at in path[:-1]]
        for fp in passed:
            self._check_passing(state, model, fp, destroyed, chk)
            for enemy in self.adjacent_enemies(state, model, fp):  # R74
                if enemy not in free_attacks:
                    free_attacks.append(enemy)
        end = hx.footprint(size, path[-1])
        must_eject, markers = self._check_ending(state, model, action, end, destroyed, chk)
        return {"free_attacks": free_attacks, "destroyed": destroyed, "must_eject": must_eject,
                "markers_to_eject": markers, "entered": self._entered_and_left(state, [model.fp, *passed], end)}

    @staticmethod
    def _entered_and_left(state: TornscapeState, fps: list, end) -> list[str]:
        """R27: vortices the model was in during this move but is not in at its end ``end`` (R28: once each),
        given the footprints ``fps`` of the start and of every step but the last."""
        entered = state.entered_in_activation
        present = [v for v in state.vortices.values() if not v.removed and v.id not in entered]
        if not present:
            return []
        seen: list[str] = []
        for fp in fps:
            seen.extend(v.id for v in present if not v.hexes.isdisjoint(fp) and v.id not in seen)
        return [vid for vid in seen if state.vortices[vid].hexes.isdisjoint(end)]

    def _check_passing(self, state: TornscapeState, model: Model, fp, destroyed: list, chk: Checks) -> None:
        if state.occupants.keys().isdisjoint(fp) and state.solid.keys().isdisjoint(fp):
            return
        for other in state.models_on(fp):
            if other.id == model.id:
                continue
            if other.player != model.player:
                rule = {"infantry": "R44", "large": "R48", "huge": "R52"}[model.size]
                chk.fail(rule, _("{size} {model} may not pass through {fp}, occupied by enemy model {other}").format(
                                   size=size_name(model.size), model=model.id, fp=_meet(fp, other), other=other.id))
            elif model.size == "large" and other.size != "infantry":
                chk.fail("R47",
                         _("large {model} may not pass through {fp}, occupied by allied {size} model {other}").format(
                                    model=model.id, fp=_meet(fp, other), size=size_name(other.size), other=other.id))
            elif model.size == "huge" and other.size != "infantry":
                chk.fail("R51",
                         _("huge {model} may pass only allied infantry, not {size} model {other} at {fp}").format(
                                    model=model.id, size=size_name(other.size), other=other.id, fp=_meet(fp, other)))
        self._solid_terrain(state, model, fp, destroyed, chk, ending=False)

    @staticmethod
    def _solid_terrain(state: TornscapeState, model: Model, fp, destroyed: list, chk: Checks, *, ending: bool) -> None:
        """Solid terrain under a footprint: huge models destroy it (R53 passing, R55 ending); others may
        neither pass (R44, R48) nor end there (R45, R49)."""
        if state.solid.keys().isdisjoint(fp):
            return
        for h in sorted(fp):
            tid = state.solid.get(h)
            if tid is None:
                continue
            if model.size == "huge":
                if tid not in destroyed:
                    destroyed.append(tid)
            elif ending:
                rule = "R45" if model.size == "infantry" else "R49"
                chk.fail(rule, _("{size} {model} may not end on {h}, solid terrain {tid}").format(
                                   size=size_name(model.size), model=model.id, h=_h(h), tid=tid))
            else:
                rule = "R44" if model.size == "infantry" else "R48"
                chk.fail(rule, _("{size} {model} may not pass through {h}, solid terrain {tid}").format(
                                   size=size_name(model.size), model=model.id, h=_h(h), tid=tid))

    def _check_ending(self, state: TornscapeState, model: Model, action: str, end, destroyed: list,
                      chk: Checks) -> tuple[list[str], list[str]]:
        others = [o for o in state.models_on(end) if o.id != model.id]
        marker_ids = sorted({state.marker_at[h] for h in end if h in state.marker_at})
        self._solid_terrain(state, model, end, destroyed, chk, ending=True)  # every move, effects too
        if action in EFFECT_ACTIONS:
            if others or marker_ids:
                what = (_("model {model}").format(model=others[0].id) if others
                        else _("marker {marker}").format(marker=marker_ids[0]))
                chk.fail("R65", _("{model} moved by an effect may not end on {what}: shoving needs a Movement "
                                  "action").format(model=model.id, what=what))
            return [], []
        allies, enemies = [], []
        for other in others:
            if model.can_shove(other):
                (allies if other.player == model.player else enemies).append(other.id)
            elif model.size == "infantry":
                rule = "R59" if "shove" in model.traits else "R45"
                chk.fail(rule, _("infantry {model} may not end on {end}, occupied by {size} model {other}").format(
                                   model=model.id, end=_meet(end, other), size=size_name(other.size), other=other.id))
            elif model.size == "large":
                chk.fail("R49", _("large {model} may not end on {end}, occupied by {size} model {other}").format(
                                    model=model.id, end=_meet(end, other), size=size_name(other.size), other=other.id))
            else:
                chk.fail("R54", _("huge {model} may not end on {end}, occupied by huge model {other}").format(
                                    model=model.id, end=_meet(end, other), other=other.id))
        for mid in marker_ids:
            marker = state.markers[mid]
            if marker.kind == "bound" and not model.shoves_infantry():
                chk.fail("R70", _("{model} may not end on bound marker {mid} at {at}: only models that can shove "
                                  "infantry shove bound markers").format(model=model.id, mid=mid, at=_h(marker.at)))
            elif marker.kind == "bound" and marker.linked_to and marker.linked_to in state.models:
                holder = state.models[marker.linked_to]
                if not self._marker_spots(state, marker, model, end):
                    chk.fail("R71", _("bound marker {mid} has no free hex next to {holder}, so {model} may not "
                                      "take {at}").format(
                                        mid=mid, holder=holder.id, model=model.id, at=_h(marker.at)))
        return sorted(allies) + sorted(enemies), marker_ids  # R64: allies first, then enemies

    def apply_ModelMoved(self, state: TornscapeState, event: dict) -> None:
        model = state.models[event["model"]]
        size = model.size
        end = event["path"][-1]
        at = recorded_position(size, end)
        state.put(model, at)
        for tid in event.get("destroyed", ()):
            state.remove_terrain(tid)
        state.pending = ([Pending("model", mid, model.id) for mid in event.get("must_eject", ())]
                         + [Pending("marker", mid, model.id) for mid in event.get("markers_to_eject", ())])
        if event["action"] in MOVE_ACTIONS:
            state.actions_used.add(event["action"])
        state.entered_in_activation.update(event.get("entered", ()))
        state.draws.extend(self.cells(state, model, "entering", event.get("entered", ()), event["seq"]))

    # --- ejection --------------------------------------------------------------------------
    def ejection_targets(self, state: TornscapeState, model: Model, shover: Model) -> list[list[tuple[int, int]]]:
        """The nearest free positions for ``model`` ejected by ``shover`` (R57, R63)."""
        if model.size == "infantry":
            return [[h] for h in hx.nearest_free_hexes(shover.fp, state.is_free, state.width, state.height)]
        return self._nearest_free_hexons(state, shover.fp)

    def _nearest_free_hexons(self, state: TornscapeState, fp) -> list[list[tuple[int, int]]]:
        best: list = []
        best_d = None
        for h in hx.board_hexes(state.width, state.height):
            if not hx.is_hexon_centre(h):
                continue
            cells = hx.hexon_hexes(h)
            if not all(hx.on_board(c, state.width, state.height) and state.is_free(c) for c in cells):
                continue
            d = hx.footprint_distance(frozenset(cells), fp)
            if d == 0:
                continue
            if best_d is None or d < best_d:
                best, best_d = [[h]], d
            elif d == best_d:
                best.append([h])
        return best

    def _pending(self, state: TornscapeState, kind: str, item: str, chk: Checks) -> Pending | None:
        for p in state.pending:
            if p.kind == kind and p.id == item:
                return p
        chk.fail("F01", (_("model {item} is not waiting to be ejected") if kind == "model" else
                         _("marker {item} is not waiting to be ejected")).format(item=item))
        return None

    def _dodge(self, state: TornscapeState, event: dict, model: Model, by: Model, chk: Checks, rule: str) -> dict:
        if event.get("dodge") is None:
            return {}
        if model.player == by.player:
            chk.fail(rule, _("{model} is {by}'s ally and may not dodge it").format(model=model.id, by=by.id))
        roll = self.use_roll(state, chk, event["dodge"], purpose="dodge", player=model.player, die="agility",
                             count=model.agility, what=_("{model}'s dodge check").format(model=model.id), name="dodge",
                             count_rule="R61")
        return {"dodged": state.dice.successes(roll.faces) >= 1}

    def _chosen_by(self, state: TornscapeState, event: dict, model: Model, by: Model, dodged: bool, rule: str,
                   chk: Checks) -> None:
        """R62 (R72 for a displacement): after a successful dodge the moved model's controller picks among the
        nearest free hexes; otherwise the player of the model that shoves (or displaces) it."""
        if event.get("chosen_by") is None:
            return
        chooser = self.player(state, event, "chosen_by")
        due = model.player if dodged else by.player
        if chooser != due:
            why = (_("{model} dodged, so its controller {due} picks where {model} goes, not {chooser}") if dodged
                   else _("{player}, who moves {by}, picks where {model} goes (no successful dodge), not {chooser}"))
            chk.fail(rule, why.format(model=model.id, due=due, player=by.player, by=by.id, chooser=chooser))

    def decide_ModelEjected(self, state: TornscapeState, event: dict, chk: Checks) -> dict:
        model = self.model(state, event)
        by = self.model(state, event, "by")
        pending = self._pending(state, "model", model.id, chk)
        if pending is not None:
            if pending.by != by.id:
                chk.fail("F01", _("{model} is being ejected by {by}, not {by2}").format(
                                    model=model.id, by=pending.by, by2=by.id))
            if model.player != by.player:
                ally = next((p.id for p in state.pending if p.kind == "model"
                             and state.models[p.id].player == by.player), None)
                if ally is not None:
                    chk.fail("R64", _("allied {ally} must be ejected before enemy {model}").format(
                                        ally=ally, model=model.id))
        to = self.position_of(state, model.size, event["to"], "to")
        derived = self._dodge(state, event, model, by, chk, "R60")
        self._chosen_by(state, event, model, by, derived.get("dodged", False), "R62", chk)
        targets = self.ejection_targets(state, model, by)
        if to not in targets:
            rule = "R63" if model.size == "large" else "R57"
            options = ", ".join(show([list(h) for h in t]) if len(t) > 1 else _h(t[0]) for t in targets) or _("none")
            text = (_("{model} must be ejected to one of the nearest free hexes ({options}), not {to}")
                    if model.size == "infantry" else
                    _("{model} must be ejected to one of the nearest free hexons ({options}), not {to}"))
            chk.fail(rule, text.format(model=model.id, options=options, to=_h(to[0])))
        derived["free_attacks"] = [model.id] if model.player != by.player else []  # R58
        return derived

    def apply_ModelEjected(self, state: TornscapeState, event: dict) -> None:
        model = state.models[event["model"]]
        state.put(model, recorded_position(model.size, event["to"]))
        state.pending = [p for p in state.pending if not (p.kind == "model" and p.id == model.id)]
        if event.get("dodge") is not None:
            state.mark_used(event["dodge"], event["seq"])

    def decide_ModelDisplaced(self, state: TornscapeState, event: dict, chk: Checks) -> dict:
        model = self.model(state, event)
        by = self.model(state, event, "by")
        to = self.position_of(state, model.size, event["to"], "to")
        derived = self._dodge(state, event, model, by, chk, "R72")
        self._chosen_by(state, event, model, by, derived.get("dodged", False), "R72", chk)
        if derived.get("dodged") and model.size != "infantry":
            if to != model.at:
                chk.fail("R72", _("{size} {model} dodged and stays at {at}").format(
                                    size=size_name(model.size), model=model.id, at=_h(model.at[0])))
            return derived
        fp = hx.footprint(model.size, to)
        blocked = [h for h in sorted(fp) if (h in state.occupants and state.occupants[h] != [model.id])
                   or h in state.marker_at or h in state.solid]
        if blocked:
            chk.fail("R65", _("{model} may not be displaced onto {blocked}, which is not free").format(
                                model=model.id, blocked=_h(blocked[0])))
        return derived

    def apply_ModelDisplaced(self, state: TornscapeState, event: dict) -> None:
        model = state.models[event["model"]]
        if not event.get("dodged") or model.size == "infantry":
            state.put(model, recorded_position(model.size, event["to"]))
        if event.get("dodge") is not None:
            state.mark_used(event["dodge"], event["seq"])

    # --- markers ---------------------------------------------------------------------------
    def _marker_spots(self, state: TornscapeState, marker: Marker, mover: Model, end) -> list[tuple[int, int]]:
        """Free hexes where an ejected marker may go (R67; R71 for a taken bound marker)."""
        def free(h):
            return state.is_free(h) and h not in end and h != marker.at

        if marker.kind == "bound" and marker.linked_to in state.models:
            holder = state.models[marker.linked_to]
            near = {n for h in holder.fp for n in hx.neighbours(h)} - holder.fp
            return sorted(h for h in near if hx.on_board(h, state.width, state.height) and free(h))
        return hx.nearest_free_hexes(frozenset(end), free, state.width, state.height)

    def decide_MarkerEjected(self, state: TornscapeState, event: dict, chk: Checks) -> None:
        marker = state.markers.get(event["marker"])
        if marker is None:
            raise MalformedRecord(_("field `marker`: no marker '{marker}' on the board").format(marker=event["marker"]),
                                  field="marker")
        to = self.on_board(state, position(event["to"], "to"), "to")
        pending = self._pending(state, "marker", marker.id, chk)
        if pending is None:
            return
        mover = state.models[pending.by]
        spots = self._marker_spots(state, marker, mover, mover.fp)
        if to not in spots:
            rule = "R71" if marker.kind == "bound" and marker.linked_to else "R67"
            chk.fail(rule, _("marker {marker} must go to one of {spots}, not {to}").format(
                               marker=marker.id, spots=', '.join((_h(h) for h in spots)) or _("no hex"), to=_h(to)))

    def apply_MarkerEjected(self, state: TornscapeState, event: dict) -> None:
        marker = state.markers[event["marker"]]
        state.touch("markers", marker.id)
        state.marker_at.pop(marker.at, None)
        marker.at = tuple(event["to"])
        state.marker_at[marker.at] = marker.id
        state.pending = [p for p in state.pending if not (p.kind == "marker" and p.id == marker.id)]

    def decide_MarkerTaken(self, state: TornscapeState, event: dict, chk: Checks) -> None:
        model = self.model(state, event)
        marker = state.markers.get(event["marker"])
        if marker is None and event["marker"] in state.taken:
            chk.fail("R69", _("portable marker {marker} was taken at seq {taken} and left the board; {model} "
                              "cannot take it").format(
                                marker=event['marker'], taken=state.taken[event['marker']], model=model.id))
            return
        if marker is None:
            raise MalformedRecord(_("field `marker`: no marker '{marker}' on the board").format(marker=event["marker"]),
                                  field="marker")
        if hx.footprint_distance(model.fp, frozenset([marker.at])) > 1:
            chk.fail("F06", _("{model} is not next to marker {marker} at {at}").format(
                                model=model.id, marker=marker.id, at=_h(marker.at)))

    def apply_MarkerTaken(self, state: TornscapeState, event: dict) -> None:
        marker = state.markers.get(event["marker"])
        if marker is None:  # taken twice (an R69 violation kept in lenient mode): nothing changes
            return
        if marker.kind == "portable":  # R69: portable markers leave the board, bound ones stay
            state.taken[marker.id] = event["seq"]
            del state.markers[marker.id]
            state.marker_at.pop(marker.at, None)
        else:
            marker.linked_to = event["model"]
        state.touch("markers", marker.id)

    # --- placing and removing models -------------------------------------------------------
    def decide_ModelPlaced(self, state: TornscapeState, event: dict, chk: Checks) -> None:
        model = self.parse_model(state, event["model"], "model")
        clash = self._setup_clash(state, model)
        if clash:
            chk.fail("R66", _("{model} may not be placed on {at}: it would overlap {clash}").format(
                                model=model.id, at=show([list(h) for h in model.at]), clash=clash))

    def apply_ModelPlaced(self, state: TornscapeState, event: dict) -> None:
        state.add_model(self.parse_model(state, event["model"], "model"))

    def decide_ModelRemoved(self, state: TornscapeState, event: dict, chk: Checks) -> None:
        self.model(state, event)

    def apply_ModelRemoved(self, state: TornscapeState, event: dict) -> None:
        model = state.models[event["model"]]
        state.remove_model(model.id)
        if state.activation == model.id:  # removed during its activation: the activation is over
            state.activation = None
            state.actions_used = set()
        self.note_finished(state, model.player)  # its player may have no model left to activate (R31, R32)

    # --- turns, phases, re-rolls and the end --------------------------------------------------
    def decide_TurnStarted(self, state: TornscapeState, event: dict, chk: Checks) -> None:
        super().decide_TurnStarted(state, event, chk)
        self.check_phase_v_held(state, _("turn {turn} starts").format(turn=event['turn']), chk)

    def apply_TurnStarted(self, state: TornscapeState, event: dict) -> None:
        super().apply_TurnStarted(state, event)
        state.activated = {pid: set() for pid in state.players}
        state.finished = []
        state.phase_v_held = False

    def decide_PhaseStarted(self, state: TornscapeState, event: dict, chk: Checks) -> dict:
        super().decide_PhaseStarted(state, event, chk)
        if event["phase"] == "vortex_movement":
            self.decide_phase_v_start(state, chk)
        return {}

    def apply_PhaseStarted(self, state: TornscapeState, event: dict) -> None:
        super().apply_PhaseStarted(state, event)
        state.vortices_moved = []
        if event["phase"] == "vortex_movement":
            state.phase_v_held = True

    def check_played_out(self, state: TornscapeState, chk: Checks) -> None:
        self.check_phase_v_held(state, _("the game ends"), chk)

    def decide_DieRerolled(self, state: TornscapeState, event: dict, chk: Checks) -> None:
        super().decide_DieRerolled(state, event, chk)
        if event.get("paid", "crystal") == "crystal" and state.crystals[event["player"]] < 1:
            chk.fail("R40", _("{player} has no ether crystal to pay for a re-roll (R39: one per die)").format(
                                player=event['player']))

    def apply_DieRerolled(self, state: TornscapeState, event: dict) -> None:
        super().apply_DieRerolled(state, event)
        if event.get("paid", "crystal") == "crystal":
            state.crystals[event["player"]] -= 1
            state.touch("players", event["player"])
