"""Digital dice and draws (FORMAT.md, "Randomness"), checked by an implementation of the format's text
written here from hmac/hashlib alone (``domain.randomness`` is deliberately not imported): a game is
played through ``app.roll`` / ``app.draw_card`` and ended with a ``GameEnded``; its export is
recomputed roll by roll and draw by draw from the revealed seed; a record with an edited digital face
(its hash chain recomputed so that only the dice betray it) is refused, or marked and found by
``verify``; and the ``rollcall roll`` / ``rollcall draw`` commands record what they print."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app as cli
from service.application import Rollcall
from domain.errors import RecordError, RollcallError, RuleViolation
from domain.systems import system_for
from domain.systems.tornscape.presentation import phenomenon_name

GAME = "digital-1"
PLAYERS = [{"id": "p1", "name": "Torgvar", "faction": "engeln"}, {"id": "p2", "name": "Otraax", "faction": "castilla"}]
#: the deck in a non-default order: a digital draw picks among the cards left in THIS order
DECK = ["deep_root", "glass_shard", "echo_chamber", "bog_weight", "comet_trail", "ash_whisper", "mirror_mask",
        "iron_chain", "wild_bloom", "void_peel", "arc_split", "tide_pull", "stone_maw", "frost_ring", "ember_spiral",
        "air_vortex"]
DEFAULT_DICE = {"attack": {"crit": 1, "success": 3, "blank": 2}, "agility": {"crit": 1, "success": 2, "blank": 3}}


# --- FORMAT.md "Randomness", written from its text ------------------------------------------------------

def byte_stream(seed: bytes, game: str, seq: int) -> Iterator[int]:
    """HMAC-SHA256(key = seed bytes, message = "<game>/<seq>/<block>") for block = 0, 1, …, byte by byte."""
    block = 0
    while True:
        yield from hmac.new(seed, f"{game}/{seq}/{block}".encode("utf-8"), hashlib.sha256).digest()
        block += 1


def pick(stream: Iterator[int], options: list):
    """A byte b is rejected while b >= 256 - 256 % n, else it picks options[b % n]."""
    n = len(options)
    for b in stream:
        if b < 256 - 256 % n:
            return options[b % n]
    raise AssertionError("unreachable")


def face_list(die: dict[str, int]) -> list:
    """Each face listed as often as the die shows it, in the order of the die's data."""
    return [face for face, count in die.items() for _ in range(count)]


def expected_faces(seed: bytes, game: str, seq: int, die: dict[str, int], count: int) -> list:
    stream = byte_stream(seed, game, seq)  # the dice of one roll take bytes in turn from one stream
    return [pick(stream, face_list(die)) for _ in range(count)]


def recompute(lines: list[dict]) -> tuple[list[str], int, int]:
    """Every digital roll and draw of an exported game against its revealed seed: (mismatches, rolls, draws)."""
    header = lines[0]
    ended = [e for e in lines[1:] if e["type"] == "GameEnded"]
    assert len(ended) == 1
    seed_hex = ended[0]["seed"]
    assert re.fullmatch(r"[0-9a-f]{64}", seed_hex)
    seed = bytes.fromhex(seed_hex)
    assert hashlib.sha256(seed).hexdigest() == header["commit"]
    dice = header["rules"]["dice"]
    deck = header["setup"]["phenomena_deck"]
    out_of_deck: list[str] = []  # cards drawn and not yet shuffled back
    wrong, rolls, draws = [], 0, 0
    for event in lines[1:]:
        if event["type"] == "DiceRolled" and event.get("source") == "digital":
            rolls += 1
            want = expected_faces(seed, header["game"], event["seq"], dice[event["die"]], len(event["faces"]))
            if event["faces"] != want:
                wrong.append(f"roll {event['seq']}: {event['faces']} != {want}")
        if event["type"] == "PhenomenonDrawn":
            if event.get("source") == "digital":
                draws += 1
                left = [card for card in deck if card not in out_of_deck]
                want = pick(byte_stream(seed, header["game"], event["seq"]), left)
                if event["card"] != want:
                    wrong.append(f"draw {event['seq']}: {event['card']} != {want}")
            out_of_deck.append(event["card"])
            if event["shuffled"]:
                out_of_deck = []
    return wrong, rolls, draws


