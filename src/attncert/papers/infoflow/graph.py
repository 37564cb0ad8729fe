"""The information-flow graph of one InfoFlow run, drawn as in Figure 5: one row per layer, one node per
(position, layer) labelled with I(t, l); blue edges for argmax picks (rule (1)), grey for the residual
connection, green for positional selection (rule (3)), dashed black for global aggregation (rule (2));
red-filled layer-0 nodes are the active index set I_F(X).

Three outputs: graphviz ``dot`` text (always), a self-contained SVG (always; no dependency), and PNG
through matplotlib when it is installed (it is not a dependency of attncert)."""

from __future__ import annotations

from attncert.core.errors import UsageError
from attncert.papers.infoflow.model import InfoFlowModel, Trace

BLUE, GREY, GREEN, BLACK, RED = "#1f77b4", "#9a9a9a", "#2ca02c", "#222222", "#f4a6a6"


def fmt_set(S) -> str:
    return "{" + ",".join(str(i) for i in sorted(S)) + "}" if S else "{}"


def edges(model: InfoFlowModel, trace: Trace) -> list[tuple]:
    """(t_from, l, t_to, l+1, kind) for every arrow of the graph (kind: argmax, residual, specific, global)."""
    out = []
    T = model.T
    for l in range(model.L):
        for t in range(1, T + 2):
            r = trace.rules[l + 1][t]
            if r in ("max-retrieval", "keep"):
                if trace.I(t, l) or r == "max-retrieval" or t <= T:
                    out.append((t, l, t, l + 1, "residual"))
            if r == "max-retrieval":
                for s in sorted(set(trace.picks[l + 1][t])):
                    out.append((s, l, t, l + 1, "argmax"))
            elif r == "specific":
                for s in trace.picks[l + 1][t]:
                    out.append((s, l, t, l + 1, "specific"))
            elif r == "global":
                for s in range(1, T + 1):
                    out.append((s, l, t, l + 1, "global"))
    return out


def _name(t, T):
    return "CLS" if t == T + 1 else str(t)


def _label(trace, t, l, active, final):
    lab = fmt_set(trace.I(t, l))
    if final and active is not None and trace.I(t, l) == active:
        lab += " = I_F(X)"
    return lab


