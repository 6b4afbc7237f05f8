"""A whole tournament written into a folder (`rollcall tournament export NAME -o DIR`: its own events and every
game's record) and brought into a fresh store (`rollcall tournament import DIR`) is the same tournament: the same
players, check-ins, drops, byes, pairings (re-pairings and the games they withdrew), delay, games to the hash,
standings. Records edited by hand come in with --edited; a changed one with its hashes, or one that breaks a rule,
is refused naming the file, the line and why, and nothing of it is stored."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app
from service.application import Rollcall

NAME = "Spring Open"
LIST = (b"First Name,Last Name,Email,Army,Team,Checked In\n"
        b"Anna,Lind,a@e.invalid,orcs,North,yes\nBoris,Brandt,b@e.invalid,sylvan,North,yes\n"
        b"Chiara,Costa,c@e.invalid,orcs,South,yes\nDmitri,Dietz,d@e.invalid,sylvan,South,yes\n"
        b"Elif,Eriksen,e@e.invalid,orcs,,yes\nFrank,Fox,f@e.invalid,sylvan,,no\n")


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("ROLLCALL_KEY", raising=False)
    runner = CliRunner()

    def run(data: Path, *args: str, key: str | None = None, ok: bool = True):
        result = runner.invoke(app, [*args, "--data", str(data), *(["--key", key] if key else [])])
        if ok:
            assert result.exit_code == 0, result.output
        assert "Traceback" not in result.output
        return result

    return run


def played(data: Path, tmp_path: Path) -> None:
    """A tournament run in Rollcall: a list with check-ins, a drop, a bye awarded, round 1 paired twice (its first
    pairing's games withdrawn), its results (one ended at time), round 2 paired and a game of it under way, a delay."""
    store = Rollcall.open(data)
    try:
        from domain.player_lists import read_player_list

        store.create_tournament(NAME, "tornscape", rounds=3, notes="at the club", points={"win": 2, "bye": 2})
        store.register_players(NAME, read_player_list(LIST, "bcp.csv").entries)
        store.drop_player(NAME, "Frank Fox")
        store.pair_round(NAME, 1, seed=1)
        paired = store.pair_round(NAME, 1, seed=2)
        assert paired["withdrawn"], "the first pairing's games are withdrawn"
        first = paired["tables"][0]["game"]
        store.record(first, {"type": "TurnStarted", "turn": 1})
        store.record(first, {"type": "PhaseStarted", "phase": "activation"})
        for table in paired["tables"]:
            store.enter_result(NAME, 1, table["table"], {"p1": 3, "p2": 1})
        store.award_bye(NAME, 2, "Elif Eriksen", "orcs")
        second = store.pair_round(NAME, 2, seed=3)["tables"][0]["game"]
        store.record(second, {"type": "TurnStarted", "turn": 1})
        store.set_broadcast_delay(NAME, 600)
    finally:
        store.close()


def state_of(data: Path) -> tuple:
    store = Rollcall.open(data)
    try:
        t = store.tournament(NAME)
        games = {g: store.stored_lines(g) for g in store.tournament_game_ids(NAME)}
        return (t.data, t.players, t.rounds, t.byes, t.withdrawn, t.broadcast_delay, t.version), games
    finally:
        store.close()


def test_a_tournament_exported_and_imported_into_a_fresh_store_is_the_same_tournament(cli, tmp_path: Path) -> None:
    source, target, folder = tmp_path / "venue", tmp_path / "home", tmp_path / "spring-open"
    played(source, tmp_path)
    organiser = cli(source, "keys", "add", "organiser", "Olga").output.strip().splitlines()[-1]
    said = cli(source, "tournament", "export", NAME, "-o", str(folder), key=organiser).output
    assert f"wrote {folder}: Spring Open (7 events) and 6 games" in said, said
    assert sorted(p.name for p in folder.iterdir()) == [
        "spring-open-r1-t1-p2.rollcall.jsonl", "spring-open-r1-t1.rollcall.jsonl", "spring-open-r1-t2-p2.rollcall.jsonl",
        "spring-open-r1-t2.rollcall.jsonl", "spring-open-r2-t1.rollcall.jsonl", "spring-open-r2-t2.rollcall.jsonl",
        "spring-open.tournament.jsonl"], "the withdrawn games too"
    brought = cli(target, "tournament", "import", str(folder)).output
    assert "brought in tournament Spring Open (tornscape): 7 events" in brought
    assert brought.count("imported spring-open-") == 6
    (tournament, games), (again, games_again) = state_of(source), state_of(target)
    assert again == tournament, "players, check-ins, drops, byes, pairings, withdrawn games, delay: the same"
    assert games_again == games, "every game's record, to its hashes"
    home = cli(target, "keys", "add", "organiser", "Olga").output.strip().splitlines()[-1]  # (past the delay)
    standings = [json.loads(cli(data, "tournament", "standings", NAME, "--json", key=k).stdout)
                 for data, k in ((source, organiser), (target, home))]
    assert standings[0] == standings[1] and standings[0]
    heads = [cli(data, "heads").stdout for data in (source, target)]
    assert heads[0] == heads[1]


def test_a_tournament_already_here_is_refused_and_nothing_of_the_folder_is_stored(cli, tmp_path: Path) -> None:
    source, folder = tmp_path / "venue", tmp_path / "out"
    played(source, tmp_path)
    cli(source, "tournament", "export", NAME, "-o", str(folder))
    before = state_of(source)
    refused = cli(source, "tournament", "import", str(folder), ok=False)
    assert refused.exit_code == 1 and "tournament 'Spring Open' already exists here (tornscape)" in refused.output
    assert state_of(source) == before


def edited(folder: Path, change) -> Path:
    path = folder / "spring-open.tournament.jsonl"
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    change(lines)
    path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")
    return path


def test_a_tournament_record_changed_after_export_is_refused_saying_how_an_edited_one_comes_in(cli, tmp_path) -> None:
    source, folder, target = tmp_path / "venue", tmp_path / "out", tmp_path / "home"
    played(source, tmp_path)
    cli(source, "tournament", "export", NAME, "-o", str(folder))

    def rename(lines):
        lines[0]["notes"] = "at the town hall"
    path = edited(folder, rename)
    refused = cli(target, "tournament", "import", str(folder), ok=False).output
    assert f"{path}:1: `hash` does not match the line: the record was changed after it was written. A record edited " \
           "by hand is taken without its hashes" in refused and "--edited" in refused
    assert "brought in" not in refused
    brought = cli(target, "tournament", "import", str(folder), "--edited").output
    assert "brought in tournament Spring Open" in brought
    store = Rollcall.open(target)
    try:
        assert store.tournament(NAME).data["notes"] == "at the town hall"
    finally:
        store.close()


@pytest.mark.parametrize("change, error", [
    (lambda lines: lines.insert(2, {**lines[1], "seq": 2}), r":3: .*Anna Lind is already registered"),
    (lambda lines: lines[1].update(type="PlayerTeleported"), r":2: unknown tournament event type `PlayerTeleported`"),
    (lambda lines: lines[1]["players"][0].update(player="Anna\u202eLind"), r":2: field `player` holds a text-direction"),
    (lambda lines: [l for l in lines if l.get("type") == "RoundPaired"][1].update(pairing=1),
     r":5: field `pairing`: the line says 1, the event it makes says 2"),
    (lambda lines: [l for l in lines if l.get("type") == "RoundPaired"][2].update(round=1),
     r":7: field `pairing`: the line says 1, the event it makes says 3"),  # (round 1 paired a third time)
    (lambda lines: next(l for l in lines if l.get("type") == "PlayerDropped").update(player="Nobody"),
     r":3: Nobody is not registered in Spring Open"),
])
def test_a_tournament_record_that_breaks_a_rule_is_refused_naming_the_line(cli, tmp_path: Path, change,
                                                                           error: str) -> None:
    import re

    source, folder, target = tmp_path / "venue", tmp_path / "out", tmp_path / "home"
    played(source, tmp_path)
    cli(source, "tournament", "export", NAME, "-o", str(folder))
    edited(folder, change)
    refused = cli(target, "tournament", "import", str(folder), "--edited", ok=False)
    assert refused.exit_code == 1 and re.search(error, refused.output), refused.output
    assert "no tournaments yet" in cli(target, "tournament", "list").output


def test_without_a_key_a_delayed_tournaments_games_are_written_up_to_the_delay(cli, tmp_path: Path) -> None:
    source, folder = tmp_path / "venue", tmp_path / "out"
    played(source, tmp_path)
    cli(source, "keys", "add", "organiser", "Olga")
    said = cli(source, "tournament", "export", NAME, "-o", str(folder))
    assert "note: 6 games are broadcast with a delay" in said.output
    lines = (folder / "spring-open-r2-t1.rollcall.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1, "the game's events are within the delay: its header alone"
