"""The errata catalogue of both papers (issue 17, item 2): one entry per erratum, quoting the paper verbatim.

Data only; attncert.integrations.audit joins it with the check results (`attncert audit`). Each entry is a
dict with the fields
- id: a stable slug; where: the place as a referee writes it; lines: (first, last) line of the quote in the
  paper's text (papers/kajitsuka-sato-iclr2024.txt, papers/infoflow-2605.17930.txt of the shared folder);
- quote: the paper's words, verbatim (segments joined by " [...] " where text is elided);
- severity: conclusion | constant | false-step | typo (errata, in that rank) or convention | remark (notes:
  not errors);
- title, explanation, repair: for the authors, in plain words and plain-text mathematics;
- obligations: the obligation ids that are the evidence (their repairs are found through their `repairs`).
tests/test_audit.py checks that every obligation with a finding is in exactly one entry and that every quote
is verbatim at its lines (against tests/data/paper_excerpts.json, itself checked against the papers where
they are present)."""

from __future__ import annotations

from attncert_proofs.errata_infoflow_rest import ERRATA as _INFOFLOW_REST
from attncert_proofs.errata_infoflow_thm4 import ERRATA as _INFOFLOW_THM4
from attncert_proofs.errata_ks import ERRATA as _KS

ERRATA = {"ks": _KS, "infoflow": _INFOFLOW_THM4 + _INFOFLOW_REST}
