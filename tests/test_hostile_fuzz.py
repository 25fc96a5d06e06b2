"""Fuzz: seeded mutations of every example record and shipped layout, run through the
commands in this process. A case fails on a traceback, an internal error (exit 3: a
fault, not bad input), an exit status outside 0-2, a message of more than one line for
bad input, a run longer than the time limit, or a PDF written with exit 0 that qpdf
rejects.

A few hundred cases by default; more with `--fuzz-cases N` (or SHEETKIT_FUZZ_CASES=N),
another seed with `--fuzz-seed S`. A failing case is saved under the test's tmp folder
and named in the failure with its seed and mutations, to reproduce it with
`sheetkit ARGS`.
"""

from __future__ import annotations

import json
import math
import random
import shutil
import signal
import subprocess
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from click.testing import CliRunner

from conftest import ROOT

EXAMPLES = sorted((ROOT / "examples").glob("*.toml"))
LAYOUTS = sorted((ROOT / "layouts").glob("*.toml"))
TIME_LIMIT = 10  # seconds for one command; the slowest good one takes about 1 s here


class Hang(BaseException):
    """The time limit passed (a BaseException, so sheetkit's top level does not take it
    for an ordinary fault)."""


# --- writing TOML back: everything inline, every string escaped --------------------------

def _value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)  # \uXXXX escapes are TOML escapes too
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{json.dumps(str(k))} = {_value(x)}" for k, x in v.items()) + "}"
    raise TypeError(type(v))


def dumps(data: dict) -> str:
    return "".join(f"{json.dumps(str(k))} = {_value(v)}\n" for k, v in data.items())


# --- mutations ----------------------------------------------------------------------------

HUGE = [1e308, -1e308, 1e30, 1e20, -1e20, 1e-300, 0.0, -0.0, float("nan"), float("inf"), float("-inf"),
        2**63 - 1, -(2**63), 2**31, 10**15, 0, -1, 1000000, 99999]
WEIRD_TEXT = ["", " ", "\n", "a\nb", "tab\there", "\x00", "\x07bell", "\x1b[31mred", "\u202eright-to-left",
              "x" * 10000, "ü" * 300, "\ud7ff", "🂡", "\r\n", "..", "/dev/zero", "~nosuchuser/x.toml",
              "x" * 300 + ".toml", "$HOME", "%s%n"]


def _paths(data, prefix=()):
    """Every place in the data: (container, key) pairs, depth first."""
    out = []
    items = data.items() if isinstance(data, dict) else enumerate(data)
    for k, v in items:
        out.append((data, k))
        if isinstance(v, (dict, list)):
            out += _paths(v, prefix + (k,))
    return out


def _other_type(rng: random.Random, v):
    choices = [lambda: rng.choice(HUGE), lambda: rng.choice(WEIRD_TEXT), lambda: rng.random() < 0.5,
               lambda: [], lambda: {}, lambda: [v, v], lambda: {"x": v}, lambda: str(v)[:50]]
    return rng.choice(choices)()


def _near(rng: random.Random, v):
    """A plausible wrong value of the same type."""
    if isinstance(v, bool):
        return not v
    if isinstance(v, int):
        return rng.choice([v + 1, v - 1, -v, v * 1000, 0, rng.choice(HUGE)])
    if isinstance(v, float):
        return rng.choice([v * 1e6, -v, 0.0, v + 0.5, rng.choice(HUGE)])
    if isinstance(v, str):
        if v and rng.random() < 0.6:
            i = rng.randrange(len(v))
            return v[:i] + rng.choice(["\n", "\x01", "\t", "\x7f", "\u2028", " ", v[i] * 3, ""]) + v[i + 1:]
        return rng.choice(WEIRD_TEXT + [v * 50, v.upper(), v[::-1]])
    if isinstance(v, list):
        if v and rng.random() < 0.5:
            return v * rng.choice([2, 50, 1000])
        return rng.choice([[], v[: max(0, len(v) - 1)], v + v[:1]])
    if isinstance(v, dict):
        if v and rng.random() < 0.5:
            k = rng.choice(list(v))
            return {**v, f"{k}_copy": v[k]}
        return {}
    return v


