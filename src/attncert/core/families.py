"""The transcribed papers: families of obligations loaded from ``proofs/`` (package attncert_proofs),
and selectors that pick obligations out of them."""

from __future__ import annotations

import fnmatch
import importlib
from dataclasses import dataclass, replace

from attncert.core.claims import Obligation
from attncert.core.errors import UnknownSelector


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


def all_families() -> list[Family]:
    if not _CACHE:
        index = importlib.import_module("attncert_proofs")
        for mod in index.FAMILIES:
            fam = importlib.import_module(f"attncert_proofs.{mod}").FAMILY
            _CACHE[fam.name] = fam
    return list(_CACHE.values())


def select(selector: str | None) -> list[Obligation]:
    """Obligations matching a selector: 'all', a paper ('ks', 'infoflow'), a family name, an
    obligation id, or a glob over ids ('ks.boltz.lemma7.*'). Unknown selectors raise."""
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
