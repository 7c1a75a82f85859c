# SPDX-License-Identifier: MIT
"""SLH-DSA against its hash-primitive count (pqlab/slhdsa_bound.py, docs/slhdsa.md
"Permutation-count bound"): the count of FIPS 205's algorithms against counts worked out by
hand, and on m4-sim the profile's cycles in the primitive divided by the count must give the
same cycles per call for key generation and signing (within 0.1 %), so signing's own parts
(FORS, the message hashes, the d layers) make no call beyond the count. (A wrong per-leaf
count would shift both operations alike; the by-hand counts cover that.)"""

from __future__ import annotations

import json

import pytest
from cli_runner import pqlab_stdout

from pqlab.slhdsa_bound import counts


def test_counts_by_hand() -> None:
    # SLH-DSA-SHAKE-128f (n 16, h' 3, d 22, a 6, k 33, len 35): a WOTS+ key is 35 PRF, 525 F
    # and T_35 over 16 + 32 + 560 bytes (5 permutations); the top tree 8 of them and 7 H
    leaf = 35 + 35 * 15 + 5
    assert counts("slh-dsa-shake-128f", "keypair") == {"keccak": 8 * leaf + 7}
    fors = 33 * (64 * 2 + 63) + 5  # k trees of 2^a leaves (PRF, F) and 2^a - 1 H; T_33
    assert counts("slh-dsa-shake-128f", "sign") == {"keccak": 1 + 1 + fors + 22 * (8 * leaf + 7)}
    # SHA2-128f: T_35 is 22 + 560 bytes + 9 of padding, 10 blocks; PK.seed's block once
    assert counts("slh-dsa-sha2-128f", "keypair") == {"sha256": 1 + 8 * (35 + 35 * 15 + 10) + 7}
    # category 5: H and T on SHA-512 (T_67: 22 + 67 * 32 + 17 bytes, 18 blocks of 128)
    kp = counts("slh-dsa-sha2-256f", "keypair")
    assert kp == {"sha256": 1 + 16 * (67 + 67 * 15), "sha512": 1 + 16 * 18 + 15}
    with pytest.raises(ValueError):
        counts("slh-dsa-shake-128f", "verify")
    with pytest.raises(ValueError):
        counts("ml-dsa-44", "sign")


# the primitive's function in the profile (the armv7em Keccak core; lib/common/sha2.c)
PRIMITIVE = {
    "slh-dsa-shake-128f": ("keccak", "pqlab_keccakf1600_armv7em_core"),
    "slh-dsa-sha2-128f": ("sha256", "sha256_compress_c"),
}


def test_signing_makes_no_call_beyond_the_count_on_m4_sim() -> None:
    code, out = pqlab_stdout("profile", *PRIMITIVE, "-i", "ref", "-p", "m4-sim", "--top", "40", "--json")
    assert code == 0, out
    per_call: dict[str, dict[str, float]] = {}
    for row in json.loads(out):
        if row["operation"] == "verify":
            continue
        prim, fn = PRIMITIVE[row["scheme"]]
        cycles = {f["name"]: f["exclusive"] for f in row["functions"]}[fn]
        per_call.setdefault(row["scheme"], {})[row["operation"]] = (
            cycles / counts(row["scheme"], row["operation"])[prim]
        )
    for scheme, ops in per_call.items():
        assert set(ops) == {"keypair", "sign"}, ops
        assert abs(ops["sign"] / ops["keypair"] - 1) < 1e-3, (scheme, ops)
