"""Hawk-512 and Hawk-1024 (lib/hawk, Hawk specification v1.0) on the host.

- `pqlab test` (round trips, tampered signatures and keys refused, canaries) through the
  framework's own build and harness;
- the C library through ctypes: round trip, malformed signatures and public keys refused;
- cross-check against the Hawk reference implementation as pqm4's mupq ships it
  (PQLAB_THIRDPARTY/pqm4-cc2c1b9.tar.gz, mupq/crypto_sign/hawk512 and hawk1024, extracted at
  test time and run as a black box through `pqlab kat --impl-path`): for every reference
  record, our key generation from the reference's kgseed gives its pk and sk byte for byte,
  our signing with the reference's randomness gives its signed message byte for byte, and
  our own KAT record is identical (key generation rejects the same kgseed candidates: the
  reference solver's schedule and fixed-point Babai steps, lib/hawk/ntru_fx.c; with 100
  records both files equal the official SHA-256). The first records run by default, all
  100 with -m slow;
- kgseeds the reference's solver gives up on (measured on an instrumented copy of it,
  outside the repository: a reduction error at the depth named) are rejected, and the
  kgseeds it accepts are accepted.
"""

from __future__ import annotations

import ctypes
import tarfile
from pathlib import Path

import extdata
import pytest
from cli_runner import pqlab
from hostlib import build_shared

ROOT = Path(__file__).resolve().parent.parent
SRC = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "lib" / "hawk").glob("*.c")) + [
    *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "lib" / "fndsa").glob("ntru*.c")),
    "lib/fndsa/fpr_emu.c",
    "lib/fndsa/fft.c",
    "lib/fndsa/tables_fx.c",
]
COMMON = [
    "lib/common/fips202.c",
    "lib/common/fips202x4.c",
    "lib/common/aes.c",
    "lib/common/drbg.c",
    "tests/mlkem/rng.c",
]

# sizes of the specification v1.0 (and of mupq's api.h): pk, sk, signature, kgseed, salt
PARAMS = {9: (1024, 184, 555, 24, 24), 10: (2440, 360, 1221, 40, 40)}
SEEDRND = 40  # Rnd(320) of the sampler seed
DEFAULT_RECORDS = 6  # reference records cross-checked in the default run


class Hawk:
    """ctypes wrapper of one parameter set (randombytes: tests/mlkem/rng.c, a byte script)."""

    def __init__(self, logn: int):
        self.logn = logn
        self.ns = f"th{logn}_"
        flags = [f"-DPQLAB_HAWK_LOGN={logn}", f"-DPQLAB_FNDSA_LOGN={logn}", f"-DPQLAB_NS={self.ns}"]
        flags += ["-ffp-contract=off", "-DPQLAB_TEST_DRBG"]
        self.lib = build_shared(f"hawk{logn}", SRC + COMMON, flags, include=["lib/hawk", "lib/fndsa"])
        self.pkb, self.skb, self.sigb, self.kgb, self.saltb = PARAMS[logn]

    def fn(self, name: str):
        return getattr(self.lib, self.ns + name)

    def keypair_seed(self, kgseed: bytes) -> tuple[bytes, bytes] | None:
        assert len(kgseed) == self.kgb
        pk, sk = ctypes.create_string_buffer(self.pkb), ctypes.create_string_buffer(self.skb)
        if self.fn("hawk_keypair_seed")(pk, sk, kgseed) != 0:
            assert pk.raw == bytes(self.pkb) and sk.raw == bytes(self.skb)  # zeroised on failure
            return None
        return pk.raw, sk.raw

    def sign(self, m: bytes, sk: bytes, rnd: bytes) -> bytes | None:
        """crypto_sign with randombytes scripted to return `rnd`"""
        self.lib.pqlab_test_rng_script(rnd, ctypes.c_size_t(len(rnd)))
        sm = ctypes.create_string_buffer(len(m) + self.sigb)
        sl = ctypes.c_size_t(0)
        r = self.fn("crypto_sign")(sm, ctypes.byref(sl), m, ctypes.c_size_t(len(m)), sk)
        return sm.raw[: sl.value] if r == 0 else None

    def open(self, sm: bytes, pk: bytes) -> bytes | None:
        m = ctypes.create_string_buffer(max(len(sm), 1))
        ml = ctypes.c_size_t(0)
        r = self.fn("crypto_sign_open")(m, ctypes.byref(ml), sm, ctypes.c_size_t(len(sm)), pk)
        return m.raw[: ml.value] if r == 0 else None

    def verify(self, sig: bytes, m: bytes, pk: bytes) -> bool:
        f = self.fn("crypto_sign_verify")
        return f(sig, ctypes.c_size_t(len(sig)), m, ctypes.c_size_t(len(m)), pk) == 0


class Drbg:
    """The NIST KAT generator's AES-256-CTR DRBG (lib/common/drbg.c) seeded with a record's seed:
    successive randombytes() calls (each call updates the state, so the split matters)."""

    def __init__(self, lib: ctypes.CDLL, seed: bytes):
        self.lib = lib
        self.st = ctypes.create_string_buffer(256)
        lib.pqlab_drbg_init(self.st, seed, None)

    def draw(self, n: int) -> bytes:
        out = ctypes.create_string_buffer(n)
        self.lib.pqlab_drbg_generate(self.st, out, ctypes.c_size_t(n))
        return out.raw


