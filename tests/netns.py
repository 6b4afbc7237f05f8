"""A second network host for the venue tests: a Linux network namespace joined to this machine by a veth pair,
with a browser running inside it, as a tablet on the venue's wifi is another host than the server.

``host()`` makes the namespace (``ip netns add``: needs root, as CI has), gives both ends of the pair an
address of their own /30 and routes the namespace's traffic through this machine's end, so the namespace
reaches every address of this machine (its network address included, as a device on the wifi does) and
nothing else. ``browser(ns)`` starts playwright's server inside the namespace (``python -m playwright
run-server``) and connects to it from the test: the pages are driven from here, the browser's connections are
made from the namespace. The namespaces are made once, before the test processes start (``make_pool``, from
tests/conftest.py), because any change of this machine's network fails the requests of every Chromium running
here; a test gets one lent and put back as it was. Without root (and CI unset) the tests skip; under CI they fail.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking"]
_numbers = itertools.count()


@dataclass(frozen=True)
class Host:
    """A namespace: its name, its own address and the address of this machine on the pair's link."""

    name: str
    address: str
    gateway: str

    def run(self, *command: str, **kwargs) -> subprocess.CompletedProcess:
        """``command`` run inside the namespace."""
        return subprocess.run(["ip", "netns", "exec", self.name, *command], **kwargs)

    def popen(self, *command: str, **kwargs) -> subprocess.Popen:
        return subprocess.Popen(["ip", "netns", "exec", self.name, *command], **kwargs)


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True)


def network_address() -> str:
    """This machine's address on its network (the first non-loopback IPv4 address of ``hostname -I``)."""
    for address in subprocess.run(["hostname", "-I"], capture_output=True, text=True).stdout.split():
        if "." in address and not address.startswith("127."):
            return address
    pytest.fail("this machine has no non-loopback IPv4 address") if os.environ.get("CI") else pytest.skip(
        "this machine has no non-loopback IPv4 address")


def _usable() -> str | None:
    """Why namespaces cannot be made here (None: they can)."""
    if os.geteuid() != 0:
        return "network namespaces need root"
    if subprocess.run(["ip", "netns", "list"], capture_output=True).returncode != 0:
        return "`ip netns` does not work here"
    return None


POOL_ENV = "ROLLCALL_TEST_HOSTS"  # the namespaces made before any browser started: name=address=gateway,...
PER_WORKER = 2  # a test holds at most two second hosts at once
_in_use: set[str] = set()
_added: dict[str, list[str]] = {}  # a pooled namespace -> the addresses put on its loopback (in_the_way)


def _make(name: str, here: str, there: str, block: int) -> Host:
    base = (10 << 24) | (block << 2)
    gateway, address = (socket.inet_ntoa((base + i).to_bytes(4, "big")) for i in (1, 2))
    _ip("netns", "add", name)
    try:
        _ip("link", "add", here, "type", "veth", "peer", "name", there)
        _ip("link", "set", there, "netns", name)
        # no IPv6 on either end: its link-local address, ready a moment after a link is up, is a change of the
        # network that Chromium answers by failing every request under way (net::ERR_NETWORK_CHANGED)
        _ip("link", "set", here, "addrgenmode", "none")
        subprocess.run(["ip", "netns", "exec", name, "sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1",
                        "net.ipv6.conf.default.disable_ipv6=1"], check=True, capture_output=True)
        _ip("addr", "add", f"{gateway}/30", "dev", here)
        _ip("link", "set", here, "up")
        _ip("-n", name, "addr", "add", f"{address}/30", "dev", there)
        _ip("-n", name, "link", "set", there, "up")
        _ip("-n", name, "link", "set", "lo", "up")
        _ip("-n", name, "route", "add", "default", "via", gateway)
    except BaseException:
        _remove(name, here)
        raise
    return Host(name, address, gateway)


def _remove(name: str, here: str) -> None:
    subprocess.run(["ip", "link", "del", here], capture_output=True)
    subprocess.run(["ip", "netns", "del", name], capture_output=True)


