"""Glüx records: the final board (`kind = "board"`), the whole game (`kind = "game"`), and
the rooms' pips as the score pad counts them (`kind = "rooms"`).

The first two name the board layout (`board = "glux-board-2p"`, or a path to a layout file) and the
players in seat order (the first listed places first). See docs/glux.md for examples.

Final board grid: one token per square, separated by spaces, one line per row:
  "."      an empty square
  "A3"     the top chip is player A's, showing 3 pips
  "A3*"    the same, on a square holding two chips (a stack), the chip below not noted
  "A3/B5"  the same stack with the chip below: player B's, showing 5

Moves of a whole game, one placement per line, in the order played:
  "A C4 5"       player A places a chip showing 5 on C4, counted from whichever chip
                 of theirs reaches it (onto their own start square with no chip
                 reaching it: the start placement, G8)
  "A C1-C4 5"    the same with the square counted from
  "A start 2"    player A uses the once-per-game start placement (G8), chip showing 2

A game record may say `in_progress = true`: the game is still being played.

The rooms' pips: the players' names in seat order, one [[room]] per room someone has pips
in (`name`, `pips = { Ana = 10, Ben = 9 }`), and which room is the middle room (`middle`,
by name; a room named "middle" is, unless it says otherwise). No board is named: the pad
serves both sides.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Literal

from pydantic import model_validator

from sheetkit.messages import msg
from sheetkit.errors import FieldError, UserError
from sheetkit.grid import parse_square, text_rows
from sheetkit.games.glux.rules import CHIPS, Chip, Placement, PlayerSetup, Square
from sheetkit.games.glux.layout import GluxBoard
from sheetkit.schema import Model, Text, check_players, validate

UNKNOWN = Chip("?", 0)  # the chip below a stack, when the grid does not say
LETTER = re.compile(r"^[A-Z]$")
# the letter in either case; a stack's top chip, then "*" or "/" and the chip below
CHIP = re.compile(r"^([A-Za-z])([1-6])(?:(\*)|/([A-Za-z])([1-6]))?$")
SQUARE = r"([A-Za-z]{1,2}[0-9]{1,3})"
MOVE = re.compile(rf"^([A-Za-z])\s+{SQUARE}\s*-\s*{SQUARE}\s+([0-9]+)$")
SHORT = re.compile(rf"^([A-Za-z])\s+{SQUARE}\s+([0-9]+)$")
START = re.compile(r"^([A-Z])\s+start\s+([0-9]+)$", re.IGNORECASE)


class Player(Model):
    name: Text
    letter: Text  # used in the grid and the moves
    colour: Literal["yellow", "green", "red", "violet"] | None = None
    start: str  # start square, e.g. "A1"
    start_chip: int | None = None  # game records: visible pips of the chip set on the start square

    @model_validator(mode="after")
    def _check(self):
        if not self.name.strip():
            raise FieldError("name", msg("error.glux.no_name"))
        if not LETTER.match(self.letter):
            raise FieldError("letter", msg("error.glux.letter", got=repr(self.letter)))
        if parse_square(self.start) is None:
            raise FieldError("start", msg("error.glux.square", got=repr(self.start)))
        if self.start_chip is not None and not 1 <= self.start_chip <= 6:
            raise FieldError("start_chip", msg("error.glux.pips", got=self.start_chip))
        return self

    @property
    def start_square(self) -> Square:
        return parse_square(self.start)


def _players_check(players: list[Player]) -> None:
    check_players("Glüx", players, "players", ("name", lambda p: p.name), ("letter", lambda p: p.letter),
                  ("start", lambda p: p.start_square))  # "a1" is the square A1


class _Record(Model):
    """What both kinds of Glüx record give."""

    game: Literal["glux"]
    board: str  # the board side: a layout id or path
    players: list[Player]
    qr: str | None = None  # the QR text of the score pad sheet the game was counted on

    def setups(self) -> list[PlayerSetup]:
        return [PlayerSetup(p.name, p.letter, p.start_square, p.start_chip) for p in self.players]


class BoardRecord(_Record):
    kind: Literal["board"]
    grid: str

    @model_validator(mode="after")
    def _check(self):
        _players_check(self.players)
        letters = {p.letter for p in self.players}
        rows = self.rows
        if not rows:
            raise FieldError("grid", msg("error.glux.empty_grid"))
        for r, row in enumerate(rows, 1):
            for tok in row:
                if tok == ".":
                    continue
                m = CHIP.match(tok)
                if not m:
                    raise FieldError("grid", msg("error.glux.grid_token", row=r, token=repr(tok)))
                for letter in (m.group(1), m.group(4)):
                    if letter is not None and letter.upper() not in letters:
                        raise FieldError("grid", msg("error.glux.grid_letter", row=r, token=repr(tok), letter=letter.upper()))
        return self

    @cached_property
    def rows(self) -> list[list[str]]:
        return text_rows(self.grid)

    def chips(self) -> dict[Square, tuple[Chip, ...]]:
        """Square -> its stack, bottom first; a chip below that is not noted is UNKNOWN."""
        names = {p.letter: p.name for p in self.players}
        out = {}
        for r, row in enumerate(self.rows):
            for c, tok in enumerate(row):
                m = CHIP.match(tok)
                if m:
                    top = Chip(names[m.group(1).upper()], int(m.group(2)))
                    if m.group(3):
                        out[(c, r)] = (UNKNOWN, top)
                    elif m.group(4):
                        out[(c, r)] = (Chip(names[m.group(4).upper()], int(m.group(5))), top)
                    else:
                        out[(c, r)] = (top,)
        return out


class GameRecord(_Record):
    kind: Literal["game"]
    moves: str
    in_progress: bool = False  # still being played: no end-of-game findings (G10)

    @model_validator(mode="after")
    def _check(self):
        _players_check(self.players)
        for i, p in enumerate(self.players):
            if p.start_chip is None:
                raise FieldError(f"players[{i}].start_chip", msg("error.glux.no_start_chip"))
        # G1: every chip placed is one of the players' 24 (a player's chips past that are a
        # finding, G1, so one over-count each still reaches the check); a longer record is
        # no game of Glüx, and refused before its lines are even read.
        n = sum(1 for raw in self.moves.splitlines() if raw.split("#", 1)[0].strip())
        most = CHIPS * len(self.players)
        if n > most:
            raise FieldError("moves", msg("error.glux.too_many_placements", chips=CHIPS, most=most,
                                          players=len(self.players), n=n))
        self.placements  # parse now, so a malformed line is reported while loading
        return self

    @cached_property
    def placements(self) -> list[Placement]:
        names = tuple((p.letter, p.name) for p in self.players)
        out: list[Placement] = []
        for n, raw in enumerate(self.moves.splitlines(), 1):
            placement = _placement(raw, n, names)
            if placement is not None:
                out.append(placement)
        return out


@functools.lru_cache(maxsize=1 << 13)
def _placement(raw: str, n: int, names: tuple) -> Placement | None:
    """Line n of the moves: its Placement, None for a line of nothing or a comment alone.
    Kept: the page reads a play's whole record at every move, every line but the last as
    it was the move before."""
    names = dict(names)
    line = raw.split("#", 1)[0].strip()
    if not line:
        return None
    m = MOVE.match(line)
    s = START.match(line)
    short = SHORT.match(line)
    if short:
        letter, b, face = short.groups()
        letter = letter.upper()
        origin, dest = None, parse_square(b)
        if dest is None:
            raise FieldError("moves", msg("error.glux.move_square", n=n, line=repr(line), square=b))
    elif m:
        letter, a, b, face = m.groups()
        letter = letter.upper()
        origin, dest = parse_square(a), parse_square(b)
        for text, place in ((a, origin), (b, dest)):
            if place is None:
                raise FieldError("moves", msg("error.glux.move_square", n=n, line=repr(line), square=text))
    elif s:
        letter, face = s.groups()
        letter = letter.upper()
        origin = dest = None
    else:
        raise FieldError("moves", msg("error.glux.move_form", n=n, line=repr(line)))
    if letter not in names:
        raise FieldError("moves", msg("error.glux.move_letter", n=n, line=repr(line), letter=letter))
    if not 1 <= int(face) <= 6:
        raise FieldError("moves", msg("error.glux.move_face", n=n, line=repr(line), got=face))
    return Placement(names[letter], int(face), origin, dest, n)


MOST_ROOMS = 11  # the 3-4 player side's rooms, the middle room included (G2)


class Room(Model):
    name: Text
    pips: dict[str, int] = {}  # player -> the visible pips of their top chips in the room (G11)

    @model_validator(mode="after")
    def _check(self):
        if not self.name.strip():
            raise FieldError("name", msg("error.glux.room_name"))
        for who, n in self.pips.items():
            if n < 0:
                raise FieldError(f"pips.{who}", msg("error.zero_or_more", got=n))
        return self


class RoomsRecord(Model):
    """The rooms' pips counted at the end of a game: what the score pad holds."""

    game: Literal["glux"]
    kind: Literal["rooms"]
    players: list[Text]  # the names, in seat order
    room: list[Room]
    middle: Text | None = None  # the middle room's name (G13's tiebreak)
    qr: str | None = None  # the QR text of the score pad sheet the game was counted on

    @model_validator(mode="after")
    def _check(self):
        check_players("Glüx", self.players, "players", ("", lambda p: " ".join(p.split()).casefold()))
        if not self.room:
            raise FieldError("room", msg("error.glux.no_rooms"))
        if len(self.room) > 2 * MOST_ROOMS:  # no board side, nor a miscount of one
            raise FieldError("room", msg("error.glux.too_many_rooms", n=len(self.room), most=MOST_ROOMS))
        seen = set()
        names = {" ".join(p.split()).casefold() for p in self.players}
        for i, r in enumerate(self.room):
            key = r.name.strip().casefold()
            if key in seen:
                raise FieldError(f"room[{i}].name", msg("error.glux.room_twice_named", room=r.name))
            seen.add(key)
            here = set()
            for who in r.pips:
                who_key = " ".join(who.split()).casefold()
                if who_key not in names:
                    raise FieldError(f"room[{i}].pips.{who}", msg("error.glux.room_player", name=who,
                                                                   players=", ".join(self.players)))
                if who_key in here:
                    raise FieldError(f"room[{i}].pips.{who}", msg("error.glux.room_player_twice", name=who))
                here.add(who_key)
        if self.middle is not None and self.middle.strip().casefold() not in seen:
            raise FieldError("middle", msg("error.glux.no_middle_room", room=self.middle,
                                           rooms=", ".join(r.name for r in self.room)))
        return self

    def middle_index(self) -> int | None:
        """The middle room's place in `room`: the one `middle` names, else one named "middle"."""
        want = (self.middle or "middle").strip().casefold()
        return next((i for i, r in enumerate(self.room) if r.name.strip().casefold() == want), None)

    def rooms(self) -> list[tuple[str, dict[str, int]]]:
        """(room, pips per player) with each name spelt as in `players`."""
        spelt = {" ".join(p.split()).casefold(): p for p in self.players}
        return [(r.name, {spelt[" ".join(k.split()).casefold()]: v for k, v in r.pips.items()}) for r in self.room]


