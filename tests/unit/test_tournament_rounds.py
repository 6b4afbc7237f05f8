"""Running a tournament in the domain: registration, check-in and drops, pairing rounds from the standings
(rematches, clubs in round 1, byes), re-pairing, results entered alone, and the shipped scenarios."""

from __future__ import annotations

import itertools
import json

import pytest

from service.application import Rollcall
from domain.scenarios import scenarios
from domain.tournaments import GameResult, TournamentError, next_pairings, same_club

SYSTEMS = ("tornscape", "t9a", "claustrophobia")
FACTIONS = {"tornscape": "engeln", "t9a": "orcs", "claustrophobia": "humans"}


@pytest.fixture
def app() -> Rollcall:
    return Rollcall(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})


def tournament(app: Rollcall, players: int, system: str = "tornscape", clubs: dict[str, str] | None = None) -> str:
    app.create_tournament("Club Night", system)
    for i in range(players):
        name = f"Player {i + 1}"
        app.register_player("Club Night", name, FACTIONS[system], (clubs or {}).get(name))
    return "Club Night"


def finish_round(app: Rollcall, name: str, round_no: int, scores=lambda table: (3, 1)) -> None:
    for table in app.tournament(name).rounds[round_no]["tables"]:
        a, b = scores(table["table"])
        app.enter_result(name, round_no, table["table"], {"p1": a, "p2": b})


def pairs(app: Rollcall, name: str, round_no: int) -> set[frozenset[str]]:
    return {frozenset(p["name"] for p in t["players"]) for t in app.tournament(name).rounds[round_no]["tables"]}


# --- registration -------------------------------------------------------------------------------

def test_a_registered_player_keeps_faction_and_club(app: Rollcall) -> None:
    name = tournament(app, 0)
    app.register_player(name, "Anna Lind", "engeln", "Dragons")
    assert app.tournament(name).players["Anna Lind"] | {} == {
        "tournament": "Club Night", "player": "Anna Lind", "faction": "engeln", "club": "Dragons",
        "checked_in": False, "dropped_after": None}


def test_a_name_registered_twice_even_in_another_case_is_refused(app: Rollcall) -> None:
    name = tournament(app, 0)
    app.register_player(name, "Anna Lind")
    with pytest.raises(TournamentError, match="Anna Lind is already registered"):
        app.register_player(name, "anna lind")


def test_checking_in_or_dropping_an_unregistered_player_is_refused(app: Rollcall) -> None:
    name = tournament(app, 2)
    with pytest.raises(TournamentError, match="not registered"):
        app.check_in(name, "Nobody")
    with pytest.raises(TournamentError, match="not registered"):
        app.drop_player(name, "Nobody")


def test_once_check_in_has_begun_only_checked_in_players_are_paired(app: Rollcall) -> None:
    name = tournament(app, 5)
    for player in ("Player 1", "Player 2", "Player 4", "Player 5"):
        app.check_in(name, player)
    paired = app.pair_round(name, 1, seed=1)
    seated = {p["name"] for t in paired["tables"] for p in t["players"]}
    assert seated == {"Player 1", "Player 2", "Player 4", "Player 5"} and paired["bye"] is None


def test_a_dropped_player_is_not_paired_again_and_their_games_stand(app: Rollcall) -> None:
    name = tournament(app, 4)
    app.pair_round(name, 1, seed=2)
    finish_round(app, name, 1)
    dropped = next(iter(next(iter(pairs(app, name, 1)))))
    assert app.drop_player(name, dropped)["after_round"] == 1
    paired = app.pair_round(name, 2, seed=2)
    assert dropped not in {p["name"] for t in paired["tables"] for p in t["players"]} and paired["bye"] is not None
    games = app.tournament_games(app.tournament(name))
    assert any(dropped in g.names and g.result is not None for g in games if g.round == 1)


# --- pairing ------------------------------------------------------------------------------------

