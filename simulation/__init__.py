"""Simulated play: legal random games of every system and whole Swiss tournaments, reproducible from a
seed (the demo, tests and benchmarks). It uses the domain; the domain does not need it."""
