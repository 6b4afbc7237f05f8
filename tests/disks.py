"""A small disk of a test's own, to fill up: a tmpfs mounted in the test's folder (root can mount one here)."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def small_disk(folder: Path, size: str) -> Iterator[Path | None]:
    """A tmpfs of ``size`` (e.g. ``16m``) mounted at ``folder/disk`` for the block; None where none can be mounted."""
    mount = folder / "disk"
    mount.mkdir()
    mounted = os.geteuid() == 0 and shutil.which("mount") and subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mount)], capture_output=True).returncode == 0
    try:
        yield mount if mounted else None
    finally:
        if mounted:
            subprocess.run(["umount", "-l", str(mount)], check=False)
