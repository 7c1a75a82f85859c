"""Field helpers shared by the ACVP plugins (NIST ACVP-Server JSON)."""

from __future__ import annotations


class FieldError(ValueError):
    """A test case's input field is missing or malformed; the message names the field."""


def hexbytes(d: dict, key: str) -> bytes:
    if key not in d:
        raise FieldError(f"missing field {key!r}")
    v = d[key]
    try:
        return bytes.fromhex(v)
    except (TypeError, ValueError):
        shown = v if isinstance(v, str) and len(v) <= 40 else f"{str(v)[:40]}..."
        raise FieldError(f"field {key!r} is not an even-length hex string ({shown!r})") from None


def field(group: dict, test: dict, key: str) -> bytes:
    """A test's field, falling back to its group (some files keep keys on the group)."""
    return hexbytes(test, key) if key in test else hexbytes(group, key)


def is_siggen(group: dict, test: dict) -> bool:
    """sigGen groups carry "deterministic"; sigVer groups do not (internalProjection files of
    both carry a signature, and sigVer tests may carry sk too, so the fields cannot tell)."""
    if "deterministic" in group:
        return True
    return "pk" not in test and "pk" not in group and ("sk" in test or "sk" in group)


def hash_supported(test: dict, ids: dict[str, int]) -> bool:
    """False for a test whose hashAlg is not among `ids` (a pre-hash function pqlab does not
    offer: the test case is unsupported, not bad input); True without hashAlg."""
    return test.get("hashAlg", next(iter(ids))) in ids


def hash_id(test: dict, ids: dict[str, int]) -> bytes:
    """The test's hashAlg as the one-byte id the family's driver takes."""
    return bytes([ids[test["hashAlg"]]])


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
