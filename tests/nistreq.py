"""The NIST PQC signature KAT request stream (PQCgenKAT_sign.c), checked by a hash instead of a file.

PQCgenKAT_sign.c seeds the AES-256-CTR DRBG with entropy 00 01 .. 2f and draws, for
count = 0..99, a 48-byte seed and then a message of mlen = 33 * (count + 1) bytes; the .req
file lists count, seed, mlen, msg and empty pk, sk, smlen, sm. Every signature scheme's .req
is the same text: the Falcon round-3 package's KAT/falcon512-KAT.req and falcon1024-KAT.req are
byte-identical, with the SHA-256 below. test_common_aes.py checks the constant against that
file when the external vectors are present.
"""

from __future__ import annotations

import hashlib

REQ_FILE = "falcon-round3/KAT/falcon512-KAT.req"
REQ_SHA256 = "81ff60e3ef698751e5572f0bb7f831f069605229c220ee1cf27a92572d6ebc7e"
COUNT = 100


def mlen(count: int) -> int:
    return 33 * (count + 1)


def req_text(entries: list[tuple[str, str]]) -> str:
    """The .req text of (seed hex, msg hex) pairs in count order (hex in upper case)."""
    out = []
    for count, (seed, msg) in enumerate(entries):
        out.append(
            f"count = {count}\nseed = {seed}\nmlen = {len(msg) // 2}\nmsg = {msg}\npk =\nsk =\nsmlen =\nsm =\n\n"
        )
    return "".join(out)


def req_sha256(entries: list[tuple[str, str]]) -> str:
    return hashlib.sha256(req_text(entries).encode()).hexdigest()
