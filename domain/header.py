"""The header of a game record: its common fields checked (each of its type, every number finite and within
domain.limits), its game id derived, its system named by the pack's main alias."""

from __future__ import annotations

import re
from datetime import datetime

from domain import clock, limits
from domain.names import name_problem
from domain.errors import MalformedRecord
from domain.record import (EXTENSION_PREFIX, FORMAT_VERSION, bounded, check_numbers, derive_game_id, did_you_mean,
                           field, out_of_bounds, show, unknown_value)
from domain.systems import system_for
from i18n import _

HEADER_FIELDS = frozenset({"rollcall", "system", "game", "tournament", "round", "table", "started", "players",
                           "dice_mode", "commit", "rules", "setup", "clock", "hash", "violations"})
PLAYER_FIELDS = frozenset({"id", "name", "faction"})
DICE_MODES = ("physical", "digital")


def normalise_header(header: dict) -> dict:
    """A header checked for the common fields, with its ``game`` id filled in."""
    version = header.get("rollcall")
    if type(version) is not int or version != FORMAT_VERSION:
        raise MalformedRecord(_("field `rollcall` must be {version} (the format version, an integer), not {value}")
                              .format(version=FORMAT_VERSION, value=show(version)), field="rollcall")
    for name in header:
        if name not in HEADER_FIELDS and not name.startswith(EXTENSION_PREFIX):
            raise MalformedRecord(_("unknown header field `{field}`").format(field=name)
                                  + did_you_mean(name, sorted(HEADER_FIELDS)), field=name)
    system = system_for(field(header, "system", str)).alias  # a header may name any alias of the pack
    for name in ("game", "tournament", "started", "commit"):
        field(header, name, str, optional=True)
    _check_players(header)  # (before the game: a game's id may be made of its players' names)
    for name in ("game", "tournament"):
        _check_length(header.get(name), name)
    _check_started(header.get("started"))
    clock.check_setting(header)
    for name in ("round", "table"):
        bounded(header, name, 1, limits.INTEGER, optional=True)
    check_numbers(header, "")
    mode = header.get("dice_mode", "physical")
    if mode not in DICE_MODES:
        raise unknown_value("dice_mode", mode, DICE_MODES)
    if mode == "digital" and "commit" in header and not re.fullmatch(r"[0-9a-f]{64}", str(header["commit"])):
        raise MalformedRecord(_("a digital game's header needs `commit`, 64 lowercase hex digits"), field="commit")
    _check_rules(field(header, "rules", dict, optional=True, default={}))
    field(header, "setup", dict, optional=True)
    data = {k: v for k, v in header.items() if k not in ("hash", "violations")}
    if mode == "digital" and "commit" not in header:
        raise MalformedRecord(_("a digital game's header needs `commit` (Rollcall adds it when it creates the "
                                "game)"), field="commit")
    data["game"] = derive_game_id(header)
    data["system"] = system
    data.setdefault("setup", {})
    return data


def _check_length(text: str | None, name: str) -> None:
    """A name of the header is at most ``limits.NAME`` characters (a game id, a tournament, a player) and holds no
    control or text-direction character (domain.names)."""
    if text is not None and len(text) > limits.NAME:
        raise MalformedRecord(_("field `{field}` is longer than {most} characters ({length:,})").format(
            field=name, most=limits.NAME, length=len(text)), field=name)
    problem = name_problem(text, name) if text is not None else None
    if problem:
        raise MalformedRecord(problem, field=name)


def _check_started(started: str | None) -> None:
    """``started`` is an ISO 8601 date or time (``2026-11-28T10:00:00Z``), as `at` on events."""
    if started is None:
        return
    try:
        datetime.fromisoformat(started)
    except ValueError:
        raise MalformedRecord(_("field `started` must be an ISO 8601 date and time such as 2026-11-28T10:00:00Z, "
                                "not {value}").format(value=show(started)), field="started") from None


def _check_players(header: dict) -> None:
    players = field(header, "players", list)
    if len(players) != 2 or not all(isinstance(p, dict) for p in players):
        raise MalformedRecord(_("field `players` must list exactly two players"), field="players")
    for i, player in enumerate(players):
        for name in player:
            if name not in PLAYER_FIELDS and not name.startswith(EXTENSION_PREFIX):
                raise MalformedRecord(_("unknown field `{field}`").format(field=f"players[{i}].{name}")
                                      + did_you_mean(name, sorted(PLAYER_FIELDS)), field=f"players[{i}].{name}")
        field(player, "id", str)
        for name in ("name", "faction"):
            if player.get(name) is not None and type(player[name]) is not str:
                raise MalformedRecord(_("field `{field}` must be a string, not {value}").format(
                    field=f"players[{i}].{name}", value=show(player[name])), field=f"players[{i}].{name}")
        for name in ("id", "name", "faction"):
            _check_length(player.get(name), f"players[{i}].{name}")
    if len({p["id"] for p in players}) != 2:
        raise MalformedRecord(_("field `players`: the two players need different ids"), field="players")


def _check_rules(rules: dict) -> None:
    """Rule data overrides: every number within ±RULE_NUMBER; each die of `rules.dice` face counts from 1 to 100,
    at most FACES faces in all (a digital roll draws one byte per die)."""
    _rule_numbers(rules, "rules")
    dice = rules.get("dice")
    if dice is None:
        return
    if not isinstance(dice, dict):
        raise MalformedRecord(_("field `rules.dice` must be an object: die -> {{face: count}}").format(),
                              field="rules.dice")
    for die, faces in dice.items():
        where = f"rules.dice.{die}"
        if die.startswith("_"):
            continue
        if not isinstance(faces, dict) or not faces:
            raise MalformedRecord(_("field `{field}` must be an object of face counts").format(field=where),
                                  field=where)
        for face in faces:
            bounded(faces, face, 1, 100, where=where)
        if sum(faces.values()) > limits.FACES:
            raise MalformedRecord(_("field `{field}`: a die has at most {most} faces, counting repeats").format(
                field=where, most=limits.FACES), field=where)


def _rule_numbers(value, name: str) -> None:
    if type(value) is dict:
        for key, item in value.items():
            _rule_numbers(item, f"{name}.{key}")
    elif type(value) is list:
        for i, item in enumerate(value):
            _rule_numbers(item, f"{name}[{i}]")
    elif type(value) in (int, float) and not -limits.RULE_NUMBER <= value <= limits.RULE_NUMBER:
        raise out_of_bounds(name, value, -limits.RULE_NUMBER, limits.RULE_NUMBER)
