"""Theorem-level results (issue 16): one record per numbered lemma, theorem, proposition and corollary of a
paper, and the prover's own computation of its verdict from the step obligations.

A theorem names its *roots*: step obligations whose claims state it (one root: in the paper's generality;
several, with ``instances``: instances of it). Its verdict is computed, never declared:

- PROVED: one root, PROVED, closed (every hypothesis of every step in its graph is an axiom instance, a
  checked link to a PROVED step, or a plain hypothesis of the root that the theorem names as one of its
  own hypotheses);
- PROVED FOR INSTANCES: every root so, with ``instances`` saying which (e.g. "n = 2..6");
- CONFIRMED: the root is CONFIRMED (numerical evidence only);
- REFUTED AS PRINTED: ``printed`` is a REFUTED step (the statement as printed, with its counterexample)
  and ``repaired`` names the theorem record of the repaired statement;
- OPEN: anything else, with the blocking steps.

The checker (``attncert verify``) recomputes the same verdict with its own link and instance checks from
the certificates it is given, and accepts a theorem certificate only when the two agree."""

from __future__ import annotations

from dataclasses import dataclass, field

from attncert.core.axioms import bind, conditions
from attncert.core.claims import Obligation
from attncert.core.expr import free_vars, show

THEOREM_SCHEMA = "attncert.theorem/1"
THEOREM_VERDICTS = ("PROVED", "PROVED FOR INSTANCES", "CONFIRMED", "REFUTED AS PRINTED", "OPEN")


@dataclass(slots=True, frozen=True)
class Theorem:
    """A numbered result. ``hypotheses`` names the root's plain hypotheses: shown expression -> what it is
    in the paper (a plain hypothesis without a name is an unnamed premise, which keeps the theorem OPEN)."""

    id: str
    paper: str
    label: str
    ref: str
    statement: str
    roots: tuple[str, ...] = ()
    instances: str | None = None
    hypotheses: tuple[tuple[str, str], ...] = ()
    printed: str | None = None
    repaired: str | None = None
    blocking: str | None = None
    note: str = ""


def theorem(id_: str, paper: str, label: str, ref: str, statement: str, roots=(), instances=None, hypotheses=None,
            printed=None, repaired=None, blocking=None, note="") -> Theorem:
    if printed is not None and repaired is None:
        raise ValueError(f"{id_}: a statement refuted as printed needs the id of its repaired version")
    if not roots and printed is None and not blocking:
        raise ValueError(f"{id_}: with no root step, say what blocks it (blocking=...)")
    if len(roots) > 1 and instances is None:
        raise ValueError(f"{id_}: several roots are instances: say which (instances=...)")
    return Theorem(id_, paper, label, ref, statement, tuple(roots), instances,
                   tuple(sorted((hypotheses or {}).items())), printed, repaired, blocking, note)


# ------------------------------------------------------------------------------- the prover's closure


def _subst(n: tuple, sub: dict) -> tuple:
    if n[0] == "var":
        return sub.get(n[1], n)
    if n[0] == "num":
        return n
    if n[0] == "diff":
        v = sub.get(n[2], ("var", n[2]))
        return ("diff", _subst(n[1], sub), v[1] if v[0] == "var" else n[2])
    return (n[0],) + tuple(_subst(c, sub) if isinstance(c, tuple) else c for c in n[1:])


def link_gap(citing: Obligation, i: int, cited: Obligation) -> tuple[str | None, list[int]]:
    """(None, carried) when hypothesis ``i`` of ``citing`` is an instance of ``cited``'s goal and every
    instantiated hypothesis of ``cited`` is another hypothesis of ``citing``; else (reason, [])."""
    cvars = {v.name: v.domain for v in cited.claim.vars}
    if "defined" in cvars.values():
        return f"{cited.id} states a defined quantity, not a lemma", []
    ints = {v.name for v in citing.claim.vars if v.domain == "int"}
    sub: dict = {}
    if not bind(cited.claim.goal, citing.claim.hyps[i].expr, cvars, ints, sub):
        return f"hypothesis {i + 1} of {citing.id} is not an instance of the goal of {cited.id}", []
    acc: set = set()
    for h in cited.claim.hyps:
        free_vars(h.expr, acc)
    if not acc <= set(sub):
        return f"a hypothesis of {cited.id} has a variable the link to it does not fix", []
    own = [h.expr for h in citing.claim.hyps]
    carried = []
    for k, h in enumerate(cited.claim.hyps):
        inst = _subst(h.expr, sub)
        js = [j for j, x in enumerate(own) if j != i and x == inst]
        if not js:
            return f"hypothesis {k + 1} of {cited.id}, instantiated, is not a hypothesis of {citing.id}", []
        carried.append(js[0])
    return None, carried


