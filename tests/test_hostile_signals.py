"""Faults and signals: an unexpected exception is exit 3 in one line (the traceback only
with --debug); SIGTERM mid-render leaves no temporary file; a SIGKILL's leftover is
removed by the next write into the same folder."""

import os
import signal
import subprocess
import sys
import time

from conftest import ROOT
from sheetkit.paper import atomic

# A command that fails inside sheetkit: the library is broken on purpose in a child
# process (no mock in this process), as an unforeseen bug would.
BROKEN = """
import sys
import sheetkit.checking.records as records
def boom(*a, **k):
    raise KeyError("an unforeseen bug")
records.check = boom
from sheetkit.cli import main
sys.argv = ["sheetkit"] + sys.argv[1:]
main()
"""


def _broken(*args):
    return subprocess.run([sys.executable, "-c", BROKEN, *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)


def test_unexpected_exception_is_exit_3_one_line():
    run = _broken("check", "examples/yuncos-easy-legal.toml")
    assert run.returncode == 3, run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, run.stderr
    assert "Traceback" not in run.stderr
    assert "internal error" in lines[0] and "KeyError" in lines[0] and "report" in lines[0]
    assert "--debug" in lines[0]


def test_debug_shows_the_traceback():
    run = _broken("--debug", "check", "examples/yuncos-easy-legal.toml")
    assert run.returncode == 3
    assert "Traceback" in run.stderr and "an unforeseen bug" in run.stderr
    assert run.stderr.strip().splitlines()[-1].startswith("sheetkit: internal error")


def test_debug_is_listed_in_help():
    from sheetkit.cli import run
    from click.testing import CliRunner

    with CliRunner().isolation() as (out, err, *_):
        assert run(["--help"]) == 0
    assert "--debug" in out.getvalue().decode()


def _temps(folder):
    return [p.name for p in folder.iterdir() if p.name.endswith(".tmp")]


def test_sigterm_mid_render_leaves_no_temporary_file(tmp_path):
    # a long pad, so the signal arrives while the PDF is being written
    target = tmp_path / "pad.pdf"
    proc = subprocess.Popen([sys.executable, "-m", "sheetkit", "render", "yuncos-easy", "--copies", "3000",
                             "-o", str(target)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while not _temps(tmp_path) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert _temps(tmp_path), "the render never started writing"
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=30)
    assert proc.returncode == 128 + signal.SIGTERM
    assert _temps(tmp_path) == [] and not target.exists()


def test_stale_temporary_file_of_a_killed_render_is_removed_by_the_next_write(tmp_path):
    target = tmp_path / "pad.pdf"
    proc = subprocess.Popen([sys.executable, "-m", "sheetkit", "render", "yuncos-easy", "--copies", "3000",
                             "-o", str(target)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while not _temps(tmp_path) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    proc.kill()  # SIGKILL: nothing can be cleaned up now
    proc.wait(timeout=30)
    left = _temps(tmp_path)
    assert len(left) == 1
    past = time.time() - 5  # /proc gives a process's start to the second: the kill was a while ago
    os.utime(tmp_path / left[0], (past, past))
    # not sheetkit's naming, or a live writer's file: both stay
    (tmp_path / ".notes.txt.tmp").write_text("mine")
    live = tmp_path / f".other.pdf.sk{os.getpid()}.abcdefgh.tmp"
    live.write_text("being written")
    os.utime(live, (0, 0))
    run = subprocess.run([sys.executable, "-m", "sheetkit", "render", "yuncos-easy", "-o", str(tmp_path / "b.pdf")],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert sorted(_temps(tmp_path)) == sorted([".notes.txt.tmp", live.name])
    assert (tmp_path / "b.pdf").exists()


def test_remove_stale_keeps_files_newer_than_the_process(tmp_path):
    # a file of a process that is gone, but written after this one started: another
    # sheetkit may have just been killed while this one runs; kept until a later run
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True).stdout.strip()
    fresh = tmp_path / f".x.pdf.sk{dead}.abcdefgh.tmp"
    fresh.write_text("")
    old = tmp_path / f".y.pdf.sk{dead}.abcdefgh.tmp"
    old.write_text("")
    os.utime(old, (0, 0))
    assert atomic.remove_stale(tmp_path) == [old]
    assert fresh.exists() and not old.exists()
