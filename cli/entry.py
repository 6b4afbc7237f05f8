"""The ``rollcall`` program: choose the language first, then load the commands.

Click and Typer read their words (help panels, usage, errors) when imported, so the language — ``--lang``
(anywhere before the command's own arguments), else ``ROLLCALL_LANG``, else the locale — is chosen before
:mod:`cli.main` is imported.
"""

from __future__ import annotations

import os
import sys

import i18n
from i18n import _
from domain import settings
from domain.errors import RollcallError


def given_language(argv: list[str]) -> str | None:
    """The value of ``--lang`` in ``argv`` (``--lang ru`` or ``--lang=ru``), else None."""
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--lang="):
            return arg.split("=", 1)[1]
    return None


def run() -> None:
    try:
        lang = settings.language(given_language(sys.argv[1:]))
    except RollcallError as exc:
        # a language Rollcall does not speak was asked for: the refusal is said in the locale's
        i18n.use(next((os.environ[name] for name in settings.LOCALE_ENVS if os.environ.get(name)), None))
        print(_("error: {message}").format(message=exc), file=sys.stderr)
        sys.exit(2)
    i18n.use(lang)
    i18n.speak_in_libraries(lang)
    from cli.main import app

    app()
