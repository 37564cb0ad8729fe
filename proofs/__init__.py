"""The transcribed papers. Each module defines ``FAMILY``; this list is the registry, in order."""

FAMILIES = ["ks_boltzmann"]
