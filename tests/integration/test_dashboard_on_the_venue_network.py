"""`rollcall dashboard --host` serves the venue's network: it says every address the devices can use and prints a
QR code of it, a second host (a network namespace) reaches it there, the table cards link to it; without
``--host`` only this machine reaches it; ``--tls-cert``/``--tls-key`` serve HTTPS."""

from __future__ import annotations

import re
import urllib.request

import pytest
from typer.testing import CliRunner

from cli.main import app
from tests.processes import until
from tests.netns import host, network_address, reachable
from tests.venue import answers, certificate, dashboard, terminal_qr

pytestmark = pytest.mark.slow  # starts dashboards


def test_host_every_interface_says_the_network_address_and_prints_its_qr_code(tmp_path) -> None:
    address = network_address()
    with dashboard(tmp_path / "data", "--host", "0.0.0.0") as served:
        url = f"http://{address}:{served.port}"
        assert answers(url)
        with urllib.request.urlopen(f"{url}/rc/alive", timeout=5) as answer:
            assert answer.read() == b"ok"
        said = served.output
        assert f"dashboard on {url} for the venue's tablets and phones" in said, said
        assert terminal_qr(said) == [url], said
        with host() as tablet:
            assert reachable(tablet, address, served.port)


def test_rollcall_host_in_the_environment_serves_the_address_it_names(tmp_path) -> None:
    address = network_address()
    with dashboard(tmp_path / "data", env={"ROLLCALL_HOST": address}, at=address) as served:
        assert answers(f"http://{address}:{served.port}")
        assert f"dashboard on http://{address}:{served.port}" in served.output


def test_without_host_only_this_machine_reaches_the_dashboard(tmp_path) -> None:
    address = network_address()
    with dashboard(tmp_path / "data") as served:
        assert "only this machine reaches it: --host 0.0.0.0" in served.output
        assert not answers(f"http://{address}:{served.port}", timeout=1)
        with host() as tablet:
            assert not reachable(tablet, address, served.port, 1.0)


def test_tls_serves_https_and_says_the_https_address(tmp_path) -> None:
    address = network_address()
    cert, key = certificate(tmp_path, address)
    with dashboard(tmp_path / "data", "--host", "0.0.0.0", "--tls-cert", str(cert), "--tls-key", str(key)) as served:
        url = f"https://{address}:{served.port}"
        assert answers(url)
        assert not answers(f"http://{address}:{served.port}", timeout=2), "plain HTTP is served beside HTTPS"
        assert f"dashboard on {url}" in served.output
        assert terminal_qr(served.output) == [url]


def test_the_table_cards_link_to_the_address_the_running_dashboard_serves_the_devices_at(tmp_path, monkeypatch) -> None:
    from service.application import Rollcall

    monkeypatch.delenv("ROLLCALL_BASE_URL", raising=False)
    data = tmp_path / "data"
    store = Rollcall.open(data)
    store.create_tournament("Venue Cup", "t9a", rounds=1)
    for name in ("Anna Lind", "Boris Brandt"):
        store.register_player("Venue Cup", name, "Highborn Elves")
    store.pair_round("Venue Cup", 1)
    store.close()
    address = network_address()
    out = tmp_path / "cards.html"
    with dashboard(data, "--host", "0.0.0.0") as served:
        until(lambda: (data / "rollcall.read.duckdb").exists(), 60, "the dashboard's follower published nothing")
        done = CliRunner().invoke(app, ["tournament", "cards", "Venue Cup", "-o", str(out), "--data", str(data)])
        assert done.exit_code == 0, done.output
    links = set(re.findall(r'data-url="([^"]+)"', out.read_text(encoding="utf-8")))
    assert links and all(link.startswith(f"http://{address}:{served.port}/") for link in links), links


@pytest.mark.parametrize("args, said", [
    (["--tls-cert", "cert.pem"], "--tls-cert and --tls-key go together"),
    (["--tls-cert", "missing.pem", "--tls-key", "missing.key"], "--tls-cert: missing.pem is not a file"),
    (["--base-url", "tablets.local"], "--base-url must be the dashboard's address"),
])
def test_a_wrong_venue_option_is_said_before_anything_starts(tmp_path, monkeypatch, args, said) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cert.pem").write_text("")
    done = CliRunner().invoke(app, ["dashboard", "--no-open", "--data", str(tmp_path / "data"), *args])
    assert done.exit_code == 1 and said in done.output, done.output
    assert "Traceback" not in done.output
