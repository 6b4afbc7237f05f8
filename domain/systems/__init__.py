"""Rules packs, one per game system, found by alias (``system_for``)."""

from domain.systems.claustrophobia import Claustrophobia  # noqa: F401  (registers "claustrophobia")
from domain.systems.t9a import T9A  # noqa: F401  (registers "t9a")
from domain.systems.tornscape.pack import Tornscape  # noqa: F401  (registers "tornscape")
