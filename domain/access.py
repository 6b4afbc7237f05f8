"""Access keys: reading is open; once an organiser has created the first key, writing needs a key.

A store without keys is a single-user store: everything may be written and events carry no author.
Each key has a role and a name; only the SHA-256 of the key is stored (keys are 192 random bits, so
a plain hash is enough). What each role may write:

- ``scorekeeper``: games and their events, disputes (``DisputeOpened``);
- ``judge``: what a scorekeeper may, and rulings (``RulingMade``) and anything in a sealed game;
- ``organiser``: what a scorekeeper may, and keys and tournaments.

A **player's sign-in** (``Keyring.issue_player``, at check-in: a short code, stored hashed like a key) is valid
for one tournament; issued again on demand, it revokes the one before. It writes the events of the games where
that player is seated, in the round being played, and nothing else: the rules P01–P06 of docs/rules.md, decided
here alone (``player_refusal``, ``check_player_objs``); each refusal names its rule.

Every event written with a key records the key's name as its ``author`` (a player's sign-in: the player's name).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from uuid import NAMESPACE_URL, uuid5

from eventsourcing.domain import Aggregate

from domain.errors import RollcallError
from domain.record import slug
from domain.settings import KEY_ENV
from i18n import N_, _

ROLES = ("scorekeeper", "judge", "organiser")  # the roles of keys (a player's sign-in is no key: PLAYER)
PLAYER = "player"  # the role of a player's sign-in (Keyring.issue_player)
# what a write needs -> the roles that may do it (a player: only what player_refusal lets through)
MAY = {
    "record": frozenset({"scorekeeper", "judge", "organiser", PLAYER}),
    "judge": frozenset({"judge"}),
    "organise": frozenset({"organiser"}),
}
# a key of each role, in words (said with _() in a refusal)
ROLE_KEYS = {"scorekeeper": N_("a scorekeeper key"), "judge": N_("a judge key"), "organiser": N_("an organiser key"),
             PLAYER: N_("a player's sign-in")}
CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford's base 32: no I, L, O, U to misread
CODE_LENGTH = 10  # 50 random bits, typed as two groups of five
JUDGE_ONLY = frozenset({"RulingMade", "GameRewound"})  # what a player's sign-in never writes (P03)
KEY_PREFIX = "rk_"
COMPANIONS = frozenset({"DiceSeed", "Seat"})  # aggregates written only together with a game
KEYRING_ID = uuid5(NAMESPACE_URL, "https://rollcall.invalid/keyring")


class AccessDenied(RollcallError):
    """A write without the key it needs; nothing was written.

    Besides its message (for the command line) it says what a page needs to say it in its own words:
    ``need``, what the refused write needs (a key of ``MAY``: "record", "judge", "organise"; None where
    nothing asked for more than a key of the store), ``holder``, who holds the key presented (None: no
    key, or one the store does not know), and ``reason``: ``NO_KEY``, ``UNKNOWN_KEY`` or ``ROLE``."""

    NO_KEY, UNKNOWN_KEY, ROLE = "no key", "unknown key", "role"

    def __init__(self, message: str, *, reason: str = ROLE, need: str | None = None,
                 holder: Holder | None = None, rule: str | None = None) -> None:
        super().__init__(f"{rule} {message}" if rule else message)
        self.reason, self.need, self.holder, self.rule = reason, need, holder, rule
        self.message = message

    @property
    def roles(self) -> frozenset[str]:
        """The roles whose key would have been let through (every role where ``need`` is not known)."""
        return MAY.get(self.need or "record", frozenset(ROLES))

    def __reduce__(self):
        return (_access_denied, (self.message, self.reason, self.need, self.holder, self.rule))


def _access_denied(message: str, reason: str, need: str | None, holder: Holder | None,
                   rule: str | None = None) -> AccessDenied:
    return AccessDenied(message, reason=reason, need=need, holder=holder, rule=rule)


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def new_key() -> str:
    return KEY_PREFIX + secrets.token_urlsafe(24)


def new_code() -> str:
    """A player's sign-in code, as it is shown and typed: ``7KQ2M-XD4PA``."""
    code = "".join(secrets.choice(CODE_ALPHABET) for _i in range(CODE_LENGTH))
    return f"{code[:5]}-{code[5:]}"


def code_of(typed: str) -> str:
    """A code as typed (any case, with or without its dash or spaces; O for 0, I and L for 1) as it is hashed."""
    plain = "".join(typed.split()).replace("-", "").upper()
    return plain.translate(str.maketrans("OIL", "011"))


def player_slot(tournament: str, player: str) -> str:
    """The keyring's name for a player's sign-in in a tournament (names compared as slugs and without case)."""
    return f"{slug(tournament)}/{player.strip().casefold()}"


