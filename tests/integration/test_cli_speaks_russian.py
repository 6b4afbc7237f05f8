"""The installed ``rollcall`` program speaks Russian when asked (``ROLLCALL_LANG``, ``--lang``, the locale): its
help, Click's and Typer's words, listings and refusals, which keep their rule ids and field names; English stays
the default, and a language Rollcall does not speak is refused naming where it came from."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from mutants import stepped_twice

ROOT = Path(__file__).resolve().parents[2]
ROLLCALL = Path(sys.executable).parent / "rollcall"  # the program the package installs (cli.entry)
EXAMPLE = ROOT / "tests" / "games" / "seed004-ex1-shove-enemy-failed-dodge.rollcall.jsonl"
LANGUAGE_ENVS = ("ROLLCALL_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", "ROLLCALL_KEY")


@pytest.fixture
def rollcall(tmp_path: Path):
    """Run the installed program over a data folder of its own, in a given language environment."""
    data = tmp_path / "data"

    def run(*args: str, **env: str) -> subprocess.CompletedProcess:
        clean = {k: v for k, v in os.environ.items() if k not in LANGUAGE_ENVS}
        return subprocess.run([str(ROLLCALL), *args], cwd=tmp_path, capture_output=True, text=True, timeout=300,
                              env={**clean, "ROLLCALL_DATA": str(data), "COLUMNS": "200", **env})

    return run


@pytest.fixture
def imported(rollcall) -> str:
    """The example game imported; its id."""
    done = rollcall("import", str(EXAMPLE))
    assert done.returncode == 0, done.stderr
    return json.loads(EXAMPLE.read_text().splitlines()[0])["game"]


def test_help_shows_russian_panels_and_command_helps(rollcall) -> None:
    shown = rollcall("--help", ROLLCALL_LANG="ru")
    assert shown.returncode == 0, shown.stderr
    for words in ("Использование: rollcall", "Параметры", "Команды", "Показать эту справку и выйти.",
                  "Установить автодополнение", "Список записанных партий", "[переменная окружения: ROLLCALL_LANG]"):
        assert words in shown.stdout, words
    assert "Options" not in shown.stdout and "Show this message" not in shown.stdout
    command = rollcall("tournament", "create", "--help", ROLLCALL_LANG="ru")
    assert "Аргументы" in command.stdout and "Название турнира" in command.stdout
    assert "--system" in command.stdout  # option names are never translated


def test_games_are_listed_in_russian(rollcall, imported: str) -> None:
    for listed in (rollcall("games", ROLLCALL_LANG="ru"), rollcall("--lang", "ru", "games"),
                   rollcall("games", LANG="ru_RU.UTF-8")):
        assert listed.returncode == 0, listed.stderr
        assert imported in listed.stdout and " против " in listed.stdout and "тур 1, стол 1" in listed.stdout


def test_english_stays_english(rollcall, imported: str) -> None:
    listed = rollcall("games", ROLLCALL_LANG="en", LANG="ru_RU.UTF-8")  # the variable wins over the locale
    assert " vs " in listed.stdout and "round 1, table 1" in listed.stdout
    assert "Usage: rollcall" in rollcall("--help").stdout


def test_a_refusal_keeps_its_rule_id_and_field_name_in_a_russian_frame(rollcall, tmp_path: Path) -> None:
    bad, line = stepped_twice(EXAMPLE, tmp_path)  # a second "step" onto the same hexon
    refused = rollcall("import", str(bad), ROLLCALL_LANG="ru")
    assert refused.returncode == 1
    assert refused.stderr.startswith("ошибка: ") and f"{bad}:{line} (ModelMoved): R42" in refused.stderr
    assert "Traceback" not in refused.stderr
    field = rollcall("dispute", "open", "g", "--by", "p1", "--about", "x", "--claim", "c", ROLLCALL_LANG="ru")
    assert field.returncode == 1
    assert field.stderr.startswith("ошибка: --about ") and "12,13" in field.stderr


def test_usage_errors_are_said_in_russian(rollcall) -> None:
    unknown = rollcall("games", "--nope", ROLLCALL_LANG="ru")
    assert unknown.returncode == 2
    assert "Нет такого параметра: --nope" in unknown.stderr and "Справка: 'rollcall games --help'" in unknown.stderr
    missing = rollcall("tournament", "create", ROLLCALL_LANG="ru")
    assert missing.returncode == 2 and "Не указан аргумент 'NAME'." in missing.stderr


def test_players_are_counted_in_russian(rollcall) -> None:
    assert rollcall("tournament", "create", "Spring Cup", "--system", "tornscape").returncode == 0
    for name in ("Anna", "Boris"):
        assert rollcall("tournament", "register", "Spring Cup", "--player", name).returncode == 0
    listed = rollcall("tournament", "players", "Spring Cup", ROLLCALL_LANG="ru")
    assert listed.returncode == 0, listed.stderr
    assert "Игроки Spring Cup: 2 игрока" in listed.stdout and "фракция" in listed.stdout


def test_an_unknown_language_is_refused_naming_the_variable(rollcall) -> None:
    refused = rollcall("games", ROLLCALL_LANG="xx")
    assert refused.returncode == 2
    assert "ROLLCALL_LANG" in refused.stderr and "xx" in refused.stderr
