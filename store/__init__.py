"""Adapters of the event store beyond what the application service does one game at a time:
importing many records at once (store.bulk)."""
