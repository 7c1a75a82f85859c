"""ACVP plugin for ML-DSA (FIPS 204): keyGen, sigGen and sigVer in NIST ACVP-Server JSON form.

Test groups (ACVP-Server ML-DSA-*-FIPS204, revision FIPS204), field names from the files:
  keyGen  AFT: seed -> pk, sk                                        (KeyGen_internal)
  sigGen  AFT: sk, message | mu [, context, hashAlg] [, rnd] -> signature
          group options: deterministic (rnd absent: 32 zero bytes), signatureInterface
          ("internal": Sign_internal on M' = message, or on mu when externalMu is true;
          "external": ML-DSA.Sign with context, preHash "pure" or "preHash" = HashML-DSA.Sign
          with hashAlg). Files without signatureInterface (v1.1.0.35) are internal.
  sigVer  AFT: pk, message | mu [, context, hashAlg], signature -> testPassed, same options.
          pk (and sk) may sit on the group (v1.1.0.35) or on each test (975de31).
Driver commands are those of harness/driver_mldsa.c. A failed keygen/sign gives empty result
fields, so that a comparison with the expected file reports the test case.
"""

from __future__ import annotations

from pqlab.acvp.fields import field, hash_id, hash_supported, hexbytes, is_siggen, signature_result

ALGORITHMS: set[tuple[str, str]] = {("ML-DSA", "keyGen"), ("ML-DSA", "sigGen"), ("ML-DSA", "sigVer")}
DRIVER: str = "mldsa"

_SCHEMES = {"ML-DSA-44": "ml-dsa-44", "ML-DSA-65": "ml-dsa-65", "ML-DSA-87": "ml-dsa-87"}

# hashAlg names of the ACVP files -> PQLAB_MLDSA_PH_* ids of lib/mldsa/mldsa.h (one byte to the driver)
HASH_IDS = {
    "SHA2-224": 1,
    "SHA2-256": 2,
    "SHA2-384": 3,
    "SHA2-512": 4,
    "SHA2-512/224": 5,
    "SHA2-512/256": 6,
    "SHA3-224": 7,
    "SHA3-256": 8,
    "SHA3-384": 9,
    "SHA3-512": 10,
    "SHAKE-128": 11,
    "SHAKE-256": 12,
}


def _mode(group: dict, test: dict | None = None) -> str | None:
    """'internal', 'extmu', 'pure' or 'prehash'; None for an option pqlab does not know."""
    iface = group.get("signatureInterface", "internal")
    if iface == "internal":
        return "extmu" if group.get("externalMu") is True else "internal"
    if iface == "external":
        if group.get("externalMu") is True:
            return None
        ph = group.get("preHash", "pure")
        return {"pure": "pure", "preHash": "prehash"}.get(ph)
    return None


def scheme(group: dict) -> str | None:
    name = _SCHEMES.get(group.get("parameterSet", ""))
    if name is None:
        return None
    has_options = "signatureInterface" in group or "externalMu" in group or "preHash" in group
    if has_options and _mode(group) is None:
        return None
    return name


def _rnd(group: dict, test: dict) -> bytes:
    if group.get("deterministic") is True:
        return bytes(32)
    return hexbytes(test, "rnd")


def requests(group: dict, test: dict) -> list[tuple[str, list[bytes]]] | None:
    if not hash_supported(test, HASH_IDS):
        return None
    mode = "keyGen" if "seed" in test else _mode(group)
    if mode == "keyGen":
        return [("keygen", [hexbytes(test, "seed")])]
    if not is_siggen(group, test):
        pk, sig = field(group, test, "pk"), field(group, test, "signature")
        if mode == "internal":
            return [("verify_internal", [pk, hexbytes(test, "message"), sig])]
        if mode == "extmu":
            return [("verify_extmu", [pk, hexbytes(test, "mu"), sig])]
        ctx = hexbytes(test, "context") if "context" in test else b""
        if mode == "pure":
            return [("verify", [pk, hexbytes(test, "message"), ctx, sig])]
        if mode == "prehash":
            return [("verify_prehash", [pk, hexbytes(test, "message"), ctx, hash_id(test, HASH_IDS), sig])]
        return None
    sk, rnd = field(group, test, "sk"), _rnd(group, test)
    if mode == "internal":
        return [("sign_internal", [sk, hexbytes(test, "message"), rnd])]
    if mode == "extmu":
        return [("sign_extmu", [sk, hexbytes(test, "mu"), rnd])]
    ctx = hexbytes(test, "context") if "context" in test else b""
    if mode == "pure":
        return [("sign", [sk, hexbytes(test, "message"), ctx, rnd])]
    if mode == "prehash":
        return [("sign_prehash", [sk, hexbytes(test, "message"), ctx, hash_id(test, HASH_IDS), rnd])]
    return None


def result(group: dict, test: dict, outputs: list[list[bytes] | int]) -> dict:
    return signature_result(group, test, outputs[0], keygen_field="seed")
