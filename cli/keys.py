"""Access keys: who may record events and rulings."""

from __future__ import annotations
