"""The policy network: a small MLP scoring each candidate move, in numpy.

``score = w3 . relu(W2 relu(Ws s + Wc c + b1) + b2) + b3`` for the situation ``s`` and a
candidate ``c`` (``features``): the first layer is a layer over ``[s, c]``, split so that
the situation's part is computed once per move. The policy is the softmax of the scores
over the candidates.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from pusoy.ai.learned.features import CANDIDATE_SIZE, STATE_SIZE, VERSION

Array = npt.NDArray[np.float32]

WEIGHTS: Final = Path(__file__).with_name("policy.npz")
# Two-player tables play their own weights: trained at tables of 2 and 3, they beat the
# 4-player weights at 2 against every league member and lose to the shedder at 3 and 4
# (docs/ai.md, "Tables of 2 and 3").
WEIGHTS_2P: Final = Path(__file__).with_name("policy_2p.npz")
NAMES: Final = ("Ws", "Wc", "b1", "W2", "b2", "w3", "b3")


@dataclass(frozen=True)
class Policy:
    Ws: Array  # STATE_SIZE x H1
    Wc: Array  # CANDIDATE_SIZE x H1
    b1: Array
    W2: Array  # H1 x H2
    b2: Array
    w3: Array  # H2
    b3: Array  # (1,)

    @classmethod
    def initial(cls, rng: np.random.Generator, hidden: tuple[int, int] = (128, 64)) -> Policy:
        """He-initialised weights (training starts here)."""
        h1, h2 = hidden
        fan_in = STATE_SIZE + CANDIDATE_SIZE

        def normal(shape: tuple[int, ...], fan: int) -> Array:
            drawn: Array = (rng.standard_normal(shape) * np.sqrt(2 / fan)).astype(np.float32)
            return drawn

        return cls(
            Ws=normal((STATE_SIZE, h1), fan_in),
            Wc=normal((CANDIDATE_SIZE, h1), fan_in),
            b1=np.zeros(h1, np.float32),
            W2=normal((h1, h2), h1),
            b2=np.zeros(h2, np.float32),
            w3=normal((h2,), h2) * np.float32(0.1),
            b3=np.zeros(1, np.float32),
        )

    def arrays(self) -> list[Array]:
        return [getattr(self, name) for name in NAMES]

    def scores(self, state: Array, cands: Array) -> Array:
        """The score of each candidate (rows of ``cands``) in the situation ``state``."""
        h = np.maximum(state @ self.Ws + cands @ self.Wc + self.b1, 0)
        h = np.maximum(h @ self.W2 + self.b2, 0)
        out: Array = h @ self.w3 + self.b3[0]
        return out

    def save(self, path: Path, **meta: str) -> None:
        """As float16 (the scores move by about 1e-3; the file is half the size)."""
        arrays: dict[str, npt.NDArray[Any]] = {"version": np.array(VERSION)}
        arrays |= {name: a.astype(np.float16) for name, a in zip(NAMES, self.arrays(), strict=True)}
        arrays |= {f"meta_{k}": np.array(v) for k, v in meta.items()}
        np.savez_compressed(path, allow_pickle=False, **arrays)

    @classmethod
    def load(cls, path: Path) -> Policy:
        with np.load(path) as data:
            if int(data["version"]) != VERSION:
                raise ValueError(
                    f"{path} holds weights for features version {int(data['version'])}, "
                    f"not {VERSION}: train again (docs/ai.md, 'The learned level')"
                )
            return cls(*(data[name].astype(np.float32) for name in NAMES))


def shipped(players: int = 4) -> Policy:
    """The weights shipped in the package for a table of ``players``, loaded once per
    process."""
    return _load(WEIGHTS_2P if players == 2 else WEIGHTS)


@cache
def _load(path: Path) -> Policy:
    return Policy.load(path)
