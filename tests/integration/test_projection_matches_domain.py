"""The decisive test of the read models: ``state_at(con, game, N)`` equals the domain's own fold
``app.get_game(game, version=N + 1).state.to_json()`` for every N of every game.

The games: record files written here (moves, shoves with dodge rolls and re-rolls, displacement, a
huge model destroying solid terrain, markers ejected and taken, points, a model removed and placed
again), the golden records of tests/games and a few simulated games (vortices too). They are
projected in small batches, so states that span batches are closed by later ones.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest

from service.application import Rollcall, game_uuid
from domain.errors import GameNotFound
from domain.game import Game
from domain.record import export_line
from simulation.games import record_lines, simulate_tornscape
from domain.systems.tornscape import hexes as hx
from projections.projector import Projector
from projections.queries import connect_read, game_events, list_games, state_at, turn_starts

GOLDEN = Path(__file__).resolve().parents[1] / "games"
CONTRACT_KEYS = {"game", "system", "seq", "last_seq", "turn", "phase", "board", "players", "models", "terrain",
                 "markers", "vortices", "activation", "pending", "clock"}  # a Tornscape replay state (docs/replay.md)
PLAYERS = [{"id": "p1", "name": "Anna", "faction": "engeln"}, {"id": "p2", "name": "Boris", "faction": "faceless"}]


# --- writing record files through the domain -------------------------------------------------

class Scribe:
    """Plays events through the Game aggregate (lenient: a broken rule is recorded, not refused) and
    resolves ejections the way the rules ask, so the record is consistent with its derived fields."""

    def __init__(self, game_id: str, width: int, height: int, **setup) -> None:
        header = {"rollcall": 1, "system": "tornscape", "game": game_id, "players": PLAYERS,
                  "setup": {"board": {"width": width, "height": height}, **setup}}
        self.game = Game.start(header, game_uuid(game_id), strict=False)
        self.pack = self.game.system

    @property
    def state(self):
        return self.game.state

    def add(self, event_type: str, **fields) -> dict:
        return self.game.record({"type": event_type, **fields}, strict=False)

    def roll(self, player: str, purpose: str, die: str, faces: list, reroll: dict | None = None) -> int:
        seq = self.add("DiceRolled", player=player, purpose=purpose, die=die, faces=faces)["seq"]
        for index, face in (reroll or {}).items():
            self.add("DieRerolled", roll=seq, index=index, face=face, player=player, paid="ability")
        return seq

    def move(self, model: str, action: str, path: list, dodge: dict | None = None) -> dict:
        """A move, then the ejections it requires; ``dodge``: model -> (faces, re-rolls) of its dodge roll."""
        moved = self.add("ModelMoved", model=model, action=action, path=path)
        mover = self.state.models[model]
        for mid in moved["must_eject"]:
            target = self.state.models[mid]
            event = {"model": mid, "by": model}
            if mid in (dodge or {}):
                faces, reroll = dodge[mid]
                event["dodge"] = self.roll(target.player, "dodge", "agility", faces, reroll)
            to = self.pack.ejection_targets(self.state, target, mover)[0]
            self.add("ModelEjected", to=list(to[0]), **event)
        for marker in moved["markers_to_eject"]:
            spots = self.pack._marker_spots(self.state, self.state.markers[marker], mover, mover.fp)
            self.add("MarkerEjected", marker=marker, to=list(spots[0]))
        return moved

    def free_hex(self, near) -> list:
        hexes = sorted(hx.board_hexes(self.state.width, self.state.height), key=lambda h: hx.distance(h, near))
        return list(next(h for h in hexes if self.state.is_free(h)))

    def write(self, folder: Path) -> Path:
        path = folder / f"{self.state.game}.rollcall.jsonl"
        path.write_text("".join(export_line(e.data) + "\n" for e in self.game.pending_events), encoding="utf-8")
        return path


def infantry(mid: str, player: str, at, **extra) -> dict:
    return {"id": mid, "player": player, "name": mid.title(), "size": "infantry", "at": [list(at)], "step": 3,
            "run": 5, **extra}


def shoves_game() -> Scribe:
    """Allied and enemy shoves with a re-rolled dodge, displacement (a large model dodges and stays),
    points, a model removed and its id placed again for the other player, d6 and attack re-rolls."""
    c1, c2, c3 = (6, 3), (8, 4), (3, 5)
    s = Scribe("pj-shoves", 16, 12,
               terrain=[{"id": "fire1", "kind": "burning_ground", "hexes": [list(hx.from_offset(12, 8))]}],
               models=[{"id": "warden", "player": "p1", "name": "Warden", "size": "large", "at": [list(c1)],
                        "step": 2, "run": 3, "agility": 1},
                       infantry("sw1", "p1", c2),
                       infantry("r1", "p2", hx.hexon_hexes(c2)[1], agility=2),
                       {"id": "faceless", "player": "p2", "name": "The Faceless", "size": "large",
                        "at": [list(c3)], "step": 1, "run": 2, "agility": 1},
                       infantry("r2", "p2", hx.from_offset(13, 9))])
    s.add("TurnStarted", turn=1)
    s.add("PhaseStarted", phase="activation")
    s.add("ActivationStarted", model="warden")
    s.move("warden", "step", [list(c2)], dodge={"r1": (["blank", "blank"], {1: "success"})})
    s.add("ActivationEnded", model="warden")
    s.add("PointsScored", player="p1", points=2, reason="objective held")
    s.add("ActivationStarted", model="faceless")
    s.add("ModelDisplaced", model="sw1", by="faceless", to=s.free_hex((12, 2)))
    dodge = s.roll("p1", "dodge", "agility", ["success"])
    s.add("ModelDisplaced", model="warden", by="faceless", to=[list(c2)], dodge=dodge)  # dodged: stays (R72)
    s.add("ActivationEnded", model="faceless")
    s.add("ModelRemoved", model="r1", reason="destroyed")
    s.add("PointsScored", player="p2", points=1, reason="first blood")
    s.add("TurnStarted", turn=2)
    s.add("ModelPlaced", model=infantry("r1", "p1", s.free_hex((1, 10))))
    s.add("PhaseStarted", phase="activation")
    s.add("ActivationStarted", model="r1")
    start = s.state.models["r1"].at[0]
    s.move("r1", "step", [s.free_hex(hx.neighbours(start)[0])])
    s.add("ActivationEnded", model="r1")
    s.roll("p2", "attack", "attack", ["crit", "blank"], {1: "success"})
    s.roll("p1", "other", "d6", [3, 5], {0: 6})
    s.add("PointsScored", player="p1", points=1, reason="late objective")
    s.add("GameEnded", score={"p1": 3, "p2": 1}, winner="p1", reason="turn limit")
    return s


def huge_game() -> Scribe:
    """A huge model destroys solid terrain passing through it (R53) and ending on it (R55), shoving."""
    start = [(6, 3), (8, 4)]
    step1 = [(5, 6), (7, 7)]   # hexon direction 1
    s = Scribe("pj-huge", 16, 12,
               terrain=[{"id": "rock1", "kind": "solid", "hexes": [[5, 6], [6, 6]]},
                        {"id": "rock2", "kind": "solid", "hexes": [[4, 9]]},
                        {"id": "bog1", "kind": "deadly_bog", "hexes": [[13, 2]]}],
               models=[{"id": "colossus", "player": "p1", "name": "Colossus", "size": "huge",
                        "at": [list(c) for c in start], "step": 2, "run": 3},
                       infantry("r1", "p2", (7, 7), agility=1),
                       infantry("r2", "p2", hx.from_offset(12, 10))])
    s.add("TurnStarted", turn=1)
    s.add("PhaseStarted", phase="activation")
    s.add("ActivationStarted", model="colossus")
    s.move("colossus", "step", [[list(c) for c in step1]], dodge={"r1": (["blank"], None)})
    s.move("colossus", "run", [[[4, 9], [6, 10]], [[2, 8], [4, 9]]])
    s.add("ActivationEnded", model="colossus")
    s.add("PointsScored", player="p1", points=5, reason="rocks")
    s.add("GameEnded", score={"p1": 5, "p2": 0}, winner="p1", reason="conceded")
    return s


def markers_game() -> Scribe:
    """Markers shoved (R67, R71), a portable one taken off the board (and taken again: nothing
    changes), a bound one taken by one model and then by another."""
    s = Scribe("pj-markers", 12, 10,
               models=[infantry("sword", "p1", (4, 2), agility=1),
                       infantry("guard", "p2", (2, 7), agility=1),
                       {"id": "faceless", "player": "p2", "name": "The Faceless", "size": "large", "at": [[5, 6]],
                        "step": 1, "run": 2, "agility": 1}],
               markers=[{"id": "k1", "kind": "portable", "at": [5, 2]}, {"id": "k2", "kind": "bound", "at": [9, 3]},
                        {"id": "k3", "kind": "portable", "at": [2, 8]}])
    s.add("TurnStarted", turn=1)
    s.add("PhaseStarted", phase="activation")
    s.add("ActivationStarted", model="sword")
    s.move("sword", "step", [[5, 2]])
    s.move("sword", "run", [[6, 2], [7, 2], [8, 2], [9, 2]])
    s.add("MarkerTaken", model="sword", marker="k2")
    s.add("ActivationEnded", model="sword")
    s.add("ActivationStarted", model="faceless")
    s.move("faceless", "step", [[8, 4]])
    s.add("ActivationEnded", model="faceless")
    s.add("ActivationStarted", model="guard")
    s.add("MarkerTaken", model="guard", marker="k3")
    s.add("MarkerTaken", model="guard", marker="k3")  # R69: it left the board; lenient, nothing changes
    s.add("ActivationEnded", model="guard")
    s.add("TurnStarted", turn=2)
    s.add("PhaseStarted", phase="activation")
    s.add("ActivationStarted", model="faceless")
    s.add("MarkerTaken", model="faceless", marker="k2")
    s.add("ActivationEnded", model="faceless")
    return s


def corrections_game() -> Scribe:
    """Mis-taps taken back (a step, then a shove with its dodge and ejection), a note kept, a judge's rewind
    to the middle of an activation, and play going on from each."""
    s = Scribe("pj-corrections", 12, 10,
               models=[infantry("sword", "p1", (4, 2), agility=1), infantry("guard", "p1", (8, 3), agility=1),
                       {"id": "faceless", "player": "p2", "name": "The Faceless", "size": "large", "at": [[5, 6]],
                        "step": 1, "run": 2, "agility": 1}])
    s.add("TurnStarted", turn=1)
    s.add("PhaseStarted", phase="activation")
    s.add("ActivationStarted", model="sword")
    wrong = s.move("sword", "step", [[5, 2]])
    s.add("TakenBack", **{"from": wrong["seq"]})
    s.move("sword", "step", [[4, 3]])
    s.add("ActivationEnded", model="sword")
    s.add("ActivationStarted", model="faceless")
    shove = s.move("faceless", "step", [[8, 4]], dodge={"guard": (["blank"], None)})
    s.add("Noted", text="the guard's player disagrees")
    s.add("TakenBack", **{"from": shove["seq"]})
    s.move("faceless", "step", [[3, 5]])
    s.add("ActivationEnded", model="faceless")
    rewind_to = s.state.seq
    s.add("ActivationStarted", model="guard")
    s.move("guard", "step", [[8, 2]])
    s.add("GameRewound", to=rewind_to, judge="Jules", text="the guard had activated already")
    s.add("TurnStarted", turn=2)
    return s


# --- the store --------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def projected(tmp_path_factory):
    """A store of every test game, projected in small batches; (app, read connection, game ids)."""
    data = tmp_path_factory.mktemp("data")
    records = tmp_path_factory.mktemp("records")
    app = Rollcall.open(data)
    files = [scribe().write(records) for scribe in (shoves_game, huge_game, markers_game, corrections_game)]
    files += sorted(GOLDEN.glob("*.rollcall.jsonl"))
    for seed in (3, 4):
        path = records / f"sim-{seed}.rollcall.jsonl"
        path.write_text("\n".join(record_lines(simulate_tornscape(seed, f"sim-{seed}"))) + "\n", encoding="utf-8")
        files.append(path)
    ids = []
    for path in files:
        with path.open(encoding="utf-8") as lines:
            ids.append(app.import_record(lines, str(path), lenient=True).game)
    assert Projector(data, app=app).run(batch_size=23) > 0
    con = connect_read(data)
    yield app, con, ids
    con.close()


def fold(app: Rollcall, game: str, seq: int) -> dict:
    return app.get_game(game, version=seq + 1).state.to_json()


def test_the_scripted_games_cover_the_state_changes(projected):
    app, con, ids = projected
    types = {e["type"] for g in ("pj-shoves", "pj-huge", "pj-markers", "pj-corrections") for e in game_events(con, g)}
    assert {"ModelMoved", "ModelEjected", "ModelDisplaced", "DiceRolled", "DieRerolled", "MarkerEjected",
            "MarkerTaken", "PointsScored", "ModelRemoved", "ModelPlaced", "GameEnded", "TakenBack",
            "GameRewound"} <= types
    moves = [e["payload"] for e in game_events(con, "pj-huge") if e["type"] == "ModelMoved"]
    assert [m["destroyed"] for m in moves] == [["rock1"], ["rock2"]]
    shoves = game_events(con, "pj-shoves")
    assert any(e["type"] == "ModelEjected" and e["payload"].get("dodged") for e in shoves)
    assert any(e["type"] == "ModelDisplaced" and e["payload"].get("dodged") for e in shoves)


def games_of(app: Rollcall, ids: list[str], kind: str) -> list[str]:
    def kind_of(game: str) -> str:
        if app.get_game(game).state.system != "tornscape":
            return "other systems"
        return "scripted" if game.startswith("pj-") else "simulated" if game.startswith("sim-") else "golden"
    return [g for g in ids if kind_of(g) == kind]


@pytest.mark.parametrize("kind", ["scripted", "golden", "simulated"])
def test_state_at_equals_the_domain_fold_at_every_seq(projected, kind):
    app, con, ids = projected
    games = games_of(app, ids, kind)
    assert games
    mismatches = []
    for game in games:
        last = app.get_game(game).state.seq
        for seq in range(last + 1):
            got, want = state_at(con, game, seq), fold(app, game, seq)
            assert set(got) == CONTRACT_KEYS
            assert got["last_seq"] == last
            for key in CONTRACT_KEYS - {"last_seq"}:
                if got[key] != want[key]:
                    mismatches.append(f"{game} seq {seq} {key}: projected {got[key]!r}, domain {want[key]!r}")
    assert not mismatches, "\n".join(mismatches[:10])


def test_games_of_other_systems_project_the_whole_state_the_domain_keeps(projected):
    """Golden records of other systems (The 9th Age, Claustrophobia): the whole state the domain keeps, and
    nothing of another system's."""
    app, con, ids = projected
    games = games_of(app, ids, "other systems")
    mismatches = []
    for game in games:
        for seq in range(app.get_game(game).state.seq + 1):
            got, want = state_at(con, game, seq), fold(app, game, seq)
            assert set(got) == set(want) | {"last_seq"}
            for key, value in want.items():  # magic pools and Flux cards, warriors and their lines too
                if got[key] != value:
                    mismatches.append(f"{game} seq {seq} {key}: projected {got[key]!r}, domain {value!r}")
    assert not mismatches, "\n".join(mismatches[:10])