# --- the hash chain (FORMAT.md "Integrity"), to re-seal an edited record ---------------------------------

def canonical(obj: dict) -> str:
    return json.dumps({k: v for k, v in obj.items() if k != "hash"}, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False)


def reseal(lines: list[dict]) -> list[str]:
    """The lines with every hash recomputed, so the chain holds whatever was edited."""
    out, previous = [], ""
    for i, obj in enumerate(lines):
        obj = dict(obj)
        obj["hash"] = hashlib.sha256(((previous if i else "") + canonical(obj)).encode("utf-8")).hexdigest()
        previous = obj["hash"]
        out.append(json.dumps(obj, ensure_ascii=False))
    return out


# --- a digital game played through the application service -------------------------------------------

def digital_header(game: str = GAME, rules: dict | None = None) -> dict:
    return {"rollcall": 1, "system": "tornscape", "game": game, "players": PLAYERS, "dice_mode": "digital",
            "rules": rules or {},
            "setup": {"board": {"width": 14, "height": 12}, "phenomena_deck": DECK,
                      "vortices": [{"id": "v1", "at": [5, 6], "facing": 0, "ether": 3}],
                      "models": [{"id": "swordsman", "player": "p1", "name": "Engeln Swordsman", "size": "infantry",
                                  "at": [[7, 6]], "step": 3, "run": 5, "agility": 1, "explore": 2,
                                  "domains": ["creation"]},
                                 {"id": "rogue", "player": "p2", "name": "Castilla Rogue", "size": "infantry",
                                  "at": [[6, 7]], "step": 3, "run": 5, "agility": 2, "explore": 1,
                                  "domains": ["destruction"]}]}}


def exported(app: Rollcall, game: str = GAME) -> list[dict]:
    return [json.loads(text) for text in app.export_lines(game)]


def draw_all(app: Rollcall, game: str) -> list[dict]:
    drawn = []
    while app.get_game(game).state.draws:
        drawn.append(app.draw_card(game))
    return drawn


def activation(app: Rollcall, game: str, model: str, player: str, opponent: str) -> None:
    app.record(game, {"type": "ActivationStarted", "model": model})
    if app.get_game(game).state.vortices["v1"].allegiance is None:
        stab = app.roll(game, opponent, "stabilisation", "attack", 1)
        app.record(game, {"type": "VortexStabilised", "vortex": "v1", "model": model, "roll": stab["seq"]})
    dice = app.get_game(game).state.models[model].explore
    explore = app.roll(game, player, "explore", "attack", dice)
    app.record(game, {"type": "VortexExplored", "vortex": "v1", "model": model, "roll": explore["seq"]})
    draw_all(app, game)
    app.record(game, {"type": "ActivationEnded", "model": model})


def play(app: Rollcall, game: str = GAME, rules: dict | None = None) -> dict:
    """A digital game: both models explore v1 with digital dice and draws, a spare attack roll and an
    agility roll, Phase V, the end. Returns the seqs of the spare rolls."""
    app.import_record([json.dumps(digital_header(game, rules))], "header")
    app.record(game, {"type": "TurnStarted", "turn": 1})
    app.record(game, {"type": "PhaseStarted", "phase": "activation"})
    activation(app, game, "swordsman", "p1", "p2")
    spare = app.roll(game, "p1", "attack", "attack", 3)["seq"]  # nothing uses it: a face may be edited
    agility = app.roll(game, "p2", "other", "agility", 4)["seq"]
    activation(app, game, "rogue", "p2", "p1")
    if not app.get_game(game).state.vortices["v1"].removed:
        app.record(game, {"type": "PhaseStarted", "phase": "vortex_movement"})
        move = app.roll(game, "p1", "vortex_move", "attack", 2)  # p1 finished activating first
        app.record(game, {"type": "VortexMoved", "vortex": "v1", "roll": move["seq"]})
    return {"spare": spare, "agility": agility}


