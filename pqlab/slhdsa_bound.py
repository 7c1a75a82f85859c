# SPDX-License-Identifier: MIT
"""SLH-DSA's hash-primitive count (docs/slhdsa.md, "Permutation-count bound"): how many
Keccak-f[1600] permutations (SHAKE sets) or SHA-256 / SHA-512 compressions (SHA2 sets) the
algorithms of FIPS 205 need for key generation and signing, from the parameters of FIPS 205
Table 2 and the input lengths of its hash functions (sections 11.1 and 11.2). A signer
cannot do with fewer calls of its primitive than this count, so count x (cycles of one call)
is the lower bound that issue 17's goal compares the measured cycles with.

Counting rules:
- Every FORS and XMSS tree is computed once, leaf by leaf (FIPS 205 Algorithms 9-11 and
  14-17 recompute subtrees for the authentication path, which in total computes every leaf
  and inner node of each tree exactly once, the path of the signed leaf included).
- Signing computes the root of every layer, the top one included (the top layer's root is
  the public key, so a signer may skip it: about len x (w - 1) / 2 + 5 + h' calls, 0.3 % of
  SLH-DSA-128f signing; pqlab does not skip it and the count includes it).
- SHAKE: absorbing L bytes and squeezing at most one rate block costs floor(L / 136) + 1
  permutations (SHAKE256's rate is 136 bytes; the padding needs at least one byte).
- SHA2: the block PK.seed || 0^(64 - n) (and its 128-byte SHA-512 form) is compressed once
  per operation and its state reused (FIPS 205 section 11.2 allows it); HMAC (PRF_msg)
  compresses its key block for the inner and outer hash each time; MGF1 (H_msg) hashes
  R || PK.seed || digest || counter per output block.
"""

from __future__ import annotations

from dataclasses import dataclass

# FIPS 205 Table 2: n, h, d, h', a, k, m (lg_w = 4 for every set)
PARAMS: dict[str, tuple[int, int, int, int, int, int, int]] = {
    "128s": (16, 63, 7, 9, 12, 14, 30),
    "128f": (16, 66, 22, 3, 6, 33, 34),
    "192s": (24, 63, 7, 9, 14, 17, 39),
    "192f": (24, 66, 22, 3, 8, 33, 42),
    "256s": (32, 64, 8, 8, 14, 22, 47),
    "256f": (32, 68, 17, 4, 9, 35, 49),
}
W = 16
ADRS, ADRSC = 32, 22  # the address and its compressed form (SHA2 sets)


@dataclass(frozen=True)
class Scheme:
    """One SLH-DSA parameter set, named like pqlab's schemes (slh-dsa-shake-128f)."""

    name: str

    def __post_init__(self) -> None:
        parts = self.name.split("-")
        if (
            len(parts) != 4
            or parts[:2] != ["slh", "dsa"]
            or parts[2] not in ("shake", "sha2")
            or parts[3] not in PARAMS
        ):
            raise ValueError(f"{self.name}: not an SLH-DSA parameter set (slh-dsa-shake|sha2-128s..256f)")

    @property
    def shake(self) -> bool:
        return self.name.split("-")[2] == "shake"

    @property
    def params(self) -> tuple[int, int, int, int, int, int, int]:
        return PARAMS[self.name.split("-")[3]]


def _blocks(length: int, block: int, pad: int) -> int:
    """compressions of a Merkle-Damgard message of `length` bytes (padding `pad` bytes at least)"""
    return (length + pad + block - 1) // block


SHA256, SHA512 = (64, 9), (128, 17)  # block and minimum padding bytes


def cost(s: Scheme, fn: str, ell: int = 0, mprime: int = 0) -> tuple[str, int]:
    """(primitive, calls) of one call of FIPS 205's hash function `fn`: F, PRF, H, T (of `ell`
    n-byte blocks), PRF_msg, H_msg (for an M' of `mprime` bytes)."""
    n, m = s.params[0], s.params[6]
    if s.shake:  # SHAKE256(PK.seed || ADRS || ...) or SHAKE256(... || M')
        body = {"F": 2 * n, "PRF": 2 * n, "H": 3 * n, "T": n + ell * n}.get(fn)
        length = body + ADRS if body is not None else {"PRF_msg": 2 * n, "H_msg": 3 * n}[fn] + mprime
        return "keccak", length // 136 + 1
    # SHA2: F and PRF always SHA-256; H, T, PRF_msg, H_msg SHA-512 above category 1
    big, (blk, pad), dlen = ("sha256", SHA256, 32) if n == 16 else ("sha512", SHA512, 64)
    if fn in ("F", "PRF"):
        return "sha256", _blocks(ADRSC + n, *SHA256)
    if fn in ("H", "T"):
        return big, _blocks(ADRSC + (2 if fn == "H" else ell) * n, blk, pad)
    if fn == "PRF_msg":  # HMAC-SHA-X(SK.prf, opt_rand || M'): two key blocks, inner, outer
        return big, 2 + _blocks(n + mprime, blk, pad) + _blocks(dlen, blk, pad)
    # H_msg: MGF1-SHA-X(R || PK.seed || SHA-X(R || PK.seed || PK.root || M'), m)
    return big, _blocks(3 * n + mprime, blk, pad) + -(-m // dlen) * _blocks(2 * n + dlen + 4, blk, pad)


def counts(scheme: str, op: str, mlen: int = 59, ctxlen: int = 0) -> dict[str, int]:
    """Calls of each primitive ('keccak', 'sha256', 'sha512') for `op` ('keypair' or 'sign',
    the pure interface with a context of `ctxlen` bytes and an `mlen`-byte message)."""
    s = Scheme(scheme)
    n, _h, d, hp, a, k, _m = s.params
    length = 2 * n + 3  # len = len1 + len2 for lg_w = 4
    total: dict[str, int] = {}

    def add(c: tuple[str, int], times: int = 1) -> None:
        total[c[0]] = total.get(c[0], 0) + c[1] * times

    def xmss_tree() -> None:  # 2^h' WOTS+ public keys (len PRF, len (w - 1) F, T_len), 2^h' - 1 H
        add(cost(s, "PRF"), 2**hp * length)
        add(cost(s, "F"), 2**hp * length * (W - 1))
        add(cost(s, "T", length), 2**hp)
        add(cost(s, "H"), 2**hp - 1)

    if not s.shake:  # PK.seed's block, compressed once per operation
        add(("sha256", 1))
        if n > 16:
            add(("sha512", 1))
    if op == "keypair":
        xmss_tree()
    elif op == "sign":
        mprime = 2 + ctxlen + mlen
        add(cost(s, "PRF_msg", mprime=mprime))
        add(cost(s, "H_msg", mprime=mprime))
        add(cost(s, "PRF"), k * 2**a)  # FORS: k trees of 2^a leaves (PRF, F), 2^a - 1 H
        add(cost(s, "F"), k * 2**a)
        add(cost(s, "H"), k * (2**a - 1))
        add(cost(s, "T", k))
        for _ in range(d):
            xmss_tree()
    else:
        raise ValueError(f"{op}: only keypair and sign have a fixed count (verification depends on the signature)")
    return total
