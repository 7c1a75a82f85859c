# SPDX-License-Identifier: MIT
"""cv32e40p-rtl: the Verilated CV32E40P RTL as a platform (docs/cv32e40p.md).

The model is built once per machine and cached (pqlab/rtl.py); the first test that needs it
pays for the build (about 1-2 minutes on two cores), every later one finds it. The default
suite runs small programs only: a toy KEM that passes, and negative controls that must fail
with the reason and the faulting pc: a hang (wall-clock limit through pqlab, cycle limit
through the test bench), an illegal instruction, a store through a NULL pointer, a store
into code. The schemes themselves are behind @pytest.mark.slow (the RTL runs at a few
hundred thousand cycles per second)."""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.metadata
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from pqlab import PqlabError, protocol, rtl
from pqlab.cli import main
from pqlab.platforms import get_platform, model

PLATFORM = "cv32e40p-rtl"
DEMO = Path(__file__).parent / "foreign" / "crypto_kem" / "demokem-plain" / "ref"
HEAD = "int crypto_kem_keypair(unsigned char *pk, unsigned char *sk)\n{\n"
# what each variant's key generation does first
VARIANTS = {
    "ok": "",
    "hang": "    for (volatile unsigned i = 0;; i++) {\n    }\n",
    # 32 zero bits: an illegal instruction in every RISC-V encoding
    "trap": '    __asm__ volatile(".4byte 0");\n',
    "nullwrite": "    *(volatile unsigned *)rtlkem_ptr = 0xdeadbeefu;\n",
    "textwrite": "    *(volatile unsigned char *)((unsigned long)&crypto_kem_enc + 2) += 1u;\n",
    "stackoverflow": "    (void)rtlkem_deep(1u, pk);\n",
}
# a NULL pointer from data, as in a real bug (GCC turns a literal NULL store into a trap); a
# recursion that fills the stack with 512-byte frames (n wraps to 0 only after 2^32 calls;
# each call reads its caller's frame, so GCC cannot turn the recursion into a loop)
PRELUDE = """volatile unsigned long rtlkem_ptr = 0;
unsigned rtlkem_deep(unsigned n, const volatile unsigned char *up)
{
    volatile unsigned char frame[512];
    if (n == 0) {
        return 0;
    }
    for (unsigned i = 0; i < sizeof frame; i += 64u) { /* a store every 64 bytes: none jumps the guard */
        frame[i] = (unsigned char)(n + up[i % 32u]);
    }
    return rtlkem_deep(n + 1u, frame) + 1u;
}
"""


def pqlab(*args: str) -> tuple[int, str]:
    res = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    return res.exit_code, res.output


def require_tools() -> None:
    """The platform's tools must be installed (./run.sh does); a missing one is a failure."""
    for exe in ("verilator", "riscv64-unknown-elf-gcc"):
        assert shutil.which(exe), f"{exe} is required (apt-get install verilator gcc-riscv64-unknown-elf)"


@pytest.fixture(scope="module")
def impl_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("rtlkem")
    for name, body in VARIANTS.items():
        d = root / "crypto_kem" / f"rtlkem-{name}" / "ref"
        shutil.copytree(DEMO, d)
        src = (d / "kem.c").read_text()
        assert HEAD in src
        src = src.replace(HEAD, PRELUDE + HEAD + body, 1)
        (d / "kem.c").write_text(src)
        (d / "api.h").write_text((d / "api.h").read_text().replace('"demokem-plain"', f'"rtlkem-{name}"'))
    return root


@pytest.fixture(scope="module")
def tb() -> Path:
    require_tools()
    return rtl.model_path(get_platform(PLATFORM))


def test_model_is_cached_and_records_its_package(tb: Path) -> None:
    plat = get_platform(PLATFORM)
    info = rtl.build_info(plat)
    assert info["package_version"] == importlib.metadata.version("pythondata-cpu-cv32e40p")
    assert info["build_seconds"] > 0 and info["upstream_commit"]
    before = tb.stat().st_mtime_ns
    assert rtl.model_path(plat) == tb and tb.stat().st_mtime_ns == before  # found, not rebuilt
    desc = model(plat)
    assert desc.startswith("exact (RTL): pythondata-cpu-cv32e40p " + info["package_version"]), desc
    assert rtl.model_dir(plat).name in str(tb) and rtl.model_dir(plat).name.endswith(desc.rsplit(" ", 1)[1])


