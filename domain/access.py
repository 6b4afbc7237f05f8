"""Access keys: reading is open; once an organiser has created the first key, writing needs a key.

A store without keys is a single-user store: everything may be written and events carry no author.
Each key has a role and a name; only the SHA-256 of the key is stored (keys are 192 random bits, so
a plain hash is enough). What each role may write:

- ``scorekeeper``: games and their events, disputes (``DisputeOpened``);
- ``judge``: what a scorekeeper may, and rulings (``RulingMade``) and anything in a sealed game;
- ``organiser``: what a scorekeeper may, and keys and tournaments.

Every event written with a key records the key's name as its ``author``.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from uuid import NAMESPACE_URL, uuid5

from eventsourcing.domain import Aggregate

from domain.errors import RollcallError
from domain.settings import KEY_ENV
from i18n import N_, _

ROLES = ("scorekeeper", "judge", "organiser")
# what a write needs -> the roles that may do it
MAY = {
    "record": frozenset({"scorekeeper", "judge", "organiser"}),
    "judge": frozenset({"judge"}),
    "organise": frozenset({"organiser"}),
}
# a key of each role, in words (said with _() in a refusal)
ROLE_KEYS = {"scorekeeper": N_("a scorekeeper key"), "judge": N_("a judge key"), "organiser": N_("an organiser key")}
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
                 holder: Holder | None = None) -> None:
        super().__init__(message)
        self.reason, self.need, self.holder = reason, need, holder

    @property
    def roles(self) -> frozenset[str]:
        """The roles whose key would have been let through (every role where ``need`` is not known)."""
        return MAY.get(self.need or "record", frozenset(ROLES))

    def __reduce__(self):
        return (_access_denied, (str(self), self.reason, self.need, self.holder))


def _access_denied(message: str, reason: str, need: str | None, holder: Holder | None) -> AccessDenied:
    return AccessDenied(message, reason=reason, need=need, holder=holder)


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def new_key() -> str:
    return KEY_PREFIX + secrets.token_urlsafe(24)


@dataclass(frozen=True)
class Holder:
    name: str
    role: str


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

    def __init__(self) -> None:
        self.keys: dict[str, tuple[str, str]] = {}

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
    return {"judge": judged} if judged else {"record": _("recording game events")}


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
        seq = data.get("seq")
        if sealed is not None and (type(seq) is not int or seq > sealed):  # (a line as given may lack its seq)
            return _("writing to a sealed game (sealed at seq {seq})").format(seq=sealed)
    return None


def require(holder: Holder | None, need: str, what: str) -> None:
    """Refuse ``what`` unless the holder's role may do ``need`` (a store without keys allows all)."""
    if holder is None or holder.role in MAY[need]:
        return
    raise AccessDenied(_("{what} needs {key}; '{holder}' holds {held}").format(
        what=what, key=key_of(MAY[need]), holder=holder.name, held=key_of([holder.role])), need=need, holder=holder)


def key_of(roles) -> str:
    """A key of any of ``roles``, in words: ``a judge key``, ``a judge key or an organiser key``."""
    said = [_(ROLE_KEYS[role]) if role in ROLE_KEYS else role for role in sorted(roles)]
    return said[0] if len(said) == 1 else _("{these} or {that}").format(these=", ".join(said[:-1]), that=said[-1])
