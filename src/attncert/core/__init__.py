"""The general prover core: expressions, claims, verdicts, the method registry, the engine, certificates, the
result cache and the runner. Nothing here knows either paper."""
