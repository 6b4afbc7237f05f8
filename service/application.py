"""The application service: the one write path of games, digital dice, disputes, import, export, listing
and verifying, over the event store.

Every write of a game — an imported record, ``rollcall record``, a tap on the Record page, a simulated
tournament — goes through :meth:`Rollcall.write`: :meth:`Rollcall.check` runs each line through the
game's rules and chain into the aggregate's pending events (nothing stored), then
:meth:`Rollcall.commit` saves them in one transaction once the presented key may write them
(domain.access decides). Importing many records at once (service.importing) is this path with the
checks in worker processes: they run the same ``check_record``, the importing process asks :meth:`Rollcall.admit`
what only the real store can tell and stores the same pending events, made rows by eventsourcing's mapper, with
:meth:`Rollcall.save_rows` (the key checked and a store's fault said as by ``save``).
"""

from __future__ import annotations

import contextlib
import functools
import os
import random
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from uuid import NAMESPACE_URL, UUID, uuid5

import orjson
from eventsourcing.application import AggregateNotFoundError, Application, Repository
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import IntegrityError, JSONTranscoder, StoredEvent, Transcoder

from domain import randomness
from domain.access import AccessDenied, needs_judge, needs_of_lines
from domain.errors import (GameAlreadyRecorded, GameMovedOn, GameNotFound, MalformedRecord, RecordError,
                           RollcallError, RuleViolation, StoreFault, StoreUnavailable, one_line)
from domain.game import Game
from domain.header import normalise_header
from domain.integrity import Damage, Verified, verify_rows
from domain.topics import GAME_CREATED, is_game_topic
from domain.timeline import unreplayable
from domain.randomness import DiceSeed
from domain.record import (Line, LocatedError, check_object, event_hash, export_line, header_hash, read_lines,
                           show)
from domain.seats import SEAT_RULE, Seat, seat_uuid, seats_of
from domain.settings import EMBEDDED_STORE, PERSISTENCE_ENV, store_env
from i18n import _
from service.access import AccessMixin
from service.confirmations import ConfirmationsMixin
from service.tournaments import TournamentMixin
from store import rows
from store.bulk import RowInserter
from store.opening import OPEN_ATTEMPTS, STORE_ERRORS, created_meanwhile, fault_of, refuse_foreign, server_name

NAMESPACE = uuid5(NAMESPACE_URL, "https://rollcall.invalid/games")
DIGITAL_ROLLS = ("DiceRolled", "DieRerolled")  # with the pack's draw_events: what may be digital (made here)


NOT_OFFERED = ("at", "seq", "hash")
CACHED_AGGREGATES = 64  # aggregates an application keeps read (games, seats, the keyring, tournaments)  # what a second sending of the same write may carry otherwise


def _same_event(given: object, stored: dict) -> bool:
    """Whether ``stored`` is the event ``given`` (as its writer gave it: the fields it names, of the same values)."""
    if not isinstance(given, dict) or given.get("type") != stored.get("type"):
        return False
    plain = orjson.loads(orjson.dumps({k: v for k, v in given.items() if k not in NOT_OFFERED}))
    return all(stored.get(k) == v for k, v in plain.items())


def game_uuid(game_id: str) -> UUID:
    return uuid5(NAMESPACE, game_id)


def seed_uuid(game_id: str) -> UUID:
    return uuid5(NAMESPACE, f"{game_id}#dice-seed")


class OrjsonTranscoder(JSONTranscoder):
    """eventsourcing's JSON transcoder, encoding with orjson: the same JSON, several times faster. Values
    orjson cannot write (an integer beyond 64 bits) are encoded the ordinary way."""

    def encode(self, obj) -> bytes:
        try:
            return orjson.dumps(obj, default=self._encode_obj, option=orjson.OPT_PASSTHROUGH_DATETIME)
        except TypeError:
            return super().encode(obj)


@dataclass
class Checked:
    """A game with checked events waiting to be stored (``Rollcall.check``): the lines written (the header
    first for a new game), the violations kept (lenient), and the aggregates stored with it (a digital
    game's secret seed, its players' seats)."""

    game: Game
    lines: list[dict]
    violations: int = 0
    created: bool = False
    companions: list[Aggregate] = field(default_factory=list)

    @property
    def game_id(self) -> str:
        return self.game.header["game"]

    @property
    def events(self) -> int:
        """The events written (the header not counted)."""
        return len(self.lines) - (1 if self.created else 0)