@dataclass
class Closure:
    """The prover's walk over the step graph: for each obligation, the reasons it is not established
    (empty: established) and the axioms it rests on. ``verdicts`` maps id -> verdict name. Like the
    checker, it works hypothesis by hypothesis: a sourced hypothesis is established when its source is
    (a PROVED obligation that is itself established, or an axiom instance) and so is every hypothesis it
    carries (the cited claim's hypotheses; an axiom's conditions, and every earlier hypothesis when a
    condition was derived from them); anything circular is not established."""

    obligations: dict
    verdicts: dict
    _state: dict = field(default_factory=dict)
    _axioms: dict = field(default_factory=dict)

    def why(self, oid: str) -> list[str]:
        key = ("ob", oid)
        if self._state.get(key) == "visiting":
            return [f"{oid} rests, through its sources, on itself (circular)"]
        if key in self._state:
            return self._state[key]
        ob = self.obligations.get(oid)
        if ob is None:
            return [f"{oid} is not an obligation"]
        self._state[key] = "visiting"
        self._axioms[oid] = set()
        out: list[str] = []
        for i, h in enumerate(ob.claim.hyps):
            if h.by is not None:
                out.extend(self._hyp(ob, i))
        self._state[key] = list(dict.fromkeys(out))
        return self._state[key]

    def _hyp(self, ob: Obligation, i: int) -> list[str]:
        from attncert.core.errors import AttncertError

        key = ("hyp", ob.id, i)
        if self._state.get(key) == "visiting":
            return [f"{ob.id}: hypothesis {i + 1} rests on itself through the hypotheses it carries (circular)"]
        if key in self._state:
            return self._state[key]
        self._state[key] = "visiting"
        src = ob.claim.hyps[i].by
        out: list[str] = []
        carried: list[int] = []
        if src.startswith("axiom:"):
            try:
                carried, derived = conditions(ob.claim, i)
            except AttncertError as e:
                out.append(f"{ob.id}: {e}")
            else:
                self._axioms[ob.id].add(src[6:])
                if derived:
                    carried = sorted(set(carried) | set(range(i)))
        elif src.startswith("fact:"):
            out.append(f"{ob.id}: hypothesis {i + 1} rests on an unchecked premise ({src[5:85]!r})")
        elif src not in self.obligations:
            out.append(f"{ob.id}: hypothesis {i + 1} rests on {src[:80]!r}, which is not an obligation")
        elif self.verdicts.get(src) != "PROVED":
            out.append(f"{ob.id}: hypothesis {i + 1} rests on {src}, which is {self.verdicts.get(src, 'not run')}")
        else:
            reason, carried = link_gap(ob, i, self.obligations[src])
            if reason:
                out.append(reason)
            else:
                sub = self.why(src)
                if sub:
                    out.append(f"{ob.id}: hypothesis {i + 1} rests on {src}, which is not established ({sub[0]})")
                self._axioms[ob.id] |= self._axioms.get(src, set())
        for j in carried:
            if ob.claim.hyps[j].by is not None:
                out.extend(self._hyp(ob, j))
        self._state[key] = out
        return out

    def axioms(self, oid: str) -> set:
        self.why(oid)
        return self._axioms.get(oid, set())


def plain_hyps(ob: Obligation) -> list[str]:
    return [show(h.expr) for h in ob.claim.hyps if h.by is None]


def theorem_verdict(th: Theorem, clo: Closure) -> tuple[str, list[str], list[str]]:
    """(verdict, blocking reasons, axioms) of a theorem from the step graph."""
    if th.printed is not None:
        v = clo.verdicts.get(th.printed)
        if v == "REFUTED":
            return "REFUTED AS PRINTED", [], []
        return "OPEN", [f"the printed statement {th.printed} is {v or 'not run'}, not REFUTED"], []
    if not th.roots:
        return "OPEN", [th.blocking or "no step states it"], []
    blocking: list[str] = []
    axioms: set = set()
    verdicts = [clo.verdicts.get(r) for r in th.roots]
    if len(th.roots) == 1 and verdicts[0] == "CONFIRMED":
        return "CONFIRMED", ["numerical evidence only"], []
    names = dict(th.hypotheses)
    for r, v in zip(th.roots, verdicts):
        if v != "PROVED":
            blocking.append(f"{r} is {v or 'not run'}")
            continue
        blocking.extend(clo.why(r))
        axioms |= clo.axioms(r)
        blocking.extend(f"{r}: the premise {p} is not named as a hypothesis of the theorem"
                        for p in plain_hyps(clo.obligations[r]) if p not in names)
    if th.blocking:
        blocking.append(th.blocking)
    if blocking:
        return "OPEN", list(dict.fromkeys(blocking)), sorted(axioms)
    return ("PROVED FOR INSTANCES" if th.instances else "PROVED"), [], sorted(axioms)


