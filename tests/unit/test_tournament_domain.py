"""Tournaments in the domain: the aggregate and its refusals, Swiss pairing, standings and tie-breaks."""

from __future__ import annotations

import itertools
import random

import pytest

from service.application import Rollcall
from domain.errors import RecordError
from domain.tournaments import (DEFAULT_POINTS, GameResult, TournamentAlreadyCreated, TournamentError,
                                TournamentNotFound, standings, swiss_pairings, tournament_uuid)


@pytest.fixture
def app() -> Rollcall:
    return Rollcall(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})


def header(system: str = "tornscape", tournament: str | None = "Spring Cup", game: str = "g1") -> dict:
    setup = {"tornscape": {"board": {"width": 8, "height": 8}, "models": []},
             "t9a": {"spells": [], "wizards": [], "channel": {"p1": 0, "p2": 0}},
             "claustrophobia": {"human": "p1", "warriors": []}}[system]
    head = {"rollcall": 1, "system": system, "game": game,
            "players": [{"id": "p1", "name": "Anna"}, {"id": "p2", "name": "Boris"}], "setup": setup}
    if tournament is not None:
        head.update(tournament=tournament, round=1, table=1)
    return head


# --- the aggregate ------------------------------------------------------------------------------

def test_a_created_tournament_is_listed_with_its_system_and_slug(app: Rollcall) -> None:
    app.create_tournament("Spring Cup 2026", "tornscape", rounds=3)
    app.create_tournament("Magic Night", "t9a")
    listed = list(app.tournaments())
    assert [(t["name"], t["system"], t["slug"]) for t in listed] == [
        ("Spring Cup 2026", "tornscape", "spring-cup-2026"), ("Magic Night", "t9a", "magic-night")]
    assert listed[0]["rounds"] == 3
    assert app.tournament("spring cup 2026").id == tournament_uuid("Spring Cup 2026")


def test_creating_a_tournament_twice_is_refused_whatever_the_case(app: Rollcall) -> None:
    app.create_tournament("Spring Cup", "tornscape")
    with pytest.raises(TournamentAlreadyCreated, match="already exists"):
        app.create_tournament("SPRING cup", "t9a")
    assert len(list(app.tournaments())) == 1


def test_a_tournament_of_an_unknown_system_is_refused_naming_the_known_ones(app: Rollcall) -> None:
    with pytest.raises(TournamentError, match="unknown system 'chess'.*tornscape"):
        app.create_tournament("Spring Cup", "chess")
    assert list(app.tournaments()) == []


def test_an_unknown_tournament_is_a_clear_error(app: Rollcall) -> None:
    with pytest.raises(TournamentNotFound, match="no tournament 'Nowhere'"):
        app.tournament("Nowhere")


def test_a_game_of_another_system_than_its_tournament_is_refused_naming_field_tournament(app: Rollcall) -> None:
    app.create_tournament("Spring Cup", "tornscape")
    with pytest.raises(RecordError) as refused:
        app.check(header=header("t9a", "spring cup"))
    assert refused.value.cause.field == "tournament"
    assert "tornscape tournament, not t9a" in str(refused.value)


def test_an_import_into_a_tournament_of_another_system_names_the_header_line(app: Rollcall) -> None:
    import json

    app.create_tournament("Spring Cup", "claustrophobia")
    with pytest.raises(RecordError, match=r"t\.jsonl:1: field `tournament`"):
        app.import_record([json.dumps(header("tornscape"))], "t.jsonl")
    assert not app.exists("g1")


def test_a_game_of_the_tournaments_system_or_of_a_tournament_never_created_is_accepted(app: Rollcall) -> None:
    app.create_tournament("Spring Cup", "tornscape")
    app.write(header=header("tornscape", "Spring Cup", "g1"))
    app.write(header=header("t9a", "Autumn Cup", "g2"))
    assert app.exists("g1") and app.exists("g2")


