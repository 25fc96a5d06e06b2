"""The command line as a whole: help, version, the layouts list, errors."""

import json

import pytest

from conftest import ROOT, assert_user_error, sheetkit
from sheetkit import layouts


def test_help_lists_every_command():
    run = sheetkit("--help")
    assert run.code == 0
    for cmd in ("layouts", "render", "preview", "lint", "template", "check", "score"):
        assert cmd in run.out


def test_version():
    run = sheetkit("--version")
    assert run.code == 0 and "0.1.0" in run.out


def test_layouts_lists_ids_games_and_titles():
    run = sheetkit("layouts")
    assert run.code == 0, run.err
    lines = run.out.strip().splitlines()
    assert len(lines) == len(layouts.shipped_ids())
    easy = next(l for l in lines if l.startswith("yuncos-easy "))
    assert "yuncos" in easy and "The Dark Side of Light" in easy


def test_layouts_json():
    run = sheetkit("layouts", "--json")
    assert run.code == 0, run.err
    rows = json.loads(run.out)
    by_id = {r["id"]: r for r in rows}
    assert by_id["yuncos-hard"]["game"] == "yuncos"
    assert by_id["yuncos-hard"]["version"] == layouts.load("yuncos-hard").version
    assert by_id["yuncos"]["title"]["es"].startswith("Yuncos")


def test_unknown_command_and_option_are_one_line():
    assert_user_error(sheetkit("rendr"), "rendr")
    assert_user_error(sheetkit("layouts", "--jsn"), "--jsn")


def test_python_dash_m_works_like_the_console_script():
    run = sheetkit("lint", "yuncos-easy")
    assert run.code == 0 and "yuncos-easy: ok" in run.out


def test_a_group_alone_shows_its_help():
    run = sheetkit()
    assert run.code == 0 and "Commands:" in run.out and "render" in run.out
    run = sheetkit("score")
    assert run.code == 0 and "yuncos" in run.out and "glux" in run.out


def test_unknown_template_names_the_choices():
    assert_user_error(sheetkit("template", "nope"), "no template named 'nope'", "iunu-deck", "sheetkit layouts")


def test_check_render_on_letter_paper(tmp_path):
    from pdfutil import page_sizes_mm

    out = tmp_path / "checked.pdf"
    run = sheetkit("check", "examples/yuncos-hard-legal.toml", "--render", out, "--paper", "letter")
    assert run.code == 0, run.err
    (w, h), = page_sizes_mm(out)
    assert (round(w, 1), round(h, 1)) == (215.9, 279.4)


def test_fit_and_real_size_renders_do_not_overwrite_each_other(tmp_path):
    """`render glux-board-34p` then `render glux-board-34p --scale fit` (as the README shows)
    keep both files: the tiled board and the one-page board; previews and pads alike."""
    from pdfutil import page_sizes_mm

    for extra in ([], ["--scale", "fit"], ["--copies", "1"], ["--copies", "1", "--scale", "fit"]):
        run = sheetkit("render", "glux-board-34p", "--out-dir", tmp_path, *extra)
        assert run.code == 0, run.err
    real, fit = tmp_path / "glux-board-34p-a4-en.pdf", tmp_path / "glux-board-34p-a4-en-fit.pdf"
    assert len(page_sizes_mm(real)) > 1 and len(page_sizes_mm(fit)) == 1
    assert len(page_sizes_mm(tmp_path / "glux-board-34p-a4-en-0001-0001.pdf")) > 1
    assert len(page_sizes_mm(tmp_path / "glux-board-34p-a4-en-fit-0001-0001.pdf")) == 1
    for extra in ([], ["--scale", "fit"]):
        run = sheetkit("preview", "glux-board-34p", "--dpi", "20", *extra, cwd=tmp_path)
        assert run.code == 0, run.err
    assert {p.name for p in (tmp_path / "output").iterdir()} == {
        "glux-board-34p-a4-en.p1.png", "glux-board-34p-a4-en-fit.p1.png"}