# ------------------------------------------------------------------------------- registry and certificates


def all_theorems() -> list[Theorem]:
    """The theorem records of the transcribed papers (``attncert_proofs.theorems.THEOREMS``)."""
    import importlib

    try:
        mod = importlib.import_module("attncert_proofs.theorems")
    except ModuleNotFoundError:
        return []
    ths = list(mod.THEOREMS)
    ids = [t.id for t in ths]
    dup = {i for i in ids if ids.count(i) > 1}
    if dup:
        raise ValueError(f"duplicate theorem ids: {sorted(dup)}")
    return ths


def build_theorem_cert(th: Theorem, clo: Closure) -> dict:
    from attncert.core.expr import sha256, to_json

    verdict, blocking, axioms = theorem_verdict(th, clo)
    names = dict(th.hypotheses)
    hyps = []
    for r in th.roots:
        ob = clo.obligations.get(r)
        for h in (ob.claim.hyps if ob is not None else ()):
            if h.by is None and show(h.expr) in names:
                hyps.append({"root": r, "expr": to_json(h.expr), "name": names[show(h.expr)]})
    body = {
        "schema": THEOREM_SCHEMA, "id": th.id, "paper": th.paper, "label": th.label, "ref": th.ref,
        "statement": th.statement, "verdict": verdict, "roots": list(th.roots), "instances": th.instances,
        "hypotheses": hyps, "printed": th.printed, "repaired": th.repaired, "blocking": blocking,
        "declared": th.blocking if (th.roots and th.printed is None) else None,
        "axioms": axioms if verdict.startswith("PROVED") else [], "note": th.note,
    }
    body["cert_sha256"] = sha256(body)
    return body


def theorem_rows(results) -> list[dict]:
    """One row per theorem from a run's results (the prover's view; `verify` recomputes it)."""
    obs = {r.obligation.id: r.obligation for r in results}
    verdicts = {r.obligation.id: r.evidence.verdict.name for r in results}
    clo = Closure(obs, verdicts)
    rows = []
    for th in all_theorems():
        verdict, blocking, axioms = theorem_verdict(th, clo)
        rows.append({"id": th.id, "paper": th.paper, "label": th.label, "ref": th.ref, "statement": th.statement,
                     "verdict": verdict, "instances": th.instances, "roots": list(th.roots),
                     "printed": th.printed, "repaired": th.repaired, "blocking": blocking,
                     "axioms": axioms if verdict.startswith("PROVED") else [],
                     "hypotheses": [{"expr": k, "name": v} for k, v in th.hypotheses], "note": th.note})
    return rows


def theorems_markdown(rows: list[dict]) -> str:
    """The table of docs/theorems.md: counts, one row per result, and each result that is not PROVED with
    what blocks it (every blocking step)."""
    counts: dict = {}
    for r in rows:
        counts[r["verdict"]] = counts.get(r["verdict"], 0) + 1
    order = ("PROVED", "PROVED FOR INSTANCES", "CONFIRMED", "REFUTED AS PRINTED", "OPEN")
    out = [f"{len(rows)} numbered results (with repaired versions as separate rows): "
           + ", ".join(f"**{counts[v]} {v}**" for v in order if v in counts) + ".", "",
           "| paper | result | verdict | range | axioms | roots |", "| --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        roots = ", ".join(f"`{x}`" for x in (r["roots"] or ([r["printed"]] if r["printed"] else [])))
        out.append(f"| {r['paper']} | {r['label']} (`{r['id']}`) | {r['verdict']} | {r['instances'] or ''} | "
                   f"{', '.join(r['axioms'])} | {roots} |")
    out += ["", "## What blocks each result that is not PROVED", ""]
    for r in rows:
        if r["verdict"] == "PROVED":
            continue
        head = f"- **{r['label']}** (`{r['id']}`, {r['paper']}): {r['verdict']}"
        if r["repaired"]:
            head += f"; repaired version `{r['repaired']}`"
        out.append(head)
        out.extend(f"  - {b}" for b in r["blocking"])
    return "\n".join(out) + "\n"