@dataclass(frozen=True)
class Holder:
    name: str
    role: str
    tournament: str | None = None  # a player's sign-in: the tournament it is valid for

    @property
    def is_player(self) -> bool:
        return self.role == PLAYER


class Keyring(Aggregate):
    """The store's keys: name -> role and hash of the key. Never projected."""

    TOPIC = "rollcall-access:Keyring"

    class Created(Aggregate.Created):
        TOPIC = "rollcall-access:KeyringCreated"

    class KeyAdded(Aggregate.Event):
        TOPIC = "rollcall-access:KeyAdded"
        name: str
        role: str
        key_hash: str
        added_by: str | None

        def apply(self, keyring: Keyring) -> None:
            keyring.keys[self.name] = (self.role, self.key_hash)

    class KeyRevoked(Aggregate.Event):
        TOPIC = "rollcall-access:KeyRevoked"
        name: str
        revoked_by: str | None

        def apply(self, keyring: Keyring) -> None:
            keyring.keys.pop(self.name, None)

    class PlayerSignInIssued(Aggregate.Event):
        """A player's sign-in for a tournament (any earlier one of that player there is void from now)."""

        TOPIC = "rollcall-access:PlayerSignInIssued"
        tournament: str
        player: str
        key_hash: str
        issued_by: str | None

        def apply(self, keyring: Keyring) -> None:
            keyring.players_signed[player_slot(self.tournament, self.player)] = (self.tournament, self.player, self.key_hash)

    class PlayerSignInRevoked(Aggregate.Event):
        TOPIC = "rollcall-access:PlayerSignInRevoked"
        tournament: str
        player: str
        revoked_by: str | None

        def apply(self, keyring: Keyring) -> None:
            keyring.players_signed.pop(player_slot(self.tournament, self.player), None)

    def __init__(self) -> None:
        self.keys: dict[str, tuple[str, str]] = {}
        self.players: dict[str, tuple[str, str, str]] = {}  # player_slot -> (tournament, player, hash of the code)

    @property
    def players_signed(self) -> dict[str, tuple[str, str, str]]:
        """The players' sign-ins (a keyring stored before there were any has none)."""
        return self.__dict__.setdefault("players", {})

    @classmethod
    def create(cls) -> Keyring:
        return cls._create(cls.Created, id=KEYRING_ID)

    def add(self, role: str, name: str, by: Holder | None) -> str:
        """Add a key for ``name`` with ``role``; the new key (only its hash is kept)."""
        if role not in ROLES:
            raise RollcallError(_("unknown role '{role}' (roles: {roles})").format(role=role, roles=", ".join(ROLES)))
        if not name.strip():
            raise RollcallError(_("a key needs a name (who holds it)"))
        if name in self.keys:
            raise RollcallError(_("'{name}' already holds a key; revoke it first to issue a new one").format(name=name))
        if not self.keys and role != "organiser":
            raise AccessDenied(_("the first key must be an organiser's (`rollcall keys add organiser NAME`): with it "
                                 "the store stops being single-user"), need="organise")
        key = new_key()
        self.trigger_event(self.KeyAdded, name=name, role=role, key_hash=key_hash(key),
                           added_by=by.name if by else None)
        return key

    def revoke(self, name: str, by: Holder) -> None:
        if name not in self.keys:
            raise RollcallError(_("no key is held by '{name}'").format(name=name))
        organisers = [n for n, (role, _hash) in self.keys.items() if role == "organiser"]
        if organisers == [name]:
            raise RollcallError(_("'{name}' holds the last organiser key; add another organiser first").format(
                name=name))
        self.trigger_event(self.KeyRevoked, name=name, revoked_by=by.name)

    def issue_player(self, tournament: str, player: str, by: Holder | None) -> str:
        """A new sign-in code for ``player`` in ``tournament`` (names as registered); the one issued before, if
        any, is void. Only a store with keys has players' sign-ins (without keys anyone may write)."""
        if not self.keys:
            raise RollcallError(_("a player's sign-in needs a store with keys: add an organiser's key first "
                                  "(`rollcall keys add organiser NAME`)"))
        code = new_code()
        self.trigger_event(self.PlayerSignInIssued, tournament=tournament, player=player,
                           key_hash=key_hash(code_of(code)), issued_by=by.name if by else None)
        return code

    def revoke_player(self, tournament: str, player: str, by: Holder | None) -> None:
        if player_slot(tournament, player) not in self.players_signed:
            raise RollcallError(_("{player} holds no sign-in for {tournament}").format(player=player,
                                                                                        tournament=tournament))
        self.trigger_event(self.PlayerSignInRevoked, tournament=tournament, player=player,
                           revoked_by=by.name if by else None)

    def player_signed_in(self, tournament: str, player: str) -> bool:
        return player_slot(tournament, player) in self.players_signed

    def holder(self, key: str | None, need: str | None = None) -> Holder | None:
        """Who holds ``key`` (None when the store has no keys); refuses a missing or unknown key (for a write
        that needs ``need``)."""
        if not self.keys:
            return None
        if not key:
            raise AccessDenied(_("this store needs a key to write: pass --key or set {variable}").format(
                variable=KEY_ENV), reason=AccessDenied.NO_KEY, need=need)
        digest = key_hash(key)
        for name, (role, stored) in self.keys.items():
            if hmac.compare_digest(stored, digest):
                return Holder(name, role)
        code = key_hash(code_of(key))
        for tournament, player, stored in self.players_signed.values():
            if hmac.compare_digest(stored, code):
                return Holder(player, PLAYER, tournament)
        raise AccessDenied(_("the key presented is not a key of this store"), reason=AccessDenied.UNKNOWN_KEY,
                           need=need)


