"""Kajitsuka-Sato Theorem 2, built: the rank-1 softmax attention layer (29)-(32) for a concrete tokenwise
(r_min, r_max, eps)-separated dataset, checked to be an (r, delta)-contextual mapping (Definition 2) with
r and delta of (7)-(8), at a working precision chosen from delta.

Choices (documented in docs/ks-theorems.md)
- s = 1. v is rational with ||v|| <= 1: v = w / N with w a seeded integer vector and N >= ||w|| an integer
  bound, so the (unit) direction of v satisfies Lemma 2 / (72) whenever v does; (72) and (74)-(75) are
  checked for v itself in exact rational arithmetic, with pi replaced by 333/106 < pi where that makes the
  check harder (never easier).
- u = K_q >= K = (|V|+1)^4 pi d delta/(8 eps r_min) (29) with u' = 1: K_q is a rational upper bound
  (pi <= 355/113, log n from above, rounded up to a multiple of 2^-10), so (74) holds a fortiori; the
  printed equality in (29) is relaxed to K <= K_q <= K + 2^-10 + K 10^-3.
- W_V = v^T (u'' = 1), W_O = (eps/(4 r_max)) e_1 (32), W_K = K_q v^T, W_Q = v^T.
- delta: the check uses delta_up >= delta_(8) (pi -> 333/106 < pi makes (8) larger), so separation
  > delta_up proves separation > delta_(8).
Outputs: q(X)_k = X_k + W_O (v^T X) softmax(K_q (v^T X)(v^T X_k)). The verdict comes from python-flint arb
balls; mpmath at the same number of digits is the reference; a float64 run must detect that it cannot
represent delta and answer UNKNOWN.
"""

from __future__ import annotations

import itertools
import json
import math
import random
import re
import time
from dataclasses import dataclass
from fractions import Fraction
from math import isqrt

from attncert.backends.arb import upper_fraction
from attncert.core.errors import InvalidParameter
from attncert.numeric.evaluate import arb_prec

PI_LO, PI_HI = Fraction(333, 106), Fraction(355, 113)
MAX_TOKENS = 64
MAX_DIM = 64
MAX_BITS = 1 << 18


# ------------------------------------------------------------------------------------------- dataset


@dataclass(slots=True, frozen=True)
class Dataset:
    X: tuple            # X[i][k] = token (tuple of Fractions)
    N: int
    n: int
    d: int
    r_min: Fraction
    r_max: Fraction
    eps: Fraction
    vocab: tuple        # distinct tokens, sorted

    def to_json(self) -> dict:
        return {"sequences": [[[str(c) for c in tok] for tok in seq] for seq in self.X],
                "r_min": str(self.r_min), "r_max": str(self.r_max), "eps": str(self.eps)}


_NUMBER = re.compile(r"-?(\d{1,60}(\.\d{1,60})?([eE][-+]?\d{1,3})?|\d{1,60}/\d{1,60})\Z")
MAX_EXP10 = 60          # |exponent| of a dataset number: beyond it r37 and delta leave every float range


def _num(x, where: str) -> Fraction:
    """A dataset number: an int, a finite float, or a decimal / fraction string of at most 60 digits, with its
    magnitude between 10^-60 and 10^60 (or 0). Anything else is one line naming ``where``."""
    if isinstance(x, bool) or not isinstance(x, (int, float, str)):
        raise InvalidParameter(f"{where}: {x!r} is not a number")
    if isinstance(x, float) and not math.isfinite(x):
        raise InvalidParameter(f"{where}: {x!r} is not finite")
    if isinstance(x, str) and x.strip().lower() in ("nan", "inf", "+inf", "-inf", "infinity", "-infinity"):
        raise InvalidParameter(f"{where}: {x!r} is not finite")
    if isinstance(x, str) and not _NUMBER.match(x):
        raise InvalidParameter(f"{where}: {x[:40]!r} is not a number (write a decimal such as 0.25, 1e-3, or a "
                               "fraction such as 1/4)")
    if isinstance(x, int) and abs(x) >= 10 ** MAX_EXP10:
        raise InvalidParameter(f"{where}: {str(x)[:20]}... is too large (at most 10^{MAX_EXP10})")
    try:
        q = Fraction(str(x)) if isinstance(x, float) else Fraction(x)
    except (ValueError, ZeroDivisionError, OverflowError):
        raise InvalidParameter(f"{where}: {str(x)[:40]!r} is not a number") from None
    if q and not (Fraction(1, 10 ** MAX_EXP10) <= abs(q) <= 10 ** MAX_EXP10):
        raise InvalidParameter(f"{where}: {str(x)[:40]!r} is outside 10^-{MAX_EXP10} <= |x| <= 10^{MAX_EXP10}")
    return q


