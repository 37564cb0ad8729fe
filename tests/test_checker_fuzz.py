"""Fuzzing the independent checker on real certificates: every mutated file ends in a clean verdict
(VERIFIED with an unchanged claim, or REJECTED with a reason), with no exception and within a time bound."""

from __future__ import annotations

import glob
import os
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from attncert.qa.fuzz import KINDS, check_one, mutate

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CERTS = sorted(glob.glob(os.path.join(ROOT, "certificates", "**", "*.json"), recursive=True))
# a spread of evidence kinds: identity, smt, interval, counterexample, sample
PICK = [c for c in CERTS if any(k in c for k in ("lemma7.hyp_114_as_printed", "boltz.identity_85.n2", "thm6.L_choice_831",
                                                 "thm5.cube_count_as_printed", "thm1.softmax_separates_printed",
                                                 "lemma4.sampled", "thm2.step_42_as_printed"))] or CERTS[:5]


@pytest.mark.parametrize("kind", KINDS)
def test_each_mutation_kind_is_clean(kind, tmp_path):
    rng = random.Random(kind)
    for path in PICK[:4]:
        raw = open(path, "rb").read()
        clean, outcome, _ = check_one(raw, mutate(raw, kind, rng), str(tmp_path))
        assert clean, (path, kind, outcome)


@settings(derandomize=True, max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10 ** 9), kind=st.sampled_from(KINDS), which=st.integers(0, max(0, len(PICK) - 1)))
def test_fuzz_random(seed, kind, which, tmp_path):
    raw = open(PICK[which], "rb").read()
    clean, outcome, _ = check_one(raw, mutate(raw, kind, random.Random(seed)), str(tmp_path))
    assert clean, (PICK[which], kind, seed, outcome)


def test_changed_constant_is_rejected(tmp_path):
    raw = open(PICK[0], "rb").read()
    for seed in range(20):
        m = mutate(raw, "number", random.Random(seed))
        if m != raw:
            clean, outcome, _ = check_one(raw, m, str(tmp_path))
            assert clean and outcome == "REJECTED", outcome


def test_resource_limits_are_configurable_and_named(tmp_path):
    import subprocess
    import sys

    path = PICK[0]
    exe = [sys.executable, "-m", "attncert.cli", "verify", path]
    r = subprocess.run(exe + ["--max-digits", "1"], capture_output=True, text=True)
    assert r.returncode == 1 and "more than 1 digits" in r.stdout
    r = subprocess.run(exe + ["--max-file-mb", "0.0001"], capture_output=True, text=True)
    assert r.returncode == 1 and "file larger than" in r.stdout
    r = subprocess.run(exe + ["--max-nodes", "3"], capture_output=True, text=True)
    assert r.returncode == 1 and "too large" in r.stdout
    r = subprocess.run(exe, capture_output=True, text=True)
    assert r.returncode == 0
    r = subprocess.run(exe + ["--max-digits", "zero"], capture_output=True, text=True)
    assert r.returncode == 2 and "Traceback" not in r.stderr
