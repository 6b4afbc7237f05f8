"""A reading child of the projector (projections.sources): its replayed share of every window of the store's
notification log, pickled on stdout.

    python -m projections.reading sqlite EVENTS_SQLITE AFTER UPTO BATCH_SIZE PART PARTS
    python -m projections.reading postgres APP_NAME:EVENTS_TABLE AFTER UPTO BATCH_SIZE PART PARTS   (the store's
    settings from the environment)

It starts without numpy and pandas: pyarrow imports numpy with itself and pandas the first time it builds an
array, to see whether it was given their objects, about 0.25 CPU seconds of each child's start for nothing (its
arrays are built from lists of Python values). Told they are missing, pyarrow goes on without them.
"""

from __future__ import annotations

import sys

LEFT_OUT = ("numpy", "pandas")


class _LeftOut:
    """An import finder that says the modules of LEFT_OUT are not there."""

    @staticmethod
    def find_spec(name: str, path=None, target=None):
        if name.partition(".")[0] in LEFT_OUT:
            raise ImportError(f"a reading child does without {name}", name=name)  # untranslated: never shown
        return None


if __name__ == "__main__":
    if not any(name in sys.modules for name in LEFT_OUT):
        sys.meta_path.insert(0, _LeftOut)
    from projections.sources import main

    try:
        main(*sys.argv[1:])
    except BrokenPipeError:  # the projector stopped reading (it failed or was killed)
        sys.exit(1)
