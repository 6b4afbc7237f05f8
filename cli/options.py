"""What every command shares: the options (``--data``, ``--key``, ``--json``), opening the store, projecting
with a progress bar, reading the published read models, and the help's look (no type tags, plain
argument names).

Each noun's module builds its commands on an :class:`App`; ``cli.main`` adds them all. Commands are
wrapped by :func:`cli.errors.reported`, so a domain error becomes a message and exit status 1.
"""

from __future__ import annotations

import json
import re
import socket
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup

from cli.errors import reported
from domain import settings
from domain.errors import RollcallError
from i18n import N_, _, ngettext
from service.application import Rollcall

DataDir = Annotated[Optional[Path], typer.Option("--data", envvar=settings.DATA_ENV, metavar="DIR",
                                                 help=_("Data folder (event store and read models)."),
                                                 show_default="./data")]
Key = Annotated[Optional[str], typer.Option("--key", envvar=settings.KEY_ENV, show_envvar=True, metavar="KEY",
                                            help=_("Access key for writing, once the store has keys."),
                                            show_default=False)]
AsJson = Annotated[bool, typer.Option("--json", help=_("Print JSON."))]
ReadKey = Annotated[Optional[str], typer.Option(
    "--key", envvar=settings.KEY_ENV, show_envvar=True, metavar="KEY", show_default=False,
    help=_("A key of the store: shows the games a tournament's broadcast delay holds back as they are recorded."))]


# The Click inside Typer (typer._click) has no catalog: the words of it a person meets are said here in the
# language being spoken (Typer's own words, and Click's where Click itself is used, are in click.po).
try:
    from typer._click import exceptions as click_errors
except ImportError:  # another Typer: its Click's words stay English
    click_errors = None
LIBRARY_HELP = (N_("Show this message and exit."), N_("Install completion for the current shell."),
                N_("Show completion for the current shell, to copy it or customize the installation."))
MISSING = {"argument": N_("Missing argument {name}."), "option": N_("Missing option {name}."),
           "parameter": N_("Missing parameter {name}.")}
EXTRA = re.compile(r"Got unexpected extra argument\(s\) \((?P<args>.*)\)$", re.S)
NEEDS_VALUE = re.compile(r"Option (?P<name>.+) requires an argument\.$")


def said(exc: Exception) -> None:
    """A usage error of Typer's Click put in the language being spoken (an unknown option, a missing argument or
    option, an extra argument, an option without its value, a bad value); another is left as it is."""
    if click_errors is None or not isinstance(exc, click_errors.UsageError):
        return
    if isinstance(exc, click_errors.NoSuchOption):
        exc.message = _("No such option: {name}").format(name=exc.option_name)
        if exc.possibilities:
            exc.message += " " + _("(Possible options: {options})").format(options=", ".join(sorted(exc.possibilities)))
            exc.possibilities = None
    elif isinstance(exc, click_errors.MissingParameter):
        hint = exc.param_hint if exc.param_hint is not None else exc.param.get_error_hint() if exc.param else ""
        hint = hint if isinstance(hint, str) else " / ".join(repr(h) for h in hint)
        kind = exc.param_type or (exc.param.param_type_name if exc.param else "parameter")
        text = _(MISSING.get(kind, MISSING["parameter"])).format(name=hint).replace(" .", ".")
        more = [exc.message, exc.param.get_missing_message(ctx=exc.ctx) if exc.param is not None else None]
        text = " ".join([text, *(m for m in more if m)])  # what else it says (a choice's values)
        exc.format_message = lambda: text  # (its own builds the English sentence)
    elif isinstance(exc, click_errors.BadParameter):
        hint = exc.param_hint if exc.param_hint is not None else exc.param.get_error_hint() if exc.param else None
        hint = hint if hint is None or isinstance(hint, str) else " / ".join(repr(h) for h in hint)
        text = (_("Invalid value: {message}").format(message=exc.message) if hint is None else
                _("Invalid value for {name}: {message}").format(name=hint, message=exc.message))
        exc.format_message = lambda: text
    elif (found := NEEDS_VALUE.match(exc.message)) is not None:
        exc.message = _("Option {name} requires an argument.").format(name=found["name"])
    elif (found := EXTRA.match(exc.message)) is not None:
        exc.message = _("Got unexpected extra argument(s) ({args})").format(args=found["args"])


class _Spoken:
    """A command or group whose usage line, help option and usage errors are in the language being spoken."""

    def make_context(self, *args: Any, **kwargs: Any):
        try:
            return super().make_context(*args, **kwargs)
        except Exception as exc:
            said(exc)
            raise

    def format_usage(self, ctx, formatter) -> None:
        formatter.write_usage(ctx.command_path, " ".join(self.collect_usage_pieces(ctx)), prefix=_("Usage: "))


class _Argument(TyperArgument):
    def display_type_rich(self, ctx) -> None:
        return None


