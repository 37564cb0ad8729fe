"""Step 5 and the search of the direct check: the (symmetry-reduced) domain, deterministic depth-first
bisection with a box budget, worker processes over a fixed prefix of sub-boxes, the record, the
mpmath replay of a counterexample and the re-check of a stored split tree (``check_tree``)."""

from __future__ import annotations

import math
from fractions import Fraction

from attncert.core.errors import InvalidParameter
from attncert.numeric.evaluate import arb_prec
from attncert.core.params import as_int
from attncert.papers.infoflow.thm4direct.reduce import MAX_DIRECT_T, reduce
from attncert.papers.infoflow.thm4direct.enclose import PREC, _Consts, _q, evaluate_box


MAX_DEPTH = 48              # bisections along one path below the fixed prefix: then UNKNOWN. With at most


def _in_domain(box, T: int, symmetric: bool) -> bool:
    """Does the box meet the fundamental domain? With the symmetries (signed permutations of the three
    coordinates, checked in ``reduce``, and permutations of the tokens, which equations (1)-(2) and F
    always have): x_1 in {1 >= x_11 >= x_12 >= x_13 >= 0} and x_11 >= |x_ti| for every other token t.
    Every input is mapped into it by one of these symmetries (take for token 1 a token of largest
    sup-norm, flip signs, sort its coordinates), so covering it covers [-1, 1]^(3T)."""
    if not symmetric:
        return True
    (_l1, h1), (l2, h2), (l3, h3) = box[0], box[1], box[2]
    x3 = max(l3, 0.0)          # the smallest feasible x_13, then x_12, then x_11 = h1 (largest is best)
    x2 = max(l2, x3)
    if not (x3 <= h3 and x2 <= h2 and x2 <= h1):
        return False
    return all(h1 >= (lo if lo > 0 else -hi if hi < 0 else 0.0) for lo, hi in box[3:])


def start_box(T: int, symmetric: bool):
    """The root box, with exact dyadic float endpoints."""
    first = [(0.0, 1.0)] * 3 if symmetric else [(-1.0, 1.0)] * 3
    return tuple(first + [(-1.0, 1.0)] * (3 * (T - 1)))


def _volume(box) -> float:
    v = 1.0
    for lo, hi in box:
        v *= hi - lo
    return v


def _exact_mid(lo: float, hi: float) -> bool:
    """Is (lo + hi) / 2 an exact float? (TwoSum: lo + hi without rounding; halving a float is exact.)"""
    s = lo + hi
    bb = s - lo
    return (lo - (s - bb)) + (hi - bb) == 0


def _check_box(box) -> None:
    """A box the evaluator may use: inside [-1, 1], lo < hi, and an exact centre in every coordinate
    (``evaluate_box`` takes (lo + hi) / 2 as the exact centre and (hi - lo) / 2 as the exact radius)."""
    for lo, hi in box:
        if not (-1.0 <= lo < hi <= 1.0 and _exact_mid(lo, hi)):
            raise InvalidParameter(f"box side [{lo!r}, {hi!r}]: not inside [-1, 1] with an exact float midpoint")


def _split(box, j):
    """Bisect along coordinate j. The midpoint must be an exact float, or the halves would not tile the
    box; MAX_DEPTH keeps the search far from that limit."""
    lo, hi = box[j]
    if not _exact_mid(lo, hi):
        raise InvalidParameter("split: the midpoint is not an exact float (box resolution exhausted)")
    mid = (lo + hi) / 2
    return box[:j] + ((lo, mid),) + box[j + 1:], box[:j] + ((mid, hi),) + box[j + 1:]


def _split_order(n: int, levels: int) -> list[int]:
    """The coordinates of the fixed first splits: every coordinate once, ``levels`` times over."""
    return list(range(n)) * levels


def _subboxes(root, levels: int = 1):
    """The root bisected along every coordinate ``levels`` times over: 2^(3T levels) sub-boxes, in preorder."""
    boxes = [root]
    for j in _split_order(len(root), levels):
        boxes = [c for b in boxes for c in _split(b, j)]
    return boxes


def prefix_levels(T: int) -> int:
    """Two rounds of fixed splits for T = 2 (4096 sub-boxes, so that two workers stay busy to the end),
    one for T = 3 (512)."""
    return 2 if T == 2 else 1


def sub_box_count(T: int) -> int:
    """The number of sub-boxes ``direct_check`` cuts the root into: 2^(3T prefix_levels(T)); each gets its
    own ``box_budget``, so a run evaluates at most sub_box_count(T) * box_budget boxes."""
    return 2 ** (3 * T * prefix_levels(T))


