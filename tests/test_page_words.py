"""The phone page's words are the catalogues' `page.*` messages (docs/i18n.md).

Every key the templates and the page code ask for says something in both languages (the
keys found by scanning `t("...")`, plus those built from the games' tuples of label keys);
a key the catalogues lack is never silent (MessageError in strict mode, a ⟦page.key⟧
marker otherwise); real pages render in both languages with no marker and none of the
other language's page words (`foreign_words`: its phrases anywhere, its single words in
what the page says or a screen reader reads; the browser tests check every page they
visit with it); a download with words (a checked PDF) is in the page's language.
"""

from __future__ import annotations

import ast
import functools
import html
import re

import pytest

from sheetkit import messages as M
from sheetkit.web import i18n

from conftest import ROOT, sheetkit

PACKAGE = ROOT / "sheetkit"
EXAMPLES = ROOT / "examples"
# the page's templates and code: sheetkit/web, the games' own pages and entry code, the form
# readers; the whole package is scanned, wherever they move (a dotted key is a message id)
HTML = sorted(PACKAGE.rglob("*.html"))
PY = sorted(PACKAGE.rglob("*.py"))

LITERAL = re.compile(r"""\bt\(\s*(['"])([^'"{}]+)\1\s*[,)]""")
FOR_TUPLE = re.compile(r"{%-?\s*for\s+(\w+)\s+in\s+\(([^)]*)\)\s*-?%}(.*?){%-?\s*endfor", re.S)
# the photo reader's fields, as the confirm screen names them (sheetkit/photo/sheetpage.py label: ph_<field>)
PHOTO_FIELDS = ("start", "flight", "value", "dice", "use", "fish_marked", "crashes_marked", "used")


def _strings(node) -> list[str]:
    return [n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def _target_names(node) -> list[str]:
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif isinstance(node, ast.AnnAssign):
        targets = [node.target]
    else:
        return [node.arg] if isinstance(node, ast.keyword) and node.arg else []
    return [x.id if isinstance(x, ast.Name) else x.attr for x in targets if isinstance(x, (ast.Name, ast.Attribute))]


def _py_keys(tree: ast.AST) -> set[str]:
    """The keys a module gives `t()`: literals; the label keys of a game's variants and of
    their choice (`VARIANTS = (("34p", "board_34p"), ...)`, `variant_label="board_side"`,
    however the game spells them); a loop's or comprehension's tuple of keys (`for k in
    ("a", "b"): t(k)`, `t(f"yuncos.{kind}")`); a name assigned only string constants (`key = "a"
    if ... else "b"; t(key)`); the default of `getattr(ad, "VARIANT_LABEL", "variant")`."""
    keys: set[str] = set()
    for node in ast.walk(tree):
        value = getattr(node, "value", None)
        for name in (n.lower() for n in _target_names(node)):
            if name.endswith("variant_label") and isinstance(value, ast.Constant) and isinstance(value.value, str):
                keys.add(value.value)
            elif name.endswith("variants") and isinstance(value, ast.Tuple):
                keys |= {e.elts[1].value for e in value.elts if isinstance(e, ast.Tuple) and len(e.elts) == 2
                         and isinstance(e.elts[1], ast.Constant) and isinstance(e.elts[1].value, str)}
    loops = [(n.target, n.iter, n) for n in ast.walk(tree) if isinstance(n, ast.For)]
    loops += [(g.target, g.iter, n) for n in ast.walk(tree) if isinstance(n, (ast.ListComp, ast.SetComp, ast.DictComp,
                                                                                  ast.GeneratorExp)) for g in n.generators]
    scopes = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.Module))]
    assigned: dict[int, dict[str, list[str]]] = {}
    for scope in scopes:
        names: dict[str, list[str]] = {}
        for n in ast.walk(scope):
            if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
                names.setdefault(n.targets[0].id, []).extend(_strings(n.value))
        assigned[id(scope)] = names
    for scope in scopes:
        for call in ast.walk(scope):
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "t" and call.args):
                continue
            first = call.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                keys.add(first.value)
            elif isinstance(first, ast.IfExp):  # t("a" if ... else "b")
                keys |= set(_strings(first.body)) | set(_strings(first.orelse))
            elif isinstance(first, ast.Call) and getattr(first.func, "id", None) == "getattr" and len(first.args) == 3:
                keys |= set(_strings(first.args[2]))
            elif isinstance(first, ast.Name):
                for target, it, owner in loops:
                    if isinstance(target, ast.Name) and target.id == first.id and isinstance(it, ast.Tuple) \
                            and call in ast.walk(owner):
                        keys |= set(_strings(it))
                        break
                else:
                    values = assigned[id(scope)].get(first.id, [])
                    if values and all(re.fullmatch(r"[a-z]\w*", v) for v in values):
                        keys |= set(values)
            elif isinstance(first, ast.JoinedStr) and len(first.values) == 2 and isinstance(first.values[0], ast.Constant) \
                    and isinstance(first.values[1], ast.FormattedValue) and isinstance(first.values[1].value, ast.Name):
                prefix, var = first.values[0].value, first.values[1].value.id
                for target, it, owner in loops:
                    if isinstance(target, ast.Name) and target.id == var and isinstance(it, ast.Tuple) \
                            and call in ast.walk(owner):
                        keys |= {prefix + v for v in _strings(it)}
                        break
                else:
                    if prefix == "ph_":
                        keys |= {prefix + f for f in PHOTO_FIELDS}
    return keys


