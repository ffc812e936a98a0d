"""Benchmarks: ``python -m bench`` runs them all; ``python -m bench words timer`` runs some."""

from __future__ import annotations

import argparse
import os


def options(seeds: int | None = None, seeds_help: str = "first scene seed") -> argparse.Namespace:
    """The options the rendering benchmarks share: ``--quick`` (or ``BENCH_QUICK=1``) for a fast
    look and, where given a default, ``--seeds`` to measure on scenes nobody has looked at.
    Unknown arguments are left alone (``python -m bench`` passes the names of the benchmarks)."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    if seeds is not None:
        parser.add_argument("--seeds", type=int, default=seeds, help=seeds_help)
    args, _ = parser.parse_known_args()
    args.quick = args.quick or os.environ.get("BENCH_QUICK") == "1"
    return args
