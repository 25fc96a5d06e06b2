"""Findings and scores: what `check` and `score` say about a record.

An illegal sheet is a value, not an exception: checking always returns a Verdict. A Verdict
is immutable once built; what is particular to a game (its players' holdings, majorities,
the solo rank, ...) is that game's own typed `Details`, and JSON is drawn from the types.
"""

from __future__ import annotations

import dataclasses
from dataclasses import asdict, dataclass, field, fields
from typing import Any, ClassVar

from sheetkit.messages import Msg, text

ERROR = "error"
WARNING = "warning"


def say(words: "str | Msg", lang: str) -> str:
    """Words in `lang`: a message rendered, a plain string (a name, notation) as it is."""
    return words if isinstance(words, str) else words(lang)


def part_label(label: str, lang: str) -> str:
    """A score part's label in `lang`: the catalogue's `part.<label>`, else the label itself
    (a room's name, Level X's `10x2`: names and notation, the same in every language)."""
    from sheetkit.messages import has

    return text(f"part.{label}", lang) if has(f"part.{label}", lang) else label


@dataclass(slots=True)
class Finding:
    """One thing wrong with a record. `where` and `message` may be given as messages (Msg):
    they are kept in `place` and `text` to be said in any language, and `where`/`message`
    hold their English, as JSON and the history have always had them."""

    rule: str  # id from RULES.md, e.g. "Y10"
    where: str  # human words: "turn 7, step 3", "room C", "player Ana"
    message: str  # one sentence
    severity: str = ERROR
    # Machine-readable place, for JSON and for drawing the finding on the sheet:
    # e.g. {"turn": 7, "step": 3, "vertex": [4, 5]} or {"square": [2, 3]}.
    at: dict[str, Any] = field(default_factory=dict)
    place: Msg | None = field(default=None, compare=False, repr=False)
    text: Msg | None = field(default=None, compare=False, repr=False)

    def __post_init__(self):
        if isinstance(self.where, Msg):
            self.place, self.where = self.where, self.where("en")
        if isinstance(self.message, Msg):
            self.text, self.message = self.message, self.message("en")

    def where_in(self, lang: str) -> str:
        return self.place(lang) if self.place is not None else self.where

    def message_in(self, lang: str) -> str:
        return self.text(lang) if self.text is not None else self.message

    def line(self, lang: str = "en") -> str:
        tag = text("status.warning", lang) + " " if self.severity == WARNING else ""
        return f"{tag}{self.rule} {self.where_in(lang)}: {self.message_in(lang)}"

    def to_json(self, lang: str | None = None) -> dict[str, Any]:
        """The English keys and values as always; with `lang`, also `where_text` and `text`:
        the where and the sentence in that language."""
        d = {"rule": self.rule, "where": self.where, "message": self.message, "severity": self.severity,
             "at": plain(self.at)}
        if lang is not None:
            d["where_text"] = self.where_in(lang)
            d["text"] = self.message_in(lang)
        return d


@dataclass(slots=True)
class Score:
    """One player's score: ordered (label, points) parts and their total. A note may be a
    message (the solo rank), said in the output's language."""

    player: str
    parts: list[tuple[str, int]]
    total: int
    notes: list["str | Msg"] = field(default_factory=list)  # e.g. the solo rank, "(1)" in Level X
    eliminated: bool = False

    def notes_in(self, lang: str) -> list[str]:
        return [say(n, lang) for n in self.notes]

    def to_json(self, lang: str | None = None) -> dict[str, Any]:
        d = {"player": self.player, "parts": {label: pts for label, pts in self.parts}, "total": self.total,
             "notes": self.notes_in("en"), "eliminated": self.eliminated}
        if lang is not None:
            d["text"] = {"parts": {label: part_label(label, lang) for label, _ in self.parts},
                         "notes": self.notes_in(lang)}
        return d


