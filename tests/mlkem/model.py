"""A direct Python model of the FIPS 203 building blocks (section 4), written from the
standard's pseudocode for the kernel unit tests. Slow and obvious on purpose."""

from __future__ import annotations

import hashlib

Q = 3329
N = 256


def bitrev7(i: int) -> int:
    return int(f"{i:07b}"[::-1], 2)


ZETAS = [pow(17, bitrev7(i), Q) for i in range(128)]
GAMMAS = [pow(17, 2 * bitrev7(i) + 1, Q) for i in range(128)]


def ntt(f: list[int]) -> list[int]:  # Algorithm 9
    f = [x % Q for x in f]
    i = 1
    length = 128
    while length >= 2:
        for start in range(0, N, 2 * length):
            zeta = ZETAS[i]
            i += 1
            for j in range(start, start + length):
                t = zeta * f[j + length] % Q
                f[j + length] = (f[j] - t) % Q
                f[j] = (f[j] + t) % Q
        length //= 2
    return f


def invntt(f: list[int]) -> list[int]:  # Algorithm 10
    f = [x % Q for x in f]
    i = 127
    length = 2
    while length <= 128:
        for start in range(0, N, 2 * length):
            zeta = ZETAS[i]
            i -= 1
            for j in range(start, start + length):
                t = f[j]
                f[j] = (t + f[j + length]) % Q
                f[j + length] = zeta * (f[j + length] - t) % Q
        length *= 2
    return [x * 3303 % Q for x in f]


def multiply_ntts(f: list[int], g: list[int]) -> list[int]:  # Algorithms 11, 12
    h = [0] * N
    for i in range(128):
        a0, a1, b0, b1 = f[2 * i], f[2 * i + 1], g[2 * i], g[2 * i + 1]
        h[2 * i] = (a0 * b0 + a1 * b1 * GAMMAS[i]) % Q
        h[2 * i + 1] = (a0 * b1 + a1 * b0) % Q
    return h


def byte_encode(f: list[int], d: int) -> bytes:  # Algorithm 5
    bits = []
    for a in f:
        for j in range(d):
            bits.append((a >> j) & 1)
    return bytes(sum(bits[8 * i + j] << j for j in range(8)) for i in range(len(bits) // 8))


def byte_decode(b: bytes, d: int) -> list[int]:  # Algorithm 6
    bits = [(b[i // 8] >> (i % 8)) & 1 for i in range(8 * len(b))]
    m = Q if d == 12 else 1 << d
    return [sum(bits[i * d + j] << j for j in range(d)) % m for i in range(len(bits) // d)]


def compress(x: int, d: int) -> int:  # equation 4.7, exact rational rounding
    num = (1 << d) * x
    # round(num / Q) with round-half-up; no ties occur as Q is odd
    return ((2 * num + Q) // (2 * Q)) % (1 << d)


def decompress(y: int, d: int) -> int:  # equation 4.8
    num = Q * y
    return (2 * num + (1 << d)) // (1 << (d + 1))


def sample_ntt(b: bytes) -> list[int]:  # Algorithm 7
    xof = hashlib.shake_128(b).digest(168 * 8)
    a = []
    pos = 0
    while len(a) < N:
        c = xof[pos : pos + 3]
        pos += 3
        d1 = c[0] + 256 * (c[1] % 16)
        d2 = c[1] // 16 + 16 * c[2]
        if d1 < Q:
            a.append(d1)
        if d2 < Q and len(a) < N:
            a.append(d2)
    return a


def sample_cbd(b: bytes, eta: int) -> list[int]:  # Algorithm 8
    bits = [(b[i // 8] >> (i % 8)) & 1 for i in range(8 * len(b))]
    out = []
    for i in range(N):
        x = sum(bits[2 * i * eta + j] for j in range(eta))
        y = sum(bits[2 * i * eta + eta + j] for j in range(eta))
        out.append((x - y) % Q)
    return out
