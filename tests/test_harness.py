"""Harness programs (harness/*.c) with the dummy implementations of
tests/data/harness: what each program checks and prints, on the host and on
emulated targets, and that the host tool's protocol parser accepts it."""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import firmware
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "data" / "harness"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import hbuild as H
import nistreq

from pqlab import protocol

# seed of count = 0 of every NIST PQC KAT (DRBG entropy 00 01 .. 2f), as in the official .req/.rsp files
KAT_SEED0 = "061550234D158C5EC95595FE04EF7A25767F2E24CC2BC479D09D86DC9ABCFDE7056A8C266F9EF97ED08541DBD2E1FFA1"
PQCLEAN = "PQCLEAN_DUMMYSIGN_CLEAN_"
PROGRAMS = ["test", "vectors", "kat", "speed", "stack", "hashing", "driver"]


def run(plat, program, impl, kind, tmp_path, cflags=(), stdin=None, **kw):
    elf = H.build(plat, program, impl, kind, list(cflags), **kw)
    return H.run(plat, elf, tmp_path, stdin=stdin)


def ok_run(plat, program, impl, kind, tmp_path, cflags=(), **kw):
    r = run(plat, program, impl, kind, tmp_path, cflags, **kw)
    assert r.rc == 0, (r.cmd, r.stdout[-2000:], r.stderr[-2000:])
    H.check_protocol(r, program)
    assert protocol.parse(r.stdout, program).ok
    return r


# ---- every program builds warning-free on every compiler ----


@pytest.mark.parametrize("plat", ["host", "mps2-an386", "rv32-qemu"])  # the three compilers' warnings
@pytest.mark.parametrize("kind", ["kem", "sign"])
def test_programs_compile_werror(plat, kind, tmp_path):
    """Every program compiles with -Wall -Wextra -Werror -O3 (linking is covered
    by the run tests below); one compiler call for all of them."""
    impl = H.KEM if kind == "kem" else H.SIGN
    srcs = [H.ROOT / "harness" / f"{prog}.c" for prog in PROGRAMS] + [
        H.ROOT / "harness" / "harness.c",
        H.ROOT / "harness" / "driver_none.c",
    ]
    flags = [f"-DPQLAB_KIND_{kind.upper()}", "-DDUMMY_EXPANDED"]
    objs = firmware.build(plat, tmp_path, srcs, include=[impl, H.ROOT / "harness"], cflags=flags, kind="objects")
    assert len(objs) == len(srcs)


# ---- test ----


@pytest.mark.parametrize("plat", ["host", "mps2-an386"])
@pytest.mark.parametrize("style", ["nist-ull", "pqclean-size_t"])
def test_sign_test_program(plat, style, tmp_path):
    impl, prefix = (H.SIGN, None) if style == "nist-ull" else (H.SIGN_PQCLEAN, PQCLEAN)
    r = ok_run(plat, "test", impl, "sign", tmp_path, api_prefix=prefix)
    names = {f[0]: f[1] for f in r.records("test")}
    for n in [
        "keypair",
        "sign",
        "sign-length",
        "roundtrip",
        "tampered-signature",
        "tampered-message",
        "wrong-key",
        "keys-differ",
        "canary-pk",
        "canary-sk",
        "canary-sm",
        "canary-m",
        "canary-m-open",
    ]:
        assert names.get(n) == "ok", (n, names)
    assert r.records("info") == [["algname", "DummySign" if prefix is None else "DummySign-PQClean"]]


def test_canary_catches_overrun(tmp_path):
    r = run("host", "test", H.KEM, "kem", tmp_path, ["-DDUMMY_OVERRUN"])
    assert r.rc == 1
    H.check_protocol(r, "test")
    res = {f[0]: f[1] for f in r.records("test")}
    assert res["canary-ct"] == "fail"
    assert all(v == "ok" for k, v in res.items() if k != "canary-ct"), res
    assert r.lines()[-2].startswith("#end fail ")


def test_broken_verification_is_caught(tmp_path):
    r = run("host", "test", H.SIGN, "sign", tmp_path, ["-DDUMMY_ACCEPT_ALL"])
    assert r.rc == 1
    res = {f[0]: f[1] for f in r.records("test")}
    assert res["tampered-signature"] == res["tampered-message"] == res["wrong-key"] == "fail"
    assert res["roundtrip"] == "ok"