def test_a_bye_is_recorded_once_per_player_and_round(app: Rollcall) -> None:
    app.create_tournament("Spring Cup", "tornscape")
    app.award_bye("Spring Cup", 2, "Anna", "engeln")
    with pytest.raises(TournamentError, match="already has a bye in round 2"):
        app.award_bye("spring cup", 2, "Anna")
    assert app.tournament("Spring Cup").byes == [{"tournament": "Spring Cup", "round": 2, "player": "Anna",
                                                  "faction": "engeln"}]


# --- Swiss pairing --------------------------------------------------------------------------------

def perfect_matching_exists(players: list[str], played: set[frozenset[str]]) -> bool:
    """Independent brute force: can ``players`` be paired without a rematch?"""
    if not players:
        return True
    first = players[0]
    return any(frozenset((first, p)) not in played and perfect_matching_exists(
        [q for q in players[1:] if q != p], played) for p in players[1:])


def test_swiss_pairing_pairs_neighbours_in_the_standings_in_a_fresh_field() -> None:
    pairs, bye = swiss_pairings(["a", "b", "c", "d", "e", "f"])
    assert pairs == [("a", "b"), ("c", "d"), ("e", "f")] and bye is None


def test_swiss_pairing_gives_the_bye_to_the_lowest_ranked_player_without_one() -> None:
    ranked = ["a", "b", "c", "d", "e"]
    assert swiss_pairings(ranked)[1] == "e"
    assert swiss_pairings(ranked, had_bye={"e"})[1] == "d"
    pairs, bye = swiss_pairings(ranked, had_bye={"e", "d"})
    assert bye == "c" and sorted(p for pair in pairs for p in pair) == ["a", "b", "d", "e"]


@pytest.mark.parametrize("count", [4, 5, 6, 7, 8])
def test_swiss_pairing_never_repeats_a_match_when_a_pairing_without_one_exists(count: int) -> None:
    rng = random.Random(count)
    for trial in range(40):
        players = [f"p{i}" for i in range(count)]
        played: set[frozenset[str]] = set()
        had_bye: set[str] = set()
        for _round in range(count - 1):
            rng.shuffle(players)
            pairs, bye = swiss_pairings(players, played, had_bye)
            seated = [p for pair in pairs for p in pair] + ([bye] if bye else [])
            assert sorted(seated) == sorted(players), "every player plays or has the bye, once"
            rematches = [pair for pair in pairs if frozenset(pair) in played]
            avoidable = any(perfect_matching_exists([p for p in players if p != b], played)
                            for b in ([p for p in players if p not in had_bye] or players if count % 2 else [None]))
            assert not (rematches and avoidable), (trial, pairs, played)
            played.update(frozenset(pair) for pair in pairs)
            if bye:
                had_bye.add(bye)


def test_every_player_has_a_bye_before_anyone_has_a_second() -> None:
    players = [f"p{i}" for i in range(5)]
    had: list[str] = []
    played: set[frozenset[str]] = set()
    for _round in range(5):
        pairs, bye = swiss_pairings(players, played, had)
        had.append(bye)
        played.update(frozenset(p) for p in pairs)
    assert sorted(had) == sorted(players)


def test_a_field_that_has_met_everyone_is_still_paired_with_the_fewest_rematches() -> None:
    players = ["a", "b", "c", "d"]
    played = {frozenset(p) for p in itertools.combinations(players, 2)}
    pairs, bye = swiss_pairings(players, played)
    assert sorted(p for pair in pairs for p in pair) == players and bye is None


# --- standings ------------------------------------------------------------------------------------

