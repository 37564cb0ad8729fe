"""`attncert bound`: the explicit constants of Theorems 4 and 5 (attncert.papers.infoflow.bounds)."""

from __future__ import annotations



from attncert.core.errors import UsageError
from attncert.cli.common import write_json
from attncert.cli.witness import _require


def _dec(x, up: bool) -> str:
    """A 7-significant-digit decimal rounded outward (down for lower ends, up for upper ends)."""
    from decimal import ROUND_CEILING, ROUND_FLOOR, Context, Decimal

    ctx = Context(prec=7, rounding=ROUND_CEILING if up else ROUND_FLOOR)
    return str(ctx.divide(Decimal(x.numerator), Decimal(x.denominator)))


def _iv(i) -> str:
    return f"[{_dec(i.lo, False)}, {_dec(i.hi, True)}]"


def _big(v) -> str:
    """An exact integer or rational as written when short, else in scientific form with its digit count
    (never a long integer: Python refuses str() of integers above 4300 digits)."""
    from attncert.core.params import log10_of, sci

    if v == 0:
        return "0"
    size = log10_of(v.numerator) + log10_of(v.denominator) if hasattr(v, "denominator") else log10_of(v)
    if size < 40:
        return str(v)
    if hasattr(v, "denominator") and v.denominator != 1:
        return f"about {sci(v, digits=7)}"
    return f"about {sci(v, digits=7)} ({int(size) + 1} digits)"


def _bound_tail(b, args, out) -> int:
    """The lines every `bound` ends with: the steps it rests on, and the JSON record."""
    out.write("  enclosures are rigorous (rational interval arithmetic); steps: " + ", ".join(b.uses) + "\n")
    if args.json:
        write_json(args.json, b.to_json())
    return 0


def _bound_thm4(args, out) -> int:
    from attncert.papers.infoflow.bounds import thm4

    _require(args, "thm4", ("H",), "bound")
    b = thm4(T=args.T, H=args.H, n=args.n, eps=args.eps)
    out.write(f"Theorem 4, first part (InfoFlow A.1): T={b.T} H={b.H} n={b.n} eps={_big(b.eps)}  (T0 = T - H - 1 = {b.T0})\n")
    out.write(f"  exponent (Thm 4):           k = T0/(H(n+1)+1) - 1 = {b.k}   (informal Thm 1: {b.k_informal})\n")
    out.write(f"  points b_i (10):            L = C/H = {b.L} with C = {b.C} (exact points: attncert.papers.infoflow.depth.b_points)\n")
    out.write(f"  |U_j| (12):                 m = floor(L^2/(4 T0 eps)) = {_big(b.m)}"
              + ("" if b.m else f"  (U_j empty: needs eps <= L^2/(4 T0) = {b.eps_U})") + "\n")
    out.write(f"  cells, average (L408):      cube side {_dec(b.s_cell, False)} -> {_big(b.cells_average)} cells per head\n")
    out.write(f"  cells, ratio of sums:       ratio 1 + {_dec(b.delta_cell, False)} -> {_big(b.cells_ratio)} cells per head\n")
    out.write(f"  pigeonhole (13):            choices m^T0 has {b.choices_digits} digits, cells {b.cells_digits} digits: "
              f"{'APPLIES' if b.pigeonhole_applies else 'does not apply at this eps'}\n")
    out.write(f"  threshold:                  the pigeonhole applies for every eps < eps0, eps0 in {_iv(b.eps0)}\n")
    if b.lemma4_ratio is None:   # no pigeonhole pair, no lower bound: print none rather than one that does not apply
        out.write("  lower bound (Lemma 4):      none at this eps: it rests on the pigeonhole pair, which does not "
                  "apply here; take eps < eps0\n")
    else:
        out.write(f"  lower bound (Lemma 4):      params = Omega(B/(A sqrt E)), B/(A sqrt E) in {_iv(b.lemma4_ratio)} "
                  f"(= 4 eps^(-k)/(E^(3/2) sqrt H); Lemma 4's constant is cited, not derived)\n")
    return _bound_tail(b, args, out)


def cmd_bound(args, out, err) -> int:
    from attncert.papers.infoflow.bounds import thm5

    if args.name == "thm4":
        return _bound_thm4(args, out)
    if args.name != "thm5":
        raise UsageError(f"unknown bound {args.name!r}; available: thm4, thm5")
    _require(args, "thm5", ("k",), "bound")
    b = thm5(T=args.T, k=args.k, n=args.n, eps=args.eps)
    out.write(f"Theorem 5 (InfoFlow A.2): T={b.T} k={b.k} n={b.n} eps={_big(b.eps)}  (m = T - k + 1 = {b.m})\n")
    out.write(f"  eps range (L609):           0 < eps < 1/(64 m) = {b.eps_max}: ok\n")
    out.write(f"  grid (L613):                N = floor(1/(16 m eps)) = {_big(b.N)}, Delta = 4 eps = {_big(b.Delta)}\n")
    out.write(f"  'N large enough' (L647):    printed cube count needs N >= N0 = {b.N0_printed_count}: "
              f"{'holds' if b.printed_count_applies else 'FAILS (use the exact count, which needs no threshold)'}\n")
    out.write(f"  cube side (L641):           eta = 4 m N^(-m/(n+1)) in {_iv(b.eta)}\n")
    out.write(f"  width of f2 (L766):         p >= (k-1) eps / (n eta) in {_iv(b.width_lower)}, so p >= {_big(b.width_lower_int)}\n")
    out.write(f"  explicit bound (L786):      p >= C * (1/eps)^({b.exponent}), C = (k-1)/(4mn) (3/(64m))^(m/(n+1)) in {_iv(b.C)}\n")
    out.write(f"                              at this eps: C * eps^(1 - m/(n+1)) in {_iv(b.C_eps_bound)}\n")
    out.write(f"  exponent of 1/eps:          proof {b.exponent}; Theorem 5 as stated {b.exponent_formal}; "
              f"Theorem 2 as stated {b.exponent_informal}\n")
    return _bound_tail(b, args, out)
