"""The standard methods, one module per method family: sympy (identities), smt (z3 and cvc5 on the
prover's own translation, solver_terms), arb (rigorous balls), sampling (counterexample search and
numerical confirmation). Importing this package registers them (attncert.core.registry)."""

from attncert.backends import arb, bnb, sampling, smt, sympy_backend  # noqa: F401  (registration)