LIBS: dict[int, Hawk] = {}


def hawk(logn: int) -> Hawk:
    if logn not in LIBS:
        LIBS[logn] = Hawk(logn)
    return LIBS[logn]


def parse_rsp(path: Path) -> list[dict]:
    recs = []
    for block in path.read_text().split("\n\n"):
        d = dict(line.split(" = ", 1) for line in block.strip().splitlines() if " = " in line)
        if "count" in d:
            recs.append(d)
    return recs


# ---------------------------------------------------------------------------------------------
# the framework's own test program


@pytest.mark.parametrize("scheme", ["hawk-512", "hawk-1024"])
def test_pqlab_test_host(scheme: str) -> None:
    code, out = pqlab("test", scheme, "-p", "host", "-j", "1")
    assert code == 0, out
    assert f"ok   {scheme}/ref on host" in out


# ---------------------------------------------------------------------------------------------
# the library through ctypes


@pytest.mark.parametrize("logn", [9, 10])
def test_roundtrip_and_refusals(logn: int) -> None:
    h = hawk(logn)
    drbg = Drbg(h.lib, bytes(range(48)))
    keys = None
    for _ in range(200):  # about one kgseed in 10 gives a key
        keys = h.keypair_seed(drbg.draw(h.kgb))
        if keys is not None:
            break
    assert keys is not None
    pk, sk = keys
    m = b"pqlab hawk test message"
    sm = h.sign(m, sk, b"".join(drbg.draw(h.saltb) + drbg.draw(SEEDRND) for _ in range(8)))
    assert sm is not None and len(sm) == len(m) + h.sigb and sm[: len(m)] == m
    assert h.open(sm, pk) == m
    sig = sm[len(m) :]
    assert h.verify(sig, m, pk)
    # another message, a flipped bit of the salt or of s1, a wrong length: refused
    assert not h.verify(sig, m + b"!", pk)
    for pos in (0, h.saltb, h.saltb + 40):
        bad = bytearray(sig)
        bad[pos] ^= 0x04
        assert not h.verify(bytes(bad), m, pk)
    assert not h.verify(sig[:-1], m, pk)
    assert h.open(sm[: h.sigb - 1], pk) is None
    # non-zero padding after the compressed s1 is refused (decoding is canonical)
    pad = bytearray(sig)
    pad[-1] |= 0x80
    assert not h.verify(bytes(pad), m, pk)
    # a public key whose first q00 sign bits are flipped no longer decodes to the signer's key
    badpk = bytearray(pk)
    badpk[0] ^= 0xFF
    assert not h.verify(sig, m, bytes(badpk))
    # all-zero public key: the unary codes never end, decoding fails
    assert not h.verify(sig, m, bytes(h.pkb))
    # the signing randomness runs out: failure, and the output is cleared
    assert h.sign(m, sk, b"") is None


# kgseeds of the KAT generator's candidates (records 0, 9, 75, 82 of Hawk-512; 4, 10, 47 of
# Hawk-1024) that the reference's NTRU solver gives up on, with the depth of its reduction error
# (measured 27 Nov 2026 on an instrumented copy of mupq's hawk512/hawk1024, outside the repo);
# an exact solver accepts each of them. And the kgseeds of record 0 that it accepts.
REF_SOLVER_REJECTS = {
    9: [
        ("714d0c6ab71937e55966c77ecd3e2bdd6d6c555a371435ef", 7),
        ("31ce42cfd790d9dabec361be7758e05703c0284f4e196c20", 7),
        ("8b09b9bdfdadfea173173ec29822bae15c1ae9fd44955af9", 6),
        ("2478f7d3de6041e7e5cd11c5e2ef483d1aa6218eb1264440", 6),
    ],
    10: [
        ("b116f146152ea1ba864a69574d29e59af2ee682c7c0d43056c3cf4617b6c4940c8d144435cb5a624", 8),
        ("3e15c1fde464b5f67f982bf06ebf270dcde9964d186967189bad2e668bf0cfe78b97681a12ccb62b", 7),
        ("b81d801071951226db6e2a399bbddb84df8c8463e607a52c84527bb846d7cd45f855570bd9c3753c", 6),
    ],
}
REF_ACCEPTS = {
    9: "0a1315c8585d6afe83cd259ea7ba63ab84178ef93f45eb4c",
    10: "61ee7ec28a59914a778d0592ea722329b7736a285e9426c14ffe5d3a3947df2f795cd46045990685",
}


@pytest.mark.parametrize("logn", [9, 10])
def test_solver_rejects_as_the_reference(logn: int) -> None:
    h = hawk(logn)
    for seed, depth in REF_SOLVER_REJECTS[logn]:
        assert h.keypair_seed(bytes.fromhex(seed)) is None, f"{seed}: the reference rejects it (depth {depth})"
    keys = h.keypair_seed(bytes.fromhex(REF_ACCEPTS[logn]))
    assert keys is not None and keys[1][: h.kgb].hex() == REF_ACCEPTS[logn]