SECONDS_PER_BOX = 1e-3   # rough cost of one box evaluation on one core (docs/theorem4.md: about 1 ms per box)


_WORKER: dict = {}


def _subtree(args):
    """Depth-first branch-and-bound of one sub-box (runs in a worker process or inline)."""

    with arb_prec(PREC):
        return _subtree_run(*args)


def _subtree_run(red, eps, budget, box0):
    key = (red, eps)
    if _WORKER.get("key") != key:
        _WORKER.update(key=key, k=_Consts(red), eb=_q(eps))
    k, eb, T = _WORKER["k"], _WORKER["eb"], red.T
    stack = [(box0, 0)]
    code = []
    st = {"evaluated": 0, "leaves": 0, "outside": 0.0, "proved": 0.0, "upper": float("-inf"), "lower": float("inf"),
          "depth": 0}
    while stack:
        box, depth = stack.pop()
        if not _in_domain(box, T, red.symmetric):
            st["outside"] += _volume(box)
            st["leaves"] += 1
            code.append(".")
            continue
        if st["evaluated"] >= budget:
            return {"status": "UNKNOWN", "why": "budget", **st}
        st["evaluated"] += 1
        _check_box(box)
        ok, ub, lb, centre, score = evaluate_box(k, box, eb)
        if ok:
            st["proved"] += _volume(box)
            st["leaves"] += 1
            st["upper"], st["lower"] = max(st["upper"], ub), min(st["lower"], lb)
            st["depth"] = max(st["depth"], depth)
            code.append(".")
            continue
        if centre > eb or centre < -eb:
            xc = [[Fraction((box[3 * t + i][0] + box[3 * t + i][1]) / 2) for i in range(3)] for t in range(T)]
            return {"status": "REFUTED", "counterexample": xc, "centre": str(centre), **st}
        if depth >= MAX_DEPTH:
            return {"status": "UNKNOWN", "why": "depth", **st}
        j = max(range(len(score)), key=lambda m: (score[m], -m))
        code.append(chr(ord("a") + j))
        left, right = _split(box, j)
        stack.append((right, depth + 1))
        stack.append((left, depth + 1))
    return {"status": "PROVED", "code": "".join(code), **st}


def direct_check(net, box_budget: int = 20_000, jobs: int = 1, progress=None, root=None) -> dict:
    """Branch-and-bound of sup |y - F| <= eps over the whole domain. Deterministic for any ``jobs``.

    The root is cut into 2^(3T levels) sub-boxes (``prefix_levels``); each gets at most ``box_budget``
    evaluated boxes. Verdict
    PROVED (every sub-box closed; the record holds the split tree), REFUTED (a box centre violates the
    bound: the first such sub-box in order; the centre is replayed in mpmath) or UNKNOWN (a budget or the
    depth limit ran out, with the volume fraction proved). ``root`` (dyadic float pairs) restricts the run
    to a sub-box, for tests; the record says so, and only the full root is the whole-domain claim."""
    T = as_int("T", net.T, 2)
    if T > MAX_DIRECT_T:
        raise InvalidParameter(f"T={T}: the direct check runs for T <= {MAX_DIRECT_T} (3T input dimensions)")
    box_budget = as_int("box_budget", box_budget, 1)
    jobs = as_int("jobs", jobs, 1)
    red = reduce(net)
    full = start_box(T, red.symmetric)
    root = full if root is None else tuple((float(lo), float(hi)) for lo, hi in root)
    if len(root) != len(full):
        raise InvalidParameter(f"root: must be {len(full)} intervals")
    _check_box(root)
    levels = prefix_levels(T)
    subs = _subboxes(root, levels)
    tasks = [(red, net.eps, box_budget, b) for b in subs]
    results = []
    if jobs == 1:
        it = map(_subtree, tasks)
        pool = None
    else:
        import multiprocessing as mp

        pool = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn").Pool(jobs)
        it = pool.imap(_subtree, tasks, chunksize=1)
    try:
        for n, r in enumerate(it, 1):
            results.append(r)
            if progress:
                progress(n, len(tasks))
            if r["status"] == "REFUTED":
                break
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()
    return _record(net, red, root, subs, results, root == full, levels)