def test_state_at_clamps_seq_and_defaults_to_the_last(projected):
    app, con, _ = projected
    last = app.get_game("pj-shoves").state.seq
    assert state_at(con, "pj-shoves") == state_at(con, "pj-shoves", last) == state_at(con, "pj-shoves", last + 50)
    assert state_at(con, "pj-shoves", -3) == state_at(con, "pj-shoves", 0)
    assert state_at(con, "pj-shoves", 0)["turn"] == 0 and state_at(con, "pj-shoves", 0)["phase"] is None
    with pytest.raises(GameNotFound):
        state_at(con, "no-such-game", 1)


def test_game_events_are_the_stored_lines(projected):
    app, con, ids = projected
    for game in ids:
        events = game_events(con, game)
        stored = app.stored_lines(game)[1:]
        assert [e["payload"] for e in events] == stored
        assert [e["seq"] for e in events] == list(range(1, len(stored) + 1))
        assert [e["violations"] for e in events] == [line.get("violations") for line in stored]
        assert turn_starts(con, game) == [(line["turn"], line["seq"]) for line in stored
                                          if line["type"] == "TurnStarted"]


def test_each_event_is_played_at_the_time_its_line_gives(projected):
    """fct_events.played_at is the line's `at` (what turn times count from); NULL where a line gives none."""
    app, con, ids = projected
    timed = 0
    for game in ids:
        found = dict(con.execute("SELECT seq, played_at FROM fct_events WHERE game = ?", [game]).fetchall())
        for line in app.stored_lines(game)[1:]:
            expected = datetime.fromisoformat(line["at"]) if "at" in line else None
            assert found[line["seq"]] == expected, (game, line["seq"])
            timed += expected is not None
    assert timed, "some of the games' lines give their time"


