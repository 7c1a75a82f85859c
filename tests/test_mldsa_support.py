"""Shared helpers of the ML-DSA tests (no tests here): the ctypes build of lib/mldsa for each
parameter set, Python wrappers of the API of lib/crypto_sign/ml-dsa-NN/ref/api.h, and the
semantics of harness/driver_mldsa.c on that build (so that the ACVP plugin is exercised by the
unit tests too)."""

from __future__ import annotations

import ctypes
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from extdata import vectors
from hostlib import ROOT, build_shared  # noqa: F401 (ROOT: re-exported to the test_mldsa_* files)


def acvp(rel: str) -> Path:
    """A NIST ACVP-Server file, path below acvp/ (external; skips without the vectors)."""
    return vectors(f"acvp/{rel}")


def wycheproof(name: str) -> Path:
    """A Wycheproof testvectors_v1 file (external; skips without the vectors)."""
    return vectors(f"wycheproof/testvectors_v1/{name}")


MLDSA_SOURCES = [
    f"lib/mldsa/{f}.c" for f in ("ntt", "ntt16", "rounding", "sample", "pack", "sign", "stream", "prehash")
]
COMMON_SOURCES = [f"lib/common/{f}.c" for f in ("fips202", "fips202x4", "sha2", "aes", "drbg", "instrument")]
# test-only sources: the DRBG randombytes and the record of the instrumentation interface
TEST_RNG = ["lib/mldsa/testing/randombytes_drbg.c", "lib/mldsa/testing/instrument_record.c"]


@dataclass(frozen=True)
class Params:
    mode: int
    pk_len: int
    sk_len: int
    sig_len: int
    k: int
    l: int
    eta: int
    tau: int
    gamma1: int
    gamma2: int
    omega: int
    ctilde: int

    @property
    def name(self) -> str:
        return f"ML-DSA-{self.mode}"


