"""The opt-in early-abort signing of lib/mldsa (-DPQLAB_MLDSA_EARLY_ABORT: an iteration stops
at the first failed check, z then r0, instead of computing every check; not the default, see
docs/mldsa.md "Constant time") gives the same signatures and iteration counts: every ACVP
sigGen case (v1.1.0.35) and random external-mu signatures compared with the default build."""

from __future__ import annotations

import random
import sys
from functools import cache
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_mldsa_support import MLDSA, MODES, acvp_siggen_matches, mldsa


@cache
def early(mode: int) -> MLDSA:
    return MLDSA(mode, ("-DPQLAB_MLDSA_EARLY_ABORT",))


def test_acvp_siggen() -> None:
    assert acvp_siggen_matches(early) == 60


@pytest.mark.parametrize("mode", MODES)
def test_same_as_default(mode: int) -> None:
    a, b = mldsa(mode), early(mode)
    rng = random.Random(1000 + mode)
    r, pk, sk = a.keypair_internal(rng.randbytes(32))
    assert r == 0
    iters = set()
    for _ in range(12):
        mu, rnd = rng.randbytes(64), rng.randbytes(32)
        ra, sa = a.sign_extmu(sk, mu, rnd)
        rb, sb = b.sign_extmu(sk, mu, rnd)
        assert ra == rb == 0 and sa == sb and a.iterations() == b.iterations()
        iters.add(b.iterations())
        assert b.verify_extmu(pk, mu, sb) == 0
    assert max(iters) > 1  # some signatures went through rejected iterations