@pytest.fixture
def store(tmp_path: Path) -> Rollcall:
    return Rollcall.open(tmp_path / "data")


@pytest.fixture
def played(store: Rollcall) -> tuple[Rollcall, dict, list[dict]]:
    """A finished digital game and its export."""
    seqs = play(store)
    before = "\n".join(store.export_lines(GAME))
    secret = store.secret_seed(GAME)
    assert secret is not None and secret.hex() not in before  # the seed stays secret until the end
    assert "GameEnded" not in before and store.verify(GAME).ok
    store.record(GAME, {"type": "GameEnded", "score": {"p1": 1, "p2": 0}, "winner": "p1", "reason": "turn limit"})
    return store, seqs, exported(store)


# --- the game recomputed --------------------------------------------------------------------------------------

def test_every_digital_roll_and_draw_is_the_one_of_the_revealed_seed(played) -> None:
    store, _, lines = played
    wrong, rolls, draws = recompute(lines)
    assert wrong == []
    events = lines[1:]
    assert rolls == sum(1 for e in events if e["type"] == "DiceRolled") >= 5  # 2 explores, 2 spare, 1+ stabilisation
    assert draws == sum(1 for e in events if e["type"] == "PhenomenonDrawn") >= 2
    assert all(e.get("source") == "digital" for e in events if e["type"] in ("DiceRolled", "PhenomenonDrawn"))
    assert store.verify(GAME).ok


def test_the_commit_is_the_sha256_of_the_revealed_seed(played) -> None:
    store, _, lines = played
    header, end = lines[0], lines[-1]
    assert end["type"] == "GameEnded" and re.fullmatch(r"[0-9a-f]{64}", end["seed"])
    assert re.fullmatch(r"[0-9a-f]{64}", header["commit"])
    assert header["commit"] == hashlib.sha256(bytes.fromhex(end["seed"])).hexdigest()
    assert bytes.fromhex(end["seed"]) == store.secret_seed(GAME)


def test_the_export_carries_the_dice_in_force_in_data_order(played) -> None:
    _, _, lines = played
    dice = lines[0]["rules"]["dice"]
    assert dice == DEFAULT_DICE
    assert [list(d) for d in dice.values()] == [["crit", "success", "blank"], ["crit", "success", "blank"]]


def test_dice_overridden_by_the_header_are_the_ones_rolled_and_exported(store: Rollcall) -> None:
    loaded = {"crit": 4, "blank": 1, "success": 1}  # a tournament's own attack die
    play(store, rules={"dice": {"attack": loaded}})
    store.record(GAME, {"type": "GameEnded", "score": {"p1": 0, "p2": 0}, "winner": None, "reason": "time"})
    lines = exported(store)
    attack = lines[0]["rules"]["dice"]["attack"]
    assert attack == loaded and lines[0]["rules"]["dice"]["agility"] == DEFAULT_DICE["agility"]
    assert recompute(lines)[0] == []  # in the order the export gives (the merged data's order)
    with_defaults = {**lines[0], "rules": {"dice": DEFAULT_DICE}}
    assert recompute([with_defaults, *lines[1:]])[0] != []  # the override really was rolled


def test_an_exported_digital_game_imports_elsewhere_and_verifies(played, tmp_path: Path) -> None:
    store, _, lines = played
    text = list(store.export_lines(GAME))
    other = Rollcall.open(tmp_path / "elsewhere")
    imported = other.import_record(text, "digital.rollcall.jsonl")
    assert (imported.game, imported.violations) == (GAME, 0)
    assert list(other.export_lines(GAME)) == text
    assert other.verify(GAME).ok
    assert other.secret_seed(GAME) is None  # the other store never held the secret: it checks the revealed one
    assert recompute(exported(other))[0] == []


# --- an edited digital face ---------------------------------------------------------------------------------

def edited(lines: list[dict], seq: int) -> list[str]:
    """The export with one face of the digital roll at ``seq`` changed, every hash recomputed."""
    lines = [dict(e) for e in lines]
    roll = lines[seq]
    assert roll["type"] == "DiceRolled" and roll["source"] == "digital"
    faces = list(roll["faces"])
    faces[0] = "blank" if faces[0] != "blank" else "crit"
    lines[seq] = {**roll, "faces": faces}
    return reseal(lines)