def test_turn_phase_and_player_of_each_event(projected):
    app, con, _ = projected
    events = {e["seq"]: e for e in game_events(con, "pj-shoves")}
    for seq, event in events.items():
        state = fold(app, "pj-shoves", seq)
        assert (event["turn"], event["phase"]) == (state["turn"], state["phase"])
    placed = next(e for e in events.values() if e["type"] == "ModelPlaced")
    removed = next(e for e in events.values() if e["type"] == "ModelRemoved")
    assert removed["player"] == "p2" and placed["player"] == "p1"  # r1 is placed again for p1
    moved_again = next(e for e in events.values() if e["type"] == "ModelMoved" and e["seq"] > placed["seq"])
    assert moved_again["player"] == "p1"


def test_list_games(projected):
    app, con, ids = projected
    games = {g["game"]: g for g in list_games(con)}
    assert set(games) == set(ids)
    shoves = games["pj-shoves"]
    assert shoves["last_seq"] == shoves["events"] == app.get_game("pj-shoves").state.seq
    assert (shoves["winner"], shoves["score"], shoves["ended"]) == ("p1", {"p1": 3, "p2": 1}, True)
    assert [p["id"] for p in shoves["players"]] == ["p1", "p2"]
    assert games["pj-markers"]["violations"] >= 1  # k3 taken twice (R69)


