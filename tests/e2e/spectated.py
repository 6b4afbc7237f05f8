"""What a spectator's page hands its component (dashboard/spectate_component.py) under AppTest: the keys it
follows, the feed it reads them from, the snapshots a signed-in viewer's page makes itself."""

from __future__ import annotations

import json


def spectate_data(at) -> dict:
    """The spectators' component's data on an AppTest page."""
    found = [c for c in at.get("bidi_component") if "rollcall_spectate" in c.proto.component_name]
    assert len(found) == 1, "expected one spectators' component"
    return json.loads(found[0].proto.json)


def cards(data: dict) -> dict[str, int]:
    """game -> the seq its card shows, of the table snapshots a page hands its component."""
    return {s["game"]: s["seq"] for s in data["snapshots"] if s["kind"] == "table"}
