"""Imitation training of the policy network, numpy only (``benchmarks.strength.train_policy``
runs it; docs/ai.md, "The learned level").

The loss is the cross-entropy of the softmax over a position's candidates against the
teacher's move; gradients are written out by hand and applied by Adam. A mini-batch is a
set of positions, each with its own number of candidates: the candidates of the batch
are rows of one matrix, and the per-position softmax runs over segments of it
(``np.maximum.reduceat`` / ``np.add.reduceat``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from pusoy.ai.learned.dataset import IntArray, state_from_row
from pusoy.ai.learned.features import candidate_features, candidates, state_features
from pusoy.ai.learned.model import NAMES, Array, Policy
from pusoy.engine.rules import Rules

Index = npt.NDArray[np.intp]


@dataclass(frozen=True)
class Examples:
    """Positions as features: ``states[i]`` with candidates ``cands[offsets[i]:offsets[i+1]]``,
    of which ``targets[i]`` (an index into ``cands``) is the teacher's."""

    states: Array
    cands: Array
    offsets: Index
    targets: Index

    def __len__(self) -> int:
        return len(self.states)


def examples(rules: Rules, rows: IntArray, chosen: IntArray) -> Examples:
    states = []
    cands = []
    offsets = [0]
    targets = []
    for row, mask in zip(rows.tolist(), chosen.tolist(), strict=True):
        sim = state_from_row(rules, row)
        moves = candidates(sim)
        at = [i for i, (m, _k) in enumerate(moves) if m == mask]
        if not at:
            raise ValueError(f"the teacher's move {mask:#x} is not among the candidates")
        states.append(state_features(sim))
        cands.append(candidate_features(sim, moves))
        targets.append(offsets[-1] + at[0])
        offsets.append(offsets[-1] + len(moves))
    return Examples(
        np.stack(states),
        np.concatenate(cands),
        np.array(offsets, dtype=np.intp),
        np.array(targets, dtype=np.intp),
    )


@dataclass
class Batch:
    states: Array
    cands: Array
    seg: Index  # position (in the batch) of each candidate row
    starts: Index  # first row of each position
    target: Index  # row of the teacher's move, per position


def batch(data: Examples, which: Index) -> Batch:
    starts = data.offsets[which]
    lens = data.offsets[which + 1] - starts
    local = np.cumsum(lens) - lens
    seg = np.repeat(np.arange(len(which)), lens)
    rows = starts[seg] + np.arange(int(lens.sum())) - local[seg]
    return Batch(
        data.states[which], data.cands[rows], seg, local, data.targets[which] - starts + local
    )


def forward(p: Policy, b: Batch) -> tuple[Array, tuple[Array, Array, Array, Array, Array]]:
    """The softmax per position over its candidates, and what backprop needs."""
    a1 = (b.states @ p.Ws)[b.seg] + b.cands @ p.Wc + p.b1
    h1 = np.maximum(a1, 0)
    a2 = h1 @ p.W2 + p.b2
    h2 = np.maximum(a2, 0)
    z = h2 @ p.w3 + p.b3[0]
    top = np.maximum.reduceat(z, b.starts)
    e = np.exp(z - top[b.seg])
    probs: Array = e / np.add.reduceat(e, b.starts)[b.seg]
    return probs, (a1, h1, a2, h2, z)


def loss_and_grads(
    p: Policy, b: Batch, weights: Array | None = None
) -> tuple[float, float, list[Array]]:
    """Mean cross-entropy, accuracy (the teacher's move scored highest) and gradients in
    ``NAMES`` order. With ``weights`` (one per position), each position's term is
    weighted: a policy gradient, when they are the advantages of the moves taken."""
    probs, (a1, h1, a2, h2, z) = forward(p, b)
    n = len(b.starts)
    loss = float(-np.mean(np.log(probs[b.target] + 1e-12)))
    accuracy = float(np.mean(z[b.target] >= np.maximum.reduceat(z, b.starts)))
    g = probs.copy()
    g[b.target] -= 1
    g /= n
    if weights is not None:
        g *= weights[b.seg]
    dw3 = h2.T @ g
    db3 = np.array([g.sum()], np.float32)
    da2 = np.outer(g, p.w3) * (a2 > 0)
    dW2 = h1.T @ da2
    db2 = da2.sum(0)
    da1 = (da2 @ p.W2.T) * (a1 > 0)
    dWc = b.cands.T @ da1
    db1 = da1.sum(0)
    dWs = b.states.T @ np.add.reduceat(da1, b.starts, axis=0)
    return loss, accuracy, [dWs, dWc, db1, dW2, db2, dw3, db3]


def evaluate(p: Policy, data: Examples, size: int = 2048) -> tuple[float, float]:
    """Loss and accuracy against the teacher over all of ``data``."""
    losses = []
    hits = []
    for start in range(0, len(data), size):
        which = np.arange(start, min(start + size, len(data)))
        loss, accuracy, _ = loss_and_grads(p, batch(data, which))
        losses.append(loss * len(which))
        hits.append(accuracy * len(which))
    return sum(losses) / len(data), sum(hits) / len(data)


def fit(
    p: Policy,
    data: Examples,
    *,
    epochs: int,
    seed: int = 0,
    lr: float = 1e-3,
    batch_size: int = 128,
    weight_decay: float = 1e-5,
    log: Callable[[int, float, float, Policy], None] | None = None,
) -> Policy:
    """Adam on the imitation loss; ``log(epoch, loss, accuracy, policy)`` after each
    epoch (the training set's running figures, and the weights so far)."""
    rng = np.random.default_rng(seed)
    adam = Adam(p, lr=lr, weight_decay=weight_decay)
    for epoch in range(epochs):
        order = rng.permutation(len(data))
        total = 0.0
        hits = 0.0
        for start in range(0, len(order), batch_size):
            which = order[start : start + batch_size]
            loss, accuracy, grads = loss_and_grads(adam.policy(), batch(data, which))
            total += loss * len(which)
            hits += accuracy * len(which)
            adam.step(grads)
        if log:
            log(epoch, total / len(data), hits / len(data), adam.policy())
    return adam.policy()


class Adam:
    """Adam over a policy's arrays (with decoupled-style L2 ``weight_decay`` added to
    the gradient)."""

    def __init__(self, p: Policy, *, lr: float, weight_decay: float = 0.0) -> None:
        self.template = p
        self.params = [a.copy() for a in p.arrays()]
        self.m = [np.zeros_like(a) for a in self.params]
        self.v = [np.zeros_like(a) for a in self.params]
        self.lr = lr
        self.weight_decay = weight_decay
        self.steps = 0

    def policy(self) -> Policy:
        return replace(self.template, **dict(zip(NAMES, self.params, strict=True)))

    def step(self, grads: list[Array]) -> None:
        beta1, beta2, eps = 0.9, 0.999, 1e-8
        self.steps += 1
        for i, grad in enumerate(grads):
            grad = grad + self.weight_decay * self.params[i]
            self.m[i] = beta1 * self.m[i] + (1 - beta1) * grad
            self.v[i] = beta2 * self.v[i] + (1 - beta2) * grad * grad
            m_hat = self.m[i] / (1 - beta1**self.steps)
            v_hat = self.v[i] / (1 - beta2**self.steps)
            self.params[i] = (self.params[i] - self.lr * m_hat / (np.sqrt(v_hat) + eps)).astype(
                np.float32
            )
