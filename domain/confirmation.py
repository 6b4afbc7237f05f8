"""Both players sign the result: each seat confirms the result recorded (``ResultConfirmed``, with the result that
player saw: one that differs from the record is refused, rule P07); once both have, the game is sealed
(``GameSealed``, written with the second confirmation). A player who saw another result disputes it instead: a
``DisputeOpened`` about the game's end, carrying the result they saw (``x_result``), for the judge. The organiser
confirms for a player who left (``absent``, shown as such).

A table is *playing* (no end yet), *awaiting confirmation* (ended, not sealed), *confirmed* (sealed) or *disputed*
(a dispute opened after the end that no ruling has answered since)."""

from __future__ import annotations

from dataclasses import dataclass

from i18n import N_

PLAYING, AWAITING, CONFIRMED, DISPUTED = "playing", "awaiting confirmation", "confirmed", "disputed"
STATUS_WORDS = {PLAYING: N_("playing"), AWAITING: N_("awaiting confirmation"), CONFIRMED: N_("confirmed"),
                DISPUTED: N_("disputed")}  # said with _() where shown
WAIT_RULE = "P09"  # pairing the next round waits for confirmed results (docs/rules.md)


@dataclass(frozen=True)
class TableStatus:
    """Where a game's result stands: its status, the seats that confirmed, and those confirmed for a player who
    left (by the organiser)."""

    status: str
    confirmed: tuple[str, ...] = ()
    absent: tuple[str, ...] = ()


def table_status(lines: list[dict]) -> TableStatus:
    """The status of the game whose record lines (header first, or events alone) are ``lines``."""
    events = [line for line in lines if isinstance(line.get("type"), str)]
    ended = next((e for e in events if e["type"] == "GameEnded"), None)
    if ended is None:
        return TableStatus(PLAYING)
    after = [e for e in events if (e.get("seq") or 0) > (ended.get("seq") or 0)]
    confirmations = [e for e in after if e["type"] == "ResultConfirmed"]
    confirmed = tuple(e["seat"] for e in confirmations)
    absent = tuple(e["seat"] for e in confirmations if e.get("absent"))
    if any(e["type"] == "GameSealed" for e in events):
        return TableStatus(CONFIRMED, confirmed, absent)
    last_dispute = max((e.get("seq") or 0 for e in after if e["type"] == "DisputeOpened"), default=None)
    if last_dispute is not None and not any(e["type"] == "RulingMade" and (e.get("seq") or 0) > last_dispute
                                            for e in after):
        return TableStatus(DISPUTED, confirmed, absent)
    return TableStatus(AWAITING, confirmed, absent)


def result_claim(players: list[dict], score: dict, winner: str | None) -> str:
    """A dispute's claim of the result a player saw, in English (as a record keeps it): ``the result was p1 1 – 3
    p2``."""
    a, b = (p["id"] for p in players)
    said = f"{a} {score.get(a)} – {score.get(b)} {b}"
    return f"the result was {said}; " + (f"{winner} wins" if winner else "a draw")
