"""The application service: record, import, export, verify and list games over the event store."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.persistence import IntegrityError

from domain.errors import GameAlreadyRecorded, GameNotFound, MalformedRecord, RecordError, RollcallError
from domain.game import Game
from domain.record import LocatedError, event_hash, export_line, header_hash, read_lines

NAMESPACE = uuid5(NAMESPACE_URL, "https://rollcall.invalid/games")
GAME_CREATED = "rollcall:GameCreated"


def game_uuid(game_id: str) -> UUID:
    return uuid5(NAMESPACE, game_id)


@dataclass
class Imported:
    game: str
    events: int
    violations: int


@dataclass
class Damage:
    seq: int
    kind: str  # changed | removed | reordered | inserted
    detail: str


@dataclass
class Verified:
    game: str
    events: int
    damage: Damage | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.damage is None


def store_env(data_dir: str | os.PathLike | None = None) -> dict[str, str]:
    """Settings for the event store: PostgreSQL or another module when PERSISTENCE_MODULE is set,
    otherwise the embedded SQLite file ``<data>/events.sqlite``."""
    if os.environ.get("PERSISTENCE_MODULE"):
        return {}
    folder = Path(data_dir or os.environ.get("ROLLCALL_DATA") or "data")
    folder.mkdir(parents=True, exist_ok=True)
    return {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(folder / "events.sqlite"),
            "SQLITE_LOCK_TIMEOUT": "30"}


class Rollcall(Application):
    """Rollcall's event store of games."""

    name = "Rollcall"

    @classmethod
    def open(cls, data_dir: str | os.PathLike | None = None) -> Rollcall:
        return cls(env=store_env(data_dir))

    # --- games ----------------------------------------------------------------------------
    def exists(self, game_id: str) -> bool:
        return bool(self.recorder.select_events(game_uuid(game_id), limit=1))

    def get_game(self, game_id: str, version: int | None = None) -> Game:
        try:
            return self.repository.get(game_uuid(game_id), version=version)
        except AggregateNotFoundError:
            raise GameNotFound(game_id) from None

    def create_game(self, header: dict, *, strict: bool = True) -> Game:
        from domain.game import normalise_header

        game_id = normalise_header(header)["game"]
        if self.exists(game_id):
            raise GameAlreadyRecorded(game_id)
        return Game.start(header, game_uuid(game_id), strict=strict)

    def save_new(self, game: Game) -> None:
        try:
            self.save(game)
        except IntegrityError:
            raise GameAlreadyRecorded(game.header["game"]) from None

    def record(self, game_id: str, event: dict, *, strict: bool = True) -> dict:
        """Append one event to a recorded game (one transaction)."""
        game = self.get_game(game_id)
        recorded = game.record(event, strict=strict)
        try:
            self.save(game)
        except IntegrityError:
            raise RollcallError(f"game '{game_id}' changed while this event was checked; try again") from None
        return recorded

    # --- import and export ----------------------------------------------------------------
    def import_record(self, lines: Iterable[str], source: str = "<record>", *, lenient: bool = False) -> Imported:
        """Import one game record: every line checked, the file's hashes verified, one transaction."""
        game = self.read_record(lines, source, lenient=lenient)
        self.save_new(game)
        return Imported(game.header["game"], game.state.seq, game.violation_count)

    def read_record(self, lines: Iterable[str], source: str = "<record>", *, lenient: bool = False) -> Game:
        """Check a whole record and return the unsaved game (nothing is stored)."""
        game: Game | None = None
        chain = ""
        violations = 0
        number, event_type = 0, None
        try:
            for number, obj in read_lines(lines):
                given = obj.get("hash")
                if game is None:
                    event_type = None
                    game = self.create_game(obj, strict=not lenient)
                    chain = header_hash(obj)
                    violations += len(game.header.get("violations", ()))
                else:
                    event_type = obj.get("type") if isinstance(obj.get("type"), str) else None
                    recorded = game.record(obj, strict=not lenient)
                    violations += len(recorded.get("violations", ()))
                    chain = event_hash(chain, obj)
                if given is not None and given != chain:
                    raise MalformedRecord("`hash` does not match the line (the record was changed after export)",
                                          field="hash")
                if given is not None:
                    chain = given
        except LocatedError as exc:
            raise RecordError(source, exc.line, None, exc.error) from None
        except RollcallError as exc:
            raise RecordError(source, number, event_type, exc) from None
        if game is None:
            raise RecordError(source, 0, None, MalformedRecord("the record is empty: line 1 must be the header"))
        game.violation_count = violations
        return game

    def stored_lines(self, game_id: str) -> list[dict]:
        """The game's record lines exactly as stored (header first)."""
        stored = self.recorder.select_events(game_uuid(game_id))
        if not stored:
            raise GameNotFound(game_id)
        return [self.mapper.to_domain_event(s).data for s in stored]

    def export_lines(self, game_id: str) -> Iterator[str]:
        for data in self.stored_lines(game_id):
            yield export_line(data)

    # --- listing and verifying ------------------------------------------------------------
    def headers(self) -> Iterator[dict]:
        """Every recorded game's header, in the order the games were recorded."""
        start = 1
        while True:
            batch = self.recorder.select_notifications(start, 500, topics=[GAME_CREATED])
            for notification in batch:
                yield self.mapper.to_domain_event(notification).data
            if len(batch) < 500:
                return
            start = batch[-1].id + 1

    def verify(self, game_id: str) -> Verified:
        """Recompute a game's hash chain from the store and name the first damaged seq."""
        stored = self.recorder.select_events(game_uuid(game_id))
        if not stored:
            raise GameNotFound(game_id)
        result = Verified(game_id, len(stored) - 1)
        datas = []
        for s in stored:
            try:
                datas.append(self.mapper.transcoder.decode(s.state)["data"])
            except Exception:  # noqa: BLE001  an unreadable row is damage, not a crash
                datas.append(None)
        header = datas[0]
        if header is None or stored[0].topic != GAME_CREATED or header.get("hash") != header_hash(header):
            result.damage = Damage(0, "changed", "the header does not match its hash")
            return result
        previous = header["hash"]
        seen: set[int] = set()
        for position, data in enumerate(datas[1:], start=1):
            if data is None:
                result.damage = Damage(position, "changed", "the stored event cannot be read")
                return result
            seq = data.get("seq")
            if seq != position:
                if isinstance(seq, int) and seq > position:
                    kind, why = "removed", f"seq {position} is missing; the next stored event is seq {seq}"
                elif seq in seen:
                    kind, why = "inserted", f"an extra event claiming seq {seq} stands at position {position}"
                else:
                    kind, why = "reordered", f"seq {seq} is stored at position {position}"
                result.damage = Damage(position, kind, why)
                return result
            seen.add(seq)
            if data.get("hash") != event_hash(previous, data):
                result.damage = Damage(position, "changed",
                                       "the event does not match its hash (changed, or inserted in the chain)")
                return result
            previous = data["hash"]
        return result
