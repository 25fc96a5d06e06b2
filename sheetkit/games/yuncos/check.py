"""Checking a Yuncos record: the sheet replayed turn by turn (rules.py, through the shared
replay of checking/replay.py), then what is marked on the paper held against the replay,
and the verdict with the score of what the sheet shows."""

from __future__ import annotations

from dataclasses import replace

from sheetkit.messages import msg
from sheetkit.checking.replay import replay
from sheetkit.checking.verdict import WARNING, Finding, Verdict
from sheetkit.games.interface import Checked
from sheetkit.games.yuncos.notation import Record, vertex_name
from sheetkit.games.yuncos.rules import Rules, Sheet, ability, box_words
from sheetkit.games.yuncos.scoring import CRASH_TRACK, SheetDetails, rank, tally


def check(record: Record, source: str, prior: Checked | None = None) -> Checked:
    """Replay a transcribed sheet: the replayed sheet, and every finding with its rule id and
    the score. A record marked `in_progress` gets the standings so far, without the
    end-of-game findings. `prior`: the check of this sheet some turns earlier, gone on from
    when its turns begin these."""
    rules = Rules(record)
    in_progress = record.in_progress
    before = rules.prior(prior.replayed if prior is not None else None)
    replayed = replay(rules, record.turns, finished=not in_progress, prior=before, setup=rules.setup)
    return Checked(replayed.state, verdict(rules, replayed.state, replayed.findings, source, in_progress), replayed)


def verdict(rules: Rules, s: Sheet, findings: list[Finding], source: str, in_progress: bool = False) -> Verdict:
    """The verdict of a replayed sheet: the replay's findings, then the paper against the replay."""
    rec, spec, model = rules.rec, rules.spec, rules.rec.model
    findings = list(findings)

    def add(rule, where, message, severity="error", **at):
        findings.append(Finding(rule, where, message, severity, at))

    crashes = list(s.crashes)
    eaten = len(s.fish)
    due = min(eaten, len(spec.fish.values))
    if model.fish_marked != due:
        said = (msg("finding.yuncos.Y7_fish_beyond", eaten=eaten, holds=len(spec.fish.values), marked=model.fish_marked)
                if eaten > due else msg("finding.yuncos.Y7_fish", eaten=eaten, marked=model.fish_marked))
        add("Y7", msg("where.yuncos.fish_counter"), said, counter="fish", box=max(model.fish_marked, due))
    marks_due = min(s.marks, len(CRASH_TRACK))
    if model.crashes_marked != marks_due:
        kinds: dict[str, int] = {}
        for c in crashes:
            if not c.get("skipped"):
                kinds[c["kind"]] = kinds.get(c["kind"], 0) + 1
        detail = [msg("yuncos.crash.tally", n=n, kind=msg(f"yuncos.crash.{k}")) for k, n in kinds.items()] \
            or msg("yuncos.crash.none")
        yunco = sum(1 for c in crashes if c.get("skipped"))
        if yunco:
            detail = msg("yuncos.crash.skipped", detail=detail, n=yunco)
        if s.marks > len(CRASH_TRACK):
            detail = msg("yuncos.crash.track_full", detail=detail, holds=len(CRASH_TRACK))
        add("Y20", msg("where.yuncos.crash_track"), msg("finding.yuncos.Y20_track", marks=s.marks, detail=detail,
                                                         due=marks_due, marked=model.crashes_marked),
            counter="crashes", box=max(model.crashes_marked, marks_due))
    if model.used is not None:
        used = {b.id: b for b in s.boxes if b.used is not None}
        for bid, b in used.items():
            if bid not in rules.paper_used:
                add("Y15", msg("where.yuncos.ability_box", box=box_words(bid)),
                    msg("finding.yuncos.Y15_not_crossed", kind=ability(b.kind), turn=b.used, box=bid, named=box_words(bid)), box=bid, turn=b.used)
        for bid in sorted(rules.paper_used - set(used)):
            add("Y15", msg("where.yuncos.ability_box", box=box_words(bid)), msg("finding.yuncos.Y15_crossed_unused", box=bid, named=box_words(bid)),
                WARNING, box=bid)

    # The score of what the sheet shows (Y22, Y23).
    score = standing(rules, s)
    if model.score is not None:
        parts = dict(score.parts)
        parts["crashes"] = -parts["crashes"]
        parts["total"] = score.total
        for name, want in parts.items():
            got = getattr(model.score, name)
            # the sheet prints a minus before the crashes box: copied with it, it is the same number
            same = got == want or (name == "crashes" and got == -want)
            if got is not None and not same:
                add("Y22", msg("where.yuncos.score_box", box=msg(f"part.{name}")),
                    msg("finding.yuncos.Y22_score", written=got, due=want), score=name)

    details = SheetDetails(
        layout=rec.layout.id,
        layout_version=rec.layout.version,
        level=spec.level,
        start=vertex_name(rec.start),
        turns=s.turns,
        solo=model.solo,
        end=None if s.end is None else {"turn": s.end[0], "reason": s.end[1]},
        eliminated=s.eliminated,
        fish=[{"turn": t, "vertex": vertex_name(v)} for t, v in s.fish],
        stars=[{"vertex": vertex_name(v), "colour": c} for v, c in s.stars],
        crashes=[{**c, "vertex": rules.name(tuple(c["vertex"]))} for c in crashes],
        abilities={b.id: {"kind": b.kind, "unlocked": b.unlocked, "used": b.used}
                   for b in s.boxes if b.unlocked is not None or b.used is not None},
        qr=model.qr,
        rank=rank(score.total) if model.solo else None,
    )
    if rec.short_names:
        findings = [_both_readings(f) if _names_short(f, rec.short_names) else f for f in findings]
    return Verdict(game="yuncos", source=source, findings=findings, scores=[score], details=details,
                   in_progress=in_progress)


def _names_short(f: Finding, short: frozenset[str]) -> bool:
    """A finding about a nest ability box the record itself names by its short name."""
    return f.rule in ("Y15", "Y16") and f.at.get("box") in short  # the ability findings name a box by its id


def _both_readings(f: Finding) -> Finding:
    """nest1.3 in `use` or `used` is row 1's 3rd ability box; in `puzzle` the 3rd number box."""
    box = f.at["box"]
    row, k = box[4:].split(".")
    return replace(f, message=msg("finding.yuncos.short_box_name", finding=f.text or f.message, box=box, k=int(k),
                                  row=int(row), long=box.replace(".", ".ability")))


def standing(rules: Rules, s: Sheet):
    """The Score of what the sheet shows after the turns replayed (Y22, Y23): the puzzles and
    stars as replayed, the fish and crash boxes as marked on the paper."""
    model, spec = rules.rec.model, rules.spec
    nests = sum(1 for line in s.nests for x in line if x is not None)
    columns = sum(1 for line in s.lums if all(x is not None for x in line))
    colours = len({c for _, c in s.stars})
    score = tally(spec.fish.values, nests=nests, columns=columns, fish=model.fish_marked, stars=len(s.stars),
                  colours=colours, crashes=model.crashes_marked, solo=model.solo, eliminated=s.eliminated is not None)
    if s.eliminated is not None:
        score.notes.append(msg("yuncos.cannot_win", turn=s.eliminated))
    return score
