"""A projected data folder holding a game of about 5,000 events of each system (simulation.games.long_games),
for the browser tests and bench/replay_stepping.py."""

from __future__ import annotations

from pathlib import Path


def long_games_data(data: Path, seed: int = 1) -> list[str]:
    """Record and project the long games into ``data``; their ids."""
    from service.application import Rollcall
    from projections.projector import Projector
    from simulation.games import long_games, record_lines

    store = Rollcall.open(data)
    ids = []
    for game in long_games(seed):
        lines = record_lines(game)
        store.import_record(lines, f"{game.state.game}.rollcall.jsonl")
        ids.append(game.state.game)
    store.close()
    Projector(data).run()
    return ids
