"""The rules packs, one per game system, and the registry that finds each by its aliases.

Adding a system: a folder beside these with its pack (a GameSystem subclass naming its aliases), and
its import line below.
"""

from __future__ import annotations

from domain.errors import MalformedRecord
from domain.record import did_you_mean
from domain.systems.claustrophobia.pack import Claustrophobia
from domain.systems.facts import Fact
from domain.systems.pack import GameSystem
from domain.systems.t9a.pack import T9A
from domain.systems.tornscape.pack import Tornscape
from i18n import _

PACKS: tuple[type[GameSystem], ...] = (Tornscape, T9A, Claustrophobia)
_instances: dict[type[GameSystem], GameSystem] = {}


def system_for(alias: str) -> GameSystem:
    """The rules pack registered under ``alias`` (one instance per pack)."""
    cls = GameSystem.registry.get(alias) if isinstance(alias, str) else None
    if cls is None:
        raise MalformedRecord(_("field `system`: {why}").format(why=unknown_system(alias)), field="system")
    if cls not in _instances:
        _instances[cls] = cls()
    return _instances[cls]


def unknown_system(alias: object) -> str:
    """Why ``alias`` names no rules pack: the packs' aliases, and the near miss."""
    known = ", ".join(sorted(GameSystem.registry))
    return _("unknown system {name} (known: {known})").format(name=repr(alias), known=known) + \
        did_you_mean(alias, sorted(GameSystem.registry))


def main_alias(alias: str) -> str:
    """The pack's main alias for any of its aliases ("9th-age" -> "t9a")."""
    return system_for(alias).alias


def systems_in_words() -> str:
    """The packs' main aliases as a sentence lists them: ``tornscape, t9a or claustrophobia``."""
    names = [pack.alias for pack in PACKS]
    return _("{these} or {that}").format(these=", ".join(names[:-1]), that=names[-1]) if len(names) > 1 else names[0]


__all__ = ["PACKS", "GameSystem", "main_alias", "system_for", "systems_in_words", "unknown_system"]


def every_fact() -> list[tuple[str, Fact]]:
    """(system alias, fact) for every rules pack, in a stable order (domain.systems.facts)."""
    return [(alias, fact) for alias, pack in sorted(GameSystem.registry.items()) if alias == pack.alias
            for fact in pack.facts]


def fact_names_of(types: set[str]) -> set[str]:
    """The names of the facts the event types ``types`` record (a batch's facts, from its event types)."""
    return {fact.name for _system, fact in every_fact() if fact.type in types}
