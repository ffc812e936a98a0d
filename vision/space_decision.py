"""A fitted decision "does this space hold a tile?", sure outside a band and asked within it.

Why one class: the street's median (:mod:`vision.median_strip`) and its lanes
(:mod:`vision.street_lanes`) each weigh their own evidence, but both are a small network's
probability with a band fitted out of fold (:mod:`vision.synthetic.fitting`), kept as a JSON file
beside the other models with what it was fitted on, and both hand the reader a tile's chance
the same way.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, TypeVar

import numpy as np

from calibration.durable import write_atomically
from vision.small_net import SmallNet

D = TypeVar("D", bound="SpaceDecision")


def logit(p: np.ndarray | float) -> np.ndarray:
    """A probability as log-odds, kept finite: the networks' evidence is on this scale."""
    q = np.clip(np.asarray(p, np.float64), 1e-4, 1.0 - 1e-4)
    return np.log(q / (1.0 - q))


@dataclass(frozen=True)
class SpaceDecision:
    """A tile's probability from the evidence (``net``: the evidence interacts), sure at or below
    ``sure_bare`` or at or above ``sure_tile``, asked in between; ``info``: what it was fitted on
    and how it did. Subclasses name the evidence (``features``) and the command that refits it."""

    net: SmallNet
    sure_bare: float
    sure_tile: float
    info: dict[str, Any]

    features: ClassVar[tuple[str, ...]] = ()
    refit: ClassVar[str] = ""
    #: where the fitted decision is kept
    file: ClassVar[Path] = Path()

    def probability(self, evidence: np.ndarray) -> np.ndarray:
        return self.net.probability(evidence)

    def chance(self, q: float) -> tuple[float, bool]:
        """The space's tile chance for the reader (sure tiles at 0.8 and over, sure bare spaces at
        0.2 and under, whatever the band) and whether it is asked: an asked space gets 0.55 or
        0.45, the side the network leans to, the guess the players see."""
        if q >= self.sure_tile:
            return 0.8 + 0.2 * (q - self.sure_tile) / max(1.0 - self.sure_tile, 1e-9), False
        if q <= self.sure_bare:
            return 0.2 * q / max(self.sure_bare, 1e-9), False
        return (0.55 if q >= 0.5 else 0.45), True

    def save(self, path: str | Path | None = None) -> None:
        """Write it to ``path``, by default :attr:`file`."""
        data = {"features": list(self.features), "sure_bare": self.sure_bare, "sure_tile": self.sure_tile,
                "model": self.net.to_dict(), "fitted_on": self.info}
        write_atomically(Path(path or self.file), (json.dumps(data, indent=1) + "\n").encode("utf-8"))

    @classmethod
    def load(cls: type[D], path: str | Path | None = None) -> D:
        """Read it from ``path``, by default :attr:`file`; a damaged file is a ValueError that says
        how to refit it."""
        path = path or cls.file
        try:
            data = json.loads(Path(path).read_text())
            if data["features"] != list(cls.features):
                raise ValueError("it weighs other evidence than this reader gives")
            return cls(SmallNet.from_dict(data["model"]), float(data["sure_bare"]), float(data["sure_tile"]),
                       dict(data["fitted_on"]))
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise ValueError(f"the model in {path} cannot be read ({error}); "
                             f"refit it: {cls.refit}") from error
