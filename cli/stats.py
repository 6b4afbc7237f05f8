"""Statistics of games and tournaments in the terminal."""

from __future__ import annotations
