"""A simulator of legal random Tornscape games (movement, ejection, vortices), reproducible from a seed.

Moves are proposed at random (biased toward the enemy) and the Game aggregate itself judges
them: a proposal that breaks a rule is dropped, so every simulated game is legal by construction.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from domain.errors import RuleViolation
from domain.game import Game
from domain.record import export_line
from domain.systems.tornscape import hexes as hx
from domain.systems.tornscape.state import Model, TornscapeState

FACTIONS = ("engeln", "castilla", "faceless", "shadowstep")
NAMES = {"infantry": ("Swordsman", "Guardsman", "Rogue", "Ranger"), "large": ("Faceless", "Warden"),
         "huge": ("Colossus",)}


def tornscape_header(rng: random.Random, game_id: str, *, width: int = 24, height: int = 18,
                     models_per_player: int = 6, vortices: int = 3, tournament: str | None = None,
                     round_no: int | None = None,
                     table: int | None = None, players: tuple[tuple[str, str], tuple[str, str]] | None = None) -> dict:
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
    if tournament is not None:
        header.update({"tournament": tournament, "round": round_no, "table": table})
    return header


class TornscapeSimulator:
    def __init__(self, seed: int, game_id: str, *, turns: int = 6, **header_options) -> None:
        self.rng = random.Random(seed)
        self.turns = turns
        self.game = Game.start(tornscape_header(self.rng, game_id, **header_options), id=None)  # type: ignore[arg-type]

    @property
    def state(self) -> TornscapeState:
        return self.game.state  # type: ignore[return-value]

    def try_record(self, event: dict) -> dict | None:
        try:
            return self.game.record(event)
        except RuleViolation:
            return None

    def faces(self, die: str, count: int) -> list:
        faces = self.state.dice.faces_of(die)
        weights = list(self.state.dice.data[die].values())
        return self.rng.choices(faces, weights=weights, k=count)

    def play(self) -> Game:
        rng, state = self.rng, self.state
        for turn in range(1, self.turns + 1):
            self.game.start_turn(turn)
            self.game.start_phase("activation")
            order = sorted(state.models.values(), key=lambda m: (rng.random(), m.id))
            order.sort(key=lambda m: 0 if m.player == ("p1" if turn % 2 else "p2") else 1)
            for model in self._alternate(order):
                if model.id in state.models:
                    self.activate(model)
            self.move_vortices()
            if rng.random() < 0.5:
                self.game.score_points(rng.choice(list(state.players)), rng.randint(1, 3), "objective held")
        scores = dict(state.scores)
        best = max(scores.values())
        leaders = [p for p, s in scores.items() if s == best]
        self.game.end_game(scores, leaders[0] if len(leaders) == 1 else None, "turn limit")
        return self.game

    @staticmethod
    def _alternate(order: list[Model]) -> Iterator[Model]:
        first = [m for m in order if m.player == order[0].player]
        second = [m for m in order if m.player != order[0].player]
        for i in range(max(len(first), len(second))):
            yield from (side[i] for side in (first, second) if i < len(side))

    def activate(self, model: Model) -> None:
        self.game.start_activation(model.id)
        self.resolve_draws()
        for action in ("step", "run"):
            if self.rng.random() < 0.8:
                self.move(model, action)
            self.maybe_explore(model)
        if self.state.crystals[model.player] and self.rng.random() < 0.1:
            self.game.record({"type": "EtherConverted", "player": model.player, "amount": 1,
                              "domain": self.rng.choice(("creation", "destruction", "life", "death"))})
        self.game.end_activation(model.id)
        self.resolve_draws()

    # --- vortices -----------------------------------------------------------------------------
    def choose_domain(self, model: Model) -> None:
        state = self.state
        if len(model.domains) > 1 and model.id not in state.chosen and (
                state.activation == model.id or any(c.model == model.id for c in state.draws)):
            self.game.record({"type": "DomainChosen", "model": model.id, "domain": self.rng.choice(model.domains)})

    def resolve_draws(self) -> None:
        state, pack = self.state, self.game.system
        while state.draws:
            cell = state.draws[0]
            model = state.models.get(cell.model)
            if model is not None:
                self.choose_domain(model)
            effect = pack.cell_polarities(state, cell)[len(cell.drawn)]
            card = self.rng.choice(state.deck_left())
            self.game.record({"type": "PhenomenonDrawn", "card": card, "effect": effect, "vortex": cell.vortex})

    def maybe_explore(self, model: Model) -> None:
        state, rng = self.state, self.rng
        if "explore" in state.actions_used or not model.explore or rng.random() < 0.3:
            return
        near = [v for v in state.vortices.values()
                if not v.removed and hx.footprint_distance(model.fp, v.hexes) <= 1]
        if not near:
            return
        vortex = rng.choice(near)
        self.choose_domain(model)
        if vortex.allegiance is None and not state.stabilised_in_activation:
            opponent = state.opponent(model.player)
            seq = self.game.roll_dice(opponent, "stabilisation", "attack", self.faces("attack", 1))["seq"]
            self.game.record({"type": "VortexStabilised", "vortex": vortex.id, "model": model.id, "roll": seq})
        seq = self.game.roll_dice(model.player, "explore", "attack", self.faces("attack", model.explore))["seq"]
        faces = state.rolls[seq].faces
        if "blank" in faces and state.crystals[model.player] and rng.random() < 0.5:
            self.game.record({"type": "DieRerolled", "roll": seq, "index": faces.index("blank"),
                              "face": self.faces("attack", 1)[0], "player": model.player})
        self.game.record({"type": "VortexExplored", "vortex": vortex.id, "model": model.id, "roll": seq})
        self.resolve_draws()

    def move_vortices(self) -> None:
        state = self.state
        present = [v for v in state.vortices.values() if not v.removed]
        if not present:
            return
        self.game.start_phase("vortex_movement")
        first = state.finished[0] if state.finished else "p1"
        for i, vortex in enumerate(present):
            player = first if i % 2 == 0 else state.opponent(first)
            seq = self.game.roll_dice(player, "vortex_move", "attack", self.faces("attack", 2))["seq"]
            event = {"type": "VortexMoved", "vortex": vortex.id, "roll": seq}
            if self.rng.random() < 0.3:
                event["facing"] = self.rng.randrange(6)
            self.game.record(event)

    def move(self, model: Model, action: str) -> None:
        state = self.state
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
        del state  # nothing legal found: the model holds

    def _target(self, model: Model):
        enemies = [m for m in self.state.models.values() if m.player != model.player]
        if not enemies or self.rng.random() < 0.3:
            return hx.from_offset(self.rng.randrange(self.state.width), self.rng.randrange(self.state.height))
        return min(enemies, key=lambda e: hx.distance(e.at[0], model.at[0])).at[0]

    def _path(self, model: Model, action: str, target) -> list:
        state, rng = self.state, self.rng
        length = rng.randint(1, model.step if action == "step" else model.run)
        position = list(model.at)
        path = []
        for _ in range(length):
            if model.size == "infantry":
                options = [[h] for h in hx.neighbours(position[0])]
            else:
                options = [[(c[0] + d[0], c[1] + d[1]) for c in position] for d in hx.HEXON_DIRECTIONS]
            options = [o for o in options
                       if all(hx.on_board(h, state.width, state.height) for h in hx.footprint(model.size, o))]
            if not options:
                break
            if rng.random() < 0.7:
                options.sort(key=lambda o: hx.distance(o[0], target))
                position = options[0] if rng.random() < 0.7 else rng.choice(options[:3])
            else:
                position = rng.choice(options)
            path.append(list(position[0]) if model.size != "huge" else [list(c) for c in position])
        return path

    def resolve_ejections(self, moved: dict) -> None:
        state, pack = self.state, self.game.system
        mover = state.models[moved["model"]]
        for mid in moved.get("must_eject", ()):
            model = state.models[mid]
            dodge = None
            if model.player != mover.player and model.agility and self.rng.random() < 0.8:
                dodge = self.game.roll_dice(model.player, "dodge", "agility", self.faces("agility", model.agility))["seq"]
            targets = pack.ejection_targets(state, model, mover)
            to = self.rng.choice(targets)
            self.game.eject_model(mid, mover.id, list(to[0]), dodge)
        for marker_id in moved.get("markers_to_eject", ()):
            marker = state.markers[marker_id]
            spots = pack._marker_spots(state, marker, mover, mover.fp)
            self.game.record({"type": "MarkerEjected", "marker": marker_id, "to": list(self.rng.choice(spots))})


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
               table: int | None = None, players: tuple | None = None) -> dict:
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
              "dice_mode": "physical", "rules": {},
              "setup": {"spells": spells, "wizards": wizards,
                        "channel": {"p1": rng.randint(0, 2), "p2": rng.randint(0, 2)}}}
    if tournament is not None:
        header.update({"tournament": tournament, "round": round_no, "table": table})
    return header


class T9ASimulator:
    """Plays magic phases: wizards cast what the pool allows, the reactive player dispels sensibly."""

    def __init__(self, seed: int, game_id: str, *, turns: int = 6, **header_options) -> None:
        self.rng = random.Random(seed)
        self.turns = min(turns, 16)
        self.game = Game.start(t9a_header(self.rng, game_id, **header_options), id=None)  # type: ignore[arg-type]

    def d6(self, n: int) -> list[int]:
        return [self.rng.randint(1, 6) for _ in range(n)]

    def play(self) -> Game:
        game, state, rng = self.game, self.game.state, self.rng
        for turn in range(1, self.turns + 1):
            active = "p1" if turn % 2 else "p2"
            game.start_turn(turn)
            game.record({"type": "MagicPhaseStarted", "active": active})
            game.record({"type": "FluxCardDrawn", "card": rng.choice(state.flux_left[active])})
            converted = min(4, state.phase_state.veil // 3)
            game.record({"type": "VeilSiphoned", "converted_dice": rng.randint(converted // 2, converted)})
            for wid, wizard in state.wizards.items():
                if wizard["player"] != active:
                    continue
                for sid in list(wizard["spells"]):
                    self.cast(wid, sid)
            game.record({"type": "MagicPhaseEnded"})
            if rng.random() < 0.6:
                game.score_points(rng.choice(list(state.players)), rng.randint(1, 4), "spell damage")
        scores = dict(state.scores)
        best = max(scores.values())
        leaders = [p for p, s in scores.items() if s == best]
        game.end_game(scores, leaders[0] if len(leaders) == 1 else None, "turn limit")
        return game

    def cast(self, wid: str, sid: str) -> None:
        game, state, rng = self.game, self.game.state, self.rng
        phase, spell = state.phase_state, state.spells[sid]
        active, reactive = phase.active, state.opponent(phase.active)
        pool = state.magic_dice[active]
        if (spell["kind"] == "attribute" or (sid in phase.cast_spells and spell["kind"] != "bound") or pool < 1
                or (wid, sid) in state.amnesia):
            return
        if spell["kind"] == "bound":
            if pool < 2 or rng.random() < 0.5:
                return
            cast = game.record({"type": "CastingAttempted", "wizard": wid, "spell": sid, "dice": rng.choice((2, 3))
                                if pool >= 3 else 2})
        else:
            boosted = spell.get("boosted_value") and pool >= 4 and rng.random() < 0.3
            value = spell["boosted_value"] if boosted else spell["casting_value"]
            dice = max(1, min(5, pool, round(value / 3.5) + rng.choice((0, 0, 1))))
            roll = game.roll_dice(active, "casting", "d6", self.d6(dice))["seq"]
            event = {"type": "CastingAttempted", "wizard": wid, "spell": sid, "dice": dice, "roll": roll,
                     "target": f"unit{rng.randint(1, 9)}"}
            if boosted:
                event["version"] = "boosted"
            cast = game.record(event)
        if not cast["passed"]:
            return
        dispellers = [w for w, d in state.wizards.items() if d["player"] == reactive and not d["fleeing"]]
        if dispellers and state.magic_dice[reactive] and rng.random() < 0.7:
            dice = min(state.magic_dice[reactive], max(1, round(cast["total"] / 3.5)))
            roll = game.roll_dice(reactive, "dispel", "d6", self.d6(dice))["seq"]
            if game.record({"type": "DispelAttempted", "wizard": rng.choice(dispellers), "dice": dice,
                            "roll": roll})["dispelled"]:
                return
        if cast["miscast"]:
            if game.record({"type": "MiscastResolved", "wizard": wid})["effect"] == "broken_concentration":
                return
        game.record({"type": "SpellResolved", "spell": sid})
        for attribute, path in ATTRIBUTES:
            if path == spell.get("path") and attribute in state.wizards[wid]["spells"]:
                game.record({"type": "AttributeResolved", "spell": attribute})


# --- Claustrophobia: initiative phases -----------------------------------------------------------

def claustrophobia_header(rng: random.Random, game_id: str, *, tournament: str | None = None,
                          round_no: int | None = None, table: int | None = None, players: tuple | None = None) -> dict:
    def lines(count: int) -> dict:
        return {str(n): {"mvt": rng.randint(0, 3), "cbt": rng.randint(1, 3), "def": rng.randint(3, 6)}
                for n in sorted(rng.sample(range(1, 7), count))}

    warriors = [{"id": "redeemer", "kind": "redeemer", "sceptre": rng.random() < 0.6, "lines": lines(4),
                 "gifts": {str(rng.randint(1, 6)): "aura_of_foresight"}}]
    for n in range(rng.randint(1, 4)):
        kind = rng.choice(("brute", "blade_for_hire"))
        warriors.append({"id": f"{kind}{n + 1}", "kind": kind, "lines": lines(rng.randint(3, 5))})
    names = players or (("Anna", "humans"), ("Boris", "troglodytes"))
    header = {"rollcall": 1, "system": "claustrophobia", "game": game_id,
              "players": [{"id": "p1", "name": names[0][0], "faction": names[0][1]},
                          {"id": "p2", "name": names[1][0], "faction": names[1][1]}],
              "dice_mode": "physical", "rules": {}, "setup": {"human": "p1", "warriors": warriors}}
    if tournament is not None:
        header.update({"tournament": tournament, "round": round_no, "table": table})
    return header


class ClaustrophobiaSimulator:
    """Plays initiative phases: each warrior takes the die that suits it best; wounds close lines."""

    def __init__(self, seed: int, game_id: str, *, turns: int = 8, **header_options) -> None:
        self.rng = random.Random(seed)
        self.turns = turns
        self.game = Game.start(claustrophobia_header(self.rng, game_id, **header_options), id=None)  # type: ignore[arg-type]

    def play(self) -> Game:
        game, state, rng = self.game, self.game.state, self.rng
        pack = game.system
        for turn in range(1, self.turns + 1):
            game.start_turn(turn)
            game.start_phase("initiative")
            warriors = [w for w in state.warriors.values() if w.in_play]
            if not warriors:
                break
            faces = [rng.randint(1, 6) for _ in range(pack.dice_due(state))]
            roll = game.roll_dice(state.human, "initiative", "d6", faces)["seq"]
            free = list(range(len(faces)))
            for warrior in sorted(warriors, key=lambda w: (rng.random(), w.id)):
                best = max(free, key=lambda i: (warrior.available(faces[i]),
                                                 sum(warrior.lines.get(faces[i], {}).values()), -i))
                game.record({"type": "ActionDieAssigned", "warrior": warrior.id, "roll": roll, "index": best})
                free.remove(best)
                for number, gift in warrior.gifts.items():
                    if warrior.die == number and not warrior.exhausted:
                        game.record({"type": "GiftUsed", "warrior": warrior.id, "gift": gift})
            game.start_phase("action")
            for warrior in warriors:
                open_lines = [n for n in warrior.lines if n not in warrior.lost]
                if open_lines and rng.random() < 0.25:
                    game.record({"type": "LineLost", "warrior": warrior.id, "line": rng.choice(open_lines)})
                elif warrior.lost and rng.random() < 0.15:
                    game.record({"type": "LineRestored", "warrior": warrior.id, "line": rng.choice(sorted(warrior.lost))})
                if warrior.lines and all(n in warrior.lost for n in warrior.lines) and warrior.id != "redeemer":
                    game.record({"type": "WarriorRemoved", "warrior": warrior.id})
            if rng.random() < 0.4:
                game.score_points(rng.choice(list(state.players)), 1, "objective")
        scores = dict(state.scores)
        best = max(scores.values())
        leaders = [p for p, s in scores.items() if s == best]
        game.end_game(scores, leaders[0] if len(leaders) == 1 else None, "scenario end")
        return game


SIMULATORS = {"tornscape": TornscapeSimulator, "t9a": T9ASimulator, "claustrophobia": ClaustrophobiaSimulator}


def simulate(system: str, seed: int, game_id: str, **options) -> Game:
    """Play one legal random game of ``system``; the same seed gives the same game."""
    return SIMULATORS[system](seed, game_id, **options).play()
