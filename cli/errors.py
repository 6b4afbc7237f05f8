"""Domain errors become exit codes in one place: a clear message on stderr, never a traceback."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any

import typer

from domain.errors import RollcallError, one_line


def reported(command: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except RollcallError as exc:
            typer.echo(f"error: {one_line(str(exc))}", err=True)
            raise typer.Exit(1) from None
        except OSError as exc:
            typer.echo(f"error: {exc.filename or ''}: {exc.strerror or exc}", err=True)
            raise typer.Exit(1) from None
        except KeyboardInterrupt:
            typer.echo("interrupted", err=True)
            sys.exit(130)

    return wrapper