def test_render_checks_every_target_before_writing_any(tmp_path):
    """A target that cannot be written (here a folder in the way) stops the whole render
    before the first file: no partial set of files."""
    (tmp_path / "yuncos-hard-a4-en.pdf").mkdir()
    run = sheetkit("render", "yuncos-easy", "yuncos-hard", "--out-dir", tmp_path)
    assert_user_error(run, "yuncos-hard-a4-en.pdf", "is a folder")
    assert not (tmp_path / "yuncos-easy-a4-en.pdf").exists()
    assert run.out == ""
    (tmp_path / "file").write_text("a file where a folder would go")
    for args in (["--out-dir", tmp_path / "file" / "deeper"], ["-o", tmp_path / "file" / "deeper" / "x.pdf"]):
        assert_user_error(sheetkit("render", "yuncos-easy", *args), str(tmp_path / "file"), "is a file")


def test_two_layouts_never_overwrite_each_other(tmp_path):
    """A designer's copy named like a shipped layout would land on the same file name."""
    mine = tmp_path / "mine" / "yuncos-easy.toml"
    mine.parent.mkdir()
    mine.write_text((ROOT / "layouts" / "yuncos-easy.toml").read_text().replace("dice_log = 36", "dice_log = 30"))
    run = sheetkit("render", "yuncos-easy", mine, "--out-dir", tmp_path / "out")
    assert_user_error(run, "yuncos-easy-a4-en.pdf", "-o")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("example", ["glux-board-3p", "levelx-game", "iunu-game", "yuncos-easy-legal"])
@pytest.mark.parametrize("kind", ["[1]", '["game"]', "{ a = 1 }"])
def test_a_record_kind_that_is_a_list_or_table_is_one_line(tmp_path, example, kind):
    import re

    text = (ROOT / "examples" / f"{example}.toml").read_text(encoding="utf-8")
    text = re.sub(r'^kind = ".*"\n', "", text, flags=re.M)
    text = re.sub(r"^(game = .*)$", rf"\1\nkind = {kind}", text, count=1, flags=re.M)
    rec = tmp_path / "rec.toml"
    rec.write_text(text, encoding="utf-8")
    assert_user_error(sheetkit("check", rec), str(rec), "kind")


@pytest.mark.parametrize("record", ["yuncos-easy-legal", "glux-game-3p", "iunu-game", "levelx-final"])
def test_rendering_a_record_says_records_are_checked(tmp_path, record):
    run = sheetkit("render", f"examples/{record}.toml", "--out-dir", tmp_path)
    assert_user_error(run, f"examples/{record}.toml", "kind", "sheetkit check")
    assert not any(tmp_path.iterdir())


@pytest.mark.parametrize("layout", ["yuncos-easy", "yuncos", "glux-chips", "glux-score-pad", "iunu-score-pad",
                                    "levelx-board"])
def test_checking_a_layout_says_it_is_a_layout(layout):
    run = sheetkit("check", f"layouts/{layout}.toml")
    assert_user_error(run, f"layouts/{layout}.toml", "layout, not a record", f"sheetkit template {layout}")


def test_moves_refuses_bad_dice_and_games_without_moves():
    assert_user_error(sheetkit("moves", "examples/levelx-game.toml", "--dice", "1 2 x"), "--dice", "1 to 6")
    assert_user_error(sheetkit("moves", "examples/levelx-game.toml", "--dice", "9" * 5000), "--dice", "...")
    assert_user_error(sheetkit("moves", "examples/iunu-game.toml"), "IUNU records have no next moves")
    assert_user_error(sheetkit("moves", "examples/no-such.toml"), "no such file")


@pytest.mark.parametrize("example, dice, words", [
    ("yuncos-in-progress.toml", "3 5", ["in progress", "can fly"]),
    ("glux-game-in-progress.toml", None, ["Ben to move", " from "]),
    ("levelx-in-progress.toml", "3 5 1 6", ["Carla to move", "grouping"]),
])
def test_moves_of_a_game_in_progress(example, dice, words):
    import json

    args = ["moves", f"examples/{example}"] + (["--dice", dice] if dice else [])
    run = sheetkit(*args)
    assert run.code == 0, run.err
    for w in words:
        assert w in run.out, run.out
    data = json.loads(sheetkit(*args, "--json").out)
    assert data["verdict"]["in_progress"] is True and data["moves"]