def test_pairing_creates_the_rounds_games_ready_to_be_recorded(app: Rollcall) -> None:
    name = tournament(app, 4)
    paired = app.pair_round(name, 1, seed=3)
    assert [t["table"] for t in paired["tables"]] == [1, 2]
    for table in paired["tables"]:
        header = app.stored_lines(table["game"])[0]
        assert (header["tournament"], header["round"], header["table"]) == ("Club Night", 1, table["table"])
        assert [(p["id"], p["name"], p["faction"]) for p in header["players"]] == [
            (seat, p["name"], "engeln") for seat, p in zip(("p1", "p2"), table["players"])]
        assert header["setup"] == scenarios("tornscape")[paired["scenario"]]
        assert len(app.stored_lines(table["game"])) == 1  # the header alone


def test_later_rounds_pair_from_the_standings_without_rematches(app: Rollcall) -> None:
    name = tournament(app, 6)
    met: set[frozenset[str]] = set()
    for round_no in (1, 2, 3):
        app.pair_round(name, round_no, seed=round_no)
        now = pairs(app, name, round_no)
        assert not now & met, "nobody meets the same opponent twice while a new one is left"
        met |= now
        finish_round(app, name, round_no)
    winners = {t["players"][0]["name"] for t in app.tournament(name).rounds[1]["tables"]}
    round_two = app.tournament(name).rounds[2]["tables"]
    assert {p["name"] for p in round_two[0]["players"]} <= winners, "table 1 of round 2 seats two winners"


def test_an_odd_field_gives_the_bye_to_the_lowest_ranked_player_without_one(app: Rollcall) -> None:
    name = tournament(app, 5)
    first = app.pair_round(name, 1, seed=4)["bye"]
    finish_round(app, name, 1)
    second = app.pair_round(name, 2, seed=4)["bye"]
    assert second != first
    standing = {s.player: s for s in _standings(app, name, before=2)}
    without_bye = [p for p in standing if p != first]
    assert standing[second].key == min(standing[p].key for p in without_bye)


def _standings(app: Rollcall, name: str, before: int):
    from domain.tournaments import standings

    tournament_ = app.tournament(name)
    games = app.tournament_games(tournament_)
    return standings([g.result for g in games if g.result and g.round < before], tournament_.byes_before(before),
                     list(tournament_.players))


def test_round_one_keeps_players_of_one_club_apart_when_avoidable() -> None:
    clubs = {"A1": "Red", "A2": "Red", "B1": "Blue", "B2": "Blue", "C1": "Green", "C2": "green"}
    for seed in range(40):
        found, bye = next_pairings(list(clubs), [], [], 1, seed, clubs=clubs)
        assert not {frozenset(p) for p in found} & same_club(clubs, clubs), seed


def test_round_one_pairs_club_mates_only_when_it_cannot_be_avoided() -> None:
    clubs = {"A1": "Red", "A2": "Red", "A3": "Red", "B1": "Blue"}
    for seed in range(20):
        found, _ = next_pairings(list(clubs), [], [], 1, seed, clubs=clubs)
        assert sum(frozenset(p) in same_club(clubs, clubs) for p in found) == 1


def test_clubs_do_not_matter_after_round_one() -> None:
    clubs = {"A1": "Red", "A2": "Red", "B1": "Blue", "B2": "Blue"}
    results = [GameResult("A1", "B1", 3, 0, "A1"), GameResult("A2", "B2", 3, 0, "A2")]
    found, _ = next_pairings(list(clubs), results, [], 2, 0, clubs=clubs)
    assert frozenset(("A1", "A2")) in {frozenset(p) for p in found}, "the two winners meet"


def test_a_round_can_be_paired_again_until_its_first_event(app: Rollcall) -> None:
    name = tournament(app, 4)
    first = app.pair_round(name, 1, seed=5)
    again = app.pair_round(name, 1, seed=6)
    assert again["pairing"] == 2
    kept = {t["game"] for t in again["tables"]} & {t["game"] for t in first["tables"]}
    assert set(again["withdrawn"]) == {t["game"] for t in first["tables"]} - kept
    assert {g.header["game"] for g in app.tournament_games(app.tournament(name))} == {t["game"] for t in again["tables"]}
    app.record(again["tables"][1]["game"], {"type": "Noted", "text": "deployment"})
    with pytest.raises(TournamentError, match=r"round 1 of Club Night cannot be paired again: game .* \(table 2\) "
                                              "has recorded events"):
        app.pair_round(name, 1)


