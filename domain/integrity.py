"""Integrity of stored games: the hash chain of the record lines, the authorship chain of the store,
and anchors kept outside the store.

The record format's chain (domain.record: ``header_hash``, ``event_hash``) covers every line of a game.
Who wrote each line (the name of the key presented: ``author``) lives beside the line in the store, not
in the record; the *authorship chain* covers it: ``authored`` of the header is
``sha256("" + header hash + "\\n" + author)``, of each event ``sha256(previous authored + line hash +
"\\n" + author)``. An author changed in place breaks it at that event.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from domain.record import event_hash, header_hash, show
from domain.topics import GAME_CREATED
from i18n import _



def authorship(previous: str | None, line_hash: str, author: str | None) -> str:
    """The authorship chain after a line hashed ``line_hash`` written by ``author``."""
    return hashlib.sha256(f"{previous or ''}{line_hash}\n{author or ''}".encode()).hexdigest()


@dataclass
class Damage:
    seq: int
    kind: str  # changed | removed | reordered | inserted | unreplayable
    detail: str


@dataclass
class Verified:
    game: str
    events: int
    damage: Damage | None = None

    @property
    def ok(self) -> bool:
        return self.damage is None


@dataclass(frozen=True)
class StoredLine:
    """One stored row of a game as verify reads it: where it is stored, its topic, and its decoded state
    (``data``: the record line; ``author``, ``authored``), or None where the row cannot be read."""

    version: int
    topic: str
    state: dict[str, Any] | None

    @property
    def data(self) -> dict | None:
        data = self.state.get("data") if self.state else None
        return data if isinstance(data, dict) else None


def verify_rows(game_id: str, rows: list[StoredLine], anchor: dict[int, str] | None = None) -> Verified:
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
    result = Verified(game_id, len(rows) - 1)
    datas = [row.data for row in rows]

    def damaged(seq: int, kind: str, detail: str) -> Verified:
        result.damage = Damage(seq, kind, detail)
        return result

    header = datas[0]
    if rows[0].topic != GAME_CREATED or header is None or "seq" in header:
        if header is not None and header.get("seq") is not None:
            return damaged(0, "removed", _("the header is missing; the first stored row is seq {seq}").format(
                seq=header["seq"]))
        return damaged(0, "changed", _("the first stored row is not a readable header"))
    if header.get("hash") != header_hash(header):
        return damaged(0, "changed", _("the header does not match its hash"))
    if rows[0].version != 1:
        return damaged(0, "inserted", _("the header is stored at version {version}, not 1").format(
            version=rows[0].version))
    later_seqs = [d.get("seq") if d is not None else None for d in datas]
    previous = header["hash"]
    for position in range(1, len(rows)):
        row, data = rows[position], datas[position]
        version = row.version
        if data is None:
            return damaged(position, "changed", _("the stored event at version {version} cannot be read").format(
                version=version))
        seq = data.get("seq")
        if seq != position:
            if isinstance(seq, int) and 1 <= seq < position:
                return damaged(position, "inserted", _("an extra row (version {version}) repeats seq {seq} where seq "
                                                       "{position} belongs").format(
                    version=version, seq=seq, position=position))
            elif position in later_seqs[position + 1:]:
                at = rows[later_seqs.index(position, position + 1)].version
                return damaged(position, "reordered", _("seq {position} is stored at version {at} and seq {seq} at "
                                                        "version {version}").format(
                    position=position, at=at, seq=seq, version=version))
            elif isinstance(seq, int) and seq > position:
                return damaged(position, "removed", _("seq {position} is missing; the next stored event is seq {seq} "
                                                      "at version {version}").format(
                    position=position, seq=seq, version=version))
            return damaged(position, "changed", _("the event at version {version} claims seq {seq}").format(
                version=version, seq=show(seq)))
        if version != position + 1:
            return damaged(position, "inserted", _("an extra row at version {version} (after version {before}) claims "
                                                   "seq {seq}").format(
                version=version, before=rows[position - 1].version, seq=seq))
        if data.get("hash") != event_hash(previous, data):
            genuine = next((i for i in range(position + 1, len(rows)) if datas[i] is not None
                            and datas[i].get("seq") == position
                            and datas[i].get("hash") == event_hash(previous, datas[i])), None)
            if genuine is not None:
                return damaged(position, "inserted", _("an extra row at version {version} claims seq {position}; the "
                                                       "seq {position} that chains is stored at version {genuine}").format(
                    version=version, position=position, genuine=rows[genuine].version))
            return damaged(position, "changed", _("the event does not match its hash (its content was changed)"))
        if row.topic != f"rollcall:{data.get('type')}":
            return damaged(position, "changed", _("the row's topic {topic} does not match its event type {type}").format(
                topic=row.topic, type=data.get("type")))
        previous = data["hash"]
    if anchor:
        hashes = [header["hash"]] + [d["hash"] for d in datas[1:]]
        for seq, expected in sorted(anchor.items()):
            if seq >= len(hashes):
                return damaged(len(hashes), "removed", _("the store ends at seq {last}, but the anchor holds seq "
                                                         "{seq} (hash {hash}…)").format(
                    last=len(hashes) - 1, seq=seq, hash=expected[:12]))
            if hashes[seq] != expected:
                return damaged(seq, "changed", _("the stored hash {stored}… is not the anchor's {expected}… (the game "
                                                 "was rewritten from here on)").format(
                    stored=hashes[seq][:12], expected=expected[:12]))
    authored = ""
    for position, row in enumerate(rows):
        recorded = row.state.get("authored")
        if recorded is None:  # written before authors were chained: nothing to check
            authored = None
            continue
        expected = authorship(authored if position else "", datas[position]["hash"], row.state.get("author"))
        if authored is not None and recorded != expected:
            return damaged(position, "changed", _("the authorship chain breaks at seq {seq}: its author ({author}) or "
                                                  "its line was changed after it was written").format(
                seq=position, author=row.state.get("author") or _("none")))
        authored = recorded
    return result
