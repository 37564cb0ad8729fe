"""Theorem 6's tanh replacement (Lemma 1, L900-1000): the certified L_p bound, the independent exhaustive
cell bound on the built network, the network itself against the Heaviside construction, planted wrong
constants, and the CLI."""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction as F

import pytest
from hypothesis import given, settings, strategies as st

from attncert.papers.infoflow.construct import thm6
from attncert.core.engine import run_obligation
from attncert.core.errors import InvalidParameter
from attncert.papers.infoflow.replace import (as_p, cell_bound, decoder_weights, encoder_weights, forward_mp,
                              replacement_obligation, tanh_replace)
from attncert.core.verdict import Verdict

pytest.importorskip("flint")

SMALL = [(2, 1, 1, F(1, 2)), (3, 1, 2, F(3, 4)), (2, 1, 1, F(1, 3))]


@settings(derandomize=True, deadline=None, max_examples=12)
@given(st.sampled_from([(2, 1, 1), (3, 1, 2), (2, 2, 3), (3, 1, 1)]), st.integers(2, 12),
       st.sampled_from([F(1), F(3, 2), F(2), F(3), F(7)]))
def test_certified_bound_is_proved_and_below_eps(shape, e, p):
    c = thm6(*shape, F(1, e))
    rep = tanh_replace(c, p)
    r = run_obligation(rep.obligation, 60)
    assert r.verdict == Verdict.PROVED, r.evidence.detail
    assert rep.bound_float <= float(c.eps) / 2 and rep.total_float <= float(c.eps)
    # Lemma 1's choice of B (L930), exactly
    for L in (rep.decoder, rep.encoder):
        assert -L.B * L.eta + L.C <= -L.R and L.B * L.eta + L.C >= L.R and L.A == L.D == F(1, 2)
    assert rep.decoder.eta == F(1, 2 ** c.q) and rep.encoder.eta <= F(1, 2 ** c.L)


@pytest.mark.parametrize("T0,d,n,eps,p", [(2, 1, 1, F(1, 2), F(1)), (2, 1, 1, F(1, 2), F(5, 2)),
                                          (3, 1, 2, F(3, 4), F(2)), (2, 1, 1, F(1, 3), F(2))])
def test_cell_bound_agrees(T0, d, n, eps, p):
    """The exhaustive interval cell bound on the BUILT network is <= eps/2 (an independent check of the
    Lipschitz argument's conclusion)."""
    rep = tanh_replace(thm6(T0, d, n, eps), p)
    cb = cell_bound(rep)
    assert cb["ok"] and cb["tanh_error_Lp_upper"] <= float(eps) / 2
    assert cb["cells"] == (2 ** (rep.con.L + 1) - 1) ** rep.con.m


@pytest.mark.parametrize("T0,d,n,eps", SMALL[:2])
def test_network_matches_heaviside_and_cell_sup(T0, d, n, eps):
    """At random points away from the thresholds the tanh network (mpmath) is within the good-cell sup of
    V^(L), and rounds to the Heaviside construction's exact output."""
    c = thm6(T0, d, n, eps)
    rep = tanh_replace(c, 2)
    cb = cell_bound(rep)
    rng = random.Random(0)
    h = F(1, 2 ** c.L)
    for _ in range(40):
        cell = tuple(rng.randrange(2 ** c.L) for _ in range(c.m))
        V = [(ci + F(rng.randint(1, 99), 100)) * h for ci in cell]
        exact = c.decode(c.encode_cell(cell))
        _, out = forward_mp(rep, V)
        err = sum(abs(float(o) - float(x)) ** 2 for o, x in zip(out, exact)) ** 0.5
        assert err <= cb["good_cells_sup_p"] * (1 + 1e-9) + 1e-30
        assert all(abs(float(o) - float(x)) < float(h) / 4 for o, x in zip(out, exact))


