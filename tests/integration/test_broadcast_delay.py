"""What a tournament's broadcast delay covers, in the read models (projections/visibility.py): a spectator sees each
game of a delayed tournament as it stood after its last event older than the delay — its events, states, rolls,
luck, disputes, turn and result — and a game that ended within the delay is still being played; a privileged
viewer sees everything; a game of no tournament is live."""

from __future__ import annotations

from datetime import timedelta

import pytest
from delayed import DELAY, ENDED, LIVE, NAME, PAIRED, PLAYING, SPLIT, Delayed, delayed_data

from projections import disputes, queries, tournaments
from projections.queries import connect_read
from projections.stats import ANALYTICS_QUERIES, Scope, held_back
from projections.visibility import EVERYTHING, seen


@pytest.fixture(scope="module")
def delayed(tmp_path_factory) -> Delayed:
    return delayed_data(tmp_path_factory.mktemp("delay") / "data")


@pytest.fixture
def con(delayed: Delayed):
    connection = connect_read(delayed.data)
    yield connection
    connection.close()


@pytest.fixture
def spectator(delayed: Delayed, con):
    return seen(con, privileged=False, now=delayed.now)


def test_a_spectator_sees_each_delayed_game_up_to_its_last_event_older_than_the_delay(delayed, con, spectator) -> None:
    assert spectator.upto(ENDED) == SPLIT[ENDED] and spectator.upto(PLAYING) == SPLIT[PLAYING]
    assert spectator.upto(LIVE) is None and spectator.delay(ENDED) == DELAY
    later = seen(con, privileged=False, now=delayed.now + timedelta(days=1))
    assert later.held == () and later.upto(ENDED) is None  # the delay has passed: shown whole
    assert seen(con, privileged=True, now=delayed.now) == EVERYTHING
    assert not spectator.live(NAME) and spectator.live(None) and EVERYTHING.live(NAME)


def test_the_games_list_shows_a_delayed_game_as_it_stood_then(delayed, con, spectator) -> None:
    everything = {g["game"]: g for g in queries.list_games(con)}
    shown = {g["game"]: g for g in queries.list_games(con, spectator)}
    assert everything[ENDED]["ended"] and everything[ENDED]["winner"] is not None
    game = shown[ENDED]
    assert (game["last_seq"], game["events"], game["ended"], game["winner"], game["score"]) == (
        SPLIT[ENDED], SPLIT[ENDED], False, None, None)
    event = queries.game_events(con, ENDED)[SPLIT[ENDED] - 1]
    assert (game["turn"], game["phase"]) == (event["turn"], event["phase"])
    assert shown[PLAYING]["last_seq"] == SPLIT[PLAYING] and shown[LIVE] == everything[LIVE]


def test_a_delayed_games_events_states_rolls_and_luck_stop_at_the_last_seq_shown(delayed, con, spectator) -> None:
    upto = spectator.upto(ENDED)
    assert [e["seq"] for e in queries.game_events(con, ENDED, upto)] == list(range(1, upto + 1))
    state = queries.state_at(con, ENDED, None, upto=upto)
    assert (state["seq"], state["last_seq"]) == (upto, upto)
    assert queries.state_at(con, ENDED, 10**6, upto=upto)["seq"] == upto
    assert max(c[0] for c in queries.state_changes(con, ENDED, upto=upto)) <= upto
    assert max(c[0] for c in queries.state_changes(con, ENDED)) > upto
    assert max(queries.roll_odds(con, ENDED, upto)) <= upto < max(queries.roll_odds(con, ENDED))
    assert all(s <= upto for _, s in queries.turn_starts(con, ENDED, upto))
    line = ANALYTICS_QUERIES["luck_line"](con, Scope(game=ENDED, seen=spectator))
    whole = ANALYTICS_QUERIES["luck_line"](con, Scope(game=ENDED))
    assert line and max(r["seq"] for r in line) <= upto < max(r["seq"] for r in whole)


def test_results_standings_and_pairings_show_a_game_that_ended_within_the_delay_as_playing(delayed, con,
                                                                                             spectator) -> None:
    def ended_result(rows):
        return next(r["result"] for r in rows if r["game"] == ENDED)

    assert ended_result(tournaments.results(con, NAME)) in ("W", "L", "D")
    assert ended_result(tournaments.results(con, NAME, seen=spectator)) is None
    assert [(r["result"], r["score"]) for r in tournaments.pairings(con, PAIRED)] == [("W", 5)]
    assert [(r["result"], r["score"]) for r in tournaments.pairings(con, PAIRED, seen=spectator)] == [(None, None)]
    assert sum(r["games"] for r in tournaments.standings(con, NAME)) == 2
    assert sum(r["games"] for r in tournaments.standings(con, NAME, seen=spectator)) == 0
    assert tournaments.progress(con, NAME, seen=spectator) == []
    listed = next(t for t in tournaments.list_tournaments(con, seen=spectator) if t["tournament"] == NAME)
    assert listed["ended_games"] == 0


def test_the_statistics_leave_out_the_games_kept_behind_until_their_delay_has_passed(delayed, con, spectator) -> None:
    scope = Scope(tournament=NAME, seen=spectator)
    assert sorted(held_back(con, scope)) == [ENDED, PLAYING]
    assert ANALYTICS_QUERIES["luck_by_player"](con, scope) == []
    assert ANALYTICS_QUERIES["luck_by_player"](con, Scope(tournament=NAME))
    everyone = {r["player"] for r in ANALYTICS_QUERIES["luck_by_game"](con, Scope(seen=spectator))}
    assert everyone and all(r["game"] == LIVE for r in ANALYTICS_QUERIES["luck_by_game"](con, Scope(seen=spectator)))


def test_disputes_rulings_and_the_rolls_they_involve_stop_at_the_last_seq_shown(delayed, con, spectator) -> None:
    upto = spectator.upto(PLAYING)
    assert disputes.disputes(con, PLAYING) and disputes.disputes(con, PLAYING, upto) == []
    rolls = [r["seq"] for r in disputes.rolls_involved(con, ENDED, list(range(1, 400)))]
    shown = [r["seq"] for r in disputes.rolls_involved(con, ENDED, list(range(1, 400)), spectator.upto(ENDED))]
    assert shown and max(shown) <= spectator.upto(ENDED) < max(rolls)
