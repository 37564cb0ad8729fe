"""A minimal torch implementation of the paper's transformer, equations (1)-(2) of InfoFlow Section 3, and of
the Kajitsuka-Sato layers (2)-(3) and the rank-1 form (20), built from attncert's construction records (the
same exact weights the certificates hold), never from separately typed numbers. CPU in CI;
``device="cuda"`` where a GPU exists. torch is imported lazily: the module itself needs nothing.

InfoFlow (1)-(2), ``InfoFlowTransformer``:
  x'_l(t) = x_l(t) + W_O,l Concat_i sum_s softmax_s[beta_l (W_Q,i,l x_l(t))^T W_K,i,l x_l(s)] W_V,i,l x_l(s)
  c'_l    = c_l    + W_O,l Concat_i sum_s softmax_s[beta_l (W_Q,i,l c_l)^T    W_K,i,l x_l(s)] W_V,i,l x_l(s)
  x_{l+1} = F_l(x'_l), c_{l+1} = F_l(c'_l)      (two-layer FFN, no residual: the stream is replaced)
  y       = F-hat(c'_L)
The sums run over the T tokens only (the classification token attends to the tokens and is not a key).
The encoder is affine (plus an optional learned additive positional encoding p(t)); F-hat is a two-layer
FFN, or affine when its hidden width is 0. Activations: tanh (default), hardtanh, or the logistic sigmoid,
all 1-Lipschitz and sigmoidal as (1)-(2) require.

Kajitsuka-Sato: ``ks_self_attention`` (2) with column softmax over keys, ``ks_feedforward`` (3) with ReLU
and the residual, ``ks_rank1`` (20); ``forward_ks`` runs the Theorem 2 construction record (29)-(32).

Dtype guards: ``dtype_guard`` (Theorem 4: beta * score must be resolved far below eps) and
``ks_dtype_guard`` (Kajitsuka-Sato: delta of (8) must lie above the outputs' resolution). A refused run is
UNKNOWN with the reason, never a pass.
"""

from __future__ import annotations

import math
from fractions import Fraction

from attncert.core.errors import BackendUnavailable


def _torch():
    try:
        import torch
    except ImportError:
        raise BackendUnavailable("torch is not installed (pip install -e '.[torch]')") from None
    return torch


def check_device(torch, device: str) -> None:
    """Refuse a device other than cpu or cuda, and cuda without a CUDA device (InvalidParameter, exit 2)."""
    from attncert.core.errors import InvalidParameter

    if device != "cpu" and not device.startswith("cuda"):
        raise InvalidParameter(f"--device {device!r}: cpu or cuda")
    if device.startswith("cuda") and not torch.cuda.is_available():
        raise InvalidParameter("--device cuda: torch sees no CUDA device (use --device cpu)")


def memory_limit(device: str, torch=None) -> tuple[int, str]:
    """The bytes one command may plan to allocate on ``device``, and where that figure comes from: 90% of the
    free memory of the CUDA device, or 80% of this machine's available memory (Linux /proc/meminfo; else
    the physical memory)."""
    import os

    if str(device).startswith("cuda"):
        free, _ = torch.cuda.mem_get_info()
        return int(0.9 * free), "90% of the GPU's free memory"
    avail = None
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    avail = int(line.split()[1]) * 1024
    except OSError:
        pass
    if avail is None:
        try:
            avail = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
        except (ValueError, OSError, AttributeError):
            avail = 8 << 30
    return int(0.8 * avail), "80% of this machine's available memory"


def check_memory(what: str, estimate: int, device: str, torch=None, hint: str = "") -> None:
    """Refuse (InvalidParameter, one line, exit 2) a run whose estimated memory is above ``memory_limit``,
    before anything is allocated: "{what} needs about 1.9e+12 bytes, over the limit of ...; {hint}"."""
    from attncert.core.params import check_limit

    limit, where = memory_limit(device, torch)
    check_limit(f"{what} needs", limit, estimate=estimate, unit="bytes",
                hint=f"the limit is {where}" + (f"; {hint}" if hint else ""))


