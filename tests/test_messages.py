"""The message catalogues: complete in both languages, the same placeholders, English as
the checker says it today, Spanish not silently English; and the choice of language."""

from __future__ import annotations

import ast

import pytest

from sheetkit import messages as M
from sheetkit.checking import records
from sheetkit.checking.verdict import Finding, Verdict
from sheetkit.errors import UserError
from conftest import ROOT


def test_every_message_exists_in_both_languages_with_the_same_placeholders():
    assert M.problems() == []
    assert len(M.catalogue("en")) >= 90


# ---- the code's messages are the catalogues'

def _message_ids() -> tuple[set[str], set[str]]:
    """Every literal id given to msg()/text() in the package, and the prefixes of ids made
    with an f-string (msg(f"part.{name}"))."""
    ids, prefixes = set(), set()
    for path in (ROOT / "sheetkit").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and node.args):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
            if name not in ("msg", "text", "t"):
                continue
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str) and "." in first.value:
                # t() is the page's words (page.<key>: t("glux.over") is page.glux.over), or a
                # module's alias of text(): either is a message of the catalogues
                ids.add(("t:" if name == "t" else "") + first.value)
            elif (isinstance(first, ast.JoinedStr) and isinstance(first.values[0], ast.Constant)
                  and "." in first.values[0].value):  # message ids are dotted
                prefixes.add(first.values[0].value)
    return ids, prefixes


def test_every_message_id_in_the_code_is_in_both_catalogues():
    ids, prefixes = _message_ids()
    assert len(ids) > 150 and len(prefixes) >= 5
    web_labels = {"legal", "illegal"}  # the page's own words (web/i18n.py) go through t() too
    for lang in M.LANGS:
        cat = M.catalogue(lang)
        def known(i):
            return i[2:] in cat or "page." + i[2:] in cat if i.startswith("t:") else i in cat

        missing = sorted(i for i in ids - web_labels if not known(i))
        assert not missing, (lang, missing)
        for prefix in prefixes:
            assert any(mid.startswith(prefix) for mid in cat), (lang, prefix)
    assert M.problems() == []


def test_the_prefixed_ids_cover_every_value_they_are_made_from():
    from sheetkit.games.iunu.record import KNOWN_CASTES
    from sheetkit.games.yuncos.moves import KINDS
    from sheetkit.games.yuncos.scoring import RANKS

    for lang in M.LANGS:
        cat = M.catalogue(lang)
        for key in [*(f"yuncos.ability.{k}" for k in KINDS), *(f"iunu.caste.{k}" for k in KNOWN_CASTES),
                    *(f"rank.yuncos.{r.key}" for _, r in RANKS),
                    *(f"yuncos.crash.{k}" for k in ("light", "obstacle", "ground")),
                    *(f"part.{k}" for k in ("nests", "luminaries", "fish", "navigation", "crashes", "total",
                                            "citizens", "majorities", "bread", "deben", "bonuses", "middle")),
                    *(f"glux.ordinal_{n}" for n in (1, 2, 3))]:
            assert key in cat, (lang, key)


def test_a_missing_message_or_different_placeholders_are_caught():
    en = {"a": M.Message({"text": "{n} fish"}), "b": M.Message({"text": "box {box}"}),
          "c": M.Message({"one": "{n} step", "other": "{n} steps"}, "n")}
    es = {"a": M.Message({"text": "{m} peces"}), "c": M.Message({"one": "un paso", "other": "{n} pasos"}, "n")}
    found = M.problems({"en": en, "es": es})
    assert found == ["a: placeholders differ: en {n}; es {m}", "b: missing in es.toml"]


def test_every_message_formats_in_both_languages():
    for lang in M.LANGS:
        for mid, msg in M.catalogue(lang).items():
            values = {name: 2 for name in msg.placeholders}
            out = M.text(mid, lang, **values)
            assert out and "{" not in out and "⟦" not in out, (lang, mid, out)


# Words that are the same in both languages (a name, a number's unit, a game term).
SAME = {"status.legal", "history.legal", "part.total", "part.deben", "yuncos.ability.diagonal", "iunu.caste.noble", "glux.pips",
        "print.bar_short",
        # only placeholders and punctuation
        "where.yuncos.player", "glux.head", "glux.room_pips", "finding.levelx.because", "yuncos.dice_of", "where.yuncos.ability_box",
        # the page's words: a name, a heading, an abbreviation
        "page.legal", "page.total", "page.deben", "page.yuncos.lum", "page.pips"}


def test_spanish_is_never_the_english_text():
    es, en = M.catalogue("es"), M.catalogue("en")
    same = {mid for mid in en if es[mid].forms.get("text", es[mid].forms.get("other")) ==
            en[mid].forms.get("text", en[mid].forms.get("other"))}
    assert same == SAME


