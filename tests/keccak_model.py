"""Software model of Keccak-f[1600] (FIPS 202, Algorithms 1-7), written for the unit tests of
the Keccak accelerator (hw/accel/keccak/). State: 25 lanes of 64 bits, index x + 5y."""

from __future__ import annotations

MASK = (1 << 64) - 1


def _rc_bit(t: int) -> int:
    """rc(t), FIPS 202 Algorithm 5 (R[0] is bit 0 of r)."""
    r = 1
    for _ in range(t % 255):
        r <<= 1
        if r & 0x100:
            r ^= 0x171  # R[0], R[4], R[5], R[6] ^= R[8]; Trunc8 drops R[8]
    return r & 1


ROUND_CONSTANTS = [sum(_rc_bit(j + 7 * ir) << ((1 << j) - 1) for j in range(7)) for ir in range(24)]


def _rho_offsets() -> list[int]:
    r = [0] * 25
    x, y = 1, 0
    for t in range(24):
        r[x + 5 * y] = ((t + 1) * (t + 2) // 2) % 64
        x, y = y, (2 * x + 3 * y) % 5
    return r


RHO = _rho_offsets()


def _rotl(v: int, n: int) -> int:
    return ((v << n) | (v >> (64 - n))) & MASK if n else v


def keccak_f1600(a: list[int]) -> list[int]:
    """The permutation of 25 64-bit lanes."""
    a = list(a)
    for ir in range(24):
        c = [a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20] for x in range(5)]
        d = [c[(x + 4) % 5] ^ _rotl(c[(x + 1) % 5], 1) for x in range(5)]
        b = [0] * 25
        for x in range(5):
            for y in range(5):
                b[y + 5 * ((2 * x + 3 * y) % 5)] = _rotl(a[x + 5 * y] ^ d[x], RHO[x + 5 * y])
        a = [b[i] ^ (~b[(i % 5 + 1) % 5 + 5 * (i // 5)] & b[(i % 5 + 2) % 5 + 5 * (i // 5)]) for i in range(25)]
        a[0] ^= ROUND_CONSTANTS[ir]
    return a


def sha3_256(msg: bytes) -> bytes:
    """SHA3-256 through the model (rate 136 bytes, domain bits 01, pad10*1): checks the model
    against hashlib."""
    rate = 136
    m = bytearray(msg) + b"\x06" + bytes((-len(msg) - 1) % rate)
    m[-1] |= 0x80
    s = [0] * 25
    for off in range(0, len(m), rate):
        for i in range(rate // 8):
            s[i] ^= int.from_bytes(m[off + 8 * i : off + 8 * i + 8], "little")
        s = keccak_f1600(s)
    return b"".join(v.to_bytes(8, "little") for v in s)[:32]
