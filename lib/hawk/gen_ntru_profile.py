"""Bit-length statistics of Hawk's (f, g) along the field-norm descent of NTRUSolve.

Prints, for each depth d = 0..logn, the average and standard deviation over random
samples of Regeneratefg's distribution (each coefficient a sum of n/64 fair bits minus
n/128) of the largest bit length of a coefficient of f or g at depth d (the field norm
N(f)(x) = f0(x)^2 - x f1(x)^2 of f = f0(x^2) + x f1(x^2) taken d times). lib/hawk/keygen.c
keeps them (averages rounded, deviations rounded up) as HAWK_BL_AVG / HAWK_BL_STD, the
schedule statistics FN-DSA's solver (lib/fndsa/ntru.c) reads. Development tool only:
  python3 lib/hawk/gen_ntru_profile.py 9 300
"""

from __future__ import annotations

import random
import statistics
import sys


def negacyclic_mul(a: list[int], b: list[int]) -> list[int]:
    m = len(a)
    r = [0] * m
    for i, x in enumerate(a):
        if x == 0:
            continue
        for j, y in enumerate(b):
            k = i + j
            if k < m:
                r[k] += x * y
            else:
                r[k - m] -= x * y
    return r


def field_norm(f: list[int]) -> list[int]:
    f0, f1 = f[0::2], f[1::2]
    a, b = negacyclic_mul(f0, f0), negacyclic_mul(f1, f1)
    xb = [-b[-1]] + b[:-1]  # x * f1^2 modulo x^(m/2) + 1
    return [p - q for p, q in zip(a, xb, strict=True)]


def main() -> None:
    logn, samples = int(sys.argv[1]), int(sys.argv[2])
    n, b = 1 << logn, (1 << logn) // 64
    rng = random.Random(1)
    bits: list[list[int]] = [[] for _ in range(logn + 1)]
    for _ in range(samples):
        f = [sum(rng.getrandbits(1) for _ in range(b)) - b // 2 for _ in range(n)]
        g = [sum(rng.getrandbits(1) for _ in range(b)) - b // 2 for _ in range(n)]
        for d in range(logn + 1):
            bits[d].append(max(abs(x).bit_length() for x in f + g))
            if d < logn:
                f, g = field_norm(f), field_norm(g)
    for d in range(logn + 1):
        print(d, round(statistics.mean(bits[d]), 2), round(statistics.pstdev(bits[d]), 2))


if __name__ == "__main__":
    main()
