"""Write a file whole or not at all: into a temporary name beside it, renamed at the end.

The temporary file goes away on failure, on Ctrl-C and on SIGTERM or SIGHUP. A SIGKILL or a
power cut cannot be caught: the next write into the same folder removes such leftovers (of
sheetkit's own naming, older than the running process, from a process that is gone).
"""

from __future__ import annotations

import os
import re
import signal
import stat
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path

# .NAME.sk<pid>.<mkstemp's 8 random characters>.tmp
_TEMP = re.compile(r"^\..+\.sk(\d+)\.[a-z0-9_]{8}\.tmp$")
_CAUGHT = tuple(s for s in (getattr(signal, "SIGTERM", None), getattr(signal, "SIGHUP", None)) if s is not None)


def _process_start() -> float:
    """When this process started (epoch seconds), from /proc on Linux; else about now."""
    try:
        with open("/proc/self/stat", "rb") as f:
            ticks = int(f.read().rsplit(b")", 1)[1].split()[19])
        with open("/proc/stat", "rb") as f:
            boot = next(int(line.split()[1]) for line in f if line.startswith(b"btime "))
        return boot + ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, StopIteration):
        return _IMPORTED


_IMPORTED = time.time()


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True  # someone else's process: leave its file alone
    return True


def remove_stale(folder: Path) -> list[Path]:
    """Remove temporary files left in `folder` by a sheetkit killed mid-write: named as
    sheetkit names them, last written before this process started, by a process that no
    longer runs. Never raises."""
    removed = []
    try:
        started = _process_start()
        with os.scandir(folder) as entries:
            for entry in entries:
                m = _TEMP.match(entry.name)
                if not m or not entry.is_file(follow_symlinks=False):
                    continue
                if entry.stat(follow_symlinks=False).st_mtime >= started or _alive(int(m.group(1))):
                    continue
                try:
                    os.unlink(entry.path)
                    removed.append(Path(entry.path))
                except OSError:
                    pass
    except OSError:
        pass
    return removed


class _Terminated(SystemExit):
    """SIGTERM or SIGHUP while a file is written: unwinds like sys.exit, so the temporary
    file is removed on the way out; the exit status is the usual 128 + signal."""


@contextmanager
def _signals_unwind():
    """Within the block, SIGTERM and SIGHUP raise _Terminated instead of killing the
    process outright (only the main thread may set handlers; elsewhere nothing changes)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum, frame):
        raise _Terminated(128 + signum)

    previous = {}
    for sig in _CAUGHT:
        if signal.getsignal(sig) is signal.SIG_DFL:  # a handler someone else set stays
            previous[sig] = signal.signal(sig, handler)
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


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
    remove_stale(out.parent)
    with _signals_unwind():
        fd, tmp = tempfile.mkstemp(prefix=f".{out.name}.sk{os.getpid()}.", suffix=".tmp", dir=out.parent)
        os.close(fd)
        try:
            yield tmp
            os.chmod(tmp, 0o666 & ~_umask())
            os.replace(tmp, out)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
