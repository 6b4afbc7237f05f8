"""The check every rule test makes: a strict import of a record breaking a rule is refused at the
offending line, naming the rule, and stores nothing; a lenient import keeps the game and marks the
violation on that line (and only from there on)."""

from __future__ import annotations

import json

import pytest

from service.application import Rollcall
from domain.errors import RecordError


def refused_and_marked(app: Rollcall, lines: list[str], *, file: str, game: str, line: int, event: str | None,
                       rule: str, names: tuple = ()) -> str:
    """Returns the strict import's message."""
    with pytest.raises(RecordError) as info:
        app.import_record(lines, file)
    message = str(info.value)
    where = f"{file}:{line} ({event})" if event else f"{file}:{line}"
    assert message.startswith(f"{where}: {rule} "), message
    for name in names:
        assert name in message, f"{name!r} not named in: {message}"
    assert info.value.line == line and info.value.cause.rule == rule
    assert app.exists(game) is False
    assert list(app.headers()) == []

    imported = app.import_record(lines, file, lenient=True)
    assert imported.game == game and imported.violations >= 1
    stored = app.stored_lines(game)
    assert len(stored) == len(lines)
    offending = stored[line - 1]
    assert event is None or offending["type"] == event
    assert rule in [v["rule"] for v in offending.get("violations", [])], offending
    assert all("violations" not in s for s in stored[: line - 1])
    exported = [json.loads(text) for text in app.export_lines(game)]
    assert exported[line - 1]["violations"] == offending["violations"]
    return message


def imported_cleanly(app: Rollcall, lines: list[str], file: str) -> tuple[dict, list[dict]]:
    """The record imports strictly without violations: (final state, exported lines)."""
    imported = app.import_record(lines, file)
    assert imported.violations == 0
    exported = [json.loads(text) for text in app.export_lines(imported.game)]
    return app.get_game(imported.game).state.to_json(), exported
