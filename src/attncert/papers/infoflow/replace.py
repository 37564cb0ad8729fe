"""The tanh replacement of InfoFlow A.3 (Lemma 1, L900-943, and the replacement argument, L945-1000), built
on the Heaviside construction of ``construct.thm6`` with explicit A, B, C, D and a rigorous L_p error bound.

Measure and norm (the paper leaves both implicit, L965): V is uniform on [0,1]^m, and the error of a map
F is ||V - F(V)||_{L_p} = (E ||V - F(V)||_p^p)^{1/p} with the pointwise l_p norm of L839.

Every Heaviside unit H(z) becomes A tanh(B z + C) + D with A = D = 1/2 (L943): in unit terms the unit
reading x with threshold t computes 1/2 tanh(B x + (C - B t)) + 1/2. Units are replaced decoder first,
then encoder (the order of L949: a unit that feeds no remaining Heaviside unit). For unit r, Lemma 1 on
the pushforward nu_r of the input measure under z_r gives

  ||H - phi_r||_{L_p(nu_r)}^p <= s(R)^p M + s(R)^p M + nu_r((-eta, eta) minus {0}) + s(C)^p nu_r({0})   (L934)

with s(x) = (1 - tanh x)/2 = 1/(1 + e^{2x}), M = nu_r([a, b]) = 1, and B chosen so that -B eta + C <= -R
and B eta + C >= R (L930). Then (L975-985, with the per-unit weights made explicit):

  decoder unit (i, k): downstream is linear with output weights a_{(i,k)}, so the change is at most
      ||a_{(i,k)}||_1 * E_dec in L_p;  nu = law of u_i under the Heaviside encoder, which lives on
      2^-q Z (every packed value is a q-bit fraction), so with eta = 2^-q the window has mass 0
      and the atom at 0 has mass <= 1: E_dec^p = 2 s(R_d)^p + s(C_d)^p.
  encoder unit (j, t): downstream is the (already tanh) decoder fed through the latent weights w, so the
      change is at most sum_i |w_{i,(j,t)}| Lip(D_i) * E_enc with Lip(D_i) <= (B_d / 2) S_i,
      S_i = sum_k ||a_{(i,k)}||_1;  nu = uniform law of V_j - t 2^-L: no atom, window mass 2 eta_e
      (eta_e <= 2^-L keeps the window inside the range): E_enc^p = 2 s(R_e)^p + 2 eta_e, and C_e = 0.

Summing over units (Minkowski, L985) and adding the Heaviside truncation error m^{1/p} 2^-L (L839) by
the triangle inequality (L1000) gives the certified claim

  Lambda_dec E_dec + Lambda_enc E_enc <= eps/2   and   m^{1/p} 2^-L + Lambda_dec E_dec + Lambda_enc E_enc <= eps.

It is ONE closed claim over exact rationals, exp and log, re-checked by the checker's own interval
arithmetic. The constants Lambda are exact sums over the construction's exact weights; ``cell_bound``
checks the built tanh network independently, by exhaustive interval cells, on small instances.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from fractions import Fraction

from attncert.core.claims import Obligation, claim
from attncert.papers.infoflow.construct import Thm6Construction
from attncert.core.errors import InvalidParameter
from attncert.core.expr import E, and_, exp, log, num
from attncert.numeric.evaluate import arb_prec
from attncert.core.params import as_fraction, check_limit

MAX_P = 64
MAX_DECODER_UNITS = 1 << 20
MAX_CELL_WORK = 3 * 10 ** 6
USES = ("infoflow.thm6.lemma1_sum_934", "infoflow.thm6.lemma1_tails_930", "infoflow.thm6.lemma1_B_choice_930",
        "infoflow.thm6.replacement_unit_979", "infoflow.thm6.replacement_sum_985", "infoflow.thm6.triangle_1000",
        "infoflow.thm6.truncation_lp_839")


@dataclass(slots=True, frozen=True)
class Layer:
    """One layer of replaced units: every unit gets these A, B, C, D (its bias is C - B * threshold)."""

    name: str
    units: int
    A: Fraction
    B: Fraction
    C: Fraction
    D: Fraction
    R: Fraction
    eta: Fraction
    window_mass: Fraction     # nu((-eta, eta) minus {0}) for every unit of the layer
    atom_mass: Fraction       # an upper bound on nu({0})
    lipschitz: Fraction       # Lambda: sum over the layer's units of the downstream Lipschitz factor

    def to_json(self) -> dict:
        return {k: (str(v) if isinstance(v, Fraction) else v) for k, v in
                (("layer", self.name), ("units", self.units), ("A", self.A), ("B", self.B), ("C", self.C),
                 ("D", self.D), ("R", self.R), ("eta", self.eta), ("window_mass", self.window_mass),
                 ("atom_mass", self.atom_mass), ("Lambda", self.lipschitz))}


@dataclass(slots=True, frozen=True)
class TanhReplacement:
    con: Thm6Construction
    p: Fraction
    decoder: Layer
    encoder: Layer
    obligation: Obligation
    bound_float: float        # Lambda_dec E_dec + Lambda_enc E_enc (the tanh part), for display
    total_float: float        # plus m^{1/p} 2^-L


def as_p(p) -> Fraction:
    p = as_fraction("p", p)
    if not 1 <= p <= MAX_P:
        raise InvalidParameter(f"p={p}: must be in [1, {MAX_P}] (Theorem 6 bullet 1 takes p >= 1, L808)")
    if p.denominator > 1000:
        raise InvalidParameter(f"p={p}: use a rational with denominator <= 1000")
    return p


# ----------------------------------------------------------------------------------------- weights


def _staircase_weights(entries: dict, groups: int, levels: int) -> dict:
    """For a piecewise-constant map written as a sum of Heaviside steps: group g's value at code c is
    f_g(c) = sum of ``value`` over its entries (target, pos, value) whose bit ``pos`` (1 = most significant
    of ``levels``) is set in c; step t of group g carries the exact differences f_g(t) - f_g(t - 1)."""
    def f(g, c):
        out: dict[int, Fraction] = {}
        for (x, pos, val) in entries.get(g, ()):
            if (c >> (levels - pos)) & 1:
                out[x] = out.get(x, Fraction(0)) + val
        return out

    w = {}
    for g in range(groups):
        prev = f(g, 0)
        for t in range(1, 1 << levels):
            cur = f(g, t)
            w[(g, t)] = {x: cur.get(x, 0) - prev.get(x, 0) for x in set(cur) | set(prev) if cur.get(x, 0) != prev.get(x, 0)}
            prev = cur
    return w


def encoder_weights(con: Thm6Construction) -> dict:
    """w[(j, t)] = {i: g_i(t) - g_i(t - 1)}: the latent weights of encoder unit H(V_j - t 2^-L), where
    g_i(c) is what code c of coordinate j contributes to latent i (bit l of c is bit s of latent i)."""
    entries: dict[int, list] = {}
    for (j, l, i, s) in con.assignment:
        entries.setdefault(j, []).append((i, l, Fraction(1, 1 << s)))
    return _staircase_weights(entries, con.m, con.L)


def decoder_weights(con: Thm6Construction) -> dict:
    """a[(i, k)] = {j: h_j(k) - h_j(k - 1)}: the output weights of decoder unit H(u_i - k 2^-q), where
    h_j(c) is the value that count c of latent i contributes to output coordinate j."""
    entries: dict[int, list] = {}
    for (j, l, i, s) in con.assignment:
        entries.setdefault(i, []).append((j, s, Fraction(1, 1 << l)))
    return _staircase_weights(entries, con.n, con.q)


# ----------------------------------------------------------------------------------------- the claim


def _pow(x: E, p: Fraction) -> E:
    if p.denominator == 1:
        return x ** int(p)
    return exp(num(p) * log(x))


def _root(x: E, p: Fraction) -> E:
    return x if p == 1 else exp(log(x) / num(p))


def _s(x: Fraction) -> E:
    """s(x) = (1 - tanh x)/2 = 1/(1 + e^{2x})."""
    return 1 / (1 + exp(num(2 * x)))


def _ceil_quarter(x: float) -> Fraction:
    return Fraction(math.ceil(4 * x) + 1, 4)


def _dyadic_below(x_log2: float) -> Fraction:
    """A power of two at most 2^x_log2 / 2."""
    return Fraction(1, 1 << (math.ceil(-x_log2) + 1)) if x_log2 < 0 else Fraction(1)


def check_decoder_size(con: Thm6Construction) -> None:
    """Refuse a construction whose decoder, n (2^q - 1) units, is too large to replace (before any work)."""
    check_limit(f"tanh replacement: the decoder has n (2^q - 1) units, q = ceil(m L / n) = {con.q}, that is",
                MAX_DECODER_UNITS, **({"estimate": con.dec_hidden} if con.q <= 64 else
                                      {"log10": math.log10(con.n) + con.q * math.log10(2)}), unit="units",
                hint="use a larger eps or a larger n")


def tanh_replace(con: Thm6Construction, p=2) -> TanhReplacement:
    """Choose A, B, C, D for every unit (per layer) and state the L_p error bound as one closed claim."""
    p = as_p(p)
    check_decoder_size(con)
    eps, pf = con.eps, float(p)
    a = decoder_weights(con)
    l1 = {r: sum(abs(v) for v in row.values()) for r, row in a.items()}
    S = [sum(l1[(i, k)] for k in range(1, 1 << con.q)) for i in range(con.n)]
    lam_dec = sum(S)
    # decoder: delta_d = eps / (4 Lambda_dec); s(R)^p, s(C)^p <= delta^p / 3 via s(x) < e^{-2x}
    ln_delta_d = math.log(eps) - math.log(4 * lam_dec)
    R_d = _ceil_quarter((math.log(3) / pf - ln_delta_d) / 2)
    C_d = R_d
    eta_d = Fraction(1, 1 << con.q)
    B_d = (R_d + C_d) / eta_d
    dec = Layer("decoder", con.dec_hidden, Fraction(1, 2), B_d, C_d, Fraction(1, 2), R_d, eta_d, Fraction(0),
                Fraction(1), lam_dec)
    # encoder: Lambda_enc = (B_d / 2) sum_{(j,t)} sum_i |w_i| S_i
    w = encoder_weights(con)
    lam_enc = B_d / 2 * sum(abs(v) * S[i] for row in w.values() for i, v in row.items())
    ln_delta_e = math.log(eps) - math.log(4 * lam_enc) if lam_enc > 0 else 0.0
    R_e = _ceil_quarter((math.log(4) / pf - ln_delta_e) / 2)
    # 2 eta <= delta^p / 2, and eta <= 2^-L so that the window stays inside the range of V_j - t 2^-L
    eta_e = min(_dyadic_below((pf * ln_delta_e - math.log(4)) / math.log(2)), Fraction(1, 1 << con.L))
    C_e = Fraction(0)
    B_e = (R_e + C_e) / eta_e
    enc = Layer("encoder", con.enc_hidden, Fraction(1, 2), B_e, C_e, Fraction(1, 2), R_e, eta_e, 2 * eta_e,
                Fraction(0), lam_enc)

    ob = replacement_obligation(con, p, dec, enc)
    bound = _float_E(dec, pf) * float(dec.lipschitz) + _float_E(enc, pf) * float(enc.lipschitz)
    total = con.m ** (1 / pf) * 2.0 ** -con.L + bound
    return TanhReplacement(con, p, dec, enc, ob, bound, total)


def replacement_obligation(con: Thm6Construction, p: Fraction, dec: Layer, enc: Layer) -> Obligation:
    """The closed claim for given layer constants (tests plant wrong ones here)."""
    eps = con.eps

    def E_layer(L: Layer) -> E:
        inner = 2 * _pow(_s(L.R), p) * 1 + num(L.window_mass)
        if L.atom_mass:
            inner = inner + _pow(_s(L.C), p) * num(L.atom_mass)
        return _root(inner, p)

    tanh_part = num(dec.lipschitz) * E_layer(dec) + num(enc.lipschitz) * E_layer(enc)
    trunc = _root(num(con.m), p) * num(Fraction(1, 1 << con.L))
    side = []
    for L in (dec, enc):    # Lemma 1's choice of B (L930), exact
        side += [num(-L.B * L.eta + L.C) <= num(-L.R), num(L.B * L.eta + L.C) >= num(L.R), num(L.R) > 0]
    side.append(num(enc.eta) <= num(Fraction(1, 1 << con.L)))
    goal = and_(*side, tanh_part <= num(eps / 2), trunc + tanh_part <= num(eps))
    label = f"T0{con.T0}_d{con.d}_n{con.n}_eps{eps.numerator}_{eps.denominator}_p{p.numerator}_{p.denominator}"
    stmt = (f"tanh replacement ({label}), A = D = 1/2 on every unit: decoder B = {dec.B}, C = {dec.C}; encoder "
            f"B = {enc.B}, C = {enc.C}; then ||V - f2(f1(V))||_Lp <= m^(1/p) 2^-L + Lambda_dec E_dec + "
            f"Lambda_enc E_enc <= eps, the tanh part <= eps/2 (V uniform on [0,1]^{con.m})")
    return Obligation(id=f"infoflow.thm6.tanh.{label}", paper="infoflow", ref="infoflow:A.3 Lemma 1 and L945-1000, built",
                      statement=stmt, claim=claim([], [], goal), methods=("interval",), options=(("uses", USES),),
                      family="infoflow_thm6_construct")


def _float_E(L: Layer, p: float) -> float:
    s = lambda x: math.exp(-2 * float(x)) / (1 + math.exp(-2 * float(x)))  # noqa: E731
    return (2 * s(L.R) ** p + float(L.window_mass) + s(L.C) ** p * float(L.atom_mass)) ** (1 / p)


# ----------------------------------------------------------------------------------------- independent check


def cell_bound(rep: TanhReplacement, bits: int = 192, max_work: int = MAX_CELL_WORK) -> dict:
    """Exhaustive interval cells on the BUILT tanh network (python-flint arb): an upper bound on
    ||V^(L) - f2(f1(V))||_{L_p} over V uniform on [0,1]^m, independent of the Lipschitz argument.

    Each axis is cut at the thresholds t 2^-L into good intervals [t h + eta, (t+1) h - eta] (where V^(L)_j
    = t h) and strips [t h - eta, t h + eta] (where V^(L)_j is in [(t-1) h, t h]); on every product cell the
    network is evaluated in interval arithmetic, and vol * sup ||V^(L) - F||_p^p is summed."""
    try:
        import flint
    except ImportError:
        from attncert.core.errors import BackendUnavailable
        raise BackendUnavailable("python-flint is not installed (pip install python-flint)") from None
    con = rep.con
    per_axis = 2 * (1 << con.L) - 1
    lw = con.m * math.log10(per_axis) + math.log10(con.dec_hidden + con.enc_hidden)
    check_limit(f"cell check: (2^(L+1) - 1)^m cells times units (L = {con.L}, m = {con.m}) need", max_work,
                **({"estimate": per_axis ** con.m * (con.dec_hidden + con.enc_hidden)} if lw < 30 else {"log10": lw}),
                unit="interval evaluations", hint="use a larger eps")
    with arb_prec(bits):
        return _cell_bound(rep, flint)


def _cell_bound(rep: TanhReplacement, flint) -> dict:
    """Intervals are kept as (lo, hi) pairs of exact arb endpoints (one arb ball over a wide interval is
    loose, and arb's tanh of a wide ball is nan); tanh is increasing, so each unit is enclosed by its
    values at the two endpoints of its pre-activation."""
    con, p = rep.con, rep.p
    arb = flint.arb
    q_ = lambda x: arb(flint.fmpq(x.numerator, x.denominator))  # noqa: E731

    def phi(Lr: Layer, zlo, zhi):
        lo = ((1 + (q_(Lr.B) * zlo + q_(Lr.C)).tanh()) / 2).lower()
        hi = ((1 + (q_(Lr.B) * zhi + q_(Lr.C)).tanh()) / 2).upper()
        return lo, hi

    def axpy(acc, w, iv):
        """acc + w * iv for an exact rational w."""
        lo, hi = (iv[0], iv[1]) if w >= 0 else (iv[1], iv[0])
        wq = q_(w)
        return (acc[0] + wq * lo).lower(), (acc[1] + wq * hi).upper()

    h = Fraction(1, 1 << con.L)
    enc, dec = rep.encoder, rep.decoder
    eta = enc.eta
    w = encoder_weights(con)
    a = decoder_weights(con)
    zero = (arb(0), arb(0))
    top = (1 << con.L) - 1
    axis_cells = []   # per axis: (volume, V^(L) interval, contribution interval to each latent)
    for j in range(con.m):
        cells = []
        for t in range(top + 1):
            lo = t * h + (eta if t > 0 else 0)
            hi = (t + 1) * h - (eta if t < top else 0)
            cells.append((hi - lo, lo, hi, (q_(t * h), q_(t * h)), True))
            if t < top:
                cells.append((2 * eta, (t + 1) * h - eta, (t + 1) * h + eta, (q_(t * h), q_((t + 1) * h)), False))
        out = []
        for vol, lo, hi, VL, good in cells:
            contrib = [zero] * con.n
            for t in range(1, top + 1):
                ph = phi(enc, q_(lo - t * h), q_(hi - t * h))
                for i, wi in w[(j, t)].items():
                    contrib[i] = axpy(contrib[i], wi, ph)
            out.append((vol, VL, contrib, good))
        axis_cells.append(out)
    dec_units = [(i, q_(Fraction(k, 1 << con.q)), list(a[(i, k)].items())) for (i, k) in a]
    total = arb(0)
    good_sup = arb(0)   # max over cells away from every encoder threshold of sup ||V^(L) - F||_p^p
    pa = q_(p)
    for combo in itertools.product(*axis_cells):
        vol = Fraction(1)
        u = [zero] * con.n
        for (v, _, contrib, _) in combo:
            vol *= v
            u = [((x[0] + y[0]).lower(), (x[1] + y[1]).upper()) for x, y in zip(u, contrib)]
        F = [zero] * con.m
        for (i, thr, outs) in dec_units:
            ph = phi(dec, u[i][0] - thr, u[i][1] - thr)
            for j, v in outs:
                F[j] = axpy(F[j], v, ph)
        norm_p = arb(0)
        for j in range(con.m):
            VL = combo[j][1]
            d = max((VL[1] - F[j][0]).upper(), (F[j][1] - VL[0]).upper())
            if not d.is_finite():
                raise InvalidParameter("cell check: an interval was not finite (raise the precision)")
            norm_p = norm_p + (d ** pa if d > 0 else arb(0))
        total = total + q_(vol) * norm_p
        if all(c[3] for c in combo):
            good_sup = max(good_sup, norm_p.upper())
    hi = total.upper()
    if not hi.is_finite():
        raise InvalidParameter("cell check did not give a finite bound (raise the precision)")
    lp = (hi ** (1 / pa)).upper() if hi > 0 else arb(0)
    return {"cells": math.prod(len(c) for c in axis_cells), "p": str(p), "tanh_error_Lp_upper": float(lp),
            "good_cells_sup_p": float((good_sup ** (1 / pa)).upper()) if good_sup > 0 else 0.0,
            "lipschitz_bound": rep.bound_float, "ok": bool(lp <= q_(con.eps / 2))}


def forward_mp(rep: TanhReplacement, V, dps: int = 50):
    """The built tanh network f2(f1(V)) in mpmath (for tests and spot checks, not for proofs): returns
    (u, output) as mpf lists. Unit (j, t) of the encoder is 1/2 tanh(B_e (V_j - t 2^-L) + C_e) + 1/2."""
    import mpmath as mp

    con = rep.con
    mpq = lambda x: mp.mpf(x.numerator) / x.denominator  # noqa: E731
    with mp.workdps(dps):
        V = [mp.mpf(v) if not isinstance(v, Fraction) else mpq(v) for v in V]
        enc, dec = rep.encoder, rep.decoder
        u = [mp.mpf(0)] * con.n
        for (j, t), row in encoder_weights(con).items():
            ph = (1 + mp.tanh(mpq(enc.B) * (V[j] - mpq(Fraction(t, 1 << con.L))) + mpq(enc.C))) / 2
            for i, wi in row.items():
                u[i] += mpq(wi) * ph
        out = [mp.mpf(0)] * con.m
        for (i, k), row in decoder_weights(con).items():
            ph = (1 + mp.tanh(mpq(dec.B) * (u[i] - mpq(Fraction(k, 1 << con.q))) + mpq(dec.C))) / 2
            for j, v in row.items():
                out[j] += mpq(v) * ph
        return u, out
