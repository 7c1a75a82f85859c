"""The kernel dispatch of lib/mlkem/kernels.h: a backend header given with
-DPQLAB_MLKEM_BACKEND_HEADER replaces the kernels it declares native (here NTT and the 4-way
matrix kernel, by a counting stand-in in tests/mlkem/fake_backend.*), the others stay
portable, and key generation stays byte-exact with kyber-py (an independent FIPS 203
implementation, a test dependency) on random seeds."""

from __future__ import annotations

import ctypes
import random
import sys
from pathlib import Path

import pytest
from kyber_py.ml_kem import ML_KEM_512, ML_KEM_768, ML_KEM_1024

sys.path.insert(0, str(Path(__file__).resolve().parent / "mlkem"))
from support import COMMON_SOURCES, MLKEM_SOURCES, PARAMS, build_shared

KYBER = {"ML-KEM-512": ML_KEM_512, "ML-KEM-768": ML_KEM_768, "ML-KEM-1024": ML_KEM_1024}


@pytest.mark.parametrize("name", list(PARAMS))
def test_backend_dispatch(name: str) -> None:
    p = PARAMS[name]
    lib = build_shared(
        f"mlkem{p.n}-fakebackend",
        MLKEM_SOURCES + COMMON_SOURCES + ["tests/mlkem/rng.c", "tests/mlkem/fake_backend.c"],
        [*p.cflags, "-DPQLAB_TEST_DRBG", '-DPQLAB_MLKEM_BACKEND_HEADER="fake_backend.h"'],
        ["lib/mlkem", "tests/mlkem"],
    )
    ntt_calls = ctypes.c_ulong.in_dll(lib, "pqlab_test_native_ntt_calls")
    x4_calls = ctypes.c_ulong.in_dll(lib, "pqlab_test_native_matacc_x4_calls")
    rng = random.Random(p.k)
    n = 0
    for _ in range(5):
        d, z = rng.randbytes(32), rng.randbytes(32)
        ek = ctypes.create_string_buffer(p.ek_len)
        dk = ctypes.create_string_buffer(p.dk_len)
        getattr(lib, p.prefix + "crypto_kem_keypair_derand")(ek, dk, d, z)
        assert (ek.raw, dk.raw) == KYBER[name]._keygen_internal(d, z)
        n += 1
    assert n == 5
    # per key generation: 2k NTTs (s and e) and k^2 // 4 four-way matrix batches
    assert ntt_calls.value == 5 * 2 * p.k
    assert x4_calls.value == 5 * (p.k * p.k // 4)
