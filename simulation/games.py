"""Simulators of legal games of each system, reproducible from a seed.

Moves are chosen at random but with a purpose (Tornscape models head for vortices and enemies,
wizards cast what their pool allows, warriors take the initiative die that suits them). The 9th Age
and Claustrophobia play among the actions their rules packs offer (``legal_actions``, completed with
the simulator's choices), so every event they play is one the Record page would offer; Tornscape's
proposals are judged by the Game aggregate itself, a proposal that breaks a rule dropped. Every
simulated game is legal by construction. Every event carries an ``at`` time: a few seconds to a minute after the one
before, so a turn takes a few minutes. The same seed gives byte-identical records.

Whole tournaments are simulation/tournaments.py.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import datetime, timedelta, timezone

from domain.game import Game
from domain.record import export_line
from domain.systems.actions import Action, Choice
from domain.systems.dice import load_rule_data
from domain.systems.tornscape import hexes as hx
from domain.systems.tornscape.state import Model, TornscapeState

FACTIONS = ("engeln", "castilla", "faceless", "shadowstep")
NAMES = {"infantry": ("Swordsman", "Guardsman", "Rogue", "Ranger"), "large": ("Faceless", "Warden"),
         "huge": ("Colossus",)}


def tornscape_header(rng: random.Random, game_id: str, *, width: int = 24, height: int = 18,
                     models_per_player: int = 6, vortices: int = 3, tournament: str | None = None,
                     round_no: int | None = None,
                     table: int | None = None, players: tuple[tuple[str, str], tuple[str, str]] | None = None,
                     started: str | None = None) -> dict:
    """A random but legal starting position: terrain in the middle, armies on opposite edges."""
    occupied: set = set()
    terrain = []
    for i in range(rng.randint(3, 6)):
        kind = rng.choice(("solid", "solid", "burning_ground", "deadly_bog", "cover"))
        centre = hx.from_offset(rng.randrange(2, width - 2), rng.randrange(height // 3, 2 * height // 3))
        cells = [h for h in [centre, *rng.sample(hx.neighbours(centre), rng.randint(0, 2))]
                 if hx.on_board(h, width, height) and h not in occupied]
        occupied.update(cells)
        terrain.append({"id": f"t{i + 1}", "kind": kind, "hexes": [list(h) for h in cells]})
    solid = {tuple(h) for t in terrain if t["kind"] == "solid" for h in t["hexes"]}
    placed = []
    for _ in range(vortices * 20):
        if len(placed) == vortices:
            break
        centre = hx.hexon_centre_of(hx.from_offset(rng.randrange(2, width - 2), rng.randrange(4, height - 4)))
        cells = hx.hexon_hexes(centre)
        if all(hx.on_board(c, width, height) and c not in solid for c in cells) and all(
                hx.hexon_distance(centre, tuple(v["at"])) > 1 for v in placed):
            placed.append({"id": f"v{len(placed) + 1}", "at": list(centre), "facing": rng.randrange(6),
                           "ether": rng.randint(2, 4)})
    names = players or (("Anna", rng.choice(FACTIONS)), ("Boris", rng.choice(FACTIONS)))
    models = []
    taken: set = set(solid)
    for side, pid in enumerate(("p1", "p2")):
        rows = range(0, 3) if side == 0 else range(height - 3, height)
        for n in range(models_per_player):
            size = "large" if n == 0 else "infantry"
            for _ in range(200):
                h = hx.from_offset(rng.randrange(1, width - 1), rng.choice(rows))
                at = [hx.hexon_centre_of(h)] if size == "large" else [h]
                fp = hx.footprint(size, at)
                if all(hx.on_board(c, width, height) for c in fp) and not fp & taken:
                    break
            else:
                continue
            taken |= fp | {n2 for c in fp for n2 in hx.neighbours(c)}
            models.append({"id": f"{pid}m{n + 1}", "player": pid, "name": rng.choice(NAMES[size]), "size": size,
                           "at": [list(c) for c in at], "step": 2 if size == "large" else 3,
                           "run": 3 if size == "large" else 5, "agility": rng.randint(0, 2), "explore": rng.randint(1, 3),
                           "domains": rng.sample(("creation", "destruction", "life", "death"),
                                                 2 if n == models_per_player - 1 else 1)})
    header = {"rollcall": 1, "system": "tornscape", "game": game_id,
              "players": [{"id": "p1", "name": names[0][0], "faction": names[0][1]},
                          {"id": "p2", "name": names[1][0], "faction": names[1][1]}],
              "dice_mode": "physical", "rules": {},
              "setup": {"board": {"width": width, "height": height}, "terrain": terrain, "vortices": placed,
                        "models": models}}
    return _placed(header, tournament, round_no, table, started)


# --- the clock and the base of every simulator -----------------------------------------------

EPOCH = datetime(2026, 11, 28, 9, 0, tzinfo=timezone.utc)  # when a simulated game starts unless told
# Seconds an event takes at the table (low, high), by type; others take DEFAULT_PACE.
PACE = {"TurnStarted": (15, 45), "PhaseStarted": (2, 8), "ActivationStarted": (2, 6), "ModelMoved": (6, 18),
        "ModelEjected": (5, 12), "DiceRolled": (3, 9), "DieRerolled": (3, 8), "VortexExplored": (3, 9),
        "PhenomenonDrawn": (6, 15), "VortexMoved": (5, 12), "MagicPhaseStarted": (10, 30),
        "FluxCardDrawn": (5, 15), "CastingAttempted": (10, 30), "DispelAttempted": (8, 20),
        "SpellResolved": (20, 60), "ActionDieAssigned": (5, 15), "GameEnded": (30, 120)}
DEFAULT_PACE = (2, 7)


def iso(moment: datetime) -> str:
    """ISO 8601 in UTC, to the second: 2026-11-28T09:00:00Z."""
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _moment(value: datetime | str | None) -> datetime:
    if value is None:
        return EPOCH
    if isinstance(value, str):
        return datetime.fromisoformat(value.replace("Z", "+00:00"))
    return value


def _placed(header: dict, tournament: str | None, round_no: int | None, table: int | None,
            started: str | None) -> dict:
    if tournament is not None:
        header.update({"tournament": tournament, "round": round_no, "table": table})
    if started is not None:
        header["started"] = started
    return header


class Simulator:
    """A game being played: its play dice (``rng``), and a clock that stamps every recorded event."""

    system: str                                # the rules pack's main alias
    make_header: Callable[..., dict]
    default_turns = 6
    factions: tuple[str, ...] = ()             # the factions a simulated tournament's players choose among
    long_game: dict = {}                       # options that give a game of about 5,000 events
    demo: tuple[str, int, int] = ("", 0, 0)    # the demo's tournament of the system: name, players, rounds

    def __init__(self, seed: int, game_id: str, *, turns: int | None = None, start: datetime | str | None = None,
                 **header_options) -> None:
        self.rng = random.Random(seed)
        self.clock_rng = random.Random(f"{seed}/clock")  # the pace of play never changes the play
        self.now = _moment(start)
        self.turns = turns if turns is not None else self.default_turns
        header = type(self).make_header(self.rng, game_id, started=iso(self.now), **header_options)
        self.game = Game.start(header, id=None)  # type: ignore[arg-type]
        self._offered: tuple[int, list[Action]] = (-1, [])  # the actions offered at a seq

    def record(self, event: dict) -> dict:
        """Record an event a few seconds after the last one (the clock moves only if it is legal)."""
        low, high = PACE.get(event["type"], DEFAULT_PACE)
        moment = self.now + timedelta(seconds=self.clock_rng.randint(low, high))
        recorded = self.game.record({**event, "at": iso(moment)})
        self.now = moment
        return recorded

    def start_turn(self, turn: int) -> dict:
        return self.record({"type": "TurnStarted", "turn": turn})

    def start_phase(self, phase: str) -> dict:
        return self.record({"type": "PhaseStarted", "phase": phase})

    def roll(self, player: str, purpose: str, die: str, faces: list) -> int:
        """Record a roll; its seq."""
        return self.record({"type": "DiceRolled", "player": player, "purpose": purpose, "die": die,
                            "faces": faces})["seq"]

    def score(self, player: str, points: int, reason: str) -> dict:
        return self.record({"type": "PointsScored", "player": player, "points": points, "reason": reason})

    # --- playing among the actions the rules offer (domain.systems.actions) -------------------
    def offers(self, event_type: str, **fixed) -> list[Action]:
        """The actions of ``event_type`` the rules offer now whose fixed fields include ``fixed``."""
        state = self.game.state
        if self._offered[0] != state.seq:  # the state changes only by what this simulator records
            self._offered = (state.seq, self.game.system.legal_actions(state))
        return [a for a in self._offered[1]
                if a.event["type"] == event_type and all(a.event.get(k) == v for k, v in fixed.items())]

    def offer(self, event_type: str, **fixed) -> Action:
        """The first of those offers (a LookupError naming what was sought if the rules offer none)."""
        found = self.offers(event_type, **fixed)
        if not found:
            raise LookupError(f"no {event_type} {fixed or ''} is offered at seq {self.game.state.seq}")
        return found[0]

    def take(self, action: Action, extra: dict | None = None, **values) -> dict:
        """Record an offered ``action``, its open fields filled with ``values``; ``extra``: optional
        fields it leaves to the table (a spell's target)."""
        return self.record({**action.fill(**values), **(extra or {})})

    def end(self, reason: str) -> Game:
        """End the game on the points scored: the higher score wins, equal scores draw."""
        scores = {f"score.{pid}": points for pid, points in self.game.state.scores.items()}
        self.take(self.offer("GameEnded"), reason=reason, **scores)
        return self.game


class TornscapeSimulator(Simulator):
    """Plays Tornscape by choosing among the actions the rules pack offers (``legal_actions``): models head
    for vortices (the explorers) or the nearest enemy and explore what they reach; the table's dice and cards
    fall at random. A player scores for each vortex explored and each vortex held at the end of a turn.
    Turns, the activation phase, points and the end are the simulator's own schedule."""

    system = "tornscape"
    make_header = staticmethod(tornscape_header)
    factions = FACTIONS
    long_game = {"turns": 44, "models_per_player": 12}
    demo = ("Demo Open", 12, 4)

    @property
    def state(self) -> TornscapeState:
        return self.game.state  # type: ignore[return-value]

    def play(self) -> Game:
        for turn in range(1, self.turns + 1):
            self.start_turn(turn)
            self.start_phase("activation")
            self.next_player = "p1" if turn % 2 else "p2"
            self.wanted: set[str] = set()
            self.owed: list[str] = []  # players owed a point for a vortex explored, once its cards are drawn
            while (action := self.choose(self.game.system.legal_actions(self.state))) is not None:
                self.play_action(action)
                self.settle_points()
            self.score_vortices_held()
        return self.end("turn limit")

    # --- choosing among the offered actions ---------------------------------------------------------
    def choose(self, actions: list[Action]) -> Action | None:
        """The action to play, or None when the turn has nothing left to play (only crystals offered)."""
        rng = self.rng
        crystals = [a for a in actions if a.group == "crystals"]
        actions = [a for a in actions if a.group != "crystals" and not self.scheduled(a)]
        if not actions:
            return None
        by_type: dict[str, list[Action]] = {}
        for action in actions:
            by_type.setdefault(action.event["type"], []).append(action)
        reroll = self.worth_a_reroll(crystals)
        if reroll is not None:
            return reroll
        if "ActivationStarted" in by_type or "PhaseStarted" in by_type:
            return self.next_activation(by_type)
        if "ActivationEnded" in by_type:
            if crystals and rng.random() < 0.03:
                return next(a for a in crystals if a.event["type"] == "EtherConverted")
            return self.in_activation(by_type)
        if "ModelEjected" in by_type:
            rolls = [a for a in by_type.get("DiceRolled", ()) if a.event["purpose"] == "dodge"]
            if rolls and rng.random() < 0.8:
                return rolls[0]
            return by_type["ModelEjected"][0]
        if "VortexMoved" in by_type:  # a vortex, turned now and then
            moves = by_type["VortexMoved"]
            vortex = rng.choice(sorted({a.event["vortex"] for a in moves}))
            turned = rng.random() < 0.3
            return next(a for a in moves if a.event["vortex"] == vortex and bool(a.open) == turned)
        if "VortexExplored" in by_type or "VortexStabilised" in by_type:
            return rng.choice(by_type.get("VortexExplored") or by_type["VortexStabilised"])
        return actions[0] if len(actions) == 1 else rng.choice(actions)

    @staticmethod
    def scheduled(action: Action) -> bool:
        """The common actions this simulator plays on its own schedule: turns, the activation phase, points,
        the end."""
        kind = action.event["type"]
        return kind in ("TurnStarted", "PointsScored", "GameEnded", "GameSealed") or (
            kind == "PhaseStarted" and action.event["phase"] == "activation")

    def worth_a_reroll(self, crystals: list[Action]) -> Action | None:
        """Half the time, a crystal re-rolls the first blank of an explore roll."""
        for action in crystals:
            if action.event["type"] == "DieRerolled":
                roll = self.state.rolls[action.event["roll"]]
                if roll.purpose == "explore" and roll.faces[action.event["index"]] == "blank":
                    return action if self.rng.random() < 0.5 else None
        return None

    def next_activation(self, by_type: dict[str, list[Action]]) -> Action:
        """Players alternate activations, each model once (R31); Phase V when every model has activated."""
        starts = by_type.get("ActivationStarted")
        if not starts:
            return by_type["PhaseStarted"][0]
        mine = [a for a in starts if a.actor == self.next_player] or starts
        action = self.rng.choice(mine)
        self.next_player = self.state.opponent(action.actor)
        self.wanted = {kind for kind in ("step", "run", "explore", "attack") if self.rng.random() < 0.8}
        return action

    def in_activation(self, by_type: dict[str, list[Action]]) -> Action:
        """Explore when a vortex is in reach, else step and run towards the target, else end."""
        rng = self.rng
        explore = [a for a in [*by_type.get("DomainChosen", ()), *by_type.get("DiceRolled", ())]]
        if "explore" in self.wanted and explore:
            domain = [a for a in explore if a.event["type"] == "DomainChosen"]
            stabilise = [a for a in explore if a.event.get("purpose") == "stabilisation"]
            rolls = [a for a in explore if a.event.get("purpose") == "explore"]
            if domain:
                return domain[0]
            if stabilise and (not rolls or rng.random() < 0.5):
                return stabilise[0]
            if rolls:
                self.wanted.discard("explore")
                return rolls[0]
        attacks = [a for a in by_type.get("DiceRolled", ()) if a.event["purpose"] == "attack"]
        if "attack" in self.wanted and attacks:
            self.wanted.discard("attack")
            return rng.choice([a for a in attacks if a.open["faces"].count in (2, 3, 4, 5)] or attacks)
        if "MarkerTaken" in by_type and rng.random() < 0.5:
            return by_type["MarkerTaken"][0]
        moves = by_type.get("ModelMoved", ())
        for kind in ("step", "run"):
            options = [a for a in moves if a.event["action"] == kind]
            if kind in self.wanted and options:
                self.wanted.discard(kind)
                return self.towards(options)
        return by_type["ActivationEnded"][0]

    def towards(self, moves: list[Action]) -> Action:
        """Mostly the move ending nearest the target, sometimes one of the next nearest, now and then any."""
        rng = self.rng
        model = self.state.models[moves[0].event["model"]]
        target = self._target(model)
        ranked = sorted(moves, key=lambda a: (hx.distance(tuple(a.hexes[0]), target), a.label))
        roll = rng.random()
        if roll < 0.6:
            return ranked[0]
        return rng.choice(ranked[:3]) if roll < 0.9 else rng.choice(ranked)

    def _target(self, model: Model):
        """Explorers head for the nearest vortex, the others (and explorers now and then) for the
        nearest enemy; sometimes anywhere."""
        state, rng = self.state, self.rng
        roll = rng.random()
        vortices = [v for v in state.vortices.values() if not v.removed]
        here = model.at[0]
        if vortices and model.explore and roll < 0.6:
            return min(vortices, key=lambda v: (hx.distance(v.at, here), v.id)).at
        enemies = [m for m in state.models.values() if m.player != model.player]
        if enemies and roll < 0.9:
            return min(enemies, key=lambda e: (hx.distance(e.at[0], here), e.id)).at[0]
        return hx.from_offset(rng.randrange(state.width), rng.randrange(state.height))

    # --- playing it ---------------------------------------------------------------------------------
    def play_action(self, action: Action) -> dict:
        values = {name: self.value(name, choice) for name, choice in action.open.items()}
        recorded = self.record(action.fill(**values))
        if recorded["type"] == "VortexExplored" and recorded["success"]:
            self.owed.append(self.state.models[recorded["model"]].player)
        return recorded

    def value(self, name: str, choice: Choice):
        """A value of an open field as the table gives it: dice fall by their faces' weights."""
        if choice.kind == "faces":
            die = next(d for d, faces in self.state.dice.data.items() if set(faces) == set(choice.values))
            weights = list(self.state.dice.data[die].values())
            return self.rng.choices(list(choice.values), weights=weights, k=choice.count)
        if choice.kind == "count":
            return choice.low
        return self.rng.choice(choice.values)

    def settle_points(self) -> None:
        """Points for vortices explored, once nothing is left to resolve (cards, ejections)."""
        state = self.state
        while self.owed and not state.draws and not state.pending:
            self.score(self.owed.pop(0), 1, "vortex explored")

    def score_vortices_held(self) -> None:
        """A vortex is held by the only player with a model on or next to it."""
        state = self.state
        held = {pid: 0 for pid in state.players}
        for vortex in state.vortices.values():
            if vortex.removed:
                continue
            near = {m.player for m in state.models.values() if hx.footprint_distance(m.fp, vortex.hexes) <= 1}
            if len(near) == 1:
                held[near.pop()] += 1
        for pid, count in held.items():
            if count:
                self.score(pid, count, "vortex held")


def simulate_tornscape(seed: int, game_id: str, **options) -> Game:
    """Play one legal random Tornscape game; the same seed gives the same game."""
    return TornscapeSimulator(seed, game_id, **options).play()


def record_lines(game: Game) -> list[str]:
    """The game's record as export would write it (header first)."""
    return [export_line(e.data) for e in game.pending_events]


# --- The 9th Age: magic phases ---------------------------------------------------------------

SPELL_BOOK = (("fireball", "pyromancy", "normal", 7, 10), ("flame_wall", "pyromancy", "normal", 8, 11),
              ("heal", "druidism", "normal", 6, 9), ("entangle", "druidism", "replicable", 5, None),
              ("blast", "evocation", "normal", 9, 12))
ATTRIBUTES = (("burn", "pyromancy"), ("regrowth", "druidism"))


def t9a_header(rng: random.Random, game_id: str, *, tournament: str | None = None, round_no: int | None = None,
               table: int | None = None, players: tuple | None = None, started: str | None = None,
               flux_cards: int | None = None) -> dict:
    """A random The 9th Age setup; ``flux_cards`` > 8 gives each player a longer Flux deck (the eight cards
    of the table over again, through the header's ``rules``), for games of many magic phases."""
    spells = [{"id": sid, "name": sid.replace("_", " ").title(), "path": path, "kind": kind,
               "casting_value": value, **({"boosted_value": boosted} if boosted else {})}
              for sid, path, kind, value, boosted in SPELL_BOOK]
    spells += [{"id": sid, "name": sid.title(), "path": path, "kind": "attribute"} for sid, path in ATTRIBUTES]
    spells.append({"id": "wand", "name": "Wand of Sparks", "path": "items", "kind": "bound", "power_level": [4, 8]})
    known = [s["id"] for s in spells if s["kind"] not in ("attribute", "bound")]
    wizards = []
    for pid in ("p1", "p2"):
        for n in range(rng.randint(1, 3)):
            chosen = rng.sample(known, 3)
            paths = {s["path"] for s in spells if s["id"] in chosen}
            chosen += [sid for sid, path in ATTRIBUTES if path in paths]
            if n == 0 and rng.random() < 0.5:
                chosen.append("wand")
            wizards.append({"id": f"{pid}w{n + 1}", "player": pid, "spells": chosen})
    names = players or (("Anna", rng.choice(("highborn", "sylvan", "dread_elves"))),
                        ("Boris", rng.choice(("orcs", "vampires", "daemons"))))
    header = {"rollcall": 1, "system": "t9a", "game": game_id,
              "players": [{"id": "p1", "name": names[0][0], "faction": names[0][1]},
                          {"id": "p2", "name": names[1][0], "faction": names[1][1]}],
              "dice_mode": "physical", "rules": _flux_deck(flux_cards),
              "setup": {"spells": spells, "wizards": wizards,
                        "channel": {"p1": rng.randint(0, 2), "p2": rng.randint(0, 2)}}}
    return _placed(header, tournament, round_no, table, started)


def _flux_deck(cards: int | None) -> dict:
    if not cards or cards <= 8:
        return {}
    table = load_rule_data("t9a")["flux_cards"]
    return {"flux_cards": {str(n): dict(table[str((n - 1) % 8 + 1)]) for n in range(9, cards + 1)}}


class T9ASimulator(Simulator):
    """Plays magic phases among the actions the rules offer: wizards cast what the pool allows, the
    reactive player dispels sensibly; a resolved spell scores for its caster now and then (spell damage)."""

    system = "t9a"
    make_header = staticmethod(t9a_header)
    factions = ("highborn", "sylvan", "dread_elves", "orcs", "vampires", "daemons")
    long_game = {"turns": 330, "flux_cards": 165}
    demo = ("Demo Magic Cup", 8, 3)

    def __init__(self, seed: int, game_id: str, *, turns: int | None = None, **options) -> None:
        cards = max(8, options.get("flux_cards") or 8)
        super().__init__(seed, game_id, turns=min(turns if turns is not None else self.default_turns, 2 * cards),
                         **options)

    def d6(self, n: int) -> list[int]:
        return [self.rng.randint(1, 6) for _ in range(n)]

    def roll_of(self, purpose: str, dice: int) -> dict:
        """Roll ``dice`` d6 through the offered roll of that many dice."""
        for action in self.offers("DiceRolled", purpose=purpose):
            if action.open["faces"].count == dice:
                return self.take(action, faces=self.d6(dice))
        raise LookupError(f"no {purpose} roll of {dice} dice is offered at seq {self.game.state.seq}")

    def play(self) -> Game:
        state, rng = self.game.state, self.rng
        for turn in range(1, self.turns + 1):
            active = "p1" if turn % 2 else "p2"
            self.take(self.offer("TurnStarted"))
            self.take(self.offer("MagicPhaseStarted"), active=active)
            flux = self.offer("FluxCardDrawn")
            self.take(flux, card=rng.choice(flux.open["card"].values))
            siphon = self.offer("VeilSiphoned")
            most = siphon.open["converted_dice"].high
            self.take(siphon, converted_dice=rng.randint(most // 2, most))
            for wid, wizard in state.wizards.items():
                if wizard["player"] != active:
                    continue
                for sid in list(wizard["spells"]):
                    self.cast(wid, sid)
            self.take(self.offer("MagicPhaseEnded"))
        return self.end("turn limit")

    def cast(self, wid: str, sid: str) -> None:
        state, rng = self.game.state, self.rng
        phase, spell = state.phase_state, state.spells[sid]
        active = phase.active
        pool = state.magic_dice[active]
        if spell["kind"] == "attribute" or pool < 1 or (wid, sid) not in self.game.system.castable(state, phase):
            return  # attributes follow the spells of their path on their own
        if spell["kind"] == "bound":
            bound = self.offers("CastingAttempted", wizard=wid, spell=sid)
            if not bound or rng.random() < 0.5:
                return
            dice = bound[0].open["dice"].values
            cast = self.take(bound[0], dice=rng.choice(dice) if len(dice) > 1 else dice[0])
        else:
            boosted = spell.get("boosted_value") and pool >= 4 and rng.random() < 0.3
            value = spell["boosted_value"] if boosted else spell["casting_value"]
            dice = max(1, min(5, pool, round(value / 3.5) + rng.choice((0, 0, 1))))
            self.roll_of("casting", dice)
            attempt = next(a for a in self.offers("CastingAttempted", wizard=wid, spell=sid)
                           if a.event.get("version") == ("boosted" if boosted else None))
            cast = self.take(attempt, extra={"target": f"unit{rng.randint(1, 9)}"})
        if not cast["passed"]:
            return
        if self.offers("DiceRolled", purpose="dispel") and rng.random() < 0.7:
            reactive = state.opponent(active)
            self.roll_of("dispel", min(state.magic_dice[reactive], max(1, round(cast["total"] / 3.5))))
            dispel = self.offer("DispelAttempted")
            if self.take(dispel, wizard=rng.choice(dispel.open["wizard"].values))["dispelled"]:
                return
        if cast["miscast"]:
            if self.take(self.offer("MiscastResolved"))["effect"] == "broken_concentration":
                return
        self.take(self.offer("SpellResolved"))
        for attribute in self.offers("AttributeResolved")[:1]:
            self.take(attribute)
        if rng.random() < 0.6:
            self.take(self.offer("PointsScored"), player=active, points=2 if cast.get("version") == "boosted" else 1,
                      reason="spell damage")


# --- Claustrophobia: initiative phases -----------------------------------------------------------

def claustrophobia_header(rng: random.Random, game_id: str, *, tournament: str | None = None,
                          round_no: int | None = None, table: int | None = None, players: tuple | None = None,
                          started: str | None = None) -> dict:
    def lines(count: int) -> dict:
        return {str(n): {"mvt": rng.randint(0, 3), "cbt": rng.randint(1, 3), "def": rng.randint(3, 6)}
                for n in sorted(rng.sample(range(1, 7), count))}

    warriors = [{"id": "redeemer", "kind": "redeemer", "sceptre": rng.random() < 0.6, "lines": lines(4),
                 "gifts": {str(rng.randint(1, 6)): "aura_of_foresight"}}]
    for n in range(rng.randint(1, 4)):
        kind = rng.choice(("brute", "blade_for_hire"))
        warriors.append({"id": f"{kind}{n + 1}", "kind": kind, "lines": lines(rng.randint(3, 5))})
    names = players or (("Anna", "humans"), ("Boris", "troglodytes"))
    human = "p2" if names[1][1] == "humans" and names[0][1] != "humans" else "p1"
    header = {"rollcall": 1, "system": "claustrophobia", "game": game_id,
              "players": [{"id": "p1", "name": names[0][0], "faction": names[0][1]},
                          {"id": "p2", "name": names[1][0], "faction": names[1][1]}],
              "dice_mode": "physical", "rules": {}, "setup": {"human": human, "warriors": warriors}}
    return _placed(header, tournament, round_no, table, started)


class ClaustrophobiaSimulator(Simulator):
    """Plays initiative phases among the actions the rules offer: each warrior takes the die that suits it
    best; wounds close lines. The humans score for each turn their redeemer still leads, the other side
    for each warrior lost."""

    system = "claustrophobia"
    make_header = staticmethod(claustrophobia_header)
    default_turns = 8
    factions = ("humans", "troglodytes")
    long_game = {"turns": 860}
    demo = ("Demo Descent", 7, 3)

    def play(self) -> Game:
        state, rng = self.game.state, self.rng
        other = state.opponent(state.human)
        for _turn in range(1, self.turns + 1):
            self.take(self.offer("TurnStarted"))
            self.take(self.offer("PhaseStarted", phase="initiative"))
            warriors = [w for w in state.warriors.values() if w.in_play]
            if not warriors:
                break
            dice = self.offer("DiceRolled", purpose="initiative")
            faces = [rng.randint(1, 6) for _ in range(dice.open["faces"].count)]
            self.take(dice, faces=faces)
            for warrior in sorted(warriors, key=lambda w: (rng.random(), w.id)):
                self.take(max(self.offers("ActionDieAssigned", warrior=warrior.id),
                              key=lambda a: self.suits(warrior, faces[a.event["index"]], a.event["index"])))
                for gift in self.offers("GiftUsed", warrior=warrior.id):
                    self.take(gift)
            self.take(self.offer("PhaseStarted", phase="action"))
            for warrior in warriors:
                self.wound_or_heal(warrior.id)
                if warrior.lines and all(n in warrior.lost for n in warrior.lines) and warrior.id != "redeemer":
                    self.take(self.offer("WarriorRemoved", warrior=warrior.id))
                    self.take(self.offer("PointsScored"), player=other, points=2, reason="warrior slain")
            redeemer = state.warriors.get("redeemer")
            if redeemer is not None and redeemer.in_play and rng.random() < 0.5:
                self.take(self.offer("PointsScored"), player=state.human, points=1, reason="objective")
        return self.end("scenario end")

    @staticmethod
    def suits(warrior, face: int, index: int) -> tuple:
        """How well a die suits a warrior: an available line first, then the line's stats, then the first die."""
        return warrior.available(face), sum(warrior.lines.get(face, {}).values()), -index

    def wound_or_heal(self, wid: str) -> None:
        """A line lost now and then, else now and then a lost line restored."""
        lose, heal = self.offers("LineLost", warrior=wid), self.offers("LineRestored", warrior=wid)
        if lose and self.rng.random() < 0.25:
            self.take(lose[0], line=self.rng.choice(lose[0].open["line"].values))
        elif heal and self.rng.random() < 0.15:
            self.take(heal[0], line=self.rng.choice(heal[0].open["line"].values))


# the simulator of each rules pack, by the pack's main alias
SIMULATORS = {cls.system: cls for cls in (TornscapeSimulator, T9ASimulator, ClaustrophobiaSimulator)}


def simulate(system: str, seed: int, game_id: str, **options) -> Game:
    """Play one legal random game of ``system``; the same seed gives the same game."""
    return SIMULATORS[system](seed, game_id, **options).play()



def long_games(seed: int = 1, prefix: str = "long") -> list[Game]:
    """One game of about 5,000 events of each system (ids ``<prefix>-<system>``; the Replay page's stepping
    benchmark)."""
    return [simulate(system, seed, f"{prefix}-{system}", **cls.long_game) for system, cls in SIMULATORS.items()]
