"""The position the page keeps between requests is a cache of the stored record, never a
second truth: through the real app on a real history file, random moves (legal, illegal,
no move at all), undos and restarts (a new app with nothing kept, as after a restart or on
a second server process), and after every step the kept position (gone on from the one
before by one engine step) is compared with a full replay of the stored texts: the same
verdict, the same state, the same table verdict."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from sheetkit.history import Store
from sheetkit.web import plays
from sheetkit.web.app import create_app
from test_web import Client
from test_web_undo import UNDO, OnePlay, examples, glux_plays, levelx_plays, yuncos_plays

RESTART = "restart"


def kept_is_a_full_replay(play: OnePlay) -> None:
    with Store.open(play.db) as store:
        stored = store.get(play.pid)
        kept = plays.KEPT.get(plays._key(store, play.pid, stored.version))
    if kept is None:  # nothing kept (after a restart, before the page asked): nothing to compare
        return
    full = plays.check(stored.game, plays.records_of(stored), play.pid)
    assert [r.text for r in kept] == [s.text for s in stored.sheets] == [r.text for r in full]
    assert [r.data for r in kept] == [d for _, d in plays.records_of(stored)]  # each text reads back as the data checked
    for k, f, s in zip(kept, full, stored.sheets):
        got = json.dumps(k.verdict.to_json(), sort_keys=True, ensure_ascii=False)
        assert got == json.dumps(f.verdict.to_json(), sort_keys=True, ensure_ascii=False)
        assert got == json.dumps(s.verdict, sort_keys=True, ensure_ascii=False)
        assert k.checked.state == f.checked.state
        if f.together is not None:
            assert k.together.verdict.to_json() == f.together.verdict.to_json()
            assert k.together.state == f.together.state


def play_with_restarts(tmp_path, start, acts, restarts) -> None:
    db = tmp_path / "h.sqlite3"
    plays.KEPT.clear()
    play = OnePlay(Client(create_app(db=db)), db, start)
    for i, act in enumerate(acts):
        if i in restarts:
            plays.KEPT.clear()
            play.phone = Client(create_app(db=db))
        if act == UNDO:
            play.post("undo", {})
        else:
            play.post("move", act)
        kept_is_a_full_replay(play)
        play.phone.get(f"/play/{play.pid}")  # the page as shown: rebuilt when nothing was kept
        kept_is_a_full_replay(play)


def with_restarts(plays_strategy):
    return st.tuples(plays_strategy, st.sets(st.integers(0, 16), max_size=3))


@examples(10)
@given(with_restarts(glux_plays()))
def test_glux_kept_position_is_the_full_replay(tmp_path, case):
    (start, acts, _), restarts = case
    play_with_restarts(tmp_path, start, acts, restarts)


@examples(10)
@given(with_restarts(levelx_plays()))
def test_levelx_kept_position_is_the_full_replay(tmp_path, case):
    (start, acts, _), restarts = case
    play_with_restarts(tmp_path, start, acts, restarts)


@examples(10)
@given(with_restarts(yuncos_plays()))
def test_yuncos_kept_position_is_the_full_replay(tmp_path, case):
    (start, acts, _), restarts = case
    play_with_restarts(tmp_path, start, acts, restarts)


def test_no_reader_changes_the_data_it_reads():
    """The page checks a move's records without copying them (plays._each_alone): every
    example record and every record of the random players is left as it was read."""
    import copy
    import random
    import tomllib
    from pathlib import Path

    from sheetkit import layouts
    from sheetkit.checking import records as R
    from sheetkit.errors import UserError
    from sheetkit.games.levelx.play import random_game
    from sheetkit.games.yuncos.play import play

    examples_dir = Path(__file__).resolve().parent.parent / "examples"
    every = [tomllib.loads(p.read_text(encoding="utf-8")) for p in sorted(examples_dir.rglob("*.toml"))]
    assert len(every) > 20
    every += [tomllib.loads(play(layouts.load(level), random.Random(s), max_turns=30).toml)
              for level in ("yuncos-easy", "yuncos-hard") for s in range(3)]
    every += [random_game(random.Random(s), ["Ana", "Ben"], 0.4)[0] for s in range(3)]
    for data in every:
        before = copy.deepcopy(data)
        try:
            R.check(R.parse(data, "t.toml"))
        except UserError:  # a record refused is left as it was too
            pass
        assert data == before