def plain(value: Any) -> Any:
    """JSON-ready: dataclasses as dicts, tuples as lists, keys as text."""
    if isinstance(value, Msg):
        return value("en")
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return value.to_json() if hasattr(value, "to_json") else plain(asdict(value))
    if isinstance(value, dict):
        return {str(k) if not isinstance(k, str) else k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class Details:
    """The base of every game's typed verdict details: its fields, in order, are the
    `info` of the JSON verdict (those in OMIT_IF_NONE only when set)."""

    OMIT_IF_NONE: ClassVar[tuple[str, ...]] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if value is None and f.name in self.OMIT_IF_NONE:
                continue
            out[f.name] = plain(value)
        return out


@dataclass(frozen=True, slots=True)
class Sheet:
    """What the record's QR text says of the printed sheet it was copied from."""

    qr: str
    serial: int
    layout: str
    version: str
    current: bool  # that very layout version is the one the record is checked against


@dataclass(frozen=True, slots=True)
class Verdict:
    game: str
    source: str  # the record's file name, or "command line"
    findings: tuple[Finding, ...] = ()
    scores: tuple[Score, ...] = ()
    winners: tuple[str, ...] = ()
    details: Details | None = None  # the game's own, typed
    tiebreak: "str | Msg | None" = None  # why, when points alone did not decide the winner
    sheet: Sheet | None = None
    # A game still being played: the standings so far, no end-of-game findings, and whose
    # turn it is where the rules know it.
    in_progress: bool = False
    to_move: str | None = None
    # while the game goes on, who leads so far; `winners` is only ever said of a game over
    leading: tuple[str, ...] = ()

    def __post_init__(self):  # lists are welcome in, tuples are kept
        for name in ("findings", "scores", "winners", "leading"):
            object.__setattr__(self, name, tuple(getattr(self, name)))
        if self.in_progress and self.winners:  # the games name their leaders as winners: moved
            object.__setattr__(self, "leading", self.leading or self.winners)
            object.__setattr__(self, "winners", ())

    @property
    def legal(self) -> bool:
        return not any(f.severity == ERROR for f in self.findings)

    @property
    def errors(self) -> int:
        return sum(1 for f in self.findings if f.severity == ERROR)

    @property
    def exit_code(self) -> int:
        return 0 if self.legal else 1

    def status(self, lang: str = "en") -> str:
        """"legal" or "ILLEGAL: n findings": the one wording every output uses; a game in
        progress says so."""
        status = text("status.legal", lang) if self.legal else text("status.illegal", lang, n=self.errors)
        if self.in_progress:
            if self.to_move:
                return text("status.so_far_to_move", lang, status=status, player=self.to_move)
            return text("status.so_far", lang, status=status)
        return status

    def result_label(self, lang: str = "en") -> str:
        """"leading", "winner" or "shared win": what `ahead` lists."""
        key = "leading" if self.in_progress else "winner" if len(self.winners) == 1 else "shared_win"
        return text(f"status.{key}", lang)

    @property
    def ahead(self) -> tuple[str, ...]:
        """The winners of a game over, the leaders of one going on."""
        return self.leading if self.in_progress else self.winners

    @property
    def info(self) -> dict[str, Any]:
        """The JSON view of what the verdict says beyond scores and findings."""
        out = self.details.to_json() if self.details is not None else {}
        if self.tiebreak:
            out["tiebreak"] = say(self.tiebreak, "en")
        if self.sheet is not None:
            out.setdefault("qr", self.sheet.qr)
            out["serial"] = self.sheet.serial
            out["printed"] = {"layout": self.sheet.layout, "version": self.sheet.version,
                              "current": self.sheet.current}
        return out

    def to_json(self, lang: str | None = None) -> dict[str, Any]:
        """Keys and values in English, as the history stores them; with `lang`, also the
        words in that language: `lang`, `status`, each finding's `where_text` and `text`, each
        score's `text` (part labels, notes) and, with a tiebreak, `tiebreak_text`."""
        d = {"game": self.game, "source": self.source, "findings": [f.to_json(lang) for f in self.findings],
             "scores": [s.to_json(lang) for s in self.scores], "winners": list(self.winners), "info": self.info,
             "legal": self.legal}
        if self.in_progress:  # only then, so that finished games read as they always have
            d["in_progress"] = True
            d["to_move"] = self.to_move
            d["leading"] = list(self.leading)
        if lang is not None:
            d["lang"] = lang
            d["status"] = self.status(lang)
            if self.tiebreak:
                d["tiebreak_text"] = say(self.tiebreak, lang)
        return d

    def head(self, lang: str = "en") -> str:
        """"game.toml: yuncos, layout yuncos-easy, serial 42"."""
        head = f"{self.source}: {self.game}"
        layout = getattr(self.details, "layout", None)
        if layout is not None:
            head = text("status.head_layout", lang, head=head, layout=layout)
        if self.sheet is not None:
            head = text("status.head_serial", lang, head=head, serial=self.sheet.serial)
        return head

    def to_text(self, lang: str = "en") -> str:
        out: list[str] = [self.head(lang), f"  {self.status(lang)}"]
        for f in self.findings:
            out.append("  " + f.line(lang))
        for s in self.scores:
            parts = "  ".join(f"{part_label(label, lang)} {pts}" for label, pts in s.parts)
            name = f"{s.player}: " if len(self.scores) > 1 or s.player else ""
            out.append(f"  {name}{parts}  = {s.total}" + (f"  {text('status.eliminated', lang)}" if s.eliminated else ""))
            for n in s.notes_in(lang):
                out.append(f"    {n}")
        if self.ahead and len(self.scores) > 1:
            out.append(f"  {self.result_label(lang)}: {', '.join(self.ahead)}")
            if self.tiebreak:
                out.append(f"  {say(self.tiebreak, lang)}")
        return "\n".join(out)
