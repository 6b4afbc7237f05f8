"""The 9th Age: what may be recorded next in a magic phase (domain.systems.actions), step by step.

Outside a magic phase, a player with Flux cards left may start one. In a phase: the Flux card the
reactive player draws from the active player's cards left, Siphon the Veil, then the casting attempts.
A casting attempt is its roll first (a ``DiceRolled`` of as many d6 as the dice declared, faces open),
then the ``CastingAttempted`` naming that roll, for each wizard and spell that may still try this phase
(a bound spell is not rolled: its dice are chosen). A passed cast may be answered by a dispel, its roll
first, then ``DispelAttempted``; then come its miscast, its effect and its attribute (R77–R80), and the
phase ends when no passed cast awaits its effect.

A mixin of the T9A pack: its methods read the pack's rule switches (``on``) and the phase under way
(``open_phase``), and ask exactly what the pack's ``decide_`` methods accept.
"""

from __future__ import annotations

from typing import Any

from domain.systems.actions import Action, count, faces, one_of
from domain.corrections import NOT_IN_PLAY
from domain.systems.state import GameState, Roll
from i18n import _

D6 = tuple(range(1, 7))


class MagicActions:
    """The legal actions of The 9th Age's magic phase (mixed into the T9A pack)."""

    on: Any  # the pack's rule switch (T9A.on)
    open_phase: Any  # the magic phase under way, or None (T9A.open_phase)

    def legal_actions(self, state: GameState) -> list[Action]:
        actions = super().legal_actions(state)  # type: ignore[misc]
        if not self.playing(state):  # type: ignore[attr-defined]
            return actions
        phase = self.open_phase(state)
        return actions + (self.phase_actions(state, phase) if phase is not None else self.phase_starts(state))

    def may_start_turn(self, state: GameState) -> bool:
        """Not while a magic phase is under way."""
        return self.open_phase(state) is None

    def phase_starts(self, state: GameState) -> list[Action]:
        """A magic phase, for an active player with Flux cards left (R83: each card once a game)."""
        players = [pid for pid in state.players if state.flux_left[pid]]
        if not players:
            return []
        return [Action({"type": "MagicPhaseStarted"}, _("Magic phase"), "magic", open={"active": one_of(players)})]

    def phase_actions(self, state: GameState, phase) -> list[Action]:
        reactive = state.opponent(phase.active)
        if phase.step == "started":
            return [Action({"type": "FluxCardDrawn"}, _("Flux card drawn by {reactive}").format(reactive=reactive),
                           "magic", actor=reactive,
                           open={"card": one_of(state.flux_left[phase.active])})]
        if phase.step == "flux":
            siphon = state.rules["siphon"]
            most = min(siphon["max_dice"], phase.veil // siphon["tokens_per_die"])  # R88, R89
            return [Action({"type": "VeilSiphoned"}, _("Siphon the Veil"), "magic", actor=phase.active,
                           open={"converted_dice": count(0, most)})]
        cast = phase.cast
        awaiting = cast is not None and cast.awaits_effect()  # R77: no other cast, no end, before its effect
        castable = [] if awaiting else self.castable(state, phase)
        rolls = self.dispel_rolls(state, phase) if awaiting else self.casting_rolls(state, phase, castable)
        made = self.roll_just_made(state)
        if made is not None and any(a.matches(made[0]) for a in rolls):
            return self.attempts_with(state, phase, made[1], castable)  # the attempt naming the roll is next
        if awaiting:
            return rolls + self.resolutions(state, phase)
        return (rolls + self.bound_casts(state, phase, castable) + self.attributes(state, phase)
                + [Action({"type": "MagicPhaseEnded"}, _("End of the magic phase"), "magic")])

    # --- casting ---------------------------------------------------------------------------
    def may_try(self, state: GameState, phase, wid: str, sid: str) -> bool:
        """Whether wizard ``wid`` may still try spell ``sid`` this phase: R91 (once per wizard and spell;
        X05 for a replicable one), R92 (once per phase unless exempt), X04 (an attribute after a passed
        spell of its path), X06 (not a spell forgotten to amnesia)."""
        spell = state.spells[sid]
        kind = spell["kind"]
        if (wid, sid) in state.amnesia and self.on(state, "X06"):
            return False
        if (wid, sid) in phase.cast_by_wizard and kind != "attribute":
            return False
        if sid in phase.cast_spells and kind not in state.rules["casting"]["exempt_from_once_per_phase"]:
            return False
        return kind != "attribute" or not self.on(state, "X04") or spell.get("path") in phase.passed_paths

    def castable(self, state: GameState, phase) -> list[tuple[str, str]]:
        """(wizard, spell) of each attempt the active player may make now: his wizards that are not
        fleeing (R91), each spell it knows and may still try."""
        return [(wid, sid) for wid, wizard in state.wizards.items()
                if wizard["player"] == phase.active and not wizard["fleeing"]
                for sid in dict.fromkeys(wizard["spells"]) if self.may_try(state, phase, wid, sid)]

    def is_bound(self, state: GameState, sid: str) -> bool:
        """X03: a bound spell's dice are chosen and removed, not rolled."""
        return state.spells[sid]["kind"] == "bound" and self.on(state, "X03")

    def casting_rolls(self, state: GameState, phase, castable: list[tuple[str, str]]) -> list[Action]:
        """The roll of a casting attempt, one action per number of dice the pool allows (R94, R95), when a
        spell of ``castable`` is cast with rolled dice."""
        if not any(not self.is_bound(state, sid) for _wid, sid in castable):
            return []
        rules = state.rules["casting"]
        most = min(rules["max_dice"], state.magic_dice[phase.active])
        return [self.roll_action(phase.active, "casting", n, _("Casting roll, {n} dice").format(n=n))
                for n in range(rules["min_dice"], most + 1)]

    @staticmethod
    def roll_action(player: str, purpose: str, dice: int, label: str) -> Action:
        return Action({"type": "DiceRolled", "player": player, "purpose": purpose, "die": "d6"}, label, "dice",
                      open={"faces": faces(D6, dice)}, actor=player)

    def bound_casts(self, state: GameState, phase, castable: list[tuple[str, str]]) -> list[Action]:
        """Bound spells (X03): 2 or 3 dice from the pool, unrolled, never boosted."""
        pool = state.magic_dice[phase.active]
        dice = [n for n in state.rules["bound_spells"]["dice"] if n <= pool]
        if not dice:
            return []
        return [Action({"type": "CastingAttempted", "wizard": wid, "spell": sid}, _("{wid} casts bound {sid}").format(
                                                                                      wid=wid, sid=sid),
                       "magic", open={"dice": one_of(dice)}, actor=phase.active)
                for wid, sid in castable if self.is_bound(state, sid)]

    def attempts_with(self, state: GameState, phase, roll: Roll, castable: list[tuple[str, str]]) -> list[Action]:
        """The attempt a roll just made is for: a casting attempt of each spell of ``castable`` cast with
        rolled dice (basic, or boosted where the spell has a boosted value: R97), or a dispel by one of
        the reactive player's wizards."""
        dice = len(roll.faces)
        if roll.purpose == "dispel":
            return [Action({"type": "DispelAttempted", "dice": dice, "roll": roll.seq}, _("Dispel attempt"), "magic",
                           open={"wizard": one_of(self.dispellers(state, phase))}, actor=roll.player)]
        actions = []
        for wid, sid in castable:
            if self.is_bound(state, sid):
                continue
            event = {"type": "CastingAttempted", "wizard": wid, "spell": sid, "dice": dice, "roll": roll.seq}
            actions.append(Action(event, _("{wid} casts {sid}").format(wid=wid, sid=sid), "magic", actor=phase.active))
            if state.spells[sid].get("boosted_value") is not None:
                actions.append(Action({**event, "version": "boosted"}, _("{wid} casts {sid}, boosted").format(
                                                                           wid=wid, sid=sid), "magic",
                                      actor=phase.active))
        return actions

    @staticmethod
    def roll_just_made(state: GameState) -> tuple[dict, Roll] | None:
        """(its line, the roll) of the roll recorded last, if nothing but notes and judges' events came
        after it and no attempt has used it yet."""
        for line in reversed(state.lines):
            if line["type"] in NOT_IN_PLAY or line["seq"] in state.voided or line["seq"] in state.taken_back:
                continue
            roll = state.rolls.get(line["seq"]) if line["type"] == "DiceRolled" else None
            return (line, roll) if roll is not None and roll.used_by is None else None
        return None

    # --- the answer to a passed cast -------------------------------------------------------
    def dispellers(self, state: GameState, phase) -> list[str]:
        """The reactive player's wizards that may dispel (X07: not fleeing)."""
        reactive = state.opponent(phase.active)
        x07 = self.on(state, "X07")
        return [wid for wid, w in state.wizards.items() if w["player"] == reactive and not (x07 and w["fleeing"])]

    def dispel_rolls(self, state: GameState, phase) -> list[Action]:
        """The roll of a dispel, one action per number of dice the reactive pool allows (X07, R95), while
        the passed cast has not been answered (step A; X04: never an attribute)."""
        cast = phase.cast
        if cast.step != "A" or (state.spells[cast.spell]["kind"] == "attribute" and self.on(state, "X04")):
            return []
        if not self.dispellers(state, phase):
            return []
        rules, reactive = state.rules["dispel"], state.opponent(phase.active)
        most = state.magic_dice[reactive] if rules["max_dice"] is None else min(rules["max_dice"],
                                                                                 state.magic_dice[reactive])
        return [self.roll_action(reactive, "dispel", n, _("Dispel roll, {n} dice").format(n=n))
                for n in range(max(rules["min_dice"], 1), most + 1)]

    def resolutions(self, state: GameState, phase) -> list[Action]:
        """The miscast (C) when the cast rolled one and it is not resolved, else the spell's effect (D)."""
        cast = phase.cast
        if cast.miscast and cast.step in "AB":
            return [Action({"type": "MiscastResolved", "wizard": cast.wizard}, _("Miscast of {wizard}").format(
                                                                                   wizard=cast.wizard), "magic")]
        return [Action({"type": "SpellResolved", "spell": cast.spell}, _("{spell} takes effect").format(
                                                                           spell=cast.spell), "magic")]

    def attributes(self, state: GameState, phase) -> list[Action]:
        """After a spell's effect (D), the attribute spells of its path its caster knows (E, X04)."""
        cast = phase.cast
        if cast is None or cast.step != "D":
            return []
        path = state.spells[cast.spell].get("path")
        known = dict.fromkeys(state.wizards[cast.wizard]["spells"])
        return [Action({"type": "AttributeResolved", "spell": sid}, _("Attribute {sid}").format(sid=sid), "magic")
                for sid in known if state.spells[sid]["kind"] == "attribute" and state.spells[sid].get("path") == path]