def test_the_resealed_record_holds_its_chain_but_not_its_dice(played) -> None:
    _, seqs, lines = played
    resealed = [json.loads(text) for text in edited(lines, seqs["spare"])]
    assert [e["hash"] for e in resealed[: seqs["spare"]]] == [e["hash"] for e in lines[: seqs["spare"]]]
    assert resealed[seqs["spare"]]["hash"] != lines[seqs["spare"]]["hash"]
    wrong, _, _ = recompute(resealed)
    assert len(wrong) == 1 and wrong[0].startswith(f"roll {seqs['spare']}:")


@pytest.mark.parametrize("which", ["spare", "agility"])
def test_an_edited_digital_face_is_refused_at_game_ended_F07(played, tmp_path: Path, which: str) -> None:
    _, seqs, lines = played
    seq = seqs[which]
    tampered = edited(lines, seq)
    other = Rollcall.open(tmp_path / "elsewhere")
    with pytest.raises(RecordError) as info:
        other.import_record(tampered, "tampered.rollcall.jsonl")
    end_line = len(tampered)  # GameEnded is the last line
    assert str(info.value).startswith(f"tampered.rollcall.jsonl:{end_line} (GameEnded): F07 ")
    assert info.value.cause.rule == "F07" and f"digital roll {seq} " in str(info.value)
    assert other.exists(GAME) is False


def test_an_edited_digital_face_stored_leniently_is_reported_by_verify(played, tmp_path: Path) -> None:
    _, seqs, lines = played
    other = Rollcall.open(tmp_path / "elsewhere")
    imported = other.import_record(edited(lines, seqs["spare"]), "tampered.rollcall.jsonl", lenient=True)
    assert imported.violations == 1
    stored = other.stored_lines(GAME)
    assert [v["rule"] for v in stored[-1]["violations"]] == ["F07"]
    assert all("violations" not in s for s in stored[:-1])
    result = other.verify(GAME)
    assert not result.ok
    assert (result.damage.seq, result.damage.kind) == (seqs["spare"], "changed")
    assert "digital" in result.damage.detail and f"roll {seqs['spare']}" in result.damage.detail


def test_an_edited_digital_draw_is_refused_F07(played, tmp_path: Path) -> None:
    _, _, lines = played
    lines = [dict(e) for e in lines]
    last = max(i for i, e in enumerate(lines) if e.get("type") == "PhenomenonDrawn" and e["shuffled"])
    cell = {lines[i]["card"] for i in range(1, last + 1) if lines[i]["type"] == "PhenomenonDrawn"
            and lines[i]["model"] == lines[last]["model"] and lines[i]["trigger"] == lines[last]["trigger"]}
    lines[last]["card"] = next(card for card in DECK if card not in cell)
    other = Rollcall.open(tmp_path / "elsewhere")
    with pytest.raises(RecordError) as info:
        other.import_record(reseal(lines), "tampered.rollcall.jsonl")
    assert info.value.cause.rule == "F07" and f"digital draw {last} " in str(info.value)


# --- entering digital dice by hand ----------------------------------------------------------------------------

def hand_entered(store: Rollcall, faces: list[str]) -> RuleViolation:
    with pytest.raises(RuleViolation) as info:
        store.record(GAME, {"type": "DiceRolled", "player": "p1", "purpose": "attack", "die": "attack",
                            "faces": faces, "source": "digital"})
    return info.value


def test_a_hand_entered_digital_roll_is_refused_right_or_wrong_and_tells_no_face_F07(store: Rollcall) -> None:
    store.import_record([json.dumps(digital_header())], "header")
    store.record(GAME, {"type": "TurnStarted", "turn": 1})
    right = expected_faces(store.secret_seed(GAME), GAME, 2, DEFAULT_DICE["attack"], 3)
    wrong = ["blank" if f != "blank" else "success" for f in right]
    before = list(store.export_lines(GAME))
    refusals = [hand_entered(store, faces) for faces in (right, wrong)]
    assert [r.rule for r in refusals] == ["F07", "F07"]
    assert refusals[0].message == refusals[1].message  # the refusal says nothing of what the seed gives
    assert not any(face in refusals[0].message for face in ("crit", "success", "blank"))
    assert list(store.export_lines(GAME)) == before
    rolled = store.roll(GAME, "p1", "attack", "attack", 3)
    assert rolled["seq"] == 2 and rolled["faces"] == right