_made_here: list[tuple[str, str]] = []  # the pool this process made: (namespace, its end of the pair)


def make_pool(count: int) -> None:
    """``count`` namespaces made now, before any browser runs, for :func:`host` to lend (``POOL_ENV``, which
    the test processes started after this inherit). Any change of this machine's links or addresses is a change of
    the network to every Chromium running here, which fails the requests it has under way: made while another
    test's browser loads a page, a namespace would fail that page. A session started by a test (``dev.py test
    --fast`` from a test) finds the pool in its environment and makes none: it would change the network under the
    browsers of the session that started it."""
    if _usable() is not None or os.environ.get(POOL_ENV):
        return
    made, tag = [], os.getpid() % 100000
    for n in range(count):
        name, here = f"rcp{tag}x{n}", f"rcph{tag}x{n}"
        try:
            host_ = _make(name, here, f"rcpn{tag}x{n}", (os.getpid() * 16 + n) % (1 << 22))
        except subprocess.CalledProcessError:  # (then host() makes its own, as it can)
            break
        _made_here.append((name, here))
        made.append(f"{host_.name}={host_.address}={host_.gateway}")
    os.environ[POOL_ENV] = ",".join(made)


def remove_pool() -> None:
    """The pool this process made, removed (one it found in its environment is left to its maker)."""
    if _made_here:
        os.environ.pop(POOL_ENV, None)
    while _made_here:
        _remove(*_made_here.pop())


def _lent() -> Host | None:
    """A namespace of the pool for this test process (each process its own), not lent at the moment; or None."""
    pool = [Host(*entry.split("=")) for entry in filter(None, os.environ.get(POOL_ENV, "").split(","))]
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    index = int(worker[2:]) if worker[2:].isdigit() else 0
    for found in pool[index * PER_WORKER:(index + 1) * PER_WORKER]:
        if found.name not in _in_use:
            return found
    return None


def _as_made(name: str) -> None:
    """A pooled namespace's loopback with 127.0.0.1 only again (whatever a test put on it, however it ended)."""
    _added.pop(name, None)
    shown = subprocess.run(["ip", "-n", name, "-4", "-o", "addr", "show", "dev", "lo"], capture_output=True,
                           text=True).stdout
    for address in re.findall(r"inet (\S+)", shown):
        if address != "127.0.0.1/8":
            subprocess.run(["ip", "-n", name, "addr", "del", address, "dev", "lo"], capture_output=True)


@contextmanager
def host() -> Iterator[Host]:
    """A namespace joined to this machine: one of the pool made before the browsers started, as it was made
    (what a test put in it is taken out afterwards); where the pool has none to lend, a fresh one, removed
    afterwards."""
    why = _usable()
    if why is not None:
        if os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)
    lent = _lent()
    if lent is not None:
        _in_use.add(lent.name)
        _as_made(lent.name)
        try:
            yield lent
        finally:
            _as_made(lent.name)
            _in_use.discard(lent.name)
        return
    n = next(_numbers)
    tag = f"{os.getpid() % 100000}{n}"
    name, here, there = f"rc{tag}", f"rch{tag}"[:15], f"rcn{tag}"[:15]
    # a /30 of 10.0.0.0/8 of its own, from the process id and a counter (two test processes never share one)
    made = _make(name, here, there, (os.getpid() * 16 + n + 8) % (1 << 22))
    try:
        yield made
    finally:
        _remove(name, here)


