"""The application service: record, import, export, verify and list games over the event store."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.persistence import IntegrityError

from eventsourcing.domain import Aggregate

from domain import randomness
from domain.errors import (GameAlreadyRecorded, GameNotFound, MalformedRecord, RecordError, RollcallError,
                           RuleViolation)
from domain.access import AccessMixin
from domain.game import Game
from domain.header import normalise_header
from domain.settings import store_env
from domain.record import LocatedError, event_hash, export_line, header_hash, read_lines, show
from domain.tournaments import TournamentMixin

NAMESPACE = uuid5(NAMESPACE_URL, "https://rollcall.invalid/games")
GAME_CREATED = "rollcall:GameCreated"


def game_uuid(game_id: str) -> UUID:
    return uuid5(NAMESPACE, game_id)


def seed_uuid(game_id: str) -> UUID:
    return uuid5(NAMESPACE, f"{game_id}#dice-seed")


class DiceSeed(Aggregate):
    """The secret seed of a digital game, kept apart from the game's own events (never projected)."""

    TOPIC = "rollcall:DiceSeed"

    class Created(Aggregate.Created):
        TOPIC = "rollcall:DiceSeedDrawn"
        seed: str

    def __init__(self, seed: str) -> None:
        self.seed = seed

    @classmethod
    def draw(cls, game_id: str, seed: bytes) -> DiceSeed:
        return cls._create(cls.Created, id=seed_uuid(game_id), seed=seed.hex())


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

    @property
    def ok(self) -> bool:
        return self.damage is None