def test_rolls_are_the_domain_s_rolls(projected):
    """Faces after re-rolls, and the event that used each roll, as the domain keeps them."""
    app, con, ids = projected
    for game in ids:
        want = {seq: (r.player, r.purpose, r.die, r.faces, r.source, r.used_by)
                for seq, r in app.get_game(game).state.rolls.items()}
        rows = con.execute("SELECT seq, player, purpose, die, faces, source, used_by_seq FROM fct_rolls "
                           "WHERE game = $g", {"g": game}).fetchall()
        assert {seq: (p, u, d, json.loads(f), s, b) for seq, p, u, d, f, s, b in rows} == want, game


def test_rolls_and_dice_show_the_faces_after_re_rolls(projected):
    _, con, _ = projected
    rolls = con.execute("SELECT die, faces, used_by_seq FROM fct_rolls WHERE game = 'pj-shoves' "
                        "ORDER BY seq").fetchall()
    assert [(die, faces) for die, faces, _ in rolls] == [
        ("agility", '["blank","success"]'), ("agility", '["success"]'), ("attack", '["crit","success"]'),
        ("d6", "[6,5]")]
    assert rolls[0][2] is not None and rolls[1][2] is not None and rolls[2][2] is None
    dice = con.execute("SELECT original, final, rerolled FROM fct_dice WHERE game = 'pj-shoves' AND die = 'd6' "
                       "ORDER BY idx").fetchall()
    assert dice == [("3", "6", True), ("5", "5", False)]


