"""The JSON Schemas of src/attncert/schemas/ (copied in docs/schemas/) against real outputs.

Every JSON format the tool writes has one schema (draft 2020-12), named after its "schema" tag:
attncert.cert/2 -> attncert.cert-2.schema.json. Here each command's --json output is produced by running
the command line on a small input and validated; so is every committed certificate, the axiom list and the
committed GPU runs. The full `theorems` / `certify all` run (every obligation) is opt-in:
ATTNCERT_SCHEMA_FULL=1."""

from __future__ import annotations

import copy
import importlib.util
import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

jsonschema = pytest.importorskip("jsonschema")

import attncert

ROOT = Path(__file__).resolve().parents[1]
PKG = Path(attncert.__file__).resolve().parent / "schemas"
DOCS = ROOT / "docs" / "schemas"
HAS_TORCH = importlib.util.find_spec("torch") is not None
# tags in the code that have no schema on purpose: the result cache is internal (.attncert-cache/), and
# attncert.cert/1 is retired (the checker refuses it)
NOT_PUBLISHED = {"attncert.cache/2", "attncert.cert/1", "attncert.theorem/1"}


def file_name(tag: str) -> str:
    return tag.replace("/", "-") + ".schema.json"


def _load_validators() -> dict:
    out = {}
    for p in sorted(PKG.glob("*.schema.json")):
        s = json.loads(p.read_text(encoding="utf-8"))
        jsonschema.Draft202012Validator.check_schema(s)
        tag = s["$id"].removeprefix("urn:attncert:schema:")
        assert p.name == file_name(tag), f"{p.name}: $id {s['$id']} does not match the file name"
        out[tag] = jsonschema.Draft202012Validator(s)
    return out


VALIDATORS = _load_validators()


def errors(obj) -> list[str]:
    """The schema errors of a JSON object, chosen by its "schema" tag (empty: valid)."""
    assert isinstance(obj, dict) and obj.get("schema") in VALIDATORS, f"no schema for {str(obj.get('schema'))[:40]!r}"
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message[:300]}"
            for e in sorted(VALIDATORS[obj["schema"]].iter_errors(obj), key=lambda e: list(map(str, e.path)))]


def assert_valid(obj, what: str = "") -> None:
    errs = errors(obj)
    assert not errs, f"{what}: {len(errs)} schema errors, first: " + "; ".join(errs[:3])


def load(path) -> dict:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def cli(tmp_path, *args, ok=(0, 1), timeout=300) -> subprocess.CompletedProcess:
    env = {**os.environ, "ATTNCERT_NO_CACHE": "1"}
    p = subprocess.run([sys.executable, "-m", "attncert", *map(str, args)], capture_output=True, text=True,
                       check=False, timeout=timeout, cwd=tmp_path, env=env)
    assert p.returncode in ok, f"attncert {' '.join(map(str, args))}: exit {p.returncode}\n{p.stderr[-2000:]}"
    return p


# ------------------------------------------------------------------------------------ the schema files


def test_every_schema_tag_in_the_code_has_a_schema():
    pat = re.compile(r'(?:"schema":\s*|SCHEMA\s*=\s*|RETIRED\s*=\s*\{)"(attncert\.[A-Za-z0-9.-]+/[0-9]+)"')
    tags = set()
    for p in (ROOT / "src" / "attncert").rglob("*.py"):
        tags |= set(pat.findall(p.read_text(encoding="utf-8")))
    tags.add(load(ROOT / "src" / "attncert" / "checker" / "axioms.json")["schema"])
    assert "attncert.cert/2" in tags and "attncert.check/1" in tags  # the scan finds what it should
    missing = sorted(tags - NOT_PUBLISHED - set(VALIDATORS))
    assert not missing, f"JSON formats without a schema in src/attncert/schemas/: {missing}"
    stale = sorted(set(VALIDATORS) - tags)
    assert not stale, f"schemas for formats the code no longer writes: {stale}"