def _html_keys(source: str) -> set[str]:
    keys = {k for _, k in LITERAL.findall(source)}
    for var, items, body in FOR_TUPLE.findall(source):
        values = re.findall(r"""['"]([^'"]+)['"]""", items)
        if re.search(rf"\bt\(\s*{var}\s*[,)]", body):
            keys |= set(values)
        for _, prefix in re.findall(rf"""\bt\(\s*(['"])([\w.]+)\1\s*~\s*{var}\b""", body):
            keys |= {prefix + v for v in values}
    return keys


def used_keys() -> dict[str, set[str]]:
    """Every page key (or, dotted, a whole message id) the page's code and templates use,
    with the files that use it."""
    found: dict[str, set[str]] = {}
    for path in HTML:
        for k in _html_keys(path.read_text(encoding="utf-8")):
            found.setdefault(k, set()).add(str(path.relative_to(ROOT)))
    for path in PY:
        if path.is_file():
            for k in _py_keys(ast.parse(path.read_text(encoding="utf-8"))):
                found.setdefault(k, set()).add(str(path.relative_to(ROOT)))
    return found


def message_id(key: str) -> str:
    """The page's words are page.<key> (a game's own: page.<game>.<key>); a dotted key that
    is no page word is a whole message id (a module's alias of text())."""
    if "." not in key or "page." + key in M.catalogue("en"):
        return "page." + key
    return key


def test_every_key_the_page_uses_is_in_both_catalogues():
    found = used_keys()
    page = set(found)
    assert len(page) > 200  # the scan sees the templates and the code
    for dynamic in ("board_2p", "board_34p", "board_side", "easy", "hard", "level", "variant", "nests", "crashes",
                    "cards", "bread", "yuncos.plusminus", "yuncos.yunco", "ph_fish_marked", "ph_flight"):
        assert dynamic in page, dynamic  # keys built at run time, found through their tuples
    for chosen in ("levelx.eff_x", "levelx.eff_to", "levelx.eff_stays", "levelx.eff_nothing"):  # picked by a condition
        assert all("page." + chosen in M.catalogue(lang) for lang in M.LANGS), chosen
    for lang in M.LANGS:
        cat = M.catalogue(lang)
        missing = sorted(f"{message_id(k)} ({', '.join(sorted(found[k]))})" for k in found if message_id(k) not in cat)
        assert not missing, (lang, missing)


def test_the_photo_fields_named_are_the_readers():
    source = (PACKAGE / "photo" / "flight.py").read_text(encoding="utf-8")
    fields = set(re.findall(r'conf\[f?"(?:turn\[\{t\}\]\.)?(\w+)"\] = Reading', source))
    assert fields == set(PHOTO_FIELDS)


