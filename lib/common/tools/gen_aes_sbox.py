# SPDX-License-Identifier: MIT
"""Derive the linear layers of pqlab's tower-field AES S-box (lib/common/aes.c).

The S-box of FIPS 197 section 5.1.1 is the affine map A(b) + 0x63 applied to the
inverse of b in GF(2^8) = GF(2)[x]/(x^8 + x^4 + x^3 + x + 1). aes.c inverts in the
isomorphic tower GF(16)[y]/(y^2 + y + L), GF(16) = GF(2)[z]/(z^4 + z + 1), where
inversion needs only GF(16) products. This script finds L, a root r of the AES
polynomial in the tower, the matrices of the two basis changes and of the map
a -> L * a^2, checks the resulting S-box against the FIPS 197 definition for all
256 inputs, and prints the XOR formulas pasted into aes.c.
"""


def gf256_mul(a: int, b: int) -> int:
    r = 0
    for i in range(8):
        if b >> i & 1:
            r ^= a << i
    for k in range(14, 7, -1):
        if r >> k & 1:
            r ^= 0x11B << (k - 8)
    return r


def gf16_mul(a: int, b: int) -> int:
    r = 0
    for i in range(4):
        if b >> i & 1:
            r ^= a << i
    for k in range(6, 3, -1):
        if r >> k & 1:
            r ^= 0x13 << (k - 4)
    return r


def gf16_inv(a: int) -> int:
    r = 1
    for _ in range(14):
        r = gf16_mul(r, a)
    return r  # a^14, 0 -> 0


def tower_mul(a: int, b: int, lam: int) -> int:
    a1, a0, b1, b0 = a >> 4, a & 15, b >> 4, b & 15
    hi = gf16_mul(a1, b1) ^ gf16_mul(a1, b0) ^ gf16_mul(a0, b1)
    lo = gf16_mul(gf16_mul(a1, b1), lam) ^ gf16_mul(a0, b0)
    return hi << 4 | lo


def tower_pow(a: int, e: int, lam: int) -> int:
    r = 1
    for _ in range(e):
        r = tower_mul(r, a, lam)
    return r


def apply(mat: list[int], v: int) -> int:
    """mat[i] is the bit mask of input bits XORed into output bit i."""
    return sum(((mat[i] & v).bit_count() & 1) << i for i in range(len(mat)))


def invert(mat: list[int]) -> list[int]:
    n = len(mat)
    rows = [(mat[i], 1 << i) for i in range(n)]
    for c in range(n):
        p = next(i for i in range(c, n) if rows[i][0] >> c & 1)
        rows[c], rows[p] = rows[p], rows[c]
        for i in range(n):
            if i != c and rows[i][0] >> c & 1:
                rows[i] = (rows[i][0] ^ rows[c][0], rows[i][1] ^ rows[c][1])
    return [r[1] for r in rows]


def sbox_ref(b: int) -> int:
    inv = 0 if b == 0 else next(c for c in range(1, 256) if gf256_mul(b, c) == 1)
    s = 0x63
    for i in range(8):  # FIPS 197 eq. 5.1
        bit = (inv >> i ^ inv >> (i + 4) % 8 ^ inv >> (i + 5) % 8 ^ inv >> (i + 6) % 8 ^ inv >> (i + 7) % 8) & 1
        s ^= bit << i
    return s


def main() -> None:
    # L: y^2 + y + L has no root in GF(16)
    lam = next(l for l in range(1, 16) if all(gf16_mul(t, t) ^ t ^ l for t in range(16)))
    # a root r of x^8 + x^4 + x^3 + x + 1 in the tower
    root = next(
        r for r in range(2, 256) if tower_pow(r, 8, lam) ^ tower_pow(r, 4, lam) ^ tower_pow(r, 3, lam) ^ r ^ 1 == 0
    )
    cols = [tower_pow(root, i, lam) for i in range(8)]  # image of x^i
    to_tower = [sum((cols[j] >> i & 1) << j for j in range(8)) for i in range(8)]
    from_tower = invert(to_tower)
    # affine map of FIPS 197 5.1.1 as a matrix, composed with the way back
    aff = [
        (1 << i) | (1 << (i + 4) % 8) | (1 << (i + 5) % 8) | (1 << (i + 6) % 8) | (1 << (i + 7) % 8) for i in range(8)
    ]
    out = [0] * 8
    for i in range(8):
        for j in range(8):
            if aff[i] >> j & 1:
                out[i] ^= from_tower[j]
    # a -> L * a^2 on GF(16), linear over GF(2)
    lsq = [0] * 4
    for j in range(4):
        v = gf16_mul(gf16_mul(1 << j, 1 << j), lam)
        for i in range(4):
            lsq[i] |= (v >> i & 1) << j

    def sbox_tower(b: int) -> int:
        t = apply(to_tower, b)
        a1, a0 = t >> 4, t & 15
        d = apply(lsq, a1) ^ gf16_mul(a0, a0 ^ a1)
        di = gf16_inv(d)
        inv = gf16_mul(a1, di) << 4 | gf16_mul(a0 ^ a1, di)
        return apply(out, inv) ^ 0x63

    assert all(sbox_tower(b) == sbox_ref(b) for b in range(256))
    print(f"/* L = 0x{lam:x}, r = 0x{root:02x} */")

    def emit(name: str, mat: list[int], src: str, const: int = 0) -> None:
        for i, row in enumerate(mat):
            terms = " ^ ".join(f"{src}[{j}]" for j in range(len(mat)) if row >> j & 1)
            neg = "~(" if const >> i & 1 else "("
            print(f"    {name}[{i}] = {neg}{terms});")

    # GF(16) inversion as the algebraic normal form of each output bit (aes.c gf16_inv)
    for bit in range(4):
        anf = [gf16_inv(a) >> bit & 1 for a in range(16)]
        for i in range(4):  # Moebius transform
            for m in range(16):
                if m >> i & 1:
                    anf[m] ^= anf[m ^ (1 << i)]
        terms = ["".join(f"a{i}" for i in range(4) if m >> i & 1) or "1" for m in range(16) if anf[m]]
        print(f"    /* inv bit {bit} = {' ^ '.join(terms)} */")

    emit("t", to_tower, "u")
    emit("l", lsq, "a1")
    emit("s", out, "v", 0x63)


if __name__ == "__main__":
    main()
