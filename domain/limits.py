"""The bounds of the numbers a record may hold, in one place (docs/format.md, "Numbers").

Every number of a record is a finite JSON number (NaN and Infinity are not JSON). Integers stay within
what the rules can mean and what the read models hold: the projector's integer columns are BIGINT or
INTEGER (32 bits), and the exact odds of a roll use factorials of its number of dice, exact up to 33
dice. A number out of its bounds is refused on import, naming its field.
"""

from __future__ import annotations

INTEGER = 2**53          # any integer field, |n| <= 2^53 (exact in every JSON reader)
BOARD_SIDE = 200         # a Tornscape board is at most 200 hexes wide and high
DICE = 30                # dice in one roll; dice a model, a cast or a dispel uses
STAT = 100               # step, run, casting values, modifiers, a warrior's line values, Channel tokens
COUNT = 1_000_000        # ether, crystals converted, victory points of one event
SCORE = 1_000_000_000    # a player's final score
RULE_NUMBER = 1_000      # any number in a record's `rules` (rule data overrides)
FACES = 256              # faces of one die, counting repeats (a digital roll draws one byte per die)
TEXT = 10_000            # characters of any text of an event (a note, a claim, a ruling, a name given in it)
LABEL = 80               # characters of what an `other` roll was for ("shooting: to hit")
NAME = 120               # characters of a name in a header: the game id, the tournament, a player's id, name, faction

__all__ = ["BOARD_SIDE", "COUNT", "DICE", "FACES", "INTEGER", "LABEL", "TEXT", "NAME", "RULE_NUMBER", "SCORE", "STAT"]
