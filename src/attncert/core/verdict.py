"""The four verdicts. Ordered by severity so that reports can sort the worst first."""

from enum import IntEnum


class Verdict(IntEnum):
    """Outcome of one obligation; larger value = needs more attention."""

    PROVED = 0  # holds for all values allowed by the hypotheses: symbolic, SMT unsat, exact, or rigorous interval
    CONFIRMED = 1  # numerical evidence only, never a proof: records precision, sample and the worst case
    UNKNOWN = 2  # undecided: timeout, solver `unknown`, missing backend, unsupported function
    REFUTED = 3  # false as stated: a counterexample replayed in exact or rigorous arithmetic

    @classmethod
    def parse(cls, name: str) -> "Verdict":
        try:
            return cls[name]
        except KeyError:
            raise ValueError(f"unknown verdict {name!r}") from None
