"""The checker is independent of the prover, and the prover does not use the checker's internals.

Read from the source (ast), not from what happens to be imported at run time:
- attncert/checker/* imports only the standard library, itself, and z3/cvc5 (to re-run goals);
- no other attncert module imports attncert.checker.*, except the public entry point
  attncert.checker.verify (verify_paths, collect, set_limits) from the command line, the API and the
  integrations; the transcriptions in proofs/ may not import the checker at all.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "attncert"
STDLIB = set(sys.stdlib_module_names) | {"__future__"}
# who may call the public entry point of the checker
VERIFY_USERS = {"cli.py", "api.py", "pytest_plugin.py", "fuzz.py", "report.py"}
PUBLIC = {"attncert.checker.verify"}



def _is_module(name: str) -> bool:
    rel = Path(*name.split(".")[1:])
    return (SRC / rel).with_suffix(".py").exists() or (SRC / rel / "__init__.py").exists()


def _imports(path: Path) -> set[str]:
    """Absolute names of every module imported by the file (relative imports resolved)."""
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
            out.add(mod)
            for a in node.names:  # "from .checker import smtlib" names a submodule
                sub = f"{mod}.{a.name}"
                if sub.startswith("attncert.") and _is_module(sub):
                    out.add(sub)
    return out


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
    for f in sorted(SRC.rglob("*.py")):
        rel = str(f.relative_to(SRC))
        if rel.startswith("checker/"):
            continue
        used = {m for m in _imports(f) if m.startswith("attncert.checker") and m != "attncert.checker"}
        allowed = set()
        if f.name in VERIFY_USERS and rel.count("/") == 0:
            allowed |= PUBLIC
        extra = used - allowed
        if extra:
            bad[rel] = extra
    assert not bad, f"prover modules import checker internals: {bad}"


def test_transcriptions_use_no_checker():
    proofs = SRC.parents[1] / "proofs"
    files = sorted(proofs.glob("*.py"))
    assert files
    bad = {f.name: m for f in files for m in _imports(f) if m.startswith("attncert.checker")}
    assert not bad, f"proofs/ imports the checker: {bad}"


def test_the_import_reader_sees_relative_imports():
    """The test above would be vacuous if relative imports were not resolved: the checker's own files
    import each other relatively, and backends/smt.py imports solver_terms relatively."""
    assert "attncert.checker.smtlib" in _imports(SRC / "checker" / "verify.py")
    assert "attncert.backends.solver_terms" in _imports(SRC / "backends" / "smt.py")
