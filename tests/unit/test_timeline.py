"""The timeline of a game (domain/timeline.py): its changes rebuild the replay state at every seq."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from domain.game import Game
from domain.timeline import NOT_PARTS, state_at, state_changes
from simulation.games import simulate

GAMES = Path(__file__).resolve().parents[1] / "games"


def stored_lines(game: Game) -> tuple[dict, list[dict]]:
    datas = [e.data for e in game.pending_events]
    return datas[0], datas[1:]


def states_by_replaying(header: dict, lines: list[dict]) -> list[dict]:
    """The replay state after every seq, from a game recorded event by event (the aggregate's own state)."""
    game = Game.start(header, id=None)
    out = [game.state.to_json()]
    for line in lines:
        event = {k: v for k, v in line.items() if k not in ("hash",)}
        game.record(event, strict=False)
        out.append(game.state.to_json())
    return out


@pytest.mark.parametrize("system,seed", [("tornscape", 3), ("t9a", 4), ("t9a", 12), ("claustrophobia", 5),
                                         ("claustrophobia", 13), ("claustrophobia", 21)])
def test_the_changes_of_a_game_rebuild_its_state_after_every_event(system, seed):
    header, lines = stored_lines(simulate(system, seed, f"timeline-{system}"))
    changes = list(state_changes(header, lines))
    expected = states_by_replaying(header, lines)
    for seq, want in enumerate(expected):
        got = state_at(changes, seq, Game.start(header, id=None).state.OBJECT_PARTS)
        assert got == {k: v for k, v in want.items() if k not in NOT_PARTS}, f"{system} seq {seq}"


def test_a_change_is_listed_only_where_the_state_changed():
    header, lines = stored_lines(simulate("tornscape", 7, "timeline-sparse"))
    changes = list(state_changes(header, lines))
    seen = {}
    for seq, part, key, value in changes:
        assert seen.get((part, key), object()) != value, f"seq {seq} repeats {part}.{key}"
        seen[(part, key)] = value
    moved = next(line for line in lines if line["type"] == "ModelMoved")
    at_move = [(part, key) for seq, part, key, _ in changes if seq == moved["seq"]]
    assert ("models", moved["model"]) in at_move
    assert all(part != "terrain" for part, _ in at_move) or moved.get("destroyed")


def test_golden_games_end_in_their_expected_state_through_the_timeline():
    for record in sorted(GAMES.glob("*.rollcall.jsonl")):
        objs = [json.loads(l) for l in record.read_text().splitlines() if l.strip() and not l.startswith("#")]
        game = Game.start(objs[0], id=None)
        for obj in objs[1:]:
            game.record({k: v for k, v in obj.items() if k != "hash"}, strict=False)
        header, lines = stored_lines(game)
        final = state_at(state_changes(header, lines), len(lines), game.state.OBJECT_PARTS)
        want = {k: v for k, v in game.state.to_json().items() if k not in NOT_PARTS}
        assert final == want, record.name