def test_keygen_rejects_are_deterministic() -> None:
    """hawk_keypair_seed is a function of kgseed: the same seed gives the same answer, and
    the private key starts with that kgseed (the specification's EncodePrivate)."""
    h = hawk(9)
    drbg = Drbg(h.lib, bytes([7]) * 48)
    seen = 0
    for _ in range(60):
        kg = drbg.draw(h.kgb)
        a, b = h.keypair_seed(kg), h.keypair_seed(kg)
        assert a == b
        if a is not None:
            assert a[1][: h.kgb] == kg
            seen += 1
    assert seen >= 1


# ---------------------------------------------------------------------------------------------
# the Hawk reference implementation (mupq, run as a black box)


@pytest.fixture(scope="module")
def mupq_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """mupq's hawk256/hawk512/hawk1024 folders (hawk512 and hawk1024 link to hawk256's files)
    extracted from the pqm4 tarball."""
    dest = tmp_path_factory.mktemp("mupq-hawk")
    with tarfile.open(extdata.thirdparty(extdata.PQM4_TARBALL)) as tf:
        members = [m for m in tf.getmembers() if m.name.startswith("pqm4/mupq/crypto_sign/hawk")]
        assert members, "no Hawk folder in the pqm4 tarball"
        tf.extractall(dest, members=members, filter="tar")
    return dest / "pqm4" / "mupq"


def kat_of(args: list[str], out: Path, scheme_file: str, verdict: str, detail: str) -> list[dict]:
    """`pqlab kat` into `out`: its one verdict line must be `verdict` with `detail` in it"""
    code, text = pqlab("kat", *args, "-p", "host", "-j", "1", "-o", out)
    assert text.split()[0] == verdict and detail in text, text
    assert code == (0 if verdict == "ok" else 1), text
    return parse_rsp(out / scheme_file)


def cross_check(logn: int, count: int, mupq: Path, tmp: Path) -> None:
    n = 1 << logn
    h = hawk(logn)
    # the reference: pqlab/data/kat.toml holds the whole official file's SHA-256 (100 records)
    # and the per-record hashes derived from it (pqlab/katderive.py); ours: the same (its file
    # is the official one); with 100 records the whole-file hash is checked too
    ref = kat_of(
        [f"hawk{n}", "--impl-path", str(mupq), "--count", str(count)],
        tmp / "ref",
        f"hawk{n}-ref-host.rsp",
        "ok",
        "whole-file SHA-256 of 100 record(s)" if count == 100 else f"{count} records match",
    )
    ours = kat_of(
        [f"hawk-{n}", "--count", str(count)],
        tmp / "ours",
        f"hawk-{n}-ref-host.rsp",
        "ok",
        "whole-file SHA-256 of 100 record(s)" if count == 100 else f"{count} records match",
    )
    assert len(ref) == len(ours) == count
    identical = 0
    for r, o in zip(ref, ours, strict=True):
        assert (r["count"], r["seed"], r["msg"]) == (o["count"], o["seed"], o["msg"])
        pk, sk, sm, msg = (bytes.fromhex(r[k]) for k in ("pk", "sk", "sm", "msg"))
        kg_ref = sk[: h.kgb]
        # the kgseed candidates the KAT generator's DRBG hands out, up to the reference's
        drbg = Drbg(h.lib, bytes.fromhex(r["seed"]))
        cands = []
        while True:
            cands.append(drbg.draw(h.kgb))
            if cands[-1] == kg_ref:
                break
            assert len(cands) < 500, f"record {r['count']}: the reference's kgseed is not a DRBG candidate"
        # key generation from the reference's kgseed: its key pair exactly
        assert h.keypair_seed(kg_ref) == (pk, sk), f"record {r['count']}: key pair differs"
        # signing with the randomness the reference drew after its key pair: its signed message
        rnd = b"".join(drbg.draw(h.saltb) + drbg.draw(SEEDRND) for _ in range(16))  # per attempt, call by call
        assert h.sign(msg, sk, rnd) == sm, f"record {r['count']}: signature differs"
        assert h.open(sm, pk) == msg
        # every earlier candidate is rejected by us as by the reference, and our record is its
        accepted = [c.hex() for c in cands[:-1] if h.keypair_seed(c) is not None]
        assert not accepted, f"record {r['count']}: we accept kgseeds the reference rejects: {accepted}"
        assert o == r, f"record {r['count']} differs"
        identical += 1
    print(f"hawk-{n}: {identical}/{count} KAT records identical to the reference's")


@pytest.mark.parametrize("logn", [9, 10])
def test_reference_first_records(logn: int, mupq_root: Path, tmp_path: Path) -> None:
    cross_check(logn, DEFAULT_RECORDS, mupq_root, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("logn", [9, 10])
def test_reference_all_records(logn: int, mupq_root: Path, tmp_path: Path) -> None:
    cross_check(logn, 100, mupq_root, tmp_path)