def test_plural_forms_choose_by_their_count():
    assert M.text("status.illegal", "es", n=1) == "ILEGAL: 1 error"
    assert M.text("status.illegal", "es", n=3) == "ILEGAL: 3 errores"
    assert M.text("finding.yuncos.Y4_neither_die", "en", steps=1, dice="5 and 1") == \
        ("a flight of 1 step matches neither die (5 and 1): correct the flight or the dice "
         "(one die flies as many steps as it shows)")
    assert M.text("finding.yuncos.Y7_fish", "es", eaten=1, marked=2) == \
        "1 pez comido, pero el contador de peces marca 2: marca una sola casilla (fish_marked = 1)"
    assert M.text("finding.yuncos.Y7_fish", "es", eaten=3, marked=2).endswith("marca 3 casillas (fish_marked = 3)")


def test_unknown_id_language_or_value_raise_in_tests():
    with pytest.raises(M.MessageError, match="no message"):
        M.text("status.nonsense", "es")
    with pytest.raises(M.MessageError, match="language 'fr'"):
        M.text("status.legal", "fr")
    with pytest.raises(M.MessageError, match="needs n"):
        M.text("status.illegal", "en")


def test_outside_tests_the_fallback_is_visible_not_english(monkeypatch):
    monkeypatch.delenv("PYTEST_CURRENT_TEST", raising=False)
    monkeypatch.delenv("SHEETKIT_STRICT_MESSAGES", raising=False)
    assert M.text("status.nonsense", "es", n=2) == "⟦status.nonsense: n=2⟧"
    assert M.text("status.legal", "fr") == "⟦status.legal⟧"
    monkeypatch.setenv("SHEETKIT_STRICT_MESSAGES", "1")
    with pytest.raises(M.MessageError):
        M.text("status.nonsense", "es")


def test_catalogues_ship_inside_the_package():
    from importlib.resources import files

    for lang in M.LANGS:
        assert files("sheetkit").joinpath("locale", f"{lang}.toml").is_file()


# ---- the seeded English is what sheetkit says today, word for word


def test_status_lines_are_the_verdicts():
    f = Finding("Y4", "turn 3", "x")
    assert M.text("status.legal", "en") == Verdict("yuncos", "s").status()
    illegal = Verdict("yuncos", "s", (f, f))
    assert M.text("status.illegal", "en", n=2) == illegal.status()
    so_far = Verdict("yuncos", "s", (f,), in_progress=True, to_move="Ana")
    assert M.text("status.so_far_to_move", "en", status=M.text("status.illegal", "en", n=1), player="Ana") == \
        so_far.status()
    assert M.text("status.so_far", "en", status="legal") == Verdict("yuncos", "s", in_progress=True).status()


def test_solo_ranks_are_those_of_the_rulebook_in_both_languages():
    from sheetkit.games.yuncos.scoring import RANKS

    ids = ["abandoned", "rookie", "fearless", "skilled", "expert"]
    assert [M.text(f"rank.yuncos.{i}", "es") for i in ids] == [w.es for _, w in RANKS]
    assert [M.text(f"rank.yuncos.{i}", "en") for i in ids] == [w.en for _, w in RANKS]


def test_glux_tiebreak_sentences():
    from sheetkit.games.glux import rules

    res = rules.score([("A", {"Ana": 5, "Ben": 1}), ("middle", {"Ana": 2, "Ben": 7})], ["Ana", "Ben"], middle=1)
    assert res.tiebreak("en") == M.text("tiebreak.glux.middle_room", "en", vp=4, tied="Ana, Ben", winner="Ben", pips=7)
    res = rules.score([("A", {"Ana": 5, "Ben": 1}), ("B", {"Ben": 6, "Ana": 1}), ("middle", {"Ana": 3, "Ben": 3})],
                      ["Ana", "Ben", "Cris"], middle=2)
    assert res.tiebreak("en") == M.text("tiebreak.glux.still_tied", "en", vp=10, tied="Ana, Ben", pips=3)
    res = rules.score([("A", {"Ana": 5, "Ben": 5})], ["Ana", "Ben"])
    assert res.tiebreak("en") == M.text("tiebreak.glux.shared_no_middle", "en", vp=4)


def test_iunu_tiebreak_sentences():
    from sheetkit.checking.verdict import Score
    from sheetkit.games.iunu.rules import winners_of

    scores = [Score("Ana", [], 8), Score("Ben", [], 8)]
    assert winners_of(scores, [2, 5])[1]("en") == M.text("tiebreak.iunu.most_deben", "en", points=8, deben=5)
    assert winners_of(scores, [4, 4])[1]("en") == M.text("tiebreak.iunu.shared", "en", points=8, deben=4)