def test_page_words_are_the_catalogues_in_either_language():
    assert i18n.LANGS == M.LANGS and i18n.DEFAULT == M.DEFAULT
    assert i18n.label("es", "board_side") == M.text("page.board_side", "es") == "Cara del tablero"
    assert i18n.label("en", "name_n", n=3) == "Player 3"
    assert i18n.label("en", "ph_n_fields", n=1).startswith("1 field to confirm")
    assert i18n.label("es", "ph_n_fields", n=4).startswith("4 campos por confirmar")
    assert i18n.page_lang() == M.DEFAULT  # outside a request


def test_a_missing_key_raises_in_strict_mode_and_is_a_marker_otherwise(monkeypatch):
    with pytest.raises(M.MessageError, match="page.no_such_words"):
        i18n.label("es", "no_such_words")
    with pytest.raises(M.MessageError, match="needs n"):
        i18n.label("en", "name_n")
    monkeypatch.delenv("PYTEST_CURRENT_TEST", raising=False)
    monkeypatch.delenv("SHEETKIT_STRICT_MESSAGES", raising=False)
    assert i18n.label("es", "no_such_words", n=2) == "⟦page.no_such_words: n=2⟧"
    assert i18n.label("en", "name_n") == "⟦page.name_n⟧"
    monkeypatch.setenv("SHEETKIT_STRICT_MESSAGES", "1")
    with pytest.raises(M.MessageError):
        i18n.label("en", "no_such_words")


# ---- real pages, in both languages


@functools.cache
def _other_words(lang: str) -> list[str]:
    """The other language's page words that cannot be this language's: texts without
    placeholders, long enough to be a phrase, different from every text of `lang`."""
    other = "en" if lang == "es" else "es"
    mine = {m.forms.get("text") for i, m in M.catalogue(lang).items()}
    return [m.forms["text"] for i, m in M.catalogue(other).items()
            if i.startswith("page.") and "text" in m.forms and not m.placeholders and len(m.forms["text"]) >= 14
            and m.forms["text"] not in mine]


# the words a player reads or a screen reader says: text (SVG titles and legends included),
# and these attributes; not ids, classes, field names or a script's data
SAID_ATTRS = ("aria-label", "title", "alt", "placeholder")
WORD = re.compile(r"[^\W\d_]{4,}")
# a catalogue's notation, not its language: `--middle K`, `crash = true`, `sheetkit check`,
# file names, record keys and cells (fish_marked, [deck.castes.farmer], nest2.1) and rule ids (rule order)
NOTATION = re.compile(r"\b(?:rule|regla) \w+|--[\w-]+|\b\w+ = \S+|`[^`]*`|\[[^\]]*\]|\S+\.toml|\b\w+_\w+\b|\b[a-z]+\d[\w.]*|(?<=sheetkit )\w+")
# the catalogues' sections whose words the pages show (their own, the scores, statuses,
# ranks, tiebreaks, castes and where a finding is); a finding of a record file names its
# keys (`add nest2.1 to used`): a language's own words include those
PAGE_SECTIONS = ("page.", "status.", "part.", "rank.", "tiebreak.", "iunu.caste.", "checked.", "where.")
FINDINGS = ("finding.",)


def said(source: str, sheets: bool = True) -> str:
    """What a page says: its text and the attributes read aloud, without its scripts and styles
    and the rule ids of its findings (never translated); `sheets=False`: without the checked
    sheets drawn in it either (`<div class="sheet">`: the PDF's pages)."""
    from html.parser import HTMLParser

    out: list[str] = []

    class Reader(HTMLParser):
        skip, rule, divs = 0, None, []  # divs: the classes of the open <div>s

        def quiet(self) -> bool:
            return bool(self.skip or self.rule or not sheets and any("sheet" in c for c in self.divs))

        def handle_starttag(self, tag, attrs):
            self.skip += tag in ("script", "style")
            classes = (dict(attrs).get("class") or "").split()
            if "rule" in classes:
                self.rule = tag
            if tag == "div":
                self.divs.append(classes)
            if not self.quiet():
                out.extend(v for k, v in attrs if k in SAID_ATTRS and v)

        def handle_endtag(self, tag):
            self.skip -= tag in ("script", "style") and self.skip > 0
            if tag == self.rule:
                self.rule = None
            if tag == "div" and self.divs:
                self.divs.pop()

        def handle_data(self, data):
            if not self.quiet():
                out.append(data)

    Reader(convert_charrefs=True).feed(source)
    return " ".join(out)


