import os
import sys
from pathlib import Path

import pytest
from hypothesis import settings

# CI runs the property tests on hypothesis's fixed sequence of examples, so that a run can
# be repeated exactly; a developer's run keeps exploring new ones.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

ROOT = Path(__file__).resolve().parent.parent


class Run:
    def __init__(self, code: int, out: str, err: str):
        self.code = code
        self.out = out
        self.err = err


def sheetkit(*args, cwd=None, input=None, env=None) -> Run:
    """Run the command line as a user would, through sheetkit.cli.run and its error
    handling, in this process (click's CliRunner isolation: its own standard streams, the
    given working folder). Tests that need a fresh interpreter run it with subprocess."""

    from click.testing import CliRunner

    from sheetkit.cli import run

    old = os.getcwd()
    with CliRunner().isolation(input=input, env=env) as (out, err, *_):
        os.chdir(cwd or ROOT)
        try:
            code = run([str(a) for a in args])
        finally:
            os.chdir(old)
        sys.stdout.flush()
        sys.stderr.flush()
        return Run(code, out.getvalue().decode(), err.getvalue().decode())


def assert_user_error(run: Run, *words: str) -> None:
    """Bad input: exit 2, one line on stderr, no traceback, naming what is wrong."""
    assert run.code == 2, (run.code, run.out, run.err)
    lines = run.err.strip().splitlines()
    assert len(lines) == 1, run.err
    assert "Traceback" not in run.err
    for w in words:
        assert w in lines[0], (w, lines[0])


@pytest.fixture
def cli():
    return sheetkit


def check_data(data: dict, source: str = "t.toml"):
    """The verdict on a record given as TOML data, checked as `sheetkit check` does."""
    from sheetkit.checking import records

    return records.check(records.parse(data, source)).verdict


def read_data(data: dict, source: str = "t.toml"):
    """The game's record object for TOML data (UserError if it is unusable)."""
    from sheetkit.checking import records

    return records.parse(data, source).record


def assert_unusable(data: dict, source: str, words) -> None:
    """Unusable record data: one UserError, one line starting with the file name, naming
    what is wrong."""
    from sheetkit.errors import UserError

    with pytest.raises(UserError) as e:
        read_data(data, source)
    msg = str(e.value)
    assert msg.startswith(f"{source}: ") and "\n" not in msg
    for w in words:
        assert w in msg, msg


def pytest_addoption(parser):
    parser.addoption("--fuzz-cases", type=int, default=None,
                     help="cases for tests/test_hostile_fuzz.py (default 300, or SHEETKIT_FUZZ_CASES)")
    parser.addoption("--fuzz-seed", type=int, default=None,
                     help="seed for tests/test_hostile_fuzz.py (default 1, or SHEETKIT_FUZZ_SEED)")


@pytest.fixture
def fuzz_cases(request) -> int:
    return request.config.getoption("--fuzz-cases") or int(os.environ.get("SHEETKIT_FUZZ_CASES", 300))


@pytest.fixture
def fuzz_seed(request) -> int:
    given = request.config.getoption("--fuzz-seed")
    return given if given is not None else int(os.environ.get("SHEETKIT_FUZZ_SEED", 1))



# ---- the browser tests' whole games: a minute or two each, spread over the workers


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: a whole game played in the browser (a minute or more); "
                                       "run first, one at the head of each worker's share")


def pytest_collection_modifyitems(config, items):
    """The slow tests at the head of each worker's share of the collection: xdist's
    worksteal hands each worker a run of the collection, in order, and a worker steals
    from the tail of another's, so a slow test started last would keep the run waiting.
    Every worker orders the collection the same way (it must), from the same count."""
    slow = [i for i in items if i.get_closest_marker("slow")]
    if not slow:
        return
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    rest = [i for i in items if not i.get_closest_marker("slow")]
    share = -(-len(rest) // workers) if rest else 0
    out: list = []
    for w in range(workers):
        out += slow[w::workers] + rest[w * share:(w + 1) * share]
    items[:] = out
