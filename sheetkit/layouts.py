"""Find layouts by id or path, load and validate them, and give each a version."""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sheetkit import games
from sheetkit.messages import msg, or_list
from sheetkit.errors import UserError
from sheetkit.games.interface import LayoutKind, Ref
from sheetkit.resources import data_dir
from sheetkit.tomlfile import MISSING, is_file, parse_toml, problem, read_bytes


# Layouts that belong to no game: the printer's calibration sheet. Their files name no
# `game`, only their kind.
PAPER_KINDS = {
    "calibration": LayoutKind(model=Ref("sheetkit.paper.calibration:Calibration"),
                              compose=Ref("sheetkit.paper.calibration:compose"),
                              lint=Ref("sheetkit.paper.calibration:lint")),
}


@dataclass(frozen=True, slots=True)
class Layout:
    id: str
    path: Path
    game: str | None  # None for the layouts of no game (PAPER_KINDS)
    kind: str
    version: str  # short hash of the content: edits to comments or spacing do not change it
    spec: Any  # the game's validated model for this kind

    @property
    def title(self):
        return self.spec.title

    @property
    def kind_entry(self) -> LayoutKind:
        """How this layout is composed and linted: its game's entry, or a paper kind's."""
        if self.game is None:
            return PAPER_KINDS[self.kind]
        return games.get(self.game).layout_kinds[self.kind]


def shipped_dir() -> Path:
    return Path(data_dir("layouts"))


def shipped_ids() -> list[str]:
    return sorted(p.stem for p in shipped_dir().glob("*.toml"))


def resolve(ref: str) -> Path:
    """A layout id (file name in the shipped layouts) or a path to a layout file."""
    p = Path(ref)
    if ref.endswith(".toml") or p.parent != Path("."):
        bad = problem(p)
        if bad:
            raise UserError(msg("error.layout.no_file") if bad == MISSING else bad, source=ref)
        return p
    shipped = shipped_dir() / f"{ref}.toml"
    if is_file(shipped):
        return shipped
    if is_file(p):
        return p
    known = ", ".join(shipped_ids())
    raise UserError(msg("error.layout.unknown", ref=repr(ref), known=known))


def content_version(data: dict[str, Any]) -> str:
    canonical = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:8]


# Layouts loaded, by file and content: the page loads the play's layout for every record it
# reads, and validating a map costs milliseconds. Keyed by the file's very bytes (and the
# games registered), so a designer's edit is seen at once; a Layout and its spec are frozen.
_LOADED: OrderedDict[tuple, Layout] = OrderedDict()
_LOADED_MOST = 32
_LOADED_LOCK = threading.Lock()


def load(ref: str) -> Layout:
    path = resolve(ref)
    raw = read_bytes(path)
    key = (str(path), raw, games.names())
    with _LOADED_LOCK:
        got = _LOADED.get(key)
        if got is not None:
            _LOADED.move_to_end(key)
            return got
    layout = _load(path, raw)
    with _LOADED_LOCK:
        _LOADED[key] = layout
        while len(_LOADED) > _LOADED_MOST:
            _LOADED.popitem(last=False)
    return layout


def _load(path: Path, raw: bytes) -> Layout:
    data = parse_toml(raw, str(path))
    source = str(path) if path.parent != shipped_dir() else f"layouts/{path.name}"
    if "game" not in data and data.get("kind") in PAPER_KINDS:
        from sheetkit.schema import validate

        kind = data["kind"]
        spec = validate(PAPER_KINDS[kind].model.load(), data, source)
        return Layout(id=path.stem, path=path, game=None, kind=kind, version=content_version(data), spec=spec)
    game = games.named_in(data, source)
    kind = data.get("kind")
    if not isinstance(kind, str) or kind not in game.layout_kinds:  # a list or table is no key
        kinds = ", ".join(game.layout_kinds)
        if kind is None or (isinstance(kind, str) and kind in game.record_kinds):
            # most likely a record (a game played) given where a layout is expected
            raise UserError(msg("error.layout.kind_is_record", kinds=kinds, got=repr(kind)), source=source, field="kind")
        raise UserError(msg("error.expected_one_of", kinds=kinds, got=repr(kind)), source=source, field="kind")
    from sheetkit.schema import validate  # pydantic: only when a layout is really loaded

    spec = validate(game.layout_kinds[kind].model.load(), data, source)
    return Layout(id=path.stem, path=path, game=game.name, kind=kind,
                  version=content_version(data), spec=spec)


def load_for(ref: str, source: str, field: str, game: str, kinds: tuple[str, ...]) -> Layout:
    """The layout a record names: a path is looked for beside the record first, then as
    given; errors name the record and its field."""
    p = Path(ref)
    if (ref.endswith(".toml") or p.parent != Path(".")) and not p.is_absolute():
        beside = Path(source).parent / p
        if problem(beside) != MISSING:  # there, even if unusable: say why
            ref = str(beside)
    try:
        layout = load(ref)
    except UserError as e:
        raise UserError(msg("error.layout.cannot_use", ref=repr(ref), why=e), source=source, field=field) from None
    if layout.game != game or layout.kind not in kinds:
        raise UserError(msg("error.layout.wrong_kind", id=layout.id, game=layout.game, kind=layout.kind,
                            want_game=game, want=or_list(kinds)), source=source, field=field)
    return layout


def load_all() -> list[Layout]:
    return [load(i) for i in shipped_ids()]