def needs_of(objs) -> dict[str, str]:
    """What writing the pending events of ``objs`` needs (need -> what is written), the one place that
    decides it: a game's events need a key of any role; a ruling, or an event after the game was sealed,
    a judge's; other aggregates (tournaments) an organiser's. The keyring checks its own writes; a
    digital game's secret seed and the seats of its players go with the game."""
    needs: dict[str, str] = {}
    for obj in objs:
        pending = getattr(obj, "pending_events", None)
        if obj is None or isinstance(obj, Keyring) or not pending or type(obj).__name__ in COMPANIONS:
            continue
        if hasattr(obj, "header") and hasattr(obj, "state"):  # a Game
            judged = needs_judge(obj.state.lines, pending)
            if judged:
                needs["judge"] = judged
            else:
                needs.setdefault("record", _("recording game events"))
            if confirms_for_absent(pending):
                needs["organise"] = _("confirming a result for a player who left")
        else:
            kind = type(obj).__name__.lower()
            needs["organise"] = _("writing a tournament") if kind == "tournament" else \
                _("writing a {kind}").format(kind=kind)
    return needs


def needs_of_lines(lines: list[dict], given) -> dict[str, str]:
    """What writing the record lines ``given`` (as given: nothing of them checked yet) to a game whose stored
    lines are ``lines`` needs — asked before the rules, so that a write without the right key is told that
    and nothing else; ``needs_of`` decides the same of the checked events when they are saved."""
    judged = needs_judge(lines, given)
    needs = {"judge": judged} if judged else {"record": _("recording game events")}
    if confirms_for_absent(given):
        needs["organise"] = _("confirming a result for a player who left")
    return needs


def confirms_for_absent(pending) -> bool:
    """Whether ``pending`` (events or lines) confirms a result for a player who left (the organiser's)."""
    return any((e if isinstance(e, dict) else getattr(e, "data", None) or {}).get("type") == "ResultConfirmed"
               and (e if isinstance(e, dict) else getattr(e, "data", None) or {}).get("absent") for e in pending)


def needs_judge(lines: list[dict], pending) -> str | None:
    """Why writing the ``pending`` events (stored events, or record lines as given) of a game whose stored
    lines are ``lines`` needs a judge's key (a ruling, a rewind, or an event after the game was sealed), or
    None."""
    sealed = next((line["seq"] for line in lines if line["type"] == "GameSealed"), None)
    for event in pending:
        data = event if isinstance(event, dict) else getattr(event, "data", None) or {}
        if data.get("type") == "RulingMade":
            return _("a ruling")
        if data.get("type") == "GameRewound":
            return _("rewinding a game")
        if data.get("type") == "ClockAdjusted":
            return _("adjusting a clock")
        seq = data.get("seq")
        if sealed is not None and (type(seq) is not int or seq > sealed):  # (a line as given may lack its seq)
            return _("writing to a sealed game (sealed at seq {seq})").format(seq=sealed)
    return None


def require(holder: Holder | None, need: str, what: str) -> None:
    """Refuse ``what`` unless the holder's role may do ``need`` (a store without keys allows all)."""
    if holder is None or holder.role in MAY[need]:
        return
    if holder.is_player:  # (what a player's sign-in writes: player_refusal; never a judge's or an organiser's)
        rule, what_else = ("P03", _("a judge's key does")) if need == "judge" else ("P04", _("an organiser's key does"))
        raise AccessDenied(_("a player's sign-in never does this: {what} ({else_})").format(what=what, else_=what_else),
                           rule=rule, need=need, holder=holder)
    raise AccessDenied(_("{what} needs {key}; '{holder}' holds {held}").format(
        what=what, key=key_of(MAY[need] - {PLAYER}), holder=holder.name, held=key_of([holder.role])), need=need, holder=holder)


