"""ACVP plugin for SLH-DSA (FIPS 205): keyGen, sigGen and sigVer in NIST ACVP-Server JSON form.

Test groups (ACVP-Server SLH-DSA-*-FIPS205, revision FIPS205), field names from the files:
  keyGen  AFT: skSeed, skPrf, pkSeed -> pk, sk                      (slh_keygen_internal)
  sigGen  AFT: sk, message [, context, hashAlg] [, additionalRandomness] -> signature
          group options: deterministic (no additionalRandomness: opt_rand = PK.seed),
          signatureInterface ("internal": slh_sign_internal on the message as given;
          "external": slh_sign with context, preHash "pure", or "preHash" =
          hash_slh_sign with hashAlg). Files without signatureInterface (Aug 2024) are
          internal.
  sigVer  AFT: pk, message [, context, hashAlg], signature -> testPassed, same options.
          Keys may sit on the group or on each test.
Driver commands are those of harness/driver_slhdsa.c. A failed keygen/sign gives empty
result fields, so that a comparison with the expected file reports the test case.
"""

from __future__ import annotations

from pqlab.acvp.fields import field, hash_id, hash_supported, hexbytes, is_siggen, signature_result

ALGORITHMS: set[tuple[str, str]] = {("SLH-DSA", "keyGen"), ("SLH-DSA", "sigGen"), ("SLH-DSA", "sigVer")}
DRIVER: str = "slhdsa"

_SCHEMES = {
    f"SLH-DSA-{h}-{p}": f"slh-dsa-{h.lower()}-{p}"
    for h in ("SHA2", "SHAKE")
    for p in ("128s", "128f", "192s", "192f", "256s", "256f")
}

# hashAlg names of the ACVP files -> PQLAB_SLHDSA_PH_* of lib/slhdsa/slhdsa_ph.h
# (the last arc of the hash function's OID 2.16.840.1.101.3.4.2.x), one byte to the driver
HASH_IDS = {
    "SHA2-256": 0x01,
    "SHA2-384": 0x02,
    "SHA2-512": 0x03,
    "SHA2-224": 0x04,
    "SHA2-512/224": 0x05,
    "SHA2-512/256": 0x06,
    "SHA3-224": 0x07,
    "SHA3-256": 0x08,
    "SHA3-384": 0x09,
    "SHA3-512": 0x0A,
    "SHAKE-128": 0x0B,
    "SHAKE-256": 0x0C,
}


def _mode(group: dict) -> str | None:
    """'internal', 'pure' or 'prehash'; None for an option pqlab does not know."""
    iface = group.get("signatureInterface", "internal")
    if iface == "internal":
        return "internal"
    if iface == "external":
        return {"pure": "pure", "preHash": "prehash"}.get(group.get("preHash", "pure"))
    return None


def scheme(group: dict) -> str | None:
    name = _SCHEMES.get(group.get("parameterSet", ""))
    if name is None or _mode(group) is None:
        return None
    return name


def _addrnd(group: dict, test: dict) -> bytes:
    if group.get("deterministic") is True:
        return b""  # deterministic: the driver signs with opt_rand = PK.seed
    return hexbytes(test, "additionalRandomness")


def requests(group: dict, test: dict) -> list[tuple[str, list[bytes]]] | None:
    if not hash_supported(test, HASH_IDS):
        return None
    if "skSeed" in test:
        return [("keygen", [hexbytes(test, "skSeed"), hexbytes(test, "skPrf"), hexbytes(test, "pkSeed")])]
    mode = _mode(group)
    ctx = hexbytes(test, "context") if "context" in test else b""
    if not is_siggen(group, test):
        pk, msg, sig = field(group, test, "pk"), hexbytes(test, "message"), field(group, test, "signature")
        if mode == "internal":
            return [("verify_internal", [pk, msg, sig])]
        if mode == "pure":
            return [("verify", [pk, msg, ctx, sig])]
        if mode == "prehash":
            return [("verify_prehash", [pk, msg, ctx, hash_id(test, HASH_IDS), sig])]
        return None
    sk, msg, rnd = field(group, test, "sk"), hexbytes(test, "message"), _addrnd(group, test)
    if mode == "internal":
        return [("sign_internal", [sk, msg, rnd])]
    if mode == "pure":
        return [("sign", [sk, msg, ctx, rnd])]
    if mode == "prehash":
        return [("sign_prehash", [sk, msg, ctx, hash_id(test, HASH_IDS), rnd])]
    return None


def result(group: dict, test: dict, outputs: list[list[bytes] | int]) -> dict:
    return signature_result(group, test, outputs[0], keygen_field="skSeed")
