"""What the fits of a decision share: gathering evidence on random streets, and the band the
decision is asked within, chosen out of fold.

Why out of fold: a network's probabilities on the scenes it was fitted on are surer than on any
other; each scene is judged here by a network fitted without it, as a table nobody drew would be,
and the band is where those judgements cost least, a space wrong and sure costing ``cost``
spaces asked (a wrong read spoils a turn's score, a question costs a tap).
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
from threadpoolctl import threadpool_limits

from vision.small_net import SmallNet
from vision.space_decision import D, SpaceDecision

FOLDS = 5
#: the band never narrows past the reader's own confidence threshold (0.6: a probability 0.8)
WIDEST_SURE_BARE, NARROWEST_SURE_TILE = 0.2, 0.8


@dataclass(frozen=True)
class NetworkSize:
    """How big a decision's network is and how long it trains: a decision whose evidence has
    more to say (the median's likeness beside its colours) needs more units and steps to learn it."""

    hidden: int = 16
    steps: int = 1500

    def fit(self, x: np.ndarray, y: np.ndarray) -> SmallNet:
        return SmallNet.fit(x, y, hidden=self.hidden, steps=self.steps)


def _fitted(args: tuple[np.ndarray, np.ndarray, np.ndarray, NetworkSize]) -> SmallNet:
    """A network fitted on the rows ``kept`` (a module-level function: it runs in a worker process).
    On one BLAS thread: the workers are as many as the cores, and a second thread each would only
    wait for the other's."""
    x, y, kept, size = args
    with threadpool_limits(1):
        return size.fit(x[kept], y[kept])


def fit_out_of_fold(x: np.ndarray, y: np.ndarray, groups: np.ndarray, size: NetworkSize = NetworkSize(),
                    workers: int = 1) -> tuple[np.ndarray, SmallNet]:
    """Each row's probability from a network fitted without its scene (``groups``: each row's),
    and the network fitted on every row."""
    helds = [groups % FOLDS == k for k in range(FOLDS)]
    every = np.ones(len(y), bool)
    with ProcessPoolExecutor(workers) as pool:
        nets = list(pool.map(_fitted, [(x, y, kept, size) for kept in [every] + [~h for h in helds]]))
    out = np.zeros(len(y))
    for held, net in zip(helds, nets[1:], strict=True):
        out[held] = net.probability(x[held])
    return out, nets[0]


def band(p: np.ndarray, y: np.ndarray, cost: float) -> tuple[float, float]:
    """(sure_bare, sure_tile): each the threshold that costs least on out-of-fold probabilities
    ``p`` (truth ``y``), a space wrong and sure costing ``cost`` spaces asked; never looser than
    the reader's own confidence threshold."""
    tiles, bare, every = np.sort(p[y > 0.5]), np.sort(p[y < 0.5]), np.sort(p)

    def cheapest(candidates: np.ndarray, wrong: np.ndarray, asked: np.ndarray, last: bool) -> float:
        """The cheapest candidate; of equals, the ``last`` (the narrowest band) or the first."""
        total = wrong * cost + asked
        ties = np.flatnonzero(total == total.min())
        return float(candidates[ties[-1] if last else ties[0]])

    # sure bare at or below t: tiles there are wrong; every space above t and below a half is asked
    low = np.concatenate([[0.0], bare[bare < 0.5]])
    sure_bare = cheapest(low, np.searchsorted(tiles, low, side="right"),
                         np.searchsorted(every, 0.5) - np.searchsorted(every, low, side="right"), True)
    # sure tile at or above t: bare spaces there are wrong; every space from a half to below t is asked
    high = np.concatenate([tiles[tiles >= 0.5], [1.0]])
    sure_tile = cheapest(high, len(bare) - np.searchsorted(bare, high, side="left"),
                         np.searchsorted(every, high, side="left") - np.searchsorted(every, 0.5), False)
    return min(sure_bare, WIDEST_SURE_BARE), max(sure_tile, NARROWEST_SURE_TILE)


Examples = tuple[np.ndarray, np.ndarray]


def collect(per_street: Callable[[int], Examples], seed: int, streets: int, workers: int = 2
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Evidence, labels and each row's street (for the folds), ``per_street`` gathering one
    street seed's (a module-level function: it runs in worker processes)."""
    seeds = [int(s) for s in np.random.default_rng(seed).integers(0, 2**31 - 1, streets)]
    with ProcessPoolExecutor(workers) as pool:
        parts = list(pool.map(per_street, seeds))
    groups = np.concatenate([np.full(len(y), i) for i, (_, y) in enumerate(parts)])
    return np.concatenate([x for x, _ in parts]), np.concatenate([y for _, y in parts]), groups


def gathered(per_item: Callable[[int], Examples], seed: int, count: int, workers: int = 2,
             examples: Path | None = None, what: str = "streets"
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, int]:
    """Evidence, labels, each row's group, the seed and how many ``what`` (streets, scenes) they
    were gathered from: by :func:`collect`, or from ``examples`` when that file exists (its seed
    and count are its own), kept there when it does not."""
    if examples is not None and examples.exists():
        with np.load(examples) as kept:
            x, y, groups, seed = kept["x"], kept["y"], kept["groups"], int(kept["seed"])
            count = int(kept[what]) if what in kept else int(groups.max()) + 1
        return x, y, groups, seed, count
    x, y, groups = collect(per_item, seed, count, workers)
    if examples is not None:
        np.savez_compressed(examples, x=x, y=y, groups=groups, seed=seed, **{what: count})
    return x, y, groups, seed, count


def fit_decision(decision: type[D], per_street: Callable[[int], Examples], cost: float, seed: int,
                 streets: int, workers: int = 2, examples: Path | None = None,
                 size: NetworkSize = NetworkSize(), evidence_from: tuple[Path, ...] = (),
                 what: str = "streets", settles_bare: bool = True) -> D:
    """A ``decision`` fitted on the evidence ``per_street`` gathers from ``streets`` seeds (of
    ``what``: streets, games) drawn from ``seed``, its band out of fold at ``cost``; ``info`` says
    what it was fitted on and how it did out of fold, and which model files made its evidence
    (``evidence_from``, by :func:`fingerprint`). ``examples``: a file to keep the evidence in, and
    to take it from when it exists (a refit of the network or the band without rendering again).
    ``settles_bare`` False: the decision only ever settles the "tile" side (``sure_bare`` 0: the
    rest is asked, and counted so)."""
    x, y, groups, seed, streets = gathered(per_street, seed, streets, workers, examples, what)
    oof, net = fit_out_of_fold(x, y, groups, size, workers)
    sure_bare, sure_tile = band(oof, y, cost)
    sure_bare = sure_bare if settles_bare else 0.0
    info = {"seed": seed, what: streets, "family": "train", "date": datetime.date.today().isoformat(),
            "spaces": len(y), "tiles": int(y.sum()), "wrong_costs": cost,
            "network": asdict(size), "out_of_fold": band_facts(oof, y, sure_bare, sure_tile),
            "evidence_from": {path.name: fingerprint(path) for path in evidence_from}}
    return decision(net, sure_bare, sure_tile, info)


def fingerprint(path: Path) -> str:
    """A model file's identity: a decision fitted on one model's probabilities is not valid on
    another's, and a fitted file names the ones it was fitted on by this."""
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def band_facts(p: np.ndarray, y: np.ndarray, sure_bare: float, sure_tile: float) -> dict[str, int]:
    """How a band did on out-of-fold probabilities ``p`` (truth ``y``): rows asked, wrong and sure,
    wrong at a half (with no band at all): what a fitted file keeps of its fit."""
    asked = (p > sure_bare) & (p < sure_tile)
    wrong = (p >= 0.5) != (y > 0.5)
    return {"asked": int(asked.sum()), "wrong_and_sure": int((~asked & wrong).sum()),
            "wrong_at_half": int(wrong.sum())}


def _band(model: SpaceDecision) -> str:
    return f"sure bare <= {model.sure_bare:.4f}, sure tile >= {model.sure_tile:.4f}"


def fit_command(argv: list[str] | None, description: str, fit: Callable[..., Any], seed: int,
                streets: int, out: Path, what: str = "streets", summary: Callable[[Any], str] = _band) -> int:
    """The command line of a fit: ``fit(seed, streets, workers, examples)``, saved to ``out``;
    ``what`` the fit draws (``--streets``, ``--scenes``); ``summary`` what it fitted, in words
    (a decision's band)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--seed", type=int, default=seed)
    parser.add_argument(f"--{what}", dest="count", type=int, default=streets)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", default=str(out))
    parser.add_argument("--examples", type=Path, help="keep the evidence here (and reuse it when it exists)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    model = fit(args.seed, args.count, args.workers, args.examples)
    model.save(args.out)
    count = model.info.get(what, args.count)  # kept evidence has its own count
    print(f"fitted on {count} {what} in {time.perf_counter() - start:.0f} s -> {args.out}")
    print(f"  {summary(model)}; {model.info}")
    return 0