def test_the_state_rows_are_the_domain_timeline_of_every_game(projected):
    """The changes the projector stored are those of domain.timeline (the packs' own apply), event by event."""
    from domain.timeline import state_changes as timeline
    from projections.queries import state_changes

    app, con, ids = projected
    for game in ids:
        lines = app.stored_lines(game)
        want = sorted(timeline(lines[0], lines[1:]), key=lambda c: (c[0], c[1], c[2]))
        assert state_changes(con, game) == want, game


def test_a_corrected_game_projects_as_played_and_as_ruled(projected):
    """Taken-back and rewound events: as played, the board shows them until the correction and then the state
    before them; as ruled, they never happened."""
    from domain.game import fold as fold_lines
    from domain.rulings import as_ruled

    app, con, ids = projected
    lines = app.stored_lines("pj-corrections")
    header, events = lines[0], lines[1:]
    taken = sorted({seq for e in events if e["type"] in ("TakenBack", "GameRewound") for seq in e["taken_back"]})
    assert len(taken) >= 6
    for seq in range(len(events) + 1):
        for ruled in (False, True):
            got = state_at(con, "pj-corrections", seq, as_ruled=ruled)
            kept = as_ruled(events) if ruled else events  # as ruled: without what the whole game took back
            want = fold_lines(header, [e for e in kept if e["seq"] <= seq]).to_json()
            for key in ("models", "turn", "phase", "activation", "pending"):
                assert got[key] == want[key], (seq, ruled, key)
    assert state_at(con, "pj-corrections", len(events), as_ruled=True)["voided"] == taken
    flagged = con.execute("SELECT seq FROM fct_events WHERE game = 'pj-corrections' AND taken_back ORDER BY seq")
    assert [r[0] for r in flagged.fetchall()] == taken
    def seqs(table: str) -> set[int]:
        return {r[0] for r in con.execute(f"SELECT seq FROM {table} WHERE game = 'pj-corrections'").fetchall()}

    moved = {e["seq"] for e in events if e["type"] == "ModelMoved"}
    assert seqs("fct_moves") == moved - set(taken) != set()
    assert {e["type"] for e in events if e["seq"] in taken} >= {"ModelEjected", "DiceRolled"}
    assert seqs("fct_ejections") == seqs("fct_rolls") == set()  # the one shove and its dodge roll were taken back
    assert con.execute("SELECT count(*) FROM fct_dice WHERE game = 'pj-corrections'").fetchone()[0] == 0


def test_each_model_is_listed_once_per_placing_whatever_the_batches_hold(tmp_path):
    data, records = tmp_path / "data", tmp_path / "records"
    records.mkdir()
    app = Rollcall.open(data)
    try:
        with shoves_game().write(records).open(encoding="utf-8") as lines:
            game = app.import_record(lines, "shoves", lenient=True).game
        header = app.get_game(game, version=1).state.header
    finally:
        app.close()
    Projector(data).run(batch_size=1)  # one event a batch: the ModelPlaced comes in a batch without a new game
    con = connect_read(data)
    try:
        placed = {(e["payload"]["model"]["id"], e["seq"]) for e in game_events(con, game) if e["type"] == "ModelPlaced"}
        listed = con.execute("SELECT model, placed_seq FROM dim_models WHERE game = ?", [game]).fetchall()
    finally:
        con.close()
    assert placed
    assert sorted(listed) == sorted({(m["id"], 0) for m in header["setup"]["models"]} | placed)
