"""The layer contract, read from the source (ast), not from what happens to be imported at run time
(docs/architecture.md):

- attncert/checker/* imports only the standard library, itself, and z3/cvc5 (to re-run goals);
- no other module imports the checker's internals: the public entry point attncert.checker.verify
  (verify_paths, collect, set_limits, check_cert) is for the API, the integrations, the QA tools and
  the command line only; the transcriptions in proofs/ do not import the checker at all;
- no layer imports a layer above it: core < numeric < backends < papers < api < integrations, qa <
  gpu < cli. The package's __init__ and __main__ (the facade) may import any layer.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "attncert"
PROOFS = SRC.parents[1] / "proofs"
STDLIB = set(sys.stdlib_module_names) | {"__future__"}
LAYERS = ["core", "numeric", "backends", "papers", "api", "integrations", "gpu", "cli"]
RANK = {**{name: i for i, name in enumerate(LAYERS)}, "qa": LAYERS.index("integrations"), "user": LAYERS.index("api")}
PUBLIC = "attncert.checker.verify"
FACADE = {"__init__.py", "__main__.py"}  # the package's face: `import attncert`, `python -m attncert`
VERIFY_USERS = {"api", "integrations", "qa", "cli"}


def _is_module(name: str) -> bool:
    rel = Path(*name.split(".")[1:])
    return (SRC / rel).with_suffix(".py").exists() or (SRC / rel / "__init__.py").exists()


def _imports(path: Path) -> set[str]:
    """Absolute names of every module imported by the file, at any depth (relative imports resolved)."""
    pkg = ["attncert"] + list(path.relative_to(SRC).parent.parts) if path.is_relative_to(SRC) else ["attncert_proofs"]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = pkg[: len(pkg) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            subs = {f"{mod}.{a.name}" for a in node.names}
            subs = {m for m in subs if m.startswith("attncert.") and _is_module(m)}
            out |= subs  # "from attncert.papers.infoflow import trees" names a submodule
            if len(subs) < len(node.names):
                out.add(mod)
    return out


def _layer(mod: str) -> str | None:
    """The layer of an attncert module name ('attncert.core.expr' -> 'core'); None for the facade."""
    parts = mod.split(".")
    if parts[0] != "attncert" or len(parts) == 1:
        return None
    return parts[1]


def _prover_files():
    return [f for f in sorted(SRC.rglob("*.py")) if f.relative_to(SRC).parts[0] != "checker"]


def test_every_module_is_in_a_layer():
    for f in _prover_files():
        rel = f.relative_to(SRC)
        top = rel.parts[0].removesuffix(".py")
        assert top in RANK or str(rel) in FACADE, f"{rel} is in no layer: add it to LAYERS"


def test_checker_imports_only_itself_and_the_standard_library():
    bad = {}
    for f in sorted((SRC / "checker").glob("*.py")):
        for m in _imports(f):
            top = m.split(".")[0]
            if top in STDLIB or top in ("z3", "cvc5") or m == "attncert" or m.startswith("attncert.checker"):
                continue
            bad.setdefault(f.name, set()).add(m)
    assert not bad, f"the checker imports outside itself: {bad}"


def test_prover_uses_no_checker_internals():
    bad = {}
    for f in _prover_files():
        rel = f.relative_to(SRC)
        layer = rel.parts[0].removesuffix(".py")
        used = {m for m in _imports(f) if m.startswith("attncert.checker") and m != "attncert.checker"}
        allowed = {PUBLIC} if layer in VERIFY_USERS else set()
        if used - allowed:
            bad[str(rel)] = used - allowed
    assert not bad, f"prover modules import checker internals: {bad}"


def _upward(entries) -> dict:
    """{file: imports of a higher layer} for entries (path relative to SRC, imported module names)."""
    bad = {}
    for rel, mods in entries:
        if str(rel) in FACADE:
            continue
        mine = RANK[rel.parts[0].removesuffix(".py")]
        for m in mods:
            lay = _layer(m)
            if m == "attncert" or (lay is not None and lay != "checker" and RANK.get(lay, 99) > mine):
                bad.setdefault(str(rel), set()).add(m)  # the facade (attncert) sits above every layer
    return bad


def test_no_layer_imports_a_layer_above_it():
    bad = _upward((f.relative_to(SRC), _imports(f)) for f in _prover_files())
    assert not bad, f"imports of a higher layer: {bad}"


def test_transcriptions_use_no_checker():
    files = sorted(PROOFS.glob("*.py"))
    assert files
    bad = {f.name: m for f in files for m in _imports(f) if m.startswith("attncert.checker")}
    assert not bad, f"proofs/ imports the checker: {bad}"


@pytest.mark.parametrize("path,mod", [
    ("checker/verify.py", "attncert.checker.smtlib"),            # relative imports are resolved
    ("backends/smt.py", "attncert.backends.solver_terms"),
    ("cli/main.py", "attncert.cli.checking"),
])
def test_the_import_reader_sees_imports(path, mod):
    """The tests above would be vacuous if the reader missed imports."""
    assert mod in _imports(SRC / path)


def test_the_layer_rule_can_fail():
    """Planted upward imports are caught by the same rule."""
    assert _upward([(Path("core/engine.py"), {"attncert.papers.infoflow.bounds"}),
                    (Path("numeric/evaluate.py"), {"attncert"}),
                    (Path("papers/ks/construct.py"), {"attncert.core.expr", "attncert.backends.arb"})]) == {
        "core/engine.py": {"attncert.papers.infoflow.bounds"}, "numeric/evaluate.py": {"attncert"}}


def test_every_package_is_in_pyproject():
    """A sub-package missing from pyproject's list would be left out of a (non-editable) wheel."""
    import tomllib

    listed = set(tomllib.loads((SRC.parents[1] / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    have = {".".join(("attncert",) + d.relative_to(SRC).parts) if d != SRC else "attncert"
            for d in [SRC, *SRC.rglob("*")] if d.is_dir() and (d / "__init__.py").exists()}
    assert have <= listed, f"add to pyproject [tool.setuptools] packages: {sorted(have - listed)}"
