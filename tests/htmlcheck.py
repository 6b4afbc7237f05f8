"""Reading the dashboard's server-built HTML pictures in tests: parse, find by class, text."""

from __future__ import annotations

import xml.etree.ElementTree as ET


def parse(html: str, root_class: str) -> ET.Element:
    """The picture's root ``<div class="root_class">`` after its leading ``<style>``, as XML."""
    assert html.startswith("<style>")
    return ET.fromstring(html[html.index(f'<div class="{root_class}"'):])


def by_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def one(root: ET.Element, cls: str, **attrs: str) -> ET.Element:
    found = [e for e in by_class(root, cls) if all(e.get(f"data-{k}") == v for k, v in attrs.items())]
    assert len(found) == 1, (cls, attrs, len(found))
    return found[0]


def text(e: ET.Element) -> str:
    return "".join(e.itertext())
