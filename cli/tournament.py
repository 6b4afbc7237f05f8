"""Tournaments: create, standings, results."""

from __future__ import annotations
