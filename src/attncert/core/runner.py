"""Running many obligations: in parallel processes (``--jobs``) with a deterministic output order, and
with a result cache (``.attncert-cache/``, ``--no-cache``).

The cache key is the SHA-256 of the obligation's id, claim, methods and options, the timeout, the
versions of every installed tool, and a hash of attncert's own source (every .py file of the package and
of the transcribed proofs), so that a fix to attncert, a new solver version or a solver that is no longer
installed all miss. Only decisive results (PROVED, REFUTED, CONFIRMED) are cached: an UNKNOWN may be a
timeout that a later run can settle. A cached result carries the same evidence, so certificates written
from it are byte-identical to fresh ones. A damaged cache entry is ignored (and rewritten)."""

from __future__ import annotations

import hashlib
import json
import os
from concurrent.futures import ProcessPoolExecutor

from attncert.core.claims import Evidence, Obligation, Result
from attncert.core.engine import remember, run_obligation
from attncert.core.verdict import Verdict

CACHE_DIR = ".attncert-cache"
CACHE_SCHEMA = "attncert.cache/2"


def source_hash() -> str:
    """SHA-256 over the source files of attncert and attncert_proofs (path and content, sorted)."""
    import attncert_proofs

    h = hashlib.sha256()
    here = os.path.dirname(os.path.abspath(__file__))  # src/attncert/core
    for root in (os.path.dirname(here), os.path.dirname(os.path.abspath(attncert_proofs.__file__))):
        files = []
        for d, _dirs, names in os.walk(root):
            files.extend(os.path.join(d, n) for n in names if n.endswith((".py", ".json")))
        for f in sorted(files):
            h.update(os.path.relpath(f, root).encode() + b"\0")
            with open(f, "rb") as fh:
                h.update(fh.read())
            h.update(b"\0")
    return h.hexdigest()


def _opt_value(v):
    if callable(v):
        return f"{getattr(v, '__module__', '')}.{getattr(v, '__qualname__', repr(v))}"
    if isinstance(v, (list, tuple)):
        return [_opt_value(x) for x in v]
    return str(v) if not isinstance(v, (int, float, str, bool, type(None))) else v


class ResultCache:
    def __init__(self, root: str = CACHE_DIR):
        from attncert.core.versions import ATTNCERT_VERSION as __version__
        from attncert.core.versions import versions

        self.root = root
        self.tools = {"attncert": __version__, "attncert-source": source_hash(), **versions()}
        self.hits = self.misses = 0

    def key(self, ob: Obligation, timeout: float) -> str:
        blob = {"schema": CACHE_SCHEMA, "id": ob.id, "claim": ob.claim.to_json(), "methods": list(ob.methods),
                "options": [[k, _opt_value(v)] for k, v in ob.options], "timeout": float(timeout),
                "tools": self.tools}   # float: a timeout of 300 and one of 300.0 are the same run
        return hashlib.sha256(json.dumps(blob, sort_keys=True, separators=(",", ":")).encode()).hexdigest()

    def _path(self, key: str) -> str:
        return os.path.join(self.root, key[:2], key + ".json")

    def get(self, ob: Obligation, timeout: float) -> Result | None:
        p = self._path(self.key(ob, timeout))
        try:
            with open(p, encoding="utf-8") as fh:
                d = json.load(fh)
            ev = Evidence(Verdict[d["verdict"]], d["method"], d["detail"], tuple(d["trust"]), d.get("reason", ""))
            if ev.verdict == Verdict.UNKNOWN:
                raise ValueError("unknown is never cached")
            self.hits += 1
            return Result(ob, ev, float(d["seconds"]), tuple(d["tried"]))
        except (OSError, ValueError, KeyError, TypeError):
            self.misses += 1
            return None

    def put(self, r: Result, timeout: float) -> None:
        if r.verdict == Verdict.UNKNOWN:
            return
        p = self._path(self.key(r.obligation, timeout))
        ev = r.evidence
        d = {"verdict": ev.verdict.name, "method": ev.method, "detail": ev.detail, "trust": list(ev.trust),
             "reason": ev.reason, "seconds": r.seconds, "tried": list(r.tried)}
        try:
            os.makedirs(os.path.dirname(p), exist_ok=True)
            tmp = f"{p}.{os.getpid()}.tmp"
            with open(tmp, "w", encoding="utf-8") as fh:
                json.dump(d, fh)
            os.replace(tmp, p)
        except (OSError, TypeError, ValueError):
            pass   # a cache that cannot be written only costs time