def key_of(roles) -> str:
    """A key of any of ``roles``, in words: ``a judge key``, ``a judge key or an organiser key``."""
    said = [_(ROLE_KEYS[role]) if role in ROLE_KEYS else role for role in sorted(roles)]
    return said[0] if len(said) == 1 else _("{these} or {that}").format(these=", ".join(said[:-1]), that=said[-1])


# --- a player's sign-in: what it may write (P01–P06) ----------------------------------------------------------

def seat_of(holder: Holder, header: dict) -> str | None:
    """The seat (``p1``) of the sign-in's player in the game of ``header``, if it is of the sign-in's tournament."""
    named = header.get("tournament")
    if not isinstance(named, str) or not holder.tournament or slug(named) != slug(holder.tournament):
        return None
    mine = holder.name.strip().casefold()
    return next((p["id"] for p in header.get("players", ()) if isinstance(p, dict)
                 and str(p.get("name") or p.get("id")).strip().casefold() == mine), None)


def _refused(rule: str, message: str, holder: Holder) -> AccessDenied:
    return AccessDenied(message, rule=rule, need="record", holder=holder)


def player_refusal(holder: Holder, header: dict, lines: list[dict], given, round_in_play: int | None
                   ) -> AccessDenied | None:
    """Why the player's sign-in ``holder`` may not write the events ``given`` (record lines, or stored events'
    data) to the game of ``header`` whose stored lines are ``lines``, in a tournament whose round being played is
    ``round_in_play`` (None: none paired); None when it may. The one place that decides it."""
    game = header.get("game")
    seat = seat_of(holder, header)
    if seat is None:
        return _refused("P01", _("{player}'s sign-in writes only the games where {player} is seated; {player} does "
                                 "not play game {game}").format(player=holder.name, game=game), holder)
    if header.get("round") != round_in_play:
        return _refused("P02", _("{player}'s sign-in writes only in the round being played (round {now} of "
                                 "{tournament}); game {game} is of round {round}").format(
            player=holder.name, now=round_in_play, tournament=holder.tournament, game=game,
            round=header.get("round")), holder)
    datas = [e if isinstance(e, dict) else getattr(e, "data", None) or {} for e in given]
    for data in datas:
        if data.get("type") in JUDGE_ONLY:
            return _refused("P03", _("a player's sign-in never writes a ruling or a rewind ({type}): a judge's key "
                                     "does").format(type=data.get("type")), holder)
    if any(line.get("type") == "GameSealed" for line in lines):
        return _refused("P05", _("game {game} is sealed: after the seal only a judge writes to it").format(game=game),
                        holder)
    confirmed = {line.get("seat") for line in lines if line.get("type") == "ResultConfirmed"}
    for data in datas:
        if data.get("type") == "ResultConfirmed":
            if data.get("absent"):
                return _refused("P06", _("a player's sign-in confirms for its player alone; the organiser confirms for "
                                         "a player who left"), holder)
            if data.get("seat") != seat:
                return _refused("P06", _("{player} confirms the result for their own seat ({seat}) only, not for "
                                         "{other}").format(player=holder.name, seat=seat, other=data.get("seat")),
                                holder)
            confirmed.add(data.get("seat"))
        elif data.get("type") == "GameSealed":
            players = {p.get("id") for p in header.get("players", ()) if isinstance(p, dict)}
            if not players <= confirmed:
                return _refused("P06", _("a player's sign-in seals a game only by both players' confirmations "
                                         "(ResultConfirmed by each seat)"), holder)
    return None


def check_player_objs(holder: Holder, objs, round_in_play) -> None:
    """Refuse, naming the rule, what the player's sign-in ``holder`` may not save of ``objs`` (aggregates with
    pending events): a new game or a tournament's event (P04), and of a game what ``player_refusal`` refuses.
    ``round_in_play(tournament)`` is the round being played of a tournament."""
    for obj in objs:
        pending = getattr(obj, "pending_events", None)
        if obj is None or not pending or type(obj).__name__ in COMPANIONS:
            continue
        if isinstance(obj, Keyring):
            raise _refused("P04", _("a player's sign-in never writes keys or sign-ins"), holder)
        if not (hasattr(obj, "header") and hasattr(obj, "state")):
            raise _refused("P04", _("a player's sign-in never writes a tournament's events (registration, check-in, "
                                    "pairing): an organiser's key does"), holder)
        if obj.version == len(pending):  # created in this write
            raise _refused("P04", _("a player's sign-in records the games paired for the player; it creates none"),
                           holder)
        first = len(obj.state.lines) - len(pending)
        stored = obj.state.lines[:max(first, 0)]
        refusal = player_refusal(holder, obj.header, stored, pending, round_in_play(obj.header.get("tournament")))
        if refusal is not None:
            raise refusal
