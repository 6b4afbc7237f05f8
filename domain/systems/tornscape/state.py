"""The Tornscape board state: models, terrain, markers, the open activation and pending ejections."""

from __future__ import annotations

from dataclasses import dataclass, field

from domain.systems.state import GameState
from domain.systems.tornscape.hexes import Hex, footprint
from domain.systems.tornscape.vortices import VortexState
from i18n import N_, _

SIZES = ("infantry", "large", "huge")
# the words a person reads for a size and a move action (translated where shown: size_name, action_name)
SIZE_NAMES = {"infantry": N_("infantry"), "large": N_("large"), "huge": N_("huge")}
ACTION_NAMES = {"step": N_("step"), "run": N_("run"), "effect": N_("effect"), "panic": N_("panic")}


def size_name(size: str) -> str:
    """A model size in the words of the language spoken (``infantry`` as is where unknown)."""
    return _(SIZE_NAMES[size]) if size in SIZE_NAMES else size


def action_name(action: str) -> str:
    """A move action (step, run, an effect's move, panic) in the words of the language spoken."""
    return _(ACTION_NAMES[action]) if action in ACTION_NAMES else action


@dataclass(slots=True)
class Model:
    id: str
    player: str
    name: str
    size: str
    at: list[Hex]
    step: int = 0
    run: int = 0
    agility: int = 0
    explore: int = 0
    domains: list[str] = field(default_factory=list)
    traits: frozenset[str] = frozenset()
    fp: frozenset[Hex] = frozenset()

    def place(self, at: list[Hex]) -> None:
        self.at = at
        self.fp = footprint(self.size, at)

    def can_shove(self, other: Model) -> bool:
        """R57 large shove infantry; R63 huge shove infantry and large; R59 printed Shove: own size."""
        if self.size == "large" and other.size == "infantry":
            return True
        if self.size == "huge" and other.size in ("infantry", "large"):
            return True
        return "shove" in self.traits and other.size == self.size

    def shoves_infantry(self) -> bool:
        return self.size != "infantry" or "shove" in self.traits

    def to_json(self) -> dict:
        return {"player": self.player, "name": self.name, "size": self.size, "at": [list(h) for h in self.at]}


@dataclass(slots=True)
class Marker:
    id: str
    kind: str  # portable | bound
    at: Hex
    linked_to: str | None = None

    def to_json(self) -> dict:
        return {"kind": self.kind, "at": list(self.at), "linked_to": self.linked_to}


@dataclass(slots=True)
class Pending:
    """An ejection the last move requires: a model or a marker, and the model that ejects it."""

    kind: str  # model | marker
    id: str
    by: str


class TornscapeState(VortexState, GameState):
    OBJECT_PARTS = ("players", "models", "terrain", "markers", "vortices")
    TRACKED_PARTS = frozenset(OBJECT_PARTS)  # every apply marks what it changes (GameState.touch)
    SCALARS = (*GameState.SCALARS, "board", "activation", "pending")

    def __init__(self, header: dict, rules: dict) -> None:
        super().__init__(header, rules)
        board = header["setup"]["board"]
        self.width: int = board["width"]
        self.height: int = board["height"]
        self.board = {"width": self.width, "height": self.height}  # never changes: one object for every event
        self.models: dict[str, Model] = {}
        self.occupants: dict[Hex, list[str]] = {}
        self.terrain: dict[str, dict] = {}
        self.solid: dict[Hex, str] = {}
        self.markers: dict[str, Marker] = {}
        self.marker_at: dict[Hex, str] = {}
        self.taken: dict[str, int] = {}  # portable markers taken off the board -> seq of MarkerTaken (R69)
        self.zones: dict[str, set[Hex]] = {}
        self.activation: str | None = None
        self.actions_used: set[str] = set()
        self.pending: list[Pending] = []
        self.init_vortices()
        self.in_play = {pid: 0 for pid in self.players}  # models on the board, per player (R31)
        self.phase_v_held = False  # Phase V has started in this turn (R31)

    # occupancy -----------------------------------------------------------------------------
    def put(self, model: Model, at: list[Hex]) -> None:
        self.touched.add(("models", model.id))
        for h in model.fp:
            ids = self.occupants[h]
            ids.remove(model.id)
            if not ids:
                del self.occupants[h]
        model.place(at)
        for h in model.fp:
            self.occupants.setdefault(h, []).append(model.id)

    def add_model(self, model: Model) -> None:
        self.touched.add(("models", model.id))
        self.models[model.id] = model
        self.in_play[model.player] += 1
        for h in model.fp:
            self.occupants.setdefault(h, []).append(model.id)

    def remove_model(self, model_id: str) -> None:
        self.touched.add(("models", model_id))
        model = self.models.pop(model_id)
        self.in_play[model.player] -= 1
        self.activated[model.player].discard(model_id)
        for h in model.fp:
            ids = self.occupants[h]
            ids.remove(model_id)
            if not ids:
                del self.occupants[h]

    def remove_terrain(self, terrain_id: str) -> None:
        self.touched.add(("terrain", terrain_id))
        piece = self.terrain.pop(terrain_id)
        if piece["kind"] == "solid":
            for h in piece["hexes"]:
                self.solid.pop(tuple(h), None)

    def models_on(self, hexes) -> list[Model]:
        """Models occupying any of ``hexes``, each once, in a stable order."""
        seen: dict[str, Model] = {}
        occupants = self.occupants
        for h in hexes:
            for mid in occupants.get(h, ()):
                if mid not in seen:
                    seen[mid] = self.models[mid]
        return list(seen.values())

    def is_free(self, h: Hex) -> bool:
        """No miniature, marker or solid terrain: where an ejected model may go."""
        return h not in self.occupants and h not in self.marker_at and h not in self.solid

    def scalar_values(self) -> tuple:
        pending = self.pending  # mostly none: no list comprehension to run (a reader asks at every event)
        return GameState.scalar_values(self) + (
            self.board, self.activation, [{"kind": p.kind, "id": p.id, "by": p.by} for p in pending] if pending else [])

    def object_keys(self, part: str):
        found = {"models": self.models, "terrain": self.terrain, "markers": self.markers, "vortices": self.vortices}
        return sorted(found[part]) if part in found else super().object_keys(part)

    def object_json(self, part: str, key: str):
        if part == "models":
            model = self.models.get(key)
            return model.to_json() if model is not None else None
        if part == "terrain":
            piece = self.terrain.get(key)
            return {"kind": piece["kind"], "hexes": [list(h) for h in piece["hexes"]]} if piece is not None else None
        if part == "markers":
            marker = self.markers.get(key)
            return marker.to_json() if marker is not None else None
        if part == "vortices":
            vortex = self.vortices.get(key)
            return vortex.to_json() if vortex is not None else None
        return super().object_json(part, key)

    def player_json(self, pid: str) -> dict:
        return {**super().player_json(pid), "crystals": self.crystals[pid], "faith": dict(self.faith[pid])}