def _record(net, red, root, subs, results, whole, levels) -> dict:
    total = _volume(root)
    agg = {key: sum(r[key] for r in results) for key in ("evaluated", "leaves", "outside", "proved")}
    statuses = [r["status"] for r in results]
    rec = {"T": red.T, "eps": str(net.eps), "variant": net.variant, "beta": net.beta,
           "method": "interval branch-and-bound of the whole network (python-flint arb, monotone mean value form)",
           "boxes_evaluated": agg["evaluated"], "leaves": agg["leaves"],
           "max_depth": max((r["depth"] for r in results), default=0), "symmetric": red.symmetric,
           "domain": ("x_1 in {1 >= x_11 >= x_12 >= x_13 >= 0}, x_11 >= |x_ti| (signed coordinate and token "
                      "permutations)" if red.symmetric else "[-1,1]^(3T)"),
           "volume_proved": agg["proved"] / total, "volume_outside_domain": agg["outside"] / total,
           "sub_boxes": len(subs), "sub_boxes_done": len(results), "whole_domain": whole,
           "root": [[float(lo), float(hi)] for lo, hi in root],
           "sup_bound": max((r["upper"] for r in results if math.isfinite(r["upper"])), default=None),
           "inf_bound": min((r["lower"] for r in results if math.isfinite(r["lower"])), default=None)}
    if "REFUTED" in statuses:
        r = results[statuses.index("REFUTED")]
        rec.update(verdict="REFUTED", counterexample=[[str(c) for c in row] for row in r["counterexample"]],
                   centre_value=r["centre"])
    elif all(s_ == "PROVED" for s_ in statuses):
        rec.update(verdict="PROVED", tree=_join_codes(_split_order(len(root), levels), [r["code"] for r in results]))
    else:
        whys = sorted({r["why"] for r in results if r["status"] == "UNKNOWN"})
        rec.update(verdict="UNKNOWN", reason=(
            f"{statuses.count('UNKNOWN')} of {len(subs)} sub-boxes ran out of "
            + " and ".join({"budget": "the box budget", "depth": f"depth ({MAX_DEPTH} bisections)"}[w] for w in whys)
            + f"; {rec['volume_proved'] + rec['volume_outside_domain']:.3%} of the root box's volume is decided"))
    return rec


def _join_codes(order: list[int], codes: list[str]) -> str:
    """The preorder code of the whole tree: the fixed splits (coordinates ``order``, level by level), then
    the sub-trees in order."""
    it = iter(codes)

    def walk(level):
        if level == len(order):
            return next(it)
        return chr(ord("a") + order[level]) + walk(level + 1) + walk(level + 1)

    return walk(0)


def replay(net, counterexample, dps: int = 50) -> dict:
    """Re-evaluate a counterexample (exact dyadic rationals) in mpmath through the stored weights."""
    import mpmath

    from attncert.papers.infoflow.thm4net import forward_mp

    X = [[Fraction(c) for c in row] for row in counterexample]
    y, Fv = forward_mp(net, X, dps=dps)
    with mpmath.workdps(dps):
        err = abs(y - Fv)
        exceeds = bool(err > mpmath.mpf(net.eps.numerator) / net.eps.denominator)
    return {"M2": float(y), "F": float(Fv), "error": float(err), "exceeds_eps": exceeds, "dps": dps}


def tree_leaves(code: str, root):
    """The leaf boxes of a preorder split code, in order (InvalidParameter on a malformed code, or on one
    so deep that a midpoint stops being an exact float)."""
    root = tuple((float(lo), float(hi)) for lo, hi in root)
    _check_box(root)
    n = len(root)
    boxes, stack, pos = [], [root], 0
    while stack:
        box = stack.pop()
        if pos >= len(code):
            raise InvalidParameter("split tree: truncated")
        ch = code[pos]
        pos += 1
        if ch == ".":
            _check_box(box)
            boxes.append(box)
            continue
        j = ord(ch) - ord("a")
        if not 0 <= j < n:
            raise InvalidParameter(f"split tree: bad symbol {ch!r}")
        left, right = _split(box, j)
        stack.append(right)
        stack.append(left)
    if pos != len(code):
        raise InvalidParameter("split tree: trailing symbols")
    return boxes


def check_tree(net, code: str, root=None) -> dict:
    """Re-verify a PROVED run from its split tree alone: every leaf inside the fundamental domain proves
    -eps <= y - F <= eps. (The same evaluator; what it re-checks is that the tree covers the domain and
    that no leaf was skipped or altered.)"""

    red = reduce(net)
    root = start_box(red.T, red.symmetric) if root is None else tuple((float(lo), float(hi)) for lo, hi in root)
    with arb_prec(PREC):
        k, eb = _Consts(red), _q(net.eps)
        n = bad = 0
        for box in tree_leaves(code, root):
            if not _in_domain(box, red.T, red.symmetric):
                continue
            n += 1
            if not evaluate_box(k, box, eb)[0]:
                bad += 1
        return {"leaves_checked": n, "failed": bad, "ok": bad == 0}
