"""The Record page's view model (dashboard/record_view.py), without Streamlit: what it offers, how it names the
game, and that what each tap's preview draws is what the game shows once the tap is recorded — at every few
states of simulated games of every system."""

from __future__ import annotations

import copy
import pickle
from uuid import uuid4

import pytest

from dashboard.record_view import PREVIEWS_MAX, record_view, status_text
from domain.game import Game
from domain.systems.presentation import game_title
from simulation.games import simulate

PLAYED = {"tornscape": 2, "t9a": 4, "claustrophobia": 4}  # turns
EVERY = 9  # the view and its previews at every ninth state


def on_copy(game: Game) -> Game:
    twin = copy.copy(game)
    twin._pending_events = []
    twin.state = pickle.loads(pickle.dumps(game.state, pickle.HIGHEST_PROTOCOL))
    return twin


def replayed(system: str, seed: int) -> tuple[dict, list[dict]]:
    played = simulate(system, seed, f"view-{system}-{seed}", turns=PLAYED[system])
    return played.header, list(played.state.lines)


def game_after(header: dict, lines: list[dict]) -> Game:
    """A Game aggregate holding ``lines`` (recorded as the application records them)."""
    game = Game.start({k: v for k, v in header.items() if k not in ("hash", "violations")}, uuid4(), strict=False)
    for line in lines:
        game.record({k: v for k, v in line.items() if k not in ("seq", "hash", "violations")}, strict=False)
    return game


def look_of(game: Game) -> dict:
    pres = game.system.presentation
    kept = pres.kept_picture(game.state.to_json(), pres.names(game.header), {"hexes": [], "models": []})
    return {} if kept is None else {(el, attr): value for el, attr, value in kept[2]}


@pytest.mark.parametrize("system", sorted(PLAYED))
def test_each_taps_preview_draws_what_the_game_shows_once_it_is_recorded(system: str) -> None:
    header, lines = replayed(system, 1)
    checked = 0
    for cut in range(0, len(lines), EVERY):
        game = game_after(header, lines[:cut])
        view = record_view(game)
        before = look_of(game)
        for key, doable in view.doable.items():
            preview = view.previews.get(key)
            twin = on_copy(game)
            twin.record(dict(doable.event))  # strict: every offer is one the rules accept
            if preview is None:  # past the previews a state makes: the buttons come first
                assert len(view.previews) == PREVIEWS_MAX and key.startswith(("hexes:", "models:")), doable.done
                continue
            names = twin.system.presentation.names(twin.header)
            assert preview.status == status_text(twin.state, names), doable.done
            drawn = {**before, **{(el, attr): value for el, attr, value in preview.look}}
            assert drawn == look_of(twin), f"seq {cut}: {doable.done!r} previewed otherwise than recorded"
            if preview.picture is not None:
                assert preview.picture == twin.system.presentation.picture(
                    twin.state.to_json(), names=names, events=twin.state.lines)
            assert preview.line.startswith(f"{cut + 1}. ")
            checked += 1
        assert view.seq == game.state.seq == cut  # trying the taps changed nothing of the state shown
    assert checked >= 5


def test_the_view_offers_every_legal_action_once_as_a_button_or_a_tap() -> None:
    header, lines = replayed("tornscape", 2)
    game = game_after(header, lines[:40])
    view = record_view(game)
    actions = game.system.legal_actions(game.state)
    shown = [o.id for _title, offers in view.groups for o in offers]
    assert len(shown) == len(set(shown))
    moves = sum(len(v) for v in view.moves.values())
    rolls = {o.key: o for o in view.offers.values() if o.rolls}
    assert len(shown) - len(rolls) + sum(len(o.actions) for o in rolls.values()) + moves == len(actions)
    assert set(view.hexes.values()) | set(view.models.values()) <= set(view.doable)  # each tap records at once


def test_a_tournaments_game_is_named_by_its_round_and_table_and_a_free_game_by_its_players() -> None:
    players = [{"id": "p1", "name": "Ольга Смирнова"}, {"id": "p2", "name": "Jürgen Weiß"}]
    assert game_title({"game": "spring-open-r2-t1", "round": 2, "table": 1, "players": players}) == "Round 2 · table 1"
    assert game_title({"game": "spring-open-r2-t1", "round": 2, "table_no": 1}) == "Round 2 · table 1"
    assert game_title({"game": "ольга-смирнова-jürgen-weiß-2026-12-07", "players": players}) == \
        "Ольга Смирнова vs Jürgen Weiß"


def test_the_status_line_says_the_event_turn_phase_and_scores_in_words() -> None:
    header, lines = replayed("t9a", 1)
    game = game_after(header, lines[:12])
    status = record_view(game).status
    assert status.startswith("event 12 · turn ") and "seq" not in status and "_" not in status


def test_the_status_line_of_a_game_ended_at_time_says_so() -> None:
    header, lines = replayed("tornscape", 1)
    game = game_after(header, lines[:7])
    game.record({"type": "GameEnded", "score": {"p1": 3, "p2": 1}, "winner": "p1", "reason": "time"})
    assert " · ended at time · " in record_view(game).status
    played_out = game_after(header, lines)
    assert lines[-1]["type"] == "GameEnded" and lines[-1]["reason"] != "time"
    assert " · ended · " in record_view(played_out).status


def test_a_players_phone_lists_the_opponents_last_events_newest_first() -> None:
    from dashboard.record_view import opponents_last

    header, lines = replayed("t9a", 3)
    game = game_after(header, lines)
    pres = game.system.presentation
    names = pres.names(game.header)
    me, them = (names.player(p["id"]) for p in game.header["players"])
    found = opponents_last(game, me.upper(), n=4)  # (a name in any case)
    assert found is not None and found[0] == them
    theirs = [line for line in game.state.lines if pres.actor_by_name(line, names) == them]
    assert [e.seq for e in found[1]] == [line["seq"] for line in theirs[-4:][::-1]] and len(found[1]) == 4
    assert opponents_last(game, "Somebody Else") is None
