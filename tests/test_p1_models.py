"""B.1's (46) -> (47) repaired (proofs/infoflow_model.py) at concrete InfoFlow models: every hypothesis of
`infoflow.model.p1.le46_47_repaired` (the model's rules (1) and (3) at every token, the set sizes, the axiom
instances) and its goal hold, with the CLS token's heads selecting on their own. A referee found (2026-11-28)
that the CLS token's layer-1 selections once shared the family J with token 1's, a premise the paper does not
have: most models then met no instance of the claim. Exact arithmetic over Fractions and frozensets."""

from __future__ import annotations

import random
from fractions import Fraction as Fr

from hypothesis import given, settings, strategies as st

from attncert.core.families import all_families

OBS = {o.id: o for f in all_families() for o in f.obligations}
REL = {"lt": lambda a,b:a<b, "le": lambda a,b:a<=b, "gt": lambda a,b:a>b, "ge": lambda a,b:a>=b,
       "eq": lambda a,b:a==b, "ne": lambda a,b:a!=b}

def ev(n, env, st=()):
    """A claim tree's value: sets are frozensets, families dicts, ["idx", k] the k-th index out."""
    op = n[0]
    e = lambda c: ev(c, env, st)
    if op == "num": return Fr(n[1])
    if op == "var": return Fr(env[n[1]])
    if op == "fset": return env[n[1]]
    if op == "fsets": return env[n[1]]          # dict int -> frozenset
    if op == "idx": return st[-1 - (n[1] if len(n) > 1 else 0)]
    if op == "add": return sum((e(c) for c in n[1:]), Fr(0))
    if op == "mul":
        out = Fr(1)
        for c in n[1:]: out *= e(c)
        return out
    if op == "neg": return -e(n[1])
    if op == "pow": return e(n[1]) ** n[2]
    if op == "sat":
        fam, i = e(n[1]), e(n[2]); assert i.denominator == 1
        return fam[int(i)]                      # KeyError = undefined family member
    if op == "union":
        out = frozenset()
        for c in n[1:]: out |= e(c)
        return out
    if op == "card": return Fr(len(e(n[1])))
    if op == "subset": return e(n[1]) <= e(n[2])
    if op in ("sum", "forall", "bunion"):
        N = e(n[1]); vals = [ev(n[2], env, st + (Fr(i),)) for i in range(1, int(N) + 1)]
        if op == "sum": return sum(vals, Fr(0))
        if op == "forall": return all(vals)
        out = frozenset()
        for v in vals: out |= v
        return out
    if op in REL: return REL[op](e(n[1]), e(n[2]))
    if op == "and": return all(e(c) for c in n[1:])
    if op == "implies": return (not e(n[1])) or e(n[2])
    raise ValueError(op)



def model(T, h1, h2, seed, cls_like_tok1=False):
    """A random InfoFlow model (T tokens, h1 and h2 heads). InfoFlow: layer 0 I(t,0)={t}, I(T+1,0)={}; max-position retrieval (rule (1), taking the full union) at both layers;
    s_i(t) = argmax_s A_i(X[I(t,l)], X[I(s,l)]) with random bilinear scores over random inputs."""
    rng = random.Random(seed)
    x = {t: [rng.uniform(-1, 1) for _ in range(3)] for t in range(1, T + 1)}
    A = lambda: [[rng.uniform(-1, 1) for _ in range(3)] for _ in range(3)]
    def score(M, P, Q):   # A(X[P], X[Q]) = max over pairs (0 for empty P)
        if not P: return sum(sum(M[a][b] * x[q][b] for b in range(3)) for q in Q for a in range(3))
        return max(sum(x[p][a] * M[a][b] * x[q][b] for a in range(3) for b in range(3)) for p in P for q in Q)
    I0 = {t: frozenset({t}) for t in range(1, T + 1)}; I0[T + 1] = frozenset()
    A1 = [A() for _ in range(h1)]; A2 = [A() for _ in range(h2)]
    s1 = {(t, i): max(range(1, T + 1), key=lambda s: score(A1[i - 1], I0[t], I0[s])) for t in range(1, T + 2) for i in range(1, h1 + 1)}
    if cls_like_tok1:
        for i in range(1, h1 + 1): s1[(T + 1, i)] = s1[(1, i)]
    I1 = {t: frozenset().union(*[I0[s1[(t, i)]] for i in range(1, h1 + 1)]) | I0[t] for t in range(1, T + 2)}
    s2 = {i: max(range(1, T + 1), key=lambda s: score(A2[i - 1], I1[T + 1], I1[s])) for i in range(1, h2 + 1)}
    I2c = frozenset().union(*[I1[s2[i]] for i in range(1, h2 + 1)]) | I1[T + 1]
    return x, s1, s2, I0, I1, I2c