def test_kem_ignoring_ciphertext_is_caught(tmp_path):
    r = run("host", "test", H.KEM, "kem", tmp_path, ["-DDUMMY_IGNORE_CT"])
    assert r.rc == 1
    res = {f[0]: f[1] for f in r.records("test")}
    assert res["roundtrip"] == "fail"


# ---- vectors ----

SEED = b"pqlab-vectors-v1"


def test_vectors_sign_layout_and_stream(tmp_path):
    r = ok_run("host", "vectors", H.SIGN, "sign", tmp_path)
    vec = r.records("vector")
    labels = [v[0] for v in vec]
    assert labels == ["msg", "pk", "sk", "sm", "verify"] * 12
    msgs = [v[1] for v in vec if v[0] == "msg"]
    assert [0 if m == "-" else len(m) // 2 for m in msgs] == [0] + [2**i for i in range(11)]
    assert all(v[1] == "00" for v in vec if v[0] == "verify")
    # the documented SHAKE128 stream: keypair takes 32 bytes (sk seed), sign 8, then the next message
    stream = hashlib.shake_128(SEED).digest(64)
    sks = [v[1] for v in vec if v[0] == "sk"]
    assert sks[0][:64] == stream[:32].hex()
    assert msgs[1] == stream[40:41].hex()


@pytest.mark.parametrize("kind", ["kem", "sign"])
def test_vectors_identical_on_every_platform(kind, tmp_path):
    impl = H.KEM if kind == "kem" else H.SIGN
    outs = {}
    for plat in H.PLATFORMS:
        r = ok_run(plat, "vectors", impl, kind, tmp_path / plat)
        outs[plat] = r.records("vector")
    ref = outs["host"]
    assert len(ref) == (12 if kind == "kem" else 60)
    for plat, v in outs.items():
        assert v == ref, plat


def test_vectors_kem_stream(tmp_path):
    r = ok_run("host", "vectors", H.KEM, "kem", tmp_path)
    vec = r.records("vector")
    assert [v[0] for v in vec] == ["pk", "sk", "ct", "ss"] * 3
    stream = hashlib.shake_128(SEED).digest(32)
    sk = bytes.fromhex(vec[1][1])
    assert sk[:32] == stream
    assert bytes.fromhex(vec[0][1]) == hashlib.shake_256(stream).digest(32)  # the dummy's pk = SHAKE256(s)


# ---- kat ----


def _rsp(r: H.Run) -> list[str]:
    return [f[0] if f else "" for f in ([" ".join(x)] if x else [] for x in r.records("kat"))]


def kat_lines(r: H.Run) -> list[str]:
    return [ln[4:] if ln.startswith("kat ") else "" for ln in r.lines() if ln == "kat" or ln.startswith("kat ")]


def test_kat_sign_matches_nist_generator(tmp_path):
    """seed, mlen and msg of all 100 records come from the NIST DRBG exactly as in an
    official KAT file: the request file made of them has the official .req's SHA-256
    (tests/nistreq.py); the layout is the .rsp layout."""
    r = ok_run("host", "kat", H.SIGN, "sign", tmp_path)
    mine = kat_lines(r)
    assert mine[0] == "# DummySign" and mine[1] == ""
    assert mine[-1] == ""  # the output ends with a blank line
    recs = "\n".join(mine[2:-1]).split("\n\n")
    keys, entries = [], []
    for rec in recs:
        d = dict(ln.split(" = ", 1) for ln in rec.split("\n"))
        keys.append(list(d))
        entries.append((d["seed"], d["msg"]))
        assert int(d["mlen"]) == len(d["msg"]) // 2 and int(d["smlen"]) == len(d["sm"]) // 2
    assert keys == [["count", "seed", "mlen", "msg", "pk", "sk", "smlen", "sm"]] * nistreq.COUNT
    assert [int(rec.split("\n")[0].split(" = ")[1]) for rec in recs] == list(range(nistreq.COUNT))
    assert nistreq.req_sha256(entries) == nistreq.REQ_SHA256
    rsp = "\n".join(mine) + "\n"
    assert rsp.endswith("\n\n")
    assert all(ln == ln.strip() for ln in mine)


def test_kat_kem_layout_and_target_agreement(tmp_path):
    host = kat_lines(ok_run("host", "kat", H.KEM, "kem", tmp_path / "h", ["-DPQLAB_KAT_COUNT=4"]))
    keys = [ln.split(" = ")[0] for ln in host[2:]]
    assert keys == ["count", "seed", "pk", "sk", "ct", "ss", ""] * 4
    assert host[3] == f"seed = {KAT_SEED0}"  # seed of count = 0
    for plat in ["mps2-an386", "rv32-qemu"]:
        assert kat_lines(ok_run(plat, "kat", H.KEM, "kem", tmp_path / plat, ["-DPQLAB_KAT_COUNT=4"])) == host


# ---- speed, hashing, stack ----


@pytest.mark.parametrize("plat", ["host", "mps2-an500"])
def test_speed_extra_ops_and_iterations(plat, tmp_path):
    r = ok_run(plat, "speed", H.SIGN, "sign", tmp_path, ["-DDUMMY_EXPANDED", "-DPQLAB_ITERATIONS=4"])
    body = [ln.split(" ")[:2] for ln in r.lines() if ln.startswith(("speed ", "iterations "))]
    one = [
        ["speed", "keypair"],
        ["speed", "sign"],
        ["iterations", "sign"],
        ["speed", "verify"],
        ["speed", "expand"],
        ["speed", "sign_tree"],
        ["iterations", "sign_tree"],
    ]
    assert body == one * 4
    assert all(1 <= int(f[1]) <= 4 for f in r.records("iterations"))


def test_speed_kem_ops(tmp_path):
    r = ok_run("mps2-an386", "speed", H.KEM, "kem", tmp_path, ["-DPQLAB_ITERATIONS=5"])
    assert [f[0] for f in r.records("speed")] == ["keypair", "encaps", "decaps"] * 5
    assert r.records("iterations") == []


@pytest.mark.parametrize("plat", ["host", "mps2-an386", "rv32-qemu"])
def test_hashing_share(plat, tmp_path):
    r = ok_run(plat, "hashing", H.KEM, "kem", tmp_path, ["-DPQLAB_ITERATIONS=3"])
    recs = r.records("hashing")
    assert [f[0] for f in recs] == ["keypair", "encaps", "decaps"] * 3
    assert r.records("speed") == []
    for op, total, inhash in recs:
        total, inhash = int(total), int(inhash)
        assert 0 <= inhash <= total
        if op == "keypair":
            assert inhash > 0  # the dummy's keypair is mostly SHAKE256
        else:
            assert inhash == 0  # no hashing in the dummy's encaps/decaps


def test_stack_sign_ops(tmp_path):
    r = ok_run("mps2-an386", "stack", H.SIGN, "sign", tmp_path, ["-DDUMMY_EXPANDED"])
    st = r.records("stack")
    assert [f[0] for f in st] == ["keypair", "sign", "verify", "expand", "sign_tree"]
    assert all(0 < int(f[1]) < 2048 for f in st)


# ---- driver ----


def drv(tmp_path, data: bytes, plat="host", cflags=()):
    elf = H.build(plat, "driver", H.KEM, "kem", list(cflags), extra_sources=[H.DATA / "driver_echo.c"])
    return H.run(plat, elf, tmp_path, stdin=data)


def test_driver_requests(tmp_path):
    big = bytes(range(256)) * 64  # 16 KiB: the default maximum
    req = (
        b"t1 echo 00ff - AbCd\n"
        b"\n"
        b"t2 count 01 02 03 04 05 06 07 08\r\n"
        b"t3 rev " + big.hex().encode() + b"\n"
        b"t4 echo -\n"
        b"t5 fail 00"  # no final newline
    )
    r = drv(tmp_path, req)
    assert r.rc == 0, r.stdout
    H.check_protocol(r, "driver")
    d = r.records("drv")
    assert d[0] == ["t1", "ok", "00ff", "-", "abcd"]
    assert d[1] == ["t2", "ok", "08"]
    assert d[2] == ["t3", "ok", big[::-1].hex()]
    assert d[3] == ["t4", "ok", "-"]
    assert d[4] == ["t5", "fail", "7"]
    assert len(d) == 5


@pytest.mark.parametrize(
    "line,code",
    [
        (b"x nope 00", -1000),
        (b"x echo 0g", -1001),
        (b"x echo 123", -1001),
        (b"x echo -00", -1001),
        (b"x", -1001),
        (b"x echo 1 2 3 4 5 6 7 8 9".replace(b" 1 ", b" 01 "), -1001),
        (b"x echo 01 02 03 04 05 06 07 08 09", -1002),
        (b"x echo 0102030405", -1002),
        (b"x silent", -1003),
    ],
)
def test_driver_errors(tmp_path, line, code):
    r = drv(tmp_path, b"ok echo 01\n" + line + b"\nok2 echo 02\n", cflags=["-DPQLAB_DRIVER_MAXARG=4"])
    assert r.rc == 1
    H.check_protocol(r, "driver")
    assert r.records("drv") == [["ok", "ok", "01"], ["x", "fail", str(code)], ["ok2", "ok", "02"]]
    assert r.lines()[-2] == "#end fail 3"


def test_driver_none_rejects(tmp_path):
    elf = H.build("host", "driver", H.KEM, "kem", extra_sources=[H.ROOT / "harness" / "driver_none.c"])
    r = H.run("host", elf, tmp_path, stdin=b"a keygen 00\n")
    assert r.rc == 1
    assert r.records("drv") == [["a", "fail", "-1000"]]


def test_driver_bare_metal_large_request(tmp_path):
    big = bytes((7 * i) & 0xFF for i in range(12000))
    r = drv(tmp_path, b"a rev " + big.hex().encode() + b"\nb echo 01 -\n", plat="mps2-an386")
    assert r.rc == 0, r.stdout[-500:]
    assert r.records("drv") == [["a", "ok", big[::-1].hex()], ["b", "ok", "01", "-"]]


# ---- prepared inputs of the selected operations (ops.h PQLAB_OPS_INPUT, prepare.c) ----


def prepared_blob(plat, impl, kind, mask, tmp_path):
    r = ok_run(plat, "prepare", impl, kind, tmp_path / "prep", [f"-DPQLAB_OPS_MASK={mask}"])
    return bytes.fromhex("".join(f[0] for f in r.records("prepared")))


@pytest.mark.parametrize("plat", ["host", "rv32-qemu"])
def test_prepared_verify_input(plat, tmp_path):
    """verify alone, its key pair and signature read from the input: the sequence checks run on
    them, a tampered signature fails verification, input of another build is refused"""
    blob = prepared_blob(plat, H.SIGN, "sign", "0x4u", tmp_path)
    flags = ["-DPQLAB_OPS_MASK=0x4u", "-DPQLAB_OPS_INPUT", "-DPQLAB_ITERATIONS=2"]
    r = ok_run(plat, "speed", H.SIGN, "sign", tmp_path / "good", flags, stdin=blob)
    assert [f[0] for f in r.records("speed")] == ["verify"] * 2
    tests = dict(r.records("test"))
    for name in ("prepared-input", "verify", "roundtrip", "tampered-signed-message"):
        assert tests[name] == "ok", tests
    # header: "PQOS", mask, number of parts, their lengths; the signed message is part 3 (pk, sk,
    # m, sm, smlen), smlen the last
    words = [int.from_bytes(blob[i : i + 4], "little") for i in range(4, len(blob), 4)]
    lens = words[2 : 2 + words[1]]
    assert blob[:4] == b"PQOS" and words[0] == 4 and len(blob) == 4 * (3 + len(lens)) + sum(lens)
    sm_at = 4 * (3 + len(lens)) + sum(lens[:3])
    smlen = int.from_bytes(blob[-lens[4] :], "little")
    bad = bytearray(blob)
    bad[sm_at + smlen // 2] ^= 1
    for name, data, failed in (
        ("tampered", bytes(bad), "verify"),
        ("truncated", blob[:-1], "prepared-input"),
        ("longer", blob + b"\0", "prepared-input"),
        ("missing", b"", "prepared-input"),
        ("other-mask", prepared_blob(plat, H.SIGN, "sign", "0x6u", tmp_path / "m6"), "prepared-input"),
    ):
        r = run(plat, "speed", H.SIGN, "sign", tmp_path / name, flags, stdin=data)
        assert r.rc != 0, (name, r.stdout[-1000:])
        assert f"test {failed} fail" in r.stdout, (name, r.stdout[-1000:])
        assert "speed verify" not in r.stdout or failed == "verify"


def test_prepared_decaps_input(tmp_path):
    """a KEM's decapsulation with key pair and ciphertext prepared: the round trip and the
    wrong-ciphertext checks run"""
    blob = prepared_blob("host", H.KEM, "kem", "0x4u", tmp_path)
    for prog in ("speed", "stack", "hashing"):
        r = ok_run(
            "host", prog, H.KEM, "kem", tmp_path / prog, ["-DPQLAB_OPS_MASK=0x4u", "-DPQLAB_OPS_INPUT"], stdin=blob
        )
        tests = dict(r.records("test"))
        assert tests["prepared-input"] == tests["roundtrip"] == tests["wrong-ciphertext"] == "ok", tests
        assert [f[0] for f in r.records(prog)] and {f[0] for f in r.records(prog)} == {"decaps"}
