"""Ether vortices (seed 000: R01–R40): allegiance, stabilisation, explore, entering, phenomena,
Phase V movement and ether crystals. A mixin of the Tornscape rules pack."""

from __future__ import annotations

from dataclasses import dataclass, field

from domain import limits, randomness
from domain.errors import MalformedRecord, RollcallError
from domain.record import bounded, did_you_mean, field as get_field, position, setup_items, show, unknown_value
from domain.systems.state import Checks
from domain.systems.tornscape import hexes as hx
from i18n import N_, SOURCE, Translated, _, current, english

DOMAINS = ("creation", "destruction", "life", "death")
HOSTILE = {"creation": "destruction", "destruction": "creation", "life": "death", "death": "life"}  # R06, R07
TRIGGERS = ("explore_success", "explore_failure", "entering")
# the words a person reads for these values: in English the values themselves (translated where shown: in_words)
WORDS = {"creation": N_("creation"), "destruction": N_("destruction"), "life": N_("life"), "death": N_("death"),
         "explore_success": N_("explore_success"), "explore_failure": N_("explore_failure"),
         "entering": N_("entering"), "allied": N_("allied"), "neutral": N_("neutral"), "hostile": N_("hostile"),
         "positive": N_("positive"), "negative": N_("negative")}
VORTEX_FIELDS = ("id", "at", "facing", "ether", "sides", "allegiance")
# Events that may come while ejections or phenomenon draws are still due.
RESOLVING = frozenset({"ModelEjected", "MarkerEjected", "DiceRolled", "DieRerolled", "Noted", "PhenomenonDrawn",
                       "DomainChosen", "VortexStabilised", "EtherConverted"})


def in_words(value) -> str:
    """A domain, trigger, relation or card effect in the language spoken (any other value as it is)."""
    return _(WORDS[value]) if value in WORDS else str(value)


def listed_in_words(values) -> str:
    """Values in words, separated by commas; a translation keeps its English (what a lenient record stores)."""
    shown = [in_words(v) for v in values]
    text = ", ".join(shown)
    return text if current() == SOURCE else Translated(text, ", ".join(map(english, shown)))


def relation(vortex_domain: str | None, model_domain: str | None) -> str:
    """R29/R30: allied (same domain), hostile (the antagonist), neutral otherwise or unaligned."""
    if vortex_domain is None or model_domain is None:
        return "neutral"
    if vortex_domain == model_domain:
        return "allied"
    return "hostile" if HOSTILE[model_domain] == vortex_domain else "neutral"


@dataclass(slots=True)
class Vortex:
    id: str
    at: tuple[int, int]
    facing: int
    ether: int
    allegiance: str | None = None
    removed: bool = False
    sides: list | None = None  # per-tile pairs of faces, sides 0-5 from the arrow
    hexes: frozenset = frozenset()

    def place(self, at: tuple[int, int]) -> None:
        self.at = at
        self.hexes = frozenset(hx.hexon_hexes(at))

    def to_json(self) -> dict:
        return {"at": list(self.at), "facing": self.facing, "ether": self.ether, "allegiance": self.allegiance,
                "removed": self.removed}


@dataclass(slots=True)
class Draws:
    """Phenomenon cards due for one vortex interaction (a cell of the Ether Phenomena Table)."""

    vortex: str
    model: str
    trigger: str
    source_seq: int
    relation: str | None = None
    polarities: list = field(default_factory=list)
    drawn: list = field(default_factory=list)


class VortexState:
    """The vortex part of the Tornscape state (mixed into TornscapeState)."""

    def init_vortices(self) -> None:
        self.vortices: dict[str, Vortex] = {}
        self.deck: list[str] = []
        self.draws: list[Draws] = []
        self.crystals = {pid: 0 for pid in self.players}
        self.faith = {pid: {d: 0 for d in DOMAINS} for pid in self.players}
        self.chosen: dict[str, str] = {}           # model -> domain chosen in its current activation (R09)
        self.stabilised_in_activation = False      # R14
        self.entered_in_activation: set[str] = set()  # R28
        self.activated: dict[str, set[str]] = {pid: set() for pid in self.players}
        self.finished: list[str] = []              # players in the order they finished activating (R32)
        self.vortices_moved: list[str] = []        # in this Phase V (R33)
        self.digital_draws: list[tuple[int, str, tuple[str, ...]]] = []

    def deck_left(self) -> list[str]:
        out = [c for c in self.deck]
        for cell in self.draws:
            for card in cell.drawn:
                if card in out:
                    out.remove(card)
        return out