def test_docs_copies_equal_the_package_copies():
    pkg = {p.name: p.read_bytes() for p in PKG.glob("*.schema.json")}
    docs = {p.name: p.read_bytes() for p in DOCS.glob("*.schema.json")}
    assert sorted(pkg) == sorted(docs), "docs/schemas/ and src/attncert/schemas/ hold different files"
    for name, text in pkg.items():
        assert text == docs[name], f"docs/schemas/{name} differs from src/attncert/schemas/{name}"
    readme = (DOCS / "README.md").read_text(encoding="utf-8")
    for name in pkg:
        assert name in readme, f"docs/schemas/README.md does not list {name}"


# ------------------------------------------------------------------------------------ committed files


def _committed_certificates() -> list[Path]:
    return sorted((ROOT / "certificates").rglob("*.json"))


def _schema_problem(f: Path) -> str | None:
    obj = load(f)
    if obj.get("schema") not in ("attncert.cert/2", "attncert.theorem/2"):
        return f"{f.relative_to(ROOT)}: schema {str(obj.get('schema'))[:40]!r}"
    errs = errors(obj)
    return f"{f.relative_to(ROOT)}: {errs[0]}" if errs else None


def test_every_committed_certificate_matches_its_schema():
    # in two forked processes (the validation of 800 expression-tree files dominates; the verdict is per file)
    import multiprocessing as mp
    from concurrent.futures import ProcessPoolExecutor

    files = _committed_certificates()
    assert len(files) > 100
    with ProcessPoolExecutor(2, mp_context=mp.get_context("fork")) as ex:
        bad = [b for b in ex.map(_schema_problem, files, chunksize=16) if b]
    assert not bad, f"{len(bad)} committed certificates do not match their schema:\n" + "\n".join(bad[:10])


def test_axiom_list_and_committed_gpu_runs_match_their_schemas():
    assert_valid(load(ROOT / "src" / "attncert" / "checker" / "axioms.json"), "axioms.json")
    assert_valid(load(ROOT / "src" / "attncert" / "checker" / "theorems.json"), "theorems.json")
    runs = sorted((ROOT / "docs" / "gpu_run").glob("*.json"))
    assert runs
    for f in runs:
        assert_valid(load(f), str(f.relative_to(ROOT)))


def _a_certificate(kind: str) -> dict:
    for f in _committed_certificates():
        obj = load(f)
        if obj.get("evidence", {}).get("kind") == kind:
            return obj
    raise AssertionError(f"no committed certificate with {kind} evidence")


@pytest.mark.parametrize("mutate, why", [
    (lambda c: c.update(extra=1), "an unknown top-level field"),
    (lambda c: c.pop("uses"), "a missing field"),
    (lambda c: c.update(schema="attncert.cert/1"), "another schema tag"),
    (lambda c: c.update(verdict="REFUTED"), "a verdict its evidence kind cannot carry"),
    (lambda c: c.update(verdict="TRUE"), "an unknown verdict"),
    (lambda c: c["evidence"].update(extra=1), "an unknown evidence field"),
    (lambda c: c["evidence"].pop("side_queries"), "a missing evidence field"),
    (lambda c: c["evidence"].update(kind="magic"), "an unknown evidence kind"),
    (lambda c: c["claim"].update(goal=["lt", ["num", 1], ["num", "2"]]), "a number that is not an exact rational string"),
    (lambda c: c["claim"].update(goal=["lt", ["sin", ["num", "1"]], ["num", "2"]]), "an unknown operator"),
    (lambda c: c["claim"].update(goal=["add", ["num", "1"], ["num", "2"]]), "a term where a formula belongs"),
    (lambda c: c["claim"].update(goal=["lt", ["lt", ["num", "1"], ["num", "2"]], ["num", "2"]]),
     "a formula where a term belongs"),
    (lambda c: c["claim"].update(goal=["lt", ["div", ["num", "1"]], ["num", "2"]]), "a wrong number of arguments"),
    (lambda c: c["claim"]["vars"].append({"name": "x y", "domain": "real"}), "a bad variable name"),
    (lambda c: c.update(claim_sha256="0" * 63), "a malformed hash"),
], ids=lambda v: v if isinstance(v, str) else "")
def test_the_certificate_schema_rejects(mutate, why):
    cert = _a_certificate("identity")
    assert_valid(cert, "the unmodified certificate")
    bad = copy.deepcopy(cert)
    mutate(bad)
    assert not VALIDATORS["attncert.cert/2"].is_valid(bad), f"the schema accepts {why}"


