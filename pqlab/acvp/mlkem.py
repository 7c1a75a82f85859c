"""ACVP plugin for ML-KEM (FIPS 203): keyGen and encapDecap in NIST ACVP-Server JSON form.

Test groups (ACVP-Server ML-KEM-*-FIPS203, revision FIPS203):
  keyGen      AFT: d, z -> ek, dk                                  (KeyGen_internal)
  encapDecap  function "encapsulation"  AFT: ek, m -> c, k         (Encaps_internal)
              function "decapsulation"  VAL: dk, c -> k            (Decaps_internal)
              function "encapsulationKeyCheck" VAL: ek -> testPassed   (FIPS 203 section 7.2)
              function "decapsulationKeyCheck" VAL: dk -> testPassed   (FIPS 203 section 7.3)
Driver commands are those of harness/driver_mlkem.c. A failed keygen/encaps/decaps gives
empty result fields, so that a comparison with the expected file reports the test case.
"""

from __future__ import annotations

from pqlab.acvp.fields import hexbytes, named_outputs

ALGORITHMS: set[tuple[str, str]] = {("ML-KEM", "keyGen"), ("ML-KEM", "encapDecap")}
DRIVER: str = "mlkem"

_SCHEMES = {"ML-KEM-512": "ml-kem-512", "ML-KEM-768": "ml-kem-768", "ML-KEM-1024": "ml-kem-1024"}
_FUNCTIONS = {"encapsulation", "decapsulation", "encapsulationKeyCheck", "decapsulationKeyCheck"}


def _mode(group: dict) -> str:
    # keyGen groups carry no "function" field; encapDecap groups always do.
    return group.get("function", "keyGen")


def scheme(group: dict) -> str | None:
    name = _SCHEMES.get(group.get("parameterSet", ""))
    if name is None:
        return None
    mode = _mode(group)
    if mode != "keyGen" and mode not in _FUNCTIONS:
        return None
    return name


def requests(group: dict, test: dict) -> list[tuple[str, list[bytes]]] | None:
    mode = _mode(group)
    if mode == "keyGen":
        return [("keygen", [hexbytes(test, "d"), hexbytes(test, "z")])]
    if mode == "encapsulation":
        return [("encaps", [hexbytes(test, "ek"), hexbytes(test, "m")])]
    if mode == "decapsulation":
        return [("decaps", [hexbytes(test, "dk"), hexbytes(test, "c")])]
    if mode == "encapsulationKeyCheck":
        return [("checkek", [hexbytes(test, "ek")])]
    if mode == "decapsulationKeyCheck":
        return [("checkdk", [hexbytes(test, "dk")])]
    return None


def result(group: dict, test: dict, outputs: list[list[bytes] | int]) -> dict:
    mode = _mode(group)
    out = outputs[0]
    ok = isinstance(out, list)
    if mode in ("encapsulationKeyCheck", "decapsulationKeyCheck"):
        return {"testPassed": ok}
    names = {"keyGen": ("ek", "dk"), "encapsulation": ("c", "k"), "decapsulation": ("k",)}[mode]
    return named_outputs(out, names)
