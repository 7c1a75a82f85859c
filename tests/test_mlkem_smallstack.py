"""The stack-first variant of lib/mlkem (-DPQLAB_MLKEM_SMALLSTACK, implementation
`smallstack`: matrix entries one at a time, vectors kept in their 12-bit encoding, noise added
in place) gives the same keys, ciphertexts and shared secrets as kyber-py (an independent
FIPS 203 implementation) on random seeds, including the implicit rejection of a modified
ciphertext."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from kyber_py.ml_kem import ML_KEM_512, ML_KEM_768, ML_KEM_1024

sys.path.insert(0, str(Path(__file__).resolve().parent / "mlkem"))
from support import MLKEM, PARAMS

KYBER = {"ML-KEM-512": ML_KEM_512, "ML-KEM-768": ML_KEM_768, "ML-KEM-1024": ML_KEM_1024}


@pytest.mark.parametrize("name", list(PARAMS))
def test_smallstack_matches_kyber_py(name: str) -> None:
    kem = MLKEM(PARAMS[name], ("-DPQLAB_MLKEM_SMALLSTACK",))
    ref = KYBER[name]
    rng = random.Random(PARAMS[name].k + 100)
    for _ in range(4):
        d, z, m = rng.randbytes(32), rng.randbytes(32), rng.randbytes(32)
        ek, dk = kem.keygen(d, z)
        assert (ek, dk) == ref._keygen_internal(d, z)
        r, c, k = kem.encaps(ek, m)
        assert r == 0 and (k, c) == ref._encaps_internal(ek, m)
        assert kem.decaps(dk, c) == (0, k)
        bad = bytearray(c)
        bad[rng.randrange(len(bad))] ^= 1 << rng.randrange(8)
        r, k2 = kem.decaps(dk, bytes(bad))
        assert r == 0 and k2 == ref._decaps_internal(dk, bytes(bad)) and k2 != k
