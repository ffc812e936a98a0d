"""A small neural network (one hidden layer) for decisions whose evidence interacts.

Why not a logistic model: some evidence means opposite things in different pictures (a space far
from its tile's look is bare when the bare strip is near, and something else altogether, glare or
a shadow, when it is near neither), and a weighted sum cannot say "it depends". One hidden layer
of a few units can, and stays small enough to keep as a JSON file and to evaluate in microseconds.
Trained full-batch with Adam from a fixed seed: the same data give the same weights.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class SmallNet:
    """p = sigmoid(w2 . tanh(W1 (x - mean) / scale + b1) + b2)."""

    mean: np.ndarray
    scale: np.ndarray
    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: float

    def probability(self, x: np.ndarray) -> np.ndarray:
        hidden = np.tanh(((x - self.mean) / self.scale) @ self.w1 + self.b1)
        return 1.0 / (1.0 + np.exp(-np.clip(hidden @ self.w2 + self.b2, -40, 40)))

    def to_dict(self) -> dict[str, object]:
        return {"mean": self.mean.tolist(), "scale": self.scale.tolist(), "w1": self.w1.tolist(),
                "b1": self.b1.tolist(), "w2": self.w2.tolist(), "b2": self.b2}

    @classmethod
    def from_dict(cls, data: dict) -> SmallNet:
        mean, scale, w1, b1, w2 = (np.array(data[k], np.float64) for k in ("mean", "scale", "w1", "b1", "w2"))
        return cls(mean, scale, w1, b1, w2, float(data["b2"]))

    @classmethod
    def fit(cls, x: np.ndarray, y: np.ndarray, hidden: int = 16, steps: int = 1500, rate: float = 0.01,
            l2: float = 1e-4, seed: int = 0) -> SmallNet:
        """Cross-entropy with a little weight decay, full batch, Adam."""
        rng = np.random.default_rng(seed)
        mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-9
        z = (x - mean) / scale
        params = [rng.normal(0.0, 1.0 / np.sqrt(z.shape[1]), (z.shape[1], hidden)), np.zeros(hidden),
                  rng.normal(0.0, 1.0 / np.sqrt(hidden), hidden), np.zeros(1)]
        first = [np.zeros_like(p) for p in params]
        second = [np.zeros_like(p) for p in params]
        for step in range(1, steps + 1):
            w1, b1, w2, b2 = params
            h = np.tanh(z @ w1 + b1)
            p = 1.0 / (1.0 + np.exp(-np.clip(h @ w2 + b2[0], -40, 40)))
            d = (p - y) / len(y)
            dh = np.outer(d, w2) * (1.0 - h * h)
            grads = (z.T @ dh + l2 * w1, dh.sum(axis=0), h.T @ d + l2 * w2, np.array([d.sum()]))
            for i, g in enumerate(grads):
                first[i] = 0.9 * first[i] + 0.1 * g
                second[i] = 0.999 * second[i] + 0.001 * g * g
                params[i] = params[i] - rate * (first[i] / (1 - 0.9**step)) / (
                    np.sqrt(second[i] / (1 - 0.999**step)) + 1e-8)
        w1, b1, w2, b2 = params
        return cls(mean, scale, w1, b1, w2, float(b2[0]))
