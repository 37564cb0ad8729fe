"""A minimal torch implementation of the paper's transformer, equations (1)-(2) of InfoFlow Section 3,
built from attncert's construction records (the same exact weights the certificates hold), never from
separately typed numbers. CPU in CI; ``device="cuda"`` where a GPU exists.

Covered so far: the Theorem 4 two-layer network (``thm4net.Thm4Net``): per-head W_Q, W_K, W_V, the output
projection W_O with the residual, the softmax with scale beta, the classification token, tanh FFNs between
layers (replaced stream, x_{l+1} = F_l(x'_l)) and the output block.

The dtype guard refuses a run whose quantities are not representable in the working dtype with margin:
the largest score times beta must stay below the exponent range, and the claimed accuracy eps must be far
above the dtype's resolution of the output. A refused run is UNKNOWN with the reason, never a pass.
"""

from __future__ import annotations

from fractions import Fraction

from .errors import BackendUnavailable


def _torch():
    try:
        import torch
    except ImportError:
        raise BackendUnavailable("torch is not installed (pip install -e '.[torch]')") from None
    return torch


def dtype_guard(net, dtype) -> str | None:
    """None when float computations in ``dtype`` can resolve the claim, else the reason (one line)."""
    torch = _torch()
    fi = torch.finfo(dtype)
    # |score| <= 1/3 per layer (||x1|| <= 1/sqrt 3; a(t) <= 1/3 + e2), times beta; softmax subtracts the
    # max, so only differences matter, but the raw product must be finite and keep relative precision
    top = float(net.beta) * 2
    if top * fi.eps * 100 > float(net.eps) / 18:
        return (f"{dtype} cannot resolve the construction: beta * score ~ {top:.3g} carries an absolute rounding "
                f"error ~ {top * fi.eps:.2g}, not far below eps/18 = {float(net.eps) / 18:.2g}")
    if top >= fi.max:
        return f"{dtype} cannot represent beta * score ~ {top:.3g}"
    return None


def _mat(torch, m, dtype, device):
    return torch.tensor([[float(Fraction(x)) for x in row] for row in m], dtype=dtype, device=device)


def _ffn(torch, f, Z, dtype, device):
    out = torch.tensor([float(b) for b in f.out_bias], dtype=dtype, device=device).expand(*Z.shape[:-1], f.dim_out).clone()
    for g in f.groups:
        pre = torch.full(Z.shape[:-1], float(g.bias), dtype=dtype, device=device)
        for i, w in g.w:
            pre = pre + float(w) * Z[..., i]
        h = torch.tanh(pre) * g.count
        for j, a in g.out:
            out[..., j] += float(a) * h
    return out


def forward_thm4(net, X, dtype=None, device="cpu"):
    """The Theorem 4 network on a batch X (B, T, 3) (numpy or torch); returns a torch tensor (B,)."""
    torch = _torch()
    dtype = dtype or torch.float64
    X = torch.as_tensor(X, dtype=dtype, device=device)
    beta = float(net.beta)
    M = {k: _mat(torch, getattr(net, k), dtype, device) for k in ("embed", "WQ1", "WK1", "WV1", "WO1", "WQ2", "WK2", "WV2", "WO2")}
    x1 = X @ M["embed"].T
    c1 = torch.tensor([float(v) for v in net.c1], dtype=dtype, device=device).expand(X.shape[0], -1)

    def attend(l, q, keys):                   # q: (B, ..., 6), keys: (B, T, 6)
        qq = q @ M[f"WQ{l}"].T
        kk = keys @ M[f"WK{l}"].T
        s = beta * torch.einsum("b...i,bsi->b...s", qq, kk)
        p = torch.softmax(s, dim=-1)
        return torch.einsum("b...s,bsi->b...i", p, keys @ M[f"WV{l}"].T) @ M[f"WO{l}"].T

    x1p = x1 + attend(1, x1, x1)
    c1p = c1 + attend(1, c1, x1)
    x2, c2 = _ffn(torch, net.F1, x1p, dtype, device), _ffn(torch, net.F1, c1p, dtype, device)
    c2p = c2 + attend(2, c2, x2)
    if net.out_ffn is None:
        w, b = net.out_affine
        return c2p @ torch.tensor([float(x) for x in w], dtype=dtype, device=device) + float(b)
    return _ffn(torch, net.out_ffn, c2p, dtype, device)[..., 0]
