"""The venue tests' second host (tests/netns.py) is another host: it reaches this machine at its network
address, never at its loopback, and is left as it was made (a namespace of the pool made before the browsers
started, tests/conftest.py) or removed (one made for the test)."""

import os
import re
import socket
import subprocess
import sys
import threading

import pytest

from tests.netns import POOL_ENV, host, network_address, reachable

pytestmark = pytest.mark.slow


def left_as_made(name: str) -> bool:
    """The namespace is gone, or back in the pool with nothing a test put in it (its loopback only 127.0.0.1)."""
    if name not in subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout.split():
        return True
    shown = subprocess.run(["ip", "-n", name, "-4", "-o", "addr", "show", "dev", "lo"], capture_output=True,
                           text=True).stdout
    return name in os.environ.get(POOL_ENV, "") and re.findall(r"inet (\S+)", shown) == ["127.0.0.1/8"]


def test_a_second_host_reaches_the_network_address_and_not_the_loopback():
    with socket.socket() as server:
        server.bind(("0.0.0.0", 0))
        server.listen()
        port = server.getsockname()[1]
        threading.Thread(target=lambda: [server.accept()[0].close() for _ in range(1)], daemon=True).start()
        address = network_address()
        with host() as ns:
            name = ns.name
            assert not reachable(ns, "127.0.0.1", port, 1.0)
            assert reachable(ns, address, port)
    assert left_as_made(name)


def test_a_link_in_the_way_takes_the_second_hosts_connections_to_the_network_address():
    """A faulty link put in the way inside the namespace (tests.netns.in_the_way) gets the connections the
    namespace makes to this machine's network address, at the port the server listens on, and forwards them."""
    from tests.faulty import faulty_link
    from tests.netns import in_the_way

    with socket.socket() as server:
        server.bind(("0.0.0.0", 0))
        server.listen()
        port = server.getsockname()[1]

        def answer() -> None:
            conn, _ = server.accept()
            with conn:
                conn.sendall(b"server:" + conn.recv(100))

        threading.Thread(target=answer, daemon=True).start()
        address = network_address()
        with host() as ns, faulty_link(address, ("127.0.0.1", port), sock=in_the_way(ns, address, port)) as link:
            said = ns.run(sys.executable, "-c", "import socket,sys; s = socket.create_connection("
                          f"({address!r}, {port}), 5); s.sendall(b'tap'); print(s.recv(100).decode())",
                          capture_output=True, text=True, timeout=30)
            assert said.stdout.strip() == "server:tap", said
            assert link.counts.connections == 1
            name = ns.name
    assert left_as_made(name)  # the address put in the way taken out again
