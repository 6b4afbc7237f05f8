"""Tornscape's legal actions: what a scorekeeper may record next at a state (domain.systems.actions).

What is due comes first, and alone: the vortices of Phase V one by one (each roll by the player whose turn
it is, R32, then its move); the ejections a move requires (allies before enemies, R64; an enemy may first
roll its dodge, R60–R61; the hex among the nearest free ones, picked by the player R62 names); the
phenomenon cards of an interaction (the domain chosen first where due, R09; the opponent's stabilisation
roll first for an unaligned vortex, R10; then each card with the effect the table asks, R23). Otherwise,
in an activation: the model's step and run (every reachable end, each with a shortest legal path), its
explore (stabilisation, the explore roll, then the explore), taking a marker next to it, the end of the
activation; between activations: which models may activate (R31), then Phase V. Ether crystals may be
converted and the dice of the last unused roll re-rolled at any time (R38, R39).

Huge models are offered the moves that keep their shape (the rules also let them turn, which a record may
hold; the board offers none). Turns, phases other than Phase V, points and the end are the common actions
of the base pack.
"""

from __future__ import annotations

from collections.abc import Iterator

from domain.systems.actions import Action, Choice, count, faces, one_of
from domain.systems.state import Roll
from domain.systems.tornscape import hexes as hx
from domain.systems.tornscape.state import Model, TornscapeState, action_name
from domain.systems.tornscape.vortices import DOMAINS, in_words
from i18n import _, ngettext

Position = tuple  # a model's position: its hexes (infantry) or hexon centres (large, huge), as tuples


def legal_actions(pack, state: TornscapeState) -> list[Action]:
    """Every Tornscape action that may be recorded next at ``state`` (``pack``: the Tornscape rules pack)."""
    if state.ended or state.sealed:
        return []
    due = [*_phase_v(state), *_ejections(pack, state), *_phenomena(pack, state)]
    if not due:
        due = list(_activation(pack, state)) if state.activation in state.models else list(_between(state))
    return [*due, *_crystals(state)]


# --- shared pieces ----------------------------------------------------------------------------------------

def _last_unused_roll(state: TornscapeState) -> Roll | None:
    if not state.rolls:
        return None
    roll = state.rolls[next(reversed(state.rolls))]
    return roll if roll.used_by is None else None


def _waiting(state: TornscapeState, purpose: str, player: str, dice: int, die: str = "attack") -> Roll | None:
    """The last roll, unused, if it is ``player``'s roll of ``dice`` dice of ``die`` for ``purpose``."""
    roll = _last_unused_roll(state)
    if (roll is not None and roll.purpose == purpose and roll.player == player and roll.die == die
            and len(roll.faces) == dice):
        return roll
    return None


def _roll(state: TornscapeState, player: str, purpose: str, die: str, dice: int, label: str,
          group: str) -> Action:
    """A roll to record: the faces the dice show are the table's (open)."""
    return Action({"type": "DiceRolled", "player": player, "purpose": purpose, "die": die}, label, group,
                  open={"faces": faces(state.dice.faces_of(die), dice)}, actor=player)


def _json(position, size: str) -> list:
    """A position as a record writes it: [q, r] (infantry, large: a hex, a hexon centre) or [[q, r], ...]
    (huge: its hexon centres)."""
    if size == "huge":
        return [[q, r] for q, r in position]
    q, r = position
    return [q, r]


def _show(value: list) -> str:
    return str(value).replace(" ", "")


# --- Phase V ----------------------------------------------------------------------------------------------

def _phase_v(state: TornscapeState) -> list[Action]:
    if state.phase != "vortex_movement":
        return []
    left = [vid for vid, v in state.vortices.items() if not v.removed and vid not in state.vortices_moved]
    if not left:
        return []
    first = state.finished[0] if state.finished else next(iter(state.players))
    mover = first if len(state.vortices_moved) % 2 == 0 else state.opponent(first)  # R32
    roll = _waiting(state, "vortex_move", mover, 2)
    if roll is None:
        label = _("{mover} rolls to move a vortex").format(mover=mover)
        return [_roll(state, mover, "vortex_move", "attack", 2, label, "vortex")]
    out = []
    for vid in left:
        fixed = {"type": "VortexMoved", "vortex": vid, "roll": roll.seq}
        out.append(Action(fixed, _("move {vortex}").format(vortex=vid), "vortex", actor=mover))
        out.append(Action(fixed, _("move {vortex} and turn it").format(vortex=vid), "vortex",
                          open={"facing": one_of(range(6))}, actor=mover))
    return out