RECORD_KINDS = {"board": BoardRecord, "game": GameRecord, "rooms": RoomsRecord}


@dataclass(frozen=True)
class GluxRecord:
    kind: str
    spec: BoardRecord | GameRecord | RoomsRecord
    layout_id: str | None  # None for the rooms' pips, which name no board
    board: GluxBoard | None

    @property
    def qr(self) -> str | None:
        return self.spec.qr

    sheet = None  # copied from the score pad, named by the game (PAD)


def load_board_layout(ref: str, source: str, field: str = "board") -> tuple[str, GluxBoard]:
    from sheetkit import layouts

    layout = layouts.load_for(ref, source, field, "glux", ("board",))
    return layout.id, layout.spec


def read_record(data: dict[str, Any], source: str) -> GluxRecord:
    kind = data.get("kind")
    if kind not in RECORD_KINDS:
        raise UserError(msg("error.expected_one_of", kinds=", ".join(RECORD_KINDS), got=repr(kind)), source=source, field="kind")
    if kind == "board" and "in_progress" in data:
        raise UserError(msg("error.glux.board_in_progress"), source=source, field="in_progress")
    spec = validate(RECORD_KINDS[kind], data, source)
    if kind == "rooms":
        return GluxRecord(kind, spec, None, None)
    layout_id, board = load_board_layout(spec.board, source)
    g = board
    for i, p in enumerate(spec.players):
        if not g.on_board(p.start_square):
            raise UserError(msg("error.glux.off_board", square=p.start, w=g.width, h=g.height),
                            source=source, field=f"players[{i}].start")
    if kind == "board":
        rows = spec.rows
        if len(rows) != g.height:
            raise UserError(msg("error.glux.rows", n=len(rows), board=layout_id, want=g.height), source=source, field="grid")
        for r, row in enumerate(rows, 1):
            if len(row) != g.width:
                raise UserError(msg("error.glux.row_squares", row=r, n=len(row), board=layout_id, want=g.width),
                                source=source, field="grid")
    return GluxRecord(kind, spec, layout_id, board)
