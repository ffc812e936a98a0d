"""A multinomial logistic (softmax) model for the benchmarks' trained baselines.

The benchmarks that choose a classifier by measurement (letters, stack heights) compare the
reader's own rule with a model trained on randomised renders; both train the same way:
full-batch gradient descent, so the same data gives the same weights (no sampling).
"""

from __future__ import annotations

import numpy as np


def fit(x: np.ndarray, y: np.ndarray, classes: int, *, steps: int, rate: float, l2: float,
        regularise_bias: bool = True, dtype: type = np.float32) -> np.ndarray:
    """Weights (features + 1, classes), the last row the bias; ``y`` holds class indices."""
    x = np.hstack([x, np.ones((len(x), 1))]).astype(dtype)
    weights = np.zeros((x.shape[1], classes), dtype)
    target = np.eye(classes, dtype=dtype)[y]
    for _ in range(steps):
        z = x @ weights
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        penalty = l2 * weights
        if not regularise_bias:
            penalty[-1] = 0.0
        weights -= rate * (x.T @ (p - target) / len(x) + penalty)
    return weights


def probabilities(x: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Each row's class probabilities (rows x classes)."""
    z = np.hstack([x, np.ones((len(x), 1))]) @ weights
    z -= z.max(axis=1, keepdims=True)
    p = np.exp(z)
    return p / p.sum(axis=1, keepdims=True)
