"""Tournaments: named events of one game system that games link to by their header."""

from __future__ import annotations


class TournamentMixin:
    """The application service's tournament commands (mixed into :class:`domain.application.Rollcall`)."""
