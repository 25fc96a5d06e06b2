"""The one-line errors about unusable input, in Spanish and English: for an error of every
module that raises one, the English line is what sheetkit always said, the Spanish line
(`--lang es`, or the system locale for a command without --lang) has none of sheetkit's
English words and no ⟦id⟧ marker, both exit 2; the web page says an uploaded record's
error in the page's language."""

from __future__ import annotations

import io
import re
from types import SimpleNamespace

import pytest

from conftest import ROOT, assert_user_error, sheetkit

EX = ROOT / "examples"

# English prose of the error lines, as whole words; a Spanish line must have none outside
# the file name, the field and what it quotes (names, values, TOML keys, options, commands).
ENGLISH = ["expected", "got", "the", "is", "not", "no such", "must", "cannot", "give", "should", "has", "have",
           "one of", "missing", "unknown", "at least", "at most", "appears twice", "empty", "with", "without",
           "e.g.", "file", "sheet", "layout", "needs", "name", "names", "turn", "step", "player", "players",
           "board", "squares", "row", "group", "dice", "die", "plays", "record", "records", "version", "serial",
           "nothing", "of", "and", "or", "see"]


def _prose(line: str, quoted: tuple[str, ...] = ()) -> str:
    """The words of an error line that are sheetkit's: no file or field, no quoted value,
    `command`, --option, TOML key (`kind = "game"`) or path."""
    line = line.removeprefix("sheetkit: ")
    while re.match(r"[^\s:]+: ", line):  # the file and the field: the record's own names
        line = re.sub(r"^[^\s:]+: ", "", line)
    for q in quoted:
        line = line.replace(q, " ")
    line = re.sub(r"`[^`]*`|'[^']*'|\"[^\"]*\"|--?[a-z][a-z-]*|\S*[/\\]\S*|\[[^\]]*\]|\S+\.toml|\b[a-z_]+ =", " ", line)
    return line


def english_left(line: str, quoted: tuple[str, ...] = ()) -> list[str]:
    body = _prose(line, quoted)
    return [w for w in ENGLISH if re.search(rf"(?<![\w.-]){re.escape(w)}(?![\w-])", body, re.I)]


EASY = (ROOT / "layouts" / "yuncos-easy.toml").read_text(encoding="utf-8")
IUNU_NO_DECK = (EX / "iunu-game.toml").read_text(encoding="utf-8").replace(
    'deck = "iunu-deck-example.toml"', 'deck = "nodeck.toml"').encode()