def mutate_data(rng: random.Random, data: dict) -> str:
    """One change to the parsed data, described in a few words."""
    places = _paths(data)
    leaves = [(c, k) for c, k in places if not isinstance(c[k], (dict, list))]
    if leaves and rng.random() < 0.6:  # most cases: one value wrong, the file otherwise good
        container, key = rng.choice(leaves)
        old = container[key]
        if isinstance(old, (int, float)) and not isinstance(old, bool):
            op = rng.choice(["huge", "near"])
        else:
            op = rng.choice(["near", "near", "text"])
    else:
        container, key = rng.choice(places)
        old = container[key]
        op = rng.choice(["delete", "type", "near", "huge", "text", "deep", "dup"])
    if op == "delete" and isinstance(container, dict):
        del container[key]
    elif op == "delete":
        container.pop(key)
    elif op == "type":
        container[key] = _other_type(rng, old)
    elif op == "huge":
        container[key] = rng.choice(HUGE)
    elif op == "text":
        container[key] = rng.choice(WEIRD_TEXT)
    elif op == "deep":
        v = old
        for _ in range(rng.choice([5, 18, 30])):
            v = [v]
        container[key] = v
    elif op == "dup" and isinstance(container, dict):
        container[f"{key}"] = old
        container[f"{key} "] = old  # a near-duplicate key
    else:
        container[key] = _near(rng, old)
    return f"{op} {key!r}"


def mutate_text(rng: random.Random, raw: bytes) -> tuple[bytes, str]:
    op = rng.choice(["truncate", "bad-utf8", "control", "dup-line", "del-line", "nest"])
    lines = raw.split(b"\n")
    if op == "truncate":
        return raw[: rng.randrange(len(raw) + 1)], op
    if op == "bad-utf8":
        i = rng.randrange(len(raw) + 1)
        return raw[:i] + rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xe2\x82"]) + raw[i:], op
    if op == "control":
        i = rng.randrange(len(raw) + 1)
        return raw[:i] + rng.choice([b"\x00", b"\x01", b"\x1b", b"\x7f", b"\r", b"\x0c"]) + raw[i:], op
    if op == "dup-line":
        i = rng.randrange(len(lines))
        return b"\n".join(lines[: i + 1] + lines[i:]), op
    if op == "del-line":
        i = rng.randrange(len(lines))
        return b"\n".join(lines[:i] + lines[i + 1:]), op
    depth = rng.choice([19, 25, 1000])
    return raw + b"\nnested_x = " + b"[" * depth + b"1" + b"]" * depth + b"\n", f"nest {depth}"


# --- running ---------------------------------------------------------------------------

@dataclass
class Case:
    number: int
    base: Path
    is_layout: bool
    raw: bytes = b""
    mutations: list[str] = field(default_factory=list)
    args: list[str] = field(default_factory=list)


def make_case(seed: int, number: int, folder: Path) -> Case:
    rng = random.Random(f"{seed}:{number}")
    base = rng.choice(EXAMPLES + LAYOUTS)
    case = Case(number, base, base in LAYOUTS)
    raw = base.read_bytes()
    if rng.random() < 0.75:
        data = tomllib.loads(raw.decode())
        for _ in range(rng.choice([1, 1, 1, 2, 3])):
            if not data:
                break
            case.mutations.append(mutate_data(rng, data))
        raw = dumps(data).encode()
    if rng.random() < 0.15 or not case.mutations:
        raw, what = mutate_text(rng, raw)
        case.mutations.append(what)
    case.raw = raw
    target = folder / base.name  # beside the unchanged examples, so relative references resolve
    target.write_bytes(raw)
    out = folder / "out"
    if case.is_layout:
        command = rng.choice(["lint", "lint", "render", "render", "preview"])
        case.args = {"lint": ["lint", str(target)],
                     "render": ["render", str(target), "-o", str(out / "x.pdf")],
                     "preview": ["preview", str(target), "-o", str(out / "x.png"), "--dpi", "30"]}[command]
        if command != "lint" and rng.random() < 0.5:
            case.args += rng.choice([["--paper", "letter"], ["--lang", "es"], ["--scale", "fit"]])
    else:
        case.args = ["check", str(target)]
        if rng.random() < 0.4:
            case.args += ["--render", str(out / "x.pdf")]
        elif rng.random() < 0.3:
            case.args.append("--json")
    return case


