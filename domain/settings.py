"""Rollcall's settings, in one place: where the data lives, its files, and the environment that moves them.

The data folder holds the embedded event store and the read models. It is the ``--data`` option, else
the environment variable ``ROLLCALL_DATA``, else ``./data``. ``PERSISTENCE_MODULE`` (with eventsourcing's
``POSTGRES_*`` variables) moves the event store to another server; the read models stay in the folder.
A device signed in on the dashboard and left alone for ``ROLLCALL_IDLE_MINUTES`` (``rollcall dashboard
--idle-minutes``, 30 by default) is signed out. A write waits ``ROLLCALL_SQLITE_LOCK_TIMEOUT`` seconds (30) for
another writer of the embedded store before it is told the store is busy. Rollcall speaks the language of
``--lang`` (the command line) or of the browser's choice (the dashboard), else ``ROLLCALL_LANG``, else the
locale's (``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else English.
"""

from __future__ import annotations

import os
from pathlib import Path

from domain.errors import RollcallError
from i18n import LANGUAGES, SOURCE, N_, _, known

DATA_ENV = "ROLLCALL_DATA"        # the data folder
KEY_ENV = "ROLLCALL_KEY"          # the access key presented for writing
DEFAULT_DATA = "data"             # the data folder when nothing names one (relative to the working folder)

EVENTS_FILE = "events.sqlite"             # the embedded event store
# the read models: files the projector writes in turn (two; a third when a reader holds one long)
READ_FILES = ("rollcall.a.duckdb", "rollcall.b.duckdb", "rollcall.c.duckdb")
PUBLISHED_FILE = "rollcall.read.duckdb"   # a link to the one of them readers open (projections.publish)
FILL_FILE = "rollcall.fill.duckdb"        # a cold start's read models of every game, while they are filled in
LEGACY_LIVE_FILE = "rollcall.duckdb"      # an older Rollcall's one read-model file, taken as the first of READ_FILES
FOLLOWER_FILE = "follower.json"           # when the follower last saw that copy up to date (projections.follow)
DASHBOARD_FILE = "dashboard.json"         # the URL of the dashboard serving the folder (cli/serve.py)

PERSISTENCE_ENV = "PERSISTENCE_MODULE"
EMBEDDED_STORE = "eventsourcing.sqlite"
POSTGRES_STORE = "eventsourcing.postgres"
LOCK_TIMEOUT_ENV = "ROLLCALL_SQLITE_LOCK_TIMEOUT"  # seconds a writer waits for another's transaction on the
DEFAULT_LOCK_TIMEOUT = 30                            # embedded store before it is told the store is busy

LANG_ENV = "ROLLCALL_LANG"               # the language Rollcall speaks: en or ru
LOCALE_ENVS = ("LC_ALL", "LC_MESSAGES", "LANG")  # the locale's, in the order POSIX reads them

COLD_START_ENV = "ROLLCALL_COLD_START_EVENTS"  # a follower finding no read models of a store this large (events)
DEFAULT_COLD_START = 1_000_000                   # starts with the current tournament and fills in the rest after

WORKER_ENV = "ROLLCALL_WORKER"      # this projector's share of the games, w/W (one of W workers; W divides 16)
PARTITIONS_ENV = "ROLLCALL_PARTITIONS"  # data folders whose read models readers open as one (os.pathsep between)
SQLITE_FILE_ENV = "SQLITE_DBNAME"   # eventsourcing's: the SQLite store's file, when PERSISTENCE_MODULE names SQLite

FEED_ENV = "ROLLCALL_FEED"          # the broadcast's pub/sub (redis://… or nats://…) beside the data folder's own
BROADCAST_FOLDER = "broadcast"      # the spectators' snapshots in the data folder (projections.feeds.FolderFeed)
HOST_ENV = "ROLLCALL_HOST"          # the address the dashboard listens on (0.0.0.0: every interface)
BASE_URL_ENV = "ROLLCALL_BASE_URL"  # the dashboard's address as the venue's devices reach it (cards, join code)
URLS_ENV = "ROLLCALL_URLS"          # every address of the dashboard the devices can use (space between), for its pages

IDLE_ENV = "ROLLCALL_IDLE_MINUTES"  # a device signed in on the dashboard and left alone this long signs out
DEFAULT_IDLE_MINUTES = 30.0


def data_dir(given: str | os.PathLike | None = None) -> Path:
    """The data folder: ``given``, else ``$ROLLCALL_DATA``, else ``./data``."""
    return Path(given or os.environ.get(DATA_ENV) or DEFAULT_DATA)


def uses_embedded_store() -> bool:
    """Whether the event store is the SQLite file of the data folder (no other store is configured)."""
    return os.environ.get(PERSISTENCE_ENV, EMBEDDED_STORE) == EMBEDDED_STORE


def store_env(given: str | os.PathLike | None = None) -> dict[str, str]:
    """eventsourcing's settings for the event store: those of the environment when it names a store
    (``PERSISTENCE_MODULE``), otherwise the embedded SQLite file ``<data>/events.sqlite``."""
    if os.environ.get(PERSISTENCE_ENV):
        return {}
    folder = data_dir(given)
    folder.mkdir(parents=True, exist_ok=True)
    return {PERSISTENCE_ENV: EMBEDDED_STORE, "SQLITE_DBNAME": str(folder / EVENTS_FILE),
            "SQLITE_LOCK_TIMEOUT": str(sqlite_lock_timeout())}