def _plain(params: list) -> list:
    """Help without type tags: an option that takes a value shows its name (``--round ROUND``), a flag
    nothing (nor its default when that is off); an argument shows its name in capitals, without its type."""
    for param in params:
        if param.help in LIBRARY_HELP:  # Typer's (or its Click's) own options: --help, completion
            param.help = _(param.help)
        if isinstance(param, TyperArgument):
            param.__class__ = _Argument  # Typer builds every argument as a TyperArgument
            param.metavar = param.metavar or param.name.upper()
        elif param.metavar is None:
            flag = param.is_flag or param.count
            long = next((o for o in param.opts if o.startswith("--")), param.name)
            param.metavar = "" if flag else long.lstrip("-").replace("-", "_").upper()
            if flag and not param.default:
                param.show_default = False
    return params


GIVEN = "rollcall.given"  # the root context's meta: {"--data": DIR, "--key": KEY} as given before the command
GLOBAL_OPTIONS = ("--data", "--key")  # said before the command or after it
LANG = "--lang"  # read before anything loads (cli.entry): before the command or after it


def given_before(command, parent, args: list[str]) -> list[str]:
    """``args`` of ``command`` with the ``--data`` and ``--key`` given before it (``rollcall --data DIR games``)
    where it takes them and ``args`` do not give them itself (the option after the command wins). An option given
    before a command that does not take it is left out, as its environment variable would be."""
    root = parent.find_root() if parent is not None else None
    given = root.meta.get(GIVEN, {}) if root is not None else {}
    takes = {opt for param in command.params for opt in getattr(param, "opts", ())}
    own = args[:args.index("--")] if "--" in args else args
    for option, value in given.items():
        if value is None or option not in takes or any(a == option or a.startswith(option + "=") for a in own):
            continue
        args = [option, value, *args]
    return args


def lang_first(args: list[str]) -> list[str]:
    """``args`` with a ``--lang`` given after the command moved before it, where the program takes it."""
    end = args.index("--") if "--" in args else len(args)
    moved, rest, i = [], [], 0
    while i < end:
        if args[i] == LANG and i + 1 < end:
            moved += args[i:i + 2]
            i += 2
        elif args[i].startswith(LANG + "="):
            moved.append(args[i])
            i += 1
        else:
            rest.append(args[i])
            i += 1
    return [*moved, *rest, *args[end:]]


def not_taken_left_out(command, args: list[str]) -> list[str]:
    """``args`` without the ``--data`` or ``--key`` (and its value) given after a command that does not take it
    (``rollcall keys list --key KEY``, a key typed out of habit): left out, as before the command or from the
    environment, rather than refused as no option of the command."""
    takes = {opt for param in command.params for opt in getattr(param, "opts", ())}
    dropped = [option for option in GLOBAL_OPTIONS if option not in takes]
    end = args.index("--") if "--" in args else len(args)
    kept, i = [], 0
    while i < end:
        if args[i] in dropped and i + 1 < end:
            i += 2
        elif any(args[i].startswith(option + "=") for option in dropped):
            i += 1
        else:
            kept.append(args[i])
            i += 1
    return [*kept, *args[end:]]


class Command(_Spoken, TyperCommand):
    def make_context(self, info_name, args, parent=None, **extra):
        args = not_taken_left_out(self, given_before(self, parent, list(args)))
        return super().make_context(info_name, args, parent, **extra)

    def get_params(self, ctx):
        return _plain(super().get_params(ctx))

    def collect_usage_pieces(self, ctx) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if isinstance(param, TyperArgument):
                name = param.metavar + ("..." if param.nargs != 1 else "")
                pieces.append(name if param.required else f"[{name}]")
        return pieces


class Group(_Spoken, TyperGroup):
    def parse_args(self, ctx, args):
        return super().parse_args(ctx, lang_first(list(args)) if ctx.parent is None else args)

    def get_params(self, ctx):
        return _plain(super().get_params(ctx))


class App(typer.Typer):
    """A Typer app whose commands have the plain help and report domain errors (:func:`reported`)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("cls", Group)
        kwargs.setdefault("no_args_is_help", True)
        kwargs.setdefault("add_completion", False)
        kwargs.setdefault("rich_markup_mode", "markdown")  # a docstring's lines make one paragraph
        super().__init__(**kwargs)

    def command(self, name: str | None = None, **kwargs: Any) -> Callable:
        register = super().command(name, cls=kwargs.pop("cls", Command), **kwargs)
        return lambda function: register(reported(function))


def systems_help() -> str:
    """The help of a --system option: the rules packs' main aliases, as a sentence lists them."""
    from domain.systems import PACKS

    names = [pack.alias for pack in PACKS]
    if len(names) == 1:
        return _("{system}.").format(system=names[0])
    return _("{systems} or {last}.").format(systems=", ".join(names[:-1]), last=names[-1])


def data_dir(data: Path | None) -> Path:
    return settings.data_dir(data)


def open_app(data: Path | None, key: str | None = None) -> Rollcall:
    return Rollcall.open(data_dir(data), key=key)