def test_yuncos_findings_of_the_illegal_example_word_for_word():
    v = records.check(records.load("examples/yuncos-illegal.toml")).verdict
    t = lambda mid, **kw: M.text(mid, "en", **kw)  # noqa: E731
    expected = [
        ("Y4", t("where.yuncos.turn", turn=3),
         t("finding.yuncos.Y4_neither_die", steps=3, dice=t("yuncos.dice", a=5, b=1))),
        ("Y13", t("where.yuncos.turn", turn=6),
         t("finding.yuncos.Y13_die_fits", value=4, cell=t("yuncos.cell.nest_row", row=1))),
        ("Y11", t("where.yuncos.turn_cell", turn=7, cell=t("yuncos.cell.nest_box", row=1, box=2)),
         t("finding.yuncos.Y11_row1_repeat", value=1)),
        ("Y21", t("where.yuncos.turn", turn=19),
         t("finding.yuncos.Y21_after_end", end=18, reason=t("yuncos.end_island", point="N6", stars=4))),
        ("Y18", t("where.yuncos.turn_step", turn=19, step=2), t("finding.yuncos.Y18_middle", point="L3")),
        ("Y7", t("where.yuncos.fish_counter"), t("finding.yuncos.Y7_fish", eaten=3, marked=4)),
        ("Y15", t("where.yuncos.ability_box", box=t("yuncos.cell.ability_nest", row=2, k=1)),
         t("finding.yuncos.Y15_not_crossed", kind=t("yuncos.ability.diagonal"), turn=19, box="nest2.1",
           named=t("yuncos.cell.ability_nest", row=2, k=1))),
    ]
    assert [(f.rule, f.where, f.message) for f in v.findings] == expected


def test_the_same_findings_in_spanish():
    t = lambda mid, **kw: M.text(mid, "es", **kw)  # noqa: E731
    assert t("finding.yuncos.Y4_neither_die", steps=3, dice=t("yuncos.dice", a=5, b=1)) == \
        ("un vuelo de 3 pasos no corresponde a ninguno de los dados (5 y 1): corrige el vuelo o los dados "
         "(un dado vuela tantos pasos como marca)")
    assert t("where.yuncos.turn_cell", turn=7, cell=t("yuncos.cell.nest_box", row=1, box=2)) == \
        "turno 7, fila 1 de los nidos, casilla 2"
    assert t("finding.yuncos.Y21_after_end", end=18, reason=t("yuncos.end_island", point="N6", stars=4)) == \
        ("la partida terminó tras el turno 18 (volvió a la Isla de Choros en N6 tras pasar por 4 estrellas); "
         "este turno no debería estar en la hoja: quítalo")


# ---- which language


@pytest.mark.parametrize("option, record, env, want", [
    ("es", "en", {"LANG": "en_US.UTF-8"}, "es"),  # --lang wins
    (None, "es", {"LANG": "en_US.UTF-8"}, "es"),  # then the record's language
    (None, None, {"LANG": "es_ES.UTF-8"}, "es"),  # then the locale
    (None, None, {"LC_ALL": "es_AR.utf8", "LANG": "en_GB"}, "es"),  # LC_ALL before LANG
    (None, None, {"LC_ALL": "C", "LANG": "es_ES"}, "en"),  # the first one set decides: C asks for none
    (None, None, {"LANGUAGE": "fr:es", "LANG": "en_US"}, "es"),  # LANGUAGE is a list
    (None, None, {"LANGUAGE": "fr:de", "LANG": "es_MX"}, "es"),  # nothing spoken there: on to LANG
    (None, None, {"LANG": "fr_FR.UTF-8"}, "en"),  # a language sheetkit does not speak
    (None, None, {}, "en"),
    (None, None, {"LANG": "es"}, "es"),
    (None, None, {"LC_MESSAGES": "es_ES@euro"}, "es"),
])
def test_resolve_lang(option, record, env, want):
    assert M.resolve_lang(option, record, env) == want


@pytest.mark.parametrize("option, record", [("fr", None), (None, "klingon"), ("", None)])
def test_a_language_sheetkit_does_not_speak_is_a_clear_error(option, record):
    with pytest.raises(UserError, match="not a language sheetkit speaks"):
        M.resolve_lang(option, record, {})


def test_a_message_kept_for_later_renders_in_either_language_and_as_json():
    m = M.msg("finding.yuncos.Y13_die_fits", value=4, cell=M.msg("yuncos.cell.nest_box", row=1, box=3))
    assert m("en") == ("a ground/sea crash is marked, but the puzzle die 4 fits in nest row 1, box 3: "
                       "remove crash = true and write 4 there")
    assert m("es") == ("hay un choque contra el suelo o el mar, pero el dado del puzle, un 4, cabe en la "
                       "fila 1 de los nidos, casilla 3: quita crash = true y anota ahí el 4")
    assert m.to_json() == {"id": "finding.yuncos.Y13_die_fits",
                           "values": {"value": 4, "cell": {"id": "yuncos.cell.nest_box", "values": {"row": 1, "box": 3}}}}
    kinds = [M.msg("yuncos.crash.tally", n=1, kind=M.msg("yuncos.crash.ground")),
             M.msg("yuncos.crash.tally", n=2, kind=M.msg("yuncos.crash.obstacle"))]
    track = M.msg("finding.yuncos.Y20_track", marks=3, detail=kinds, due=3, marked=2)
    assert track("en") == ("the turns give crash marks: 3 (1 ground, 2 obstacle): mark 3 boxes of the crash track, "
                           "not 2 (crashes_marked = 3)")
    assert track("es") == ("choques de los turnos: 3 (suelo o mar: 1, obstáculo: 2); marca 3 casillas del contador "
                           "de choques, no 2 (crashes_marked = 3)")