# (what raises it, the command (L: the language), files to write first, the English line as always)
CASES = [
    ("tomlfile", ["check", "--lang", "L", "bad.toml"], {"bad.toml": b'game = "yuncos"\n\xff\xfe'},
     "bad.toml: not UTF-8 text (line 2); save it as UTF-8"),
    ("tomlfile-missing", ["check", "--lang", "L", "missing.toml"], {}, "missing.toml: no such file: check the file's name and folder"),
    ("games", ["check", "--lang", "L", "nogame.toml"], {"nogame.toml": b'layout = "yuncos-easy"\n'},
     'nogame.toml: game: missing: every file names its game, e.g. game = "yuncos"'),
    ("records", ["check", "--lang", "L", "lang.toml"], {"lang.toml": b'game = "levelx"\nlang = "fr"\n'},
     "lang.toml: lang: 'fr' is not a language sheetkit speaks: expected lang = \"es\" or \"en\""),
    ("layouts", ["render", "--lang", "L", "nolayout"], {},
     "unknown layout 'nolayout': use one of the known ids: calibration, glux-board-2p, glux-board-34p, glux-chips, glux-score-pad, "
     "glux-score-track, iunu-score-pad, levelx-board, levelx-score-pad, yuncos, yuncos-easy, yuncos-hard"),
    ("schema", ["check", "--lang", "L", "glux.toml"],
     {"glux.toml": b'game = "glux"\nkind = "game"\nboard = "glux-board-2p"\nplayers = 5\nmoves = []\n'},
     "glux.toml: players: expected a list in square brackets, e.g. [3, 5] (got 5)"),
    ("schema-players", ["score", "levelx", "--lang", "L", "lx.toml"],
     {"lx.toml": b'game = "levelx"\nkind = "game"\nplayers = ["Ana"]\nturns = []\n'},
     "lx.toml: players: Level X is for 2 to 4 players (got 1): list 2 to 4 players"),
    ("yuncos-record", ["check", "--lang", "L", EX / "yuncos-bad-input.toml"], {},
     f"{EX}/yuncos-bad-input.toml: turn[2].flight: 'X' is not a step; expected N, E, S, W, or NE/NW/SE/SW "
     "with the diagonal ability"),
    ("yuncos-table", ["check", "--lang", "L", "table.toml"],
     {"table.toml": b'game = "yuncos"\nkind = "table"\n[[player]]\nname = "Ana"\nsheet = "ana.toml"\n'
                    b'[[player]]\nname = "Ben"\nsheet = "ben.toml"\n'},
     "table.toml: player[0].sheet: no such sheet file 'ana.toml' (a path not starting with / or ~ is relative "
     "to the table record): check the path"),
    ("yuncos-tally", ["score", "yuncos", "--nests", "99", "--lang", "L"], {}, "--nests 99: the easy sheet has 12 nest boxes: give at most that"),
    ("yuncos-moves", ["moves", EX / "yuncos-in-progress.toml", "--dice", "3", "--lang", "L"], {},
     "expected the two dice of the turn, each 1-6 (got 3)"),
    ("glux-record", ["check", "--lang", "L", EX / "glux-bad-input.toml"], {},
     f"{EX}/glux-bad-input.toml: players[1].start: Z40 is not on the board (13 x 9 squares): correct the square"),
    ("glux-tally", ["score", "glux", "--room", "Ana=x", "--lang", "L"], {}, "--room 1: 'Ana=x': expected NAME=PIPS, e.g. Ana=10"),
    ("iunu-record", ["check", "--lang", "L", EX / "iunu-bad-input.toml"], {},
     f"{EX}/iunu-deck-unfilled.toml: castes.farmer.cards: not filled in: copy the number printed on your cards "
     "(see `sheetkit template iunu-deck`)"),
    ("iunu-deck", ["check", "--lang", "L", "iunu.toml"], {"iunu.toml": IUNU_NO_DECK},
     "iunu.toml: deck: no such deck file 'nodeck.toml' (a path not starting with / or ~ is relative to the record): check the path"),
    ("levelx-record", ["check", "--lang", "L", EX / "levelx-bad-input.toml"], {},
     f"{EX}/levelx-bad-input.toml: turn[0].groups[1]: an empty group; every group holds at least one die: remove it"),
    ("levelx-kind", ["check", "--lang", "L", "lxk.toml"], {"lxk.toml": b'game = "levelx"\nplayers = ["Ana", "Ben"]\n'},
     'lxk.toml: kind: missing: add kind = "game" (the whole game, turn by turn) or kind = "final" (the final position)'),
    ("layout-field", ["render", "--lang", "L", "bad.toml"], {"bad.toml": EASY.replace("square = 7.6", "square = 3.0").encode()},
     "bad.toml: map.square: expected at least 4 mm (got 3.0)"),
    ("layout-count", ["render", "--lang", "L", "bad2.toml"],
     {"bad2.toml": re.sub(r"(\[nests\][^\[]*?length = )\d+", r"\g<1>99", EASY, count=1).encode()},
     "bad2.toml: nests.length: expected boxes 2 to 20 (got 99)"),
    ("printing", ["render", "yuncos-easy", "--bleed", "2", "--lang", "L"], {},
     "--bleed: yuncos-easy has nothing to cut out; it is for the chips (glux-chips): leave --bleed out"),
    ("pads", ["identify", "SK2:x", "--lang", "L"], {},
     "not a sheetkit QR text 'SK2:x': unknown format 'SK2'; the form is SK1:<layout id>:<version>:<serial>, "
     "e.g. SK1:yuncos-easy:e7bc4f0d:0042"),
    ("pads-copies", ["render", "calibration", "--copies", "5", "--lang", "L"], {},
     "layout calibration has no place for a serial number and QR code (no page has a stamp square); it cannot "
     "be printed as a pad: leave --copies out"),
    ("cli-paper", ["render", "--lang", "L"], {}, "give at least one layout id or path, or --all"),
    ("cli-checking", ["check", "--render", "", "--lang", "L", EX / "yuncos-illegal.toml"], {},
     "--render needs a file name for the PDF: give one, e.g. --render checked.pdf"),
    ("cli-moves", ["moves", EX / "levelx-final.toml", "--lang", "L"], {},
     f"{EX}/levelx-final.toml: Level X final-position records have no next moves to ask about: give a record of the game "
     "turn by turn"),
    ("history-schema", ["plays", "--db", "notdb.sqlite3", "--lang", "L"], {"notdb.sqlite3": b"hello, not a database" * 10},
     "notdb.sqlite3: not a sheetkit history: not an SQLite database (left as it is): give another file with --db or SHEETKIT_DB"),
    ("history-exports", ["import", "--db", "h.sqlite3", "bad.json", "--lang", "L"], {"bad.json": b"{}"},
     "bad.json: not sheetkit's history JSON: give a file made by `sheetkit export --format json`"),
    ("history-store", ["show", "99", "--db", "h.sqlite3", "--lang", "L"], {},
     "no play 99 in the history (see `sheetkit plays`)"),
    # commands without --lang: the system locale says the language
    ("printers", ["printer", "set", "bad name!", "--scale-x", "1"], {},
     "printer name 'bad name!': expected 1-40 letters, digits, '.', '-' or '_', starting with a letter or digit"),
    ("cli-history", ["export", "--db", "h.sqlite3"], {}, "export: name the plays (see `sheetkit plays`) or give --all"),
    ("intake", ["log", "--db", "h.sqlite3", "--date", "yesterday", EX / "yuncos-easy-legal.toml"], {},
     "--date: expected YYYY-MM-DD or YYYY-MM-DD HH:MM (got 'yesterday')"),
    ("cli-serve", ["serve", "--db", ""], {}, "--db needs a file name: give one after it"),
    ("cli-photo", ["read", "-o", "", "x.jpg"], {"x.jpg": b"not a jpeg"}, "-o and --debug need a file name: give one after each"),
]