@pytest.mark.parametrize("event", [
    {"type": "DieRerolled", "roll": 2, "index": 0, "face": "crit", "player": "p1", "source": "digital"},
    {"type": "PhenomenonDrawn", "card": DECK[0], "effect": "positive", "source": "digital"}])
def test_a_hand_entered_digital_re_roll_or_draw_is_refused_F07(store: Rollcall, event: dict) -> None:
    store.import_record([json.dumps(digital_header())], "header")
    store.record(GAME, {"type": "TurnStarted", "turn": 1})
    store.roll(GAME, "p1", "attack", "attack", 1)
    with pytest.raises(RuleViolation) as info:
        store.record(GAME, event)
    assert info.value.rule == "F07" and "never entered by hand" in info.value.message


def test_digital_dice_need_a_digital_game(store: Rollcall) -> None:
    header = digital_header()
    header["dice_mode"] = "physical"
    store.import_record([json.dumps(header)], "header")
    with pytest.raises(RollcallError, match="no digital dice"):
        store.roll(GAME, "p1", "attack", "attack", 1)


# --- the command line -----------------------------------------------------------------------------------------

@pytest.fixture
def run(tmp_data: Path):
    runner = CliRunner()

    def invoke(*args: str):
        result = runner.invoke(cli, [*args, "--data", str(tmp_data)])
        return result

    return invoke


def test_cli_roll_and_draw_print_and_record_the_seeds_faces_and_card(run, tmp_data: Path, tmp_path: Path) -> None:
    path = tmp_path / "digital.rollcall.jsonl"
    path.write_text(json.dumps(digital_header("cli-1")) + "\n", encoding="utf-8")
    assert run("import", str(path)).exit_code == 0
    for event in ({"type": "TurnStarted", "turn": 1}, {"type": "PhaseStarted", "phase": "activation"},
                  {"type": "ActivationStarted", "model": "swordsman"}):
        assert run("record", "cli-1", json.dumps(event)).exit_code == 0
    stab = run("roll", "cli-1", "--player", "p2", "--purpose", "stabilisation", "--die", "attack", "--count", "1")
    assert stab.exit_code == 0, stab.output
    assert run("record", "cli-1", json.dumps({"type": "VortexStabilised", "vortex": "v1", "model": "swordsman",
                                              "roll": 4})).exit_code == 0

    result = run("roll", "cli-1", "--player", "p1", "--purpose", "explore", "--die", "attack", "--count", "2")
    assert result.exit_code == 0, result.output
    match = re.fullmatch(r"seq (\d+): Torgvar rolls 2 attack: (\w+) (\w+)\n", result.output)  # p1 by name
    assert match, result.output
    seq, faces = int(match[1]), [match[2], match[3]]
    store = Rollcall.open(tmp_data)
    seed = store.secret_seed("cli-1")
    assert faces == expected_faces(seed, "cli-1", seq, DEFAULT_DICE["attack"], 2)
    stored = store.stored_lines("cli-1")[seq]
    assert (stored["type"], stored["player"], stored["purpose"], stored["faces"], stored["source"]) == (
        "DiceRolled", "p1", "explore", faces, "digital")

    assert run("record", "cli-1", json.dumps({"type": "VortexExplored", "vortex": "v1", "model": "swordsman",
                                              "roll": seq})).exit_code == 0
    drawn = run("draw", "cli-1")
    assert drawn.exit_code == 0, drawn.output
    match = re.match(r"seq (\d+): ", drawn.output)
    assert match, drawn.output
    seq = int(match[1])
    stored = Rollcall.open(tmp_data).stored_lines("cli-1")[seq]
    assert stored["card"] == pick(byte_stream(seed, "cli-1", seq), DECK)  # the first card of the game: the whole deck
    assert (stored["type"], stored["source"]) == ("PhenomenonDrawn", "digital")
    assert stored["type"] in system_for("tornscape").draw_events  # the Record page offers its Draw button
    presentation = system_for("tornscape").presentation
    names = presentation.names(digital_header("cli-1"))
    assert drawn.output == f"seq {seq}: {presentation.summary(stored, names=names)}\n"
    assert "swordsman" not in drawn.output and "Engeln Swordsman" in drawn.output
    assert phenomenon_name(stored["card"]) in drawn.output and f"({stored['effect']})" in drawn.output