def test_the_next_round_waits_for_every_result_of_the_last(app: Rollcall) -> None:
    name = tournament(app, 4)
    app.pair_round(name, 1, seed=1)
    app.enter_result(name, 1, 1, {"p1": 2, "p2": 0})
    with pytest.raises(TournamentError, match=r"round 1 of Club Night is not finished: table\(s\) 2"):
        app.pair_round(name, 2)
    with pytest.raises(TournamentError, match="the next round of Club Night is 2"):
        app.pair_round(name, 3)


def test_a_setup_given_replaces_the_scenario(app: Rollcall) -> None:
    name = tournament(app, 2)
    setup = {"board": {"width": 10, "height": 8}, "models": []}
    paired = app.pair_round(name, 1, setup=setup, seed=1)
    assert paired["scenario"] is None
    assert app.stored_lines(paired["tables"][0]["game"])[0]["setup"] == setup


# --- results alone ------------------------------------------------------------------------------

@pytest.mark.parametrize("system", SYSTEMS)
def test_a_result_alone_ends_a_paired_game_of_every_system(app: Rollcall, system: str) -> None:
    name = tournament(app, 2, system)
    game = app.pair_round(name, 1, seed=1)["tables"][0]["game"]
    ended = app.enter_result(name, 1, 1, {"Player 1": 1, "Player 2": 4})
    lines = app.stored_lines(game)
    assert [line.get("type") for line in lines[1:]] == ["GameEnded"] and ended["seq"] == 1
    seat_of = {p["name"]: p["id"] for p in lines[0]["players"]}
    assert ended["score"] == {seat_of["Player 1"]: 1, seat_of["Player 2"]: 4}
    assert ended["winner"] == seat_of["Player 2"]


def test_equal_scores_are_a_draw_and_a_stranger_is_refused(app: Rollcall) -> None:
    name = tournament(app, 2)
    app.pair_round(name, 1, seed=1)
    with pytest.raises(TournamentError, match="Nobody does not play at table 1"):
        app.enter_result(name, 1, 1, {"Nobody": 1, "p2": 1})
    assert app.enter_result(name, 1, 1, {"p1": 2, "p2": 2})["winner"] is None


# --- scenarios ----------------------------------------------------------------------------------

@pytest.mark.parametrize("system", SYSTEMS)
def test_every_shipped_scenario_makes_a_valid_game(app: Rollcall, system: str) -> None:
    shipped = scenarios(system)
    assert len(shipped) >= 2
    for number, (scenario, setup) in enumerate(shipped.items()):
        header = {"rollcall": 1, "system": system, "game": f"s{number}", "setup": setup,
                  "players": [{"id": "p1", "name": "A"}, {"id": "p2", "name": "B"}]}
        game = app.check_record([json.dumps(header), json.dumps({"type": "GameEnded", "score": {"p1": 1, "p2": 0},
                                                                 "winner": "p1", "reason": "result"})], scenario).game
        assert game.header["setup"] == setup


def test_scenarios_are_found_by_any_alias_of_the_system() -> None:
    assert scenarios("the-9th-age") == scenarios("t9a") and scenarios("t9a")


def test_every_pair_of_a_club_is_found_without_case() -> None:
    found = same_club(["a", "b", "c", "d"], {"a": "Red", "b": "red", "c": "RED", "d": None})
    assert found == {frozenset(p) for p in itertools.combinations("abc", 2)}


# --- tournaments begun elsewhere ------------------------------------------------------------------

