"""FN-DSA / Falcon (lib/fndsa) unit tests through ctypes.

* round-3 KAT files (NIST AES-256-CTR DRBG): key generation, signing and
  verification per record, for both degrees and both fpr layers (a prefix of the
  100 records by default, all of them with -m slow or FNDSA_FULL_KAT=1);
* the emulated and the native fpr layers give bit-identical results (KAT and
  random seeds), and the emulation matches IEEE-754 double arithmetic;
* dynamic and tree (expanded key) signing give identical signatures;
* the padded signature format against PQClean's published nistkat-sha256;
* the official sampler intermediate values (BaseSampler, BerExp / exp(-x),
  SamplerZ with the recorded random bytes, hash-to-point, full s2 vector);
* strict rejection of malformed keys and signatures.
"""

from __future__ import annotations

import ctypes
import hashlib
import math
import os
import random
import re
import struct
import time
from fractions import Fraction
from pathlib import Path

import firmware
import pytest
from extdata import vectors
from hostlib import ROOT, build_shared

# the Falcon round-3 package's KAT files and sampler vectors (external: docs/vectors.md)
KATDIR = "falcon-round3/KAT"
SAMPLERDIR = "falcon-round3/Supporting_Documentation/additional"

SRC = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "lib" / "fndsa").glob("*.c"))
COMMON = ["lib/common/fips202.c", "lib/common/aes.c", "lib/common/drbg.c"]
HELPER = ["lib/fndsa/test/fndsa_test.c", "lib/fndsa/test/ntru_test.c"]
N = {9: 512, 10: 1024}
SIZES = {9: (897, 1281, 690, 666), 10: (1793, 2305, 1330, 1280)}  # pk, sk, CRYPTO_BYTES, padded
KAT_DEFAULT = {9: 12, 10: 4}  # records checked in the default (fast) run
FULL = os.environ.get("FNDSA_FULL_KAT") == "1"

# Every record's key pair is reproduced: the NTRU solver replays the reference's
# fixed reduction schedule to reject the (f, g) candidates the reference rejects
# (lib/fndsa/ntru.c, ref_schedule). Records 50 (512) and 1, 25, 42, 58, 61, 65,
# 83, 94 (1024) are the ones that need it; they are in the default prefix set.
KEYGEN_KNOWN_DIFF: dict[int, set[int]] = {9: set(), 10: set()}
NEEDS_COMPAT = {9: [50], 10: [1, 25]}


def lib_for(logn: int, native: bool, scripted: bool = False) -> ctypes.CDLL:
    flags = [
        f"-DPQLAB_FNDSA_LOGN={logn}",
        f"-DPQLAB_NS=t{logn}{int(native)}{int(scripted)}_",
        "-ffp-contract=off",
        "-DPQLAB_FNDSA_NTRU_PEAK",
    ]
    if native:
        flags += ["-DPQLAB_FNDSA_FPR_NATIVE", "-fno-math-errno"]
    if scripted:
        flags += ["-DPQLAB_FNDSA_SCRIPTED_PRNG"]
    name = f"fndsa{logn}{'n' if native else 'e'}{'s' if scripted else ''}"
    lib = build_shared(name, SRC + COMMON + HELPER, flags, include=["lib/fndsa"])
    lib._ns = flags[1].split("=")[1]
    return lib


def fn(lib: ctypes.CDLL, name: str):
    return getattr(lib, lib._ns + name)


LIBS: dict[tuple, ctypes.CDLL] = {}


def get(logn: int, native: bool, scripted: bool = False) -> ctypes.CDLL:
    key = (logn, native, scripted)
    if key not in LIBS:
        LIBS[key] = lib_for(logn, native, scripted)
    return LIBS[key]


def parse_rsp(path: Path) -> list[dict]:
    recs = []
    for block in path.read_text().split("\n\n"):
        d = {}
        for line in block.strip().splitlines():
            if " = " in line:
                k, v = line.split(" = ", 1)
                d[k] = v
        if "count" in d:
            recs.append(d)
    return recs


KATS: dict[int, list[dict]] = {}


def kat(logn: int) -> list[dict]:
    if logn not in KATS:
        KATS[logn] = parse_rsp(vectors(f"{KATDIR}/falcon{N[logn]}-KAT.rsp"))
    return KATS[logn]


def kat0(logn: int) -> dict:
    """Record 0 of the official KAT, shipped in tests/data/falcon-round3 (see its README.md)."""
    (rec,) = parse_rsp(ROOT / "tests" / "data" / "falcon-round3" / f"falcon{N[logn]}-KAT-count0.rsp")
    return rec


class Api:
    """Thin Python wrapper of one build."""

    def __init__(self, logn: int, native: bool):
        self.logn = logn
        self.lib = get(logn, native)
        self.pkb, self.skb, self.cb, self.padb = SIZES[logn]

    def rng(self, seed: bytes) -> None:
        self.lib.fndsa_test_rng_init(seed)

    def drbg_bytes(self, seed: bytes, *sizes: int) -> bytes:
        """successive randombytes() calls of the given sizes (the DRBG updates its
        state after every call, so the split matters)"""
        st = ctypes.create_string_buffer(128)
        self.lib.pqlab_drbg_init(st, seed, None)
        res = b""
        for n in sizes:
            out = ctypes.create_string_buffer(n)
            self.lib.pqlab_drbg_generate(st, out, ctypes.c_size_t(n))
            res += out.raw
        return res

    def keypair_seed(self, seed48: bytes) -> tuple[bytes, bytes]:
        pk = ctypes.create_string_buffer(self.pkb)
        sk = ctypes.create_string_buffer(self.skb)
        assert fn(self.lib, "fndsa_keypair_seed")(pk, sk, seed48) == 0
        return pk.raw, sk.raw

    def sign_seed(self, m: bytes, key: bytes, nonce: bytes, seed: bytes, tree=0, padded=0) -> bytes | None:
        sig = ctypes.create_string_buffer(max(self.cb, self.padb) + 8)
        sl = ctypes.c_size_t(0)
        r = fn(self.lib, "fndsa_sign_seed")(
            sig, ctypes.byref(sl), m, ctypes.c_size_t(len(m)), key, tree, padded, nonce, seed
        )
        return sig.raw[: sl.value] if r == 0 else None

    def verify(self, sig: bytes, m: bytes, pk: bytes, padded=0) -> bool:
        return fn(self.lib, "fndsa_verify")(sig, ctypes.c_size_t(len(sig)), m, ctypes.c_size_t(len(m)), pk, padded) == 0

    def expand(self, sk: bytes) -> bytes:
        n = N[self.logn]
        esk = ctypes.create_string_buffer((4 * n + (self.logn + 1) * n) * 8)
        assert fn(self.lib, "crypto_sign_expand")(esk, sk) == 0
        return esk.raw

    def sign_nist(self, m: bytes, sk: bytes) -> bytes:
        sm = ctypes.create_string_buffer(len(m) + self.cb)
        sml = ctypes.c_size_t(0)
        assert fn(self.lib, "crypto_sign")(sm, ctypes.byref(sml), m, ctypes.c_size_t(len(m)), sk) == 0
        return sm.raw[: sml.value]

    def open_nist(self, sm: bytes, pk: bytes) -> bytes | None:
        m = ctypes.create_string_buffer(len(sm) + 1)
        ml = ctypes.c_size_t(0)
        r = fn(self.lib, "crypto_sign_open")(m, ctypes.byref(ml), sm, ctypes.c_size_t(len(sm)), pk)
        return m.raw[: ml.value] if r == 0 else None


def nist_sm(sig: bytes, m: bytes, logn: int) -> bytes:
    """detached (0x30+logn || nonce || comp) -> round-3 NIST sm layout"""
    comp = sig[41:]
    return (len(comp) + 1).to_bytes(2, "big") + sig[1:41] + m + bytes([0x20 + logn]) + comp


def records(logn: int) -> list[dict]:
    r = kat(logn)
    if FULL:
        return r
    return r[: KAT_DEFAULT[logn]] + [r[c] for c in NEEDS_COMPAT[logn] if c >= KAT_DEFAULT[logn]]


# ---------------------------------------------------------------------------
# KAT


@pytest.mark.parametrize("native", [True, False], ids=["native", "emulated"])
@pytest.mark.parametrize("logn", [9, 10])
def test_kat_prefix(logn: int, native: bool) -> None:
    api = Api(logn, native)
    check_kat(api, records(logn))


@pytest.mark.slow
@pytest.mark.parametrize("native", [True, False], ids=["native", "emulated"])
@pytest.mark.parametrize("logn", [9, 10])
def test_kat_full(logn: int, native: bool) -> None:
    api = Api(logn, native)
    check_kat(api, kat(logn))