def _sq(v) -> Fraction:
    return sum((c * c for c in v), Fraction(0))


def _sqrt_lo(q: Fraction, bits: int = 40) -> Fraction:
    """A rational <= sqrt(q)."""
    s = 1 << bits
    return Fraction(isqrt(math.floor(q * s * s)), s)


def _sqrt_hi(q: Fraction, bits: int = 40) -> Fraction:
    s = 1 << bits
    r = isqrt(math.ceil(q * s * s))
    return Fraction(r if r * r >= q * s * s else r + 1, s)


def dataset(sequences, r_min=None, r_max=None, eps=None) -> Dataset:
    """Validate sequences (N x n x d) and the separation parameters; missing parameters are derived
    (strictly inside the data's own bounds). Every problem is one line naming the offending indices."""
    if not isinstance(sequences, list) or not sequences:
        raise InvalidParameter("dataset: 'sequences' must be a non-empty list of sequences")
    N = len(sequences)
    if not all(isinstance(s, list) and s for s in sequences):
        raise InvalidParameter("dataset: every sequence must be a non-empty list of tokens")
    n = len(sequences[0])
    bad = [i for i, s in enumerate(sequences) if len(s) != n]
    if bad:
        raise InvalidParameter(f"dataset: wrong shape: sequences {bad} do not have n = {n} tokens")
    if n < 2:
        raise InvalidParameter("dataset: n >= 2 tokens per sequence needed (delta of (8) has (log n)^2, 0 for n = 1)")
    if not all(isinstance(t, list) for s in sequences for t in s):
        raise InvalidParameter("dataset: every token must be a list of d numbers")
    d = len(sequences[0][0])
    if d > MAX_DIM or N * n > 4 * MAX_TOKENS:
        raise InvalidParameter(f"dataset: d = {d} and N n = {N * n} must be at most {MAX_DIM} and {4 * MAX_TOKENS}")
    bad = [(i, k) for i, s in enumerate(sequences) for k, t in enumerate(s) if len(t) != d]
    if bad or d < 1:
        raise InvalidParameter(f"dataset: wrong shape: tokens {bad[:10]} do not have d = {d} coordinates")
    X = tuple(tuple(tuple(_num(c, f"token ({i}, {k})") for c in t) for k, t in enumerate(s))
              for i, s in enumerate(sequences))
    zero = [(i, k) for i in range(N) for k in range(n) if _sq(X[i][k]) == 0]
    if zero:
        raise InvalidParameter(f"dataset: zero tokens at (sequence, position) {zero[:10]}: r_min > 0 needs nonzero tokens")
    dup = [(i, k, l) for i in range(N) for k in range(n) for l in range(k + 1, n) if X[i][k] == X[i][l]]
    if dup:
        raise InvalidParameter(f"dataset: duplicate tokens within a sequence (6) at (sequence, position, position) {dup[:10]}")
    if len(set(X)) < N:
        pass  # repeated sequences are allowed: they share every context id
    vocab = tuple(sorted(set(t for s in X for t in s)))
    if len(vocab) > MAX_TOKENS:
        raise InvalidParameter(f"dataset: |V| = {len(vocab)} distinct tokens > {MAX_TOKENS}")
    norms2 = [_sq(t) for t in vocab]
    dist2 = [(_sq([a - b for a, b in zip(vocab[x], vocab[y])]), x, y) for x in range(len(vocab)) for y in range(x + 1, len(vocab))]
    r_min = _sqrt_lo(min(norms2)) * Fraction(1023, 1024) if r_min is None else _num(r_min, "r_min")
    r_max = _sqrt_hi(max(norms2)) * Fraction(1025, 1024) if r_max is None else _num(r_max, "r_max")
    if eps is None:
        eps = _sqrt_lo(min(dd for dd, _, _ in dist2)) * Fraction(1023, 1024) if dist2 else r_min
    else:
        eps = _num(eps, "eps")
    if not (0 < r_min < r_max) or eps <= 0:
        raise InvalidParameter(f"dataset: need 0 < r_min < r_max and eps > 0 (got r_min={r_min}, r_max={r_max}, eps={eps})")
    small = [(i, k) for i in range(N) for k in range(n) if not _sq(X[i][k]) > r_min * r_min]
    if small:
        raise InvalidParameter(f"dataset: tokens with norm <= r_min = {r_min} at {small[:10]}")
    big = [(i, k) for i in range(N) for k in range(n) if not _sq(X[i][k]) < r_max * r_max]
    if big:
        raise InvalidParameter(f"dataset: tokens with norm >= r_max = {r_max} at {big[:10]}")
    close = [(vocab[x], vocab[y]) for dd, x, y in dist2 if not dd > eps * eps]
    if close:
        where = [[(i, k) for i in range(N) for k in range(n) if X[i][k] in pair] for pair in close[:3]]
        raise InvalidParameter(f"dataset: tokens closer than eps = {eps}: {len(close)} pairs, at (sequence, position) {where}")
    return Dataset(X, N, n, d, r_min, r_max, eps, vocab)