class cpu_threads:
    """On the CPU, run with ``n`` torch threads (restored on exit): the small tensors here are faster on one
    thread, and several threads on a shared 2-core machine oversubscribe it (10x slower measured)."""

    def __init__(self, device, n: int = 1):
        self.on, self.n, self.old = str(device) == "cpu", n, None

    def __enter__(self):
        if self.on:
            torch = _torch()
            self.old = torch.get_num_threads()
            torch.set_num_threads(self.n)
        return self

    def __exit__(self, *exc):
        if self.on:
            _torch().set_num_threads(self.old)
        return False


# ------------------------------------------------------------------------------------------ dtype guards

def dtype_guard(net, dtype) -> str | None:
    """None when float computations in ``dtype`` can resolve the Theorem 4 claim, else the reason (one line)."""
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


def ks_dtype_guard(layer, dtype) -> str | None:
    """None when ``dtype`` can resolve the Kajitsuka-Sato separation claim, else the reason (one line): delta
    of (8) must be a normal number of the dtype and lie well above the outputs' resolution r * eps_dtype."""
    from attncert.papers.ks.construct import log_delta8

    torch = _torch()
    fi = torch.finfo(dtype)
    ld = log_delta8(layer.ds)
    resolution = float(layer.r) * fi.eps
    if ld < math.log(fi.tiny):
        return (f"{dtype} cannot represent delta = exp({ld:.6g}) of (8): below the smallest normal number "
                f"exp({math.log(fi.tiny):.4g})")
    if ld < math.log(resolution) + math.log(100):
        return (f"{dtype} cannot represent delta = exp({ld:.6g}) of (8) as a separation: it is below 100 x the "
                f"outputs' resolution r * eps = {resolution:.3g}")
    return None


# ------------------------------------------------------------------------------------------ InfoFlow (1)-(2)

ACTIVATIONS = ("tanh", "hardtanh", "sigmoid")


def _act(torch, name):
    return {"tanh": torch.tanh, "hardtanh": lambda z: torch.clamp(z, -1.0, 1.0), "sigmoid": torch.sigmoid}[name]


