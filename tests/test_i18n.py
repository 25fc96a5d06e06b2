"""Spanish and English everywhere: every message the code uses is in both catalogues, the
rules say nothing in English literals, and `check`, `score`, `moves`, the checked sheet and
the web page speak the chosen language with the same rule ids and exit codes."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from conftest import ROOT, assert_user_error, sheetkit

PACKAGE = ROOT / "sheetkit"
EXAMPLES = sorted(p for p in (ROOT / "examples").rglob("*.toml")
                  if "bad-input" not in p.name and not p.name.startswith("iunu-deck"))

# Words of sheetkit's English that a Spanish output must never contain (whole words).
ENGLISH = ["the", "but", "turn", "turns", "player", "winner", "shared", "leading", "finding", "findings",
           "nothing", "chip", "chips", "round", "rounds", "fish", "nest", "nests", "box", "square", "room",
           "so far", "in progress", "to move", "layout", "serial", "ILLEGAL", "crash", "bonuses", "tiles",
           "fed", "held", "majority", "eliminated", "step", "flight", "dice", "drawn", "continued"]


RULE_FILES = [p for game in ("yuncos", "glux", "iunu", "levelx")
              for p in (PACKAGE / "games" / game).glob("*.py")
              if p.stem in ("rules", "check", "table", "moves", "tally")]


def _english_literal(node) -> bool:
    """A string a player would read: words, not an id or notation."""
    if isinstance(node, ast.JoinedStr):
        return any(isinstance(v, ast.Constant) and re.search(r"[a-z]{3,} [a-z]{2,}", v.value) for v in node.values)
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and bool(re.search(r"[a-z]{3,} [a-z]{2,}", node.value))


@pytest.mark.parametrize("path", RULE_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_no_finding_is_written_as_an_english_literal(path):
    """Findings, their places and the moves' lines are messages (msg), never English prose."""
    bad = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
            if name in ("Finding", "add") and any(_english_literal(a) for a in node.args[1:3]):
                bad.append(node.lineno)
            if name == "append" and node.args and _english_literal(node.args[0]):
                bad.append(node.lineno)
        if isinstance(node, ast.Return) and node.value is not None and _english_literal(node.value):
            bad.append(node.lineno)
    assert not bad, f"{path}: English text at lines {bad}"


# ---- every example, in both languages


def _english_left(out: str) -> list[str]:
    body = "\n".join(line for line in out.splitlines() if not line.startswith(("examples/", str(ROOT))))
    body = re.sub(r'\b[a-z_]+ = ("[^"]*"|\S+)', " ", body)  # what to write in the record (crash = true): its own words
    return [w for w in ENGLISH if re.search(rf"(?<![\w/.-]){re.escape(w)}(?![\w/.-])", body)]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_example_says_the_same_in_spanish_and_english(path):
    en = sheetkit("check", "--lang", "en", path)
    es = sheetkit("check", "--lang", "es", path)
    assert en.code == es.code and en.code in (0, 1), (en.err, es.err)
    assert "⟦" not in en.out + es.out
    assert not _english_left(es.out), (_english_left(es.out), es.out)
    rules = lambda out: re.findall(r"^  (?:warning |aviso )?([A-Z]\d+|order) ", out, re.M)  # noqa: E731
    assert rules(en.out) == rules(es.out)
    j_en = json.loads(sheetkit("check", "--json", "--lang", "en", path).out)[0]
    j_es = json.loads(sheetkit("check", "--json", "--lang", "es", path).out)[0]
    assert (j_en["lang"], j_es["lang"]) == ("en", "es")
    # the English keys and values are the same whatever the language; the added words differ
    strip = lambda v: ({k: strip(x) for k, x in v.items() if k not in ("lang", "status", "text", "where_text",  # noqa: E731
                                                                        "tiebreak_text")}
                       if isinstance(v, dict) else [strip(x) for x in v] if isinstance(v, list) else v)
    assert strip(j_en) == strip(j_es)
    assert [f["rule"] for f in j_en["findings"]] == [f["rule"] for f in j_es["findings"]]
    for f_en, f_es in zip(j_en["findings"], j_es["findings"]):
        assert f_en["text"] == f_en["message"] and f_en["where_text"] == f_en["where"]
        assert f_es["text"] != f_es["message"]


