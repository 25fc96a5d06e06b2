"""Write a file whole or not at all: into a temporary name beside it, renamed at the end."""

from __future__ import annotations

import os
import stat
import tempfile
from contextlib import contextmanager
from pathlib import Path


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextmanager
def replacing(out: str | Path):
    """Yields a temporary path to write; on success it becomes `out` (with the usual
    permissions a new file gets, not mkstemp's private 0600); on failure it is removed.

    A symbolic link is followed: the file it points to is replaced, the link stays. A pipe
    or device (/dev/null, /dev/stdout) is written straight into: renaming over it would
    replace it with a regular file, and there is no half file to leave behind."""
    try:
        mode = os.stat(out).st_mode  # through symbolic links
    except OSError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
        yield str(out)
        return
    out = Path(os.path.realpath(out))  # through symbolic links, to the file really written
    out.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".tmp", dir=out.parent)
    os.close(fd)
    try:
        yield tmp
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, out)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
