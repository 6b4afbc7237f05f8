"""The venue's network as the dashboard meets it: the addresses of this machine that the tablets and phones can
use, the URLs made of them, and a QR code of one printed in the terminal.

``rollcall dashboard --host 0.0.0.0`` listens on every interface; each interface's IPv4 address (loopback
aside) is then an address of the dashboard. Without ``--host`` it listens on this machine alone (localhost).
"""

from __future__ import annotations

import ipaddress
import re
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterable

EVERY_INTERFACE = ("0.0.0.0", "::", "")
LOCAL = ("localhost", "127.0.0.1", "::1")
_INET = re.compile(r"\binet (?P<address>\d+\.\d+\.\d+\.\d+)/")


def interface_addresses() -> list[str]:
    """The IPv4 address of each network interface of this machine, loopback left out, in the system's order."""
    found: list[str] = []
    if shutil.which("ip"):  # Linux: every interface's
        try:
            listed = subprocess.run(["ip", "-o", "-4", "addr", "show"], capture_output=True, text=True, timeout=5)
            found = _INET.findall(listed.stdout)
        except (OSError, subprocess.SubprocessError):
            found = []
    if not found:  # elsewhere: what the host name resolves to, and the address the default route leaves by
        try:
            found = [info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
        except OSError:
            found = []
        found.append(_outbound())
    return _network_only(found)


def _outbound() -> str:
    """The address this machine's default route leaves by (no packet is sent: a UDP socket is only connected)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))
            return probe.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def _network_only(addresses: Iterable[str]) -> list[str]:
    kept: list[str] = []
    for address in addresses:
        try:
            parsed = ipaddress.ip_address(address)
        except ValueError:
            continue
        if not (parsed.is_loopback or parsed.is_unspecified or parsed.is_link_local) and address not in kept:
            kept.append(address)
    return kept


def listens_everywhere(host: str | None) -> bool:
    return host is not None and host.strip() in EVERY_INTERFACE


def device_urls(host: str | None, port: int, scheme: str = "http") -> list[str]:
    """The dashboard's URLs for the venue's devices when it listens on ``host``: each interface's address for
    every interface, the address itself for one; none for this machine alone."""
    if host is None or host.strip() in LOCAL:
        return []
    hosts = interface_addresses() if listens_everywhere(host) else [host.strip()]
    return [f"{scheme}://{_bracketed(h)}:{port}" for h in hosts]


def _bracketed(host: str) -> str:
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def terminal_qr(url: str, out=None) -> None:
    """A QR code of ``url`` in the terminal (half blocks: two rows of modules a line), for a tablet's camera."""
    import segno

    segno.make(url, error="m").terminal(out=out or sys.stdout, compact=True)