def env_for(T, h1, h2, s1, s2, I0, I1, I2c):
    """The claim's variables at the model: J numbers token t's head-i selected set h1 (t-1) + i, Jc the CLS token's
    own layer-1 selections, K its layer-2 ones, m the largest set K selects (at position u)."""
    istar = max(range(1, h2 + 1), key=lambda i: len(I1[s2[i]]))
    u = s2[istar]
    return dict(T=T, h1=h1, h2=h2, S2=sum(len(I1[t]) ** 2 for t in range(1, T + 1)),
                c1=len(I1[T + 1]), c2=len(I2c), m=len(I1[u]),
                Im1=I1[u], Im0=I0[u], Ic1=I1[T + 1], Ic0=I0[T + 1], Ic2=I2c,
                J={h1 * (t - 1) + i: I0[s1[(t, i)]] for t in range(1, T + 1) for i in range(1, h1 + 1)},
                Jc={i: I0[s1[(T + 1, i)]] for i in range(1, h1 + 1)},
                Jm={i: I0[s1[(u, i)]] for i in range(1, h1 + 1)},
                K={i: I1[s2[i]] for i in range(1, h2 + 1)},
                I1={t: I1[t] for t in range(1, T + 1)}, I0={t: I0[t] for t in range(1, T + 1)})


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 9), st.integers(1, 3), st.integers(1, 3), st.integers(0, 10 ** 6))
def test_the_repaired_step_holds_at_infoflow_models(T, h1, h2, seed):
    _, s1, s2, I0, I1, I2c = model(T, h1, h2, seed)
    env = env_for(T, h1, h2, s1, s2, I0, I1, I2c)
    ob = OBS["infoflow.model.p1.le46_47_repaired"]
    failed = [h.expr for h in ob.claim.hyps if not ev(h.expr, env)]
    assert not failed, failed[:2]
    assert ev(ob.claim.goal, env)
    size = OBS["infoflow.model.p1.size_I_at"]
    for t in range(1, T + 1):
        e = dict(env, t=t)
        assert all(ev(h.expr, e) for h in size.claim.hyps) and ev(size.claim.goal, e)


def test_the_claim_has_an_instance_where_the_cls_token_selects_apart_from_token_1():
    """The referee's 3-token model: token 1 selects position 2, the CLS token position 3 (h1 = h2 = 1)."""
    T, h1, h2 = 3, 1, 1
    I0 = {t: frozenset({t}) for t in range(1, T + 1)}
    I0[T + 1] = frozenset()
    s1 = {(1, 1): 2, (2, 1): 1, (3, 1): 1, (4, 1): 3}
    I1 = {t: I0[s1[(t, 1)]] | I0[t] for t in range(1, T + 2)}
    s2 = {1: 1}
    I2c = I1[s2[1]] | I1[T + 1]
    env = env_for(T, h1, h2, s1, s2, I0, I1, I2c)
    ob = OBS["infoflow.model.p1.le46_47_repaired"]
    assert all(ev(h.expr, env) for h in ob.claim.hyps) and ev(ob.claim.goal, env)
