"""Adapters of the event store beyond what the application service does one game at a time: opening the store
and telling its faults apart (store.opening), a stored row read back as plain JSON (store.rows), many given rows
inserted in one transaction (store.bulk)."""
