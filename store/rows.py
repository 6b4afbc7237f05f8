"""A stored row's state as the plain JSON it encodes: the one place that knows how eventsourcing's mapper
keeps a state, encrypted by its cipher and compressed by its compressor where the store's settings
(``CIPHER_TOPIC``/``CIPHER_KEY``, ``COMPRESSOR_TOPIC``) configure them. eventsourcing's
``Mapper.to_domain_event`` undoes both before it decodes; the readers that decode JSON themselves (the
projector's replay, verify, export) undo them here first.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping

from eventsourcing.persistence import BaseInfrastructureFactory
from eventsourcing.utils import Environment

Plain = Callable[[bytes], bytes]
APP_NAME = "Rollcall"  # the application's name: its prefixed settings (ROLLCALL_CIPHER_KEY) are read too


def as_stored(state: bytes) -> bytes:
    """A state kept as it was encoded (neither cipher nor compressor)."""
    return state


def of_mapper(mapper) -> Plain:
    """How the states that ``mapper`` stored are read back (the application's own mapper)."""
    return _reader(mapper.cipher, mapper.compressor)


def of_settings(env: Mapping[str, str] | None = None) -> Plain:
    """How the states are read back under the store's settings ``env`` (the environment by default): a
    process that reads the store without opening the application (a projector's reading child)."""
    factory = BaseInfrastructureFactory(Environment(APP_NAME, dict(os.environ if env is None else env)))
    return _reader(factory.cipher(), factory.compressor())


def _reader(cipher, compressor) -> Plain:
    if cipher is None and compressor is None:
        return as_stored

    def plain(state: bytes) -> bytes:
        if cipher is not None:
            state = cipher.decrypt(state)
        if compressor is not None:
            state = compressor.decompress(state)
        return state

    return plain