# --- ejections (R57–R64, R67) ------------------------------------------------------------------------------

def _ejections(pack, state: TornscapeState) -> list[Action]:
    if not state.pending:
        return []
    models = [p for p in state.pending if p.kind == "model" and p.id in state.models and p.by in state.models]
    allies = [p for p in models if state.models[p.id].player == state.models[p.by].player]
    out: list[Action] = []
    for pending in allies or models:  # R64: every ally before any enemy, in any order within each
        out.extend(_ejection(pack, state, state.models[pending.id], state.models[pending.by]))
    for pending in state.pending:
        if pending.kind == "marker" and pending.id in state.markers and pending.by in state.models:
            mover = state.models[pending.by]
            spots = pack._marker_spots(state, state.markers[pending.id], mover, mover.fp)
            if spots:
                label = _("push {marker} off").format(marker=pending.id)
                out.append(Action({"type": "MarkerEjected", "marker": pending.id}, label, "eject",
                                  open={"to": one_of([list(h) for h in spots])}, actor=mover.player,
                                  hexes=tuple(list(h) for h in spots)))
    return out


def _ejection(pack, state: TornscapeState, model: Model, by: Model) -> list[Action]:
    targets = [list(t[0]) if model.size == "infantry" else [list(c) for c in t]
               for t in pack.ejection_targets(state, model, by)]
    if not targets:
        return []
    to = one_of(targets)
    hexes = tuple(targets)
    fixed = {"type": "ModelEjected", "model": model.id, "by": by.id}
    enemy = model.player != by.player
    if enemy and model.agility > 0:
        dodge = _waiting(state, "dodge", model.player, model.agility, "agility")
        if dodge is not None:  # the dodge rolled: its use
            dodged = state.dice.successes(dodge.faces) >= 1
            chooser = model.player if dodged else by.player  # R62
            label = (_("eject {model} (dodged: {chooser} picks the hex)") if dodged
                     else _("eject {model} ({chooser} picks the hex)")).format(model=model.id, chooser=chooser)
            return [Action({**fixed, "dodge": dodge.seq, "chosen_by": chooser}, label, "eject",
                           open={"to": to}, actor=chooser, hexes=hexes)]
        label = _("{model} dodges").format(model=model.id)
        roll = _roll(state, model.player, "dodge", "agility", model.agility, label, "eject")
        label = _("eject {model} ({chooser} picks the hex)").format(model=model.id, chooser=by.player)
        return [roll, Action({**fixed, "chosen_by": by.player}, label, "eject", open={"to": to}, actor=by.player,
                             hexes=hexes)]
    label = _("eject {model} ({chooser} picks the hex)").format(model=model.id, chooser=by.player)
    return [Action({**fixed, "chosen_by": by.player}, label, "eject", open={"to": to}, actor=by.player, hexes=hexes)]


# --- phenomena of an interaction (R09, R10, R22–R30) --------------------------------------------------------

def _phenomena(pack, state: TornscapeState) -> list[Action]:
    if not state.draws:
        return []
    first = state.draws[0]
    model = state.models.get(first.model)
    if model is not None and pack.domain_due(state, model):
        return [_domain_choice(model)]
    out: list[Action] = []
    for cell in (c for c in state.draws if c.source_seq == first.source_seq):
        if pack.stabilisation_due(state, cell):
            out.extend(_stabilisation(state, state.models[cell.model], [cell.vortex]))
            continue
        effect = pack.cell_polarities(state, cell)[len(cell.drawn)]
        label = _("draw a card for {vortex} ({trigger}): its {effect} effect").format(
            vortex=cell.vortex, trigger=in_words(cell.trigger), effect=in_words(effect))
        out.append(Action({"type": "PhenomenonDrawn", "effect": effect, "vortex": cell.vortex}, label, "vortex",
                          open={"card": one_of(state.deck_left())}, actor=model.player if model else None))
    return out


def _domain_choice(model: Model) -> Action:
    label = _("{model} chooses its domain").format(model=model.id)
    return Action({"type": "DomainChosen", "model": model.id}, label, "vortex",
                  open={"domain": one_of(model.domains)}, actor=model.player)


