"""Kajitsuka-Sato Corollary 1, built: the feed-forward block that maps each context id of the Theorem 2 layer
to its label, so that F(X^(i)) = F^(FF)(F_S^(SA)(X^(i))) = Y^(i) (17) holds exactly on a concrete dataset.

The proof (A.3) cites the memorising network of Zhang et al. (2016): one hidden layer, sum_j w_j relu(a^T h - b_j),
fitted to the targets by a triangular linear system. Its weights are real; here they must be rational and the
equality (17) exact, while the context ids (the attention outputs) are irrational (they contain exp). So this
construction differs in two documented ways:

- **the skip connection of (3) is cancelled exactly**: F^(FF)(H)_k = H_k + W2 relu(W1 H_k + b1) + b2, and the
  2d hidden units relu(H_c), relu(-H_c) with output weights -1, +1 remove H_k (relu(x) - relu(-x) = x);
- **plateaus instead of interpolation**: along a rational direction p, the m distinct context ids project to
  z_1 < ... < z_m, separated (checked with arb balls); between z_j and z_(j+1) a ramp of width h_j = 2^-k_j,
  relu(z - b_j + h_j) - relu(z - b_j), is 0 below b_j - h_j and h_j above b_j, and every z_i lies outside every
  ramp. The output is then exactly b2 + sum over the ramps below z_i of (y_(j+1) - y_j) = y_i, a rational label.
  The ends b_j = (z_j + z_(j+1)) / 2 are the midpoints of consecutive projections, exact expressions in exp
  (the gaps are of the order of delta, 10^-14000 for the default dataset, so a rational between them would
  have tens of thousands of digits); the first-layer biases are therefore exact closed-form reals, every other
  weight is rational.

What is proved, and how: (i) every projection is on its side of every ramp (strict inequalities between exp
expressions over rationals, decided by arb balls and certified as one closed claim that the checker re-runs);
(ii) the ramp and relu facts for all reals (the obligations ks.thm.cor1.ramp_low, ramp_high, relu_split, SMT);
(iii) the telescoping sum, in exact rational arithmetic. Together: F(X^(i)) = Y^(i) for every i.

Labels: Y^(i)_(:,k) in [C]^d, drawn with a seed from the context id (the vocabulary set and the token), so the
dataset is consistently labelled as Corollary 1 requires. The parameter count (nonzero weights and biases) is
reported beside the paper's 4(s + d) + d(2nN + d)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from attncert.papers.ks.construct import KsLayer, _outputs, arb_num, dataset_label

MAX_TRIES = 64


def context_key(ds, i: int, k: int):
    """The context id's key: outputs with equal keys are equal (same vocabulary set, same token; the layer is
    permutation invariant over the sequence), and Theorem 2 separates outputs with different keys."""
    return (tuple(sorted(ds.X[i])), ds.X[i][k])


def labels(ds, C: int, d: int, seed: int) -> dict:
    """A consistent labelling: key -> label in [C]^d (seeded)."""
    rng = random.Random(f"ks-cor1-labels-{seed}")
    keys = sorted({context_key(ds, i, k) for i in range(ds.N) for k in range(ds.n)})
    return {key: tuple(rng.randint(1, C) for _ in range(d)) for key in keys}


@dataclass(slots=True, frozen=True)
class MemoNet:
    p: tuple                 # projection direction (rationals)
    order: tuple             # context-id keys sorted by projection
    k: tuple                 # ramp widths h_j = 2^-k_j, j = 1..m-1
    y: tuple                 # labels in projection order
    d: int

    @property
    def h(self) -> tuple:
        return tuple(Fraction(1, 1 << kj) for kj in self.k)

    @property
    def live(self) -> tuple:
        """The ramps whose two labels differ; a ramp with equal labels would add 0 and has no units."""
        return tuple(j for j in range(len(self.k)) if self.y[j + 1] != self.y[j])

    def weights(self):
        """(W1 rows, b1, W2 columns, b2) of (3): hidden units = 2d cancelling units, then two units per ramp.
        b1 entries are Fractions, or ("ramp start" | "ramp end", j) for -b_j + h_j and -b_j, with b_j the midpoint
        of the projections of the j-th and (j+1)-th context ids (an exact expression in exp)."""
        d = self.d
        unit = lambda c, s: tuple(Fraction(s) if t == c else Fraction(0) for t in range(d))  # noqa: E731
        W1 = [unit(c, 1) for c in range(d)] + [unit(c, -1) for c in range(d)]
        b1: list = [Fraction(0)] * (2 * d)
        cols = [tuple(Fraction(-1) if t == c else Fraction(0) for t in range(d)) for c in range(d)]
        cols += [tuple(Fraction(1) if t == c else Fraction(0) for t in range(d)) for c in range(d)]
        for j in self.live:
            dy = [Fraction(self.y[j + 1][c] - self.y[j][c]) * (1 << self.k[j]) for c in range(d)]
            W1 += [self.p, self.p]
            b1 += [("ramp start", j), ("ramp end", j)]
            cols += [tuple(dy), tuple(-x for x in dy)]
        b2 = tuple(Fraction(v) for v in self.y[0])
        return W1, b1, cols, b2

    def param_count(self) -> int:
        W1, b1, cols, b2 = self.weights()
        return sum(1 for row in W1 for x in row if x) + sum(1 for x in b1 if not isinstance(x, Fraction) or x) \
            + sum(1 for col in cols for x in col if x) + sum(1 for x in b2 if x)


def build(layer: KsLayer, C: int, seed: int, bits: int) -> tuple[MemoNet | None, dict]:
    """The memorising block for the layer's dataset, or None with the reason; plus the facts for the report."""
    import flint

    from attncert.backends.arb import lower_fraction, upper_fraction
    from attncert.numeric.evaluate import arb_prec

    ds = layer.ds
    lab = labels(ds, C, ds.d, seed)
    rep = {}
    for i in range(ds.N):
        for k in range(ds.n):
            rep.setdefault(context_key(ds, i, k), (i, k))
    keys = sorted(rep)
    rng = random.Random(f"ks-cor1-direction-{seed}")
    with arb_prec(bits):
        outs = _outputs(layer, arb_num, lambda x: x.exp())
        for attempt in range(MAX_TRIES):
            p = tuple(Fraction(1) if c == 0 else Fraction(rng.randint(-64, 64), 64) for c in range(ds.d)) \
                if attempt else tuple(Fraction(int(c == 0)) for c in range(ds.d))
            z = {key: sum((arb_num(pc) * h for pc, h in zip(p, outs[rep[key][0]][rep[key][1]])), flint.arb(0))
                 for key in keys}
            lo = {key: lower_fraction(z[key]) for key in keys}
            hi = {key: upper_fraction(z[key]) for key in keys}
            order = sorted(keys, key=lambda key: lo[key])
            gaps = [lo[order[j + 1]] - hi[order[j]] for j in range(len(order) - 1)]
            if all(g > 0 for g in gaps):
                break
        else:
            return None, {"reason": f"no direction in {MAX_TRIES} tries separates the {len(keys)} context ids at "
                                    f"{bits} bits", "ids": len(keys)}
    ks = []
    for g in gaps:              # h_j = 2^-k_j <= gap_j / 3 (the gap bounded below by the balls' ends)
        kj = max(0, (3 * g.denominator // max(g.numerator, 1)).bit_length())
        while Fraction(3, 1 << kj) > g:
            kj += 1
        ks.append(kj)
    net = MemoNet(p, tuple(order), tuple(ks), tuple(lab[key] for key in order), ds.d)
    return net, {"ids": len(keys), "direction_attempt": attempt, "labels": lab, "rep": rep, "bits": bits}


def sides(net: MemoNet) -> list[tuple[int, int, str]]:
    """(id index, ramp index, 'below' | 'above'): where each projection must lie for each live ramp."""
    return [(i, j, "above" if i > j else "below") for i in range(len(net.order)) for j in net.live]


def _projections(layer: KsLayer, net: MemoNet, rep: dict, num, exp):
    """z_i = p^T q(X)_k for the context ids in projection order, and the ramp ends b_j = (z_j + z_(j+1)) / 2."""
    outs = _outputs(layer, num, exp)
    z = []
    for key in net.order:
        H = outs[rep[key][0]][rep[key][1]]
        terms = [num(pc) * hc for pc, hc in zip(net.p, H) if pc]
        acc = terms[0]
        for t in terms[1:]:
            acc = acc + t
        z.append(acc)
    b = [(z[j] + z[j + 1]) / num(2) for j in range(len(z) - 1)]
    return z, b


def check_sides_arb(layer: KsLayer, net: MemoNet, rep: dict, bits: int) -> dict:
    """Every projection strictly on its side of every ramp, by arb balls (an undecided comparison counts)."""
    from attncert.numeric.evaluate import arb_prec

    with arb_prec(bits):
        z, b = _projections(layer, net, rep, arb_num, lambda x: x.exp())
        ok = undecided = 0
        for i, j, side in sides(net):
            if side == "below":
                lim = b[j] - arb_num(net.h[j])
                res, decided = z[i] < lim, (z[i] < lim) or (z[i] >= lim)
            else:
                res, decided = z[i] > b[j], (z[i] > b[j]) or (z[i] <= b[j])
            ok += bool(res)
            undecided += not decided
    return {"checks": len(sides(net)), "ok": ok, "undecided": undecided, "all": ok == len(sides(net))}


def check_structure(net: MemoNet) -> list[str]:
    """What ``outputs_exact`` relies on, read off ``weights()`` itself (empty: all holds): the first 2d units are
    relu(H_c), relu(-H_c) with bias 0 and output weights -e_c, +e_c; then per live ramp j two units with rows p
    and biases -b_j + h_j, -b_j whose output columns are w and -w with w = (y_(j+1) - y_j) / h_j; b2 = y_1."""
    W1, b1, cols, b2 = net.weights()
    d, problems = net.d, []
    e = lambda c, s: tuple(Fraction(s) if t == c else Fraction(0) for t in range(d))  # noqa: E731
    for c in range(d):
        if not (W1[c] == e(c, 1) and W1[d + c] == e(c, -1) and b1[c] == 0 and b1[d + c] == 0
                and cols[c] == e(c, -1) and cols[d + c] == e(c, 1)):
            problems.append(f"cancelling units of coordinate {c} are not relu(H_c), relu(-H_c) with weights -1, +1")
    if len(W1) != 2 * d + 2 * len(net.live) or len(b1) != len(W1) or len(cols) != len(W1):
        problems.append("the number of units is not 2d + 2 per live ramp")
        return problems
    for t, j in enumerate(net.live):
        u = 2 * d + 2 * t
        w = tuple((Fraction(net.y[j + 1][c]) - net.y[j][c]) / net.h[j] for c in range(d))
        if not (W1[u] == net.p and W1[u + 1] == net.p and b1[u] == ("ramp start", j) and b1[u + 1] == ("ramp end", j)
                and cols[u] == w and cols[u + 1] == tuple(-x for x in w)):
            problems.append(f"the units of ramp {j} are not relu(p^T H - b_j + h_j), relu(p^T H - b_j) with weights w, -w")
    if b2 != tuple(Fraction(v) for v in net.y[0]):
        problems.append("b2 is not the first label")
    return problems


def outputs_exact(net: MemoNet, ds, rep: dict) -> dict:
    """F(X^(i))_k = H + W2 relu(W1 H + b1) + b2 for every (i, k), in exact arithmetic, from ``weights()``, given
    the structure (``check_structure``, which must be empty) and the sides (certified separately): the
    cancelling units give -H (relu(x) - relu(-x) = x), a ramp's two units give w h_j above it and 0 below it.
    Returns {(i, k): label tuple}."""
    problems = check_structure(net)
    if problems:
        raise ValueError("the block is not the memorising block: " + "; ".join(problems))
    W1, b1, cols, b2 = net.weights()
    d = net.d
    pos = {key: t for t, key in enumerate(net.order)}
    out = {}
    for i in range(ds.N):
        for k in range(ds.n):
            t = pos[context_key(ds, i, k)]
            acc = list(b2)                                   # H + (-H) from the cancelling units: 0
            for u, j in enumerate(net.live):
                if t > j:                                    # above ramp j: relu(z-b+h) - relu(z-b) = h_j
                    for c in range(d):
                        acc[c] += cols[2 * d + 2 * u][c] * net.h[j]
            out[(i, k)] = tuple(acc)
    return out


def mpmath_outputs(layer: KsLayer, net: MemoNet, rep: dict, dps: int) -> float:
    """The reference: the whole block (3) evaluated on the attention outputs in mpmath at ``dps`` digits;
    returns max |F(X^(i))_k - Y^(i)_k| over all tokens (not a proof)."""
    import mpmath as mp

    ds = layer.ds
    W1, b1, cols, b2 = net.weights()
    lab = {key: y for key, y in zip(net.order, net.y)}
    worst = mp.mpf(0)
    with mp.workdps(dps):
        num = lambda q: mp.mpf(Fraction(q).numerator) / Fraction(q).denominator  # noqa: E731
        outs = _outputs(layer, num, mp.exp)
        _, bends = _projections(layer, net, rep, num, mp.exp)
        bias = [num(x) if isinstance(x, Fraction) else (-bends[x[1]] + num(net.h[x[1]]) if x[0] == "ramp start"
                                                         else -bends[x[1]]) for x in b1]
        for i in range(ds.N):
            for k in range(ds.n):
                H = outs[i][k]
                hidden = [max(mp.mpf(0), sum(num(w) * x for w, x in zip(row, H)) + bb) for row, bb in zip(W1, bias)]
                F = [H[c] + sum(num(col[c]) * u for col, u in zip(cols, hidden)) + num(b2[c]) for c in range(ds.d)]
                y = lab[context_key(ds, i, k)]
                worst = max(worst, max(abs(F[c] - y[c]) for c in range(ds.d)))
        return float(worst)


def _two_to_minus(k: int) -> tuple:
    """2^-k as an expression tree: as a rational it would need thousands of digits, and the checker allows
    exponents up to 10^4, so (2^-a)^b * 2^-c with k = a b + c."""
    two = ("num", Fraction(2))
    if k <= 10_000:
        return ("pow", two, -k)
    b = -(-k // 10_000)
    a, c = k // b, k % b
    node = ("pow", ("pow", two, -a), b)
    return ("mul", node, ("pow", two, -c)) if c else node


def cert_bits(net: MemoNet, layer: KsLayer) -> int:
    """The precision of the sides certificate: the narrowest ramp (2^-k) with a margin for the outputs' size."""
    return max(128, max((net.k[j] for j in net.live), default=0) + 192 + int(layer.r).bit_length())


def certify_sides(layer: KsLayer, net: MemoNet, rep: dict, bits: int, tag: str = ""):
    """One closed claim: every projection p^T q(X^(i))_k strictly on its side of every ramp (exp expressions
    over rationals); decided by arb and re-checked by the checker."""
    from attncert.core.claims import Obligation, claim
    from attncert.core.expr import E, and_, exp, num

    ds = layer.ds
    z, bends = _projections(layer, net, rep, num, exp)
    h = [E(_two_to_minus(kj)) for kj in net.k]
    parts = [z[i] < bends[j] - h[j] if side == "below" else z[i] > bends[j] for i, j, side in sides(net)]
    label = dataset_label(ds) + tag
    if not parts:
        parts = [num(0) < num(1)]        # one label for every id: no ramp, nothing to place
    stmt = (f"KS Corollary 1 built ({label}): along p = ({', '.join(map(str, net.p))}), each of the {len(net.order)} "
            f"context ids of the Theorem 2 layer lies strictly outside every ramp [b_j - h_j, b_j] of the memorising "
            f"block (b_j the midpoint of consecutive projections, h_j = 2^-k_j), on its designed side (with ks.thm.cor1.ramp_low/ramp_high/relu_split this gives (17) exactly)")
    return Obligation(id=f"ks.cor1.construct.{label}", paper="ks", ref="ks:Cor 1 (17), A.3, built",
                      statement=stmt, claim=claim([], [], and_(*parts) if len(parts) > 1 else parts[0]),
                      methods=("interval",), options=(("bits", (bits, 2 * bits)),),
                      family="ks_cor1_construct")


def paper_param_counts(ds, s: int = 1) -> tuple[int, int]:
    """The two terms of Corollary 1's count 4(s + d) + d(2nN + d): the attention layer's and the block's."""
    return 4 * (s + ds.d), ds.d * (2 * ds.n * ds.N + ds.d)


def attention_param_count(layer: KsLayer) -> int:
    """Nonzero entries of the rank-1 layer's W_K, W_Q, W_V (s x d each) and W_O (d x s)."""
    p = layer.params
    return sum(1 for k in ("W_K", "W_Q", "W_V", "W_O") for x in p[k] if Fraction(x) != 0)