@dataclass
class Written:
    """What one write stored: the game, its lines written (header first for a new game), violations kept.
    ``recognised``: nothing was stored, the same events being stored already where the writer offered them (a
    write sent again after its answer was lost)."""

    game: str
    lines: list[dict]
    events: int
    violations: int
    recognised: bool = False

    @property
    def last(self) -> dict:
        return self.lines[-1]



class KeptRepository(Repository):
    """eventsourcing's repository with its aggregate cache, handing out the aggregates it keeps without copying
    them: a game read again (a tap, a render of the Record page) costs the events stored since it was last read
    (the cache's fast-forward), not the whole game (a deep copy of a long game costs as much as its replay). An
    aggregate a write left with events it did not store (refused, or checked and never committed) is not the
    stored one: it is read again from the store."""

    def get(self, aggregate_id, *, version=None, **kwargs):
        aggregate = super().get(aggregate_id, version=version, **kwargs)
        if version is None and self.cache is not None and getattr(aggregate, "pending_events", None):
            self.forget(aggregate_id)
            aggregate = super().get(aggregate_id, version=version, **kwargs)
        return aggregate

    def forget(self, aggregate_id) -> None:
        """Drop an aggregate from the cache (read again from the store when next asked)."""
        with contextlib.suppress(KeyError):
            self.cache.get(aggregate_id, evict=True)


Imported = Written  # what importing a record stored