# What an error line quotes from the input or names as the game's own (ids, the record's
# words): not translated, so not English prose either.
QUOTED = ("NE/NW/SE/SW", "Level X", "yuncos-easy", "levelx", "final", "calibration", "NOMBRE=PIPS", "SK1:",
          "glux-chips", "PDF", "<id de la hoja>:<versión>:<número de serie>")


def _run(tmp_path, args, files, lang: str, env_lang: str):
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    args = [lang if a == "L" else a for a in args]
    return sheetkit(*args, cwd=tmp_path, env={"LANG": env_lang, "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "",
                                              "SHEETKIT_DB": str(tmp_path / "h.sqlite3")})


@pytest.mark.parametrize("what, args, files, english", CASES, ids=[c[0] for c in CASES])
def test_the_error_line_in_both_languages(tmp_path, what, args, files, english):
    en = _run(tmp_path, args, files, "en", "en_US.UTF-8")
    assert_user_error(en)
    assert en.err.strip() == f"sheetkit: {english}"  # word for word what sheetkit always said
    es = _run(tmp_path, args, files, "es", "es_ES.UTF-8")
    assert_user_error(es)
    line = es.err.strip()
    assert line != en.err.strip() and "⟦" not in line
    assert not english_left(line, QUOTED), (english_left(line, QUOTED), line)



def _png(width: int, height: int, grey: int = 200) -> bytes:
    import PIL.Image

    out = io.BytesIO()
    PIL.Image.new("L", (width, height), grey).save(out, "PNG")
    return out.getvalue()


def _png_header(width: int, height: int) -> bytes:
    """A PNG's signature and header claiming `width` x `height` pixels, no pixels: the
    reader refuses it by the size alone, as it refuses a decompression bomb."""
    import struct
    import zlib

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    chunk = lambda kind, data: (struct.pack(">I", len(data)) + kind + data  # noqa: E731
                                + struct.pack(">I", zlib.crc32(kind + data)))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IEND", b"")


