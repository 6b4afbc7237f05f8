"""The Games overview table: one row per recorded game, with a link to its replay."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlencode

import pandas as pd
import streamlit as st

# Columns shown when list_games provides them, in this order.
COLUMNS = ("tournament", "round", "table_no", "started", "players", "system", "events", "turn", "violations",
           "ended", "winner", "score")


def replay_link(game: str, seq: int = 0) -> str:
    """Relative link to the Replay page at event ``seq`` of ``game``."""
    return "replay?" + urlencode({"game": game, "seq": seq})


def _players(value: Any) -> str:
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            return value
    if isinstance(value, list):
        return " vs ".join(
            f"{p.get('name') or p.get('id')} ({p['faction']})" if isinstance(p, dict) and p.get("faction")
            else str(p.get("name") or p.get("id")) if isinstance(p, dict) else str(p)
            for p in value
        )
    if isinstance(value, dict):
        return " vs ".join(str((p or {}).get("name") or pid) for pid, p in value.items())
    return "" if value is None else str(value)


def _text(value: Any) -> Any:
    if isinstance(value, dict):
        return " · ".join(f"{k} {v}" for k, v in value.items())
    if isinstance(value, list):
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return value


def games_frame(games: list[dict]) -> tuple[pd.DataFrame, dict]:
    rows = []
    for g in games:
        row = {"game": g["game"], "replay": replay_link(g["game"], 0)}
        for name in COLUMNS:
            if name in g:
                value = g[name]
                if name == "score" and isinstance(value, str) and value.startswith("{"):
                    value = json.loads(value)
                row[name] = _players(value) if name == "players" else _text(value)
        rows.append(row)
    config = {
        "game": st.column_config.TextColumn("game"),
        "replay": st.column_config.LinkColumn("replay", display_text="▶ replay"),
        "table_no": st.column_config.NumberColumn("table"),
        "violations": st.column_config.NumberColumn("⚠ violations"),
    }
    return pd.DataFrame(rows), config
