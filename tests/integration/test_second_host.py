"""The venue tests' second host (tests/netns.py) is another host: it reaches this machine at its network
address, never at its loopback, and leaves nothing behind."""

import socket
import subprocess
import sys
import threading

import pytest

from tests.netns import host, network_address, reachable

pytestmark = pytest.mark.slow


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
    assert name not in subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout


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