def sqlite_lock_timeout() -> int:
    """How long a write waits for another writer's transaction on the embedded store before it is refused as
    busy: ``$ROLLCALL_SQLITE_LOCK_TIMEOUT`` whole seconds, else 30. Anything but a whole number of seconds from
    0 to a day is refused, naming the variable."""
    raw = str(os.environ.get(LOCK_TIMEOUT_ENV) or DEFAULT_LOCK_TIMEOUT).strip()
    if not raw.isdigit() or int(raw) > 86_400:
        raise RollcallError(_("{variable}: {value} is not a whole number of seconds from 0 to 86400").format(
            variable=LOCK_TIMEOUT_ENV, value=raw[:20]))
    return int(raw)


def embedded_store_file(given: str | os.PathLike | None = None) -> Path:
    """The SQLite file of the event store: the one ``SQLITE_DBNAME`` names when ``PERSISTENCE_MODULE`` names
    SQLite (several data folders, e.g. projector workers, over one store), else ``<data>/events.sqlite``."""
    named = os.environ.get(SQLITE_FILE_ENV) if os.environ.get(PERSISTENCE_ENV) == EMBEDDED_STORE else None
    return Path(named) if named and ":memory:" not in named else data_dir(given) / EVENTS_FILE


def worker() -> tuple[int, int]:
    """This projector's share of the games, (w, W): worker w of W projects the games whose stream id's last hex
    digit is w modulo W (and worker 0 every other stream: tournaments, keys) into its own data folder; readers
    open the W folders as one (``ROLLCALL_PARTITIONS``). ``ROLLCALL_WORKER=w/W``, by default 0/1: everything."""
    raw = str(os.environ.get(WORKER_ENV) or "0/1").strip()
    share, _slash, of = raw.partition("/")
    if share.isdigit() and of.isdigit() and 0 < int(of) <= 16 and 16 % int(of) == 0 and int(share) < int(of):
        return int(share), int(of)
    raise RollcallError(_("{variable} must be w/W, worker w of W workers (W one of 1, 2, 4, 8, 16; w from 0 to "
                          "W - 1), not {value!r}").format(variable=WORKER_ENV, value=raw[:20]))


def partitions() -> list[Path]:
    """The data folders whose read models readers open as one (``ROLLCALL_PARTITIONS``; none: the data folder's
    own)."""
    return [Path(p) for p in os.environ.get(PARTITIONS_ENV, "").split(os.pathsep) if p.strip()]


def cold_start_events() -> int:
    """How large a store is (notifications) for a follower that finds no read models to start with the current
    tournament (``ROLLCALL_COLD_START_EVENTS``)."""
    raw = str(os.environ.get(COLD_START_ENV) or DEFAULT_COLD_START).strip()
    if not raw.isdigit():
        raise RollcallError(_("{variable} must be a whole number of events, not {value!r}").format(
            variable=COLD_START_ENV, value=raw[:20]))
    return int(raw)


def idle_minutes(given: float | str | None = None, name: str = N_("the idle time")) -> float:
    """How long a signed-in dashboard device may be left alone: ``given`` (called ``name``), else
    ``$ROLLCALL_IDLE_MINUTES``, else 30 minutes. Anything but a number of minutes above 0 is refused, naming
    where it came from."""
    raw = given if given is not None else os.environ.get(IDLE_ENV) or DEFAULT_IDLE_MINUTES
    try:
        minutes = float(raw)
    except (TypeError, ValueError):
        minutes = float("nan")
    if not 0 < minutes < float("inf"):
        where = (_(name) if name else name) if given is not None else IDLE_ENV
        raise RollcallError(_("{where}: {value} is not a number of minutes above 0").format(
            where=where, value=str(raw)[:20]))
    return minutes


def language(given: str | None = None) -> str:
    """The language to speak: ``given`` (``--lang``) when it names one Rollcall speaks, else ``$ROLLCALL_LANG``,
    else the locale's, else English. A language Rollcall does not speak is refused, naming where it came from;
    a locale of another language means English."""
    for where, raw in (("--lang", given), (LANG_ENV, os.environ.get(LANG_ENV))):
        if raw:
            if known(raw) is None:
                raise RollcallError(_("{where}: {value} is not a language Rollcall speaks ({languages})").format(
                    where=where, value=raw[:20], languages=", ".join(LANGUAGES)))
            return known(raw)
    for name in LOCALE_ENVS:
        if os.environ.get(name):
            return known(os.environ[name]) or SOURCE
    return SOURCE


FEED_SCHEMES = ("redis", "nats")


def feed_url(given: str | None = None) -> str | None:
    """The broadcast's pub/sub: ``given`` (``--feed``), else ``ROLLCALL_FEED``, else none (the data folder's own
    feed alone, one machine). ``redis://HOST:PORT[/DB][?name=NAME]`` or ``nats://HOST:PORT[?name=NAME]``; anything
    else is refused, naming the option."""
    raw = (given if given is not None else os.environ.get(FEED_ENV) or "").strip()
    if not raw:
        return None
    scheme, sep, rest = raw.partition("://")
    if not sep or scheme.lower() not in FEED_SCHEMES or not rest.split("?")[0].split("/")[0]:
        raise RollcallError(_("the feed must be redis://HOST:PORT or nats://HOST:PORT (with ?name=NAME to share "
                              "one server between broadcasts), not {value!r}").format(value=raw[:80]))
    return raw
