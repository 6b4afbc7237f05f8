"""The dashboard's server serves Rollcall's own routes beside the pages (dashboard/server.py)."""

import urllib.request

import pytest

from tests.e2e.streamlit_server import streamlit_server

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_the_dashboard_serves_rollcalls_routes_beside_its_pages(tmp_path):
    with streamlit_server(tmp_path / "data", tmp_path / "server.log") as base:
        with urllib.request.urlopen(f"{base}/rc/alive", timeout=5) as answer:
            assert answer.status == 200 and answer.read() == b"ok"
        with urllib.request.urlopen(f"{base}/_stcore/health", timeout=5) as answer:
            assert answer.status == 200