def begun_elsewhere(app: Rollcall, rounds: int = 3) -> str:
    """A t9a tournament whose players registered from a pairing tool's CSV and whose rounds 1..``rounds`` were
    played on paper and imported as records."""
    from domain.player_lists import read_player_list
    from elsewhere import players_csv, round_records

    app.create_tournament("Paper Cup", "t9a")
    app.register_players("Paper Cup", read_player_list(players_csv(), "players.csv").entries)
    for round_no in range(1, rounds + 1):
        for lines in round_records("Paper Cup", round_no):
            app.import_record(lines)
    return "Paper Cup"


def test_the_round_after_rounds_imported_as_records_is_paired_from_their_standings(app: Rollcall) -> None:
    from elsewhere import PLAYERS, met_before

    name = begun_elsewhere(app)
    paired = app.pair_round(name, 4, seed=1)
    tables = [frozenset(p["name"] for p in t["players"]) for t in paired["tables"]]
    assert len(tables) == 4 and not set(tables) & met_before(4), "nobody meets an opponent of rounds 1-3 again"
    assert "Anna Lind" in tables[0], "the only player with three wins sits at table 1"
    assert [app.stored_lines(t["game"])[0]["round"] for t in paired["tables"]] == [4] * 4
    assert {p["faction"] for t in paired["tables"] for p in t["players"]} == {f for _, f, _ in PLAYERS}


def test_a_round_that_came_in_as_records_cannot_be_paired_and_the_error_names_the_next(app: Rollcall) -> None:
    name = begun_elsewhere(app)
    with pytest.raises(TournamentError, match=r"round 1 cannot be paired: the next round of Paper Cup is 4 "
                                              r"\(round 1 has 4 game\(s\) already\)"):
        app.pair_round(name, 1)
    with pytest.raises(TournamentError, match="round 3 cannot be paired: the next round of Paper Cup is 4"):
        app.pair_round(name, 3)
    assert app.tournament(name).rounds == {}


def test_a_player_who_drops_after_imported_rounds_drops_after_the_last_of_them(app: Rollcall) -> None:
    name = begun_elsewhere(app, rounds=2)
    assert app.drop_player(name, "Hana Horáková")["after_round"] == 2


def test_names_of_imported_games_match_registrations_in_any_case(app: Rollcall) -> None:
    from domain.player_lists import read_player_list
    from elsewhere import PLAYERS, round_records

    app.create_tournament("Paper Cup", "t9a")
    shouted = "name,faction\n" + "".join(f"{n.upper()},{f}\n" for n, f, _ in PLAYERS)
    app.register_players("Paper Cup", read_player_list(shouted.encode(), "players.csv").entries)
    for lines in round_records("Paper Cup", 1):
        app.import_record(lines)
    paired = app.pair_round("Paper Cup", 2, seed=3)
    winners = {n.upper() for n, *_ in (PLAYERS[0], PLAYERS[2], PLAYERS[4], PLAYERS[6])}
    assert {p["name"] for p in paired["tables"][0]["players"]} <= winners, "round 1's winners meet at table 1"


# --- registering a list ----------------------------------------------------------------------------

def test_a_pairing_tools_export_registers_its_players_with_faction_and_club(app: Rollcall) -> None:
    from domain.player_lists import read_player_list
    from elsewhere import PLAYERS, players_csv

    app.create_tournament("Paper Cup", "t9a")
    done = app.register_players("Paper Cup", read_player_list(players_csv(), "players.csv").entries)
    assert [(r["player"], r.get("faction"), r.get("club")) for r in done.registered] == list(PLAYERS)
    again = app.register_players("Paper Cup", read_player_list(players_csv(), "players.csv").entries)
    assert again.registered == [] and again.already == [n for n, *_ in PLAYERS]
    assert list(app.tournament("Paper Cup").players) == [n for n, *_ in PLAYERS], "nobody registered twice"