def _module_class():
    torch = _torch()
    nn = torch.nn

    class InfoFlowTransformer(nn.Module):
        """Equations (1)-(2): ``L = len(heads)`` layers; layer l has ``heads[l]`` heads of dimension
        ``emb[l] // heads[l]``; ``ffn[l]`` is the hidden width of F_l (l < L-1); F-hat has hidden width
        ``out_hidden`` (0: affine). ``beta[l]`` is the softmax scale (default 1/sqrt(n_l))."""

        def __init__(self, d, o, heads, emb, ffn, out_hidden, beta=None, positional=None, activation="tanh",
                     dtype=None, device="cpu"):
            super().__init__()
            L = len(heads)
            if L < 1 or len(emb) != L or len(ffn) != L - 1:
                raise ValueError("heads and emb need one entry per layer, ffn one per gap between layers")
            for h, E in zip(heads, emb):
                if h < 1 or E % h:
                    raise ValueError(f"embedding dimension {E} is not a multiple of the head count {h}")
            if activation not in ACTIVATIONS:
                raise ValueError(f"activation {activation!r}: one of {', '.join(ACTIVATIONS)}")
            kw = dict(dtype=dtype or torch.float32, device=device)
            self.d, self.o, self.heads, self.emb, self.activation = d, o, list(heads), list(emb), activation
            self.beta = list(beta) if beta is not None else [1.0 / math.sqrt(E // h) for h, E in zip(heads, emb)]
            self.enc = nn.Linear(d, emb[0], **kw)
            self.pos = nn.Parameter(torch.zeros(positional, emb[0], **kw)) if positional else None
            self.cls = nn.Parameter(torch.zeros(emb[0], **kw))
            self.WQ, self.WK, self.WV, self.WO = (nn.ParameterList() for _ in range(4))
            for h, E in zip(heads, emb):
                n = E // h
                for P in (self.WQ, self.WK, self.WV):
                    P.append(nn.Parameter(torch.randn(h, n, E, **kw) / math.sqrt(E)))
                self.WO.append(nn.Parameter(torch.randn(E, E, **kw) / math.sqrt(E)))
            self.ffns = nn.ModuleList(nn.Sequential(nn.Linear(emb[l], ffn[l], **kw), nn.Linear(ffn[l], emb[l + 1], **kw))
                                      for l in range(L - 1))
            self.out = (nn.Sequential(nn.Linear(emb[-1], out_hidden, **kw), nn.Linear(out_hidden, o, **kw))
                        if out_hidden else nn.Sequential(nn.Linear(emb[-1], o, **kw)))

        def _ffn(self, seq, z):
            if len(seq) == 1:
                return seq[0](z)
            return seq[1](_act(torch, self.activation)(seq[0](z)))

        def attend(self, l, queries, keys):
            """W_O,l Concat_i sum_s softmax_s(beta (W_Q q)^T W_K x(s)) W_V x(s); queries (B, Q, E), keys (B, T, E)."""
            q = torch.einsum("bqe,hne->bhqn", queries, self.WQ[l])
            k = torch.einsum("bte,hne->bhtn", keys, self.WK[l])
            v = torch.einsum("bte,hne->bhtn", keys, self.WV[l])
            p = torch.softmax(self.beta[l] * (q @ k.transpose(-1, -2)), dim=-1)
            heads = p @ v                                            # (B, h, Q, n)
            B, h, Q, n = heads.shape
            return heads.permute(0, 2, 1, 3).reshape(B, Q, h * n) @ self.WO[l].T

        def forward(self, X):
            x = self.enc(X)
            if self.pos is not None:
                x = x + self.pos[: X.shape[1]]
            c = self.cls.expand(X.shape[0], 1, -1)
            L = len(self.heads)
            for l in range(L - 1):
                xp, cp = x + self.attend(l, x, x), c + self.attend(l, c, x)
                x, c = self._ffn(self.ffns[l], xp), self._ffn(self.ffns[l], cp)
            cp = c + self.attend(L - 1, c, x)
            return self._ffn(self.out, cp[:, 0])

    return InfoFlowTransformer


_CLASS = None


def InfoFlowTransformer(*args, **kw):
    """Construct the (1)-(2) module (the class is created on first use, so importing this module needs no torch)."""
    global _CLASS
    if _CLASS is None:
        _CLASS = _module_class()
    return _CLASS(*args, **kw)


def _dense_ffn(f):
    """A thm4net.FFN (groups of ``count`` identical tanh units) as dense (W1, b1, W2, b2) floats: each group is
    one hidden unit whose output weights carry the count, the same function."""
    W1 = [[0.0] * f.dim_in for _ in f.groups]
    b1 = [float(g.bias) for g in f.groups]
    W2 = [[0.0] * len(f.groups) for _ in range(f.dim_out)]
    for u, g in enumerate(f.groups):
        for i, w in g.w:
            W1[u][i] = float(w)
        for j, a in g.out:
            W2[j][u] = float(a * g.count)
    return W1, b1, W2, [float(b) for b in f.out_bias]


def from_thm4(net, dtype=None, device="cpu"):
    """The Theorem 4 network (thm4net.Thm4Net) as an ``InfoFlowTransformer`` holding its exact weights rounded
    once to ``dtype`` (default float64)."""
    torch = _torch()
    dtype = dtype or torch.float64
    D = len(net.c1)
    out_hidden = len(net.out_ffn.groups) if net.out_ffn is not None else 0
    m = InfoFlowTransformer(3, 1, [1, 1], [D, D], [len(net.F1.groups)], out_hidden, beta=[float(net.beta)] * 2,
                            dtype=dtype, device=device)
    t = lambda rows: torch.tensor([[float(Fraction(x)) for x in r] for r in rows], dtype=dtype, device=device)  # noqa: E731
    v = lambda xs: torch.tensor([float(Fraction(x)) for x in xs], dtype=dtype, device=device)  # noqa: E731
    with torch.no_grad():
        m.enc.weight.copy_(t(net.embed))
        m.enc.bias.zero_()
        m.cls.copy_(v(net.c1))
        for l, s in enumerate(("1", "2")):
            m.WQ[l].copy_(t(getattr(net, "WQ" + s))[None])
            m.WK[l].copy_(t(getattr(net, "WK" + s))[None])
            m.WV[l].copy_(t(getattr(net, "WV" + s))[None])
            m.WO[l].copy_(t(getattr(net, "WO" + s)))
        for seq, f in ((m.ffns[0], net.F1),) + (((m.out, net.out_ffn),) if net.out_ffn is not None else ()):
            W1, b1, W2, b2 = _dense_ffn(f)
            seq[0].weight.copy_(t(W1))
            seq[0].bias.copy_(v(b1))
            seq[1].weight.copy_(t(W2))
            seq[1].bias.copy_(v(b2))
        if net.out_ffn is None:
            w, b = net.out_affine
            m.out[0].weight.copy_(t([w]))
            m.out[0].bias.copy_(v([b]))
    return m.requires_grad_(False)


def forward_thm4(net, X, dtype=None, device="cpu", model=None):
    """The Theorem 4 network on a batch X (B, T, 3) (numpy or torch); returns a torch tensor (B,)."""
    torch = _torch()
    dtype = dtype or torch.float64
    model = model or from_thm4(net, dtype, device)
    with torch.no_grad():
        return model(torch.as_tensor(X, dtype=dtype, device=device))[:, 0]


def target_torch(X):
    """F(X) = min_{s,t} 2(1 + x(s).x(t)) of Theorem 4 on a torch batch (B, T, 3)."""
    torch = _torch()
    G = torch.einsum("bsi,bti->bst", X, X)
    return 2 * (1 + G.flatten(1).min(dim=1).values)


# ------------------------------------------------------------------------------------------ Kajitsuka-Sato

def ks_self_attention(Z, WQ, WK, WV, WO):
    """KS (2): Z + sum_i W_O,i (W_V,i Z) softmax_col[(W_K,i Z)^T (W_Q,i Z)]. Z (B, d, n) (tokens are columns);
    WQ, WK, WV (h, s, d); WO (h, d, s). Column k of the softmax is over the keys (rows)."""
    torch = _torch()
    Q = torch.einsum("hsd,bdn->bhsn", WQ, Z)
    K = torch.einsum("hsd,bdn->bhsn", WK, Z)
    V = torch.einsum("hsd,bdn->bhsn", WV, Z)
    P = torch.softmax(torch.einsum("bhsj,bhsk->bhjk", K, Q), dim=-2)      # (B, h, keys, queries)
    return Z + torch.einsum("hds,bhsj,bhjk->bdk", WO, V, P)


def ks_feedforward(H, W1, b1, W2, b2):
    """KS (3): H_k + W2 ReLU(W1 H_k + b1) + b2 for every column k. H (B, d, n)."""
    torch = _torch()
    return H + torch.einsum("dq,bqn->bdn", W2, torch.relu(torch.einsum("qd,bdn->bqn", W1, H) + b1[:, None])) + b2[:, None]


def ks_rank1(Z, v1, v2, WO):
    """KS (20): Z + W_O (v1^T Z) softmax_col[(v1^T Z)^T (v2^T Z)]. Z (B, d, n), v1, v2 (d,), WO (d,)."""
    torch = _torch()
    a = torch.einsum("d,bdn->bn", v1, Z)
    b = torch.einsum("d,bdn->bn", v2, Z)
    P = torch.softmax(a[:, :, None] * b[:, None, :], dim=1)             # (B, keys, queries)
    return Z + WO[None, :, None] * torch.einsum("bj,bjk->bk", a, P)[:, None, :]


def forward_ks(layer, dtype=None, device="cpu", form="rank1"):
    """The Kajitsuka-Sato Theorem 2 construction (ks_construct.KsLayer, weights (29)-(32): W_K = K v^T,
    W_Q = W_V = v^T, W_O = wo e_1) on its own dataset: returns (N, d, n). ``form``: "rank1" runs (20) with
    v1 = v, v2 = K v; "general" runs (2) with one head of dimension s = 1."""
    torch = _torch()
    dtype = dtype or torch.float64
    ds = layer.ds
    Z = torch.tensor([[[float(seq[k][i]) for k in range(ds.n)] for i in range(ds.d)] for seq in ds.X],
                     dtype=dtype, device=device)
    v = torch.tensor([float(c) for c in layer.v], dtype=dtype, device=device)
    Kv = torch.tensor([float(layer.K * c) for c in layer.v], dtype=dtype, device=device)
    WO = torch.zeros(ds.d, dtype=dtype, device=device)
    WO[0] = float(layer.wo)
    with torch.no_grad():
        if form == "rank1":
            return ks_rank1(Z, v, Kv, WO)
        if form == "general":
            return ks_self_attention(Z, v[None, None], Kv[None, None], v[None, None], WO[None, :, None])
    raise ValueError(f"form {form!r}: 'rank1' or 'general'")