@pytest.mark.parametrize("mutate, why", [
    (lambda t: t.update(roots=["x"], printed="x.as_printed", repaired="y"), "printed with roots"),
    (lambda t: t.update(printed=None, repaired="y"), "repaired without printed"),
    (lambda t: t.update(roots=["a", "b"], instances=None), "several roots without instances"),
    (lambda t: t.update(verdict="PROVED AS PRINTED"), "an unknown theorem verdict"),
    (lambda t: t["hypotheses"].append({"root": "a", "expr": "x > 0", "name": "h"}), "a hypothesis as text"),
], ids=lambda v: v if isinstance(v, str) else "")
def test_the_theorem_certificate_schema_rejects(mutate, why, thm1_results):
    thm = next(c for c in _theorem_certificates(thm1_results) if c["printed"] is None and len(c["roots"]) == 1)
    assert_valid(thm, "the unmodified theorem certificate")
    bad = copy.deepcopy(thm)
    mutate(bad)
    assert not VALIDATORS["attncert.theorem/2"].is_valid(bad), f"the schema accepts {why}"


# ------------------------------------------------------------------------------------ command outputs


CASES = [
    ("check", ["check", "ks.thm.thm1.*"]),
    ("list", ["list", "ks"]),
    ("bound-thm5", ["bound", "thm5", "--T", "8", "--k", "3", "--n", "2", "--eps", "1/1000"]),
    ("bound-thm4", ["bound", "thm4", "--T", "8", "--H", "1", "--n", "1", "--eps", "1/1000"]),
    ("audit", ["audit", "ks.thm.thm1.*"]),
    ("trees", ["trees", "--target", "dretrieval", "--T", "4", "--D", "2", "--out", "{out}"]),
    ("trees-pairwise", ["trees", "--target", "pairwise", "--T", "3", "--D", "1"]),
    ("infoflow", ["infoflow", "--target", "min-inner-product", "--T", "4", "--heads", "1,1", "--emb", "2,2",
                  "--samples", "20"]),
    ("infoflow-dretrieval", ["infoflow", "--target", "d-retrieval", "--T", "4", "--D", "2", "--heads", "2",
                             "--emb", "2", "--samples", "5"]),
    ("witness-thm5", ["witness", "thm5", "--T", "6", "--k", "2", "--n", "1", "--eps", "1/1000", "--out", "{out}"]),
    ("witness-thm6", ["witness", "thm6", "--T0", "1", "--d", "1", "--n", "1", "--eps", "1/8", "--out", "{out}"]),
    ("construct-thm6", ["construct", "thm6", "--T0", "2", "--d", "1", "--n", "1", "--eps", "1/8"]),
    ("construct-ks", ["construct", "ks-thm2", "--random", "2,2,1,0", "--out", "{out}"]),
    ("construct-ks-cor1", ["construct", "ks-cor1", "--random", "2,2,2,1", "--vocab", "3", "--out", "{out}"]),
    ("construct-thm4", ["construct", "thm4", "--T", "2", "--eps", "1/2", "--samples", "20", "--out", "{out}"]),
    pytest.param("gpu-check", ["gpu-check", "--device", "cpu", "--budget-seconds", "2", "--search-restarts", "2",
                               "--search-steps", "2", "--batch", "8"], id="gpu-check",
                 marks=pytest.mark.skipif(not HAS_TORCH, reason="gpu-check needs torch")),
    pytest.param("train", ["train", "tiny", "--steps", "5", "--seeds", "1"], id="train",
                 marks=pytest.mark.skipif(not HAS_TORCH, reason="train needs torch")),
]


@pytest.mark.parametrize("name, argv", [pytest.param(*c, id=c[0]) if type(c) is tuple else c for c in CASES])
def test_command_json_matches_its_schema(tmp_path, name, argv):
    out_dir = tmp_path / "out"
    js = tmp_path / f"{name}.json"
    cli(tmp_path, *[a.replace("{out}", str(out_dir)) for a in argv], "--json", js)
    obj = load(js)
    assert_valid(obj, f"attncert {' '.join(argv)} --json")
    # what the command wrote besides: certificates, and the network files of construct thm4
    written = sorted(out_dir.rglob("*.json")) + sorted(out_dir.rglob("*.network")) if out_dir.exists() else []
    if "{out}" in argv:
        assert written, f"{name}: --out wrote nothing"
    for f in written:
        assert_valid(load(f), str(f.relative_to(tmp_path)))