class Rollcall(AccessMixin, ConfirmationsMixin, TournamentMixin, Application):
    """Rollcall's event store of games."""

    name = "Rollcall"

    @classmethod
    def open(cls, data_dir: str | os.PathLike | None = None, *, key: str | None = None) -> Rollcall:
        """The store of ``data_dir``; ``key`` is the access key presented for writing (see domain.access).
        StoreUnavailable when it cannot be opened (a damaged file, a full disk, another program's database)."""
        env = store_env(data_dir)
        embedded = env.get("SQLITE_DBNAME")
        if embedded:
            refuse_foreign(Path(embedded))
        for attempt in range(OPEN_ATTEMPTS):
            try:
                app = cls(env=env)
                break
            except STORE_ERRORS as exc:
                if attempt + 1 < OPEN_ATTEMPTS and created_meanwhile(exc):
                    time.sleep(random.uniform(0.05, 0.2) * (attempt + 1))  # another process creates the tables
                    continue
                fault = fault_of(exc, str(Path(embedded).parent)) if embedded else None
                if fault is not None and fault.kind != StoreFault.BUSY:  # full or read-only: said so
                    raise fault from None
                why = (_("cannot be opened ({why}: a damaged file or a full disk?)") if embedded else
                       _("cannot be opened ({why})")).format(why=one_line(str(exc)))
                raise StoreUnavailable(embedded or server_name(), why) from None
        app.key = key
        return app

    def save(self, *objs, **kwargs):
        """Save (once the key may: AccessMixin); a write the store cannot take just now — busy, full,
        read-only — is a StoreFault, nothing stored (another writer's rows met are IntegrityError, as ever)."""
        try:
            with self._faults():
                return super().save(*objs, **kwargs)
        except BaseException:  # what was not stored is not the stored aggregates: read again when next asked
            for obj in objs:
                if getattr(obj, "id", None) is not None:
                    self.repository.forget(obj.id)
            raise

    def save_rows(self, stored: Sequence[StoredEvent], needs: dict[str, str]) -> None:
        """Store rows this application's mapper made of checked aggregates (a bulk import: service.importing) in
        one transaction, as ``save`` stores aggregates: once the presented key may do ``needs`` (``needs_of`` of
        the aggregates; AccessDenied otherwise), a store that cannot take them a StoreFault, rows stored meanwhile
        an IntegrityError, and nothing stored."""
        self.authorise(needs)
        with self._faults():
            self._inserter.insert(stored)

    @property
    def rows_per_transaction(self) -> int:
        """How many rows ``save_rows`` is given at most in one transaction on this store."""
        return self._inserter.batch_rows

    @functools.cached_property
    def _inserter(self) -> RowInserter:
        return RowInserter(self.recorder, self.env)

    @contextlib.contextmanager
    def _faults(self) -> Iterator[None]:
        """A store error of a write turned into the StoreFault it is (busy, full, read-only), if it is one."""
        try:
            yield
        except IntegrityError:
            raise
        except (*STORE_ERRORS, OSError) as exc:
            embedded = self.env.get("SQLITE_DBNAME") if self.env.get(PERSISTENCE_ENV) == EMBEDDED_STORE else None
            fault = fault_of(exc, str(Path(embedded).parent) if embedded else None)
            if fault is None:
                raise
            raise fault from None

    def construct_repository(self) -> Repository:
        """The repository keeping the aggregates last read (KeptRepository), ``AGGREGATE_CACHE_MAXSIZE`` of them
        (CACHED_AGGREGATES by default), each brought up to date with the store when read again."""
        return KeptRepository(self.events, snapshot_store=self.snapshots,
                              cache_maxsize=int(self.env.get(self.AGGREGATE_CACHE_MAXSIZE) or CACHED_AGGREGATES),
                              fastforward=True, deepcopy_from_cache=False)

    def construct_transcoder(self) -> Transcoder:
        transcoder = OrjsonTranscoder()
        self.register_transcodings(transcoder)
        return transcoder

    # --- games ----------------------------------------------------------------------------
    def exists(self, game_id: str) -> bool:
        return rows.last_version(self.recorder, game_uuid(game_id)) > 0

    def last_seq(self, game_id: str) -> int | None:
        """The seq of the game's last stored event (0: its header alone; None: no such game): event seq N is
        version N + 1 of the game's stream (domain.integrity)."""
        version = rows.last_version(self.recorder, game_uuid(game_id))
        return version - 1 if version else None

    def get_game(self, game_id: str, version: int | None = None) -> Game:
        try:
            game = self.repository.get(game_uuid(game_id), version=version)
        except AggregateNotFoundError:
            raise GameNotFound(game_id) from None
        game.author = self.writer()
        return game

    def secret_seed(self, game_id: str) -> bytes | None:
        """The secret seed Rollcall drew for a digital game (None if the game came with its own commit)."""
        try:
            return bytes.fromhex(self.repository.get(seed_uuid(game_id)).seed)
        except AggregateNotFoundError:
            return None

    def seat(self, seat: UUID) -> Seat | None:
        """A player's seat in a round (domain.seats), or None if no game took it."""
        try:
            return self.repository.get(seat)
        except AggregateNotFoundError:
            return None

    def seat_taken(self, seat: UUID, header: dict | None = None) -> str | None:
        """The game holding a seat, or None: never taken, or held by a game its tournament withdrew (for
        a new game of ``header``'s tournament and round)."""
        found = self.seat(seat)
        if found is None or (header is not None and self.withdrawn(found.game, header)):
            return None
        return found.game

    def seated(self, tournament: str, round_no: int, names: Iterable[str]) -> dict[str, str]:
        """Those of ``names`` seated already in round ``round_no`` of ``tournament``: name -> the game
        holding the seat (a new game of the round cannot seat them, rule F11)."""
        header = {"tournament": tournament, "round": round_no}
        return {name: game for name in names
                if (game := self.seat_taken(seat_uuid(tournament, round_no, name), header))}

    # --- the one write path -----------------------------------------------------------------
    def write(self, game_id: str | None = None, events: Iterable[dict | Line] = (), *, header: dict | Line | None = None,
              strict: bool = True, source: str | None = None, after: int | None = None,
              made_here: bool = False) -> Written:
        """Write a new game (``header``) or append to a recorded one (``game_id``): every event checked
        against the rules and the chain, then stored in one transaction, or nothing is stored.

        ``after``: the seq the writer offered the events at (the last it saw). If the game has moved on since,
        nothing is stored: the write is ``recognised`` when the very events are stored already right after
        ``after`` (the same write sent again, its answer lost on the way: stored once), else GameMovedOn (two
        devices recording one game). Errors name ``source`` (a file, else the game), the line and the rule
        (RecordError)."""
        if header is None and after is not None:
            try:
                events = list(events)  # (looked at again when the write is recognised)
            except LocatedError as exc:
                raise RecordError(source or game_id or "<record>", exc.line, None, exc.error) from None
        try:
            checked = self.check(game_id, events, header=header, strict=strict, source=source, after=after,
                                 made_here=made_here)
            self.commit(checked)
        except GameMovedOn:
            found = self.recognised(game_id, events, after) if header is None and after is not None else None
            if found is None:
                raise
            return found
        return Written(checked.game_id, checked.lines, checked.events, checked.violations)

    def recognised(self, game_id: str, events: list[dict | Line], after: int) -> Written | None:
        """The stored lines right after seq ``after`` when they are ``events`` as given (derived fields and the
        time at the table aside), as a write that stored nothing; None when they are not."""
        given = [e.obj if isinstance(e, Line) else e for e in events]
        stored = self.stored_lines(game_id)[after + 1:after + 1 + len(given)]  # event seq N is line N
        if not given or len(stored) != len(given) or not all(map(_same_event, given, stored)):
            return None
        return Written(game_id, stored, 0, 0, recognised=True)

    def check(self, game_id: str | None = None, events: Iterable[dict | Line] = (), *,
              header: dict | Line | None = None, strict: bool = True, source: str | None = None,
              after: int | None = None, made_here: bool = False) -> Checked:
        """The game with ``events`` checked into its pending events; nothing is stored (``commit`` does).
        ``made_here``: the events' digital rolls and draws are Rollcall's own (``roll``, ``draw_card``)."""
        where = source or game_id or "<record>"
        number, event_type = 0, None
        # the key first: a write without the right one is told that, and nothing of what the rules say of it (a
        # new game's lines are read as they are checked: what they need beyond a key is asked when it is saved)
        stored = None
        if header is None:
            try:
                events = list(events)  # (the lines appended to a recorded game)
            except LocatedError as exc:
                raise RecordError(where, exc.line, None, exc.error) from None
            given = [obj for obj in (e.obj if isinstance(e, Line) else e for e in events) if isinstance(obj, dict)]
            if self.player_signed_in():  # a player's sign-in: its own rules first (domain.access.player_refusal)
                refusal = self.player_may(self.get_game(game_id), given)
                if refusal is not None:
                    raise refusal
            self.authorise(needs_of_lines([], given))
            stored = self.get_game(game_id)
            if needs_judge(stored.state.lines, given) and not needs_judge([], given):
                self.authorise(needs_of_lines(stored.state.lines, given))  # (a sealed game takes a judge's key)
        else:
            if self.player_signed_in():
                raise AccessDenied(_("a player's sign-in records the games paired for the player; it creates none"),
                                   rule="P04", need="record", holder=self.holder())
            self.authorise(needs_of_lines([], []))
        try:
            if header is not None:
                line = header if isinstance(header, Line) else Line(1, check_object(header), False)
                number = line.number
                checked = self._created(line.obj, strict)
                chain = self._chained("", line.obj, checked.game.header["hash"], is_header=True)
            else:
                checked = Checked(stored, [])
                if after is not None and checked.game.state.seq != after:
                    raise GameMovedOn(game_id, checked.game.state.seq, after)
                chain = checked.game.state.head
            game = checked.game
            seed = self._seed_of(checked)
            for item in events:
                line = item if isinstance(item, Line) else Line(0, check_object(item), False)
                number, obj = line.number, line.obj
                event_type = obj.get("type") if isinstance(obj.get("type"), str) else None
                if seed is not None:
                    obj = self._digital(game, seed, obj, made_here)
                recorded = game.record(obj, strict=strict, floatless=line.plain)
                checked.lines.append(recorded)
                checked.violations += len(recorded.get("violations", ()))
                chain = self._chained(chain, obj, recorded["hash"])
        except LocatedError as exc:
            raise RecordError(where, exc.line, None, exc.error) from None
        except (GameNotFound, GameMovedOn, RecordError):
            raise
        except RollcallError as exc:
            raise RecordError(where, number, event_type, exc) from None
        return checked

    def commit(self, *checked: Checked, also: Iterable[Aggregate] = ()) -> None:
        """Store checked games in one transaction, with the aggregates ``also`` written with them (the
        pairing that creates them), once the presented key may write them all (AccessDenied otherwise);
        GameAlreadyRecorded, F11 or GameMovedOn if another writer was first."""
        objs = [*also, *(obj for c in checked for obj in (c.game, *c.companions))]
        try:
            self.save(*objs)
        except IntegrityError:
            raise self.conflict(checked) from None

    def conflict(self, checked: Iterable[Checked]) -> RollcallError:
        """Why storing ``checked`` met rows stored meanwhile: the game, a seat, or newer events."""
        for c in checked:
            if c.created:
                met = self.met_meanwhile(c.game_id, [s.id for s in c.companions if isinstance(s, Seat)])
                if isinstance(met, RuleViolation):
                    return RecordError(c.game_id, 1, None, met)
                if met is not None:
                    return met
            else:
                return GameMovedOn(c.game_id, self.get_game(c.game_id).state.seq, c.game.state.seq - len(c.lines))
        return RollcallError(_("another writer stored the same rows meanwhile; nothing was stored"))

    def met_meanwhile(self, game_id: str, seats: Iterable[UUID]) -> GameAlreadyRecorded | RuleViolation | None:
        """Why a new game met rows stored meanwhile: the game itself, or a seat of its players (F11); None if neither."""
        if self.exists(game_id):
            return GameAlreadyRecorded(game_id)
        for seat in seats:
            if (other := self.seat_taken(seat)) not in (None, game_id):
                return RuleViolation(SEAT_RULE, _("a player of {game} took a seat in another game of this round "
                                                  "meanwhile ({other})").format(game=game_id, other=other))
        return None

    def _created(self, header: dict, strict: bool) -> Checked:
        """A new game from ``header``: its tournament and seats checked, a digital game's secret seed drawn."""
        seed = None
        if header.get("dice_mode") == "digital" and header.get("commit") is None:
            seed = randomness.new_seed()
            header = {**header, "commit": randomness.commit_of(seed)}
        data = normalise_header(header)
        taken = self.admit(data, strict=strict)
        game_id, seats = data["game"], seats_of(data)
        game = Game.start(header, game_uuid(game_id), strict=strict, author=self.writer(), violations=taken)
        companions: list[Aggregate] = [] if taken else [self._seated(seat, game_id) for _name, seat in seats]
        if seed is not None:
            companions.append(DiceSeed.draw(seed_uuid(game_id), seed))
        return Checked(game, [game.header], len(game.header.get("violations", ())), True, companions)

    def admit(self, data: dict, *, strict: bool = True) -> list[RuleViolation]:
        """What this store says of a new game with the (normalised) header ``data``: refused when its
        tournament is of another system or the game is recorded already; the F11 violations of its players
        seated in another game of its round, raised when ``strict``."""
        self.check_tournament(data)
        game_id = data["game"]
        if self.exists(game_id):
            raise GameAlreadyRecorded(game_id)
        seats = seats_of(data)
        taken = [RuleViolation(SEAT_RULE, _("{player} is seated already at {place} in round {round} of {tournament}; "
                                            "a player plays one game a round").format(
                     player=name, place=self.place_of(other), round=data.get("round"), tournament=data.get("tournament")))
                 for name, seat in seats if (other := self.seat_taken(seat, data))]
        if len({seat for _name, seat in seats}) < len(seats):
            taken.append(RuleViolation(SEAT_RULE, _("{player} cannot play both sides of a game; a game seats two "
                                                    "different players").format(player=seats[0][0])))
        if taken and strict:
            raise taken[0]
        return taken

    def place_of(self, game_id: str) -> str:
        """Where a recorded game is played, in words: ``table 3 (game club-r2-t3)``, or the game alone."""
        try:
            table = self.get_game(game_id).header.get("table")
        except GameNotFound:
            table = None
        return (_("table {table} (game {game})") if type(table) is int else _("game {game}")).format(table=table,
                                                                                                   game=game_id)

    def _seated(self, seat: UUID, game_id: str) -> Seat:
        """The seat taken by ``game_id``: a new one, or one a withdrawn game held."""
        found = self.seat(seat)
        if found is None:
            return Seat.take(seat, game_id)
        found.retake(game_id)
        return found

    @staticmethod
    def _chained(chain: str, given: dict, ours: str, *, is_header: bool = False) -> str:
        """The file's chain after a line: a line carrying a ``hash`` must match ours, or chain from the line
        before as given (the file's own chain may leave out derived fields)."""
        stated = given.get("hash")
        if stated is None:
            return ours
        if stated != ours and stated != (header_hash(given) if is_header else event_hash(chain, given)):
            raise MalformedRecord(_("`hash` does not match the line: the record was changed after it was exported. A "
                                    "record edited by hand is taken as a new record, chained again, once the `hash` "
                                    "of every line is left out (`rollcall import --edited` leaves them out)"),
                                  field="hash")
        return stated

    # --- digital dice and cards -----------------------------------------------------------
    def _seed_of(self, checked: Checked) -> bytes | None:
        if checked.game.header.get("dice_mode") != "digital":
            return None
        drawn = next((bytes.fromhex(c.seed) for c in checked.companions if isinstance(c, DiceSeed)), None)
        return drawn if drawn is not None else self.secret_seed(checked.game_id)

    @staticmethod
    def _digital(game: Game, seed: bytes, event: dict, made_here: bool) -> dict:
        """A digital roll or draw is made by Rollcall (``made_here``: ``roll``, ``draw_card``), never entered:
        one entered by hand is refused whatever it shows (F07), so that no refusal tells anything of a roll
        or draw before it is made (refusing only wrong faces would tell which are not the next ones). A
        digital game's end reveals the seed."""
        kind = event.get("type")
        if event.get("source") == "digital" and (kind in DIGITAL_ROLLS or kind in game.system.draw_events) \
                and not made_here:
            raise RuleViolation("F07", _("a digital roll or draw is made by Rollcall (`rollcall roll`, `rollcall "
                                         "draw`, the Roll and Draw buttons), never entered by hand"))
        if event.get("type") == "GameEnded" and "seed" not in event:
            return {**event, "seed": seed.hex()}
        return event

    def _digital_game(self, game_id: str, after: int | None = None) -> tuple[Game, bytes]:
        """The game (as it stood at seq ``after``, the seq a roll or draw was offered at) and its secret seed."""
        game = self.get_game(game_id)
        if after is not None and 0 <= after < game.state.seq:  # offered before the game moved on: made as then
            game = self.get_game(game_id, version=after + 1)
        seed = self.secret_seed(game_id)
        if game.header.get("dice_mode") != "digital" or seed is None:
            raise RollcallError(_("game '{game}' has no digital dice: its header must say `dice_mode: digital` and "
                                  "Rollcall must have drawn its seed").format(game=game_id))
        return game, seed

    def roll(self, game_id: str, player: str, purpose: str, die: str, count: int, *, after: int | None = None,
             at: str | None = None, needs: int | None = None, label: str | None = None) -> dict:
        """Roll ``count`` digital dice for ``player``: the faces come from the committed seed (``at``: the time
        at the table; a roll of purpose other may say the face each die ``needs`` and what it was for)."""
        game, seed = self._digital_game(game_id, after)
        if die not in game.state.dice.data:
            raise MalformedRecord(_("unknown die '{die}' (dice in force: {dice})").format(
                die=die, dice=", ".join(game.state.dice.data)), field="die")
        if not 1 <= count <= 100:
            raise MalformedRecord(_("a roll has 1 to 100 dice"), field="count")
        faces = randomness.roll(seed, game_id, game.state.seq + 1, game.state.dice.data[die], count)
        event = {"type": "DiceRolled", "player": player, "purpose": purpose, "die": die, "faces": faces,
                 "source": "digital", **({"needs": needs} if needs is not None else {}),
                 **({"label": label} if label else {})}
        return self.record(game_id, {**event, "at": at} if at else event, after=after, made_here=True)

    def draw_card(self, game_id: str, vortex: str | None = None, *, after: int | None = None,
                  at: str | None = None) -> dict:
        """The next digital card draw the game's rules pack says is due (a Flux card in The 9th Age, an
        ether phenomenon card in Tornscape), from the committed seed."""
        game, seed = self._digital_game(game_id, after)
        event = game.system.digital_draw(game.state, seed, vortex)
        return self.record(game_id, {**event, "at": at} if at else event, after=after, made_here=True)

    # --- disputes and rulings (domain.rulings) --------------------------------------------
    def open_dispute(self, game_id: str, by: str, about: list[int], claim: str, **extra) -> dict:
        """A player calls a judge about the events ``about``."""
        return self.record(game_id, {"type": "DisputeOpened", "by": by, "about": about, "claim": claim, **extra})

    def make_ruling(self, game_id: str, judge: str, about: list[int], decision: str, text: str, **extra) -> dict:
        """A judge's ruling (needs a judge's key where the store has keys): ``stands``, or ``void``, which
        leaves the events out of the as-ruled game and is refused if what remains breaks a rule."""
        return self.record(game_id, {"type": "RulingMade", "judge": judge, "about": about, "decision": decision,
                                     "text": text, **extra})

    def seal_game(self, game_id: str, confirmed_by: list[str]) -> dict:
        """Both players confirm the record; afterwards only judge events may follow."""
        return self.record(game_id, {"type": "GameSealed", "confirmed_by": confirmed_by})

    def record(self, game_id: str, event: dict, *, strict: bool = True, after: int | None = None,
               made_here: bool = False) -> dict:
        """Append one event to a recorded game (``write``); the stored line. A refusal is the rule's or the
        field's own error (RuleViolation, MalformedRecord)."""
        try:
            return self.write(game_id, [event], strict=strict, after=after, made_here=made_here).last
        except RecordError as exc:
            raise exc.cause from None

    # --- import and export ----------------------------------------------------------------
    def import_record(self, lines: Iterable[str | bytes], source: str = "<record>", *, lenient: bool = False,
                      edited: bool = False) -> Written:
        """Import one game record: every line checked, the file's hashes verified, one transaction."""
        return self._commit_written(self.check_record(lines, source, lenient=lenient, edited=edited))

    def check_record(self, lines: Iterable[str | bytes], source: str = "<record>", *, lenient: bool = False,
                     edited: bool = False) -> Checked:
        """A whole record checked (nothing is stored): the game with its events pending. ``edited``: a record
        edited by hand, its ``hash`` fields left out: taken as a new record, chained again as it is stored."""
        parsed = read_lines(lines)
        if edited:
            parsed = (Line(line.number, {k: v for k, v in line.obj.items() if k != "hash"}, line.plain)
                      for line in parsed)
        try:
            header = next(parsed)
        except LocatedError as exc:
            raise RecordError(source, exc.line, None, exc.error) from None
        except StopIteration:
            raise RecordError(source, 1, None, MalformedRecord(_("the record is empty: line 1 must be the header"))) from None
        return self.check(None, parsed, header=header, strict=not lenient, source=source)

    def _commit_written(self, checked: Checked) -> Written:
        self.commit(checked)
        return Written(checked.game_id, checked.lines, checked.events, checked.violations)

    def stored_lines(self, game_id: str) -> list[dict]:
        """The game's record lines exactly as stored (header first); a RollcallError naming the game and the
        row if one cannot be read (the store was changed behind Rollcall's back: ``verify`` says how)."""
        stored = self._rows.lines(game_uuid(game_id))
        if not stored:
            raise GameNotFound(game_id)
        if stored[0].topic != GAME_CREATED:
            raise RollcallError(_("game '{game}': its header (GameCreated) is not in the store; the store was "
                                  "changed (`rollcall verify` names the damage)").format(game=game_id))
        lines = []
        for row in stored:
            if row.data is None:
                raise RollcallError(_("game '{game}': its stored row at version {version} cannot be read; the store "
                                      "was changed (`rollcall verify {game}` names the damage)").format(
                    game=game_id, version=row.version))
            lines.append(row.data)
        return lines

    def export_lines(self, game_id: str) -> Iterator[str]:
        for data in self.stored_lines(game_id):
            yield export_line(data)

    # --- listing and verifying ------------------------------------------------------------
    def headers(self) -> Iterator[dict]:
        """Every recorded game's header, in the order the games were recorded (a header that cannot be read,
        changed in the store, is left out: ``verify`` names it)."""
        for _stream, header in self._created_rows():
            if header is not None:
                yield header

    @functools.cached_property
    def _rows(self) -> rows.Decoded:
        """The store's rows, decoded by this application's mapper (store.rows)."""
        return rows.Decoded(self.recorder, self.mapper)

    def _created_rows(self) -> Iterator[tuple[UUID, dict | None]]:
        """(stream, header or None where it cannot be read) of every GameCreated row, in order."""
        for oid, _topic, state in self._rows.notifications([GAME_CREATED]):
            data = (state or {}).get("data")
            yield oid, data if isinstance(data, dict) else None

    def game_streams(self) -> Iterator[tuple[UUID, str]]:
        """Every game the store holds, as (its stream, its name): the header's game id, or the stream's id
        where the header cannot be read or is gone (a store changed behind Rollcall's back)."""
        seen: set[UUID] = set()
        for oid, header in self._created_rows():
            seen.add(oid)
            game = header.get("game") if header else None
            yield oid, game if isinstance(game, str) else str(oid)
        for oid, topic, _state in self._rows.notifications(decode=False):  # game streams without a GameCreated row
            if oid not in seen and is_game_topic(topic):
                seen.add(oid)
                yield oid, str(oid)

    def verify(self, game_id: str, anchor: dict[int, str] | None = None) -> Verified:
        """Recompute a game's hash chain and authorship chain from the store (domain.integrity), then every
        digital roll and draw; the first damaged seq and how."""
        return self.verify_stream(game_uuid(game_id), game_id, anchor)

    def verify_stream(self, oid: UUID, name: str, anchor: dict[int, str] | None = None) -> Verified:
        """``verify`` of the game stored as ``oid`` (``game_streams``), named ``name``."""
        lines = self._rows.lines(oid)
        if not lines:
            raise GameNotFound(name)
        result = verify_rows(name, lines, anchor)
        if result.ok and game_uuid(str(lines[0].data.get("game"))) != oid:
            result.damage = Damage(0, "changed", _("the header names game {game}, which is not the game stored here "
                                                   "(the header was changed)").format(game=show(lines[0].data.get("game"))))
        if result.ok:
            datas = [row.data for row in lines]
            result.damage = unreplayable(datas)
            if result.ok and datas[0].get("dice_mode") == "digital":
                result.damage = self._verify_digital(name, datas)
        return result

    def heads(self, game_ids: list[str] | None = None) -> list[dict]:
        """Each game's last seq and hash: an anchor to keep or publish outside the store (``verify``)."""
        out = []
        streams = ([(game_uuid(g), g) for g in game_ids] if game_ids else
                   [(oid, h["game"]) for oid, h in self._created_rows() if h is not None])
        for oid, game_id in streams:
            stored = self._rows.lines(oid, last=True)
            if not stored:
                raise GameNotFound(game_id)
            last = stored[0].data
            if not isinstance(last, dict) or not isinstance(last.get("hash"), str):
                raise RollcallError(_("game '{game}': its last stored row cannot be read; the store was changed "
                                      "(`rollcall verify` names the damage)").format(game=game_id))
            out.append({"game": game_id, "seq": last.get("seq", 0), "hash": last["hash"]})
        return out

    def _verify_digital(self, game_id: str, datas: list[dict]) -> Damage | None:
        """Recompute every digital roll and draw from the revealed seed (or, before the end, Rollcall's
        own secret seed) and name the first that differs."""
        from domain.systems.pack import digital_mismatches

        ended = next((d for d in datas[1:] if d.get("type") == "GameEnded"), None)
        seed = ended.get("seed") if ended else None
        if seed is None:
            secret = self.secret_seed(game_id)
            if secret is None:
                return None
            seed = secret.hex()
        game = self.repository.get(game_uuid(game_id))
        problems = digital_mismatches(game.state, seed)
        if not problems:
            return None
        first = problems[0]
        seq = next((int(w) for w in first.split() if w.isdigit()), 0)
        return Damage(seq, "changed", _("digital dice: {problem}").format(problem=first))


__all__ = ["Checked", "Imported", "Rollcall", "Written", "game_uuid", "seed_uuid"]