def load_dataset(path: str) -> Dataset:
    try:
        with open(path, encoding="utf-8") as fh:
            # floats stay text, so that 1e-400 is refused as too small instead of read as 0.0
            obj = json.load(fh, parse_float=str,
                            parse_constant=lambda c: (_ for _ in ()).throw(InvalidParameter(f"dataset: {c} is not finite")))
    except OSError as e:
        raise InvalidParameter(f"dataset {path}: {e.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError, ValueError) as e:
        raise InvalidParameter(f"dataset {path}: not valid JSON ({str(e)[:120]})") from None
    except RecursionError:
        raise InvalidParameter(f"dataset {path}: nested too deeply") from None
    if not isinstance(obj, dict) or "sequences" not in obj:
        raise InvalidParameter(f"dataset {path}: expected an object with 'sequences' (and optional r_min, r_max, eps)")
    extra = sorted(set(obj) - {"sequences", "r_min", "r_max", "eps"})
    if extra:
        raise InvalidParameter(f"dataset {path}: unknown keys {extra[:5]} (allowed: sequences, r_min, r_max, eps)")
    return dataset(obj["sequences"], obj.get("r_min"), obj.get("r_max"), obj.get("eps"))


def random_dataset(N: int, n: int, d: int, seed: int, vocab_size: int = 6) -> Dataset:
    """N sequences of n distinct tokens drawn from a seeded vocabulary of rational points (quarter grid in
    [-1, 1]^d, nonzero, pairwise distinct)."""
    for name, v, lo in (("N", N, 1), ("n", n, 2), ("d", d, 1)):
        if not isinstance(v, int) or v < lo:
            raise InvalidParameter(f"--random: {name}={v!r} must be an integer >= {lo}")
    if n > vocab_size:
        raise InvalidParameter(f"--random: n = {n} tokens per sequence needs a vocabulary of at least n (have {vocab_size})")
    if d > MAX_DIM or N * n > MAX_TOKENS:
        raise InvalidParameter(f"--random: d = {d} and N n = {N * n} must be at most {MAX_DIM} and {MAX_TOKENS}")
    if vocab_size > min(MAX_TOKENS, 9 ** d - 1):
        raise InvalidParameter(f"--vocab {vocab_size}: the quarter grid of [-1, 1]^{d} has only {9 ** d - 1} nonzero "
                               f"points (and at most {MAX_TOKENS} tokens are allowed)")
    rng = random.Random(seed)
    grid = [Fraction(a, 4) for a in range(-4, 5)]
    vocab = []
    while len(vocab) < vocab_size:
        t = tuple(rng.choice(grid) for _ in range(d))
        if _sq(t) > 0 and t not in vocab:
            vocab.append(t)
    seqs = [[list(map(str, t)) for t in rng.sample(vocab, n)] for _ in range(N)]
    return dataset(seqs)


# ------------------------------------------------------------------------------------------- Lemma 2/3


def lemma2_vector(ds: Dataset, seed: int = 0, tries: int = 2000) -> tuple[tuple[Fraction, ...], int]:
    """A rational v with ||v|| <= 1 satisfying (72) on X = V u {0}, checked exactly:
    (v^T (x - x'))^2 >= 8/(pi_lo d |X|^4) ||x - x'||^2 (an upper bound of the printed constant squared)."""
    pts = list(ds.vocab) + [tuple(Fraction(0) for _ in range(ds.d))]
    c2 = 8 / (PI_LO * ds.d * Fraction(len(pts)) ** 4)
    diffs = [tuple(a - b for a, b in zip(x, y)) for x, y in itertools.combinations(pts, 2)]
    rng = random.Random(seed)
    for attempt in range(tries):
        w = [rng.randint(-1000, 1000) for _ in range(ds.d)]
        if not any(w):
            continue
        Nw = isqrt(sum(c * c for c in w)) + 1
        v = tuple(Fraction(c, Nw) for c in w)
        if all(sum((a * b for a, b in zip(v, df)), Fraction(0)) ** 2 >= c2 * _sq(df) for df in diffs):
            return v, attempt
    raise InvalidParameter(f"no v satisfying (72) in {tries} seeded tries (Lemma 2 guarantees one exists; try another seed)")


def _dot(a, b) -> Fraction:
    return sum((x * y for x, y in zip(a, b)), Fraction(0))


# ------------------------------------------------------------------------------------------- the layer


@dataclass(slots=True, frozen=True)
class KsLayer:
    ds: Dataset
    v: tuple
    K: Fraction          # u^T u' (29), a rational upper bound of the printed value
    wo: Fraction         # W_O = wo e_1, ||W_O u''|| = wo = eps/(4 r_max) (32)
    r: Fraction          # (7)
    v_attempt: int

    @property
    def params(self) -> dict:
        d = self.ds.d
        return {"W_K": [str(self.K * c) for c in self.v], "W_Q": [str(c) for c in self.v],
                "W_V": [str(c) for c in self.v], "W_O": [str(self.wo)] + ["0"] * (d - 1), "s": 1}


def build(ds: Dataset, seed: int = 0) -> KsLayer:
    import flint

    v, attempt = lemma2_vector(ds, seed)
    Vp1 = len(ds.vocab) + 1
    with arb_prec(128):
        dl = 2 * flint.arb(ds.n).log() + 3
        Kball = flint.arb(Vp1) ** 4 * flint.arb(flint.fmpq(PI_HI.numerator, PI_HI.denominator)) * ds.d * dl / (
            8 * flint.arb(flint.fmpq((ds.eps * ds.r_min).numerator, (ds.eps * ds.r_min).denominator)))
        K = Fraction(math.ceil(upper_fraction(Kball) * 1024), 1024)   # a short dyadic >= K keeps the scores' denominators small
    return KsLayer(ds, v, K, ds.eps / (4 * ds.r_max), ds.r_max + ds.eps / 4, attempt)


def check_lemma3(layer: KsLayer) -> dict:
    """(74) and (75) for every v_a != v_b, v_c in V, exactly (delta = 2 log n + 3 bounded above)."""
    import flint

    ds = layer.ds
    flint.ctx.prec = 128
    dl_hi = upper_fraction(2 * flint.arb(ds.n).log() + 3)
    p = {t: _dot(layer.v, t) for t in ds.vocab}
    c2 = 8 / (PI_LO * ds.d * Fraction(len(ds.vocab) + 1) ** 4)
    ok75 = all(p[t] ** 2 >= c2 * _sq(t) and p[t] ** 2 <= _sq(t) for t in ds.vocab)
    worst74 = min((abs((p[a] - p[b]) * layer.K * p[c]) for a, b in itertools.permutations(ds.vocab, 2) for c in ds.vocab),
                  default=None)
    return {"eq75": ok75, "eq74_min": worst74, "delta_hi": dl_hi, "eq74": worst74 is None or worst74 > dl_hi}


def delta8(ds: Dataset, pi, log, exp, num):
    """delta of (8) with the given arithmetic (pi as a number of that arithmetic)."""
    W4 = num(len(ds.vocab) + 1) ** 4
    Ln = log(num(ds.n))
    e, rmin, rmax, d = num(ds.eps), num(ds.r_min), num(ds.r_max), num(ds.d)
    pref = 2 * Ln ** 2 * e ** 2 * rmin / (rmax ** 2 * W4 * (2 * Ln + 3) * pi * d)
    return pref * exp(-(W4 * (2 * Ln + 3) * pi * d * rmax ** 2) / (4 * e * rmin))


def r37(ds: Dataset) -> float:
    """r of (37): the bound on the scores, and -log delta ~ 2 r."""
    return float((len(ds.vocab) + 1) ** 4 * math.pi * ds.d * (2 * math.log(ds.n) + 3) * ds.r_max ** 2 / (8 * ds.eps * ds.r_min))


def pairs(ds: Dataset):
    """The (i, k), (j, l) pairs Definition 2 constrains: different vocabularies or different tokens."""
    vs = [frozenset(s) for s in ds.X]
    idx = [(i, k) for i in range(ds.N) for k in range(ds.n)]
    out = []
    for a, b in itertools.combinations(idx, 2):
        (i, k), (j, l) = a, b
        if vs[i] != vs[j] or ds.X[i][k] != ds.X[j][l]:
            out.append((a, b))
    return out


def _outputs(layer: KsLayer, num, exp):
    """q(X^i)_k for all i, k in a given arithmetic: list of per-sequence lists of d-vectors."""
    ds = layer.ds
    outs = []
    for seq in ds.X:
        p = [_dot(layer.v, t) for t in seq]
        row = []
        for k, t in enumerate(seq):
            scores = [layer.K * pk * p[k] for pk in p]
            m = max(scores)
            w = [exp(num(s - m)) for s in scores]            # shifted by the max: exact, and no overflow
            A = sum((num(pk) * wk for pk, wk in zip(p, w)), num(0)) / sum(w, num(0))
            row.append([num(t[0]) + num(layer.wo) * A] + [num(c) for c in t[1:]])
        outs.append(row)
    return outs


def verify_arb(layer: KsLayer, bits: int) -> dict:
    """Rigorous check with arb balls at ``bits``: norms < r and separations > delta_up (None = undecided)."""
    import flint

    ds = layer.ds
    with arb_prec(bits):
        arb = flint.arb
        num = arb_num
        t0 = time.perf_counter()
        outs = _outputs(layer, num, lambda x: x.exp())
        dup = delta8(ds, num(PI_LO), lambda x: x.log(), lambda x: x.exp(), num)
        r2 = num(layer.r) ** 2
        norms_ok = [all(sum((c * c for c in o), arb(0)) < r2 for o in row) for row in outs]
        seps, undecided, worst = [], 0, None
        for (i, k), (j, l) in pairs(ds):
            dist2 = sum(((a - b) ** 2 for a, b in zip(outs[i][k], outs[j][l])), arb(0))
            ok = dist2 > dup ** 2
            if not ok and not (dist2 <= dup ** 2):
                undecided += 1
            seps.append(bool(ok))
            if worst is None or dist2.upper() < worst.upper():
                worst = dist2
        seconds = time.perf_counter() - t0
        log10_sep = float(worst.log().mid()) / 2 / math.log(10) if worst is not None and worst > 0 else None
        log10_delta = float(dup.log().mid()) / math.log(10)
        return {"bits": bits, "norms_ok": all(norms_ok), "separated": all(seps), "undecided": undecided,
                "pairs": len(seps), "log10_min_separation": log10_sep, "log10_delta_up": log10_delta,
                "seconds": seconds}


def verify_mpmath(layer: KsLayer, dps: int) -> dict:
    """The reference: the same computation in mpmath at ``dps`` digits (not a proof)."""
    import mpmath as mp

    ds = layer.ds
    with mp.workdps(dps):
        num = lambda q: mp.mpf(Fraction(q).numerator) / Fraction(q).denominator  # noqa: E731
        t0 = time.perf_counter()
        outs = _outputs(layer, num, mp.exp)
        dup = delta8(ds, num(PI_LO), mp.log, mp.exp, num)
        worst = min(mp.sqrt(sum((a - b) ** 2 for a, b in zip(outs[i][k], outs[j][l]))) for (i, k), (j, l) in pairs(ds))
        seconds = time.perf_counter() - t0
        return {"dps": dps, "log10_min_separation": float(mp.log10(worst)) if worst > 0 else None,
                "separated": bool(worst > dup), "seconds": seconds}


def log_delta8(ds: Dataset) -> float:
    """ln delta of (8) in float64 (delta itself is far below float64's range for every dataset tried)."""
    return math.log(2 * math.log(ds.n) ** 2) + 2 * math.log(float(ds.eps)) + math.log(float(ds.r_min)) \
        - 2 * math.log(float(ds.r_max)) - 4 * math.log(len(ds.vocab) + 1) - math.log(2 * math.log(ds.n) + 3) \
        - math.log(math.pi * ds.d) - 2 * r37(ds)


def verify_float64(layer: KsLayer) -> dict:
    """The same construction in float64. It must not pass when float64 cannot represent what the check
    needs: delta_(8) (underflow) and separations far below the outputs' resolution (r 2^-52)."""
    ds = layer.ds
    log_delta = log_delta8(ds)
    resolution = float(layer.r) * 2.0 ** -52
    if log_delta < math.log(resolution):
        return {"verdict": "UNKNOWN", "reason": f"float64 cannot represent delta = exp({log_delta:.6g}): "
                f"it is below the outputs' resolution r 2^-52 = {resolution:.3g} (and below the smallest double, "
                f"exp(-745), when log delta < -745)", "log_delta": log_delta}
    import numpy as np
    outs = _outputs(layer, lambda q: np.float64(float(q)), np.exp)
    delta = math.exp(log_delta)
    ok = all(math.dist(outs[i][k], outs[j][l]) > delta for (i, k), (j, l) in pairs(ds))
    return {"verdict": "CONFIRMED" if ok else "REFUTED", "reason": "float64 evaluation (not a proof)", "log_delta": log_delta}


def choose_bits(ds: Dataset) -> int:
    """Working precision from delta: -log2 delta ~ 2 r / ln 2 plus the size of the outputs and a margin."""
    need = 2 * r37(ds) / math.log(2) + 64 + 4 * math.log2(len(ds.vocab) + 2) + 2 * ds.n
    return int(min(MAX_BITS, max(128, math.ceil(need))))


def certify_layer(layer: KsLayer, bits: int):
    """One closed claim over exact rationals and exp: every output norm < r, and every pair Definition 2
    constrains is more than delta_up >= delta_(8) apart (squared norms), re-checked by the checker."""
    from attncert.core.claims import Obligation, claim
    from attncert.core.expr import add, and_, exp, log, num

    ds = layer.ds
    outs = _outputs(layer, num, exp)
    dup = delta8(ds, num(PI_LO), log, exp, num)
    parts = [add(*[c * c for c in o]) < num(layer.r) ** 2 for row in outs for o in row]
    for (i, k), (j, l) in pairs(ds):
        parts.append(add(*[(a - b) * (a - b) for a, b in zip(outs[i][k], outs[j][l])]) > dup * dup)
    label = dataset_label(ds)
    stmt = (f"KS Theorem 2 built ({label}): the rank-1 layer (29)-(32) is an (r, delta)-contextual mapping on this "
            f"dataset, r = r_max + eps/4 = {layer.r}, delta = (8) (with pi -> 333/106, which enlarges it)")
    return Obligation(id=f"ks.thm2.construct.{label}", paper="ks", ref="ks:Thm 2 (7)-(8), A.2 (29)-(32), built",
                      statement=stmt, claim=claim([], [], and_(*parts)), methods=("interval",),
                      options=(("bits", (bits, 2 * bits)),
                               ("uses", ("ks.thm.lemma3.statement_74_75", "ks.thm.lemma3.chain_79", "ks.thm.thm2.plug_45"))),
                      family="ks_thm2_construct")


def arb_num(q):
    """An exact rational as an arb ball (at the context's precision)."""
    import flint

    q = Fraction(q)
    return flint.arb(flint.fmpq(q.numerator, q.denominator))


def dataset_label(ds: Dataset) -> str:
    """The dataset's part of a certificate id: its shape and a digest of its content."""
    return f"N{ds.N}_n{ds.n}_d{ds.d}_V{len(ds.vocab)}_" + _digest(ds)


def _digest(ds: Dataset) -> str:
    import hashlib

    return hashlib.sha256(json.dumps(ds.to_json(), sort_keys=True).encode()).hexdigest()[:10]


@dataclass(slots=True, frozen=True)
class KsRun:
    layer: KsLayer
    lemma3: dict
    bits: int
    arb: dict
    mpmath: dict | None
    float64: dict
    cert_bits: int


def run(ds: Dataset, seed: int = 0, reference: bool = True) -> KsRun:
    """Build, then check with arb at the precision chosen from delta (doubling while undecided), the mpmath
    reference at the same number of digits, and float64."""
    layer = build(ds, seed)
    l3 = check_lemma3(layer)
    bits = choose_bits(ds)
    res = verify_arb(layer, bits)
    while res["undecided"] and bits < MAX_BITS:
        bits = min(MAX_BITS, 2 * bits)
        res = verify_arb(layer, bits)
    mpr = verify_mpmath(layer, int(bits * 0.30103) + 10) if reference else None
    f64 = verify_float64(layer)
    sep = res["log10_min_separation"]
    cert_bits = bits if sep is None else int(min(bits, max(128, math.ceil(-sep * 3.3219280948873626) + 128)))
    return KsRun(layer, l3, bits, res, mpr, f64, cert_bits)
