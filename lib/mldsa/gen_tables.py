#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Generates the constant tables of lib/mldsa/ntt.c from FIPS 204 facts.

q = 8380417 and zeta = 1753 (a primitive 512th root of unity mod q) are given in
FIPS 204 section 4 / Appendix B. The NTT (Algorithm 41) uses zeta^BitRev8(m) for
m = 1..255; we store them multiplied by the Montgomery factor 2^32 mod q, as centred
representatives, so that one Montgomery reduction multiplies by the plain zeta.
Also checks the division-free constants of rounding.c exhaustively.
Run: python3 lib/mldsa/gen_tables.py  (prints the C table).
"""

Q = 8380417
ZETA = 1753
R = 1 << 32


def brv8(m: int) -> int:
    return int(f"{m:08b}"[::-1], 2)


def centred(x: int) -> int:
    x %= Q
    return x - Q if x > Q // 2 else x


def zetas() -> list[int]:
    return [centred(pow(ZETA, brv8(m), Q) * R) for m in range(256)]


def check_division(gamma2: int, mult: int, shift: int) -> None:
    # floor(x / (2*gamma2)) == (x * mult) >> shift for every x the code can pass
    d = 2 * gamma2
    for x in range(Q + gamma2):
        assert (x * mult) >> shift == x // d, (gamma2, x)


if __name__ == "__main__":
    assert pow(ZETA, 256, Q) == Q - 1
    z = zetas()
    print("/* zetas_mont[m] = zeta^BitRev8(m) * 2^32 mod q, centred; index 0 unused */")
    for i in range(0, 256, 8):
        print("    " + ", ".join(f"{v}" for v in z[i : i + 8]) + ",")
    # 256^-1 * 2^64 mod q: the inverse NTT's final scale, compensating one
    # Montgomery factor 2^-32 from the pointwise product and the one of its own mul.
    print("INVN_MONT2 =", centred(pow(256, Q - 2, Q) * R * R))
    print("QINV =", pow(Q, -1, R))