_JOBS: list = []


def _from_cache(obs, timeout: float, cache: ResultCache | None) -> tuple[list, list[int]]:
    """The cached results in place (None elsewhere) and the indices still to run."""
    results: list[Result | None] = [None] * len(obs)
    todo = []
    for i, ob in enumerate(obs):
        hit = cache.get(ob, timeout) if cache else None
        if hit is not None:
            results[i] = hit
        else:
            todo.append(i)
    return results, todo


def _run_index(args):
    i, timeout = args
    r = run_obligation(_JOBS[i], timeout)
    ev = r.evidence
    return i, (ev.verdict.name, ev.method, ev.detail, ev.trust, ev.reason), r.seconds, r.tried


def run_many(obs, timeout: float, jobs: int = 1, cache: ResultCache | None = None, on_result=None,
             on_start=None) -> list[Result]:
    """Results in the order of ``obs``. With jobs > 1 the uncached obligations run in forked worker
    processes (which may fork their own solver guards); results are still reported in order."""
    obs = list(obs)
    remember(obs)   # link targets for the engine's cycle check (a user's claims citing each other)
    results, todo = _from_cache(obs, timeout, cache)
    done_upto = 0

    def flush():
        nonlocal done_upto
        while done_upto < len(obs) and results[done_upto] is not None:
            if on_result:
                on_result(results[done_upto])
            done_upto += 1

    flush()
    if jobs > 1 and len(todo) > 1:
        import multiprocessing as mp

        global _JOBS
        _JOBS = obs
        try:
            with ProcessPoolExecutor(min(jobs, len(todo)), mp_context=mp.get_context("fork")) as ex:
                for i, (v, meth, detail, trust, reason), sec, tried in ex.map(_run_index, [(i, timeout) for i in todo]):
                    r = Result(obs[i], Evidence(Verdict[v], meth, detail, tuple(trust), reason), sec, tuple(tried))
                    results[i] = r
                    if cache:
                        cache.put(r, timeout)
                    flush()
        finally:
            _JOBS = []
    else:
        for i in todo:
            if on_start:
                on_start(obs[i])
            r = run_obligation(obs[i], timeout)
            results[i] = r
            if cache:
                cache.put(r, timeout)
            flush()
    flush()
    return results  # type: ignore[return-value]


# --------------------------------------------------------------------------- distributed (Dask)

def _dask_run(oid: str, timeout: float):
    """On a Dask worker: select the obligation by id (no obligation objects travel) and run it."""
    from attncert.core.families import select

    (ob,) = [o for o in select(oid) if o.id == oid]
    r = run_obligation(ob, timeout)
    ev = r.evidence
    return (ev.verdict.name, ev.method, ev.detail, tuple(ev.trust), ev.reason), r.seconds, tuple(r.tried)


def run_dask(obs, timeout: float, address: str | None = None, workers: int = 2, cache: ResultCache | None = None,
             on_result=None) -> list[Result]:
    """Run registered obligations on a Dask cluster: ``address`` of a scheduler (tcp://host:8786), or a
    local cluster of ``workers`` processes when it is None. Results come back in the order of ``obs``.
    Workers must have attncert (and the solvers) installed; obligations are looked up there by id, so
    only ids and JSON evidence cross the network. Worker processes are started non-daemonic so that they
    can fork the solver guards."""
    try:
        import dask
        from distributed import Client, LocalCluster
    except ImportError:
        from attncert.core.errors import UsageError
        raise UsageError("--executor dask needs dask[distributed] (pip install 'attncert[dask]')") from None
    obs = list(obs)
    remember(obs)
    results, todo = _from_cache(obs, timeout, cache)
    with dask.config.set({"distributed.worker.daemon": False, "distributed.logging.distributed": "error"}):
        cluster = None
        if address is None:
            cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(address or cluster)
        try:
            futs = [client.submit(_dask_run, obs[i].id, timeout, pure=False, key=f"attncert-{i}-{obs[i].id}")
                    for i in todo]
            for i, fut in zip(todo, futs):
                (v, meth, detail, trust, reason), sec, tried = fut.result()
                r = Result(obs[i], Evidence(Verdict[v], meth, detail, tuple(trust), reason), sec, tuple(tried))
                results[i] = r
                if cache:
                    cache.put(r, timeout)
        finally:
            client.close()
            if cluster is not None:
                cluster.close()
    if on_result:
        for r in results:
            on_result(r)
    return results  # type: ignore[return-value]
