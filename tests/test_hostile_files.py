"""Hostile files: what is not a regular file, too large, nested too deep, integers too
long, bad paths; the same for files named inside records. One line, exit 2, no hang."""

import os
import shutil
import threading

import pytest

from conftest import ROOT, assert_user_error, sheetkit
from sheetkit import tomlfile
from sheetkit.errors import UserError

EXAMPLES = ROOT / "examples"


def test_dev_zero_is_refused_at_once():
    run = sheetkit("check", "/dev/zero")
    assert_user_error(run, "/dev/zero", "not a regular file")


def test_named_pipe_record_does_not_hang(tmp_path):
    fifo = tmp_path / "game.toml"
    os.mkfifo(fifo)
    writer = threading.Timer(30, lambda: open(fifo, "w").close())  # unblock a hang, if any
    writer.daemon = True
    writer.start()
    try:
        run = sheetkit("check", fifo)
    finally:
        writer.cancel()
    assert_user_error(run, "game.toml", "not a regular file")


def test_folder_is_refused(tmp_path):
    assert_user_error(sheetkit("check", tmp_path), "is a folder")


def test_size_cap(tmp_path):
    big = tmp_path / "big.toml"
    big.write_text("# padding\n" * (tomlfile.MAX_BYTES // 10 + 1))
    assert_user_error(sheetkit("check", big), "big.toml", "too large")


def test_size_cap_holds_for_a_file_that_grows_while_read():
    # /dev/zero reports size 0 and never ends: refused as a device before reading; a regular
    # file is read at most MAX_BYTES + 1 bytes whatever its reported size
    with pytest.raises(UserError, match="not a regular file"):
        tomlfile.read_bytes("/dev/zero")


@pytest.mark.parametrize("text, words", [
    ("a = " + "[" * 1000 + "]" * 1000, ("nested too deeply",)),
    ("a = " + "{ b = " * 500 + "1" + " }" * 500, ("nested too deeply",)),
    ("a." * 50 + "b = 1", ("nested too deeply",)),
    ("a = 1" + "0" * 5000, ("integer with too many digits",)),
    ("a = 1" + "0" * 30, ("a:", "integer out of range")),
    ("a = [1, -1" + "0" * 25 + "]", ("a[1]", "integer out of range")),
    ('game = "yuncos"\x00', ("NUL",)),
    ("game = \"yun\xffcos\"", ("not UTF-8",)),
])
def test_toml_caps(tmp_path, text, words):
    f = tmp_path / "r.toml"
    f.write_bytes(text.encode("utf-8", "surrogateescape") if "\xff" not in text else text.encode("latin-1"))
    assert_user_error(sheetkit("check", f), "r.toml", *words)


def test_nesting_within_the_cap_is_fine(tmp_path):
    data = tomlfile.parse_toml(("a = " + "[" * 10 + "]" * 10).encode(), "t.toml")
    assert data["a"] == [[[[[[[[[[]]]]]]]]]]


def test_300_character_file_name():
    assert_user_error(sheetkit("check", "x" * 300 + ".toml"), "file name too long")
    assert_user_error(sheetkit("render", "x" * 300 + ".toml"), "file name too long")
    assert_user_error(sheetkit("render", "x" * 300), "unknown layout")


@pytest.mark.parametrize("field", ["layout", "board", "deck"])
def test_files_named_in_a_record_get_the_same_guard(tmp_path, field):
    source = {"layout": "yuncos-easy-legal.toml", "board": "glux-board-3p.toml",
              "deck": "iunu-game.toml"}[field]
    text = (EXAMPLES / source).read_text()
    old = {"layout": 'layout = "yuncos-easy"', "board": 'board = "glux-board-34p"',
           "deck": 'deck = "iunu-deck-example.toml"'}[field]
    assert old in text
    for ref, words in [("x" * 300 + ".toml", ("file name too long",)),
                       ("/dev/zero", ("not a regular file",)),
                       ("pipe.toml", ("not a regular file",)),
                       ("deep.toml", ("nested too deeply",))]:
        if ref == "pipe.toml" and not (tmp_path / ref).exists():
            os.mkfifo(tmp_path / ref)
        (tmp_path / "deep.toml").write_text("a = " + "[" * 100 + "]" * 100)
        rec = tmp_path / "rec.toml"
        rec.write_text(text.replace(old, f'{field} = "{ref}"'))
        assert_user_error(sheetkit("check", rec), "rec.toml", field, *words)


@pytest.mark.skipif(os.geteuid() == 0, reason="root may enter any folder")
def test_folder_closed_to_the_user(tmp_path):
    closed = tmp_path / "closed"
    closed.mkdir()
    shutil.copy(EXAMPLES / "yuncos-easy-legal.toml", closed)
    closed.chmod(0)
    try:
        assert_user_error(sheetkit("check", closed / "yuncos-easy-legal.toml"), "permission denied")
        assert_user_error(sheetkit("render", closed / "x.toml"), "permission denied")
    finally:
        closed.chmod(0o755)


def test_closed_folder_message_without_the_privilege():
    # the same words whoever runs the tests: the error is told from its errno
    import errno

    assert "permission denied" in tomlfile._path_problem(OSError(errno.EACCES, "Permission denied"))("en")
    assert tomlfile.problem("/proc/self/nonexistent/x" + "y" * 300)("en").startswith(("no such file", "file name too long"))
