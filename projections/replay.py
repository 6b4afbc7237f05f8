"""The read models' one replay engine: every stored event applied by its game's rules pack.

The projector reads the notification log in batches. Here each batch's stored rows are decoded, and each
game's events applied in order by ``domain.timeline.Tracker`` — the rules packs' own ``apply``, the same
the aggregate uses — into the rows the projector loads: the events (with the turn and phase the game is in
after each, and the player who made it), the state rows of every object of the replay state with the seqs
they hold for (validity intervals; ``ruled``: the as-ruled game, for games a ruling voided events of), the
rolls each event made, re-rolled or used, and the games that could not be replayed. No rule is written
again in SQL.

A game met in the middle (its creation projected by an earlier run) is restored from the event store: its
stored lines up to the last one projected, folded. Games not seen for a while are forgotten (a bounded
cache) and restored again if they come back.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import orjson
import pyarrow as pa

from domain.rulings import as_ruled, out_of_game
from domain.systems.fields import CORRECTIONS
from domain import topics
from domain.timeline import Tracker
from domain.topics import GAME_CREATED

CACHED_GAMES = 512  # games whose replay is kept between batches

JSON = pa.json_(pa.string())  # JSON text this module wrote (orjson): DuckDB takes it as its JSON type unparsed

EVENTS = pa.schema([("notification_id", pa.int64()), ("stream_id", pa.string()), ("topic", pa.string()),
                    ("game", pa.string()), ("seq", pa.int64()), ("type", pa.string()), ("turn", pa.int64()),
                    ("phase", pa.string()), ("player", pa.string()), ("author", pa.string()),
                    ("payload", JSON), ("violations", JSON), ("recorded_at", pa.string()),
                    ("played_at", pa.string()), ("odds", JSON)])
CHANGES = pa.schema([("game", pa.string()), ("ruled", pa.bool_()), ("part", pa.string()), ("key", pa.string()),
                     ("valid_from_seq", pa.int64()), ("valid_to_seq", pa.int64()), ("value", JSON)])
CLOSES = pa.schema([("game", pa.string()), ("ruled", pa.bool_()), ("part", pa.string()), ("key", pa.string()),
                    ("valid_to_seq", pa.int64())])
ROLLS = pa.schema([("game", pa.string()), ("seq", pa.int64()), ("player", pa.string()), ("purpose", pa.string()),
                   ("die", pa.string()), ("initial", JSON), ("faces", JSON), ("source", pa.string()),
                   ("used_by_seq", pa.int64()), ("label", pa.string()), ("needs", pa.int64()),
                   ("successes", pa.int64()), ("p_outcome", pa.float64())])
RESETS = pa.schema([("game", pa.string()), ("ruled", pa.bool_())])
FAILURES = pa.schema([("game", pa.string()), ("stream_id", pa.string()), ("seq", pa.int64()), ("error", pa.string())])


@cache
def _stored_as(schema: pa.Schema) -> pa.Schema:
    """``schema`` with the storage type of each extension type (JSON: a string), which pyarrow builds from Python
    values (:func:`_typed` then gives the columns their types)."""
    return pa.schema([(f.name, f.type.storage_type if isinstance(f.type, pa.BaseExtensionType) else f.type)
                      for f in schema])


def _typed(made: pa.RecordBatch, schema: pa.Schema) -> pa.Table:
    """A batch built with the storage types of ``schema`` as a table of ``schema`` (its columns as they are)."""
    return pa.Table.from_batches([pa.RecordBatch.from_arrays(
        [pa.ExtensionArray.from_storage(f.type, column) if isinstance(f.type, pa.BaseExtensionType) else column
         for column, f in zip(made.columns, schema)], schema=schema)])


Loader = Callable[[str, int], list[bytes]]  # (stream id, last version) -> the stored states, versions 1..last


def _recorded(decoded: dict) -> str | None:
    """When the event was stored (eventsourcing's timestamp of it), ISO 8601."""
    stamp = decoded.get("timestamp")
    found = stamp.get("_data_") if isinstance(stamp, dict) else stamp
    return found if isinstance(found, str) else None


def _json(value: Any) -> str | None:
    return None if value is None else orjson.dumps(value).decode()


@dataclass
class Batch:
    """The rows of one batch and the last notification id it read: the state rows column by column (a later
    change of the batch closes a row in place), the others row by row."""

    last_id: int = 0
    events: list[tuple] = field(default_factory=list)  # rows of EVENTS
    changes: dict[str, list] = field(default_factory=lambda: {name: [] for name in CHANGES.names})
    closes: list[tuple] = field(default_factory=list)
    rolls: dict[tuple[str, int], tuple] = field(default_factory=dict)
    resets: list[tuple] = field(default_factory=list)
    failures: list[tuple] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.columns = tuple(self.changes[name] for name in CHANGES.names)  # the state rows' columns, in order

    def __len__(self) -> int:
        return len(self.events)

    def tables(self) -> dict[str, pa.Table]:
        def rows(schema: pa.Schema, items: list[tuple]) -> pa.Table:
            # the tuples made one struct array at once: a third cheaper than turning them into columns first
            return _typed(pa.RecordBatch.from_struct_array(pa.array(items, pa.struct(_stored_as(schema)))), schema)
        return {
            "events": rows(EVENTS, self.events),
            "changes": _typed(pa.RecordBatch.from_pydict(self.changes, schema=_stored_as(CHANGES)), CHANGES),
            "closes": rows(CLOSES, self.closes),
            "rolls": rows(ROLLS, list(self.rolls.values())),
            "resets": rows(RESETS, self.resets),
            "failures": rows(FAILURES, self.failures),
        }


class Timeline:
    """One timeline of a game (as played, or as ruled) and the state rows it has made."""

    def __init__(self, game: str, ruled: bool, tracker: Tracker, *, restored: bool) -> None:
        self.game, self.ruled, self.tracker = game, ruled, tracker
        self.restored = restored  # its earlier rows were made by an earlier run: every key may have one open
        self.seen: set[tuple[str, str]] = set()  # keys with rows made by this replay
        self.in_batch: dict[tuple[str, str], int] = {}  # key -> index of its open row in this batch

    def add(self, batch: Batch, seq: int, changes: Iterable[tuple[str, str, Any]]) -> None:
        games, ruled, parts, keys, froms, tos, values = batch.columns
        game, is_ruled, in_batch, seen = self.game, self.ruled, self.in_batch, self.seen
        for part, key, value in changes:
            where = (part, key)
            index = in_batch.get(where)
            if index is not None:
                tos[index] = seq - 1
            else:
                if self.restored or where in seen:
                    batch.closes.append((game, is_ruled, part, key, seq - 1))
                seen.add(where)
            in_batch[where] = len(tos)
            games.append(game)
            ruled.append(is_ruled)
            parts.append(part)
            keys.append(key)
            froms.append(seq)
            tos.append(None)
            values.append(_json(value))


class GameReplay:
    """A game being replayed: its as-played timeline and, once events were voided or taken back, its as-ruled
    one."""

    def __init__(self, header: dict, lines: list[dict], *, restored: bool) -> None:
        self.header = header
        self.game: str = header["game"]
        self.played = Timeline(self.game, False, Tracker(header, lines), restored=restored)
        self.ruled: Timeline | None = None
        if out_of_game(lines):
            self.ruled = Timeline(self.game, True, Tracker(header, as_ruled(lines)), restored=restored)
        self.failed = False

    @property
    def lines(self) -> list[dict]:
        return self.played.tracker.state.lines

    def start_batch(self) -> None:
        self.played.in_batch.clear()
        if self.ruled is not None:
            self.ruled.in_batch.clear()

    def setup(self, batch: Batch) -> None:
        self.played.add(batch, 0, self.played.tracker.setup())

    def apply(self, batch: Batch, line: dict) -> tuple[str | None, int, str | None, dict | None]:
        """Apply one event line: its rows in ``batch``; (the player who made it, turn and phase after it, the
        exact odds of the outcomes it decides, from its rules pack)."""
        tracker = self.played.tracker
        system, state = tracker.system, tracker.state
        actor = system.actor(state, line)
        try:
            chances = system.odds(state, line)
        except Exception:  # noqa: BLE001  odds of an event the rules refuse: none, the replay goes on
            chances = None
        seq = line["seq"]
        kind = line.get("type")
        correction = kind in CORRECTIONS
        rolls_before = set(state.rolls) if correction else ()
        self.played.add(batch, seq, tracker.apply(line))
        if tracker.rolls:
            self._rolls(batch, system, state, tracker.rolls)
        for gone in rolls_before - set(state.rolls) if correction else ():  # the rolls it took back
            batch.rolls[(self.game, gone)] = (self.game, gone, *(None,) * 11)
        if correction or kind == "RulingMade" and line.get("decision") == "void":
            self._rule_again(batch)
        elif self.ruled is not None:  # an event leaves out only earlier ones: this one holds in the as-ruled game
            self.ruled.add(batch, seq, self.ruled.tracker.apply(line))
        return actor, state.turn, state.phase, chances

    def _rule_again(self, batch: Batch) -> None:
        """A ruling voided events, or a correction took some back: the as-ruled timeline is made again from the
        start."""
        batch.resets.append((self.game, True))
        rows = batch.changes  # the rows the old timeline made in this batch are dropped too
        games, ruled = rows["game"], rows["ruled"]
        for index, (game, is_ruled) in enumerate(zip(games, ruled)):
            if is_ruled and game == self.game:
                games[index] = None
        batch.closes[:] = [c for c in batch.closes if not (c[0] == self.game and c[1])]
        tracker = Tracker(self.header)
        self.ruled = Timeline(self.game, True, tracker, restored=False)
        self.ruled.add(batch, 0, tracker.setup())
        for line in as_ruled(self.lines):
            self.ruled.add(batch, line["seq"], tracker.apply(line))

    def _rolls(self, batch: Batch, system, state, seqs: list[int]) -> None:
        for seq in seqs:
            roll = state.rolls.get(seq)
            if roll is not None:
                try:
                    successes, p = system.roll_odds(state, roll)  # the pack's: how its rules judge the roll
                except Exception:  # noqa: BLE001  a roll the rules refuse (a lenient import): no odds
                    successes = p = None
                batch.rolls[(self.game, seq)] = (self.game, seq, roll.player, roll.purpose, roll.die,
                                                 _json(list(roll.initial)), _json(roll.faces), roll.source,
                                                 roll.used_by, roll.label, roll.needs, successes, p)


class Replayer:
    """Turns stored rows into the projector's rows, keeping the games it follows between batches."""

    def __init__(self, load: Loader, capacity: int = CACHED_GAMES) -> None:
        self.load = load
        self.capacity = capacity
        self.games: OrderedDict[str, GameReplay] = OrderedDict()  # stream id -> replay, least recent first
        self.broken: dict[str, str] = {}  # stream id -> game of a game that could not be replayed

    def batch(self, rows: Iterable[tuple[int, str, str, bytes]]) -> Batch:
        """The rows of (notification id, stream id, topic, stored state) in notification order."""
        batch = Batch()
        for replay in self.games.values():
            replay.start_batch()
        for notification_id, stream, topic, state in rows:
            batch.last_id = notification_id
            if topics.is_hidden(topic):
                continue
            try:
                decoded = orjson.loads(state)
            except orjson.JSONDecodeError as exc:  # changed in the store: the game stops here, named
                replay = self.games.get(stream)
                self._failed(batch, stream, replay.game if replay else self.broken.get(stream), None,
                             why=f"a stored event cannot be read ({exc}); the store was changed")
                continue
            data = decoded.get("data")
            if not topics.is_game_topic(topic) or not isinstance(data, dict):
                self._other(batch, notification_id, stream, topic, decoded)
            elif topic == GAME_CREATED:
                self._created(batch, notification_id, stream, decoded, data)
            else:
                self._event(batch, notification_id, stream, topic, decoded, data)
        return batch

    def _event_row(self, batch: Batch, notification_id: int, stream: str, topic: str, game: str | None,
                   seq: int | None, kind: str | None, turn, phase, player, author, data: dict | None,
                   recorded: str | None = None, odds: dict | None = None) -> None:
        violations = played = None
        if isinstance(data, dict):
            violations, played = data.get("violations"), data.get("at")
        batch.events.append((notification_id, stream, topic, game, seq, kind, turn, phase, player, author, _json(data),
                             _json(violations), recorded,
                             played if isinstance(played, str) else None, _json(odds)))

    def _other(self, batch: Batch, notification_id: int, stream: str, topic: str, decoded: dict) -> None:
        """A stored event of another aggregate (a tournament's): kept as it is, for the read models that want it."""
        data = decoded.get("data")
        self._event_row(batch, notification_id, stream, topic, None, None, topic.rpartition(":")[2], None, None,
                        None, decoded.get("author"), data if isinstance(data, dict) else None, _recorded(decoded))

    def _created(self, batch: Batch, notification_id: int, stream: str, decoded: dict, header: dict) -> None:
        game = header.get("game")
        self._event_row(batch, notification_id, stream, GAME_CREATED, game, 0, "GameCreated", 0, None, None,
                        decoded.get("author"), header, _recorded(decoded))
        try:
            replay = GameReplay(header, [], restored=False)
        except Exception as exc:  # noqa: BLE001  a game no rule pack can set up: named, the others go on
            self._failed(batch, stream, game, 0, exc)
            return
        self._keep(stream, replay)
        replay.setup(batch)

    def _event(self, batch: Batch, notification_id: int, stream: str, topic: str, decoded: dict, line: dict) -> None:
        replay = self.games.get(stream)
        if replay is not None:
            self.games.move_to_end(stream)
        elif stream in self.broken:
            replay = None
        else:
            replay = self._restore(batch, stream, line.get("seq"))
        game = replay.game if replay is not None else self.broken.get(stream)
        turn = phase = player = chances = None
        if replay is not None:
            try:
                player, turn, phase, chances = replay.apply(batch, line)
            except Exception as exc:  # noqa: BLE001  one game's fault never stops the others
                self._failed(batch, stream, game, line.get("seq"), exc)
        self._event_row(batch, notification_id, stream, topic, game, line.get("seq"), line.get("type"), turn, phase,
                        player if isinstance(player, str) else None, decoded.get("author"), line, _recorded(decoded),
                        chances)

    def _restore(self, batch: Batch, stream: str, seq: Any) -> GameReplay | None:
        """A game met in the middle: its stored lines before ``seq``, folded."""
        try:
            states = self.load(stream, seq if isinstance(seq, int) else 0)
            datas = [orjson.loads(s)["data"] for s in states]
            if not datas or "seq" in datas[0]:
                self._failed(batch, stream, None, seq, why="its header (GameCreated) is not in the store; the store "
                                                          "was changed")
                return None
            replay = GameReplay(datas[0], datas[1:], restored=True)
        except Exception as exc:  # noqa: BLE001
            self._failed(batch, stream, None, seq, exc)
            return None
        self._keep(stream, replay)
        return replay

    def _keep(self, stream: str, replay: GameReplay) -> None:
        self.games[stream] = replay
        if len(self.games) > self.capacity:
            self.games.popitem(last=False)

    def _failed(self, batch: Batch, stream: str, game: str | None, seq: Any, exc: Exception | None = None, *,
                why: str = "") -> None:
        """The game stops being replayed at ``seq`` (its later events are kept, not applied): ``exc`` or ``why``."""
        self.games.pop(stream, None)
        self.broken[stream] = game
        batch.failures.append((game, stream, seq if isinstance(seq, int) else None,
                               (why or f"{type(exc).__name__}: {exc}")[:500]))
