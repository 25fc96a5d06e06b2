"""Run every sheetkit benchmark, one after the other: `python bench/run.py`.

Each benchmark measures its baseline in the same run and prints ratios against it.
"""

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

for script in sorted(HERE.glob("bench_*.py")):
    print(f"== {script.name}", flush=True)
    code = subprocess.call([sys.executable, str(script)])
    if code:
        sys.exit(code)
    print(flush=True)
