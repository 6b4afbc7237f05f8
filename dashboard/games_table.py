"""The Games overview table: one row per recorded game, with a link to its replay."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlencode

import pandas as pd
import streamlit as st

from i18n import N_, _

# Columns shown when list_games provides them, in this order.
COLUMNS = ("tournament", "round", "table_no", "started", "players", "system", "events", "turn", "violations",
           "ended", "winner", "score")


# the heads of the other columns (the frame keeps the names above: the page filters and sorts by them)
HEADS = {"tournament": N_("tournament"), "round": N_("round"), "started": N_("started"), "players": N_("players"),
         "system": N_("system"), "events": N_("events"), "turn": N_("turn"), "winner": N_("winner"),
         "score": N_("score")}


def replay_link(game: str, seq: int = 0) -> str:
    """Relative link to the Replay page at event ``seq`` of ``game``."""
    return "replay?" + urlencode({"game": game, "seq": seq})


def _player_list(value: Any) -> list[dict]:
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            return []
    if isinstance(value, dict):
        return [{"id": pid, **(p or {})} for pid, p in value.items()]
    return [p for p in value or [] if isinstance(p, dict)]


def _faction(system: Any, faction: Any) -> str:
    from dashboard.events import presentation

    return presentation(system).faction_name(faction)


def _players(value: Any, system: Any = None) -> str:
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            return value
    if isinstance(value, list):
        return _(" vs ").join(
            f"{p.get('name') or p.get('id')} ({_faction(system, p['faction'])})" if isinstance(p, dict) and p.get("faction")
            else str(p.get("name") or p.get("id")) if isinstance(p, dict) else str(p)
            for p in value
        )
    if isinstance(value, dict):
        return _(" vs ").join(str((p or {}).get("name") or pid) for pid, p in value.items())
    return "" if value is None else str(value)


def _text(value: Any) -> Any:
    if isinstance(value, dict):
        return " · ".join(f"{k} {v}" for k, v in value.items())
    if isinstance(value, list):
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return value


def winner_text(game: dict) -> str:
    """The winner by name; "draw" for an ended game without one; nothing while it goes on."""
    names = {str(p.get("id")): str(p.get("name") or p.get("id")) for p in _player_list(game.get("players"))}
    if game.get("winner"):
        return names.get(str(game["winner"]), str(game["winner"]))
    return _("draw") if game.get("ended") else ""


def score_text(game: dict) -> str:
    score = game.get("score")
    if isinstance(score, str) and score.startswith("{"):
        score = json.loads(score)
    if not isinstance(score, dict):
        return "" if score is None else str(score)
    names = {str(p.get("id")): str(p.get("name") or p.get("id")) for p in _player_list(game.get("players"))}
    return " – ".join(f"{names.get(str(pid), pid)} {points}" for pid, points in score.items())


def player_names(game: dict) -> list[str]:
    return [str(p.get("name") or p.get("id")) for p in _player_list(game.get("players"))]


def filter_games(games: list[dict], tournaments=(), rounds=(), players=(), systems=()) -> list[dict]:
    """The games matching every filter given (an empty filter matches all)."""
    return [g for g in games
            if (not tournaments or (g.get("tournament") or "—") in tournaments)
            and (not rounds or g.get("round") in rounds)
            and (not players or set(player_names(g)) & set(players))
            and (not systems or g.get("system") in systems)]


def games_frame(games: list[dict]) -> tuple[pd.DataFrame, dict]:
    rows = []
    for g in games:
        row = {"game": g["game"], "replay": replay_link(g["game"], 0)}
        for name in COLUMNS:
            if name not in g:
                continue
            if name == "players":
                row[name] = _players(g[name], g.get("system"))
            elif name == "winner":
                row[name] = winner_text(g)
            elif name == "score":
                row[name] = score_text(g)
            elif name == "ended":
                row[name] = (_("cannot be replayed") if g.get("replay_error") else
                             (_("ended at time") if g.get("ended_at_time") else _("ended")) if g[name] else _("in play"))
            else:
                row[name] = _text(g[name])
        rows.append(row)
    config = {
        "game": st.column_config.TextColumn(_("game")),
        "replay": st.column_config.LinkColumn(_("replay"), display_text="▶ " + _("replay")),
        "table_no": st.column_config.NumberColumn(_("table")),
        "violations": st.column_config.NumberColumn("⚠ " + _("violations")),
        "ended": st.column_config.TextColumn(_("state")),
    }
    for name, head in HEADS.items():  # the other columns' heads, in the page's language
        config.setdefault(name, st.column_config.Column(_(head)))
    return pd.DataFrame(rows), config
