"""A game drawn once and stepped (domain.systems.scene): the frames of each pack's scene bring the picture
to every seq, forward and back, as the state at that seq says."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from domain.game import Game
from domain.systems import system_for
from domain.timeline import state_at, state_changes
from simulation.games import simulate


def game_lines(system: str, seed: int, **options) -> tuple[dict, list[dict]]:
    datas = [e.data for e in simulate(system, seed, f"scene-{system}", **options).pending_events]
    return datas[0], datas[1:]


def looks_by_seq(frames: list) -> list[dict]:
    """The look after every seq, applying the frames' new values in order (each op's old value checked)."""
    current: dict = {}
    out = []
    for seq, ops in enumerate(frames):
        for element, attr, new, old in ops:
            assert current.get((element, attr), old) == old, f"seq {seq}: {element}.{attr} was not {old!r}"
            current[(element, attr)] = new
        out.append(dict(current))
    return out


@pytest.mark.parametrize("system,seed", [("tornscape", 3), ("t9a", 4), ("claustrophobia", 5)])
def test_stepping_back_undoes_stepping_forward(system, seed):
    header, lines = game_lines(system, seed)
    scene = system_for(system).presentation.scene(header, list(state_changes(header, lines)), lines)
    assert len(scene.frames) == lines[-1]["seq"] + 1
    forward = looks_by_seq(scene.frames)
    current = dict(forward[-1])
    for seq in range(len(scene.frames) - 1, 0, -1):
        for element, attr, new, old in reversed(scene.frames[seq]):
            assert current[(element, attr)] == new
            current[(element, attr)] = old
        assert {k: current[k] for k in forward[seq - 1]} == forward[seq - 1]


def test_the_board_places_every_model_where_the_state_says_at_every_seq():
    header, lines = game_lines("tornscape", 7, models_per_player=8)
    changes = list(state_changes(header, lines))
    scene = system_for("tornscape").presentation.scene(header, changes, lines)
    drawn = ET.fromstring(f"<div>{scene.html}</div>")
    initial = {(el.get("id"), "data-at"): el.get("data-at") for el in drawn.iter() if el.get("id")}
    initial.update({(el.get("id"), "display"): el.get("display") for el in drawn.iter() if el.get("id")})
    parts = Game.start(header, id=None).state.OBJECT_PARTS
    for seq, look in enumerate(looks_by_seq(scene.frames)):
        now = {**initial, **look}
        models = state_at(changes, seq, parts)["models"]
        for mid, m in models.items():
            assert now[(f"model-{mid}", "data-at")] == ";".join(f"{q},{r}" for q, r in m["at"]), (seq, mid)
            assert now[(f"model-{mid}", "display")] is None
        gone = {el.get("id")[6:] for el in drawn.iter() if "rc-model" in (el.get("class") or "").split()} - set(models)
        assert all(now[(f"model-{mid}", "display")] == "none" for mid in gone)


def test_a_move_is_highlighted_at_its_seq_and_only_there():
    header, lines = game_lines("tornscape", 3)
    scene = system_for("tornscape").presentation.scene(header, list(state_changes(header, lines)), lines)
    moved = next(line for line in lines if line["type"] == "ModelMoved")
    looks = looks_by_seq(scene.frames)
    assert 'class="rc-hl-path"' in looks[moved["seq"]][("rc-hl", "html")]
    assert f'data-model="{moved["model"]}"' in looks[moved["seq"]][("rc-hl", "html")]
    assert looks[0].get(("rc-hl", "html"), "") == ""


def test_scene_json_refers_to_one_table_of_strings():
    header, lines = game_lines("claustrophobia", 5)
    scene = system_for("claustrophobia").presentation.scene(header, list(state_changes(header, lines)), lines)
    data = scene.to_json()
    table = data["strings"]
    for ops, frame in zip(scene.frames, data["frames"]):
        assert [tuple(table[i] for i in frame[k:k + 4]) for k in range(0, len(frame), 4)] == \
            [tuple(None if v is None else str(v) for v in op) for op in ops]
