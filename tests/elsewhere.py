"""Tournament rounds played outside Rollcall (on paper, in another tool): the players' list a pairing tool
exports, and each game of rounds 1–3 as a record of its header and its result, ready to import."""

from __future__ import annotations

import json

PLAYERS = (("Anna Lind", "orcs", "North"), ("Boris Brandt", "sylvan", "North"), ("Chiara Costa", "orcs", "South"),
           ("Dmitri Dietz", "sylvan", "South"), ("Élodie Ørsted", "orcs", None), ("François Łukasz", "sylvan", None),
           ("Gül Şahin", "orcs", "East"), ("Hana Horáková", "sylvan", "East"))
# rounds 1-3 as they were paired elsewhere (indexes of PLAYERS, seat p1 first; p1 wins 3-1): no rematch
ROUNDS = {1: ((0, 1), (2, 3), (4, 5), (6, 7)), 2: ((0, 2), (1, 3), (4, 6), (5, 7)),
          3: ((0, 4), (1, 5), (2, 6), (3, 7))}


def players_csv() -> bytes:
    """A pairing tool's export of PLAYERS: headers in its own case, an extra column, quoted fields, UTF-8."""
    lines = ["Player ID,Name,Faction,Club,E-mail"]
    for number, (name, faction, club) in enumerate(PLAYERS, start=1):
        lines.append(f'{number},"{name}",{faction},{club or ""},player{number}@example.invalid')
    return ("\r\n".join(lines) + "\r\n").encode("utf-8")


def round_records(tournament: str, round_no: int, system: str = "t9a") -> list[list[str]]:
    """The games of ``round_no`` (ROUNDS) as records: the header, then GameEnded (p1 wins 3–1)."""
    from domain.scenarios import scenarios

    setup = next(iter(scenarios(system).values()))
    records = []
    for table, (a, b) in enumerate(ROUNDS[round_no], start=1):
        players = [{"id": seat, "name": PLAYERS[i][0], "faction": PLAYERS[i][1]} for seat, i in (("p1", a), ("p2", b))]
        header = {"rollcall": 1, "system": system, "game": f"paper-r{round_no}-t{table}", "tournament": tournament,
                  "round": round_no, "table": table, "players": players, "setup": setup}
        ended = {"type": "GameEnded", "score": {"p1": 3, "p2": 1}, "winner": "p1", "reason": "played on paper"}
        records.append([json.dumps(header, ensure_ascii=False), json.dumps(ended)])
    return records


def met_before(round_no: int) -> set[frozenset[str]]:
    """The pairs of players (names) who met in the rounds before ``round_no``."""
    return {frozenset((PLAYERS[a][0], PLAYERS[b][0])) for r, tables in ROUNDS.items() if r < round_no
            for a, b in tables}
