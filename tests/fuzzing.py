"""A data folder that mutants are imported into as ``rollcall import`` imports them (service.importing), and what is
asked of it afterwards: each refusal one line naming the file (and its line), nothing of a refused game
stored, every export valid JSON, the read models of every stored game current after ``project``
(tests/integration/test_fuzz_records.py, bench/fuzz_records.py)."""

from __future__ import annotations

import collections
import re
import traceback
from dataclasses import dataclass
from pathlib import Path

import orjson

from service.application import Rollcall
from domain.errors import RecordError, RollcallError
from domain.record import read_json
from projections.projector import Projector
from projections.queries import connect_read, projection_failures, rows
from mutants import event_mutants
from service.importing import UNFORESEEN, import_files


@dataclass
class Outcome:
    kind: str      # stored, refused, traceback
    detail: str    # the refusal, or the traceback


def record_event_mutants(count: int, seed: int) -> tuple[collections.Counter, list[str]]:
    """Mutated events appended one by one as ``rollcall record`` and the Record page append them (the text read
    with ``read_json``, then ``Rollcall.record``, strict and lenient in turn): the outcomes, and every
    traceback, refusal of more than one line or refusal that stored something."""
    app = Rollcall(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
    counts: collections.Counter = collections.Counter()
    problems = []
    for number, kind, game, header, before, text in event_mutants(count, seed):
        app.write(header=header, events=before, strict=False)
        stored = len(app.stored_lines(game))
        try:
            event, _ = read_json(text)
            app.record(game, event if isinstance(event, dict) else {"type": event}, strict=number % 2 == 0)
            counts["stored"] += 1
        except RollcallError as exc:
            counts["refused"] += 1
            if "\n" in str(exc) or len(app.stored_lines(game)) != stored:
                problems.append(f"{kind} #{number}: {exc!r}")
        except Exception:  # noqa: BLE001  what the fuzzing looks for
            problems.append(f"{kind} #{number}: {traceback.format_exc()}")
    return counts, problems


class FuzzStore:
    def __init__(self, data: Path) -> None:
        self.data = data
        self.files = data / "records"
        self.files.mkdir(parents=True)
        self.app = Rollcall.open(data)
        self.stored: dict[str, int] = {}  # game -> its stored lines
        self.unreplayable: set[str] = set()
        self.golden: set[str] = set()  # the games imported unchanged, beside the mutants

    def import_lines(self, name: str, lines: list[bytes], *, lenient: bool) -> Outcome:
        path = self.files / f"{name}.rollcall.jsonl"
        path.write_bytes(b"".join(lines))
        before = self.app.recorder.max_notification_id() or 0
        try:
            [result] = list(import_files(self.app, [path], lenient=lenient, workers=1))
        except Exception:  # noqa: BLE001  what the fuzzing looks for
            return Outcome("traceback", f"{path}\n{traceback.format_exc()}")
        after = self.app.recorder.max_notification_id() or 0
        if isinstance(result, RecordError):
            message = str(result)
            if UNFORESEEN in message:
                return Outcome("traceback", f"a refusal no check made: {message}")
            if after != before:
                return Outcome("traceback", f"refused, yet {after - before} rows stored: {message}")
            if "\n" in message or not re.match(re.escape(str(path)) + r"(:\d+)?( \(.+?\))?: \S", message):
                return Outcome("traceback", f"a refusal that is not one line naming the file: {message!r}")
            return Outcome("refused", message)
        self.stored[result.game] = result.events + 1
        return Outcome("stored", result.game)

    def bad_exports(self) -> list[tuple[str, str]]:
        """(game, why) for each stored game whose export is not valid JSON, line by line."""
        bad = []
        for game in self.stored:
            try:
                for line in self.app.export_lines(game):
                    orjson.loads(line.encode("utf-8"))
            except Exception as exc:  # noqa: BLE001  invalid JSON, or text that is not UTF-8
                bad.append((game, f"export: {type(exc).__name__}: {exc}"))
        return bad

    def project_and_check(self) -> list[tuple[str, str]]:
        """Project; (game, why) for each stored game whose read models are not current, unless the projector
        named it as a game it cannot replay (those keep their events up to the failure)."""
        Projector(self.data, app=self.app).run()
        con = connect_read(self.data)
        try:
            self.unreplayable = {f["game"] for f in projection_failures(con)}
            counts = {r["game"]: r["n"] for r in rows(con, "SELECT game, count(*) AS n FROM fct_events GROUP BY game")}
            games = {r["game"] for r in rows(con, "SELECT game FROM dim_games")}
        finally:
            con.close()
        behind = []
        for game, lines in self.stored.items():
            if game in self.unreplayable:
                continue
            if game not in games or counts.get(game, 0) != lines - 1:
                behind.append((game, f"read models hold {counts.get(game, 0)} of its {lines - 1} events"))
        return behind
