"""The application service's access keys: the key presented for a session, its holder, the author recorded on
what it writes, and adding and revoking keys. Who may write what is decided in one place, domain.access
(``needs_of``, the roles' ``MAY``); here the service asks it before anything is saved."""

from __future__ import annotations

from domain.access import KEYRING_ID, MAY, AccessDenied, Holder, Keyring, needs_of, require
from domain.errors import RollcallError
from i18n import N_, _


class AccessMixin:
    """The application service's keys (mixed into :class:`service.application.Rollcall`).

    ``key`` is the key presented for this session (``Rollcall.open(..., key=...)``)."""

    key: str | None = None
    # the author of what a worker process checks for an importing process that checked the key
    acting_as: str | None = None

    def keyring(self) -> Keyring | None:
        from eventsourcing.application import AggregateNotFoundError

        try:
            return self.repository.get(KEYRING_ID)
        except AggregateNotFoundError:
            return None

    def holder(self, need: str | None = None) -> Holder | None:
        """The holder of the presented key; None in a store without keys. Refuses a bad key (for a write that
        needs ``need``)."""
        keyring = self.keyring()
        return keyring.holder(self.key, need) if keyring else None

    def author(self, need: str = "record", what: str = N_("recording")) -> str | None:
        """The name to record as the author of a write that needs ``need``; refuses the wrong key."""
        holder = self.holder(need)
        require(holder, need, _(what))
        return self.acting_as if self.acting_as is not None else holder.name if holder else None

    def writer(self) -> str | None:
        """The name of the presented key's holder, to record as the author of new events; None in a
        store without keys or when the key is missing or unknown (``save`` then refuses the write)."""
        if self.acting_as is not None:
            return self.acting_as
        try:
            holder = self.holder()
        except AccessDenied:
            return None
        return holder.name if holder else None

    def authorise(self, needs: dict[str, str]) -> None:
        """Refuse unless the presented key may do every need (``needs_of``); nothing is written either way."""
        if needs:
            holder = self.holder(min(needs, key=lambda need: len(MAY[need])))  # the strictest, if the key is bad
            for need, what in needs.items():
                require(holder, need, what)

    def save(self, *objs, **kwargs):
        """Save, once the presented key may write what is saved (``needs_of``)."""
        self.authorise(needs_of(objs))
        return super().save(*objs, **kwargs)

    def add_key(self, role: str, name: str) -> str:
        """A new key for ``name`` (the first must be an organiser's; later ones need an organiser key)."""
        keyring = self.keyring() or Keyring.create()
        holder = keyring.holder(self.key, "organise")
        require(holder, "organise", _("adding a key"))
        key = keyring.add(role, name, holder)
        self.save(keyring)
        return key

    def revoke_key(self, name: str) -> None:
        keyring = self.keyring()
        if keyring is None:
            raise RollcallError(_("this store has no keys"))
        holder = keyring.holder(self.key, "organise")
        require(holder, "organise", _("revoking a key"))
        keyring.revoke(name, holder)
        self.save(keyring)

    def key_holders(self) -> list[Holder]:
        keyring = self.keyring()
        return [Holder(n, role) for n, (role, _hash) in sorted(keyring.keys.items())] if keyring else []
