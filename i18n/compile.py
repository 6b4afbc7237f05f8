"""Compile every catalog: ``python -m i18n.compile`` writes each ``.po``'s ``.mo`` beside it (run at install)."""

from __future__ import annotations

import sys

from i18n import LOCALES, compiled


def compile_all() -> list:
    written = []
    for po in sorted(LOCALES.glob("*/LC_MESSAGES/*.po")):
        mo = po.with_suffix(".mo")
        mo.write_bytes(compiled(po))
        written.append(mo)
    return written


if __name__ == "__main__":
    for mo in compile_all():
        print(mo)
    sys.exit(0)
