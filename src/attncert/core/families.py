"""The transcribed papers: families of obligations loaded from ``proofs/`` (package attncert_proofs),
and selectors that pick obligations out of them."""

from __future__ import annotations

import fnmatch
import importlib
from dataclasses import dataclass, replace

from attncert.core.claims import Obligation
from attncert.core.errors import UnknownSelector, UsageError


@dataclass(slots=True, frozen=True)
class Family:
    """A theorem family: the obligations transcribed from one part of one paper."""

    name: str
    paper: str
    title: str
    obligations: tuple[Obligation, ...]
    doc: str = ""


def collector(prefix: str, paper: str):
    """(obligations, ob) for a family module: ``ob(id_, ref, statement, claim, methods, **kw)`` appends the
    obligation ``{prefix}.{id_}`` of ``paper`` to the list."""
    from attncert.core.claims import Obligation

    obs: list = []

    def ob(id_, ref, statement, c, methods, **kw):
        obs.append(Obligation(id=f"{prefix}.{id_}", paper=paper, ref=ref, statement=statement, claim=c,
                              methods=tuple(methods), **kw))

    return obs, ob


def family(name: str, paper: str, title: str, obligations, doc: str = "") -> Family:
    obs = tuple(replace(o, family=name) for o in obligations)
    ids = [o.id for o in obs]
    dup = {i for i in ids if ids.count(i) > 1}
    if dup:
        raise ValueError(f"duplicate obligation ids in {name}: {sorted(dup)}")
    return Family(name, paper, title, obs, doc)


_CACHE: dict[str, Family] = {}
ENTRY_POINTS = "attncert.families"  # the group a package's families register in (pyproject entry points)


def _add(fam, where: str) -> None:
    if not isinstance(fam, Family):
        raise UsageError(f"{where}: FAMILY must be built with attncert.core.families.family(...)")
    if fam.name in _CACHE:
        raise UsageError(f"{where}: a family named {fam.name!r} is already registered")
    _CACHE[fam.name] = fam


def all_families() -> list[Family]:
    """Every registered family: the entry points of the group ``attncert.families`` (the two papers'
    families register there, in pyproject.toml, exactly as a user's package does), the papers' first
    in their fixed order, then the others by name."""
    if not _CACHE:
        from importlib.metadata import entry_points

        index = importlib.import_module("attncert_proofs")
        eps = {ep.name: ep for ep in entry_points(group=ENTRY_POINTS)}
        order = [n for n in index.FAMILIES if n in eps] + sorted(n for n in eps if n not in index.FAMILIES)
        missing = [n for n in index.FAMILIES if n not in eps]
        if missing:  # an out-of-date install: the papers' entry points come with `pip install -e .`
            raise UsageError(f"families {missing} are not registered: re-install attncert (pip install -e .)")
        for n in order:
            _add(eps[n].load(), f"entry point {n} ({eps[n].value})")
    return list(_CACHE.values())


def load_file(path: str) -> Family:
    """The family defined (as ``FAMILY``) by a Python file of claims: ``attncert check mine.py``."""
    import importlib.util
    import os

    if not os.path.isfile(path):
        raise UsageError(f"{path}: no such file")
    name = "attncert_user_" + "".join(c if c.isalnum() else "_" for c in os.path.abspath(path))
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(mod)
    except Exception as e:  # noqa: BLE001 - the user's file: one line naming it
        raise UsageError(f"{path}: {e.__class__.__name__}: {e}") from None
    fam = getattr(mod, "FAMILY", None)
    claims = getattr(mod, "CLAIMS", None)
    if fam is None and isinstance(claims, (list, tuple)) and claims and all(isinstance(c, Obligation) for c in claims):
        stem = os.path.splitext(os.path.basename(path))[0]
        paper = getattr(mod, "PAPER", None) or (claims[0].paper if claims[0].paper != "mine" else stem)
        fam = family(stem, paper, getattr(mod, "TITLE", f"claims of {os.path.basename(path)}"),
                     [replace(c, paper=paper) for c in claims])
    if not isinstance(fam, Family):
        raise UsageError(f"{path}: defines neither CLAIMS = [attncert.Claim(...), ...] nor "
                         "FAMILY = family(name, paper, title, obligations)")
    return fam


def select(selector: str | None) -> list[Obligation]:
    """Obligations matching a selector: 'all', a paper ('ks', 'infoflow'), a family name, an
    obligation id, a glob over ids ('ks.boltz.lemma7.*'), or a Python file of claims ('mine.py', which
    defines FAMILY). Unknown selectors raise."""
    if selector is not None and selector.endswith(".py"):
        return list(load_file(selector).obligations)
    fams = all_families()
    obs = [o for f in fams for o in f.obligations]
    if selector in (None, "", "all"):
        return obs
    by_family = [o for f in fams if f.name == selector for o in f.obligations]
    if by_family:
        return by_family
    by_paper = [o for o in obs if o.paper == selector]
    if by_paper:
        return by_paper
    hits = [o for o in obs if fnmatch.fnmatchcase(o.id, selector) or o.id == selector]
    if hits:
        return hits
    names = ", ".join(sorted({f.name for f in fams} | {"ks", "infoflow", "all"}))
    raise UnknownSelector(f"selector {selector!r} matches nothing; try one of: {names}, or an obligation id/glob")
