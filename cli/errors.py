"""Domain errors become exit codes in one place: a clear message on stderr, never a traceback."""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from typing import Any

import typer

from domain.errors import RollcallError, one_line
from store.opening import STORE_ERRORS
from i18n import _


def reported(command: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            result = command(*args, **kwargs)
            sys.stdout.flush()  # a reader that went away (`rollcall games | head -1`) is met here, not at exit
            return result
        except BrokenPipeError:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nothing more to write, nor to say
            sys.exit(141)  # as a program stopped by SIGPIPE
        except RollcallError as exc:
            typer.echo(_("error: {message}").format(message=one_line(str(exc))), err=True)
            raise typer.Exit(1) from None
        except STORE_ERRORS as exc:  # the store failed in the middle of a command (a write's fault is a StoreFault)
            typer.echo(_("error: the event store cannot be read or written ({why}: a damaged file or a full disk?); "
                         "nothing was stored").format(why=one_line(str(exc))), err=True)
            raise typer.Exit(1) from None
        except OSError as exc:
            typer.echo(_("error: {file}: {why}").format(file=exc.filename or "", why=exc.strerror or exc), err=True)
            raise typer.Exit(1) from None
        except Exception as exc:
            duckdb = sys.modules.get("duckdb")  # imported by the commands that read models (not by every command)
            if duckdb is None or not isinstance(exc, duckdb.Error):
                raise
            typer.echo(_("error: the read models cannot be read or written ({why}: a full disk?); `rollcall project` "
                         "rebuilds them once it can").format(why=one_line(str(exc))), err=True)
            raise typer.Exit(1) from None
        except KeyboardInterrupt:
            typer.echo(_("interrupted"), err=True)
            sys.exit(130)

    return wrapper