def check_kat(api: Api, recs: list[dict]) -> None:
    keygen_ok = sign_ok = 0
    known = KEYGEN_KNOWN_DIFF[api.logn]
    for rec in recs:
        c = int(rec["count"])
        seed = bytes.fromhex(rec["seed"])
        msg = bytes.fromhex(rec["msg"])
        pk_ref, sk_ref, sm_ref = (bytes.fromhex(rec[k]) for k in ("pk", "sk", "sm"))
        assert int(rec["smlen"]) == len(sm_ref)
        stream = api.drbg_bytes(seed, 48, 40, 48)
        pk, sk = api.keypair_seed(stream[:48])
        if c in known:
            assert (pk, sk) != (pk_ref, sk_ref), f"record {c} now matches: update KEYGEN_KNOWN_DIFF"
        else:
            assert pk == pk_ref, f"pk of record {c}"
            assert sk == sk_ref, f"sk of record {c}"
            keygen_ok += 1
        # the NIST API end to end (keypair + crypto_sign from the DRBG)
        if c not in known:
            api.rng(seed)
            fn(api.lib, "crypto_sign_keypair")(
                ctypes.create_string_buffer(api.pkb), ctypes.create_string_buffer(api.skb)
            )
            assert api.sign_nist(msg, sk) == sm_ref, f"crypto_sign of record {c}"
        # signing with the file's private key and the DRBG's nonce and seed
        sig = api.sign_seed(msg, sk_ref, stream[48:88], stream[88:136])
        assert sig is not None
        assert nist_sm(sig, msg, api.logn) == sm_ref, f"signature of record {c}"
        sign_ok += 1
        assert api.open_nist(sm_ref, pk_ref) == msg
        assert api.verify(sig, msg, pk_ref)
    assert sign_ok == len(recs)
    assert keygen_ok == len([r for r in recs if int(r["count"]) not in known])


def test_nistkat_sha256_first_record() -> None:
    """PQClean's nistkat-sha256 (record 0 of the .rsp) for falcon-512 and falcon-1024."""
    expect = {
        9: "da27fe8a462de7307ddf1f9b00072a457d9c5b14e838c148fbe2662094b9a2ca",
        10: "e699d88eb214fef30597385f40814baeb84ac505d5f05f5c257b0726fc4530b8",
    }
    for logn in (9, 10):
        api = Api(logn, True)
        txt = kat_text(api, padded=False)
        assert hashlib.sha256(txt.encode()).hexdigest() == expect[logn]


def kat_text(api: Api, padded: bool) -> str:
    """record 0 in .rsp syntax generated with our code (NIST KAT generator recipe)"""
    st_seed = bytes(range(48))
    stream = api.drbg_bytes(st_seed, 48, 33)
    seed, msg = stream[:48], stream[48:81]
    api.rng(seed)
    pk = ctypes.create_string_buffer(api.pkb)
    sk = ctypes.create_string_buffer(api.skb)
    assert fn(api.lib, "crypto_sign_keypair")(pk, sk) == 0
    if padded:
        nonce_seed = api.drbg_bytes(seed, 48, 40, 48)[48:]
        sig = api.sign_seed(msg, sk.raw, nonce_seed[:40], nonce_seed[40:], padded=1)
        assert len(sig) == api.padb
        sm = sig + msg
    else:
        sm = api.sign_nist(msg, sk.raw)
    h = lambda b: b.hex().upper()  # noqa: E731
    return (
        f"count = 0\nseed = {h(seed)}\nmlen = 33\nmsg = {h(msg)}\npk = {h(pk.raw)}\n"
        f"sk = {h(sk.raw)}\nsmlen = {len(sm)}\nsm = {h(sm)}\n"
    )


def test_padded_nistkat_sha256() -> None:
    """falcon-padded-512/1024 (PQClean META.yml nistkat-sha256)"""
    expect = {
        9: "91842d41138e7cfaf6e2e8f12a03c3b3411302255121e4d07d02f91a003c0395",
        10: "ddcc5683293388249e6fe85e992ea19d0986d34e060a44f82bc3db524a8c8390",
    }
    for logn in (9, 10):
        api = Api(logn, True)
        txt = kat_text(api, padded=True)
        assert hashlib.sha256(txt.encode()).hexdigest() == expect[logn]


# ---------------------------------------------------------------------------
# layers, tree signing, padded format


@pytest.mark.parametrize("logn", [9, 10])
def test_layers_and_tree_identical(logn: int) -> None:
    nat, emu = Api(logn, True), Api(logn, False)
    rnd = random.Random(1000 + logn)
    for _ in range(2 if logn == 10 else 3):
        seed = rnd.randbytes(48)
        kp = nat.keypair_seed(seed)
        assert emu.keypair_seed(seed) == kp
        pk, sk = kp
        esk_n, esk_e = nat.expand(sk), emu.expand(sk)
        msg = rnd.randbytes(rnd.randrange(0, 200))
        nonce, sseed = rnd.randbytes(40), rnd.randbytes(48)
        sigs = [
            nat.sign_seed(msg, sk, nonce, sseed),
            emu.sign_seed(msg, sk, nonce, sseed),
            nat.sign_seed(msg, esk_n, nonce, sseed, tree=1),
            emu.sign_seed(msg, esk_e, nonce, sseed, tree=1),
        ]
        assert all(s == sigs[0] for s in sigs)
        assert nat.verify(sigs[0], msg, pk) and emu.verify(sigs[0], msg, pk)
        pad = nat.sign_seed(msg, sk, nonce, sseed, padded=1)
        assert pad == emu.sign_seed(msg, esk_e, nonce, sseed, tree=1, padded=1)
        assert len(pad) == nat.padb and nat.verify(pad, msg, pk, padded=1)
        assert not nat.verify(pad, msg, pk, padded=0)  # trailing zeros are not canonical there
        assert not nat.verify(sigs[0], msg, pk, padded=1)


def test_fpr_emulation_matches_ieee() -> None:
    emu = get(9, False)
    f = emu.fndsa_test_fpr
    f.restype = ctypes.c_uint64
    f.argtypes = [ctypes.c_int, ctypes.c_uint64, ctypes.c_uint64]
    rnd = random.Random(7)
    bits = lambda x: struct.unpack("<Q", struct.pack("<d", x))[0]  # noqa: E731
    val = lambda b: struct.unpack("<d", struct.pack("<Q", b))[0]  # noqa: E731

    def rand_double() -> float:
        k = rnd.randrange(4)
        if k == 0:
            return float(rnd.randrange(-5000, 5000)) + rnd.choice([0.0, 0.5, 0.25])
        e = rnd.randrange(-60, 60)
        return rnd.choice([-1, 1]) * (1 + rnd.random()) * 2.0**e

    for _ in range(20000):
        x, y = rand_double(), rand_double()
        if rnd.random() < 0.2:
            y = -x * (1 + rnd.randrange(-3, 4) * 2.0**-52)
        bx, by = bits(x), bits(y)
        for op, ref in ((0, x + y), (1, x - y), (2, x * y)):
            got = f(op, bx, by)
            if ref == 0:
                assert val(got) == 0
            else:
                assert got == bits(ref), (op, x.hex(), y.hex())
        if y != 0:
            assert f(3, bx, by) == bits(x / y)
        assert f(4, bits(abs(x)), 0) == bits(math.sqrt(abs(x)))
        if abs(x) < 2.0**62:
            assert ctypes.c_int64(f(5, bx, 0)).value == round(x)  # ties to even, like rint
            assert ctypes.c_int64(f(6, bx, 0)).value == math.floor(x)
            assert ctypes.c_int64(f(7, bx, 0)).value == math.trunc(x)
        i = rnd.randrange(-(2**63), 2**63) >> rnd.randrange(64)
        assert f(8, i & (2**64 - 1), 0) == bits(float(i))
        assert f(9, bx, by) == int(x < y)


@pytest.mark.parametrize("native", [False, True])
def test_merge_fft_re_is_merge(native: bool) -> None:
    """fndsa_poly_merge_fft_re (the NTRU solver's depth-0 D) gives the real parts of
    fndsa_poly_merge_fft bit for bit, in place over f0, at every size from n = 4 to 1024."""
    lib = get(10, native)
    rnd = random.Random(81)
    for logn in range(2, 11):
        hn = 1 << (logn - 1)
        for _ in range(3):
            vals = [rnd.uniform(-1e6, 1e6) * 2.0 ** rnd.randrange(-30, 30) for _ in range(2 * hn)]
            bits = [struct.unpack("<Q", struct.pack("<d", v))[0] for v in vals]
            f0 = (ctypes.c_uint64 * hn)(*bits[:hn])
            f1 = (ctypes.c_uint64 * hn)(*bits[hn:])
            full, half = (ctypes.c_uint64 * (2 * hn))(), (ctypes.c_uint64 * hn)()
            lib.fndsa_test_merge_re(full, half, f0, f1, logn)
            assert list(half) == list(full)[:hn], logn


