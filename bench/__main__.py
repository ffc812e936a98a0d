"""Run every benchmark (``bench/bench_*.py``) or the ones named, one after another.

Each benchmark prints its own table: medians of repeated runs, a ratio against a baseline
measured in the same run, and the absolute figures for the record.
"""

from __future__ import annotations

import runpy
import sys
import time
from pathlib import Path

HERE = Path(__file__).parent


def main(argv: list[str]) -> int:
    scripts = sorted(HERE.glob("bench_*.py"))
    if argv:
        wanted = set(argv)
        scripts = [s for s in scripts if s.stem.removeprefix("bench_") in wanted]
        if not scripts:
            print(f"no benchmark named {', '.join(argv)}", file=sys.stderr)
            return 2
    for script in scripts:
        print(f"\n=== {script.stem.removeprefix('bench_')} ===", flush=True)
        start = time.perf_counter()
        runpy.run_path(str(script), run_name="__main__")
        print(f"({script.name} took {time.perf_counter() - start:.1f} s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
