"""Every registered game offers the whole interface (sheetkit.games.interface.Game), has the
same floor plan, and ships legal, illegal and unusable example records."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import click
import pydantic
import pytest

from sheetkit import games, layouts
from sheetkit.checking import records
from sheetkit.errors import UserError
from sheetkit.games.interface import Checked, Game, Ref
from sheetkit.paper.scene import Scene

from conftest import ROOT

FLOOR_PLAN = {"layout", "compose", "lint", "record", "rules", "check", "overlay", "templates", "tally"}
ALL = games.all_games()


def test_the_registry_holds_one_game_object_per_package():
    assert [g.name for g in ALL] == list(games.GAMES)
    assert all(isinstance(g, Game) for g in ALL)
    package_dir = Path(games.__file__).parent
    packages = {m.name for m in pkgutil.iter_modules([str(package_dir)]) if m.ispkg}
    assert packages == set(games.GAMES)


@pytest.mark.parametrize("game", ALL, ids=lambda g: g.name)
def test_every_reference_resolves(game: Game):
    for kind, lk in game.layout_kinds.items():
        assert issubclass(lk.model.load(), pydantic.BaseModel), kind
        assert callable(lk.compose.load()) and callable(lk.lint.load()), kind
        assert lk.record_template is None or callable(lk.record_template.load()), kind
    assert game.record_kinds, "a game without records cannot be checked"
    for kind, rk in game.record_kinds.items():
        assert issubclass(rk.model.load(), pydantic.BaseModel), kind
        assert callable(rk.check.load()), kind
        assert rk.overlay is None or callable(rk.overlay.load()), kind
    assert callable(game.read_record.load())
    tally = game.tally  # data: the command line builds `sheetkit score NAME` from it
    assert (tally.score is None) != (tally.lines is None) and tally.help
    assert callable((tally.score or tally.lines).load())
    from sheetkit.cli.checking import ScoreGroup

    command = ScoreGroup("score").get_command(None, game.name)
    assert isinstance(command, click.Command) and command.name == game.name
    for name, ref in game.templates.items():
        assert isinstance(ref, Ref) and isinstance(ref(), str) and ref().strip(), name


@pytest.mark.parametrize("game", ALL, ids=lambda g: g.name)
def test_the_same_floor_plan(game: Game):
    package = importlib.import_module(f"sheetkit.games.{game.name}")
    modules = {m.name for m in pkgutil.iter_modules(package.__path__)}
    assert FLOOR_PLAN <= modules, FLOOR_PLAN - modules


def test_every_shipped_layout_is_of_a_kind_its_game_declares():
    for layout in layouts.load_all():
        if layout.game is None:  # the calibration sheet: a paper kind of no game
            assert layout.kind in layouts.PAPER_KINDS, layout.id
            continue
        assert layout.kind in games.get(layout.game).layout_kinds, layout.id
    for game in ALL:
        if game.pad is not None:
            pad = layouts.load(game.pad)
            assert pad.game == game.name and pad.kind == "score-pad"


def _examples(game: str) -> list[Path]:
    return sorted((ROOT / "examples").glob(f"{game}-*.toml"))


@pytest.mark.parametrize("game", ALL, ids=lambda g: g.name)
def test_examples_legal_illegal_and_unusable(game: Game):
    outcome: dict[str, list[str]] = {"legal": [], "illegal": [], "unusable": []}
    for path in _examples(game.name):
        try:
            loaded = records.load(path)
        except UserError:
            outcome["unusable"].append(path.name)
            continue
        checked = records.check(loaded)
        assert isinstance(checked, Checked) and checked.state is not None, path.name
        assert loaded.record.kind in game.record_kinds
        outcome["legal" if checked.verdict.legal else "illegal"].append(path.name)
        overlay = loaded.kind.overlay
        if overlay is not None:
            assert isinstance(overlay(loaded.record, checked, "a4"), Scene), path.name
    assert all(outcome.values()), outcome