class VortexRules:
    """decide_/apply_ methods for the vortex events (mixed into the Tornscape pack)."""

    # --- setup -----------------------------------------------------------------------------
    def setup_vortices(self, state, chk: Checks) -> None:
        setup = state.header["setup"]
        for where, raw in setup_items(setup, "vortices", VORTEX_FIELDS):
            vid = get_field(raw, "id", str)
            at = position(raw.get("at"), f"{where}.at")
            if not hx.is_hexon_centre(at) or not all(hx.on_board(h, state.width, state.height)
                                                     for h in hx.hexon_hexes(at)):
                raise MalformedRecord(_("{where}.at: {at} is not a hexon centre on the board").format(
                                          where=where, at=show(list(at))),
                                      field=f"{where}.at")
            facing = get_field(raw, "facing", int, optional=True, default=0)
            if not 0 <= facing <= 5:
                raise MalformedRecord(_("{where}.facing must be a direction 0-5").format(where=where),
                                      field=f"{where}.facing")
            ether = bounded(raw, "ether", 0, limits.COUNT, where=where)
            if ether < 1:
                chk.fail("R02",
                         _("vortex {vid} starts with {ether} ether; a scenario gives each vortex a supply").format(
                                    vid=vid, ether=ether))
            if raw.get("allegiance") is not None:
                chk.fail("R05", _("vortex {vid} starts aligned to {allegiance}; every vortex starts unaligned").format(
                                    vid=vid, allegiance=in_words(raw['allegiance'])))
            if vid in state.vortices or any(v.at == at for v in state.vortices.values()):
                raise MalformedRecord(_("{where}: vortex '{vid}' repeats an id or a hexon").format(
                                          where=where, vid=vid), field=f"{where}.id")
            sides = raw.get("sides")
            vortex = Vortex(vid, at, facing, ether, sides=sides)
            vortex.place(at)
            state.vortices[vid] = vortex
        deck = setup.get("phenomena_deck")
        if deck is None:
            deck = [c["id"] for c in state.rules["phenomena_deck"]["cards"]]
        if not isinstance(deck, list) or not all(isinstance(c, str) for c in deck):
            raise MalformedRecord(_("setup.phenomena_deck must be a list of card ids"), field="setup.phenomena_deck")
        if len(deck) != 16 or len(set(deck)) != 16:
            chk.fail("R01", _("the ether phenomenon deck has {different} different cards of {n_deck}; it has "
                              "exactly 16").format(
                                different=len(set(deck)), n_deck=len(deck)))
        state.deck = list(deck)

    # --- helpers ---------------------------------------------------------------------------
    def vortex(self, state, event: dict, chk: Checks, name: str = "vortex"):
        vortex = state.vortices.get(event[name])
        if vortex is None:
            raise MalformedRecord(_("field `{name}`: no vortex '{vortex}' in this game{did_you_mean}").format(
                                      name=name, vortex=event[name],
                                      did_you_mean=did_you_mean(event[name], state.vortices)), field=name)
        if vortex.removed:
            chk.fail("R03", _("vortex {vortex} was removed when its ether ran out; nothing may use it").format(
                                vortex=vortex.id))
        return vortex

    def domain_of(self, state, model, chk: Checks | None) -> str | None:
        """The domain a model interacts with in this activation (R09): its only one, the one chosen among
        several, or none for a model without a domain (it meets the neutral row, R29)."""
        if len(model.domains) == 1:
            return model.domains[0]
        if not model.domains:
            return None
        chosen = state.chosen.get(model.id)
        if chosen is None and chk is not None:
            chk.fail("R09", _("{model} has domains {domains} and must choose one (DomainChosen) at its first "
                              "vortex interaction of the activation").format(
                                model=model.id, domains=listed_in_words(model.domains)))
        return chosen

    def domain_due(self, state, model) -> bool:
        """Whether ``model`` must choose its domain (DomainChosen) before it interacts with a vortex (R09)."""
        return len(model.domains) > 1 and model.id not in state.chosen

    def stabilisation_due(self, state, cell) -> bool:
        """Whether the first card of ``cell`` waits for a stabilisation roll: its vortex is unaligned and no
        roll was made in this activation (R10, R14). Explores check it themselves (VortexExplored)."""
        return (not cell.drawn and state.vortices[cell.vortex].allegiance is None
                and not state.stabilised_in_activation and cell.model in state.models)

    def in_vortices(self, state, fp) -> list[str]:
        return [vid for vid, v in state.vortices.items() if not v.removed and not v.hexes.isdisjoint(fp)]

    def cells(self, state, model, trigger: str, vortices: list[str], seq: int) -> list[Draws]:
        return [Draws(vid, model.id, trigger, seq) for vid in vortices]

    def check_resolving(self, state, event: dict, chk: Checks) -> None:
        if state.draws and event["type"] not in RESOLVING:
            cell = state.draws[0]
            due = max(len(self.cell_polarities(state, cell)) - len(cell.drawn), 1)
            chk.fail("R23", _("{due} ether phenomenon card(s) for vortex {vortex} ({trigger}) must be drawn before "
                              "{type}").format(due=due, vortex=cell.vortex, trigger=in_words(cell.trigger),
                                               type=event['type']))

    def cell_polarities(self, state, cell: Draws) -> list:
        if cell.polarities:
            return cell.polarities
        model = state.models.get(cell.model)
        rel = cell.relation or relation(state.vortices[cell.vortex].allegiance,
                                        self.domain_of(state, model, None) if model else None)
        return state.rules["ether_phenomena"][rel][cell.trigger]

    def vortex_derived_rule(self, state, event: dict, name: str, given, value) -> str | None:
        """The rule a wrongly given derived field of a vortex event breaks, where it depends on the case:
        ``allegiance`` R11/R12/R13 by the face rolled; ``ether_gained`` R21 on a failed explore, R19 above
        the supply, else R18; ``entered`` R28 when it names a vortex already entered in this activation;
        ``relation`` R29 for an unaligned vortex; ``to`` R35 when the vortex is blocked. None: the spec's."""
        kind = event["type"]
        if kind == "VortexStabilised" and name == "allegiance":
            roll = state.rolls.get(event["roll"])
            face = roll.faces[0] if roll is not None and roll.faces else None
            return {"crit": "R11", "blank": "R12", "success": "R13"}.get(face)
        if kind == "VortexExplored" and name == "ether_gained" and event["vortex"] in state.vortices:
            if value == 0 and isinstance(given, int) and given > 0 and not self._explore_succeeds(state, event):
                return "R21"
            if isinstance(given, int) and given > state.vortices[event["vortex"]].ether:
                return "R19"
        if kind in ("ModelMoved", "ActivationEnded") and name == "entered" and isinstance(given, list):
            if any(v in state.entered_in_activation and v not in value for v in given):
                return "R28"
        if kind == "PhenomenonDrawn" and name == "relation" and state.draws:
            vid = event.get("vortex") or state.draws[0].vortex
            if vid in state.vortices and state.vortices[vid].allegiance is None:
                return "R29"
        if kind == "VortexMoved" and name == "to" and event["vortex"] in state.vortices:
            if value == list(state.vortices[event["vortex"]].at):
                return "R35"
        return None

    def _explore_succeeds(self, state, event: dict) -> bool:
        roll = state.rolls.get(event["roll"])
        return roll is not None and state.dice.successes(roll.faces) >= 1

    def digital_draw(self, state, seed: bytes, choice: str | None = None) -> dict:
        """The next ether phenomenon card due (of vortex ``choice`` where one event entered several), with
        the effect the table asks for (R23)."""
        due = [c for c in state.draws if choice in (None, c.vortex)]
        if not due:
            raise RollcallError(_("no ether phenomenon is due in game '{game}'").format(game=state.game))
        cell = due[0]
        card = randomness.draw(seed, state.game, state.seq + 1, state.deck_left())
        effect = self.cell_polarities(state, cell)[len(cell.drawn)]
        return {"type": "PhenomenonDrawn", "card": card, "effect": effect, "vortex": cell.vortex, "source": "digital"}

    # --- domains and stabilisation ---------------------------------------------------------
    def decide_DomainChosen(self, state, event: dict, chk: Checks) -> None:
        model = self.model(state, event)
        if event["domain"] not in DOMAINS:
            raise unknown_value("domain", event["domain"], DOMAINS)
        if event["domain"] not in model.domains:
            chk.fail("R09", _("{model} is devoted to {domains}, not {domain}").format(
                                model=model.id, domains=listed_in_words(model.domains) or _("no domain"),
                                domain=in_words(event['domain'])))
        chosen = state.chosen.get(model.id)
        if chosen is not None and chosen != event["domain"]:
            chk.fail("R09", _("{model} chose {chosen} for this activation and keeps it to its end").format(
                                model=model.id, chosen=in_words(chosen)))
        if state.activation != model.id and not any(c.model == model.id for c in state.draws):
            chk.fail("F05", _("{model} chooses a domain outside its own activation").format(model=model.id))

    def apply_DomainChosen(self, state, event: dict) -> None:
        state.chosen[event["model"]] = event["domain"]

    def decide_VortexStabilised(self, state, event: dict, chk: Checks) -> dict:
        model = self.model(state, event)
        vortex = self.vortex(state, event, chk)
        if vortex.allegiance is not None:
            chk.fail("R04", _("vortex {vortex} is already devoted to {allegiance}; only an unaligned vortex is "
                              "stabilised").format(vortex=vortex.id, allegiance=in_words(vortex.allegiance)))
        entering = any(c.model == model.id and c.vortex == vortex.id for c in state.draws)  # R25-R27
        if not entering and hx.footprint_distance(model.fp, vortex.hexes) > state.rules.get("explore_range", 1):
            chk.fail("R15", _("{model} at {position} does not interact with vortex {vortex}: it is neither in it nor "
                              "within explore range").format(
                                model=model.id, position=show([list(h) for h in model.at]), vortex=vortex.id))
        if state.activation != model.id and not any(c.model == model.id for c in state.draws):
            chk.fail("F05", _("{model} interacts with vortex {vortex} outside its own activation").format(
                                model=model.id, vortex=vortex.id))
        if state.stabilised_in_activation:
            chk.fail("R14", _("a stabilisation roll was already made in {activation}'s activation").format(
                                activation=state.activation) if state.activation else
                     _("a stabilisation roll was already made in this activation"))
        opponent = state.opponent(model.player)
        what = _("the stabilisation of {vortex} (by {opponent}, the opponent of {model}'s player)").format(
            vortex=vortex.id, opponent=opponent, model=model.id)
        roll = self.use_roll(state, chk, event["roll"], purpose="stabilisation", player=opponent, die="attack",
                             count=1, what=what, count_rule="R10", player_rule="R10")
        domain = self.domain_of(state, model, chk)
        face = roll.faces[0] if roll.faces else None
        if domain is None:
            return {"allegiance": None}
        return {"allegiance": {"crit": HOSTILE[domain], "blank": domain}.get(face)}  # R11, R12, R13

    def apply_VortexStabilised(self, state, event: dict) -> None:
        state.vortices[event["vortex"]].allegiance = event["allegiance"]
        state.touch("vortices", event["vortex"])
        state.stabilised_in_activation = True
        state.mark_used(event["roll"], event["seq"])

    # --- explore ---------------------------------------------------------------------------
    def decide_VortexExplored(self, state, event: dict, chk: Checks) -> dict:
        model = self.model(state, event)
        vortex = self.vortex(state, event, chk)
        if state.activation != model.id:
            chk.fail("F05", _("{model} explores outside its own activation").format(model=model.id))
        if "explore" in state.actions_used:
            chk.fail("R41", _("{model} already explored in this activation").format(model=model.id))
        if vortex.allegiance is None and not state.stabilised_in_activation:
            chk.fail("R10", _("{model} explores unaligned vortex {vortex}: {opponent} first rolls its "
                              "stabilisation (VortexStabilised)").format(
                                model=model.id, vortex=vortex.id, opponent=state.opponent(model.player)))
        reach = state.rules.get("explore_range", 1)
        if hx.footprint_distance(model.fp, vortex.hexes) > reach:
            chk.fail("R15", _("{model} at {position} is out of explore range of vortex {vortex} at {at}").format(
                                model=model.id, position=show([list(h) for h in model.at]), vortex=vortex.id,
                                at=show(list(vortex.at))))
        roll = self.use_roll(state, chk, event["roll"], purpose="explore", player=model.player, die="attack",
                             count=model.explore, what=_("{model}'s explore").format(model=model.id), count_rule="R16")
        successes = state.dice.successes(roll.faces)
        success = successes >= 1  # R17
        gained = min(successes, vortex.ether) if success else 0  # R18, R19, R21
        return {"success": success, "ether_gained": gained, "vortex_removed": vortex.ether - gained <= 0 and success}

    def apply_VortexExplored(self, state, event: dict) -> None:
        vortex = state.vortices[event["vortex"]]
        model = state.models[event["model"]]
        vortex.ether -= event["ether_gained"]
        state.crystals[model.player] += event["ether_gained"]
        state.touch("vortices", vortex.id)
        state.touch("players", model.player)
        if event["vortex_removed"]:
            vortex.removed = True  # R03; its last hexon is kept (R37)
        trigger = "explore_success" if event["success"] else "explore_failure"
        state.draws.extend(self.cells(state, model, trigger, [vortex.id], event["seq"]))
        state.actions_used.add("explore")
        state.mark_used(event["roll"], event["seq"])

    # --- phenomena -------------------------------------------------------------------------
    def decide_PhenomenonDrawn(self, state, event: dict, chk: Checks) -> dict:
        if not state.draws:
            chk.fail("R23", _("no ether phenomenon is due; card {card} may not be drawn").format(card=event['card']))
            return {}
        wanted = event.get("vortex")
        candidates = [c for c in state.draws if c.source_seq == state.draws[0].source_seq]
        if wanted is None and len({c.vortex for c in candidates}) > 1:
            raise MalformedRecord(_("field `vortex` is needed: one event entered vortices {vortices}").format(
                                      vortices=', '.join((c.vortex for c in candidates))), field="vortex")
        cell = next((c for c in candidates if wanted in (None, c.vortex)), None)
        if cell is None:
            chk.fail("R23", _("no phenomenon is due for vortex {wanted}").format(wanted=wanted))
            return {}
        model = state.models.get(cell.model)
        rel = cell.relation or relation(state.vortices[cell.vortex].allegiance,
                                        self.domain_of(state, model, chk) if model else None)
        polarities = cell.polarities or state.rules["ether_phenomena"][rel][cell.trigger]
        if self.stabilisation_due(state, cell):
            chk.fail("R10", _("{model} entered unaligned vortex {vortex}: {opponent} first rolls its stabilisation "
                              "(VortexStabilised), whose allegiance picks the row of the table").format(
                                model=cell.model, vortex=cell.vortex, opponent=state.opponent(model.player)))
        if event["card"] not in state.deck_left():
            rule = "R22" if event["card"] in state.deck else "R01"
            chk.fail(rule, _("card {card} is not in the deck of {n_deck_left} cards left").format(
                               card=event['card'], n_deck_left=len(state.deck_left())))
        index = len(cell.drawn)
        if index < len(polarities) and event["effect"] != polarities[index]:
            chk.fail("R23", _("card {index} of {n_polarities} for a {rel} vortex on {trigger} plays its "
                              "{polarities} effect, not {effect}").format(
                                index=index + 1, n_polarities=len(polarities), rel=in_words(rel),
                                trigger=in_words(cell.trigger),
                                polarities=in_words(polarities[index]), effect=in_words(event['effect'])))
        return {"vortex": cell.vortex, "model": cell.model, "relation": rel, "trigger": cell.trigger,
                "shuffled": index + 1 >= len(polarities)}

    def apply_PhenomenonDrawn(self, state, event: dict) -> None:
        if "relation" not in event:
            return
        cell = next(c for c in state.draws if c.vortex == event["vortex"])
        if not cell.relation:
            cell.relation = event["relation"]
            cell.polarities = list(state.rules["ether_phenomena"][event["relation"]][cell.trigger])
        if event.get("source") == "digital":
            state.digital_draws.append((event["seq"], event["card"], tuple(state.deck_left())))
        cell.drawn.append(event["card"])
        if event["shuffled"]:
            state.draws.remove(cell)  # R22: the cards go back and the deck is shuffled

    # --- Phase V ---------------------------------------------------------------------------
    def note_activation_end(self, state, model) -> None:
        state.activated[model.player].add(model.id)
        self.note_finished(state, model.player)

    @staticmethod
    def note_finished(state, player: str) -> None:
        """``player`` has activated every model it has in play: it finished (R32: the first rolls first)."""
        if len(state.activated[player]) >= state.in_play[player] and player not in state.finished:
            state.finished.append(player)

    def check_phase_v_held(self, state, what: str, chk: Checks) -> None:
        """R31, R33: in a turn with vortices on the board, Phase V comes before the next turn or the end."""
        if state.turn < 1 or state.phase_v_held:
            return
        present = [vid for vid, v in state.vortices.items() if not v.removed]
        if present:
            chk.fail("R31", _("{what} before Phase V (vortex_movement) of turn {turn}: vortices {present} are on "
                              "the board and move once every turn").format(
                                what=what, turn=state.turn, present=', '.join(present)))

    def check_phase_v_complete(self, state, event: dict, chk: Checks) -> None:
        if state.phase != "vortex_movement" or event["type"] in ("VortexMoved", *RESOLVING):
            return
        left = [vid for vid, v in state.vortices.items() if not v.removed and vid not in state.vortices_moved]
        if left:
            chk.fail("R33", _("Phase V ends before vortices {left} were moved; each moves once").format(
                                left=', '.join(left)))

    def decide_phase_v_start(self, state, chk: Checks) -> None:
        if state.phase_v_held:
            chk.fail("R33", _("Phase V of turn {turn} has already been played: each vortex moves once a turn").format(
                                turn=state.turn))
        if any(len(state.activated[pid]) < state.in_play[pid] for pid in state.players):
            waiting = [m.id for m in state.models.values() if m.id not in state.activated[m.player]]
            chk.fail("R31", _("Phase V starts before {waiting} activated this turn").format(
                                waiting=', '.join(sorted(waiting))))

    def decide_VortexMoved(self, state, event: dict, chk: Checks) -> dict:
        vortex = self.vortex(state, event, chk)
        if state.phase != "vortex_movement":
            chk.fail("R31", _("vortex {vortex} moves outside Phase V (vortex_movement)").format(vortex=vortex.id))
        if vortex.id in state.vortices_moved:
            chk.fail("R33", _("vortex {vortex} was already moved in this Phase V").format(vortex=vortex.id))
        first = state.finished[0] if state.finished else next(iter(state.players))
        mover = first if len(state.vortices_moved) % 2 == 0 else state.opponent(first)
        what = _("the movement of vortex {vortex} ({first} finished activating first, then players alternate)").format(
            vortex=vortex.id, first=first)
        roll = self.use_roll(state, chk, event["roll"], purpose="vortex_move", player=mover, die="attack", count=2,
                             what=what, count_rule="R34", player_rule="R32")
        facing = event.get("facing")
        if facing is not None and not 0 <= facing <= 5:
            raise MalformedRecord(_("field `facing` must be a direction 0-5"), field="facing")
        pairs = vortex.sides or state.rules["vortex_sides"]["pairs"]
        faces = sorted(map(str, roll.faces))
        side = next((i for i, pair in enumerate(pairs) if sorted(map(str, pair)) == faces), None)
        if side is None:
            chk.fail("R34", _("faces {faces} select no side of vortex {vortex}").format(
                                faces=show(roll.faces), vortex=vortex.id))
            return {"side": None, "to": list(vortex.at), "blocked": True}
        target = hx.hexon_neighbour(vortex.at, (vortex.facing + side) % 6)
        cells = hx.hexon_hexes(target)
        blocked = (not all(hx.on_board(h, state.width, state.height) for h in cells)
                   or any(h in state.solid for h in cells)
                   or any(v.at == target for v in state.vortices.values() if not v.removed))  # R35
        return {"side": side, "to": list(vortex.at if blocked else target), "blocked": blocked}

    def apply_VortexMoved(self, state, event: dict) -> None:
        vortex = state.vortices[event["vortex"]]
        vortex.place(tuple(event["to"]))
        if event.get("facing") is not None:
            vortex.facing = event["facing"]
        state.touch("vortices", vortex.id)
        state.vortices_moved.append(vortex.id)
        state.mark_used(event["roll"], event["seq"])

    # --- crystals --------------------------------------------------------------------------
    def decide_EtherConverted(self, state, event: dict, chk: Checks) -> None:
        player = self.player(state, event)
        if event["amount"] < 1:
            raise MalformedRecord(_("field `amount` must be at least 1"), field="amount")
        if event["domain"] not in DOMAINS:
            raise unknown_value("domain", event["domain"], DOMAINS)
        if state.crystals[player] < event["amount"]:
            chk.fail("R40", _("{player} converts {amount} ether crystals but holds {crystals}").format(
                                player=player, amount=event['amount'], crystals=state.crystals[player]))

    def apply_EtherConverted(self, state, event: dict) -> None:
        state.crystals[event["player"]] -= event["amount"]  # R38: one crystal, one faith token
        state.faith[event["player"]][event["domain"]] += event["amount"]
        state.touch("players", event["player"])