def test_weights_reproduce_the_construction():
    """Summing the encoder/decoder unit weights over active Heaviside units gives construct's exact maps."""
    c = thm6(3, 1, 2, F(1, 2))
    w, a = encoder_weights(c), decoder_weights(c)
    for cell in [(0, 0, 0), (1, 7, 3), (7, 7, 7), (4, 0, 5)]:
        u = [F(0)] * c.n
        for (j, t), row in w.items():
            if cell[j] >= t:
                for i, v in row.items():
                    u[i] += v
        assert tuple(u) == c.encode_cell(cell)
        out = [F(0)] * c.m
        for (i, k), row in a.items():
            if u[i] >= F(k, 2 ** c.q):
                for j, v in row.items():
                    out[j] += v
        assert tuple(out) == c.decode(tuple(u))


def test_planted_constants_are_refuted():
    c = thm6(2, 1, 1, F(1, 2))
    rep = tanh_replace(c, 2)
    # R too small on the decoder: the tail terms no longer fit in eps/2
    weak = dataclasses.replace(rep.decoder, R=F(1, 4), C=F(1, 4), B=F(1, 2) * 2 ** c.q)
    r = run_obligation(replacement_obligation(c, F(2), weak, rep.encoder), 60)
    assert r.verdict == Verdict.REFUTED
    # B = (R - C)/eta instead of (R + C)/eta violates -B eta + C <= -R (L930)
    bad_B = dataclasses.replace(rep.decoder, B=(rep.decoder.R - rep.decoder.C + 1) / rep.decoder.eta)
    r = run_obligation(replacement_obligation(c, F(2), bad_B, rep.encoder), 60)
    assert r.verdict == Verdict.REFUTED
    # an encoder window wider than a dyadic cell
    wide = dataclasses.replace(rep.encoder, eta=F(1), window_mass=F(2))
    assert run_obligation(replacement_obligation(c, F(2), rep.decoder, wide), 60).verdict == Verdict.REFUTED


def test_bad_p():
    for bad in ("1/2", "0", "-1", "65", "x"):
        with pytest.raises(InvalidParameter, match="p="):
            as_p(bad)
    assert as_p("3/2") == F(3, 2)


def test_certificate_verifies_and_is_deterministic(tmp_path):
    from attncert.api import write_certificates
    import io

    from attncert.checker.verify import verify_paths

    rep = tanh_replace(thm6(2, 1, 1, F(1, 4)), F(3, 2))
    paths = []
    for sub in ("a", "b"):
        r = run_obligation(rep.obligation, 60)
        paths.append(write_certificates([r], str(tmp_path / sub))[0])
    a, b = (open(p, "rb").read() for p in paths)
    assert a == b
    assert verify_paths([paths[0]], io.StringIO()) == 0
    # tampering with a constant inside the claim is rejected
    lam = str(rep.encoder.lipschitz)
    assert f'["num","{lam}"]' in a.decode()
    txt = a.decode().replace(f'["num","{lam}"]', '["num","1"]')
    bad = tmp_path / "bad.json"
    bad.write_text(txt)
    assert verify_paths([str(bad)], io.StringIO()) != 0


def test_cli_construct_tanh(tmp_path):
    from io import StringIO
    from attncert.cli import run

    out, err = StringIO(), StringIO()
    rc = run(["construct", "thm6", "--T0", "2", "--d", "1", "--n", "1", "--eps", "1/2", "--p", "3",
              "--out", str(tmp_path)], out, err)
    assert rc == 0, err.getvalue()
    text = out.getvalue()
    assert text.count("PROVED (rigorous intervals)") == 2 and "p = 3" in text and "exhaustive interval cells" in text
    assert len(list(tmp_path.rglob("*.json"))) == 2
    out, err = StringIO(), StringIO()
    assert run(["construct", "thm6", "--T0", "2", "--d", "1", "--n", "1", "--eps", "1/2", "--p", "1/2"], out, err) == 2
    assert out.getvalue() == "" and "p=1/2" in err.getvalue()
