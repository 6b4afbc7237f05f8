"""Rules packs, one per game system, found by alias (``system_for``)."""

from domain.systems.tornscape.pack import Tornscape  # noqa: F401  (registers "tornscape")