def test_registering_a_list_needs_an_organisers_key_even_when_nobody_is_new(app: Rollcall) -> None:
    from domain.access import AccessDenied
    from domain.player_lists import read_player_list
    from elsewhere import players_csv

    app.create_tournament("Paper Cup", "t9a")
    app.key = app.add_key("organiser", "Olga")
    app.register_players("Paper Cup", read_player_list(players_csv(), "players.csv").entries)
    app.key = app.add_key("scorekeeper", "Sam")
    for attempt in (lambda: app.register_players("Paper Cup", read_player_list(players_csv(), "players.csv").entries),
                    lambda: app.register_from_games("Paper Cup")):
        with pytest.raises(AccessDenied, match="registering players needs an? organiser key; 'Sam' holds a scorekeeper"):
            attempt()


def test_the_players_of_a_tournaments_games_register_with_the_faction_they_played(app: Rollcall) -> None:
    from elsewhere import PLAYERS, round_records

    app.create_tournament("Paper Cup", "t9a")
    for lines in round_records("Paper Cup", 1):
        app.import_record(lines)
    with pytest.raises(TournamentError, match="--from-games` registers the 8 players of its games"):
        app.pair_round("Paper Cup", 2)
    done = app.register_from_games("Paper Cup")
    assert sorted((r["player"], r["faction"]) for r in done.registered) == sorted((n, f) for n, f, _ in PLAYERS)
    assert app.register_from_games("Paper Cup").registered == []
    assert len(app.pair_round("Paper Cup", 2, seed=1)["tables"]) == 4


# --- a result by seat or by name -------------------------------------------------------------------

def test_a_score_key_read_as_a_seat_and_as_the_other_players_name_is_refused_naming_both(app: Rollcall) -> None:
    from domain.scenarios import scenarios

    app.create_tournament("Club Night", "t9a")
    header = {"rollcall": 1, "system": "t9a", "game": "club-r1-t1", "tournament": "Club Night", "round": 1, "table": 1,
              "players": [{"id": "p1", "name": "P2"}, {"id": "p2", "name": "Boris"}],
              "setup": next(iter(scenarios("t9a").values()))}
    app.import_record([json.dumps(header)])
    with pytest.raises(TournamentError, match=r"'p2' at table 1 of round 1 reads two ways: seat p2, who is Boris, or "
                                              r"the player named P2, who sits as p1; write seat:p2=VP or "
                                              r"name:P2=VP"):
        app.enter_result("Club Night", 1, 1, {"p2": 3, "Boris": 1})
    assert len(app.stored_lines("club-r1-t1")) == 1, "nothing stored"
    ended = app.enter_result("Club Night", 1, 1, {"name:P2": 3, "seat:p2": 1})
    assert ended["score"] == {"p1": 3, "p2": 1} and ended["winner"] == "p1"


def test_a_score_key_read_both_ways_as_one_player_is_taken(app: Rollcall) -> None:
    from domain.tournaments import scored_seat

    players = [{"id": "p1", "name": "Anna"}, {"id": "p2", "name": "P2"}]
    assert [scored_seat(players, key, "table 1") for key in ("P2", "p1", "anna", "Seat:P2", "NAME:anna")] == [
        "p2", "p1", "p1", "p2", "p1"]
    with pytest.raises(TournamentError, match=r"name:p1 does not play at table 1 \(Anna \(p1\) and P2 \(p2\) do\)"):
        scored_seat(players, "name:p1", "table 1")


def test_a_tournament_and_players_named_in_cyrillic_are_told_apart_and_paired(app: Rollcall) -> None:
    app.create_tournament("Кубок Вихря", "tornscape")
    for name in ("Анна Линд", "Борис Берг", "Вера Волк", "Глеб Гром"):
        app.register_player("Кубок Вихря", name, FACTIONS["tornscape"])
    with pytest.raises(TournamentError, match="already registered"):
        app.register_player("кубок вихря", "анна линд")
    app.pair_round("Кубок Вихря", 1)
    assert set().union(*pairs(app, "Кубок Вихря", 1)) == {"Анна Линд", "Борис Берг", "Вера Волк", "Глеб Гром"}
    app.create_tournament("Кубок Эфира", "tornscape")  # another name: another tournament
    assert app.tournament("Кубок Эфира").data["name"] == "Кубок Эфира"
