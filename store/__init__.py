"""Adapters of the event store beyond what the application service does one game at a time: a stored row's
state read back as plain JSON (store.rows), importing many records at once (store.bulk)."""