def project(data: Path | None, rebuild: bool = False) -> int:
    """Bring the read models up to date (a progress bar on the terminal); the number of stored rows read.
    Refused while another projector follows the store (the dashboard's: it keeps them current)."""
    from rich.console import Console
    from rich.progress import Progress

    from projections.follow import Busy, projector_lock
    from projections.projector import Projector

    try:
        with projector_lock(data_dir(data)):
            projector = Projector(data_dir(data), app=open_app(data))
            console = Console(stderr=True)
            with Progress(transient=True, console=console, disable=not console.is_terminal) as progress:
                task = progress.add_task(_("projecting"), total=None)  # (on stderr: stdout stays for the output)

                def tick(done: int, total: int) -> None:
                    progress.update(task, completed=done, total=total)

                return projector.run(rebuild=rebuild, progress=tick)
    except Busy as exc:
        raise RollcallError(_("{busy} (`rollcall dashboard` keeps the read models current): stop it to project here"
                              ).format(busy=exc)) from None


def up_to_date(data: Path | None) -> None:
    """The published read models brought up to date here, unless a projector follows the store (the
    dashboard's), which keeps them current: a reader never competes with it."""
    from projections.follow import followed

    if not followed(data_dir(data)):
        project(data)


def read(data: Path | None, query: Callable, *args: Any) -> Any:
    """Run ``query(con, *args)`` over the published read models, up to date (``up_to_date``)."""
    from projections.queries import connect_read

    up_to_date(data)
    try:
        con = connect_read(data_dir(data))
    except FileNotFoundError:  # a dashboard started just now: its follower publishes them in a moment
        raise RollcallError(_("the read models are not published yet (the dashboard's follower makes them within "
                              "seconds): try again in a moment")) from None
    try:
        return query(con, *args)
    finally:
        con.close()


def privileged(data: Path | None, key: str | None) -> bool:
    """Whether the reader presented a key of the store (a wrong key is refused): it then sees every game as
    recorded; without one a tournament's broadcast delay holds (projections.visibility)."""
    if not key:
        return False
    store = open_app(data, key)
    try:
        return store.holder() is not None
    finally:
        store.close()


def read_seen(data: Path | None, key: str | None, query: Callable) -> Any:
    """``query(con, seen)`` over the published read models, up to date (``read``), where ``seen`` is what the
    reader may see: everything with a key of the store, else each game of a delayed tournament up to its events
    older than the delay."""
    from projections.visibility import seen

    allowed = privileged(data, key)
    return read(data, lambda con: query(con, seen(con, privileged=allowed)))


def store_bound(data: Path | None, key: str | None, game: str, tournament: str | None) -> int | None:
    """The last seq of ``game`` the reader may be shown of the game as the event store holds it (``export``,
    ``dispute list``): None (all of it) for a game of no delayed tournament, or with a key of the store."""
    from projections.visibility import store_bound as bound

    if not tournament:
        return None
    return read_seen(data, key, lambda con, seen: bound(con, seen, game, tournament))


def note_held(seen: Any, games: Iterable[str]) -> None:
    """Say on stderr which of ``games`` a broadcast delay holds back (stdout stays for the output)."""
    held = [g for g in games if seen.upto(g) is not None]
    if held:
        delay = max(seen.delay(g) for g in held)
        what = (_("note: game {game} is broadcast with a delay of {delay} s: shown as it stood {delay} s ago (a key "
                  "of the store, --key, shows it as recorded)") if len(held) == 1 else
                ngettext("note: {n} game is broadcast with a delay of {delay} s: shown as they stood {delay} s ago (a "
                         "key of the store, --key, shows them as recorded)",
                         "note: {n} games are broadcast with a delay of {delay} s: shown as they stood {delay} s ago "
                         "(a key of the store, --key, shows them as recorded)", len(held)))
        typer.echo(what.format(game=held[0], n=len(held), delay=delay), err=True)


def echo_json(value: Any) -> None:
    typer.echo(json.dumps(value, ensure_ascii=False, indent=2, default=str))


def table(title: str, rows: Iterable[dict[str, Any]], columns: tuple[tuple[str, str], ...]) -> None:
    """Rows as a terminal table; ``columns`` are (key, heading) pairs, every heading different (the headings
    marked ``N_``: said here in the language being spoken)."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    shown = Table(title=Text(title), title_justify="left", title_style="bold")  # a name is text, never markup
    for _key, label in columns:
        shown.add_column(_(label), overflow="fold")
    for row in rows:
        shown.add_row(*(Text("" if row.get(k) is None else str(row[k])) for k, _label in columns))
    Console(width=max(120, Console().width)).print(shown)


def free_port(port: int, host: str = "localhost", tries: int = 50) -> int:
    """``port`` when nothing listens on it, else the next free one."""
    for candidate in range(port, port + tries):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind((host, candidate))
            except OSError:
                continue
            return candidate
    raise OSError(_("no free port from {first} to {last}").format(first=port, last=port + tries - 1))


def game_names(store, game: str):
    """(the game's presentation, the names of its players and things): a line printed about the game speaks
    of Anna and her Faceless, not of p1 and p1m1."""
    found = store.get_game(game)
    presentation = found.system.presentation
    return presentation, presentation.names(found.header)
