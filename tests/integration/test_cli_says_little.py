"""The command line says a refusal in one short line, and the key's refusal first: a record or import with a
line of 20 MB is refused quoting at most an excerpt of it (never megabytes on stderr, never a traceback), and a
write without the right key is told about the key, not what the rules would say of it."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from domain.errors import EXCERPT, LONGEST, bounded, excerpt

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "tests" / "games" / "claustrophobia-seed003-sceptre-three-dice.rollcall.jsonl"
BIG = "x" * 20_000_000
SHORT = 1000  # characters of stderr at most for one refused file: the file's name, the line, the rule, an excerpt


def rollcall(data: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "ROLLCALL_DATA": str(data)}
    env.pop("ROLLCALL_KEY", None)
    return subprocess.run([sys.executable, "-m", "cli.main", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)


def lines() -> tuple[dict, list[dict]]:
    found = [json.loads(x) for x in GAME.read_text().splitlines() if x.strip() and not x.startswith("#")]
    strip = lambda d: {k: v for k, v in d.items() if k != "hash"}  # noqa: E731
    return strip(found[0]), [strip(e) for e in found[1:]]


def huge_records() -> dict[str, list[str]]:
    head, events = lines()
    return {
        "not JSON": [json.dumps(head), "{" + BIG],
        "event type": [json.dumps(head), json.dumps({"type": BIG, "seq": 1})],
        "field name": [json.dumps(head), json.dumps({**events[0], BIG[:5_000_000]: 1})],
        "system": [json.dumps({**head, "system": BIG})],
        "dice mode": [json.dumps({**head, "dice_mode": BIG})],
        "game id": [json.dumps({**head, "game": BIG})],
        "player's name": [json.dumps({**head, "players": [{**p, "name": BIG} for p in head["players"]]})],
        "turn": [json.dumps(head), json.dumps({**events[0], "turn": BIG})],
    }


def test_an_excerpt_is_short_and_on_one_line() -> None:
    assert excerpt("a\nb") == "a\\nb"
    assert len(excerpt(BIG)) == EXCERPT and excerpt(BIG).endswith("…")
    assert len(bounded(f"unknown field `{BIG}` and `{BIG[:100]}`")) < 2 * EXCERPT + 40
    assert len(bounded("word " * 1_000_000)) == LONGEST


def test_an_import_with_a_line_of_20_mb_is_refused_in_one_short_line(tmp_path: Path) -> None:
    for what, record in huge_records().items():
        path = tmp_path / f"{what.replace(' ', '-')}.rollcall.jsonl"
        path.write_text("\n".join(record) + "\n")
        done = rollcall(tmp_path / "data", "import", str(path))
        assert done.returncode == 1, (what, done.stdout[:200], done.stderr[:200])
        assert len(done.stderr) < SHORT and len(done.stdout) < SHORT, (what, len(done.stderr), done.stderr[:300])
        assert done.stderr.startswith(f"error: {path}:") and "Traceback" not in done.stderr, what
        assert done.stderr.count("\n") == 1, what


def test_a_recorded_event_of_100_kb_is_refused_in_one_short_line(tmp_path: Path) -> None:
    data = tmp_path / "data"
    assert rollcall(data, "import", str(GAME)).returncode == 0
    head, events = lines()
    for event in ({"type": "x" * 100_000}, {**events[0], "turn": "x" * 100_000}, {"type": "Noted", "y" * 100_000: 1}):
        done = rollcall(data, "record", head["game"], json.dumps(event))
        assert done.returncode == 1 and len(done.stderr) < SHORT, (len(done.stderr), done.stderr[:300])
        assert done.stderr.startswith("error: ") and done.stderr.count("\n") == 1


@pytest.fixture
def keyed(tmp_path: Path) -> tuple[Path, str, str]:
    """A store with the golden game, an organiser's key and a scorekeeper's."""
    from service.application import Rollcall

    data = tmp_path / "data"
    store = Rollcall.open(data)
    store.import_record(GAME.read_text().splitlines(), str(GAME))
    organiser = store.add_key("organiser", "Olga")
    store.key = organiser
    scorekeeper = store.add_key("scorekeeper", "Sam")
    store.close()
    return data, organiser, scorekeeper


def test_a_write_without_the_right_key_hears_of_the_key_before_the_rules(keyed: tuple[Path, str, str]) -> None:
    data, _, scorekeeper = keyed
    game = lines()[0]["game"]
    bad_ruling = json.dumps({"type": "RulingMade", "judge": "J", "about": [999], "decision": "void", "text": "x"})
    bad_event = json.dumps({"type": "TurnStarted", "turn": 99})
    for args, said in (
            (("record", game, bad_ruling), "needs a key"),
            (("record", game, bad_ruling, "--key", scorekeeper), "a ruling needs a judge key"),
            (("record", game, bad_event), "needs a key"),
            (("dispute", "rule", game, "--about", "999", "--judge", "J", "--decision", "void", "--text", "x"), "needs a key"),
            (("tournament", "pair", "Nowhere", "--round", "1"), "needs a key"),
            (("tournament", "pair", "Nowhere", "--round", "1", "--key", scorekeeper), "needs an organiser key"),
            (("tournament", "create", "Somewhere", "--system", "nonsense"), "needs a key")):
        done = rollcall(data, *args)
        assert done.returncode == 1, (args, done.stderr)
        assert said in done.stderr, (args, done.stderr)
        assert not re.search(r"\b(F02|999|Nowhere|nonsense)\b", done.stderr), (args, done.stderr)