# the photo reader's errors (the photo extra): (what, the command, files, the English line)
PHOTO_CASES = [
    ("photo-empty", ["read", "--lang", "L", "x.jpg"], {"x.jpg": b""}, "x.jpg: the file is empty: give the photo's own file"),
    ("photo-not-an-image", ["read", "--lang", "L", "x.jpg"], {"x.jpg": b"just some text, not a photo"},
     "x.jpg: not an image (JPEG or PNG expected)"),
    ("photo-too-large", ["read", "--lang", "L", "big.png"], {"big.png": _png_header(9000, 9000)},
     "big.png: the image is 9000x9000 pixels: too large for a photo: give the photo as the camera took it"),
    ("photo-too-small", ["read", "--lang", "L", "tiny.png"], {"tiny.png": _png(120, 90)},
     "tiny.png: not an image sheetkit can read, or too small to read a sheet from: give a JPEG or PNG photo of "
     "the whole sheet"),
    # without --lang: the system locale says the language
    ("photo-no-qr", ["read", "wall.png"], {"wall.png": _png(300, 400)},
     "wall.png: no QR code found: photograph a numbered sheet (sheetkit render --copies N) whole and sharp"),
]


@pytest.mark.parametrize("what, args, files, english", PHOTO_CASES, ids=[c[0] for c in PHOTO_CASES])
def test_the_photo_readers_error_line_in_both_languages(tmp_path, what, args, files, english):
    pytest.importorskip("cv2")
    test_the_error_line_in_both_languages(tmp_path, what, args, files, english)


def test_the_photo_readers_errors_raised_deeper_say_both_languages():
    """The QR code's and the flight's refusals, as the reader raises them (photos that
    reach them take seconds to make): English as always, Spanish with no English left."""
    pytest.importorskip("cv2")
    from sheetkit import photo
    from sheetkit.messages import msg
    from sheetkit.errors import UserError
    from sheetkit.photo import flight, register

    fields = SimpleNamespace(starts={}, edges={}, ends={})
    errors = []
    for call in (lambda: register._level("https://example.org", "a.jpg"),
                 lambda: register._level("SK1:glux-score-pad:0a1b2c3d:0001", "a.jpg"),
                 lambda: register._level("SK1:yuncos-easy:deadbeef:0001", "a.jpg"),
                 lambda: flight.build(fields, SimpleNamespace(board=None), "yuncos-easy", "", {}, {})):
        with pytest.raises(UserError) as e:
            call()
        errors.append(e.value)
    assert [str(e) for e in errors[:2]] == [
        "a.jpg: the QR code ('https://example.org') is not a sheetkit sheet's: photograph a numbered sheet "
        "(sheetkit render --copies N)",
        "a.jpg: the QR code names layout glux-score-pad; sheetkit read reads Yuncos sheets (yuncos-easy, yuncos-hard): "
        "copy this sheet by hand (sheetkit template glux-score-pad)"]
    assert str(errors[2]).startswith("a.jpg: the sheet was printed from yuncos-easy version deadbeef, which is not "
                                     "installed (the installed one is ")
    assert str(errors[3]) == ("no flight found on the map: pencil the path darker and photograph again, or copy the "
                              "sheet by hand (sheetkit template)")
    quoted = ("glux-score-pad", "yuncos-easy", "yuncos-hard", "deadbeef", "example.org")
    for e in errors:
        line = e.line("es")
        assert "⟦" not in line and not english_left(line, quoted), line
    install = UserError(msg("error.photo.install", cmd=photo.INSTALL))
    assert str(install) == "sheetkit read needs the photo extra: install it with pip install 'sheetkit[photo]'"
    assert "⟦" not in install.line("es") and not english_left(install.line("es")), install.line("es")


