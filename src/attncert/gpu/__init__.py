"""torch models of the constructed networks, `attncert gpu-check` and `attncert train`. torch is imported lazily."""