def _alarm(signum, frame):
    raise Hang()


def run_case(case: Case) -> tuple[int | str, str, float]:
    from sheetkit.cli import run

    start = time.monotonic()
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, TIME_LIMIT)
    try:
        with CliRunner().isolation() as (out, err, *_):
            try:
                code: int | str = run(case.args)
            except Hang:
                code = "hang"
            except BaseException as e:  # anything escaping the top level is a failure too
                import traceback

                code = f"escaped {type(e).__name__}"
                err.write(traceback.format_exc().encode())
        errors = err.getvalue().decode("utf-8", "replace")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    return code, errors, time.monotonic() - start


def qpdf_problem(pdf: Path) -> str | None:
    """qpdf's complaint about a PDF, or None if it passes (warnings are complaints too)."""
    qpdf = shutil.which("qpdf")
    if qpdf:
        r = subprocess.run([qpdf, "--check", str(pdf)], capture_output=True, text=True, timeout=60)
        return None if r.returncode == 0 else (r.stdout + r.stderr).strip()[-500:]
    import pypdfium2  # no qpdf: at least a real PDF reader must open it

    try:
        doc = pypdfium2.PdfDocument(str(pdf))
        for i in range(len(doc)):
            doc[i].render(scale=0.1)
    except Exception as e:
        return f"pdfium: {e}"
    return None


def judge(case: Case, code, errors: str, folder: Path) -> str | None:
    if not isinstance(code, int):
        return str(code)
    if "Traceback" in errors:
        return f"traceback (exit {code})"
    if code == 3:
        return "internal error: " + errors.strip()[-300:]
    if code not in (0, 1, 2):
        return f"exit {code}"
    if code == 2 and len(errors.strip().splitlines()) != 1:
        return f"bad input told in {len(errors.strip().splitlines())} lines: {errors[:300]!r}"
    pdf = folder / "out" / "x.pdf"
    if code in (0, 1) and pdf.exists():
        problem = qpdf_problem(pdf)
        if problem:
            return f"qpdf rejects the PDF written with exit {code}: {problem}"
    return None


def _setup(folder: Path) -> None:
    for p in EXAMPLES + LAYOUTS:
        shutil.copy(p, folder / p.name)
    (folder / "out").mkdir(exist_ok=True)


def test_fuzz(tmp_path, fuzz_cases, fuzz_seed):
    work = tmp_path / "work"
    work.mkdir()
    _setup(work)
    failures, codes, slowest = [], {}, (0.0, None)
    started = time.monotonic()
    for n in range(fuzz_cases):
        for p in (work / "out").iterdir():
            p.unlink() if p.is_file() else shutil.rmtree(p)
        case = make_case(fuzz_seed, n, work)
        code, errors, took = run_case(case)
        if took > slowest[0]:
            slowest = (took, case)
        codes[code] = codes.get(code, 0) + 1
        bad = judge(case, code, errors, work)
        if bad:
            keep = tmp_path / f"failed-{n}-{case.base.name}"
            keep.write_bytes(case.raw)
            failures.append(f"case {n} (seed {fuzz_seed}) {case.base.name} {case.mutations} "
                            f"`sheetkit {' '.join(case.args)}` (input kept as {keep}): {bad}")
        shutil.copy(case.base, work / case.base.name)  # the unchanged file back, for references
    total = time.monotonic() - started
    slow_case = slowest[1]
    print(f"\nfuzz: {fuzz_cases} cases, seed {fuzz_seed}, {total:.1f} s, exit codes {codes}, "
          f"{len(failures)} failure(s); slowest {slowest[0]:.2f} s "
          f"({slow_case.base.name if slow_case else '-'} {slow_case.mutations if slow_case else ''})")
    assert not failures, f"{len(failures)} of {fuzz_cases} cases failed:\n" + "\n".join(failures[:40])
