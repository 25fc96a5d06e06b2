"""Helpers for the history tests: the command line run in-process as `sheetkit` runs it
(conftest.sheetkit: click's CliRunner streams, sheetkit.cli.run's error handling), and verdicts worked out by
hand in the shape `Verdict.to_json()` has."""

from __future__ import annotations

from pathlib import Path

from sheetkit.history import NewPlay, Sheet

from conftest import ROOT, sheetkit

EXAMPLES = ROOT / "examples"


def run(*args, input: str | None = None, env: dict | None = None):
    """A command line in this process (conftest.sheetkit), from the project folder."""
    return sheetkit(*args, cwd=Path.cwd(), input=input, env=env)


def one_line_error(r, *words: str, code: int = 2) -> None:
    assert r.code == code, (r.code, r.out, r.err)
    lines = r.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in r.err, r.err
    for w in words:
        assert w in r.err, (w, r.err)


def verdict(game: str, scores: dict[str, int | None], winners=(), *, legal: bool = True, in_progress: bool = False,
            qr: str | None = None, rank: str | None = None, solo: bool = False, eliminated: bool = False,
            layout: str | None = None) -> dict:
    info: dict = {}
    if layout:
        info["layout"] = layout
    if solo:
        info["solo"] = True
    if rank:
        info["rank"] = {"en": rank, "es": rank}
    if qr:
        info["qr"] = qr
        info["serial"] = int(qr.rsplit(":", 1)[1])
    d = {"game": game, "source": "hand", "legal": legal, "winners": list(winners), "info": info,
         "findings": [] if legal else [{"rule": "G4", "where": "turn 1", "message": "bad", "severity": "error",
                                        "at": {}}],
         "scores": [{"player": p, "parts": {}, "total": t, "notes": [], "eliminated": eliminated}
                    for p, t in scores.items()]}
    if in_progress:
        d["in_progress"] = True
        d["to_move"] = None
    return d


_n = [0]


def play(game: str, scores: dict[str, int | None], winners=(), when: str = "2026-11-01 20:00:00", **kw) -> NewPlay:
    """A play of one record that names its players (unnamed: a Yuncos sheet, see sheet())."""
    _n[0] += 1
    illegal_ok = not kw.get("legal", True)
    return NewPlay(game, (Sheet(f"# hand-made record {_n[0]}\n", f"hand-{_n[0]}.toml", verdict(game, scores, winners, **kw)),),
                   when, illegal_ok=illegal_ok)


def sheet(player: str, total: int | None, **kw) -> Sheet:
    _n[0] += 1
    return Sheet(f"# a Yuncos sheet {_n[0]}\n", f"sheet-{_n[0]}.toml", verdict("yuncos", {"": total}, **kw), player)