def _words(lang: str, sections=PAGE_SECTIONS) -> set[str]:
    words: set[str] = set()
    for i, m in M.catalogue(lang).items():
        if i.startswith(sections):
            for form in m.forms.values():
                words |= {w.lower() for w in WORD.findall(NOTATION.sub(" ", re.sub(r"\{[^}]*\}", " ", form)))}
    return words


@functools.cache
def _other_single_words(lang: str) -> set[str]:
    """The other language's single words (4 letters or more) in what the pages say, that no
    text of `lang` the pages say has: a caste, a score row, a button's one word."""
    from sheetkit import games

    titles = {w.lower() for g in games.all_games() for w in WORD.findall(g.title)}  # a game's name is its own
    return _words("en" if lang == "es" else "es") - _words(lang, PAGE_SECTIONS + FINDINGS) - titles


def foreign_words(source: str, lang: str) -> list[str]:
    """The other language's words on a page (its HTML as served, or as the browser has it
    now): its phrases anywhere in the page, its single words in what the page says."""
    shown = html.unescape(source)
    phrases = [w for w in _other_words(lang) if w in shown]
    other = _other_single_words(lang)
    return phrases + sorted({w for w in WORD.findall(NOTATION.sub(" ", said(source))) if w.lower() in other})


# what a play's pages never say (the record's notation is for record files): Markdown,
# a record's keys (in_progress) and assignments (rounds = ..., crash = true)
JARGON = re.compile(r"`|\*\*|\b[a-z]+_[a-z_]+\b|\b[a-z_]+ = (?:true|false|\d|\.\.\.|\"|\[)")


def jargon(source: str) -> list[str]:
    """The record jargon and Markdown in what a page says, its checked sheets included: a
    play's sheets are drawn with the page's wording of their findings (views.sheets)."""
    return [m.group(0) for m in JARGON.finditer(said(source))]


def assert_speaks(page, lang: str, code: int = 200):
    assert page.code == code, page.text[:2000]
    assert f'<html lang="{lang}">' in page.text
    assert "⟦" not in html.unescape(page.text)
    foreign = foreign_words(page.text, lang)
    assert not foreign, foreign


def test_the_other_languages_words_are_found_where_a_page_says_them():
    page = ('<html lang="es"><body><h1>Granjero</h1><table><tr><th>Farmer</th><td>2</td></tr></table>'
            '<input aria-label="Baker Dinastía" name="p0_cards_baker"><svg><title>Glüx: board for 3 and 4 players</title>'
            '</svg><p>añade nest2.1 a used; quita crash = true (regla order)</p>'
            '<p class="finding"><b class="rule">order</b> Yuncos, Level X, sheetkit check</p></body></html>')
    assert foreign_words(page, "es") == ["Baker", "Farmer", "board", "players"]  # not the notation, nor the rule id
    assert foreign_words('<html lang="en"><p title="Granjero">Farmer: 2</p></html>', "en") == ["Granjero"]
    assert jargon("<p>add the turns, or write in_progress = true; see `sheetkit stats`</p><p>A: 3+4 = 7</p>"
                  '<p>the rounds played (rounds = ...)</p><div class="sheet"><svg><text>rounds = 8</text></svg></div>'
                  "<p>bonus × afterlife card = VP</p>") == ["in_progress", "`", "`", "rounds = ...", "rounds = 8"]


