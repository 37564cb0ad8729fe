"""Numerics: one evaluator over expression trees, parameterised by a number system (exact rationals, mpmath,
arb balls, floats)."""
