"""The transcribed papers. Each module defines ``FAMILY``; this list is the registry, in order."""

FAMILIES = ["ks_boltzmann", "ks_general", "ks_theorems", "infoflow_thm4", "infoflow_thm5", "infoflow_thm6", "infoflow_model",
            "infoflow_trees"]