def to_dot(model: InfoFlowModel, trace: Trace, active=None, title: str = "") -> str:
    T, L = model.T, model.L
    lines = ["digraph infoflow {", "  rankdir=TB;", '  node [shape=box, style="rounded,filled", fillcolor=white, '
             'fontname="Helvetica"];', '  edge [arrowsize=0.6];']
    if title:
        lines.append(f'  labelloc=t; label="{title}";')
    for l in range(L + 1):
        lines.append(f"  subgraph layer{l} {{ rank=same;")
        lines.append(f'    L{l} [shape=plaintext, style="", label="Layer {l}"];')
        for t in range(1, T + 2):
            fill = RED if (l == 0 and active is not None and t in active) else "white"
            lab = f"{_name(t, T)}\\n{_label(trace, t, l, active, l == L and t == T + 1)}"
            lines.append(f'    n{t}_{l} [label="{lab}", fillcolor="{fill}"];')
        lines.append("  }")
    for l in range(L):
        lines.append(f"  L{l} -> L{l + 1} [style=invis];")
    style = {"argmax": f'color="{BLUE}", penwidth=1.6', "residual": f'color="{GREY}"',
             "specific": f'color="{GREEN}", penwidth=1.4', "global": f'color="{BLACK}", style=dashed'}
    for a, la, b, lb, kind in edges(model, trace):
        lines.append(f"  n{a}_{la} -> n{b}_{lb} [{style[kind]}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _esc(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def to_svg(model: InfoFlowModel, trace: Trace, active=None, title: str = "") -> str:
    """A standalone SVG of the graph (no dependency), rows = layers, columns = positions 1..T, CLS."""
    T, L = model.T, model.L
    colw, rowh, left, top = 96, 110, 80, 56
    W, H = max(left + colw * (T + 1) + 60, 760), top + rowh * L + 96
    pos = lambda t, l: (left + colw * (t - 1) + colw / 2, top + rowh * l + 22)  # noqa: E731
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" '
           'font-family="Helvetica, Arial, sans-serif" font-size="12">',
           '<defs>' + "".join(
               f'<marker id="a{k}" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" markerHeight="6" '
               f'orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="{c}"/></marker>'
               for k, c in (("argmax", BLUE), ("residual", GREY), ("specific", GREEN), ("global", BLACK))) + '</defs>',
           f'<rect width="{W}" height="{H}" fill="white"/>']
    if title:
        out.append(f'<text x="{W / 2}" y="20" text-anchor="middle" font-size="14">{_esc(title)}</text>')
    for a, la, b, lb, kind in edges(model, trace):
        (x1, y1), (x2, y2) = pos(a, la), pos(b, lb)
        col = {"argmax": BLUE, "residual": GREY, "specific": GREEN, "global": BLACK}[kind]
        dash = ' stroke-dasharray="4 3"' if kind == "global" else ""
        wid = 1.8 if kind == "argmax" else 1.2
        out.append(f'<line x1="{x1:.1f}" y1="{y1 + 16:.1f}" x2="{x2:.1f}" y2="{y2 - 17:.1f}" stroke="{col}" '
                   f'stroke-width="{wid}"{dash} marker-end="url(#a{kind})"/>')
    for l in range(L + 1):
        out.append(f'<text x="8" y="{top + rowh * l + 26}" font-weight="bold">Layer {l}</text>')
        for t in range(1, T + 2):
            x, yc = pos(t, l)
            fill = RED if (l == 0 and active is not None and t in active) else "white"
            lab = _label(trace, t, l, active, l == L and t == T + 1)
            w = max(64, 7 * len(lab) + 12)
            out.append(f'<rect x="{x - w / 2:.1f}" y="{yc - 16:.1f}" width="{w}" height="32" rx="8" fill="{fill}" '
                       f'stroke="#444"/>')
            out.append(f'<text x="{x:.1f}" y="{yc - 3:.1f}" text-anchor="middle" fill="#666" font-size="10">'
                       f'{_name(t, T)}</text>')
            out.append(f'<text x="{x:.1f}" y="{yc + 11:.1f}" text-anchor="middle">{_esc(lab)}</text>')
    ly = H - 18
    for i, (k, c, txt) in enumerate((("argmax", BLUE, "argmax (rule 1)"), ("residual", GREY, "residual"),
                                     ("specific", GREEN, "positional (rule 3)"), ("global", BLACK, "global (rule 2)"))):
        x0 = 20 + 155 * i
        dash = ' stroke-dasharray="4 3"' if k == "global" else ""
        out.append(f'<line x1="{x0}" y1="{ly}" x2="{x0 + 30}" y2="{ly}" stroke="{c}" stroke-width="1.8"{dash}/>')
        out.append(f'<text x="{x0 + 36}" y="{ly + 4}">{txt}</text>')
    out.append(f'<rect x="{20 + 640}" y="{ly - 8}" width="16" height="16" fill="{RED}" stroke="#444"/>'
               f'<text x="{20 + 662}" y="{ly + 4}">I_F(X)</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def to_png(model: InfoFlowModel, trace: Trace, path: str, active=None, title: str = "") -> None:
    """PNG through matplotlib; raises UsageError (exit 2) when matplotlib is not installed."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise UsageError("--png needs matplotlib, which is not installed (pip install matplotlib); "
                         "--dot and --svg need nothing") from None
    import os
    import tempfile

    T, L = model.T, model.L
    fig, ax = plt.subplots(figsize=(1.3 * (T + 1) + 1.2, 1.5 * L + 1.4))
    pos = lambda t, l: (t, -l)  # noqa: E731
    col = {"argmax": BLUE, "residual": GREY, "specific": GREEN, "global": BLACK}
    for a, la, b, lb, kind in edges(model, trace):
        (x1, y1), (x2, y2) = pos(a, la), pos(b, lb)
        ax.annotate("", xy=(x2, y2 + 0.18), xytext=(x1, y1 - 0.18),
                    arrowprops={"arrowstyle": "->", "color": col[kind], "ls": "--" if kind == "global" else "-"})
    for l in range(L + 1):
        ax.text(0.2, -l, f"Layer {l}", ha="right", va="center", fontweight="bold")
        for t in range(1, T + 2):
            fill = RED if (l == 0 and active is not None and t in active) else "white"
            ax.text(*pos(t, l), f"{_name(t, T)}\n{_label(trace, t, l, active, l == L and t == T + 1)}",
                    ha="center", va="center", fontsize=8,
                    bbox={"boxstyle": "round", "fc": fill, "ec": "#444"})
    ax.set_xlim(-0.6, T + 1.6)
    ax.set_ylim(-L - 0.6, 0.6)
    ax.axis("off")
    if title:
        ax.set_title(title, fontsize=10)
    d = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".png", dir=d)
    os.close(fd)
    fig.savefig(tmp, dpi=130, bbox_inches="tight")
    plt.close(fig)
    os.replace(tmp, path)