@pytest.mark.parametrize("native", [False, True])
def test_fpr_addsub_is_add_and_sub(native: bool) -> None:
    """fpr_addsub(x, y) gives fpr_add(x, y) and fpr_sub(x, y) bit for bit (signed zeros, x = y,
    x = -y, subnormal operands, underflow, every alignment distance, ties and carries)."""
    f = get(9, native).fndsa_test_fpr
    f.restype = ctypes.c_uint64
    f.argtypes = [ctypes.c_int, ctypes.c_uint64, ctypes.c_uint64]
    rnd = random.Random(11)
    sign = 1 << 63
    special = [
        0,
        sign,
        1,
        sign | 5,
        0x000FFFFFFFFFFFFF,
        0x0010000000000000,
        0x8010000000000001,
        0x3FF0000000000000,
        0xBFF0000000000000,
        0x3FFFFFFFFFFFFFFF,
        0x3CA0000000000000,
        0x0020000000000000,
        0x801FFFFFFFFFFFFF,
        0x4340000000000001,
    ]
    pairs = [(a, b) for a in special for b in special]
    for _ in range(6000):
        k = rnd.randrange(5)
        a = rnd.getrandbits(64)
        e = rnd.randrange(1, 2047) if native else rnd.randrange(0, 2047)  # no inf/NaN
        a = (a & ~(0x7FF << 52)) | (e << 52)
        if k == 0:  # alignment distance 0..71
            b = (rnd.getrandbits(64) & ~(0x7FF << 52)) | (max(e - rnd.randrange(72), 1 if native else 0) << 52)
        elif k == 1:  # cancellation: b close to a or -a
            b = a ^ rnd.getrandbits(rnd.randrange(54)) ^ rnd.choice([0, sign])
        elif k == 2:  # ties and carries: all-ones / all-zero low bits
            low = (1 << rnd.randrange(40)) - 1
            a |= low
            b = rnd.getrandbits(64) & ~low if rnd.random() < 0.5 else rnd.getrandbits(64) | low
            b = (b & ~(0x7FF << 52)) | (max(e - rnd.randrange(60), 1) << 52)
        elif k == 3:  # near the bottom of the normal range
            a = (a & ~(0x7FF << 52)) | (rnd.randrange(64) << 52)
            b = (rnd.getrandbits(64) & ~(0x7FF << 52)) | (rnd.randrange(64) << 52)
        else:
            b = (rnd.getrandbits(64) & ~(0x7FF << 52)) | (rnd.randrange(1, 2047) << 52)
        pairs += [(a, b), (b, a), (a, a), (a, a ^ sign)]
    for a, b in pairs:
        if native and any(0 < v & ~sign < 1 << 52 for v in (a, b)):
            continue  # subnormals: the emulation's contract, not IEEE's
        assert f(11, a, b) == f(0, a, b), (hex(a), hex(b))
        assert f(12, a, b) == f(1, a, b), (hex(a), hex(b))
    # the signed zeros by value: +0 + -0 = +0, +0 - -0 = +0, -0 - +0 = -0, x - x = +0
    assert [f(11, 0, sign), f(12, 0, sign), f(12, sign, 0), f(11, sign, sign)] == [0, 0, sign, sign]
    one = 0x3FF0000000000000
    minus_two = sign | 0x4000000000000000
    assert [f(12, one, one), f(11, one, one ^ sign), f(12, one ^ sign, one)] == [0, 0, minus_two]


# ---------------------------------------------------------------------------
# sampler vectors (Supporting_Documentation/additional)


def parse_sampler_file(logn: int) -> dict:
    txt = vectors(f"{SAMPLERDIR}/test-vector-sampler-falcon{N[logn]}.txt").read_text()
    head, *blocks = txt.split("SamplerZ:")
    out = {}
    for key in ("nonce", "data"):
        out[key] = bytes.fromhex(re.search(rf"^{key} = ([0-9a-f]+)", head, re.M).group(1))
    for key in ("f", "g", "F", "G", "hashed message"):
        out[key] = [int(v) for v in re.search(rf"^{key} = (.*)$", head, re.M).group(1).split()]
    last = blocks[-1]
    out["s2"] = [int(v) for v in re.search(r"^signature vector = (.*)$", last, re.M).group(1).split()]
    samples = []
    for b in blocks:
        mu = float.fromhex(re.search(r"mu\s+=\s+(\S+)", b).group(1))
        isg = float.fromhex(re.search(r"1/sigma\s+=\s+(\S+)", b).group(1))
        script = bytearray()
        bases, berexps = [], []
        for line in b.splitlines():
            m = re.search(r"BaseSampler: u = 0x([0-9A-F]+) -> z0 = (\d+)", line)
            if m:
                u = int(m.group(1), 16)
                u9 = (u & (2**64 - 1)).to_bytes(8, "little") + bytes([u >> 64])
                script += u9
                bases.append((u9, int(m.group(2))))
            m = re.search(r"from random byte: 0x([0-9A-F]{2})", line)
            if m:
                script.append(int(m.group(1), 16))
        for m in re.finditer(r"BerExp:\s+x\s+=\s+(\S+).*?ccs\s+=\s+(\S+).*?z\s+=\s+0x([0-9A-F]+)", b, re.S):
            berexps.append((float.fromhex(m.group(1)), float.fromhex(m.group(2)), int(m.group(3), 16)))
        ret = int(re.search(r"Accepted, ret = (-?\d+)", b).group(1))
        samples.append((mu, isg, bytes(script), bases, berexps, ret))
    out["samples"] = samples
    return out


@pytest.mark.parametrize("logn", [9, 10])
def test_sampler_vectors(logn: int) -> None:
    v = parse_sampler_file(logn)
    lib = get(logn, False, scripted=True)
    bits = lambda x: struct.unpack("<Q", struct.pack("<d", x))[0]  # noqa: E731
    lib.fndsa_test_expm.restype = ctypes.c_uint64
    lib.fndsa_test_expm.argtypes = [ctypes.c_uint64, ctypes.c_uint64]
    lib.fndsa_test_samplerz.argtypes = [ctypes.c_uint64, ctypes.c_uint64]
    lib.fndsa_test_script_pos.restype = ctypes.c_size_t
    # hash-to-point
    hm = (ctypes.c_uint16 * N[logn])()
    lib.fndsa_test_hash_to_point(hm, v["nonce"], v["data"], ctypes.c_size_t(len(v["data"])))
    assert list(hm) == v["hashed message"]
    nbase = nber = 0
    keep = []
    for mu, isg, script, bases, berexps, ret in v["samples"]:
        for u9, z0 in bases:
            assert lib.fndsa_test_base_sampler(u9) == z0
            nbase += 1
        for x, ccs, z in berexps:
            nber += 1
            keep.append((x, ccs, z))
        buf = ctypes.create_string_buffer(script, len(script))
        lib.fndsa_test_script(buf, ctypes.c_size_t(len(script)))
        assert lib.fndsa_test_samplerz(bits(mu), bits(isg)) == ret
        assert lib.fndsa_test_script_pos() == len(script)
    assert nbase >= len(v["samples"]) and nber >= len(v["samples"])
    # exp(-x) in fixed point: check a few z values exactly via the library's own reduction
    ln2 = float.fromhex("0x1.62e42fefa39efp-1")
    inv_ln2 = float.fromhex("0x1.71547652b82fep+0")
    for x, ccs, z in keep[:200]:
        s = min(int(x * inv_ln2), 63)
        r = x - float(s) * ln2
        got = ((lib.fndsa_test_expm(bits(r), bits(ccs)) << 1) - 1) % 2**64 >> s
        assert got == z
    # the whole signing attempt with the recorded random bytes gives the s2 vector
    allbytes = b"".join(s[2] for s in v["samples"])
    buf = ctypes.create_string_buffer(allbytes, len(allbytes))
    lib.fndsa_test_script(buf, ctypes.c_size_t(len(allbytes)))
    n = N[logn]
    i8 = ctypes.c_int8 * n
    s2 = (ctypes.c_int16 * n)()
    ok = lib.fndsa_test_sign_attempt(s2, i8(*v["f"]), i8(*v["g"]), i8(*v["F"]), i8(*v["G"]), hm)
    assert ok == 1
    assert list(s2) == v["s2"]
    assert lib.fndsa_test_script_pos() == len(allbytes)


# ---------------------------------------------------------------------------
# strict decoding