def _stabilisation(state: TornscapeState, model: Model, vortices: list[str]) -> list[Action]:
    """R10: the opponent's roll of one attack die, then its use for one of ``vortices``."""
    opponent = state.opponent(model.player)
    roll = _waiting(state, "stabilisation", opponent, 1)
    if roll is None:
        label = _("{opponent} rolls the stabilisation").format(opponent=opponent)
        return [_roll(state, opponent, "stabilisation", "attack", 1, label, "vortex")]
    return [Action({"type": "VortexStabilised", "vortex": vid, "model": model.id, "roll": roll.seq},
                   _("stabilise {vortex}").format(vortex=vid), "vortex", actor=opponent) for vid in vortices]


# --- an activation ----------------------------------------------------------------------------------------

def _activation(pack, state: TornscapeState) -> Iterator[Action]:
    model = state.models[state.activation]
    waiting = list(_explore(pack, state, model))
    if waiting and waiting[0].event["type"] in ("VortexStabilised", "VortexExplored"):
        yield from waiting  # a stabilisation or explore roll waits for its use
        return
    yield Action({"type": "ActivationEnded", "model": model.id},
                 _("end the activation of {model}").format(model=model.id), "activation", actor=model.player)
    for action in ("step", "run"):
        if action not in state.actions_used:
            yield from _moves(pack, state, model, action)
    yield from waiting
    for marker in state.markers.values():
        if hx.footprint_distance(model.fp, (marker.at,)) <= 1:
            label = _("{model} takes {marker}").format(model=model.id, marker=marker.id)
            yield Action({"type": "MarkerTaken", "model": model.id, "marker": marker.id}, label, "activation",
                         actor=model.player)
    yield from _attacks(pack, state, model)


ATTACK_DICE = range(1, 7)  # the attack rolls offered: one to six dice (the luck statistics count every throw)


def _attacks(pack, state: TornscapeState, model: Model) -> Iterator[Action]:
    """An attack roll of the active model when an enemy stands next to it (combat is not a rule Rollcall
    checks; its dice are recorded for the luck statistics)."""
    if pack.adjacent_enemies(state, model, model.fp):
        for dice in ATTACK_DICE:
            label = ngettext("{model} attacks with {n} die", "{model} attacks with {n} dice", dice).format(
                model=model.id, n=dice)
            yield _roll(state, model.player, "attack", "attack", dice, label, "attack")


def _explore(pack, state: TornscapeState, model: Model) -> Iterator[Action]:
    """The explore of the active model (R15–R21), with the stabilisation it needs first (R10, R14)."""
    if "explore" in state.actions_used or not model.explore:
        return
    reach = state.rules.get("explore_range", 1)
    near = [v for v in state.vortices.values() if not v.removed and hx.footprint_distance(model.fp, v.hexes) <= reach]
    if not near:
        return
    if pack.domain_due(state, model):
        yield _domain_choice(model)
        return
    stabilised = state.stabilised_in_activation
    unaligned = [v.id for v in near if v.allegiance is None]
    explorable = [v.id for v in near if v.allegiance is not None or stabilised]
    if unaligned and not stabilised:
        actions = _stabilisation(state, model, unaligned)
        if actions[0].event["type"] == "VortexStabilised":
            yield from actions
            return
    else:
        actions = []
    roll = _waiting(state, "explore", model.player, model.explore)
    if roll is not None and explorable:
        yield from (Action({"type": "VortexExplored", "vortex": vid, "model": model.id, "roll": roll.seq},
                           _("{model} explores {vortex}").format(model=model.id, vortex=vid), "vortex",
                           actor=model.player) for vid in explorable)
        return
    yield from actions
    if explorable:
        label = _("{model} rolls to explore").format(model=model.id)
        yield _roll(state, model.player, "explore", "attack", model.explore, label, "vortex")


# --- moves (R41–R56) --------------------------------------------------------------------------------------

def _moves(pack, state: TornscapeState, model: Model, action: str) -> Iterator[Action]:
    allowed = model.step if action == "step" else model.run
    size, mid, player = model.size, model.id, model.player
    for end, path in reachable(pack, state, model, allowed).items():
        position = path[-1]
        at = _show(position) if size == "huge" else f"[{position[0]},{position[1]}]"
        label = _("{action} {model} to {at}").format(action=action_name(action), model=mid, at=at)
        yield Action({"type": "ModelMoved", "model": mid, "action": action, "path": path}, label, "move", actor=player,
                     hexes=tuple(position) if size == "huge" else (position,))


