"""The header of a game record: its common fields checked, its game id derived, its system named by the
pack's main alias."""

from __future__ import annotations

import re

from domain.errors import MalformedRecord
from domain.record import EXTENSION_PREFIX, FORMAT_VERSION, derive_game_id, field, show
from domain.systems import system_for

HEADER_FIELDS = frozenset({"rollcall", "system", "game", "tournament", "round", "table", "started", "players",
                           "dice_mode", "commit", "rules", "setup", "hash", "violations"})


def normalise_header(header: dict) -> dict:
    """A header checked for the common fields, with its ``game`` id filled in."""
    version = header.get("rollcall")
    if version != FORMAT_VERSION:
        raise MalformedRecord(f"field `rollcall` must be {FORMAT_VERSION} (the format version), not {show(version)}",
                              field="rollcall")
    for name in header:
        if name not in HEADER_FIELDS and not name.startswith(EXTENSION_PREFIX):
            raise MalformedRecord(f"unknown header field `{name}`", field=name)
    system = system_for(field(header, "system", str)).alias  # a header may name any alias of the pack
    players = field(header, "players", list)
    if len(players) != 2 or not all(isinstance(p, dict) for p in players):
        raise MalformedRecord("field `players` must list exactly two players", field="players")
    ids = [field(p, "id", str) for p in players]
    if len(set(ids)) != 2:
        raise MalformedRecord("field `players`: the two players need different ids", field="players")
    mode = header.get("dice_mode", "physical")
    if mode not in ("physical", "digital"):
        raise MalformedRecord("field `dice_mode` must be physical or digital", field="dice_mode")
    if mode == "digital" and "commit" in header and not re.fullmatch(r"[0-9a-f]{64}", str(header["commit"])):
        raise MalformedRecord("a digital game's header needs `commit`, 64 lowercase hex digits", field="commit")
    field(header, "rules", dict, optional=True)
    field(header, "setup", dict, optional=True)
    data = {k: v for k, v in header.items() if k not in ("hash", "violations")}
    if mode == "digital" and "commit" not in header:
        raise MalformedRecord("a digital game's header needs `commit` (Rollcall adds it when it creates the game)",
                              field="commit")
    data["game"] = derive_game_id(header)
    data["system"] = system
    data.setdefault("setup", {})
    return data
