"""Scratch folders in the system's temporary folder: an audit's rebuild, a replay's what-if ledger,
the read tables as of an entry. Each is removed when its command ends; a process killed on the
way (a GM stopping a long audit with `kill -9`, a machine put to sleep) cannot remove its own, so
every folder is named after the process that made it, and the next command that makes one removes
those whose process is gone (an audit of a million entries killed 20 s in left 118 MiB).
"""
from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
from typing import Iterator

PREFIX = "campaign-scratch-"
_OWNED = re.compile(re.escape(PREFIX) + r"(\d+)-")


@contextlib.contextmanager
def folder(purpose: str) -> Iterator[str]:
    """A new scratch folder for `purpose` (a word: it shows in the folder's name), removed at the end."""
    sweep()
    path = tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-{purpose}-")
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def sweep(where: str | None = None) -> list[str]:
    """Remove the scratch folders of processes no longer running; the paths removed."""
    where = where or tempfile.gettempdir()
    removed = []
    try:
        entries = list(os.scandir(where))
    except OSError:
        return removed
    for entry in entries:
        owner = _OWNED.match(entry.name)
        if owner and entry.is_dir(follow_symlinks=False) and not _running(int(owner.group(1))):
            shutil.rmtree(entry.path, ignore_errors=True)
            removed.append(entry.path)
    return removed


def _running(pid: int) -> bool:
    """Is a process of that id running (as far as this process can tell: another user's counts)?"""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True  # another user's, or not ours to judge: kept
    return not _zombie(pid)


def _zombie(pid: int) -> bool:
    """Killed and not yet reaped by its parent (on Linux, where /proc says so): it runs no more."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[-1].split()[:1] == [b"Z"]
    except OSError:
        return False
