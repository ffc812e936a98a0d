"""Run every benchmark (``bench/bench_*.py``) or the ones named, one after another.

The kiosk benchmark needs a screen: run under ``xvfb-run -a`` where there is none.

Each benchmark prints its own table: medians of repeated runs, a ratio against a baseline
measured in the same run, and the absolute figures for the record.
"""

from __future__ import annotations

import runpy
import sys
import time
import traceback
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
    failed = []
    for script in scripts:
        print(f"\n=== {script.stem.removeprefix('bench_')} ===", flush=True)
        start = time.perf_counter()
        try:
            runpy.run_path(str(script), run_name="__main__")
        except SystemExit as exc:
            if exc.code not in (0, None):
                failed.append(script.stem)
        except Exception:  # one broken benchmark must not hide the others' figures
            traceback.print_exc()
            failed.append(script.stem)
        print(f"({script.name} took {time.perf_counter() - start:.1f} s)", flush=True)
    if failed:
        print(f"\nfailed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
