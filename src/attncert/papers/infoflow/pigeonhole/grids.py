"""The grids G_j = {alpha_j + q Delta : q = 1..N} of Theorem 5 (L609-625)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from attncert.core.errors import InvalidParameter
from attncert.core.params import as_fraction, as_int, check_limit, sci


DEFAULT_MAX_CANDIDATES = 2 * 10**8


@dataclass(frozen=True)
class Grid(Sequence):
    """G_j = {alpha_j + q Delta : q = 1..N} as a lazy sequence of exact Fractions: item i is q = i + 1."""

    alpha: Fraction
    delta: Fraction
    N: int

    def __len__(self) -> int:
        return self.N

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self.N))]
        if i < 0:
            i += self.N
        if not 0 <= i < self.N:
            raise IndexError(i)
        return self.alpha + (i + 1) * self.delta

    def floats(self) -> np.ndarray:
        """float(G_j[i]) for i = 0..N-1, each correctly rounded (exact integer numerators when possible)."""
        den = math.lcm(self.alpha.denominator, self.delta.denominator)
        a = self.alpha.numerator * (den // self.alpha.denominator)
        d = self.delta.numerator * (den // self.delta.denominator)
        if a + self.N * d < 2**53 and den < 2**53:
            return (a + d * np.arange(1, self.N + 1, dtype=np.int64)).astype(np.float64) / float(den)
        return np.array([float(self[i]) for i in range(self.N)])


@dataclass(frozen=True)
class GridSet:
    m: int
    eps: Fraction
    N: int
    Delta: Fraction
    G: tuple[Grid, ...]

    @property
    def candidates(self) -> int:
        return self.N ** self.m


def grids(m: int, eps, *, max_candidates: int = DEFAULT_MAX_CANDIDATES) -> GridSet:
    """Delta = 4 eps, N = floor(1/(16 m eps)), G_j = {(j-1)/(2m) + q Delta : q = 1..N} (L609-621).

    Raises InvalidParameter when eps is not in (0, 1/(64 m)) or when N^m > max_candidates; both are
    checked before anything is allocated."""
    m = as_int("m", m, 1)
    eps = as_fraction("eps", eps)
    bound = Fraction(1, 64 * m)
    if not (0 < eps < bound):
        raise InvalidParameter(f"eps={eps}: must be in (0, 1/(64 m)) = (0, {bound}) for m = {m} (L609)")
    N = math.floor(1 / (16 * m * eps))
    # N^m is compared through its logarithm first: for m = 10^9 the integer itself would take minutes to build
    check_limit(f"eps={sci(eps) if eps.denominator > 10 ** 12 else eps}, m={m}: the grid G_1 x ... x G_m has "
                f"N^m = {sci(N)}^{m} =", max_candidates, log10=m * math.log10(N), unit="candidates",
                hint="use a larger eps or a smaller m = T - k + 1 (the limit is max_candidates)")
    if N ** m > max_candidates:  # exact, now that the logarithm has shown N^m is small
        raise InvalidParameter(f"eps={eps}, m={m}: N^m = {N}^{m} = {N ** m} candidates exceeds max_candidates = {max_candidates}")
    Delta = 4 * eps
    G = tuple(Grid(Fraction(j - 1, 2 * m), Delta, N) for j in range(1, m + 1))
    return GridSet(m, eps, N, Delta, G)


def _eta(m: int, n: int, N: int) -> float:
    """eta = 4 m N^{-m/(n+1)} (L641) in float64."""
    return 4.0 * m * float(N) ** (-m / (n + 1))