def test_cli_record_of_a_guessed_digital_roll_tells_nothing_of_the_seed_F07(run, tmp_data: Path,
                                                                            tmp_path: Path) -> None:
    path = tmp_path / "digital.rollcall.jsonl"
    path.write_text(json.dumps(digital_header("cli-3")) + "\n", encoding="utf-8")
    assert run("import", str(path)).exit_code == 0
    assert run("record", "cli-3", json.dumps({"type": "TurnStarted", "turn": 1})).exit_code == 0
    outputs = set()
    for face in sorted(set(DEFAULT_DICE["attack"])):
        result = run("record", "cli-3", json.dumps({"type": "DiceRolled", "player": "p1", "purpose": "attack",
                                                    "die": "attack", "faces": [face], "source": "digital"}))
        assert result.exit_code == 1 and result.output.startswith("error: cli-3 (DiceRolled): F07 ")
        outputs.add(result.output)
    assert len(outputs) == 1  # every guess, the right one among them, is told the same
    assert len(Rollcall.open(tmp_data).stored_lines("cli-3")) == 2


def test_cli_roll_in_a_physical_game_is_an_error(run, tmp_path: Path) -> None:
    header = digital_header("cli-2")
    header["dice_mode"] = "physical"
    path = tmp_path / "physical.rollcall.jsonl"
    path.write_text(json.dumps(header) + "\n", encoding="utf-8")
    assert run("import", str(path)).exit_code == 0
    result = run("roll", "cli-2", "--player", "p1", "--purpose", "attack", "--die", "attack")
    assert result.exit_code == 1 and "no digital dice" in result.output and "Traceback" not in result.output


def test_digital_flux_cards_are_the_seeds_picks_among_the_active_players_cards_left(store: Rollcall) -> None:
    header = {"rollcall": 1, "system": "t9a", "game": "flux-digital", "dice_mode": "digital",
              "players": [{"id": "p1"}, {"id": "p2"}],
              "setup": {"spells": [{"id": "s1", "kind": "normal", "casting_value": 5}],
                        "wizards": [{"id": "w1", "player": "p1", "spells": ["s1"]}]}}
    store.write(header=header)
    drawn = []
    for turn, active in enumerate(("p1", "p1", "p2"), start=1):
        store.record("flux-digital", {"type": "TurnStarted", "turn": turn})
        store.record("flux-digital", {"type": "MagicPhaseStarted", "active": active})
        drawn.append(store.draw_card("flux-digital"))
        store.record("flux-digital", {"type": "VeilSiphoned", "converted_dice": 0})
        store.record("flux-digital", {"type": "MagicPhaseEnded"})
    store.record("flux-digital", {"type": "GameEnded", "score": {"p1": 0, "p2": 0}, "winner": None, "reason": "test"})
    lines = exported(store, "flux-digital")
    seed = bytes.fromhex(lines[-1]["seed"])
    left = {"p1": [str(n) for n in range(1, 9)], "p2": [str(n) for n in range(1, 9)]}
    for event, active in zip(drawn, ("p1", "p1", "p2")):
        assert event["source"] == "digital" and event["type"] in system_for("t9a").draw_events
        expected = pick(byte_stream(seed, "flux-digital", event["seq"]), left[active])
        assert event["card"] == expected
        left[active].remove(expected)
    assert drawn[0]["card"] != drawn[1]["card"]  # p1's first card is gone from the deck (R83)
    assert store.verify("flux-digital").ok
