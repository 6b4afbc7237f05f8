#!/usr/bin/env python3
"""Rollcall developer entry point (stdlib only; needs Python 3.11+).

usage: python3 dev.py demo [ARGS...]   set up .venv, then run `rollcall demo ARGS...`
       python3 dev.py test [ARGS...]   set up .venv, then run pytest -n 2 [ARGS...]
       python3 dev.py test --fast      the unit tests not marked slow (under a minute on two cores)
       python3 dev.py setup            only set up .venv

Setup creates .venv (venv module) when missing and installs Rollcall into
it (`-e '.[test]'`), unless .venv/.rollcall-installed is newer than
pyproject.toml. It installs with uv, many times faster than pip: a `uv` on
PATH, else one pip-installed into .venv; without uv, or when uv fails, with
pip. ROLLCALL_INSTALLER=pip always uses pip.

`demo` builds the demo and serves the dashboard: it prints the URL, takes the
next free port when 8501 is busy, and opens a browser where there is a
display (never under CI); e.g. `python3 dev.py demo --no-serve` only builds.

`test` always runs 2 xdist workers, each taking whole test files (--dist loadfile),
unless ARGS choose otherwise (-n N, --numprocesses N, -p no:xdist) and prints the 30 slowest tests at the
end (not with --fast) unless ARGS give --durations; ARGS are passed to pytest as given,
e.g. `python3 dev.py test tests/integration -q -k tracking`.
The exit status is the child's.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")
ROLLCALL = BIN / ("rollcall.exe" if os.name == "nt" else "rollcall")
UV = BIN / ("uv.exe" if os.name == "nt" else "uv")
STAMP = VENV / ".rollcall-installed"
PYPROJECT = ROOT / "pyproject.toml"
# Two workers, each taking whole test files in the order collected (the browser tests first, the many short unit
# test files last, to even out the end): a file's module fixtures (a store built and projected, a dashboard
# server) are built once, not once on each worker.
DEFAULT_PYTEST_ARGS = ["-n", "2", "--dist", "loadfile", "--no-loadscope-reorder"]
DURATIONS = ["--durations=30"]  # unless ARGS give --durations


def say(msg: str) -> None:
    print(f"dev.py: {msg}", file=sys.stderr, flush=True)


def run(cmd: list[str]) -> int:
    say("$ " + " ".join(str(c) for c in cmd))
    try:
        rc = subprocess.call([str(c) for c in cmd], cwd=ROOT)
    except KeyboardInterrupt:
        return 130
    return 128 - rc if rc < 0 else rc  # killed by signal N -> 128+N, like a shell


def ensure_venv() -> None:
    if not PYTHON.exists():
        say(f"creating {VENV}")
        try:
            venv.create(VENV, with_pip=True)
        except Exception as exc:  # e.g. Debian python3 without python3-venv
            say(f"could not create the virtualenv: {exc}")
            say("on Debian/Ubuntu: apt-get install python3-venv")
            sys.exit(1)
    fresh = (
        STAMP.exists()
        and STAMP.stat().st_mtime > PYPROJECT.stat().st_mtime
        and ROLLCALL.exists()
    )
    if fresh:
        return
    rc = install()
    if rc == 0:  # the language catalogs (an editable install builds no package, so they are compiled here)
        rc = run([PYTHON, "-m", "i18n.compile"])
    if rc != 0:
        say(f"installing Rollcall failed (exit {rc})")
        sys.exit(rc)
    STAMP.touch()


def install() -> int:
    """Install Rollcall into .venv with uv when it can be had, else (or when uv fails) with pip."""
    uv = find_uv()
    if uv is not None:
        # every package's bytecode compiled now; ROLLCALL_COMPILE_BYTECODE=0 leaves it to each module's first import
        compiled = [] if os.environ.get("ROLLCALL_COMPILE_BYTECODE") == "0" else ["--compile-bytecode"]
        rc = run([uv, "pip", "install", "--python", PYTHON, *compiled, "-e", ".[test]"])
        if rc == 0:
            return 0
        say(f"uv failed (exit {rc}); installing with pip")
    return run([PYTHON, "-m", "pip", "install", "-e", ".[test]"])


def find_uv() -> str | None:
    """A uv on PATH, else the one in .venv, else one pip installs there now; None without uv."""
    if os.environ.get("ROLLCALL_INSTALLER") == "pip":
        return None
    found = shutil.which("uv")
    if found:
        return found
    if not UV.exists() and run([PYTHON, "-m", "pip", "install", "--quiet", "uv"]) != 0:
        say("could not install uv; installing with pip")
        return None
    return str(UV) if UV.exists() else None


FAST_PYTEST_ARGS = ["tests/unit", "-m", "not slow", "-q"]


def names_tests(args: list[str]) -> bool:
    """Whether pytest's arguments name tests to run (a file, a folder, a test id), not only options and
    their values (`-p no:cacheprovider`, `-k rule`)."""
    return any(not a.startswith("-") and (ROOT / a.split("::")[0]).exists() for a in args)


def wants_own_workers(args: list[str]) -> bool:
    for i, arg in enumerate(args):
        if arg in ("-n", "--numprocesses") or arg.startswith(("-n", "--numprocesses=")):
            return True
        if arg == "-p" and i + 1 < len(args) and args[i + 1] == "no:xdist":
            return True
        if arg == "-pno:xdist":
            return True
    return False


def main(argv: list[str]) -> int:
    if sys.version_info < (3, 11):
        say(f"Python 3.11+ is needed, this is {sys.version.split()[0]}")
        return 2
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(__doc__.strip())
        return 0
    command, extra = argv[0], argv[1:]
    if command not in ("demo", "test", "setup"):
        say(f"unknown command {command!r}; see python3 dev.py --help")
        return 2
    ensure_venv()
    if command == "setup":
        return 0
    if command == "demo":
        return run([ROLLCALL, "demo", *extra])
    fast = "--fast" in extra
    if fast:  # the unit tests alone, the slow ones left out: a quick check while working
        extra = [a for a in extra if a != "--fast"]
        extra = [*FAST_PYTEST_ARGS, *extra] if not names_tests(extra) else ["-m", "not slow", *extra]
    pytest_args = extra if wants_own_workers(extra) else [*DEFAULT_PYTEST_ARGS, *extra]
    if not fast and not any(a.startswith("--durations") for a in extra):
        pytest_args = [*DURATIONS, *pytest_args]  # every run's log names its slowest tests
    return run([PYTHON, "-m", "pytest", *pytest_args])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
