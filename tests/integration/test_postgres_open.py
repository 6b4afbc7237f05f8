"""Several processes opening one PostgreSQL store at once — a new one, whose tables they all create, and then
the same one again (each open replaces the store's insert function): every one of them opens it and writes
(no "tuple concurrently updated")."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from service.application import Rollcall

pytestmark = pytest.mark.postgres

ROOT = Path(__file__).resolve().parents[2]
PROCESSES = 6
ROUNDS = 4

CHILD = """
import json, sys, time
from service.application import Rollcall
start, game = float(sys.argv[1]), sys.argv[2]
while time.time() < start:
    pass
app = Rollcall.open()
app.write(header={"rollcall": 1, "system": "tornscape", "game": game, "players": [{"id": "p1"}, {"id": "p2"}],
                  "setup": {"board": {"width": 6, "height": 6}}})
print("stored", game)
"""


def open_at_once(env: dict[str, str], names: list[str]) -> list[subprocess.CompletedProcess]:
    start = str(time.time() + 3)  # every child has imported Rollcall by then: they open it together
    children = [subprocess.Popen([sys.executable, "-c", CHILD, start, name], cwd=ROOT, env=env, text=True,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE) for name in names]
    return [subprocess.CompletedProcess(c.args, c.wait(timeout=120), *c.communicate()) for c in children]


def test_processes_opening_a_new_postgresql_store_at_once_all_open_it(postgres_env: dict[str, str],
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    env = {**os.environ, **postgres_env}
    stored = []
    for round_ in range(ROUNDS):
        names = [f"g{round_}-{i}" for i in range(PROCESSES)]
        for child in open_at_once(env, names):
            assert child.returncode == 0, child.stderr[-2000:]
            stored.append(child.stdout.split()[-1])
    for name, value in postgres_env.items():
        monkeypatch.setenv(name, value)
    app = Rollcall.open()
    try:
        assert sorted(h["game"] for h in app.headers()) == sorted(stored)
    finally:
        app.close()