def comp_encode_py(s2: list[int]) -> bytes:
    bits = []
    for x in s2:
        a = abs(x)
        bits.append(1 if x < 0 else 0)
        bits += [(a >> i) & 1 for i in range(6, -1, -1)]
        bits += [0] * (a >> 7) + [1]
    while len(bits) % 8:
        bits.append(0)
    return bytes(int("".join(map(str, bits[i : i + 8])), 2) for i in range(0, len(bits), 8))


@pytest.mark.parametrize("logn", [9, 10])
def test_malformed_rejected(logn: int) -> None:
    api = Api(logn, True)
    rec = kat0(logn)
    pk, sk, msg = bytes.fromhex(rec["pk"]), bytes.fromhex(rec["sk"]), bytes.fromhex(rec["msg"])
    sm = bytes.fromhex(rec["sm"])
    assert api.open_nist(sm, pk) == msg
    n = N[logn]
    # decode s2 to craft encodings
    comp = sm[2 + 40 + len(msg) + 1 :]
    s2 = (ctypes.c_int16 * n)()
    assert api.lib.fndsa_test_comp_decode(s2, comp, ctypes.c_size_t(len(comp))) == len(comp)
    s2l = list(s2)
    assert comp_encode_py(s2l) == comp
    nonce = sm[2:42]
    sig = bytes([0x30 + logn]) + nonce + comp
    assert api.verify(sig, msg, pk)
    bad = []
    bad.append(bytes([0x20 + logn]) + sig[1:])  # wrong header (NIST inner header)
    bad.append(bytes([0x30 + logn ^ 1]) + sig[1:])  # wrong degree
    bad.append(sig + b"\x00")  # trailing byte
    bad.append(sig[:-1])  # truncated
    bad.append(sig[:41])  # no s2
    bad.append(b"")
    # non-canonical: -0 for a zero coefficient (or +0 -> -0 on first zero)
    z = s2l.index(0) if 0 in s2l else None
    if z is not None:
        enc = comp_encode_py(s2l)
        bitpos = sum(9 + abs(x) // 128 for x in s2l[:z])
        e = bytearray(enc)
        e[bitpos // 8] |= 0x80 >> (bitpos % 8)
        bad.append(bytes([0x30 + logn]) + nonce + bytes(e))
    # nonzero padding bits in the last byte (when there are padding bits)
    total_bits = sum(9 + abs(x) // 128 for x in s2l)
    if total_bits % 8:
        e = bytearray(comp)
        e[-1] |= 1
        bad.append(bytes([0x30 + logn]) + nonce + bytes(e))
    # out of range: |s| = 2048 (16 unary zeros) is rejected even though encodable
    big = s2l[:]
    big[0] = 2048
    bad.append(bytes([0x30 + logn]) + nonce + comp_encode_py(big))
    # valid encoding, wrong value (signature of another message)
    t = s2l[:]
    t[1] += 1
    bad.append(bytes([0x30 + logn]) + nonce + comp_encode_py(t))
    for b in bad:
        assert not api.verify(b, msg, pk), b[:3].hex()
    # the encoder refuses out-of-range values
    out = ctypes.create_string_buffer(4000)
    assert api.lib.fndsa_test_comp_encode(out, ctypes.c_size_t(4000), (ctypes.c_int16 * n)(*big)) == 0
    # public key: header, coefficient >= q, lengths
    assert not api.verify(sig, msg, bytes([logn ^ 1]) + pk[1:])
    pkq = bytearray(pk)
    pkq[1], pkq[2] = 0xFF, pkq[2] | 0xFC  # first 14 bits all ones: 16383 >= q
    assert not api.verify(sig, msg, bytes(pkq))
    # NIST sm: wrong length prefix, wrong inner header
    assert api.open_nist(sm[:1] + bytes([sm[1] ^ 1]) + sm[2:], pk) is None
    k = 2 + 40 + len(msg)
    assert api.open_nist(sm[:k] + bytes([0x30 + logn]) + sm[k + 1 :], pk) is None
    assert api.open_nist(sm[:-1], pk) is None
    assert api.open_nist(sm[:10], pk) is None
    # private key: wrong header, forbidden -2^(bits-1) value
    nonce2, seed2 = bytes(40), bytes(48)
    assert api.sign_seed(msg, bytes([0x5F]) + sk[1:], nonce2, seed2) is None
    fbits = 6 if logn == 9 else 5
    skb = bytearray(sk)
    # first coefficient of f set to 100000 / 10000 (= -32 / -16)
    first = int.from_bytes(skb[1:3], "big")
    first = (first & ((1 << (16 - fbits)) - 1)) | (1 << 15)
    skb[1:3] = first.to_bytes(2, "big")
    assert api.sign_seed(msg, bytes(skb), nonce2, seed2) is None
    assert api.sign_seed(msg, sk, nonce2, seed2) is not None


FG_BITS = {9: 6, 10: 5}


def trim_decode(data: bytes, n: int, bits: int) -> list[int]:
    """n two's-complement values of `bits` bits, big-endian bit order (spec 3.11.4)"""
    v = int.from_bytes(data, "big")
    total = len(data) * 8
    out = []
    for i in range(n):
        x = (v >> (total - (i + 1) * bits)) & ((1 << bits) - 1)
        out.append(x - (1 << bits) if x >> (bits - 1) else x)
    return out


def trim_encode(xs: list[int], bits: int) -> bytes:
    v = 0
    for x in xs:
        assert -(1 << (bits - 1)) < x < (1 << (bits - 1))
        v = (v << bits) | (x & ((1 << bits) - 1))
    return v.to_bytes(len(xs) * bits // 8, "big")


def split_sk(sk: bytes, logn: int) -> tuple[list[int], list[int], list[int]]:
    n, b = N[logn], FG_BITS[logn]
    k = n * b // 8
    return (
        trim_decode(sk[1 : 1 + k], n, b),
        trim_decode(sk[1 + k : 1 + 2 * k], n, b),
        trim_decode(sk[1 + 2 * k :], n, 8),
    )


def join_sk(f: list[int], g: list[int], F: list[int], logn: int) -> bytes:
    b = FG_BITS[logn]
    return bytes([0x50 + logn]) + trim_encode(f, b) + trim_encode(g, b) + trim_encode(F, 8)


def sign_raw(api: Api, key: bytes, m: bytes, tree: int = 0, padded: int = 0) -> tuple[int, int, bytes]:
    """fndsa_sign_seed into a buffer filled with 0xAA: (result, siglen, buffer)"""
    size = 1 + 40 + (api.padb - 41 if padded else api.cb - 43)
    sig = ctypes.create_string_buffer(b"\xaa" * size, size)
    sl = ctypes.c_size_t(12345)
    r = fn(api.lib, "fndsa_sign_seed")(
        sig, ctypes.byref(sl), m, ctypes.c_size_t(len(m)), key, tree, padded, bytes(range(40)), bytes(range(48))
    )
    return r, sl.value, sig.raw


def malformed_keys(sk: bytes, logn: int) -> dict[str, bytes]:
    """private keys that decode as encodings but are not Falcon keys"""
    n, b = N[logn], FG_BITS[logn]
    f, g, F = split_sk(sk, logn)
    k = 1 + 2 * n * b // 8
    rnd = random.Random(logn)
    keys = {
        # truncated and zero-padded (the fuzz finding): F = 0 gives G = 0, which fits
        "zero-padded before F": sk[:k] + bytes(len(sk) - k),
        "zero-padded inside F": sk[: k + n // 2] + bytes(len(sk) - k - n // 2),
        "zero-padded inside g": sk[: k - 40] + bytes(len(sk) - k + 40),
        "random F": join_sk(f, g, [rnd.randint(-127, 127) for _ in range(n)], logn),
        # G = g F / f mod q is then -G (in range): f G - g F = -q, caught by the NTRU check only
        "F negated": join_sk(f, g, [-x for x in F], logn),
        "f = 0 (not invertible)": join_sk([0] * n, g, F, logn),
        # a unit: G = g F / f mod q is F g rotated (in range), but f G - g F = 0
        "f = x^(n/2)": join_sk([0] * (n // 2) + [1] + [0] * (n // 2 - 1), g, F, logn),
    }
    return keys


@pytest.mark.parametrize("native", [True, False], ids=["native", "emulated"])
@pytest.mark.parametrize("logn", [9, 10])
def test_malformed_private_key_refused(logn: int, native: bool) -> None:
    """Signing (NIST, detached, padded) and expansion with a private key that decodes but is
    not a Falcon key return an error at once, with every output byte zeroed; the genuine
    key still signs. (Before: the signing loop never ended, docs/fuzzing.md "Findings".)"""
    api = Api(logn, native)
    rec = kat(logn)[0]
    pk, sk = bytes.fromhex(rec["pk"]), bytes.fromhex(rec["sk"])
    m = b"malformed keys"
    n = N[logn]
    f, g, F = split_sk(sk, logn)
    assert join_sk(f, g, F, logn) == sk
    esk_size = (4 * n + (logn + 1) * n) * 8
    for name, key in malformed_keys(sk, logn).items():
        assert len(key) == api.skb and key != sk, name
        t0 = time.monotonic()
        for padded in (0, 1):
            r, sl, buf = sign_raw(api, key, m, padded=padded)
            assert r == -1 and sl == 0 and buf == bytes(len(buf)), (name, padded)
        sm = ctypes.create_string_buffer(b"\x55" * (len(m) + api.cb), len(m) + api.cb)
        sml = ctypes.c_size_t(7)
        api.rng(bytes(48))
        assert fn(api.lib, "crypto_sign")(sm, ctypes.byref(sml), m, ctypes.c_size_t(len(m)), key) == -1
        assert sml.value == 0 and sm.raw == bytes(len(sm.raw)), name
        esk = ctypes.create_string_buffer(b"\x55" * esk_size, esk_size)
        assert fn(api.lib, "crypto_sign_expand")(esk, key) == -1
        assert esk.raw == bytes(esk_size), name
        assert time.monotonic() - t0 < 5.0, name  # refused at decoding, no signing attempt
    r, sl, buf = sign_raw(api, sk, m)
    assert r == 0 and api.verify(buf[:sl], m, pk)


@pytest.mark.parametrize("logn", [9, 10])
def test_ntru_equation_check(logn: int) -> None:
    """fndsa_check_ntru accepts a generated key and refuses it after any small change that
    keeps f G - g F = q only modulo q or not at all; (F + f, G + g) is another solution of
    the same equation and is accepted."""
    lib = get(logn, True)
    n = N[logn]
    i8 = ctypes.c_int8 * n
    f, g, F, G = i8(), i8(), i8(), i8()
    lib.fndsa_test_keygen(f, g, F, G, bytes([7]) * 48)
    fl, gl, Fl, Gl = list(f), list(g), list(F), list(G)
    assert lib.fndsa_test_check_ntru(f, g, F, G) == 1
    assert lib.fndsa_test_check_ntru(f, g, i8(*[-x for x in Fl]), i8(*[-x for x in Gl])) == 0
    assert lib.fndsa_test_check_ntru(f, g, i8(), i8()) == 0
    for u in (0, 1, n - 1):
        G2 = Gl[:]
        G2[u] += 1
        assert lib.fndsa_test_check_ntru(f, g, F, i8(*G2)) == 0
    F2 = [a + b for a, b in zip(Fl, fl)]
    G2 = [a + b for a, b in zip(Gl, gl)]
    if max(map(abs, F2 + G2)) <= 127:
        assert lib.fndsa_test_check_ntru(f, g, i8(*F2), i8(*G2)) == 1


@pytest.mark.parametrize("logn", [9, 10])
def test_ntru_workspace_exact(logn: int) -> None:
    """FNDSA_NTRU_WORDS (params.h) is exactly the NTRU solver's need: the workspace's highest
    point over whole key generations (every candidate that reaches the solver, restarts
    included) equals it for several seeds, so it is neither short (a debug build would stop;
    a release build would reject candidates and change the keys) nor larger than needed."""
    lib = get(logn, False)
    words = lib.fndsa_test_keygen_ws_words
    words.restype = ctypes.c_size_t
    cap = lib.fndsa_test_keygen_ws_cap
    cap.restype = ctypes.c_size_t
    peaks = {words(bytes([i]) * 48) for i in range(3)}
    assert peaks == {cap()}, (peaks, cap())
    # the per-phase counters (docs/fndsa.md, "Key generation in less RAM") of the last run:
    # every phase ran, none above the workspace, and the highest one is its peak
    phase = lib.fndsa_test_ntru_phase_peak
    phase.restype = ctypes.c_size_t
    per = {p: phase(p) for p in [*range(100, 100 + logn), 200, *range(300, 300 + logn), *range(400, 400 + logn)]}
    assert all(0 < v <= cap() for v in per.values()), per
    assert max(per.values()) == cap(), per


@pytest.mark.parametrize("logn", [9, 10])
def test_sign_attempt_limit(logn: int) -> None:
    """Signing stops after FNDSA_SIGN_MAX_ATTEMPTS attempts with an error and a zeroed
    signature: tree signing with an expanded key whose basis is zeroed (every attempt
    gives s1 = c, far too long: rejected), and the dynamic loop entered with the counter
    at the limit; one attempt left still signs."""
    api = Api(logn, True)
    lib = api.lib
    limit = lib.fndsa_test_max_attempts()
    assert limit == 128
    rec = kat(logn)[0]
    pk, sk = bytes.fromhex(rec["pk"]), bytes.fromhex(rec["sk"])
    n = N[logn]
    m = b"attempts"
    esk = api.expand(sk)
    r, sl, buf = sign_raw(api, esk, m, tree=1)
    assert r == 0 and api.verify(buf[:sl], m, pk)
    bad = bytes(32 * n) + esk[32 * n :]  # B = 0, the LDL tree kept
    for padded in (0, 1):
        r, sl, buf = sign_raw(api, bad, m, tree=1, padded=padded)
        assert r == -1 and sl == 0 and buf == bytes(len(buf))
        assert fn(lib, "crypto_sign_sign_attempts")() == limit
    i8 = ctypes.c_int8 * n
    f, g, F, G = i8(), i8(), i8(), i8()
    lib.fndsa_test_keygen(f, g, F, G, bytes([3]) * 48)
    hm = (ctypes.c_uint16 * n)(*[(37 * i) % 12289 for i in range(n)])
    s2 = (ctypes.c_int16 * n)(*([5] * n))
    assert lib.fndsa_test_sign_dyn_from(s2, limit, f, g, F, G, hm, bytes(48)) == 0
    assert list(s2) == [0] * n
    assert lib.fndsa_test_sign_dyn_from(s2, limit - 1, f, g, F, G, hm, bytes(48)) in (0, 1)
    ok = [lib.fndsa_test_sign_dyn_from(s2, 0, f, g, F, G, hm, bytes([i]) * 48) for i in range(3)]
    assert all(ok) and any(v != 0 for v in s2)


@pytest.mark.parametrize("native", [False, True], ids=["emulated", "native"])
@pytest.mark.parametrize("logn", [9, 10])
def test_corrupted_expanded_key_leaves_refused(logn: int, native: bool) -> None:
    """An expanded key whose LDL tree has a leaf 1/sigma' outside [1/sigma0, 1/sigma_min]
    (zero, negative, NaN, infinity, a sigma' below sigma_min or above sigma0) is refused at
    once with an error and a zeroed signature: SamplerZ's rejection loop would never end on
    it. The leftmost and the rightmost leaf are each tried; the intact key still signs."""
    api = Api(logn, native)
    rec = kat(logn)[0]
    pk, sk = bytes.fromhex(rec["pk"]), bytes.fromhex(rec["sk"])
    n = N[logn]
    m = b"leaves"
    esk = api.expand(sk)
    r, sl, buf = sign_raw(api, esk, m, tree=1)
    assert r == 0 and api.verify(buf[:sl], m, pk)
    tree = 32 * n  # bytes: the basis (4n values), then the tree ((logn + 1) n values)
    assert len(esk) >= tree + 8 * (logn + 1) * n
    leaves = (tree + 8 * (2 * n - 2), tree + 8 * (logn + 1) * n - 8)  # leftmost, rightmost
    values = [0.0, -0.6, float("nan"), float("inf"), 1e300, 1 / 1.2, 1 / 1.83]
    for off in leaves:
        for v in values:
            bad = esk[:off] + struct.pack("<d", v) + esk[off + 8 :]
            r, sl, buf = sign_raw(api, bad, m, tree=1)
            assert r == -1 and sl == 0 and buf == bytes(len(buf)), (off, v)


def test_keygen_cdt_monotone() -> None:
    """keygen.c counts the CDT entries above the sample instead of searching the first one
    below it: that needs T[1..26] strictly decreasing with T[26] = 0."""
    text = (ROOT / "lib/fndsa/tables.h").read_text()
    body = re.search(r"fndsa_gauss_1024_12289\[27\] = \{(.*?)\};", text, re.S)
    assert body is not None
    t = [int(v.strip().rstrip("u")) for v in body.group(1).split(",") if v.strip()]
    assert len(t) == 27 and t[26] == 0 and all(t[k] > t[k + 1] for k in range(1, 26))
    assert all(v < 2**63 for v in t)


def test_restart_counters() -> None:
    api = Api(9, True)
    restarts = []
    for i in range(6):
        api.keypair_seed(bytes([i]) * 48)
        restarts.append(fn(api.lib, "crypto_sign_keygen_restarts")())
    assert all(r < 200 for r in restarts) and any(r > 0 for r in restarts)
    pk, sk = api.keypair_seed(bytes(48))
    api.sign_seed(b"m", sk, bytes(40), bytes(48))
    assert fn(api.lib, "crypto_sign_sign_attempts")() >= 1


@pytest.mark.parametrize("logn", [9, 10])
def test_ntt_public_key_is_g_over_f(logn: int) -> None:
    """The NTT with lazy reductions (modq.c): h = g / f is canonical and h f = g
    in Z_q[x]/(x^n + 1), checked by an integer product; g at the int8 extremes
    (all 127, all -128, alternating) drives the largest intermediate values."""
    lib = get(logn, False)
    n, q = N[logn], 12289
    rnd = random.Random(logn)
    gs = [[127] * n, [-128] * n, [127 if i % 2 else -128 for i in range(n)], [rnd.randint(-128, 127) for _ in range(n)]]
    checked = 0
    for g in gs:
        for _ in range(4):  # a non-invertible f is rare; try the next one
            f = [rnd.randint(-128, 127) for _ in range(n)]
            h = (ctypes.c_uint16 * n)()
            if lib.fndsa_test_compute_public(h, (ctypes.c_int8 * n)(*f), (ctypes.c_int8 * n)(*g)):
                break
        else:
            pytest.fail("no invertible f in 4 draws")
        assert all(0 <= x < q for x in h)
        # schoolbook product by Kronecker substitution (coefficients < 2^40)
        pack = lambda v: sum(x << (40 * i) for i, x in enumerate(v))  # noqa: E731
        full = pack(list(h)) * pack([x % q for x in f])
        c = [(full >> (40 * i)) & ((1 << 40) - 1) for i in range(2 * n)]
        prod = [c[i] - c[i + n] for i in range(n)]
        assert [p % q for p in prod] == [x % q for x in g]
        checked += 1
    assert checked == len(gs)


def test_ntru_fit_check_and_approximation() -> None:
    """ntru.c's fit check (limbs from the one holding bit `bits` up) against the exact
    bound -2^bits <= x < 2^bits and against the full-scan bit length, and the floating
    approximation from the top three limbs against the exact value, on integers around
    every limb boundary."""
    flags = ["-DPQLAB_FNDSA_LOGN=9", "-DPQLAB_NS=tntru_", "-ffp-contract=off", "-DPQLAB_FNDSA_NTRU_TEST"]
    lib = build_shared("fndsa9ntru", SRC + COMMON + HELPER, flags, include=["lib/fndsa"])
    fits, bitlen = lib.tntru_fndsa_ntru_test_fits, lib.tntru_fndsa_ntru_test_bitlen
    to_fpr = lib.tntru_fndsa_ntru_test_to_fpr
    rnd = random.Random(7)
    for ln in (1, 2, 3, 5, 9):
        vals = []
        for e in range(0, 32 * ln - 1):
            for v in (2**e - 1, 2**e, -(2**e), -(2**e) - 1, rnd.getrandbits(e + 1) - 2**e):
                if -(2 ** (32 * ln - 1)) <= v < 2 ** (32 * ln - 1):
                    vals.append(v)
        arr = (ctypes.c_uint32 * ln)()
        for v in vals:
            w = v % 2 ** (32 * ln)
            for i in range(ln):
                arr[i] = (w >> (32 * i)) & 0xFFFFFFFF
            assert bitlen(arr, ctypes.c_size_t(ln)) == (v if v >= 0 else -v - 1).bit_length()
            for bits in {0, 1, 30, 31, 32, 61, 62, 63, 64, 32 * ln - 2, 32 * ln - 1, 32 * ln, 40 * ln}:
                exp = -(2**bits) <= v < 2**bits
                assert fits(arr, ctypes.c_size_t(1), ctypes.c_size_t(ln), ctypes.c_uint32(bits)) == exp, (v, ln, bits)
            out = (ctypes.c_uint64 * 1)()
            sc = rnd.randrange(0, 32 * ln)
            to_fpr(out, arr, ctypes.c_size_t(1), ctypes.c_size_t(ln), ctypes.c_int32(sc))
            got = struct.unpack("<d", struct.pack("<Q", out[0]))[0]
            exact = v / 2.0**sc
            assert abs(got - exact) <= abs(exact) * 2.0**-50, (v, sc, got)
        # several coefficients: one that does not fit makes the whole polynomial fail
        m = 4
        poly = (ctypes.c_uint32 * (m * ln))()
        big = 2 ** (32 * ln - 2)
        for u, v in enumerate([1, -1, big - 1, 3]):
            w = v % 2 ** (32 * ln)
            for i in range(ln):
                poly[u * ln + i] = (w >> (32 * i)) & 0xFFFFFFFF
        b = 32 * ln - 2
        assert fits(poly, ctypes.c_size_t(m), ctypes.c_size_t(ln), ctypes.c_uint32(b)) == 1
        assert fits(poly, ctypes.c_size_t(m), ctypes.c_size_t(ln), ctypes.c_uint32(b - 1)) == 0


def test_ntru_fixed_point_window() -> None:
    """ntru.c's block exponent (poly_maxbits: the largest b with a coefficient outside
    [-2^(b-1), 2^(b-1))) and window load (fxb_load: floor(x / 2^t) for t from -64 up, with
    the one-hot masks, and zwin64 beyond 62 limbs) against exact integers, around every limb
    boundary and for negative values."""
    flags = ["-DPQLAB_FNDSA_LOGN=9", "-DPQLAB_NS=tntru_", "-ffp-contract=off", "-DPQLAB_FNDSA_NTRU_TEST"]
    lib = build_shared("fndsa9ntru", SRC + COMMON + HELPER, flags, include=["lib/fndsa"])
    maxbits, load = lib.tntru_fndsa_ntru_test_maxbits, lib.tntru_fndsa_ntru_test_fxload
    rnd = random.Random(17)
    checked = 0
    for ln in (1, 2, 3, 5, 12, 70):
        for _ in range(60 if ln < 70 else 12):
            m = rnd.choice([2, 4, 8])
            top = rnd.randrange(0, 32 * ln - 1)
            vals = []
            for _u in range(m):
                e = rnd.randrange(0, top + 1)
                v = rnd.getrandbits(e) if e else 0
                v = rnd.choice([v, -v, -v - 1, 2**e - 1, -(2**e)])
                vals.append(max(min(v, 2 ** (32 * ln - 1) - 1), -(2 ** (32 * ln - 1))))
            arr = (ctypes.c_uint32 * (m * ln))()
            for u, v in enumerate(vals):
                w = v % 2 ** (32 * ln)
                for i in range(ln):
                    arr[u * ln + i] = (w >> (32 * i)) & 0xFFFFFFFF
            b = max((v if v >= 0 else -v - 1).bit_length() for v in vals)
            assert maxbits(arr, ctypes.c_size_t(m), ctypes.c_size_t(ln)) == b
            for q in (54, 55, 61, 62):
                t = b - q
                if t < -64:
                    continue
                out = (ctypes.c_int64 * m)()
                load(out, arr, ctypes.c_size_t(m), ctypes.c_size_t(ln), ctypes.c_int32(t))
                hm = m // 2
                got = [out[2 * u] if u < hm else out[2 * (u - hm) + 1] for u in range(m)]
                exp = [v >> t if t >= 0 else v << -t for v in vals]
                assert got == exp, (ln, t, vals)
                checked += 1
    assert checked > 1000


def _pmul(a: list[int], b: list[int]) -> list[int]:
    """a b in Z[x]/(x^m + 1), schoolbook"""
    m = len(a)
    r = [0] * m
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                if i + j < m:
                    r[i + j] += x * y
                else:
                    r[i + j - m] -= x * y
    return r


def _padj(a: list[int]) -> list[int]:
    return [a[0]] + [-a[len(a) - i] for i in range(1, len(a))]


def _pinv(a: list[int]) -> tuple[list[int], int]:
    """b, den with a b = den in Z[x]/(x^m + 1): 1/a = a(-x) / N(a)(x^2), recursively"""
    m = len(a)
    if m == 1:
        return [1], a[0]
    am = [x if i % 2 == 0 else -x for i, x in enumerate(a)]
    b1, den = _pinv(_pmul(a, am)[0::2])
    bx = [0] * m
    bx[0::2] = b1
    return _pmul(am, bx), den


def _kcmp_lib(logn: int) -> ctypes.CDLL:
    flags = [
        f"-DPQLAB_FNDSA_LOGN={logn}",
        f"-DPQLAB_NS=tkc{logn}_",
        "-ffp-contract=off",
        "-DPQLAB_FNDSA_NTRU_TEST",
        "-DPQLAB_FNDSA_FPR_NATIVE",
        "-fno-math-errno",
    ]
    lib = build_shared(f"fndsa{logn}kcmp", SRC + COMMON + HELPER, flags, include=["lib/fndsa"])
    lib._ns = f"tkc{logn}_"
    return lib


@pytest.mark.parametrize("logn", [9, 10])
def test_babai_fixed_point_k(logn: int) -> None:
    """The Babai steps of the reference's schedule at depths 2..4 compute k in fixed point
    (ntru.c, babai_k_fx). (1) Over whole key generations, every step's k against the
    emulated-binary64 k that the previous code used (computed alongside in test builds):
    the same k and the same reject decisions. (2) Captured steps against exact rationals
    (x = (F adj f + G adj g) / (f adj f + g adj g) in Q[x]/(x^m + 1), by the field-norm
    tower): k is round(x / 2^s) and the unrounded fixed-point value is within 2^-14 (the
    binary64 value of the previous code was within 2^-12.6 at worst over 500 key generations)."""
    lib = _kcmp_lib(logn)
    ns = lib._ns
    kc = (ctypes.c_uint64 * 8).in_dll(lib, ns + "fndsa_ntru_test_kcmp")
    cap = (ctypes.c_uint32 * (1 << 16)).in_dll(lib, ns + "fndsa_ntru_test_cap")
    pkb, skb = SIZES[logn][:2]
    keypair = getattr(lib, ns + "fndsa_keypair_seed")
    rnd = random.Random(1000 + logn)
    seeds = [rnd.randbytes(48) for _ in range(40 if logn == 9 else 12)]
    cap[0] = 0xFFFFFFFF
    for i in range(8):
        kc[i] = 0
    for seed in seeds:
        assert keypair(ctypes.create_string_buffer(pkb), ctypes.create_string_buffer(skb), seed) == 0
    steps, coeffs, kdiff, bigdiff, _, nonzero, kmax = list(kc)[:7]
    print(f"logn {logn}: {steps} steps, {coeffs} coefficients compared, {nonzero} nonzero, max |k| {kmax}")
    assert steps > 20 * len(seeds) and coeffs > 1000 * len(seeds) and nonzero > coeffs // 3
    assert kmax > 2**23
    assert kdiff == 0 and bigdiff == 0, (kdiff, bigdiff)

    def words(pos: int, n: int, ln: int) -> tuple[list[int], int]:
        out = []
        for u in range(n):
            v = sum(cap[pos + u * ln + i] << (32 * i) for i in range(ln))
            out.append(v - (1 << (32 * ln)) if v >> (32 * ln - 1) else v)
        return out, pos + n * ln

    checked = 0
    worst_err = 0.0
    for idx in range(0, steps // len(seeds), max(1, steps // len(seeds) // 12)):
        cap[0] = idx
        assert keypair(ctypes.create_string_buffer(pkb), ctypes.create_string_buffer(skb), seeds[0]) == 0
        if cap[0] != 0xFFFFFFFF:
            continue
        m, flen, rl, s, tau, big, bigf = (cap[1 + i] for i in range(7))
        s -= (s >> 31) << 32
        tau -= (tau >> 31) << 32
        f, pos = words(8, m, flen)
        g, pos = words(pos, m, flen)
        F, pos = words(pos, m, rl)
        G, pos = words(pos, m, rl)
        kx, pos = words(pos, m, 1)
        kf, pos = words(pos, m, 1)
        xt, pos = words(pos, m, 2)
        num = [a + b for a, b in zip(_pmul(F, _padj(f)), _pmul(G, _padj(g)))]
        den_p = [a + b for a, b in zip(_pmul(f, _padj(f)), _pmul(g, _padj(g)))]
        inv, den = _pinv(den_p)
        num = _pmul(num, inv)
        if den < 0:
            num, den = [-x for x in num], -den
        for u in range(m):
            q = Fraction(num[u], den << s) if s >= 0 else Fraction(num[u] << -s, den)
            k = math.floor(q + Fraction(1, 2))
            assert big == bigf == (abs(q) >= 2**31 - 1)
            if not big:
                assert kx[u] == k == kf[u], (idx, u)
            err = abs(Fraction(xt[u]) * Fraction(2) ** tau - q)
            worst_err = max(worst_err, float(err))
        checked += 1
    assert checked >= 8
    print(f"logn {logn}: {checked} captured steps, worst |x~ 2^tau - x / 2^s| = 2^{math.log2(worst_err):.1f}")
    assert worst_err < 2.0**-14, worst_err


def test_division_by_reciprocal_matches_restoring() -> None:
    """fpr_div_nr (fpr_emu.c, the division the armv7em build uses) gives the bits of the
    restoring fpr_div and of IEEE division: random patterns, significands at the ends of
    [1, 2) (the reciprocal's worst cases are near ym = 2^52 and 2^53 - 1), x = y, zero."""
    f = get(9, False).fndsa_test_fpr
    f.restype = ctypes.c_uint64
    f.argtypes = [ctypes.c_int, ctypes.c_uint64, ctypes.c_uint64]
    rnd = random.Random(11)
    m52 = (1 << 52) - 1
    edges = [0, 1, 2, m52, m52 - 1, 1 << 51, (1 << 51) - 1, 0x5555555555555, 0xAAAAAAAAAAAAA]
    val = lambda b: struct.unpack("<d", struct.pack("<Q", b))[0]  # noqa: E731
    n = 0
    for i in range(60000):
        ex, ey = rnd.randrange(900, 1150), rnd.randrange(900, 1150)
        mx = rnd.choice(edges) if i % 3 == 0 else rnd.getrandbits(52)
        my = rnd.choice(edges) if i % 3 == 1 else rnd.getrandbits(52)
        if i % 7 == 0:
            my = (my & ~0x1FFFFF) | rnd.choice([0, 0x1FFFFF])  # the 21 bits below the 32-bit D
        if i % 11 == 0:
            mx, ex = my, ey
        x = (rnd.getrandbits(1) << 63) | (ex << 52) | mx
        y = (rnd.getrandbits(1) << 63) | (ey << 52) | my
        if i % 101 == 0:
            x = 0
        got = f(10, x, y)
        assert got == f(3, x, y), (hex(x), hex(y))
        if x:
            assert val(got) == val(x) / val(y), (hex(x), hex(y))
        n += 1
    assert n == 60000


DIV_SWEEP = r"""
#include <stdio.h>
#include "fpr.h"
/* every 16th 32-bit head D = ym >> 21 of the divisor (the reciprocal's start depends on it
 * alone), with the low 21 bits all-zero, all-one or mixed, against several dividends */
int main(void)
{
    unsigned long long bad = 0, n = 0, s = 0x9E3779B97F4A7C15ull;
    for (unsigned long long D = 1ull << 31; D < (1ull << 32); D += 16) {
        for (int k = 0; k < 3; k++) {
            s ^= s << 13; s ^= s >> 7; s ^= s << 17;
            unsigned long long lo = k == 0 ? 0 : k == 1 ? 0x1FFFFF : (s & 0x1FFFFF);
            unsigned long long y = (1023ull << 52) | (((D << 21) | lo) & ((1ull << 52) - 1));
            unsigned long long x = (1023ull << 52) | ((s >> 7) & ((1ull << 52) - 1));
            if (k == 0) x = y;
            if (fpr_div_nr(x, y) != fpr_div(x, y) && bad++ < 5)
                printf("bad %016llx %016llx\n", x, y);
            n++;
        }
    }
    printf("checked %llu bad %llu\n", n, bad);
    return bad != 0;
}
"""


@pytest.mark.slow
def test_division_by_reciprocal_sweep(tmp_path: Path) -> None:
    """fpr_div_nr = fpr_div over a sweep of the divisor's 32-bit head (every 16th of the
    2^31 values, three low parts each), the part of the input the reciprocal's error
    depends on; about a minute on one core."""
    import subprocess

    src = tmp_path / "sweep.c"
    src.write_text(DIV_SWEEP)
    sources = [src, ROOT / "lib/fndsa/fpr_emu.c"]
    exe = firmware.build("host", tmp_path, sources, include=[ROOT / "lib/fndsa"], cflags=["-DPQLAB_NS=sweep_"])
    out = subprocess.run([str(exe)], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout
    assert f"checked {3 * (1 << 27)} bad 0" in out.stdout, out.stdout


# ---------------------------------------------------------------------------
# key generation: the orthogonalised norm in fixed point (keygen.c, ortho_norm)

# keygen.c's documented bound on the relative error of N near the bound (N < 2 * 1.17^2 q)
ONORM_DELTA = {9: 2.0**-41.07, 10: 2.0**-39.71}
# and its parts, for the general form: eps (FFT values), the D rounding, the fpr steps
ONORM_EPS = {9: 496 * 2.0**-50, 10: 995 * 2.0**-50}
BNORM = 16822.4121  # 1.17^2 q


def cos_table_124(n: int) -> tuple[list[int], list[int]]:
    """cos(pi m / n), m < 2n, as (hi 2^62 + lo) / 2^124 (hi signed, 0 <= lo < 2^62), from
    Python integers: exp(i pi / n) by half angles from i (Q200), then its powers."""
    K = 200
    one = 1 << K
    c, s = 0, one  # angle pi / 2
    ang = 2
    while ang < n:  # halve: cos t/2 = sqrt((1 + cos t) / 2), sin t/2 = sin t / (2 cos t/2)
        c2 = math.isqrt((one + c) * one // 2)
        s = s * one // (2 * c2)
        c, ang = c2, ang * 2
    zc, zs = one, 0
    hi, lo = [], []
    for _ in range(2 * n):
        v = (zc + (1 << (K - 125))) >> (K - 124)  # round to Q124
        hi.append(v >> 62)
        lo.append(v & ((1 << 62) - 1))
        zc, zs = (zc * c - zs * s) >> K, (zc * s + zs * c) >> K
    return hi, lo


ONORM_LIBS: dict[tuple[int, bool], ctypes.CDLL] = {}


def onorm_lib(logn: int, native: bool) -> ctypes.CDLL:
    key = (logn, native)
    if key not in ONORM_LIBS:
        ns = f"tkg{logn}{int(native)}_"
        flags = [f"-DPQLAB_FNDSA_LOGN={logn}", f"-DPQLAB_NS={ns}", "-ffp-contract=off", "-DPQLAB_FNDSA_KEYGEN_TEST"]
        if native:
            flags += ["-DPQLAB_FNDSA_FPR_NATIVE", "-fno-math-errno"]
        lib = build_shared(
            f"fndsa{logn}kg{int(native)}",
            SRC + COMMON + HELPER + ["lib/fndsa/test/onorm_ref.c"],
            flags,
            include=["lib/fndsa"],
        )
        lib._ns = ns
        fn(lib, "fndsa_keygen_test_onorm").restype = ctypes.c_uint64
        lib.fndsa_ref_onorm.restype = ctypes.c_double
        ONORM_LIBS[key] = lib
    return ONORM_LIBS[key]


def keygen_like_pairs(logn: int, count: int, rnd: random.Random) -> list[tuple[list[int], list[int]]]:
    """(f, g) drawn like key generation's candidates that reach the norm check: rounded
    Gaussian of sigma 1.17 sqrt(q / 2n), |coefficient| < 2^(bits - 1) - ..., ||(f, g)||^2 <= 16822"""
    n = N[logn]
    sigma = 1.17 * math.sqrt(12289 / (2 * n))
    lim = 31 if logn == 9 else 15
    vals = list(range(-lim, lim + 1))
    cum, acc = [], 0.0
    for v in vals:
        acc += math.exp(-v * v / (2 * sigma * sigma))
        cum.append(acc)
    out = []
    while len(out) < count:
        f = rnd.choices(vals, cum_weights=cum, k=n)
        g = rnd.choices(vals, cum_weights=cum, k=n)
        if sum(x * x for x in f) + sum(x * x for x in g) <= 16822:
            out.append((f, g))
    return out


def extreme_pairs(logn: int, rnd: random.Random) -> list[tuple[list[int], list[int]]]:
    """the largest FFT values the precondition allows (all of ||f||^2 <= 16822 in equal
    magnitudes, signs aligned on one root, on x = 1, alternating), and structured ones"""
    n = N[logn]
    c = math.isqrt(16822 // n)  # 5 (512), 4 (1024)
    out = [([c] * n, [0] * n), ([c * (-1) ** i for i in range(n)], [0] * n), ([0] * n, [c] * n)]
    for j0 in (0, n // 4, n // 2 - 1):
        th = math.pi * (2 * j0 + 1) / n
        pat = [c if math.cos(th * i) >= 0 else -c for i in range(n)]
        out.append((pat, [0] * n))
        out.append(([v // 2 for v in pat], [(c // 2) * rnd.choice((-1, 1)) for _ in range(n)]))
    out.append(([1] + [0] * (n - 1), [0] * n))
    out.append(([1] + [0] * (n // 2 - 1) + [1] + [0] * (n // 2 - 1), [0] * n))  # 1 + x^(n/2)
    for _ in range(8):
        out.append(([rnd.choice((-c, c)) for _ in range(n)], [0] * n))
        h = max(1, c * 7 // 10)
        out.append(([rnd.choice((-h, h)) for _ in range(n)], [rnd.choice((-h, h)) for _ in range(n)]))
    for f, g in out:
        assert sum(x * x for x in f) + sum(x * x for x in g) <= 16822
    return out


@pytest.mark.parametrize("logn", [9, 10])
def test_ortho_norm_fixed_point(logn: int) -> None:
    """keygen.c's orthogonalised norm (integer FFTs, fixed point) against a reference without
    FFT (exact integer P = f adj f + g adj g, evaluated with 124-bit cosines; onorm_ref.c) on
    key-generation-like candidates (thousands, many near the bound 1.17^2 q) and on extreme
    ones: the relative error stays below keygen.c's documented bound, the accept/reject
    decision agrees with the reference's except within that distance of the bound, and the
    emulated and native fpr layers give the same bits."""
    n = N[logn]
    emu, nat = onorm_lib(logn, False), onorm_lib(logn, True)
    assert emu.fndsa_ref_ldbl_bits() >= 64, "the reference needs a long double of 64+ bits"
    hi, lo = cos_table_124(n)
    for m in range(0, 2 * n, 37):
        assert abs((hi[m] * 2**62 + lo[m]) / 2**124 - math.cos(math.pi * m / n)) < 1e-15
    chi = (ctypes.c_int64 * (2 * n))(*hi)
    clo = (ctypes.c_uint64 * (2 * n))(*lo)
    w = (ctypes.c_int64 * (2 * n))()
    val = lambda b: struct.unpack("<d", struct.pack("<Q", b))[0]  # noqa: E731
    rnd = random.Random(4242 + logn)
    pairs = keygen_like_pairs(logn, 2000 if logn == 9 else 1000, rnd)
    extremes = extreme_pairs(logn, rnd)
    i8 = ctypes.c_int8 * n
    worst = 0.0
    near = [0, 0]
    delta = ONORM_DELTA[logn]
    eps = ONORM_EPS[logn]
    for idx, (f, g) in enumerate(pairs + extremes):
        fa, ga = i8(*f), i8(*g)
        bits = fn(emu, "fndsa_keygen_test_onorm")(fa, ga, w)
        assert fn(nat, "fndsa_keygen_test_onorm")(fa, ga, w) == bits, idx
        ours = val(bits)
        rlo = ctypes.c_double(0)
        dmin = ctypes.c_double(0)
        ref_hi = emu.fndsa_ref_onorm(fa, ga, ctypes.c_uint(logn), chi, clo, ctypes.byref(rlo), ctypes.byref(dmin))
        ref = ref_hi + rlo.value
        rel = abs((ours - ref_hi) - rlo.value) / ref
        # the general form of keygen.c's bound (any min D_j), and the documented value
        # where it applies (N < 2 * 1.17^2 q, so every D_j >= D0)
        d0 = dmin.value
        r = 2 * math.sqrt(2) * eps / math.sqrt(d0) + (2 * eps * eps + 0.51 * 2.0**-38) / d0
        if r < 0.5:  # relative error of D_j -> of 1 / D_j, then the fpr steps
            assert rel <= r / (1 - r) + (n // 2 + 2) * 2.0**-53, (idx, rel, r)
        if ref < 2 * BNORM:
            assert rel <= delta, (idx, rel, delta)
            worst = max(worst, rel)
        if abs(ref - BNORM) > delta * BNORM:
            assert (ours < BNORM) == (ref < BNORM), idx
        if abs(ref / BNORM - 1) < 0.01:
            near[ref < BNORM] += 1
    print(
        f"logn {logn}: worst relative error 2^{math.log2(worst):.2f} (bound 2^{math.log2(delta):.2f}), "
        f"{near[1]} / {near[0]} candidates within 1 % below / above the bound"
    )
    # the draw really puts candidates close to the bound, on both sides
    assert min(near) >= 25, near
    assert 0 < worst <= delta
    # f = g = 0 (no inverse: D_j = 0) is rejected, with a finite value
    z = i8()
    zero = val(fn(emu, "fndsa_keygen_test_onorm")(z, z, w))
    assert math.isfinite(zero) and zero >= BNORM