def test_english_is_what_sheetkit_always_said():
    out = sheetkit("check", "--lang", "en", "examples/yuncos-illegal.toml").out
    assert "  ILLEGAL: 7 findings\n  Y4 turn 3: a flight of 3 steps matches neither die (5 and 1): " in out
    assert "nests 16  luminaries 12  fish 6  navigation 16  crashes -9  = 41" in out


def test_spanish_findings_headings_tiebreak_and_rank():
    out = sheetkit("check", "--lang", "es", "examples/yuncos-illegal.toml").out
    assert "examples/yuncos-illegal.toml: yuncos, hoja yuncos-easy\n  ILEGAL: 7 errores\n" in out
    assert "  Y4 turno 3: un vuelo de 3 pasos no corresponde a ninguno de los dados (5 y 1)" in out
    assert "nidos 16  luminarias 12  peces 6  navegación 16  choques -9  = 41" in out
    assert "    Abandonado por primera vez en el nido" in out
    glux = sheetkit("check", "--lang", "es", "examples/glux-game-illegal.toml").out
    assert "empate a 8 PV entre Ana, Ben: Ana tiene más pips en la sala del medio (3)" in glux
    assert "ganador: Ana" in glux and "centro 4" in glux
    iunu = sheetkit("score", "iunu", "--lang", "es", "examples/iunu-game.toml").out
    assert "empate a 34; gana quien tiene más Deben (18) (I5)" in iunu and "ganador: Carla" in iunu
    solo = sheetkit("score", "yuncos", "--nests", "9", "--solo", "--lang", "es").out
    assert solo.splitlines()[0].split() == ["nidos", "18"]
    assert "rango en solitario: Abandonado por primera vez en el nido" in solo


def test_moves_in_both_languages():
    for path, dice in (("examples/yuncos-in-progress.toml", "3 5"), ("examples/levelx-in-progress.toml", "1 3 4 6"),
                       ("examples/glux-game-in-progress.toml", None)):
        args = ["moves", path] + (["--dice", dice] if dice else [])
        en, es = sheetkit(*args, "--lang", "en"), sheetkit(*args, "--lang", "es")
        assert en.code == es.code == 0 and len(en.out.splitlines()) == len(es.out.splitlines())
        assert "⟦" not in es.out and not _english_left(es.out), es.out
        assert json.loads(sheetkit(*args, "--json", "--lang", "es").out)["verdict"]["lang"] == "es"
    assert "vuela el 3, anota el 5: fila 2 de los nidos" in sheetkit("moves", "examples/yuncos-in-progress.toml",
                                                                    "--dice", "3 5", "--lang", "es").out


def test_the_tallies_in_both_languages():
    es = sheetkit("score", "glux", "--room", "A=5,B=5", "--lang", "es")
    assert es.code == 0 and "sala 1: A 5 pips 1.º 4 PV, B 5 pips 1.º 4 PV" in es.out
    assert "victoria compartida: A, B" in es.out and "indica qué --room es la sala del medio" in es.out
    en = sheetkit("score", "glux", "--room", "A=5,B=5", "--lang", "en")
    assert "room 1: A 5 pips 1st 4 VP, B 5 pips 1st 4 VP" in en.out and "shared win: A, B" in en.out
    lx = sheetkit("score", "levelx", "--lang", "es", "examples/levelx-final-illegal.toml")
    assert lx.code == 1 and "ILEGAL: 5 errores; el recuento no es un resultado" in lx.out
    assert not _english_left(lx.out)


# ---- which language