Q = 8380417
PARAMS = {
    44: Params(44, 1312, 2560, 2420, 4, 4, 2, 39, 1 << 17, (Q - 1) // 88, 80, 32),
    65: Params(65, 1952, 4032, 3309, 6, 5, 4, 49, 1 << 19, (Q - 1) // 32, 55, 48),
    87: Params(87, 2592, 4896, 4627, 8, 7, 2, 60, 1 << 19, (Q - 1) // 32, 75, 64),
}
MODES = (44, 65, 87)

# FIPS 204 pre-hash functions: pqlab id, ACVP name, hashlib name / output bytes
HASHES = {
    1: ("SHA2-224", "sha224", 28),
    2: ("SHA2-256", "sha256", 32),
    3: ("SHA2-384", "sha384", 48),
    4: ("SHA2-512", "sha512", 64),
    5: ("SHA2-512/224", "sha512_224", 28),
    6: ("SHA2-512/256", "sha512_256", 32),
    7: ("SHA3-224", "sha3_224", 28),
    8: ("SHA3-256", "sha3_256", 32),
    9: ("SHA3-384", "sha3_384", 48),
    10: ("SHA3-512", "sha3_512", 64),
    11: ("SHAKE-128", "shake_128", 32),
    12: ("SHAKE-256", "shake_256", 64),
}

u8p = ctypes.c_char_p
sz = ctypes.c_size_t


def _buf(data: bytes | None):
    return None if data is None else ctypes.create_string_buffer(bytes(data), max(len(data), 1))


class MLDSA:
    """One parameter set, loaded through ctypes."""

    def __init__(self, mode: int, extra_cflags: tuple[str, ...] = (), extra_sources: tuple[str, ...] = ()):
        self.p = PARAMS[mode]
        self.prefix = f"pqlab_mldsa{mode}_ref_"
        tag = "".join(c if c.isalnum() else "_" for c in "-".join(extra_cflags))
        self.lib = build_shared(
            f"mldsa{mode}" + ("-" + tag if tag else ""),
            MLDSA_SOURCES + COMMON_SOURCES + TEST_RNG + list(extra_sources),
            [f"-DPQLAB_MLDSA_MODE={mode}", f"-DPQLAB_NS={self.prefix}", *extra_cflags],
            ["lib/mldsa"],
        )

    def fn(self, name: str):
        return getattr(self.lib, self.prefix + name)

    # ---- randomness of the test build
    def rng_seed(self, entropy: bytes) -> None:
        assert len(entropy) == 48
        self.lib.pqlab_test_drbg_seed(entropy)

    def rng_fail(self, fail: bool) -> None:
        self.lib.pqlab_test_rng_fail(int(fail))

    # ---- API
    def keypair_internal(self, xi: bytes) -> tuple[int, bytes, bytes]:
        pk, sk = ctypes.create_string_buffer(self.p.pk_len), ctypes.create_string_buffer(self.p.sk_len)
        r = self.fn("crypto_sign_keypair_internal")(pk, sk, bytes(xi))
        return r, pk.raw, sk.raw

    def keypair(self) -> tuple[int, bytes, bytes]:
        pk, sk = ctypes.create_string_buffer(self.p.pk_len), ctypes.create_string_buffer(self.p.sk_len)
        r = self.fn("crypto_sign_keypair")(pk, sk)
        return r, pk.raw, sk.raw

    def _sig(self, name: str, *args) -> tuple[int, bytes]:
        sig = ctypes.create_string_buffer(self.p.sig_len)
        siglen = sz(12345)
        r = self.fn(name)(sig, ctypes.byref(siglen), *args)
        if r == 0:
            assert siglen.value == self.p.sig_len
        else:
            assert siglen.value == 0 and sig.raw == bytes(self.p.sig_len), "outputs not zeroised"
        return r, sig.raw

    def sign_internal(self, sk: bytes, mp: bytes, rnd: bytes) -> tuple[int, bytes]:
        return self._sig("crypto_sign_signature_internal", _buf(mp), sz(len(mp)), _buf(rnd), _buf(sk))

    def sign_extmu(self, sk: bytes, mu: bytes, rnd: bytes) -> tuple[int, bytes]:
        return self._sig("crypto_sign_signature_extmu", _buf(mu), _buf(rnd), _buf(sk))

    def sign(self, sk: bytes, m: bytes, ctx: bytes = b"", rnd: bytes | None = None) -> tuple[int, bytes]:
        return self._sig("crypto_sign_signature_ctx", _buf(m), sz(len(m)), _buf(ctx), sz(len(ctx)), _buf(rnd), _buf(sk))

    def sign_prehash(self, sk: bytes, m: bytes, ctx: bytes, ph: int, rnd: bytes | None = None) -> tuple[int, bytes]:
        return self._sig(
            "crypto_sign_signature_prehash",
            _buf(m),
            sz(len(m)),
            _buf(ctx),
            sz(len(ctx)),
            ctypes.c_int(ph),
            _buf(rnd),
            _buf(sk),
        )

    def sign_prehash_digest(self, sk: bytes, d: bytes, ctx: bytes, ph: int, rnd: bytes | None = None):
        return self._sig(
            "crypto_sign_signature_prehash_digest",
            _buf(d),
            sz(len(d)),
            _buf(ctx),
            sz(len(ctx)),
            ctypes.c_int(ph),
            _buf(rnd),
            _buf(sk),
        )

    def sign_nist(self, sk: bytes, m: bytes) -> tuple[int, bytes]:
        return self._sig("crypto_sign_signature", _buf(m), sz(len(m)), _buf(sk))

    def verify_internal(self, pk: bytes, mp: bytes, sig: bytes) -> int:
        return self.fn("crypto_sign_verify_internal")(_buf(sig), sz(len(sig)), _buf(mp), sz(len(mp)), _buf(pk))

    def verify_extmu(self, pk: bytes, mu: bytes, sig: bytes) -> int:
        return self.fn("crypto_sign_verify_extmu")(_buf(sig), sz(len(sig)), _buf(mu), _buf(pk))

    def verify(self, pk: bytes, m: bytes, sig: bytes, ctx: bytes = b"") -> int:
        return self.fn("crypto_sign_verify_ctx")(
            _buf(sig), sz(len(sig)), _buf(m), sz(len(m)), _buf(ctx), sz(len(ctx)), _buf(pk)
        )

    def verify_nist(self, pk: bytes, m: bytes, sig: bytes) -> int:
        return self.fn("crypto_sign_verify")(_buf(sig), sz(len(sig)), _buf(m), sz(len(m)), _buf(pk))

    def verify_prehash(self, pk: bytes, m: bytes, sig: bytes, ctx: bytes, ph: int) -> int:
        return self.fn("crypto_sign_verify_prehash")(
            _buf(sig), sz(len(sig)), _buf(m), sz(len(m)), _buf(ctx), sz(len(ctx)), ctypes.c_int(ph), _buf(pk)
        )

    def compute_mu(self, pk: bytes, m: bytes, ctx: bytes = b"", ph: int = 0) -> tuple[int, bytes]:
        mu = ctypes.create_string_buffer(64)
        r = self.fn("crypto_sign_compute_mu")(
            mu, _buf(pk), _buf(m), sz(len(m)), _buf(ctx), sz(len(ctx)), ctypes.c_int(ph)
        )
        return r, mu.raw

    def sign_sm(self, sk: bytes, m: bytes) -> tuple[int, bytes]:
        sm = ctypes.create_string_buffer(len(m) + self.p.sig_len)
        smlen = sz(0)
        r = self.fn("crypto_sign")(sm, ctypes.byref(smlen), _buf(m), sz(len(m)), _buf(sk))
        return r, sm.raw[: smlen.value]

    def open_sm(self, pk: bytes, sm: bytes) -> tuple[int, bytes]:
        m = ctypes.create_string_buffer(max(len(sm), 1))
        mlen = sz(999)
        r = self.fn("crypto_sign_open")(m, ctypes.byref(mlen), _buf(sm), sz(len(sm)), _buf(pk))
        return r, m.raw[: mlen.value]

    def iterations(self) -> int:
        # the instrumentation interface's record (lib/common/instrument.h), not library state
        f = self.lib.pqlab_instr_last_sign_iterations
        f.restype = ctypes.c_uint
        return f()

    # ---- driver semantics (harness/driver_mldsa.c), for the ACVP plugin
    def drive(self, cmd: str, args: list[bytes]) -> list[bytes] | int:
        p = self.p
        n = [len(a) for a in args]

        def fail_or(r: int, outs: list[bytes]) -> list[bytes] | int:
            return r if r else outs

        if cmd == "keygen":
            if n != [32]:
                return -100
            r, pk, sk = self.keypair_internal(args[0])
            return fail_or(r, [pk, sk])
        if cmd in ("sign_internal", "sign_extmu"):
            if len(args) != 3:
                return -101
            if n[0] != p.sk_len or n[2] != 32 or (cmd == "sign_extmu" and n[1] != 64):
                return -100
            r, sig = (self.sign_extmu if cmd == "sign_extmu" else self.sign_internal)(*args)
            return fail_or(r, [sig])
        if cmd in ("sign", "sign_prehash"):
            want = 5 if cmd == "sign_prehash" else 4
            if len(args) != want:
                return -101
            if n[0] != p.sk_len or n[-1] not in (0, 32) or (want == 5 and n[3] != 1):
                return -100
            rnd = args[-1] if n[-1] == 32 else None
            if want == 5:
                r, sig = self.sign_prehash(args[0], args[1], args[2], args[3][0], rnd)
            else:
                r, sig = self.sign(args[0], args[1], args[2], rnd)
            return fail_or(r, [sig])
        if cmd in ("verify_internal", "verify_extmu"):
            if len(args) != 3:
                return -101
            if n[0] != p.pk_len or (cmd == "verify_extmu" and n[1] != 64):
                return -100
            f = self.verify_extmu if cmd == "verify_extmu" else self.verify_internal
            return fail_or(f(args[0], args[1], args[2]), [])
        if cmd in ("verify", "verify_prehash"):
            want = 5 if cmd == "verify_prehash" else 4
            if len(args) != want:
                return -101
            if n[0] != p.pk_len or (want == 5 and n[3] != 1):
                return -100
            if want == 5:
                return fail_or(self.verify_prehash(args[0], args[1], args[4], args[2], args[3][0]), [])
            return fail_or(self.verify(args[0], args[1], args[3], args[2]), [])
        raise ValueError(cmd)


@cache
def mldsa(mode: int) -> MLDSA:
    return MLDSA(mode)


@cache
def mldsa_smallstack(mode: int) -> MLDSA:
    """the stack-first build (implementation smallstack: lib/mldsa/stream.c)"""
    return MLDSA(mode, ("-DPQLAB_MLDSA_SMALLSTACK",))


def mode_of(name: str) -> int:
    """'ML-DSA-65' or 'ml-dsa-65' -> 65"""
    return int(name.rsplit("-", 1)[1])


def acvp_siggen_matches(lib_for: Callable[[int], MLDSA]) -> int:
    """Every case of ACVP's ML-DSA sigGen internalProjection file (v1.1.0.35) signed with the build
    lib_for(mode) of a variant gives the file's signature (asserted); returns the case count."""
    from pqlab.acvp import mldsa as plugin

    data = json.loads(acvp("v1.1.0.35/ML-DSA-sigGen-FIPS204/internalProjection.json").read_text())
    n = 0
    for g in data["testGroups"]:
        lib = lib_for(mode_of(plugin.scheme(g)))
        for t in g["tests"]:
            ((cmd, args),) = plugin.requests(g, t)
            assert plugin.result(g, t, [lib.drive(cmd, args)]) == {"signature": t["signature"]}
            n += 1
    return n