class Rollcall(AccessMixin, TournamentMixin, Application):
    """Rollcall's event store of games."""

    name = "Rollcall"

    @classmethod
    def open(cls, data_dir: str | os.PathLike | None = None, *, key: str | None = None) -> Rollcall:
        """The store of ``data_dir``; ``key`` is the access key presented for writing (see domain.access)."""
        app = cls(env=store_env(data_dir))
        app.key = key
        return app

    # --- games ----------------------------------------------------------------------------
    def exists(self, game_id: str) -> bool:
        return bool(self.recorder.select_events(game_uuid(game_id), limit=1))

    def get_game(self, game_id: str, version: int | None = None) -> Game:
        try:
            game = self.repository.get(game_uuid(game_id), version=version)
        except AggregateNotFoundError:
            raise GameNotFound(game_id) from None
        game.author = self.writer()
        return game

    def create_game(self, header: dict, *, strict: bool = True) -> Game:
        """A new game (unsaved). A digital game without a commit gets a secret seed and its commit;
        the seed waits, unsaved, in ``game.seed`` until the game is saved with ``save_new``."""
        seed = None
        if header.get("dice_mode") == "digital" and header.get("commit") is None:
            seed = randomness.new_seed()
            header = {**header, "commit": randomness.commit_of(seed)}
        game_id = normalise_header(header)["game"]
        self.check_tournament(header)
        if self.exists(game_id):
            raise GameAlreadyRecorded(game_id)
        game = Game.start(header, game_uuid(game_id), strict=strict, author=self.writer())
        game.seed = seed
        return game

    def save_new(self, game: Game) -> None:
        """Save a new game (and its secret seed, if Rollcall drew one) in one transaction."""
        secret = [DiceSeed.draw(game.header["game"], game.seed)] if getattr(game, "seed", None) else []
        try:
            self.save(game, *secret)
        except IntegrityError:
            raise GameAlreadyRecorded(game.header["game"]) from None

    def secret_seed(self, game_id: str) -> bytes | None:
        """The secret seed Rollcall drew for a digital game (None if the game came with its own commit)."""
        try:
            return bytes.fromhex(self.repository.get(seed_uuid(game_id)).seed)
        except AggregateNotFoundError:
            return None

    # --- digital dice and cards -----------------------------------------------------------
    def _digital(self, game_id: str) -> tuple[Game, bytes]:
        game = self.get_game(game_id)
        seed = self.secret_seed(game_id)
        if game.header.get("dice_mode") != "digital" or seed is None:
            raise RollcallError(f"game '{game_id}' has no digital dice: its header must say `dice_mode: digital` "
                                "and Rollcall must have drawn its seed")
        return game, seed

    def roll(self, game_id: str, player: str, purpose: str, die: str, count: int) -> dict:
        """Roll ``count`` digital dice for ``player``: the faces come from the committed seed."""
        game, seed = self._digital(game_id)
        if die not in game.state.dice.data:
            raise MalformedRecord(f"unknown die '{die}' (dice in force: {', '.join(game.state.dice.data)})",
                                  field="die")
        if count < 1:
            raise MalformedRecord("a roll has at least one die", field="count")
        faces = randomness.roll(seed, game_id, game.state.seq + 1, game.state.dice.data[die], count)
        return self._append(game, {"type": "DiceRolled", "player": player, "purpose": purpose, "die": die,
                                   "faces": faces, "source": "digital"})

    def draw_card(self, game_id: str, vortex: str | None = None) -> dict:
        """The next digital card draw of the game's system: a Flux card (The 9th Age, drawn from the
        active player's cards left) or the due ether phenomenon card (Tornscape)."""
        game, seed = self._digital(game_id)
        if game.header["system"] != "t9a":
            return self.draw_phenomenon(game_id, vortex)
        phase = game.state.phase_state
        if phase is None or phase.step != "started":
            raise RollcallError(f"no Flux card is due in game '{game_id}' (a magic phase has just started?)")
        card = randomness.draw(seed, game_id, game.state.seq + 1, game.state.flux_left[phase.active])
        return self._append(game, {"type": "FluxCardDrawn", "card": card, "source": "digital"})

    def draw_phenomenon(self, game_id: str, vortex: str | None = None) -> dict:
        """Draw the next due ether phenomenon card digitally, with the effect the table asks for."""
        game, seed = self._digital(game_id)
        state = game.state
        due = [c for c in getattr(state, "draws", ()) if vortex in (None, c.vortex)]
        if not due:
            raise RollcallError(f"no ether phenomenon is due in game '{game_id}'")
        cell = due[0]
        card = randomness.draw(seed, game_id, state.seq + 1, state.deck_left())
        effect = game.system.cell_polarities(state, cell)[len(cell.drawn)]
        return self._append(game, {"type": "PhenomenonDrawn", "card": card, "effect": effect, "vortex": cell.vortex,
                                   "source": "digital"})

    def end_game(self, game_id: str, score: dict, winner: str | None, reason: str) -> dict:
        """End a game; a digital game's end reveals its seed (``record`` adds it)."""
        return self.record(game_id, {"type": "GameEnded", "score": score, "winner": winner, "reason": reason})

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

    def _append(self, game: Game, event: dict) -> dict:
        recorded = game.record(event)
        try:
            self.save(game)
        except IntegrityError:
            raise RollcallError(f"game '{game.header['game']}' changed meanwhile; try again") from None
        return recorded

    def record(self, game_id: str, event: dict, *, strict: bool = True) -> dict:
        """Append one event to a recorded game (one transaction). A digital roll or draw entered by
        hand must be the one the seed gives; a digital game's end reveals the seed."""
        game = self.get_game(game_id)
        seed = self.secret_seed(game_id)
        if seed is not None and event.get("source") == "digital":
            self._check_digital(game, seed, event)
        if seed is not None and event.get("type") == "GameEnded" and "seed" not in event:
            event = {**event, "seed": seed.hex()}
        recorded = game.record(event, strict=strict)
        try:
            self.save(game)
        except IntegrityError:
            raise RollcallError(f"game '{game_id}' changed while this event was checked; try again") from None
        return recorded

    @staticmethod
    def _check_digital(game: Game, seed: bytes, event: dict) -> None:
        seq, game_id, state = game.state.seq + 1, game.header["game"], game.state
        if event.get("type") == "DiceRolled" and isinstance(event.get("faces"), list):
            expected = randomness.roll(seed, game_id, seq, state.dice.data.get(event.get("die"), {"?": 1}),
                                       len(event["faces"]))
            if event["faces"] != expected:
                raise RuleViolation("F07", f"digital faces are computed by Rollcall (`rollcall roll`); the seed gives "
                                           f"{expected} at seq {seq}, not {event['faces']}")

    # --- import and export ----------------------------------------------------------------
    def import_record(self, lines: Iterable[str], source: str = "<record>", *, lenient: bool = False) -> Imported:
        """Import one game record: every line checked, the file's hashes verified, one transaction.

        The same checks as ``read_record`` and the rows ``save_new`` would store (domain.storedrows)."""
        from domain.storedrows import check_lines, store_rows

        checked = check_lines(self, lines, source, lenient=lenient)
        store_rows(self, checked)
        return Imported(checked.game, checked.events, checked.violations)

    def read_record(self, lines: Iterable[str], source: str = "<record>", *, lenient: bool = False) -> Game:
        """Check a whole record and return the unsaved game (nothing is stored)."""
        game: Game | None = None
        chain = ""
        violations = 0
        number, event_type = 0, None
        try:
            for number, obj in read_lines(lines):
                given = obj.get("hash")
                is_header = game is None
                if is_header:
                    event_type = None
                    game = self.create_game(obj, strict=not lenient)
                    violations += len(game.header.get("violations", ()))
                    ours = game.header["hash"]
                else:
                    event_type = obj.get("type") if isinstance(obj.get("type"), str) else None
                    recorded = game.record(obj, strict=not lenient)
                    violations += len(recorded.get("violations", ()))
                    ours = recorded["hash"]
                if given is not None and given != ours:
                    # The file's own chain may still hold (e.g. it leaves out derived fields).
                    expected = header_hash(obj) if is_header else event_hash(chain, obj)
                    if given != expected:
                        raise MalformedRecord("`hash` does not match the line (the record was changed after "
                                              "export)", field="hash")
                chain = given if given is not None else ours
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

    def verify(self, game_id: str, anchor: dict[int, str] | None = None) -> Verified:
        """Recompute a game's hash chain from the store and name the first damaged seq and how.

        Event seq N must be stored at originator_version N+1 under the topic ``rollcall:<type>``
        and chain from the hash of seq N-1. The first break is classified:
        ``removed`` (seq N is missing and no later row holds it), ``reordered`` (seq N is stored
        at another version), ``inserted`` (an extra row: a seq stored twice, a version that does
        not follow the one before, or a row that breaks the chain where a later row holding the same
        seq continues it) or ``changed`` (the row is in place but its content, topic or hash no
        longer match). An extra event appended with the next seq and version but a wrong
        hash cannot be told from a changed last event and is reported as changed.

        A chain that holds together can still have lost its last events, or have been rewritten and
        chained again: ``anchor`` (seq -> hash, from outside the store — an exported record, published
        heads) tells. A seq of the anchor beyond the stored game is ``removed``; the first seq whose
        stored hash differs from the anchor's is ``changed``."""
        stored = self.recorder.select_events(game_uuid(game_id))
        if not stored:
            raise GameNotFound(game_id)
        result = Verified(game_id, len(stored) - 1)
        datas: list[dict | None] = []
        for s in stored:
            try:
                data = self.mapper.transcoder.decode(s.state)["data"]
                datas.append(data if isinstance(data, dict) else None)
            except Exception:  # noqa: BLE001  an unreadable row is damage, not a crash
                datas.append(None)

        def damaged(seq: int, kind: str, detail: str) -> Verified:
            result.damage = Damage(seq, kind, detail)
            return result

        header = datas[0]
        if stored[0].topic != GAME_CREATED or header is None or "seq" in header:
            if header is not None and header.get("seq") is not None:
                return damaged(0, "removed", f"the header is missing; the first stored row is seq {header['seq']}")
            return damaged(0, "changed", "the first stored row is not a readable header")
        if header.get("hash") != header_hash(header):
            return damaged(0, "changed", "the header does not match its hash")
        if stored[0].originator_version != 1:
            return damaged(0, "inserted", f"the header is stored at version {stored[0].originator_version}, not 1")
        later_seqs = [d.get("seq") if d is not None else None for d in datas]
        previous = header["hash"]
        for position in range(1, len(stored)):
            row, data = stored[position], datas[position]
            version = row.originator_version
            if data is None:
                return damaged(position, "changed", f"the stored event at version {version} cannot be read")
            seq = data.get("seq")
            if seq != position:
                if isinstance(seq, int) and 1 <= seq < position:
                    return damaged(position, "inserted", f"an extra row (version {version}) repeats seq {seq} "
                                                         f"where seq {position} belongs")
                elif position in later_seqs[position + 1:]:
                    at = stored[later_seqs.index(position, position + 1)].originator_version
                    return damaged(position, "reordered", f"seq {position} is stored at version {at} and "
                                                          f"seq {seq} at version {version}")
                elif isinstance(seq, int) and seq > position:
                    return damaged(position, "removed", f"seq {position} is missing; the next stored event is "
                                                        f"seq {seq} at version {version}")
                return damaged(position, "changed", f"the event at version {version} claims seq {show(seq)}")
            if version != position + 1:
                return damaged(position, "inserted", f"an extra row at version {version} (after version "
                                                     f"{stored[position - 1].originator_version}) claims seq {seq}")
            if data.get("hash") != event_hash(previous, data):
                genuine = next((i for i in range(position + 1, len(stored)) if datas[i] is not None
                                and datas[i].get("seq") == position
                                and datas[i].get("hash") == event_hash(previous, datas[i])), None)
                if genuine is not None:
                    return damaged(position, "inserted", f"an extra row at version {version} claims seq {position}; "
                                                         f"the seq {position} that chains is stored at version "
                                                         f"{stored[genuine].originator_version}")
                return damaged(position, "changed", "the event does not match its hash (its content was changed)")
            if row.topic != f"rollcall:{data.get('type')}":
                return damaged(position, "changed", f"the row's topic {row.topic} does not match its event type "
                                                    f"{data.get('type')}")
            previous = data["hash"]
        if anchor:
            hashes = [header["hash"]] + [d["hash"] for d in datas[1:]]
            for seq, expected in sorted(anchor.items()):
                if seq >= len(hashes):
                    return damaged(len(hashes), "removed", f"the store ends at seq {len(hashes) - 1}, but the "
                                                           f"anchor holds seq {seq} (hash {expected[:12]}…)")
                if hashes[seq] != expected:
                    return damaged(seq, "changed", f"the stored hash {hashes[seq][:12]}… is not the anchor's "
                                                   f"{expected[:12]}… (the game was rewritten from here on)")
        if header.get("dice_mode") == "digital":
            result.damage = self._verify_digital(game_id, datas)
        return result

    def heads(self, game_ids: list[str] | None = None) -> list[dict]:
        """Each game's last seq and hash: an anchor to keep or publish outside the store (``verify``)."""
        out = []
        for game_id in game_ids or [h["game"] for h in self.headers()]:
            stored = self.recorder.select_events(game_uuid(game_id), desc=True, limit=1)
            if not stored:
                raise GameNotFound(game_id)
            last = self.mapper.to_domain_event(stored[0]).data
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
        return Damage(seq, "changed", f"digital dice: {first}")
