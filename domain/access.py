"""Access keys: once an organiser has created the first key, recording needs a key."""

from __future__ import annotations


class AccessMixin:
    """The application service's key commands (mixed into :class:`domain.application.Rollcall`)."""
