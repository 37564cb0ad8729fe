"""Two-layer tanh networks f_1 with exact rational weights (InfoFlow Theorem 5, A.2), evaluated exactly and in float64."""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

import numpy as np

from attncert.core.errors import InvalidParameter
from attncert.core.params import as_int, check_limit
from attncert.papers.infoflow.pigeonhole.layout import DYADIC_BITS


MAX_WEIGHTS = 10 ** 6   # exact Fraction weights of a seeded net: about 200 MB and a few seconds at the limit


def _frac_matrix(rows) -> tuple[tuple[Fraction, ...], ...]:
    return tuple(tuple(Fraction(v) for v in r) for r in rows)


@dataclass(frozen=True)
class TanhNet:
    """A two-layer tanh network x -> W2 tanh(W1 x + b1) + b2 from R^d_in to R^d_out, hidden width h.

    All weights are exact ``Fraction`` s: W1 (h x d_in), b1 (h), W2 (d_out x h), b2 (d_out).

    ``TanhNet.seeded(d_in, d_out, hidden, seed)`` draws W1, b1, W2, b2 (in this order, row major) as
    dyadic rationals k / 2^16 with k uniform in [-2^16, 2^16] from ``random.Random(seed)``, so every
    entry is in [-1, 1]. With ``unit_range=True`` (the default) it returns f1 = ``raw.unit_range()``:

    Output map into [0, 1]^n (a choice of this module; Theorem 5 assumes range(f1) in [0, 1]^n, which
    tanh networks with weights <= 1 do not satisfy by themselves). For the raw output r(x), every
    coordinate satisfies |r| <= h * 1 * 1 + 1 = h + 1 (weights in [-1, 1], |tanh| <= 1), so

        f1(x) = (1 + r(x) / (h + 1)) / 2 in [0, 1]^n   (in fact in (0, 1)^n, since |tanh| < 1).

    ``unit_range`` folds this affine map into the output layer exactly: W2' = W2 / (2 (h + 1)) and
    b2' = 1/2 + b2 / (2 (h + 1)). The result is again a two-layer tanh network with weights bounded by 1:
    |W2'| <= 1 / (2 (h + 1)) <= 1/4 and b2' in [1/2 - 1/(2(h+1)), 1/2 + 1/(2(h+1))] in [0, 1]. The scaled
    entries are exact rationals, no longer dyadic unless h + 1 is a power of two.
    """

    W1: tuple[tuple[Fraction, ...], ...]
    b1: tuple[Fraction, ...]
    W2: tuple[tuple[Fraction, ...], ...]
    b2: tuple[Fraction, ...]

    def __post_init__(self):
        object.__setattr__(self, "W1", _frac_matrix(self.W1))
        object.__setattr__(self, "W2", _frac_matrix(self.W2))
        object.__setattr__(self, "b1", tuple(Fraction(v) for v in self.b1))
        object.__setattr__(self, "b2", tuple(Fraction(v) for v in self.b2))
        h = len(self.W1)
        if h < 1 or len(self.b1) != h or not self.W1[0]:
            raise InvalidParameter(f"TanhNet: W1 must be h x d_in with h >= 1 and b1 of length h (h={h})")
        if any(len(r) != len(self.W1[0]) for r in self.W1):
            raise InvalidParameter("TanhNet: W1 rows differ in length")
        if not self.W2 or any(len(r) != h for r in self.W2) or len(self.b2) != len(self.W2):
            raise InvalidParameter(f"TanhNet: W2 must be d_out x h (h={h}) and b2 of length d_out")

    @property
    def d_in(self) -> int:
        return len(self.W1[0])

    @property
    def d_out(self) -> int:
        return len(self.W2)

    @property
    def hidden(self) -> int:
        return len(self.W1)

    @property
    def weight_bound(self) -> Fraction:
        """max |entry| over W1, b1, W2, b2 (exact)."""
        return max(abs(v) for v in itertools.chain(itertools.chain.from_iterable(self.W1), self.b1,
                                                   itertools.chain.from_iterable(self.W2), self.b2))

    @classmethod
    def seeded(cls, d_in: int, d_out: int, hidden: int, seed: int, *, unit_range: bool = True) -> "TanhNet":
        d_in, d_out, hidden = as_int("d_in", d_in, 1), as_int("d_out", d_out, 1), as_int("hidden", hidden, 1)
        check_limit(f"TanhNet.seeded (d_in = {d_in}, d_out = {d_out}, hidden = {hidden}): hidden (d_in + d_out + 1) "
                    "+ d_out exact weights, that is", MAX_WEIGHTS, estimate=hidden * (d_in + d_out + 1) + d_out,
                    unit="weights", hint="use a smaller n, --hidden or T0 d")
        rng = random.Random(seed)
        one = 1 << DYADIC_BITS

        def draw():
            return Fraction(rng.randint(-one, one), one)

        W1 = [[draw() for _ in range(d_in)] for _ in range(hidden)]
        b1 = [draw() for _ in range(hidden)]
        W2 = [[draw() for _ in range(hidden)] for _ in range(d_out)]
        b2 = [draw() for _ in range(d_out)]
        net = cls(W1, b1, W2, b2)
        return net.unit_range() if unit_range else net

    def unit_range(self) -> "TanhNet":
        """The exact affine output map r -> (1 + r / (h + 1)) / 2 folded into W2, b2 (see class doc).

        Maps into [0, 1]^d_out provided the weights of ``self`` are in [-1, 1]."""
        if self.weight_bound > 1:
            raise InvalidParameter(f"unit_range: weights must be in [-1, 1], got max |w| = {self.weight_bound}")
        c = Fraction(1, 2 * (self.hidden + 1))
        return TanhNet(self.W1, self.b1, [[c * w for w in r] for r in self.W2],
                       [Fraction(1, 2) + c * b for b in self.b2])

    @cached_property
    def _float(self):
        return (np.array([[float(v) for v in r] for r in self.W1]), np.array([float(v) for v in self.b1]),
                np.array([[float(v) for v in r] for r in self.W2]), np.array([float(v) for v in self.b2]))

    def eval_np(self, x) -> np.ndarray:
        """float64 evaluation; x has shape (..., d_in), the result (..., d_out)."""
        W1, b1, W2, b2 = self._float
        x = np.asarray(x, dtype=np.float64)
        if x.shape[-1:] != (self.d_in,):
            raise InvalidParameter(f"eval_np: last axis must have length d_in={self.d_in}, got shape {x.shape}")
        return np.tanh(x @ W1.T + b1) @ W2.T + b2

    def eval_py(self, x: Sequence) -> list[float]:
        """Plain-Python float evaluation (math.tanh) of one input of length d_in."""
        xs = [float(v) for v in x]
        hid = [math.tanh(sum(float(w) * xv for w, xv in zip(row, xs)) + float(b)) for row, b in zip(self.W1, self.b1)]
        return [sum(float(w) * hv for w, hv in zip(row, hid)) + float(b) for row, b in zip(self.W2, self.b2)]