def test_model_key_follows_the_test_bench(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A changed test bench source gives another cache folder (never a stale model)."""
    plat = get_platform(PLATFORM)
    s = rtl.spec(plat)
    copy = tmp_path / s.testbench[0].name
    copy.write_text(s.testbench[0].read_text() + "\n// changed\n")
    other = rtl.RtlSpec(**{**s.__dict__, "testbench": (copy, *s.testbench[1:])})
    pkg = rtl.package(s)
    assert rtl._key(plat, other, pkg) != rtl._key(plat, s, pkg)


def test_model_is_trained_on_a_pqlab_program_in_its_key(
    tb: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The profile-guided build (`[rtl] pgo_training`, docs/cv32e40p.md "Speed"): the training
    program is pqlab's own build for the platform, model.json records it, and other training
    bytes (or none) give another cache folder."""
    plat = get_platform(PLATFORM)
    s = rtl.spec(plat)
    assert s.pgo == ("ml-kem-512", "ref", "test")
    elf = rtl.training_elf(plat, s)
    assert elf.is_file() and f"/{PLATFORM}/impl/ml-kem-512/" in str(elf)
    info = rtl.build_info(plat)["pgo_training"]
    assert info["program"] == "ml-kem-512/ref/test" and info["cycles"] > 1_000_000
    assert info["elf_sha256"] == hashlib.sha256(elf.read_bytes()).hexdigest()
    pkg = rtl.package(s)
    key = rtl._key(plat, s, pkg)
    assert rtl._key(plat, dataclasses.replace(s, pgo=None), pkg) != key
    other = tmp_path / "other.elf"
    other.write_bytes(elf.read_bytes() + b"\0")
    monkeypatch.setattr(rtl, "training_elf", lambda p, sp: other)
    assert rtl._key(plat, s, pkg) != key


def test_pgo_training_must_name_scheme_implementation_and_program() -> None:
    plat = get_platform(PLATFORM)
    for bad in ("ml-kem-512/test", "ml-kem-512//test", "a/b/c/d"):
        broken = dataclasses.replace(plat, raw={**plat.raw, "rtl": {**plat.raw["rtl"], "pgo_training": bad}})
        with pytest.raises(PqlabError, match="scheme/implementation/program"):
            rtl.spec(broken)
    missing = dataclasses.replace(
        plat, raw={**plat.raw, "rtl": {**plat.raw["rtl"], "pgo_training": "no-such-scheme/ref/test"}}
    )
    with pytest.raises(PqlabError, match="does not exist"):
        rtl.training_elf(missing, rtl.spec(missing))


def test_tb_rejects_a_file_that_is_no_riscv_elf(tb: Path, tmp_path: Path) -> None:
    bad = tmp_path / "x.elf"
    bad.write_bytes(b"\x7fELF" + bytes(60))
    r = subprocess.run([str(tb), str(bad)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "not a 32-bit little-endian RISC-V ELF" in r.stderr


def test_toy_kem_passes_with_exact_cycles(tb: Path, impl_root: Path) -> None:
    code, out = pqlab("test", "rtlkem-ok", "--impl-path", impl_root, "-p", PLATFORM, "-j", "1")
    assert code == 0 and f"ok   rtlkem-ok/ref on {PLATFORM}" in out, out


def elf_of(impl_root: Path, name: str, program: str) -> Path:
    # the newest: earlier sources of the same implementation left their own build folders
    elfs = list((Path("build") / PLATFORM / "impl" / f"rtlkem-{name}").glob(f"ref-*/{program}.elf"))
    assert elfs, f"no {program}.elf of rtlkem-{name}"
    return max(elfs, key=lambda p: p.stat().st_mtime)


def symbol_range(elf: Path, name: str) -> tuple[int, int]:
    out = subprocess.run(["riscv64-unknown-elf-nm", "-S", str(elf)], capture_output=True, text=True).stdout
    # GCC may emit only a clone of a function (name.part.0, name.constprop.0)
    m = re.search(rf"^([0-9a-f]+) ([0-9a-f]+) [Tt] {name}(\.[a-z]+\.\d+)?$", out, re.M)
    assert m, f"{name} not in {elf}"
    return int(m.group(1), 16), int(m.group(1), 16) + int(m.group(2), 16)


# variant -> the failure pqlab must report
FAILS = {
    "trap": r"target fault: #fault trap pc=0x([0-9a-f]{8}) sp=0x[0-9a-f]{8} mcause=0x00000002",
    "nullwrite": r"target fault: .*#fault bus pc=0x([0-9a-f]{8}) addr=0x00000000",
    "textwrite": r"target fault: .*#fault code-write pc=0x([0-9a-f]{8}) addr=0x[0-9a-f]{8}",
    "stackoverflow": r"target fault: .*#fault stack-overflow pc=0x([0-9a-f]{8}) addr=0x[0-9a-f]{8}",
}
# the function whose instruction the reported pc must be
WHERE = {"stackoverflow": "rtlkem_deep"}


def test_faults_fail_with_pc_and_command(tb: Path, impl_root: Path) -> None:
    names = [f"rtlkem-{v}" for v in FAILS]
    code, out = pqlab("test", *names, "--impl-path", impl_root, "-p", PLATFORM, "-j", "1")
    assert code != 0, out
    assert "ok   rtlkem" not in out, out
    for v, pattern in FAILS.items():
        fail = re.search(rf"FAIL rtlkem-{v}/ref on {PLATFORM}: (.*)", out)
        assert fail, out
        m = re.search(pattern, fail.group(1))
        assert m, fail.group(1)
        lo, hi = symbol_range(elf_of(impl_root, v, "test"), WHERE.get(v, "crypto_kem_keypair"))
        assert lo <= int(m.group(1), 16) < hi, (v, m.group(1), hex(lo), hex(hi))
    assert f"command: {tb}" in out, out


def test_hang_fails_on_the_wall_clock_and_on_cycles(tb: Path, impl_root: Path, tmp_path: Path) -> None:
    code, out = pqlab("test", "rtlkem-hang", "--impl-path", impl_root, "-p", PLATFORM, "-j", "1", "--timeout", "20")
    assert code != 0 and re.search(r"FAIL rtlkem-hang/ref on cv32e40p-rtl: timeout after 20 s", out), out
    assert "ok   rtlkem" not in out
    # the test bench's own limit in cycles: deterministic, names where the core was
    elf = elf_of(impl_root, "hang", "test")
    r = subprocess.run(
        [str(tb), "--max-cycles", "3000000", str(elf.resolve())],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tmp_path,
    )
    assert r.returncode == 124, r
    m = re.search(r"#fault timeout cycles=3000000 pc=0x([0-9a-f]{8})", r.stdout)
    assert m, r.stdout[-500:]
    lo, hi = symbol_range(elf, "crypto_kem_keypair")
    assert lo <= int(m.group(1), 16) < hi
    with pytest.raises(protocol.ProtocolError, match="target fault"):
        protocol.parse(r.stdout, "test")


# ---- the schemes on the RTL (slow: tens of millions of cycles each) ----------------------------

# the FPU-less build of the same core runs 2.5 times faster; pqlab's code has no F instruction
FAST = "cv32e40p-nofpu-rtl"


@pytest.mark.slow
@pytest.mark.parametrize("plat", [PLATFORM, FAST])
@pytest.mark.parametrize("scheme", ["ml-kem-768", "ml-dsa-44", "fn-dsa-512"])
def test_scheme_tests_pass_on_the_rtl(plat: str, scheme: str) -> None:
    require_tools()
    code, out = pqlab("test", scheme, "-i", "ref", "-p", plat, "-j", "1")
    assert code == 0 and f"ok   {scheme}/ref on {plat}" in out, out


@pytest.mark.slow
@pytest.mark.parametrize("scheme", ["ml-kem-512", "ml-kem-768", "ml-kem-1024", "ml-dsa-44"])
def test_kat_and_vectors_on_the_rtl(scheme: str) -> None:
    require_tools()
    code, out = pqlab("kat", scheme, "-i", "ref", "-p", FAST, "--count", "2", "-j", "1")
    assert code == 0 and re.search(rf"ok +{scheme}/ref on {FAST}", out), out
    code, out = pqlab("vectors", scheme, "-i", "ref", "-p", FAST, "-j", "1")
    assert code == 0, out


@pytest.mark.slow
def test_acvp_keygen_through_the_driver_on_the_rtl(tmp_path: Path) -> None:
    """The driver program (input through the test bench's input device): five ML-DSA-44
    keyGen cases of ACVP 975de31."""
    from extdata import vectors

    src = vectors("acvp/975de31/ML-DSA-keyGen-FIPS204/prompt.json").parent
    prompt = json.loads((src / "prompt.json").read_text())
    expected = json.loads((src / "expectedResults.json").read_text())
    for doc in (prompt, expected):
        doc["testGroups"] = [g for g in doc["testGroups"] if g.get("parameterSet", "ML-DSA-44") == "ML-DSA-44"][:1]
        doc["testGroups"][0]["tests"] = doc["testGroups"][0]["tests"][:5]
    (tmp_path / "p.json").write_text(json.dumps(prompt))
    (tmp_path / "e.json").write_text(json.dumps(expected))
    code, out = pqlab(
        "acvp", tmp_path / "p.json", "--expected", tmp_path / "e.json", "-p", FAST, "-i", "ref", "-j", "1", "--json"
    )
    assert code == 0, out
    summary = json.loads(out[out.index("{") :])
    assert summary["ok"] and summary["compared"] == 5 and not summary["mismatches"], summary


@pytest.mark.slow
def test_fpu_less_model_gives_the_same_cycles(tmp_path: Path) -> None:
    """One rv32imc ELF (ML-KEM-768 speed, 10 iterations) on both models: the same output, cycle
    counts included (measured: 37,227,502 cycles in all, 0.60 and 1.60 M cycles/s)."""
    require_tools()
    code, out = pqlab("build", "ml-kem-768", "-i", "ref", "-p", FAST, "--program", "speed", "-j", "1")
    assert code == 0, out
    elf = max(
        (Path("build") / FAST / "impl" / "ml-kem-768").glob("ref-*/speed-n*.elf"), key=lambda p: p.stat().st_mtime
    )
    outs = []
    for plat in (PLATFORM, FAST):
        exe = rtl.model_path(get_platform(plat))
        r = subprocess.run([str(exe), "--stats", str(elf.resolve())], capture_output=True, text=True, cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        outs.append((r.stdout, rtl.STATS.search(r.stderr).group(1)))
    assert outs[0] == outs[1]
    assert protocol.parse(outs[0][0], "speed").of("speed")
