"""The Standings page under AppTest: the organiser's join code holds the address the venue's devices reach the
dashboard at (what `rollcall dashboard` told it), and the table cards link to that address unless another is typed
beside the button."""

from __future__ import annotations

import pytest

from test_standings_organiser_apptest import STANDINGS, imported, open_page

DEVICES = "http://192.0.2.77:8644"


@pytest.fixture
def paired(tmp_path, monkeypatch):
    data = tmp_path / "data"
    imported(data, rounds=(1,))
    monkeypatch.setenv("ROLLCALL_BASE_URL", DEVICES)
    monkeypatch.setenv("ROLLCALL_URLS", f"{DEVICES} http://198.51.100.4:8644")
    return data


def test_the_cards_link_to_the_address_the_dashboard_serves_the_devices_at(paired, monkeypatch) -> None:
    at = open_page(STANDINGS, paired, monkeypatch)
    assert at.text_input(key="cards_base").value == DEVICES
    cards = [d for d in at.get("download_button") if d.proto.label.startswith("Table cards")]
    assert cards and not cards[0].proto.disabled


def test_an_address_typed_beside_the_cards_button_is_checked(paired, monkeypatch) -> None:
    at = open_page(STANDINGS, paired, monkeypatch)
    at.text_input(key="cards_base").input("tablets.local:8501").run()
    assert any("The cards need the dashboard's address" in e.value for e in at.error), [e.value for e in at.error]
    cards = [d for d in at.get("download_button") if d.proto.label.startswith("Table cards")]
    assert cards[0].proto.disabled
    at.text_input(key="cards_base").input("https://rollcall.example.org/").run()
    assert not at.error
    assert not [d for d in at.get("download_button") if d.proto.label.startswith("Table cards")][0].proto.disabled


def test_the_organiser_is_shown_the_join_code_and_every_address(paired, monkeypatch) -> None:
    at = open_page(STANDINGS, paired, monkeypatch)
    joins = [e for e in at.expander if "join the dashboard" in e.label]
    assert len(joins) == 1, [e.label for e in at.expander]
    images = [c for c in joins[0].children.values() if c.type == "image"]
    assert [i.proto.imgs[0].caption for i in images] == [DEVICES]
    assert any("198.51.100.4:8644" in c.value for c in at.caption)


def test_a_dashboard_of_this_machine_alone_says_no_device_reaches_it(tmp_path, monkeypatch) -> None:
    data = tmp_path / "data"
    imported(data, rounds=(1,))
    monkeypatch.delenv("ROLLCALL_BASE_URL", raising=False)
    monkeypatch.delenv("ROLLCALL_URLS", raising=False)
    at = open_page(STANDINGS, data, monkeypatch)
    assert any("no tablet or phone of the venue reaches it" in i.value for i in at.info), [i.value for i in at.info]


def test_the_join_code_reads_back_as_the_address() -> None:
    import io

    import zxingcpp
    from PIL import Image

    from dashboard.join import qr_png

    found = zxingcpp.read_barcodes(Image.open(io.BytesIO(qr_png(DEVICES))))
    assert [f.text for f in found] == [DEVICES]


def test_the_address_for_the_devices_is_the_one_the_dashboard_was_told_else_the_browsers() -> None:
    from dashboard.join import join

    told = join("http://localhost:8501/standings", {"ROLLCALL_BASE_URL": DEVICES + "/"})
    assert (told.base, told.addresses, told.local_only) == (DEVICES, (DEVICES,), False)
    browser = join("http://192.0.2.5:8501/standings?tournament=X", {})
    assert (browser.base, browser.local_only) == ("http://192.0.2.5:8501", False)
    assert join("http://localhost:8501/standings", {}).local_only
