"""The application service's access keys: the key presented for a session, its holder, the author recorded on
what it writes, and adding and revoking keys. Who may write what is decided in one place, domain.access
(``needs_of``, the roles' ``MAY``); here the service asks it before anything is saved."""

from __future__ import annotations

from domain.access import (KEYRING_ID, MAY, AccessDenied, Holder, Keyring, check_player_objs, needs_of,
                           player_refusal, require)
from domain.errors import RollcallError
from i18n import N_, _
from store import rows


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
        """Save, once the presented key may write what is saved (``needs_of``; a player's sign-in: the rules of
        domain.access.check_player_objs)."""
        needs = needs_of(objs)
        holder = self.holder(min(needs, key=lambda need: len(MAY[need]))) if needs else None
        if holder is not None and holder.is_player:
            check_player_objs(holder, objs, self.round_in_play)
        else:
            self.authorise(needs)
        return super().save(*objs, **kwargs)

    def player_signed_in(self) -> bool:
        """Whether the presented sign-in is a player's (a bad key is refused where it is used)."""
        try:
            holder = self.holder()
        except AccessDenied:
            return False
        return holder is not None and holder.is_player

    def player_may(self, game, given) -> AccessDenied | None:
        """Why the presented sign-in may not write ``given`` (record lines) to ``game`` (a Game as stored), if it
        is a player's; None when it may, or is no player's."""
        holder = self.holder()
        if holder is None or not holder.is_player:
            return None
        return player_refusal(holder, game.header, game.state.lines, given,
                              self.round_in_play(game.header.get("tournament")))

    def round_in_play(self, tournament) -> int | None:
        """The round being played of a tournament created here: the last it paired (None: none, or no such)."""
        found = self._find_tournament(tournament) if isinstance(tournament, str) else None  # type: ignore[attr-defined]
        return found.last_round if found is not None and found.last_round else None

    def issue_player_signin(self, tournament: str, player: str) -> str:
        """A player's sign-in code for a created tournament (an organiser's key); one issued before is void."""
        require(self.holder("organise"), "organise", _("issuing a player's sign-in"))
        found = self.tournament(tournament)  # type: ignore[attr-defined]
        entry = found.registered(player)
        keyring = self.keyring() or Keyring.create()
        code = keyring.issue_player(found.name, entry["player"], self.holder("organise"))
        self.save(keyring)
        return code

    def revoke_player_signin(self, tournament: str, player: str) -> None:
        require(self.holder("organise"), "organise", _("revoking a player's sign-in"))
        found = self.tournament(tournament)  # type: ignore[attr-defined]
        keyring = self.keyring()
        if keyring is None:
            raise RollcallError(_("this store has no keys"))
        keyring.revoke_player(found.name, found.registered(player)["player"], self.holder("organise"))
        self.save(keyring)

    def player_signins(self, tournament: str) -> list[str]:
        """The players holding a sign-in for ``tournament`` (never the codes)."""
        keyring = self.keyring()
        found = self.tournament(tournament)  # type: ignore[attr-defined]
        return [player for t, player, _hash in keyring.players_signed.values() if t == found.name] if keyring else []

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

    def keys_version(self) -> int:
        """The version of the store's keyring (0: no keys yet): it changes when a key is added or revoked."""
        return rows.last_version(self.recorder, KEYRING_ID)

    def key_holders(self) -> list[Holder]:
        keyring = self.keyring()
        return [Holder(n, role) for n, (role, _hash) in sorted(keyring.keys.items())] if keyring else []
