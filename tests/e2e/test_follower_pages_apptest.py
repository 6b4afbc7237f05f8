"""What the pages say of the follower's work: "read models N s behind" on every page once the follower has not
found them up to date for more than 5 s, nothing while it keeps them current; a published copy damaged or
removed under a follower is a plain message, not a traceback, and the page shows the games again once the copy
is published again."""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from domain.settings import FOLLOWER_FILE, PUBLISHED_FILE
from projections.projector import Projector

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "dashboard" / "app.py")
PAGES = ("games", "replay", "dispute", "live", "standings", "public", "analytics", "record", "new_game")


@pytest.fixture
def data(replay_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A projected data folder of this test's own (its status and copy get written over)."""
    folder = tmp_path / "data"
    shutil.copytree(replay_data, folder, symlinks=True)  # (the link readers open, to the files as they are)
    monkeypatch.setenv("ROLLCALL_DATA", str(folder))
    return folder


def confirmed(data: Path, seconds_ago: float) -> None:
    """The follower's status: the read models last found up to date ``seconds_ago``."""
    (data / FOLLOWER_FILE).write_text(json.dumps({"confirmed": time.time() - seconds_ago, "position": 1,
                                                  "pid": os.getpid()}))


def opened(page: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60).run()
    if page != "games":
        at.switch_page(f"views/{page}.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def warnings(at: AppTest) -> list[str]:
    return [w.value for w in at.warning]


def said_behind(at: AppTest) -> list[int]:
    """The seconds of every "Read models N s behind" on the page."""
    return [int(m.group(1)) for w in warnings(at) if (m := re.match(r"Read models (\d+) s behind", w))]


@pytest.mark.parametrize("page", PAGES)
def test_every_page_says_how_far_behind_the_read_models_are(page: str, data: Path) -> None:
    confirmed(data, 42)
    (behind,) = said_behind(opened(page))
    assert 42 <= behind < 100  # (the page ran a moment after the status was written)


def test_read_models_kept_current_or_not_followed_are_not_said_behind(data: Path) -> None:
    confirmed(data, 1)
    assert not any("behind" in w for w in warnings(opened("games")))
    (data / FOLLOWER_FILE).unlink()  # no follower (the read models of `rollcall project`)
    assert not any("behind" in w for w in warnings(opened("games")))


def test_long_delays_are_said_in_minutes(data: Path) -> None:
    confirmed(data, 15 * 60)
    assert any(w.startswith("Read models 15 min behind") for w in warnings(opened("live")))


@pytest.mark.parametrize("harm", ["random bytes", "0 bytes", "deleted"])
def test_a_damaged_copy_is_a_plain_message_and_the_page_comes_back(harm: str, data: Path) -> None:
    confirmed(data, 0)  # a follower follows the folder
    at = opened("games")
    assert at.dataframe
    copy = data / PUBLISHED_FILE
    if harm == "random bytes":
        copy.write_bytes(os.urandom(300_000))
    elif harm == "0 bytes":
        copy.write_bytes(b"")
    else:
        copy.unlink()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert [i.value for i in at.info] == ["The games cannot be read just now: they are being published again, and "
                                          "this page shows them by itself in a moment."]
    Projector(data).run()  # as the follower publishes it again
    at.run()
    assert not at.exception and at.dataframe and not at.info


def test_a_stream_overlay_on_air_never_says_the_read_models_are_behind(data: Path) -> None:
    from projections.queries import connect_read, list_games

    con = connect_read(data)
    try:
        game = list_games(con)[0]["game"]
    finally:
        con.close()
    confirmed(data, 42)
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.switch_page("views/overlay.py")
    at.query_params["game"] = game
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert not said_behind(at)
    assert said_behind(opened("live"))  # the same read models, said behind on a page people read
