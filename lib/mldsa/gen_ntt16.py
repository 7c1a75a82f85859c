#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Constants and bounds of the small-modulus NTT of lib/mldsa/ntt16.c (c s1, c s2).

Signing multiplies the challenge c (tau coefficients +-1) by s1 and s2 (coefficients in
[-eta, eta]); every coefficient of such a product has absolute value at most tau eta
(78, 196, 120 for ML-DSA-44/65/87), so the product is determined by its residues modulo
any p > 2 tau eta. p = 7681 = 15 * 2^9 + 1 is the smallest prime with p = 1 mod 512, so
Z_p has a primitive 512th root of unity and X^256 + 1 splits into linear factors: the
same 8-layer negacyclic NTT as FIPS 204's, with 16-bit coefficients and a 16-bit
Montgomery reduction (R = 2^16):

    mont16(a) = (a + m p) / 2^16,  m = the signed 16-bit value of a (-p^-1) mod 2^16,

exact division, |mont16(a)| <= (|a| + 2^15 p) / 2^16. This script computes the
twiddle factors (62 is the smallest primitive 512th root of unity mod p), the final
scaling constant, and checks by interval arithmetic that no intermediate value of the
transforms leaves the int16 range. Run: python3 lib/mldsa/gen_ntt16.py (prints the C
table). The armv7em generator (lib/native/armv7em/gen_mldsa_ntt.py) imports nothing
from here but recomputes the same numbers; tests compare both with this script.
"""

from __future__ import annotations

P = 7681
ROOT = 62
R = 1 << 16
NINV = (-pow(P, -1, R)) % R  # 7679: -p^-1 mod 2^16, < 2^15 so also its signed value
IN_BOUND = 64  # |input coefficient| accepted by ntt16 (c: 1, s1/s2: eta <= 4)
HALF = (P - 1) // 2  # 3840


def brv8(m: int) -> int:
    return int(f"{m:08b}"[::-1], 2)


def centred(x: int) -> int:
    x %= P
    return x - P if x > HALF else x


# zetas16[m] = 62^BitRev8(m) * 2^16 mod p, centred; index 0 unused
ZETAS16 = [centred(pow(ROOT, brv8(m), P) * R) for m in range(256)]
# Factors: ntt16 ends with one reduction by mont16(x) (x 2^-16), so its output is
# NTT(a) 2^-16; the pointwise product adds 2^-16 (operands 2^-32 together), the inverse
# transform two more reductions (2^-32) and a factor 256: F = 2^96 / 256 cancels all.
F_FINAL = centred(pow(R, 6, P) * pow(256, -1, P))
# the last inverse layer (len = 128) is merged with the scaling: x_j = mont16(F (u + v)),
# x_{j+128} = mont16(F_LAST (u - v)), F_LAST = -zeta16[1] F 2^-16 (one product instead of two)
F_LAST = centred(-ZETAS16[1] * F_FINAL * pow(R, -1, P))


def mont_bound(a: int) -> int:
    """Largest |mont16(x)| for |x| <= a."""
    return (a + (R // 2) * P) // R


def zeta_max() -> int:
    return max(abs(z) for z in ZETAS16[1:])


def forward_bounds() -> list[int]:
    """Bound after each forward layer (len 128 .. 1) and the output bound; the reduction
    (mont16 of every coefficient) runs before the layer len = 2."""
    zm = zeta_max()
    b = IN_BOUND
    out = []
    for layer in range(8):
        if layer == 6:
            b = mont_bound(b)
        b = b + mont_bound(zm * b)
        out.append(b)
    return out


def inverse_bounds() -> list[int]:
    """Bound after the pointwise product, then after each inverse layer len 1 .. 64
    (reductions before len = 4 and len = 32), then u + v, u - v of the last layer and the
    output of its merged scaling."""
    zm = zeta_max()
    fb = forward_bounds()[-1]
    b = mont_bound(fb * fb)
    out = [b]
    for layer in range(7):
        if layer in (2, 5):
            b = mont_bound(b)
        # a + b and a - b, then the b side through mont16(zeta (a - b))
        s = 2 * b
        b = max(s, mont_bound(zm * s))
        out.append(b)
    s = 2 * b
    out.append(s)
    out.append(max(mont_bound(abs(F_FINAL) * s), mont_bound(abs(F_LAST) * s)))
    return out


# mul16_add's output x satisfies |x| <= inverse_bounds()[-1] (5280), so it equals the
# product whenever the product's coefficients are at most p - 1 - 5280 in absolute value
EXACT = P - 1 - 5280


def check() -> None:
    assert inverse_bounds()[-1] == 5280 and F_LAST == -3072
    assert pow(ROOT, 256, P) == P - 1
    assert (NINV * P) % R == R - 1 and NINV < R // 2
    for b in forward_bounds() + inverse_bounds():
        assert b < 1 << 15, b
    # the final value is the exact product when that is at most EXACT in absolute value
    assert EXACT == 2400 and 4 * 49 <= EXACT


def c_table() -> str:
    rows = []
    for i in range(0, 256, 16):
        rows.append("    " + ", ".join(str(z) for z in ZETAS16[i : i + 16]) + ",")
    return "\n".join(rows)


if __name__ == "__main__":
    check()
    print(f"/* F_FINAL = {F_FINAL}; forward bounds {forward_bounds()}; inverse {inverse_bounds()} */")
    print(c_table())
