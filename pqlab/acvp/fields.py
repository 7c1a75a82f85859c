"""Field helpers shared by the ACVP plugins (NIST ACVP-Server JSON)."""

from __future__ import annotations


def hexbytes(d: dict, key: str) -> bytes:
    return bytes.fromhex(d[key])


def field(group: dict, test: dict, key: str) -> bytes:
    """A test's field, falling back to its group (some files keep keys on the group)."""
    return hexbytes(test, key) if key in test else hexbytes(group, key)


def is_siggen(group: dict, test: dict) -> bool:
    """sigGen groups carry "deterministic"; sigVer groups do not (internalProjection files of
    both carry a signature, and sigVer tests may carry sk too, so the fields cannot tell)."""
    if "deterministic" in group:
        return True
    return "pk" not in test and "pk" not in group and ("sk" in test or "sk" in group)


def named_outputs(out: list[bytes] | int, names: tuple[str, ...]) -> dict:
    """Driver outputs as upper-case hex result fields; empty fields when the driver refused."""
    if not isinstance(out, list) or len(out) != len(names):
        return {n: "" for n in names}
    return {n: v.hex().upper() for n, v in zip(names, out)}


def signature_result(group: dict, test: dict, out: list[bytes] | int, keygen_field: str) -> dict:
    """Result fields of a signature scheme's keyGen, sigGen or sigVer test case."""
    if keygen_field in test:
        return named_outputs(out, ("pk", "sk"))
    if not is_siggen(group, test):
        return {"testPassed": isinstance(out, list)}
    return named_outputs(out, ("signature",))