def naive_standings(games: list[GameResult], byes: list[str]) -> dict[str, dict]:
    """Independent of domain.tournaments: points 3/1/0 (bye 3), then the four keys, ranks by counting."""
    rows: dict[str, dict] = {}
    for g in games:
        for me, them, mine, theirs in ((g.a, g.b, g.score_a, g.score_b), (g.b, g.a, g.score_b, g.score_a)):
            r = rows.setdefault(me, {"tp": 0, "for": 0, "against": 0, "opps": [], "w": 0, "d": 0, "l": 0})
            if g.winner is None:
                r["tp"] += 1
                r["d"] += 1
            elif g.winner == me:
                r["tp"] += 3
                r["w"] += 1
            else:
                r["l"] += 1
            r["for"] += mine
            r["against"] += theirs
            r["opps"].append(them)
    for name in byes:
        rows.setdefault(name, {"tp": 0, "for": 0, "against": 0, "opps": [], "w": 0, "d": 0, "l": 0})["tp"] += 3
    for r in rows.values():
        r["sos"] = sum(rows[o]["tp"] for o in r["opps"])
        r["key"] = (r["tp"], r["for"] - r["against"], r["for"], r["sos"])
    for r in rows.values():
        r["rank"] = 1 + sum(1 for other in rows.values() if other["key"] > r["key"])
    return rows


def random_tournament(rng: random.Random, players: int, rounds: int) -> tuple[list[GameResult], list[str]]:
    names = [f"player{i}" for i in range(players)]
    games, byes = [], []
    for _ in range(rounds):
        rng.shuffle(names)
        if players % 2:
            byes.append(names[-1])
        for a, b in zip(names[0:players - 1:2], names[1::2]):
            sa, sb = rng.randint(0, 6), rng.randint(0, 6)
            games.append(GameResult(a, b, sa, sb, a if sa > sb else b if sb > sa else None))
    return games, byes


@pytest.mark.parametrize("seed", range(12))
def test_standings_match_an_independent_computation_of_points_and_tie_breaks(seed: int) -> None:
    rng = random.Random(seed)
    games, byes = random_tournament(rng, rng.randint(3, 9), rng.randint(1, 5))
    expected = naive_standings(games, byes)
    got = standings(games, byes)
    assert {s.player for s in got} == set(expected)
    for s in got:
        e = expected[s.player]
        assert (s.points, s.vp_diff, s.vp_for, s.sos, s.rank) == (e["tp"], e["for"] - e["against"], e["for"],
                                                                  e["sos"], e["rank"])
        assert (s.wins, s.draws, s.losses) == (e["w"], e["d"], e["l"])
    assert [s.rank for s in got] == sorted(s.rank for s in got), "best first"


def test_each_tie_break_decides_only_when_the_ones_before_it_are_equal() -> None:
    games = [
        GameResult("a", "x", 5, 1, "a"),  # a: 3 TP, +4, 5 VP
        GameResult("b", "y", 4, 0, "b"),  # b: 3 TP, +4, 4 VP  -> below a on VP for
        GameResult("c", "z", 9, 6, "c"),  # c: 3 TP, +3         -> below a and b on VP difference
        GameResult("d", "w", 0, 0, None),  # d: 1 TP             -> below every winner
    ]
    order = [s.player for s in standings(games)]
    assert order[:4] == ["a", "b", "c", "d"]


def test_strength_of_schedule_breaks_a_tie_on_points_and_victory_points() -> None:
    games = [GameResult("a", "x", 3, 1, "a"), GameResult("b", "y", 3, 1, "b"),
             GameResult("x", "q", 2, 0, "x")]  # a's opponent x has 3 TP, b's opponent y has none
    table = {s.player: s for s in standings(games)}
    assert table["a"].key[:3] == table["b"].key[:3]
    assert table["a"].sos > table["b"].sos and table["a"].rank < table["b"].rank


def test_players_equal_on_every_tie_break_share_a_rank() -> None:
    got = standings([GameResult("a", "b", 2, 2, None)])
    assert [s.rank for s in got] == [1, 1]


def test_a_tournament_may_set_its_own_points() -> None:
    got = {s.player: s.points for s in standings([GameResult("a", "b", 1, 0, "a")], ["c"],
                                                 points={"win": 2, "bye": 1})}
    assert got == {"a": 2, "b": DEFAULT_POINTS["loss"], "c": 1}
