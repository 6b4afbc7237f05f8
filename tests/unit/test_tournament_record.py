"""A tournament's own record (domain.tournament_record): every event of the Tournament aggregate can be brought
in again (a new event without a way back would be lost by `tournament export`), and a record's lines replay to the
same tournament."""

from __future__ import annotations

from eventsourcing.domain import Aggregate

from domain.player_lists import read_player_list
from domain.record import Line
from domain.tournament_record import RESTORE, record_lines, restore
from domain.tournaments import Tournament


def test_every_event_of_a_tournament_has_the_command_that_brings_it_in_again() -> None:
    events = {name for name, kind in vars(Tournament).items()
              if isinstance(kind, type) and issubclass(kind, Aggregate.Event) and not issubclass(kind, Aggregate.Created)
              and getattr(kind, "TOPIC", "").startswith("rollcall-tournament:")}
    assert events == set(RESTORE)


def test_a_tournaments_lines_replay_to_the_same_tournament() -> None:
    t = Tournament.create("Club Night", "t9a", rounds=2, points={"win": 2})
    t.register_list(read_player_list(b"name,faction,checked in\nAnna,orcs,yes\nBoris,sylvan,no\n", "a.csv").entries)
    t.register("Chiara", "orcs", "South")
    t.check_in("Boris")
    t.award_bye(1, "Chiara")
    t.set_broadcast_delay(30)
    t.drop("Chiara")
    events = [(type(e).__name__, e.data) for e in t.collect_events()[1:]]
    lines = record_lines(t.data, events)
    again = restore([Line(n, line, True) for n, line in enumerate(lines, start=1)], "club.tournament.jsonl")
    assert (again.data, again.players, again.byes, again.broadcast_delay, again.version) == \
        (t.data, t.players, t.byes, t.broadcast_delay, t.version)


def test_a_team_tournaments_pairing_and_matchups_replay_to_the_same_rounds() -> None:
    from domain.formats import shipped_format
    from domain.player_lists import Registration

    t = Tournament.create("Team Cup", "t9a", format=shipped_format("t9a-teams-4"))
    t.register_list([Registration(f"{team} {i}", "orcs", team) for team in ("Aachen", "Bergen") for i in (1, 2, 3, 4)])
    t.pair({"round": 1, "tables": [], "bye": None, "seed": 1, "scenario": None,
            "matches": [{"match": 1, "teams": ["Aachen", "Bergen"]}], "bye_team": None})
    pairs = t.check_matchups(1, 1, [(f"Bergen {i}", f"Aachen {i}") for i in (1, 2, 3, 4)], 4)
    t.enter_matchups(1, 1, [{"table": n, "game": f"team-cup-r1-t{n}", "players": [{"name": a, "faction": "orcs"},
                                                                                    {"name": b, "faction": "orcs"}]}
                            for n, (a, b) in enumerate(pairs, start=1)])
    events = [(type(e).__name__, e.data) for e in t.collect_events()[1:]]
    again = restore([Line(n, line, True) for n, line in enumerate(record_lines(t.data, events), start=1)],
                    "cup.tournament.jsonl")
    assert again.rounds == t.rounds and again.rounds[1]["entered"] == [1] and len(again.rounds[1]["tables"]) == 4
    assert pairs[0] == ("Aachen 1", "Bergen 1")  # the first team's player first
