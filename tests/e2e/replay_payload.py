"""Reading the Replay page's stepper data in tests: the game the page sends to the browser, and its
picture at any seq (the frames applied exactly as the browser applies them)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET


def decode(blob: bytes) -> tuple[dict, dict]:
    """(head, game) of the component's data (dashboard/replay_component.py)."""
    head, _, body = blob.partition(b"\n")
    return json.loads(head), json.loads(body)


def component_data(at) -> tuple[dict, dict]:
    """The stepper's data on an AppTest page."""
    found = at.get("bidi_component")
    assert len(found) == 1, "expected one replay component"
    return decode(found[0].proto.bytes)


def picture_at(game: dict, seq: int) -> ET.Element:
    """The picture after ``seq``: the scene drawn once, then frames 1..seq applied (new values)."""
    scene = game["scene"]
    root = ET.fromstring(f"<div>{scene['html']}</div>")
    els = {el.get("id"): el for el in root.iter() if el.get("id")}
    table = scene["strings"]
    for frame in scene["frames"][: seq + 1]:
        for k in range(0, len(frame), 4):
            element, attr, value = table[frame[k]], table[frame[k + 1]], table[frame[k + 2]]
            el = els.get(element)
            if el is None:
                continue
            if attr == "text":
                el.text = value or ""
            elif attr == "html":
                for child in list(el):
                    el.remove(child)
                inner = ET.fromstring(f"<x>{value or ''}</x>")
                el.text = inner.text
                el.extend(list(inner))
                for e in el.iter():
                    if e.get("id"):
                        els[e.get("id")] = e
            elif value is None:
                el.attrib.pop(attr, None)
            else:
                el.set(attr, value)
    for el in root.iter():
        if el.get("data-seq") is not None:
            el.set("data-seq", str(seq))
    return root


def by_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def board(root: ET.Element) -> ET.Element:
    (svg,) = [e for e in root.iter() if (e.get("class") or "") == "rc-board"]
    return svg


def positions(root: ET.Element) -> dict[str, str]:
    """Where each model on the board stands (hidden models left out)."""
    return {e.get("id")[len("model-"):]: e.get("data-at") for e in by_class(root, "rc-model")
            if e.get("display") != "none"}


def rings(root: ET.Element) -> list[str]:
    return sorted(e.get("data-model") for e in by_class(root, "rc-hl-ring"))
