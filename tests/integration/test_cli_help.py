"""The command line's shape: every documented command where the README puts it, help without type tags or
placeholders, the version, shell completion, and --json on every listing."""

from __future__ import annotations

import json
import re
from importlib.metadata import version
from pathlib import Path

import pytest
from typer.main import get_command
from typer.testing import CliRunner

from cli.main import app

TOP_LEVEL = ("import", "record", "roll", "draw", "export", "verify", "heads", "games", "project", "replay",
             "dashboard", "simulate", "demo", "stats", "seal", "dump", "tournament", "dispute", "keys")
# Click's type names, Typer's type tags and braces around argument names
TYPE_TAGS = re.compile(r"<(bool|str|int|path|list\[\w+\])>|\b(TEXT|INTEGER|BOOLEAN|PATH)\b|\{\w+\}")


def every_command() -> list[list[str]]:
    """The path of every command and group, e.g. ["tournament", "pair"]."""
    found = []

    def walk(command, path):
        found.append(path)
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, [*path, name])

    walk(get_command(app), [])
    return found


def test_every_documented_command_is_at_the_top_level() -> None:
    assert set(TOP_LEVEL) <= set(get_command(app).commands)


@pytest.mark.parametrize("path", every_command(), ids=lambda p: " ".join(p) or "rollcall")
def test_help_shows_no_type_tags_nor_placeholders(path: list[str]) -> None:
    result = CliRunner().invoke(app, [*path, "--help"], terminal_width=160)
    assert result.exit_code == 0, result.output
    assert not TYPE_TAGS.search(result.output), TYPE_TAGS.search(result.output).group(0)


def test_version_prints_the_package_version() -> None:
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0 and result.output.strip() == f"rollcall {version('rollcall')}"


def test_shell_completion_can_be_installed() -> None:
    assert "--install-completion" in CliRunner().invoke(app, ["--help"]).output


@pytest.mark.parametrize("listing", [["games"], ["tournament", "list"], ["keys", "list"]])
def test_listings_print_json(listing: list[str], tmp_data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ROLLCALL_KEY", raising=False)
    result = CliRunner().invoke(app, [*listing, "--json", "--data", str(tmp_data)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == []


def test_one_game_and_one_round_are_singular(tmp_data: Path, tmp_path: Path) -> None:
    header = {"rollcall": 1, "system": "tornscape", "tournament": "Spring Cup", "round": 1, "table": 1,
              "players": [{"id": "p1", "name": "A"}, {"id": "p2", "name": "B"}],
              "setup": {"board": {"width": 6, "height": 6}}}
    ended = {"type": "GameEnded", "score": {"p1": 1, "p2": 0}, "winner": "p1", "reason": "time"}
    (tmp_path / "g.rollcall.jsonl").write_text(json.dumps(header) + "\n" + json.dumps(ended) + "\n")
    runner = CliRunner()
    assert runner.invoke(app, ["import", str(tmp_path / "g.rollcall.jsonl"), "--data", str(tmp_data)]).exit_code == 0
    listed = runner.invoke(app, ["tournament", "list", "--data", str(tmp_data)]).output
    assert "Spring Cup  tornscape  1 game, 1 round played" in listed


def test_results_table_names_every_column_apart() -> None:
    from cli.tournament import PAIRING_COLUMNS, PLAYER_COLUMNS, RESULT_COLUMNS, STANDING_COLUMNS

    for columns in (RESULT_COLUMNS, STANDING_COLUMNS, PAIRING_COLUMNS, PLAYER_COLUMNS):
        headings = [heading for _, heading in columns]
        assert len(set(headings)) == len(headings), headings