@pytest.mark.parametrize("args", [
    ["check", "--lang", "fr", "examples/yuncos-illegal.toml"],
    ["check", "--lang", "", "examples/yuncos-illegal.toml"],
    ["moves", "--lang", "de", "examples/yuncos-in-progress.toml"],
    ["score", "iunu", "--lang", "ES", "examples/iunu-game.toml"],
    ["score", "yuncos", "--lang", "klingon"],
    ["score", "glux", "--room", "A=1,B=2", "--lang", "x" * 500],
])
def test_a_language_sheetkit_does_not_speak_is_one_line_and_exit_2(args):
    assert_user_error(sheetkit(*args), "--lang")


def _record(tmp_path, lang: str) -> Path:
    text = (ROOT / "examples" / "levelx-final-illegal.toml").read_text(encoding="utf-8")
    path = tmp_path / "game.toml"
    path.write_text(f'lang = "{lang}"\n' + text, encoding="utf-8")
    return path


def test_a_record_names_its_language_and_the_option_overrides_it(tmp_path):
    path = _record(tmp_path, "es")
    assert "ILEGAL: 5 errores" in sheetkit("check", path, env={"LANG": "en_US.UTF-8", "LC_ALL": None,
                                                                "LANGUAGE": None}).out
    assert "ILLEGAL: 5 findings" in sheetkit("check", "--lang", "en", path).out
    assert_user_error(sheetkit("check", _record(tmp_path, "fr")), "game.toml", "lang", "'fr'")


def test_without_an_option_or_a_record_language_the_system_locale_decides():
    env = {"LC_ALL": None, "LC_MESSAGES": None, "LANGUAGE": None}
    es = sheetkit("check", "examples/iunu-illegal.toml", env={**env, "LANG": "es_ES.UTF-8"})
    assert "ILEGAL: 5 errores" in es.out
    en = sheetkit("check", "examples/iunu-illegal.toml", env={**env, "LANG": "fr_FR.UTF-8"})
    assert "ILLEGAL: 5 findings" in en.out
    c = sheetkit("check", "examples/iunu-illegal.toml", env={**env, "LC_ALL": "C", "LANG": "es_ES"})
    assert "ILLEGAL" in c.out


# ---- the checked sheet and the web page


def test_the_checked_sheet_speaks_the_chosen_language(tmp_path):
    from pdfutil import text

    for path in ("examples/yuncos-illegal.toml", "examples/glux-game-illegal.toml", "examples/iunu-illegal.toml",
                 "examples/levelx-game-illegal.toml"):
        es, en = tmp_path / "es.pdf", tmp_path / "en.pdf"
        run_es = sheetkit("check", path, "--render", es, "--lang", "es")
        assert run_es.code == 1 and "dibujada:" in run_es.out
        assert sheetkit("check", path, "--render", en, "--lang", "en").code == 1
        words_es = " ".join(text(es, i) for i in range(len(__import__("pypdfium2").PdfDocument(es))))
        words_en = " ".join(text(en, i) for i in range(len(__import__("pypdfium2").PdfDocument(en))))
        assert "ILEGAL" in words_es and "ILLEGAL" not in words_es, path
        assert "ILLEGAL" in words_en, path


def test_the_web_page_shows_findings_and_tiebreaks_in_its_language():
    from test_web import Client, upload

    es = upload(Client(lang="es"), ROOT / "examples" / "glux-game-illegal.toml")
    assert es.code == 200
    assert "de G1 a G5 hay 4 casillas, pero la ficha de G1 muestra 6" in es.text
    assert "Ana tiene más pips en la sala del medio (3)" in es.text
    assert "turno 5 (Ana, G5)" in es.text
    en = upload(Client(lang="en"), ROOT / "examples" / "glux-game-illegal.toml")
    assert "G1 to G5 is 4 squares, but the chip on G1 shows 6" in en.text
    yun = upload(Client(lang="es"), ROOT / "examples" / "yuncos-illegal.toml")
    assert "el 1 ya está en la fila 1 de los nidos" in yun.text and "nidos" in yun.text