def reachable(pack, state: TornscapeState, model: Model, steps: int) -> dict[Position, list]:
    """Every position ``model`` may end a move of at most ``steps`` steps on, with a shortest legal path to it
    as a record writes it (the positions after each step): breadth first through the positions it may pass
    (R43, R44, R46–R48, R51–R53), ending where it may end (R45, R49, R50, R54–R56, R59, R67, R70, R71). A huge
    model keeps its shape (its hexons move together)."""
    no_pass, no_end, linked = _blocked(state, model)
    size = model.size
    if size == "huge":
        start = tuple(model.at)
        def after(position):  # noqa: E306
            return (tuple((q + dq, r + dr) for q, r in position) for dq, dr in hx.HEXON_DIRECTIONS)
        def cells(position):  # noqa: E306
            return hx.footprint("huge", list(position))
    else:
        start = model.at[0]
        directions = hx.DIRECTIONS if size == "infantry" else hx.HEXON_DIRECTIONS
        def after(position):  # noqa: E306
            q, r = position
            return ((q + dq, r + dr) for dq, dr in directions)
        cells = (lambda position: (position,)) if size == "infantry" else hx.hexon_hexes
    board = hx.board_cells(state.width, state.height)
    paths: dict = {start: []}  # position -> the path that first reached it, as the record writes it
    ends: dict = {}
    frontier = [start]
    for _step in range(steps):
        following = []
        for position in frontier:
            before = paths[position]
            for new in after(position):
                if new in paths:
                    continue
                path = paths[new] = [*before, _json(new, size)]
                fp = cells(new)
                if not board.issuperset(fp):
                    continue
                if no_end.isdisjoint(fp) and all(pack._marker_spots(state, m, model, fp) for m in linked
                                                 if m.at in fp):
                    ends[new if size == "huge" else (new,)] = path
                if no_pass.isdisjoint(fp):
                    following.append(new)
        frontier = following
    return ends


def _blocked(state: TornscapeState, model: Model) -> tuple[set, set, list]:
    """The hexes ``model`` may not pass through, those it may not end on, and the taken bound markers whose
    hex it may end on only if the marker has a free hex to go to (R71)."""
    no_pass = set() if model.size == "huge" else set(state.solid)
    no_end = set(no_pass)
    for other in state.models.values():
        if other.id == model.id:
            continue
        if other.player != model.player or (model.size != "infantry" and other.size != "infantry"):
            no_pass.update(other.fp)
        if not model.can_shove(other):
            no_end.update(other.fp)
    linked = []
    for marker in state.markers.values():
        if marker.kind == "bound" and not model.shoves_infantry():
            no_end.add(marker.at)
        elif marker.kind == "bound" and marker.linked_to in state.models:
            linked.append(marker)
    return no_pass, no_end, linked


# --- between activations (R31) ---------------------------------------------------------------------------

def _between(state: TornscapeState) -> Iterator[Action]:
    if state.phase == "vortex_movement":
        return
    for mid in sorted(state.models):
        model = state.models[mid]
        if mid not in state.activated[model.player]:
            yield Action({"type": "ActivationStarted", "model": mid}, _("activate {model}").format(model=mid),
                         "activation", actor=model.player)
    everyone = all(len(state.activated[pid]) >= state.in_play[pid] for pid in state.players)
    if everyone and not state.phase_v_held and any(not v.removed for v in state.vortices.values()):
        yield Action({"type": "PhaseStarted", "phase": "vortex_movement"}, _("Phase V: the vortices move"), "turn")


# --- ether crystals (R38–R40) ----------------------------------------------------------------------------

def _crystals(state: TornscapeState) -> list[Action]:
    out = []
    for pid, held in state.crystals.items():
        if held >= 1:
            label = _("{player} converts ether crystals to faith").format(player=pid)
            out.append(Action({"type": "EtherConverted", "player": pid}, label, "crystals",
                              open={"amount": count(1, held), "domain": one_of(DOMAINS)}, actor=pid))
    roll = _last_unused_roll(state)
    if roll is not None and roll.source == "physical" and state.crystals.get(roll.player, 0) >= 1:
        values: Choice = one_of(state.dice.faces_of(roll.die))
        for index in range(len(roll.faces)):
            label = _("{player} re-rolls die {index} of roll {seq}").format(player=roll.player, index=index + 1,
                                                                              seq=roll.seq)
            out.append(Action({"type": "DieRerolled", "roll": roll.seq, "index": index, "player": roll.player,
                               "paid": "crystal"}, label, "crystals", open={"face": values}, actor=roll.player))
    return out