def test_json_on_stdout_matches_its_schema(tmp_path):
    p = cli(tmp_path, "list", "ks.thm.thm1.*", "--json", "-")
    assert_valid(json.loads(p.stdout), "attncert list --json -")


def _theorem_certificates(results) -> list[dict]:
    """Theorem certificates as `certify all` builds them (build_theorem_cert), from the results given."""
    from attncert.core.theorems import Closure, all_theorems, build_theorem_cert

    clo = Closure({r.obligation.id: r.obligation for r in results},
                  {r.obligation.id: r.evidence.verdict.name for r in results})
    return [build_theorem_cert(th, clo) for th in all_theorems()]


@pytest.fixture(scope="module")
def thm1_results():
    """The results of a small selection (seconds): `theorems` and the theorem certificates are built from
    them, every other step counting as not run (the full run is ATTNCERT_SCHEMA_FULL=1)."""
    from attncert import api

    return api.check("ks.thm.thm1.*", timeout=60.0)


def test_theorems_json_matches_its_schema(tmp_path, monkeypatch, thm1_results):
    from attncert.cli import checking
    from attncert.cli.main import run

    monkeypatch.setattr(checking, "run_all", lambda *a, **k: list(thm1_results))
    js = tmp_path / "theorems.json"
    assert run(["theorems", "--json", str(js)], out=io.StringIO(), err=io.StringIO()) == 0
    obj = load(js)
    assert obj["theorems"], "no theorem rows"
    assert_valid(obj, "attncert theorems --json")


def test_theorem_certificates_and_verify_json_match_their_schemas(tmp_path, thm1_results):
    """Theorem certificates next to the committed ks_theorems step certificates, plus one broken file:
    `verify --json` then writes every kind of record (step, theorem, REJECTED)."""
    from attncert.core.certificate import dumps

    d = tmp_path / "set"
    shutil.copytree(ROOT / "certificates" / "ks" / "ks_theorems", d / "ks" / "ks_theorems")
    certs = _theorem_certificates(thm1_results)
    assert certs
    for c in certs:
        assert_valid(c, f"theorem certificate {c['id']}")
        (d / c["paper"] / "theorems").mkdir(parents=True, exist_ok=True)
        (d / c["paper"] / "theorems" / f"{c['id']}.json").write_text(dumps(c), encoding="utf-8")
    (d / "broken.json").write_text("{", encoding="utf-8")
    js = tmp_path / "verify.json"
    cli(tmp_path, "verify", d, "--quiet", "--json", js)
    obj = load(js)
    assert_valid(obj, "attncert verify --json")
    kinds = {("theorem" if r.get("theorem") else "step") if "id" in r else r["status"] for r in obj["results"]}
    assert {"theorem", "REJECTED"} <= kinds, kinds


@pytest.mark.skipif(not os.environ.get("ATTNCERT_SCHEMA_FULL"), reason="runs every obligation: ATTNCERT_SCHEMA_FULL=1")
def test_full_theorems_and_certify_all_match_their_schemas(tmp_path):
    env_cache = {"ATTNCERT_CACHE_DIR": str(tmp_path / "cache")}
    jobs = str(max(1, min(8, os.cpu_count() or 1)))
    for args in (["certify", "all", "--out", tmp_path / "certs", "--jobs", jobs],
                 ["theorems", "--json", tmp_path / "theorems.json", "--jobs", jobs]):
        env = {**os.environ, **env_cache}
        env.pop("ATTNCERT_NO_CACHE", None)
        p = subprocess.run([sys.executable, "-m", "attncert", *map(str, args)], capture_output=True, text=True,
                           check=False, timeout=7200, cwd=tmp_path, env=env)
        assert p.returncode in (0, 1), p.stderr[-2000:]
    assert_valid(load(tmp_path / "theorems.json"), "attncert theorems --json")
    files = sorted((tmp_path / "certs").rglob("*.json"))
    assert any("theorems" in f.parts for f in files), "certify all wrote no theorem certificates"
    for f in files:
        assert_valid(load(f), str(f.relative_to(tmp_path)))