def test_an_explicit_lang_wins_over_the_locale_and_the_locale_is_the_default(tmp_path):
    files = {"nogame.toml": b'layout = "yuncos-easy"\n'}
    es = "sheetkit: nogame.toml: game: falta: cada archivo nombra su juego, p. ej. game = \"yuncos\""
    en = 'sheetkit: nogame.toml: game: missing: every file names its game, e.g. game = "yuncos"'
    assert _run(tmp_path, ["check", "nogame.toml"], files, "", "es_ES.UTF-8").err.strip() == es
    assert _run(tmp_path, ["check", "--lang", "en", "nogame.toml"], files, "", "es_ES.UTF-8").err.strip() == en
    assert _run(tmp_path, ["check", "--lang", "es", "nogame.toml"], files, "", "C").err.strip() == es
    assert _run(tmp_path, ["check", "nogame.toml"], files, "", "C").err.strip() == en
    # render's --lang has a default (the sheet's language); only a given one says the error's
    assert "hoja desconocida" in _run(tmp_path, ["render", "nolayout"], {}, "", "es_ES.UTF-8").err
    assert "unknown layout" in _run(tmp_path, ["render", "nolayout"], {}, "", "fr_FR.UTF-8").err


def test_the_errors_no_command_reaches_say_both_languages_too():
    """The Glüx template refusal, Level X's moves of a final position and resolve_lang's
    refusal are raised below a command that refuses first: said through the same line."""
    from sheetkit import layouts
    from sheetkit.messages import resolve_lang
    from sheetkit.errors import UserError
    from types import SimpleNamespace

    from sheetkit.games.glux.templates import record_template
    from sheetkit.games.levelx.moves import moves

    errors = []
    for call in (lambda: record_template(layouts.load("glux-chips")),
                 lambda: moves(None, SimpleNamespace(state=object())),
                 lambda: resolve_lang(None, "fr", {})):
        with pytest.raises(UserError) as e:
            call()
        errors.append(e.value)
    assert [e.line("en") for e in errors] == [
        "layout glux-chips (chips) has no record to fill; try a board side, e.g. glux-board-2p",
        'the next moves are asked of a game recorded turn by turn (kind = "game"), not of a final position: '
        'give a game record',
        "the record's lang: 'fr' is not a language sheetkit speaks: use one of en or es"]
    for e in errors:
        assert str(e) == e.line("en")
        assert "⟦" not in e.line("es") and not english_left(e.line("es"), ("glux-chips", "glux-board-2p")), e.line("es")


def test_identify_speaks_the_language_asked_for():
    es = sheetkit("identify", "--lang", "es", "SK1:yuncos-easy:00000000:0042")
    assert es.code == 1 and es.out.startswith("SK1:yuncos-easy:00000000:0042: hoja 0042 de yuncos-easy, versión 00000000")
    assert "la hoja cambió desde que se imprimió esta" in es.out
    en = sheetkit("identify", "--lang", "en", "SK1:yuncos-easy:00000000:0042")
    assert "sheet 0042 of layout yuncos-easy, version 00000000" in en.out
    assert "the layout changed since this sheet was printed" in en.out


# ---- the web page


@pytest.mark.parametrize("data, es_words, en_line", [
    (b'game = "yuncos"\nlayout = "yuncos-easy"\nstart = "2"\nfish_marked = 0\ncrashes_marked = 0\n[[turn]]\n'
     b'flight = "E"\npuzzle = "nest1"\nvalue = 3\n',
     "se esperaba el número de la salida marcada en la isla",
     "x.toml: start: expected the number of the starting point marked on the island, without quotes, e.g. start = 2 "
     "(got '2')"),
    (b'game = "levelx"\nkind = "final"\n[[player]]\nname = "A"\nchips = 3\n',
     "se esperaba cuántas hay",
     "x.toml: player[0].chips: expected how many chips of each value, e.g. { \"5\" = 2, \"7\" = 1 } (got 3)"),
    (b'game = "glux"\nkind = "game"\nboard = "glux-board-2p"\nmoves = []\n[[players]]\nname = "Ana"\nletter = "a"\n'
     b'start = "A1"\n', "se esperaba una letra mayúscula",
     "x.toml: players[0].letter: expected one capital letter A-Z (got 'a')"),
])
def test_an_uploaded_broken_record_is_said_in_the_pages_language(data, es_words, en_line):
    from test_web import Client

    es = Client(lang="es").post("/check", {"record": (io.BytesIO(data), "x.toml")}, content_type="multipart/form-data")
    assert es.code == 400 and es_words in es.error, es.error
    assert "⟦" not in es.error and not english_left(es.error), (english_left(es.error), es.error)
    en = Client(lang="en").post("/check", {"record": (io.BytesIO(data), "x.toml")}, content_type="multipart/form-data")
    assert en.code == 400 and en.error == en_line


