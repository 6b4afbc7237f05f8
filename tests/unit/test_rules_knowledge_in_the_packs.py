"""What a system's events are is its rules pack's to say: the dashboard and the command line ask the pack
(its facts, its presentation's groups, its free text) and name no system's event type, nor a roll purpose a pack
gives a meaning to."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from domain.systems import every_fact, system_for
from domain.systems.pack import GameSystem

ROOT = Path(__file__).resolve().parents[2]


def pack_event_types() -> set[str]:
    own = set(GameSystem.specs)  # the record format's events, every system's
    return {t for pack in GameSystem.registry.values() for t in pack.specs} - own


@pytest.mark.parametrize("folder", ["dashboard", "cli", "projections"])
def test_no_file_outside_the_packs_names_a_systems_event_type(folder: str) -> None:
    types = pack_event_types()
    assert {"ModelMoved", "CastingAttempted", "ActionDieAssigned"} <= types
    found = []
    for path in sorted((ROOT / folder).rglob("*.py")):
        code = re.sub(r'"""(?:.|\n)*?"""|#[^\n]*', "", path.read_text(encoding="utf-8"))  # docs and comments may
        named = set(re.findall(r"[\"']([A-Z][A-Za-z]+)[\"']", code)) & types
        found += [f"{path.relative_to(ROOT)}: {sorted(named)}"] if named else []
    assert not found, "\n".join(found)


def test_a_pack_says_which_of_its_events_are_moves_and_which_free_text_a_form_offers() -> None:
    tornscape, t9a = system_for("tornscape"), system_for("t9a")
    assert tornscape.records("moves", {"type": "ModelMoved"}) and not t9a.records("moves", {"type": "ModelMoved"})
    assert tornscape.records("stabilisations", {"type": "DiceRolled", "purpose": "stabilisation"})
    assert not tornscape.records("stabilisations", {"type": "DiceRolled", "purpose": "explore"})
    assert t9a.free_text == {"CastingAttempted": "target"} and not tornscape.free_text
    assert {fact.name for _system, fact in every_fact()} >= {"moves", "casts", "dispels", "initiative"}


def test_each_pack_titles_its_own_groups_of_actions() -> None:
    assert system_for("tornscape").presentation.group_title("crystals") == "Ether crystals"
    assert system_for("claustrophobia").presentation.group_title("warriors") == "Warriors"
    assert system_for("t9a").presentation.group_title("crystals") == "Crystals"  # not a group of its
    assert system_for("claustrophobia").presentation.LATE_GROUPS[0] == "warriors"
