"""Simulators of legal games of each system, reproducible from a seed.

Moves are proposed at random but with a purpose (Tornscape models head for vortices and enemies,
wizards cast what their pool allows, warriors take the initiative die that suits them) and the Game
aggregate itself judges them: a proposal that breaks a rule is dropped, so every simulated game is
legal by construction. Every event carries an ``at`` time: a few seconds to a minute after the one
before, so a turn takes a few minutes. The same seed gives byte-identical records.

Whole tournaments are simulation/tournaments.py.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta, timezone

from domain.errors import RuleViolation
from domain.game import Game
from domain.record import export_line
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
                           "run": 3 if size == "large" else 5, "agility": rng.randint(0, 2), "explore": 1,
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

    make_header: Callable[..., dict]
    default_turns = 6

    def __init__(self, seed: int, game_id: str, *, turns: int | None = None, start: datetime | str | None = None,
                 **header_options) -> None:
        self.rng = random.Random(seed)
        self.clock_rng = random.Random(f"{seed}/clock")  # the pace of play never changes the play
        self.now = _moment(start)
        self.turns = turns if turns is not None else self.default_turns
        header = type(self).make_header(self.rng, game_id, started=iso(self.now), **header_options)
        self.game = Game.start(header, id=None)  # type: ignore[arg-type]

    def record(self, event: dict) -> dict:
        """Record an event a few seconds after the last one (the clock moves only if it is legal)."""
        low, high = PACE.get(event["type"], DEFAULT_PACE)
        moment = self.now + timedelta(seconds=self.clock_rng.randint(low, high))
        recorded = self.game.record({**event, "at": iso(moment)})
        self.now = moment
        return recorded

    def try_record(self, event: dict) -> dict | None:
        try:
            return self.record(event)
        except RuleViolation:
            return None

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

    def end(self, reason: str) -> Game:
        """End the game on the points scored: the higher score wins, equal scores draw."""
        scores = dict(self.game.state.scores)
        best = max(scores.values())
        leaders = [p for p, s in scores.items() if s == best]
        self.record({"type": "GameEnded", "score": scores, "winner": leaders[0] if len(leaders) == 1 else None,
                     "reason": reason})
        return self.game


class TornscapeSimulator(Simulator):
    """Plays Tornscape: models head for vortices (the explorers) or the nearest enemy, explore what
    they reach; a player scores for each vortex explored and each vortex held at the end of a turn."""

    make_header = staticmethod(tornscape_header)

    @property
    def state(self) -> TornscapeState:
        return self.game.state  # type: ignore[return-value]

    def faces(self, die: str, count: int) -> list:
        faces = self.state.dice.faces_of(die)
        weights = list(self.state.dice.data[die].values())
        return self.rng.choices(faces, weights=weights, k=count)

    def play(self) -> Game:
        rng, state = self.rng, self.state
        for turn in range(1, self.turns + 1):
            self.start_turn(turn)
            self.start_phase("activation")
            order = sorted(state.models.values(), key=lambda m: (rng.random(), m.id))
            order.sort(key=lambda m: 0 if m.player == ("p1" if turn % 2 else "p2") else 1)
            for model in self._alternate(order):
                if model.id in state.models:
                    self.activate(model)
            self.move_vortices()
            self.score_vortices_held()
        return self.end("turn limit")

    @staticmethod
    def _alternate(order: list[Model]) -> Iterator[Model]:
        first = [m for m in order if m.player == order[0].player]
        second = [m for m in order if m.player != order[0].player]
        for i in range(max(len(first), len(second))):
            yield from (side[i] for side in (first, second) if i < len(side))

    def activate(self, model: Model) -> None:
        self.record({"type": "ActivationStarted", "model": model.id})
        self.resolve_draws()
        for action in ("step", "run"):
            if self.rng.random() < 0.8:
                self.move(model, action)
            self.maybe_explore(model)
        if self.state.crystals[model.player] and self.rng.random() < 0.1:
            self.record({"type": "EtherConverted", "player": model.player, "amount": 1,
                         "domain": self.rng.choice(("creation", "destruction", "life", "death"))})
        self.record({"type": "ActivationEnded", "model": model.id})
        self.resolve_draws()

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

    # --- vortices -----------------------------------------------------------------------------
    def choose_domain(self, model: Model) -> None:
        state = self.state
        if len(model.domains) > 1 and model.id not in state.chosen and (
                state.activation == model.id or any(c.model == model.id for c in state.draws)):
            self.record({"type": "DomainChosen", "model": model.id, "domain": self.rng.choice(model.domains)})

    def resolve_draws(self) -> None:
        state, pack = self.state, self.game.system
        while state.draws:
            cell = state.draws[0]
            model = state.models.get(cell.model)
            if model is not None:
                self.choose_domain(model)
            effect = pack.cell_polarities(state, cell)[len(cell.drawn)]
            card = self.rng.choice(state.deck_left())
            self.record({"type": "PhenomenonDrawn", "card": card, "effect": effect, "vortex": cell.vortex})

    def maybe_explore(self, model: Model) -> None:
        state, rng = self.state, self.rng
        if "explore" in state.actions_used or not model.explore or rng.random() < 0.2:
            return
        near = [v for v in state.vortices.values()
                if not v.removed and hx.footprint_distance(model.fp, v.hexes) <= 1]
        if not near:
            return
        vortex = rng.choice(near)
        self.choose_domain(model)
        if vortex.allegiance is None and not state.stabilised_in_activation:
            opponent = state.opponent(model.player)
            seq = self.roll(opponent, "stabilisation", "attack", self.faces("attack", 1))
            self.record({"type": "VortexStabilised", "vortex": vortex.id, "model": model.id, "roll": seq})
        seq = self.roll(model.player, "explore", "attack", self.faces("attack", model.explore))
        faces = state.rolls[seq].faces
        if "blank" in faces and state.crystals[model.player] and rng.random() < 0.5:
            self.record({"type": "DieRerolled", "roll": seq, "index": faces.index("blank"),
                         "face": self.faces("attack", 1)[0], "player": model.player})
        explored = self.record({"type": "VortexExplored", "vortex": vortex.id, "model": model.id, "roll": seq})
        self.resolve_draws()
        if explored.get("success"):
            self.score(model.player, 1, "vortex explored")

    def move_vortices(self) -> None:
        state = self.state
        present = [v for v in state.vortices.values() if not v.removed]
        if not present:
            return
        self.start_phase("vortex_movement")
        first = state.finished[0] if state.finished else "p1"
        for i, vortex in enumerate(present):
            player = first if i % 2 == 0 else state.opponent(first)
            seq = self.roll(player, "vortex_move", "attack", self.faces("attack", 2))
            event = {"type": "VortexMoved", "vortex": vortex.id, "roll": seq}
            if self.rng.random() < 0.3:
                event["facing"] = self.rng.randrange(6)
            self.record(event)

    # --- movement -----------------------------------------------------------------------------
    def move(self, model: Model, action: str) -> None:
        target = self._target(model)
        for _attempt in range(6):
            path = self._path(model, action, target)
            if not path:
                return
            moved = self.try_record({"type": "ModelMoved", "model": model.id, "action": action, "path": path})
            if moved is not None:
                self.resolve_ejections(moved)
                self.resolve_draws()
                return
        # nothing legal found: the model holds

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

    def _path(self, model: Model, action: str, target) -> list:
        state, rng = self.state, self.rng
        length = rng.randint(1, model.step if action == "step" else model.run)
        position = list(model.at)
        path = []
        infantry = model.size == "infantry"
        width, height = state.width, state.height
        for _ in range(length):
            if infantry:  # never through solid terrain or an enemy (R44)
                options = [[h] for h in hx.neighbours(position[0]) if hx.on_board(h, width, height)
                           and h not in state.solid and not self._enemy_at(model, h)]
            else:
                options = [[(c[0] + d[0], c[1] + d[1]) for c in position] for d in hx.HEXON_DIRECTIONS]
                options = [o for o in options
                           if all(hx.on_board(h, width, height) for h in hx.footprint(model.size, o))]
            if not options:
                break
            if rng.random() < 0.7:
                options.sort(key=lambda o: hx.distance(o[0], target))
                position = options[0] if rng.random() < 0.7 else rng.choice(options[:3])
            else:
                position = rng.choice(options)
            path.append(list(position[0]) if model.size != "huge" else [list(c) for c in position])
        if infantry:  # nor end on another model (R45): stop short
            while path and any(m != model.id for m in state.occupants.get(tuple(path[-1]), ())):
                path.pop()
        return path

    def _enemy_at(self, model: Model, h) -> bool:
        models = self.state.models
        return any(models[m].player != model.player for m in self.state.occupants.get(h, ()))

    def resolve_ejections(self, moved: dict) -> None:
        state, pack = self.state, self.game.system
        mover = state.models[moved["model"]]
        for mid in moved.get("must_eject", ()):
            model = state.models[mid]
            event = {"type": "ModelEjected", "model": mid, "by": mover.id}
            if model.player != mover.player and model.agility and self.rng.random() < 0.8:
                event["dodge"] = self.roll(model.player, "dodge", "agility", self.faces("agility", model.agility))
            targets = pack.ejection_targets(state, model, mover)
            event["to"] = list(self.rng.choice(targets)[0])
            self.record(event)
        for marker_id in moved.get("markers_to_eject", ()):
            marker = state.markers[marker_id]
            spots = pack._marker_spots(state, marker, mover, mover.fp)
            self.record({"type": "MarkerEjected", "marker": marker_id, "to": list(self.rng.choice(spots))})


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
    """Plays magic phases: wizards cast what the pool allows, the reactive player dispels sensibly;
    a resolved spell scores for its caster now and then (spell damage)."""

    make_header = staticmethod(t9a_header)

    def __init__(self, seed: int, game_id: str, *, turns: int | None = None, **options) -> None:
        cards = max(8, options.get("flux_cards") or 8)
        super().__init__(seed, game_id, turns=min(turns if turns is not None else self.default_turns, 2 * cards),
                         **options)

    def d6(self, n: int) -> list[int]:
        return [self.rng.randint(1, 6) for _ in range(n)]

    def play(self) -> Game:
        state, rng = self.game.state, self.rng
        for turn in range(1, self.turns + 1):
            active = "p1" if turn % 2 else "p2"
            self.start_turn(turn)
            self.record({"type": "MagicPhaseStarted", "active": active})
            self.record({"type": "FluxCardDrawn", "card": rng.choice(state.flux_left[active])})
            converted = min(4, state.phase_state.veil // 3)
            self.record({"type": "VeilSiphoned", "converted_dice": rng.randint(converted // 2, converted)})
            for wid, wizard in state.wizards.items():
                if wizard["player"] != active:
                    continue
                for sid in list(wizard["spells"]):
                    self.cast(wid, sid)
            self.record({"type": "MagicPhaseEnded"})
        return self.end("turn limit")

    def cast(self, wid: str, sid: str) -> None:
        state, rng = self.game.state, self.rng
        phase, spell = state.phase_state, state.spells[sid]
        active, reactive = phase.active, state.opponent(phase.active)
        pool = state.magic_dice[active]
        if (spell["kind"] == "attribute" or (sid in phase.cast_spells and spell["kind"] != "bound") or pool < 1
                or (wid, sid) in state.amnesia):
            return
        if spell["kind"] == "bound":
            if pool < 2 or rng.random() < 0.5:
                return
            cast = self.record({"type": "CastingAttempted", "wizard": wid, "spell": sid, "dice": rng.choice((2, 3))
                                if pool >= 3 else 2})
        else:
            boosted = spell.get("boosted_value") and pool >= 4 and rng.random() < 0.3
            value = spell["boosted_value"] if boosted else spell["casting_value"]
            dice = max(1, min(5, pool, round(value / 3.5) + rng.choice((0, 0, 1))))
            roll = self.roll(active, "casting", "d6", self.d6(dice))
            event = {"type": "CastingAttempted", "wizard": wid, "spell": sid, "dice": dice, "roll": roll,
                     "target": f"unit{rng.randint(1, 9)}"}
            if boosted:
                event["version"] = "boosted"
            cast = self.record(event)
        if not cast["passed"]:
            return
        dispellers = [w for w, d in state.wizards.items() if d["player"] == reactive and not d["fleeing"]]
        if dispellers and state.magic_dice[reactive] and rng.random() < 0.7:
            dice = min(state.magic_dice[reactive], max(1, round(cast["total"] / 3.5)))
            roll = self.roll(reactive, "dispel", "d6", self.d6(dice))
            if self.record({"type": "DispelAttempted", "wizard": rng.choice(dispellers), "dice": dice,
                            "roll": roll})["dispelled"]:
                return
        if cast["miscast"]:
            if self.record({"type": "MiscastResolved", "wizard": wid})["effect"] == "broken_concentration":
                return
        self.record({"type": "SpellResolved", "spell": sid})
        for attribute, path in ATTRIBUTES:
            if path == spell.get("path") and attribute in state.wizards[wid]["spells"]:
                self.record({"type": "AttributeResolved", "spell": attribute})
        if rng.random() < 0.6:
            self.score(active, 2 if cast.get("version") == "boosted" else 1, "spell damage")


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
    """Plays initiative phases: each warrior takes the die that suits it best; wounds close lines.
    The humans score for each turn their redeemer still leads, the other side for each warrior lost."""

    make_header = staticmethod(claustrophobia_header)
    default_turns = 8

    def play(self) -> Game:
        state, rng = self.game.state, self.rng
        pack = self.game.system
        other = state.opponent(state.human)
        for turn in range(1, self.turns + 1):
            self.start_turn(turn)
            self.start_phase("initiative")
            warriors = [w for w in state.warriors.values() if w.in_play]
            if not warriors:
                break
            faces = [rng.randint(1, 6) for _ in range(pack.dice_due(state))]
            roll = self.roll(state.human, "initiative", "d6", faces)
            free = list(range(len(faces)))
            for warrior in sorted(warriors, key=lambda w: (rng.random(), w.id)):
                best = max(free, key=lambda i: (warrior.available(faces[i]),
                                                 sum(warrior.lines.get(faces[i], {}).values()), -i))
                self.record({"type": "ActionDieAssigned", "warrior": warrior.id, "roll": roll, "index": best})
                free.remove(best)
                for number, gift in warrior.gifts.items():
                    if warrior.die == number and not warrior.exhausted:
                        self.record({"type": "GiftUsed", "warrior": warrior.id, "gift": gift})
            self.start_phase("action")
            for warrior in warriors:
                open_lines = [n for n in warrior.lines if n not in warrior.lost]
                if open_lines and rng.random() < 0.25:
                    self.record({"type": "LineLost", "warrior": warrior.id, "line": rng.choice(open_lines)})
                elif warrior.lost and rng.random() < 0.15:
                    self.record({"type": "LineRestored", "warrior": warrior.id,
                                 "line": rng.choice(sorted(warrior.lost))})
                if warrior.lines and all(n in warrior.lost for n in warrior.lines) and warrior.id != "redeemer":
                    self.record({"type": "WarriorRemoved", "warrior": warrior.id})
                    self.score(other, 2, "warrior slain")
            redeemer = state.warriors.get("redeemer")
            if redeemer is not None and redeemer.in_play and rng.random() < 0.5:
                self.score(state.human, 1, "objective")
        return self.end("scenario end")


SIMULATORS = {"tornscape": TornscapeSimulator, "t9a": T9ASimulator, "claustrophobia": ClaustrophobiaSimulator}


def simulate(system: str, seed: int, game_id: str, **options) -> Game:
    """Play one legal random game of ``system``; the same seed gives the same game."""
    return SIMULATORS[system](seed, game_id, **options).play()



# Options that give each system a game of about 5,000 events (the Replay page's stepping benchmark).
LONG_GAMES = {"tornscape": {"turns": 56, "models_per_player": 12},
              "t9a": {"turns": 330, "flux_cards": 165},
              "claustrophobia": {"turns": 860}}


def long_games(seed: int = 1, prefix: str = "long") -> list[Game]:
    """One game of about 5,000 events of each system (ids ``<prefix>-<system>``)."""
    return [simulate(system, seed, f"{prefix}-{system}", **options) for system, options in LONG_GAMES.items()]