# ---- lint


def test_lint_speaks_the_language_asked_for(tmp_path):
    from test_layouts import EASY, edit_grid

    path = tmp_path / "walled.toml"
    path.write_text(edit_grid(EASY, {(1, 0): "l", (0, 1): "l", (1, 13): "5"}))
    (tmp_path / "big.toml").write_text(EASY.replace("square = 7.6", "square = 9.5"))
    en = sheetkit("lint", "--lang", "en", path, tmp_path / "big.toml", "glux-board-2p")
    assert en.code == 1 and "Y8 star at A1: cannot be reached from any start point without crashing into a light" in en.out
    assert "walled: 2 problem(s)" in en.out and "glux-board-2p: ok" in en.out and "printer margin" in en.out
    es = sheetkit("lint", "--lang", "es", path, tmp_path / "big.toml", "glux-board-2p")
    assert es.code == 1 and "Y8 estrella en A1: no se puede alcanzar desde ninguna salida sin chocar contra una luz" in es.out
    assert "Y2 salida 5 en B14: una salida debe estar en la Isla de Choros" in es.out
    assert "walled: 2 problemas" in es.out and "glux-board-2p: bien" in es.out and "margen de 10 mm" in es.out
    for line in es.out.splitlines():
        assert "⟦" not in line and not english_left(line.split(":", 1)[-1]), line
    assert "yuncos-easy: bien" in sheetkit("lint", "yuncos-easy", env={"LANG": "es_ES.UTF-8", "LANGUAGE": "", "LC_ALL": ""}).out


# ---- the history commands


def test_the_history_commands_speak_the_language_asked_for(tmp_path):
    db = ["--db", tmp_path / "h.sqlite3"]
    es = sheetkit("log", *db, "--lang", "es", EX / "glux-game-3p.toml")
    assert es.code == 0 and es.out.startswith("guardada la partida 1 ") and "Ben 18 (ganó)" in es.out
    again = sheetkit("log", *db, "--lang", "es", EX / "glux-game-3p.toml")
    assert_user_error(again)
    assert "ya anotada como la partida 1 (el mismo texto de registro); no se guarda" in again.err
    illegal = sheetkit("log", *db, "--lang", "es", EX / "glux-game-illegal.toml")
    assert illegal.code == 1 and "glux-game-illegal.toml: ILEGAL: 9 errores; no se guarda" in illegal.err
    assert "Ben 18 (ganó)" in sheetkit("plays", *db, "--lang", "es").out
    show = sheetkit("show", "1", *db, "--lang", "es").out
    assert show.startswith("partida 1: Glüx, ") and "  Ana: 12  (empezó)" in show and "  anotada el " in show
    stats = sheetkit("stats", *db, "--lang", "es").out
    assert "glux: 1 partida, la última el " in stats and "jugador  partidas  victorias" in stats
    assert sheetkit("player", "list", *db, "--lang", "es").out.splitlines()[0] == "Ana: 1 partida"
    assert sheetkit("player", "rename", "Ana", "Anita", *db, "--lang", "es").out.strip() == "renombrado: Ana -> Anita"
    assert sheetkit("delete", "1", "--yes", *db, "--lang", "es").out.strip() == "borrada la partida 1"
    for run in (sheetkit("plays", *db, "--lang", "es"), sheetkit("stats", *db, "--lang", "es")):
        assert run.out.strip() in ("todavía no hay partidas en el historial (mira `sheetkit log`)",
                                   "todavía no hay partidas legales terminadas en el historial")
    # the same commands in English say what they always said
    en = sheetkit("log", *db, "--lang", "en", EX / "glux-game-3p.toml")
    assert en.out.startswith("saved play ") and "Ben 18 (won)" in en.out
    assert "  player  plays  wins  win rate  average  best  last played" in sheetkit("stats", *db).out
