"""The command line takes ``--data``, ``--key`` and ``--lang`` before the command or after it; ``tournament cards``
takes a key; the names in its tables are printed as they are (rich's markup is never read in them)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app

ROLLCALL = Path(sys.executable).parent / "rollcall"  # the program the package installs (cli.entry)


@pytest.fixture
def organiser(tmp_data: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    from service.application import Rollcall

    monkeypatch.delenv("ROLLCALL_KEY", raising=False)
    monkeypatch.delenv("ROLLCALL_DATA", raising=False)
    store = Rollcall.open(tmp_data)
    key = store.add_key("organiser", "Olga")
    store.close()
    return key


def invoke(*args: str):
    return CliRunner().invoke(app, list(args))


def test_data_and_key_are_taken_before_the_command(tmp_data: Path, organiser: str) -> None:
    done = invoke("--data", str(tmp_data), "--key", organiser, "tournament", "create", "Before", "--system", "t9a")
    assert done.exit_code == 0, done.output
    assert "created tournament Before" in done.output
    listed = invoke("--data", str(tmp_data), "tournament", "list")
    assert "Before" in listed.output


def test_data_and_key_are_taken_after_the_command_and_on_both_sides(tmp_data: Path, organiser: str) -> None:
    after = invoke("tournament", "create", "After", "--system", "t9a", "--data", str(tmp_data), "--key", organiser)
    assert after.exit_code == 0, after.output
    both = invoke("--data", str(tmp_data), "tournament", "create", "Both", "--system", "t9a", "--key", organiser)
    assert both.exit_code == 0, both.output
    listed = invoke("tournament", "list", "--data", str(tmp_data)).output
    assert "After" in listed and "Both" in listed


def test_an_option_after_the_command_wins_over_the_one_before(tmp_data: Path, tmp_path: Path, organiser: str) -> None:
    elsewhere = tmp_path / "elsewhere"
    done = invoke("--data", str(elsewhere), "--key", "not a key", "tournament", "create", "Here", "--system", "t9a",
                  "--data", str(tmp_data), "--key", organiser)
    assert done.exit_code == 0, done.output
    assert "Here" in invoke("tournament", "list", "--data", str(tmp_data)).output
    assert not (elsewhere / "rollcall.sqlite").exists()


def test_a_key_before_a_command_that_takes_none_is_left_alone(tmp_data: Path, organiser: str) -> None:
    done = invoke("--key", organiser, "--data", str(tmp_data), "verify")
    assert done.exit_code == 0, done.output
    assert "No such option" not in done.output


def test_a_wrong_key_before_the_command_is_refused_as_after_it(tmp_data: Path, organiser: str) -> None:
    done = invoke("--key", "not a key", "--data", str(tmp_data), "tournament", "create", "X", "--system", "t9a")
    assert done.exit_code == 1 and "Traceback" not in done.output
    assert "X" not in invoke("tournament", "list", "--data", str(tmp_data)).output


def test_lang_is_taken_after_the_command(tmp_data: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("ROLLCALL_LANG", "LANGUAGE", "LC_ALL", "LANG")}
    done = subprocess.run([str(ROLLCALL), "tournament", "list", "--data", str(tmp_data), "--lang", "ru"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "турниров пока нет" in done.stdout, done.stdout
    before = subprocess.run([str(ROLLCALL), "--lang", "ru", "tournament", "list", "--data", str(tmp_data)],
                            capture_output=True, text=True, env=env, timeout=120)
    assert before.stdout == done.stdout


def test_tournament_cards_takes_a_key(tmp_data: Path, tmp_path: Path, organiser: str) -> None:
    from service.application import Rollcall

    store = Rollcall.open(tmp_data, key=organiser)
    store.create_tournament("Cards Cup", "t9a", rounds=1)
    for name in ("Anna Lind", "Boris Brandt"):
        store.register_player("Cards Cup", name, "Empire of Sonnstahl")
    store.pair_round("Cards Cup", 1)
    store.close()
    out = tmp_path / "cards.html"
    done = invoke("tournament", "cards", "Cards Cup", "-o", str(out), "--data", str(tmp_data), "--key", organiser)
    assert done.exit_code == 0, done.output
    assert "Anna Lind" in out.read_text(encoding="utf-8")
    wrong = invoke("tournament", "cards", "Cards Cup", "-o", str(out), "--data", str(tmp_data), "--key", "nope")
    assert wrong.exit_code == 1 and "Traceback" not in wrong.output


def test_names_in_the_tables_are_printed_as_they_are(tmp_data: Path, organiser: str) -> None:
    names = ("Anna [m] Lind", "[bold]Boris[/bold] Brandt", "Cleo [/] Marsh")
    given = ("--data", str(tmp_data), "--key", organiser)
    assert invoke("tournament", "create", "Markup [i] Open", "--system", "t9a", *given).exit_code == 0
    for name in names:
        done = invoke("tournament", "register", "Markup [i] Open", "--player", name, "--faction", "Highborn Elves",
                      *given)
        assert done.exit_code == 0, done.output
    shown = invoke("tournament", "players", "Markup [i] Open", "--data", str(tmp_data)).output
    assert "Markup [i] Open" in shown, shown
    for name in names:
        assert name in shown, shown


def test_a_key_given_after_a_command_that_needs_none_is_left_out_not_refused(tmp_data: Path, organiser: str) -> None:
    done = invoke("keys", "list", "--key", organiser, "--data", str(tmp_data))
    assert done.exit_code == 0, done.output
    assert "Olga" in done.output and "No such option" not in done.output
    done = invoke("keys", "list", f"--key={organiser}", "--data", str(tmp_data))
    assert done.exit_code == 0, done.output
    assert "Olga" in done.output