def in_the_way(ns: Host, address: str, port: int) -> socket.socket:
    """A listening socket inside ``ns`` at ``address:port``, an address of this machine (its network address): the
    namespace's connections to it reach whoever accepts on the socket — a faulty link of the tests, run here —
    instead of this machine, as a venue's wifi stands between a tablet and the laptop. The tablet keeps the address
    the cards give; nothing else of the namespace changes (its own address, its route)."""
    import ctypes
    import threading

    _ip("-n", ns.name, "addr", "add", f"{address}/32", "dev", "lo")
    _added.setdefault(ns.name, []).append(f"{address}/32")
    made: dict = {}

    def make() -> None:  # a thread of its own enters the namespace (a namespace is per thread); the socket stays in it
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            fd = os.open(f"/run/netns/{ns.name}", os.O_RDONLY)
            try:
                if libc.setns(fd, 0x40000000) != 0:  # CLONE_NEWNET
                    raise OSError(ctypes.get_errno(), "setns into the namespace")
            finally:
                os.close(fd)
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((address, port))
            sock.listen(128)
            sock.setblocking(False)
            made["sock"] = sock
        except OSError as exc:
            made["error"] = exc

    thread = threading.Thread(target=make)
    thread.start()
    thread.join()
    if "error" in made:
        raise made["error"]
    return made["sock"]


def reachable(ns: Host, address: str, port: int, timeout: float = 3.0) -> bool:
    """Whether a TCP connection from inside ``ns`` to ``address:port`` opens (there is no ping here)."""
    probe = (f"import socket,sys\ntry:\n socket.create_connection(({address!r},{port}),{timeout}).close()\n"
             "except OSError:\n sys.exit(1)")
    return ns.run(sys.executable, "-c", probe, capture_output=True).returncode == 0


def _free_port_in(ns: Host) -> int:
    found = ns.run(sys.executable, "-c", "import socket;s=socket.socket();s.bind(('0.0.0.0',0));"
                   "print(s.getsockname()[1])", capture_output=True, text=True, check=True)
    return int(found.stdout)


@contextmanager
def browser(ns: Host, log_path=None, via=None) -> Iterator:
    """A chromium running inside ``ns``, driven from here through playwright's server (started inside it);
    ``via``: the playwright BrowserType to connect with, where the test drives a browser here too (one playwright
    per thread)."""
    with devices(ns, log_path, via) as launch:
        yield launch()


@contextmanager
def devices(ns: Host, log_path=None, via=None) -> Iterator:
    """``launch()``: another chromium inside ``ns`` (a device of its own: each is closed by its ``close()``, and all
    when the block ends), each a connection to the one playwright server started inside it; ``via`` as for
    ``browser``."""
    from playwright.sync_api import sync_playwright

    if not os.path.exists(CHROMIUM) and not os.environ.get("CI"):
        pytest.skip(f"{CHROMIUM} is missing (install Debian's chromium); CI is unset")
    port = _free_port_in(ns)
    log = open(log_path, "wb") if log_path else subprocess.DEVNULL  # noqa: SIM115 - the server holds it
    server = ns.popen(sys.executable, "-m", "playwright", "run-server", "--unsafe", "--port", str(port), "--host",
                      ns.address, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    launched = []
    try:
        deadline = time.monotonic() + 30
        while not reachable(ns, ns.address, port, 1.0):
            if server.poll() is not None or time.monotonic() > deadline:
                pytest.fail("playwright's server did not start inside the namespace")
            time.sleep(0.2)
        options = {"executablePath": CHROMIUM, "args": CHROMIUM_ARGS, "headless": True}
        headers = {"x-playwright-launch-options": json.dumps(options)}
        with contextlib.ExitStack() as stack:
            kind = via if via is not None else stack.enter_context(sync_playwright()).chromium

            def launch():  # each connection to playwright's server launches a browser of its own
                found = kind.connect(f"ws://{ns.address}:{port}/", headers=headers)
                launched.append(found)
                return found

            try:
                yield launch
            finally:
                for found in launched:
                    with contextlib.suppress(Exception):  # (one the test closed already)
                        found.close()
    finally:
        # the whole group: playwright's Python entry point runs its node server as a child, which would outlive it
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        with contextlib.suppress(ProcessLookupError):  # the node server outlives a SIGTERM
            os.killpg(server.pid, signal.SIGKILL)
        server.wait()
        if log_path:
            log.close()
