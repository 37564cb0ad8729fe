"""Tools that attack attncert itself: mutants of transcribed claims and fuzzed certificate files (docs/soundness.md)."""