# the start forms of a play of each game entered on the page
STARTS = {
    "glux": {"game": "glux", "variant": "34p", "name0": "Ana", "name1": "Ben", "name2": "Carla", "first": "0",
             "start_chip0": "6", "start_chip1": "2", "start_chip2": "4"},
    "yuncos": {"game": "yuncos", "variant": "yuncos-easy", "name0": "Ana", "name1": "Bea", "first": "0"},
    "levelx": {"game": "levelx", "name0": "Ana", "name1": "Ben", "first": "0"},
}


@pytest.mark.parametrize("lang", M.LANGS)
def test_the_pages_render_in_both_languages(tmp_path, lang):
    from sheetkit.web.app import create_app
    from test_web import Client, upload

    phone = Client(create_app(db=tmp_path / "h.sqlite3"), lang=lang)
    for url in ("/", "/tally/yuncos", "/tally/glux", "/tally/iunu", "/tally/levelx", "/check", "/play/new", "/photo",
                *(f"/play/new?game={g}" for g in STARTS)):
        assert_speaks(phone.get(url), lang)
    assert_speaks(phone.get("/no/such/page"), lang, 404)
    assert_speaks(upload(phone, EXAMPLES / "yuncos-illegal.toml"), lang)
    assert_speaks(upload(phone, EXAMPLES / "iunu-inline-deck.toml"), lang)
    assert_speaks(upload(phone, EXAMPLES / "levelx-game-illegal.toml"), lang)
    for game, form in STARTS.items():
        started = phone.post("/play/new", form)
        assert started.code == 303, started.text[:3000]
        assert_speaks(phone.get(started.resp.headers["Location"]), lang)
    assert M.text("page.check", lang) in phone.get("/").text


def test_the_browser_chooses_until_the_page_is_switched():
    from test_web import Client

    phone = Client(lang=None)
    assert '<html lang="es">' in phone.get("/", headers={"Accept-Language": "es"}).text
    assert '<html lang="en">' in phone.get("/?lang=en", headers={"Accept-Language": "es"}).text
    assert '<html lang="en">' in phone.get("/", headers={"Accept-Language": "es"}).text  # the switch is kept


# ---- downloads with words: in the page's language


def test_the_checked_pdf_of_a_spanish_page_is_the_spanish_sheet(tmp_path):
    from test_web import Client, upload

    example = EXAMPLES / "glux-game-illegal.toml"
    page = upload(Client(lang="es"), example)
    assert page.code == 200
    assert "ILEGAL" in page.text.split('class="sheet"', 1)[1]  # the checked sheet drawn on the page
    pdf = Client(lang="es").post("/download/pdf", {"record": page.hidden("/download/pdf", "record"),
                                                   "source": example.name})
    assert pdf.resp.mimetype == "application/pdf"
    for lang in M.LANGS:
        assert sheetkit("check", example, "--render", tmp_path / f"{lang}.pdf", "--lang", lang).code == 1
    assert pdf.resp.data == (tmp_path / "es.pdf").read_bytes() != (tmp_path / "en.pdf").read_bytes()


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_play_ended_early_says_its_findings_as_a_player_fixes_them_its_drawn_sheets_too(tmp_path, lang):
    """The end page draws each sheet as `check --render` does, but a play entered on the
    page has no record file: "rounds = ..." or "in_progress" would name keys nobody typed."""
    from sheetkit.web.app import create_app
    from test_web import Client
    from test_web_play_iunu import START as IUNU
    from test_web_plays import START as GLUX, move, placements, start_play
    from test_web_plays_levelx import START as LEVELX

    phone = Client(create_app(db=tmp_path / "h.sqlite3"), lang=lang)
    for start in (GLUX, IUNU, LEVELX):
        pid = start_play(phone, start)
        if start["game"] == "glux":
            assert move(phone, pid, placements()[0]).code == 303
        version = re.search(r'name="version" value="([^"]+)"', phone.get(f"/play/{pid}").text).group(1)
        assert phone.post(f"/play/{pid}/end", {"version": version, "confirm": "1"}).code == 303
        end = phone.get(f"/play/{pid}/end")
        assert end.code == 200 and 'class="sheet"' in end.text, end.text[:2000]
        assert jargon(end.text) == [], (start["game"], jargon(end.text))
