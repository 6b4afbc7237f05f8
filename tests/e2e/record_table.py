"""The Record page's table component under AppTest: what it was sent (the board, the offers, the previews) and
a tap on it, sent back as the browser's component sends it (static/record.js: a trigger value ``tap``)."""

from __future__ import annotations

import json

from streamlit.components.v2.bidi_component.main import _make_trigger_id
from streamlit.proto.WidgetStates_pb2 import WidgetState
from streamlit.testing.v1 import AppTest

from dashboard.record_component import BOARD, OFFERS, PREVIEWS


def mount(at: AppTest, key: str):
    """The component mounted under ``key`` in the last run (None if it was not)."""
    return next((c for c in at.get("bidi_component") if c.proto.id.endswith(f"-{key}")), None)


def sent(at: AppTest, key: str) -> dict | None:
    found = mount(at, key)
    return json.loads(found.proto.json) if found is not None else None


def board(at: AppTest) -> dict | None:
    return sent(at, BOARD)


def previews(at: AppTest) -> dict:
    found = sent(at, PREVIEWS)
    return found["previews"] if found else {}


def offers(at: AppTest) -> list[dict]:
    """Every offer's button as sent: ``{"id", "label", "at_once", "picked"}`` (a label of one that opens a form
    ends with " …" on the page, as ``labels`` gives it)."""
    found = sent(at, OFFERS)
    return [o for group in (found or {}).get("groups", []) for o in group["offers"]]


def labels(at: AppTest) -> list[str]:
    """The offers' buttons as the page labels them."""
    return [o["label"] if o["at_once"] else f"{o['label']} …" for o in offers(at)]


_taps = 0


def send(at: AppTest, key: str, value: dict) -> AppTest:
    """The component mounted under ``key`` reports ``value`` as its tap; the page runs (as after a tap)."""
    global _taps
    found = mount(at, key)
    assert found is not None, f"no {key} mounted"
    states = at._tree.get_widget_states()
    trigger = WidgetState(id=_make_trigger_id(found.proto.id, "events"))
    _taps += 1
    trigger.json_trigger_value = json.dumps([{"event": "tap", "value": {"n": _taps, **value}}])
    states.widgets.append(trigger)
    at._run(states)
    assert not at.exception, [e.value for e in at.exception]
    return at


def tap(at: AppTest, label: str) -> AppTest:
    """Tap the offer labelled ``label`` (as ``labels`` says it) at the seq it was offered at."""
    found = next((o for o in offers(at) if label in (o["label"], f"{o['label']} …")), None)
    assert found is not None, f"no offer {label!r} among {labels(at)}"
    seq = sent(at, OFFERS)["seq"]
    return send(at, OFFERS, {"id": found["id"], "seq": seq} if found["at_once"] else {"pick": found["id"], "seq": seq})


def tap_hex(at: AppTest, hex_text: str) -> AppTest:
    data = board(at)
    target = data["hexes"].get(hex_text)
    return send(at, BOARD, {"id": target, "seq": data["seq"]} if target else {"nothing": hex_text, "seq": data["seq"]})


def tap_model(at: AppTest, model: str) -> AppTest:
    data = board(at)
    return send(at, BOARD, {"id": data["models"][model], "seq": data["seq"]})


def offered(at: AppTest, where=None) -> list[str]:
    """The labels of the table's offers and of the page's other buttons (``where``: e.g. ``at.sidebar``)."""
    return labels(at) + [b.label for b in (where or at).button]


def tap_any(at: AppTest, label: str, where=None) -> AppTest:
    """Tap an offer of the table (its component), else a button of the page labelled ``label``."""
    if where is None and label in labels(at):
        return tap(at, label)
    found = [b for b in (where or at).button if b.label == label]
    assert found, f"no button {label!r} among {offered(at, where)}"
    found[0].click()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def seq_field(at: AppTest, name: str):
    """A correction's seq field (its key holds the game and the seq shown: corrections_ui.field_key)."""
    found = [n for n in at.number_input if n.key.startswith(f"{name}:")]
    assert found, f"no field {name} among {[n.key for n in at.number_input]}"
    return found[0]
