"""Stack of ML-KEM per operation on the Cortex-M4 (QEMU mps2-an386), measured by the harness
`stack` program (stack spray, deepest overwritten word). The goal of issue 3: no higher than
pqm4's portable `clean` ML-KEM-768 (10,248 / 13,384 / 14,480 bytes for keygen / encaps /
decaps); the test also pins the reached figures (docs/mlkem.md) with a little slack so that a
regression is noticed."""

from __future__ import annotations

from stackprobe import stack_mps2_an386

OPS = {"keypair", "encaps", "decaps"}

PQM4_CLEAN_768 = {"keypair": 10_248, "encaps": 13_384, "decaps": 14_480}
# figures reached (docs/mlkem.md), checked with 5 % slack. Re-pinned on 2026-11-27 (issue 17,
# branch h64): `ref` is the speed-first implementation and, by the lead's decision, may spend
# stack on speed as long as it stays below pqm4's portable `clean` (PQM4_CLEAN_768): its matrix
# product accumulates in 32 bits (two 1 KB accumulators, one for k = 4) with the vector's
# b1 gamma products cached (256 B per polynomial), about 1.6-1.9 KB more than the 16-bit form
# (before: 4,304 / 4,376 / 4,344, 4,824 / 4,904 / 4,872, 4,824 / 4,896 / 4,864 bytes).
# The stack-first `smallstack` is held to pqm4 m4fstack below.
LIMITS = {
    "ml-kem-512": {"keypair": 5_896, "encaps": 6_000, "decaps": 5_968},
    "ml-kem-768": {"keypair": 6_680, "encaps": 6_784, "decaps": 6_752},
    "ml-kem-1024": {"keypair": 6_424, "encaps": 6_496, "decaps": 6_464},
}


def test_stack_mps2_an386() -> None:
    for scheme, stack in stack_mps2_an386("ref", LIMITS, OPS).items():
        for op, used in stack.items():
            assert used <= LIMITS[scheme][op] * 1.05, (scheme, op, used)
            if scheme == "ml-kem-768":
                assert used < PQM4_CLEAN_768[op]


# pqm4's m4fstack (pqm4-cc2c1b9 dropped in with --impl-path), peak stack per operation as the
# same `stack` program measures it on m4-sim (pqlab bench, 2026-11-26; docs/mlkem.md): the
# stack-first variant must stay at or below it
PQM4_M4FSTACK = {
    "ml-kem-512": {"keypair": 2_540, "encaps": 2_588, "decaps": 2_572},
    "ml-kem-768": {"keypair": 3_068, "encaps": 3_108, "decaps": 3_092},
    "ml-kem-1024": {"keypair": 3_572, "encaps": 3_612, "decaps": 3_596},
}


def test_smallstack_below_pqm4_m4fstack() -> None:
    for scheme, stack in stack_mps2_an386("smallstack", PQM4_M4FSTACK, OPS).items():
        for op, used in stack.items():
            assert used <= PQM4_M4FSTACK[scheme][op], (scheme, op, used)
