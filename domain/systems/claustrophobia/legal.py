"""Claustrophobia: what may be recorded next (domain.systems.actions).

A round is its initiative phase, then its action phase. In the initiative the human player rolls the
action dice due (one per warrior in play, one more for the Sceptre of Command: R98, R106), then gives
each warrior without a die one of the dice not yet taken (R99); the action phase starts once every
warrior has one. At any time of the game a warrior in play may lose a line or have one restored, use
a gift its die allows (R101, R104), or be removed.

A mixin of the Claustrophobia pack: it asks exactly what the pack's ``decide_`` methods accept.
"""

from __future__ import annotations

from typing import Any

from domain.systems.actions import Action, faces, one_of
from domain.systems.state import GameState
from i18n import _

D6 = tuple(range(1, 7))


class InitiativeActions:
    """The legal actions of Claustrophobia (mixed into its pack)."""

    dice_due: Any  # the pack's count of action dice due (Claustrophobia.dice_due)

    def legal_actions(self, state: GameState) -> list[Action]:
        actions = super().legal_actions(state)  # type: ignore[misc]
        if not self.playing(state):  # type: ignore[attr-defined]
            return actions
        return actions + self.initiative_actions(state) + self.warrior_actions(state)

    def waiting(self, state: GameState) -> bool:
        """Whether this initiative's dice are rolled and a warrior in play still has none (R99)."""
        return (state.phase == "initiative" and state.initiative_roll is not None
                and any(w.in_play and w.die is None for w in state.warriors.values()))

    def may_start_turn(self, state: GameState) -> bool:
        """Not while a warrior waits for his action die."""
        return not self.waiting(state)

    def phases_due(self, state: GameState) -> list[str]:
        """The initiative after the round starts; the action phase once every warrior in play has his die
        (R99), or at once when none is in play."""
        due = super().phases_due(state)  # type: ignore[misc]
        if state.phase == "initiative" and (self.waiting(state) or (
                state.initiative_roll is None and self.dice_due(state))):
            return []
        return due

    def initiative_actions(self, state: GameState) -> list[Action]:
        """The human player's roll of the action dice due, then each die to a warrior (R98, R99)."""
        if state.phase != "initiative":
            return []
        if state.initiative_roll is None:
            due = self.dice_due(state)
            if not due:
                return []
            return [Action({"type": "DiceRolled", "player": state.human, "purpose": "initiative", "die": "d6"},
                           _("Action dice ({due})").format(due=due), "initiative", open={"faces": faces(D6, due)},
                           actor=state.human)]
        roll = state.rolls[state.initiative_roll]
        free = [i for i in range(len(roll.faces)) if i not in state.dice_taken]
        return [Action({"type": "ActionDieAssigned", "warrior": w.id, "roll": roll.seq, "index": i},
                       _("{warrior} takes the {face}").format(warrior=w.id, face=roll.faces[i]), "initiative",
                       actor=state.human)
                for w in state.warriors.values() if w.in_play and w.die is None for i in free]

    def warrior_actions(self, state: GameState) -> list[Action]:
        """For each warrior in play: a line lost (one still available), a line restored (one lost), each
        gift its die triggers unless he is exhausted (R101, R104), his removal."""
        actions = []
        for w in state.warriors.values():
            if not w.in_play:
                continue
            open_lines = [n for n in sorted(w.lines) if n not in w.lost]
            if open_lines:
                actions.append(Action({"type": "LineLost", "warrior": w.id},
                                      _("{warrior} loses a line").format(warrior=w.id), "warriors",
                                      open={"line": one_of(open_lines)}))
            if w.lost:
                actions.append(Action({"type": "LineRestored", "warrior": w.id},
                                      _("{warrior} gets a line back").format(warrior=w.id), "warriors",
                                      open={"line": one_of(sorted(w.lost))}))
            if w.die is not None and not w.exhausted:
                actions += [Action({"type": "GiftUsed", "warrior": w.id, "gift": gift},
                                   _("{warrior} uses {gift}").format(warrior=w.id, gift=gift), "warriors")
                            for line, gift in sorted(w.gifts.items()) if line == w.die]
            actions.append(Action({"type": "WarriorRemoved", "warrior": w.id},
                                  _("{warrior} is removed").format(warrior=w.id), "warriors"))
        return actions
