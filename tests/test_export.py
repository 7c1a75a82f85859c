"""pqlab export (pqlab/export.py, docs/export.md): the exported folder is the code that was tested.

Default suite: a sample. ML-KEM-768 + ML-DSA-44 exported for mps2-an386 and for the host, the
harness's test and KAT programs built against the folder (pqlab's build, the folder's files
only) and run; the folder built warning-free with clang; two exports linked into one bare-metal
program (the Cortex-M4 example, on QEMU and on m4-sim); an application Keccak-f[1600] through
the configuration header with pqlab's Keccak absent from the program; the host CMake example
(plain files and single compilation unit); ML-KEM-768 + ML-DSA-44 for aarch64-qemu with the NEON
backend's symbols under the prefix; errors for unknown combinations. Slow: every own
implementation on the host and on mps2-an386; export --verify of one scheme per family on
aarch64-qemu.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pqlab import ROOT, PqlabError, katref, toolchains
from pqlab import build as B
from pqlab import export as X
from pqlab import jobs as J
from pqlab.platforms import get_platform
from pqlab.registry import discover
from pqlab.runner import command

EXAMPLES = ROOT / "examples"
USER_KECCAK = ROOT / "tests" / "export" / "user_keccak.c"


def run_harness(folder: Path, plat_name: str, extra=()) -> list[J.Outcome]:
    """test and kat (1 record) of every scheme of the folder, built against the folder; asserts
    both pass and the KAT matches the published hash. Returns the kat outcomes."""
    plat = get_platform(plat_name)
    impls = X.implementations(folder, extra)
    refs = katref.load_refs()
    for o in J.execute([(i, plat) for i in impls], "test", 1):
        assert o.ok, o.error
        assert len(o.output.of("test")) > 5
    # as many records as the published reference checks (1; Hawk: its whole 100-record file)
    kats = X.run_kats(impls, plat, refs)
    # schemes without a published KAT hash (SLH-DSA): the tree's build of the same harness
    tree_kat = X.tree_kats([i for i in impls if not katref.ref_for(refs, i.scheme, i.name)], plat)
    for o in kats:
        assert o.ok, o.error
        verdict, detail = X.kat_verdict(o, refs, tree_kat)
        assert verdict == "ok", detail
    return kats


def elf_of(o: J.Outcome) -> Path:
    bdir = B.BUILD_ROOT / o.plat.build_name / "impl" / o.impl.build_key
    return bdir / f"{B.program_name('kat', B.BuildOptions(kat_count=1))}.elf"


def symbols(plat_name: str, elf: Path) -> set[str]:
    plat = get_platform(plat_name)
    nm = plat.tool("nm") if plat.tools_prefix else "nm"
    out = subprocess.run([nm, str(elf)], capture_output=True, text=True, check=True).stdout
    return {line.split()[-1] for line in out.splitlines() if len(line.split()) >= 2}


def test_export_m4_two_schemes_tested(tmp_path: Path) -> None:
    out = tmp_path / "m4"
    m = X.export(["ml-kem-768", "ml-dsa-44"], "ref", get_platform("mps2-an386"), out)
    # the manifest says what was built, with what, from which commit; nothing claims a test ran
    assert m["verification"]["status"] == "not run"
    assert re.fullmatch(r"[0-9a-f]{40}|unknown", m["pqlab"]["commit"])
    assert m["platform"] == "mps2-an386" and m["compiler"] == "arm-none-eabi-gcc"
    assert json.loads((out / "EXPORT.json").read_text())["files"]["count"] == m["files"]["count"]
    # exactly the platform's files: the armv7em assembly the two schemes reach, no FN-DSA kernel
    assert {Path(s).name for s in m["asm_sources"]} == {"keccakf1600.S", "mlkem_ntt.S", "mldsa_ntt.S", "mldsa_ntt16.S"}
    assert not (out / "lib" / "common" / "aes.c").exists() and not (out / "lib" / "fndsa").exists()
    assert (out / "pqlab_all.c").is_file() and (out / "pqlab.mk").is_file() and (out / "CMakeLists.txt").is_file()
    kats = run_harness(out, "mps2-an386")
    # the harness ran the folder's objects: its symbols carry the export's prefix
    syms = symbols("mps2-an386", elf_of(kats[0]))
    assert "pqlab_mlkem768_mldsa44_mlkem768_ref_crypto_kem_keypair" in syms
    assert "pqlab_mlkem768_ref_crypto_kem_keypair" not in syms


def test_export_aarch64_neon_backend_under_the_prefix(tmp_path: Path) -> None:
    """ML-KEM-768 + ML-DSA-44 for aarch64-qemu: the NEON backend's C files join the folder, its
    globals (pqlab_aarch64_features, pqlab_mlkem_ntt_neon, ...) are renamed under the prefix
    (their headers include pqlab_config.h), the single compilation unit holds both NTT files (their
    static helpers once collided), and the harness runs the folder's kernels on qemu-aarch64."""
    out = tmp_path / "a64"
    m = X.export(["ml-kem-768", "ml-dsa-44"], "ref", get_platform("aarch64-qemu"), out)
    names = {Path(s).name for s in m["c_sources"] if s.startswith("lib/native/aarch64/")}
    assert {"cpu.c", "mlkem_ntt.c", "mldsa_ntt.c", "sample.c", "keccak.c"} <= names, names
    assert m["single_compilation_unit"] is not None
    prefix = m["config"]["prefix"]
    kats = run_harness(out, "aarch64-qemu")
    syms = symbols("aarch64-qemu", elf_of(kats[0]))
    for kernel in ("mlkem_ntt_neon", "mldsa_ntt_neon", "aarch64_features"):
        assert f"{prefix}{kernel}" in syms, kernel
        assert f"pqlab_{kernel}" not in syms, kernel


# one scheme of each family on aarch64-qemu with its NEON kernels: FN-DSA and Hawk as `fpu`
# (the FFT layer), the others `ref`
AARCH64_FAMILIES = [
    ("ml-kem-512", "ref"),
    ("ml-dsa-65", "ref"),
    ("fn-dsa-512", "fpu"),
    ("hawk-512", "fpu"),
    ("slh-dsa-shake-128f", "ref"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("scheme", "impl"), AARCH64_FAMILIES, ids=[s for s, _ in AARCH64_FAMILIES])
def test_export_verify_every_family_aarch64(scheme: str, impl: str, tmp_path: Path) -> None:
    """`pqlab export --verify` on aarch64-qemu: the folder's own build, prefix and single
    compilation unit checks, then the harness's test and KAT (published hash, or the tree's
    build for SLH-DSA) built against the folder and run under qemu-aarch64."""
    m = X.export([scheme], impl, get_platform("aarch64-qemu"), tmp_path / "e", verify=True)
    assert m["verification"]["status"] == "passed", m["verification"]
    assert m["verification"]["schemes"][0]["kat"].startswith("ok"), m["verification"]
    assert any(s.startswith("lib/native/aarch64/") for s in m["c_sources"])
    assert m["single_compilation_unit"] is not None


@pytest.mark.slow
def test_export_host_verify_and_clang(tmp_path: Path) -> None:
    m = X.export(["ml-kem-768"], "smallstack", get_platform("host"), tmp_path / "h", verify=True)
    assert m["verification"]["status"] == "passed", m["verification"]
    assert m["verification"]["schemes"][0]["kat"].startswith("ok")
    # the same selection built with clang-19 (warnings as errors), on the host and for the M4
    for name in ("host", "mps2-an386"):
        plat = toolchains.apply(get_platform(name), "clang")
        mc = X.export(["ml-kem-768", "ml-dsa-44"], "ref", plat, tmp_path / f"clang-{name}")
        assert "clang" in mc["compiler"] and "warning-free" in mc["checks"]["build"]


def test_two_exports_in_one_bare_metal_program(tmp_path: Path) -> None:
    """The Cortex-M4 example: ML-KEM-768 and ML-DSA-44 from two folders, each with its own Keccak
    under its own prefix, linked into one program that runs on QEMU and on m4-sim."""
    plat = get_platform("mps2-an386")
    objs = []
    for scheme, prefix in (("ml-kem-768", "kem_"), ("ml-dsa-44", "sig_")):
        folder = tmp_path / prefix.rstrip("_")
        m = X.export([scheme], "ref", plat, folder, X.Options(prefix=prefix))
        objs += B.build_program(
            plat,
            tmp_path / f"obj-{prefix}",
            [folder / s for s in m["c_sources"] + m["asm_sources"]],
            include=[folder / d for d in m["includes"]],
            kind="objects",
            standalone=True,
        )
    elf = B.build_program(
        plat,
        tmp_path / "example",
        [EXAMPLES / "export-m4" / "main.c", *objs],
        include=[tmp_path / "kem", tmp_path / "sig"],
    )
    syms = symbols("mps2-an386", elf)
    assert {"kem_keccakf1600_native_il", "sig_keccakf1600_native_il"} <= syms  # two Keccaks, no clash
    for name in ("mps2-an386", "m4-sim"):
        r = subprocess.run(command(get_platform(name), elf), capture_output=True, text=True, timeout=600)
        assert r.returncode == 0, (name, r.stdout[-2000:], r.stderr[-2000:])
        assert "ML-KEM-768 shared secrets agree" in r.stdout, r.stdout
        assert "ML-DSA-44 signature verifies, a changed one does not" in r.stdout, r.stdout


@pytest.mark.parametrize("name", ["host", pytest.param("mps2-an386", marks=pytest.mark.slow)])
def test_user_keccak_through_config(name: str, tmp_path: Path) -> None:
    """An application Keccak-f[1600] (a hardware SHA-3 unit's stand-in) wired through the
    configuration header: KATs pass and none of pqlab's Keccak permutation is in the program,
    which the control (the default export) shows the check would see."""
    plat = get_platform(name)
    user = X.export(["ml-kem-768"], "ref", plat, tmp_path / f"user-{name}", X.Options(keccak="user_keccakf1600"))
    assert "user_keccakf1600" in user["needs"]
    assert not any("keccakf1600" in s for s in user["asm_sources"])  # no assembly Keccak in the folder
    assert "#define PQLAB_CONFIG_KECCAKF1600 user_keccakf1600" in (tmp_path / f"user-{name}" / X.CONFIG).read_text()
    control = X.export(["ml-kem-768"], "ref", plat, tmp_path / f"ctl-{name}")
    ctl_syms = symbols(name, elf_of(run_harness(tmp_path / f"ctl-{name}", name)[0]))
    user_syms = symbols(name, elf_of(run_harness(tmp_path / f"user-{name}", name, [USER_KECCAK])[0]))
    # pqlab's permutation: the export's keccakf1600 (C), its assembly kernels, the static
    # C formulations (keccakf1600x4, the serial four-way wrapper over the permutation, stays)
    pfx = control["config"]["prefix"]
    perm = re.compile(rf"{pfx}keccakf1600(_native\w*)?|keccakf1600_(lanes|rows)|keccak_round_rows")
    assert any(perm.fullmatch(s) for s in ctl_syms)
    assert not any(perm.fullmatch(s) for s in user_syms), sorted(s for s in user_syms if perm.fullmatch(s))
    assert "user_keccakf1600" in user_syms and "user_keccakf1600" not in ctl_syms


@pytest.mark.slow
def test_user_sha2_through_config(tmp_path: Path) -> None:
    """The application's SHA-256/SHA-512 compression (tests/export/user_sha2.c) under SLH-DSA-SHA2-192f,
    which uses both: its KAT record equals the tree's, and pqlab's compression code is absent
    (present in the control)."""
    plat = get_platform("host")
    user = X.export(
        ["slh-dsa-sha2-192f"],
        "ref",
        plat,
        tmp_path / "user",
        X.Options(sha2=("user_sha256_compress", "user_sha512_compress")),
    )
    assert {"user_sha256_compress", "user_sha512_compress"} <= set(user["needs"])
    control = X.export(["slh-dsa-sha2-192f"], "ref", plat, tmp_path / "ctl")
    pfx = control["config"]["prefix"]
    comp = re.compile(rf"{pfx}sha(256|512)_compress")
    ctl_syms = symbols("host", elf_of(run_harness(tmp_path / "ctl", "host")[0]))
    user_syms = symbols(
        "host", elf_of(run_harness(tmp_path / "user", "host", [ROOT / "tests" / "export" / "user_sha2.c"])[0])
    )
    assert sum(bool(comp.fullmatch(s)) for s in ctl_syms) == 2
    assert not any(comp.fullmatch(s) for s in user_syms)
    assert {"user_sha256_compress", "user_sha512_compress"} <= user_syms


def test_host_cmake_example(tmp_path: Path) -> None:
    cmake = shutil.which("cmake")
    assert cmake, "cmake is not installed (run.sh's APT_PACKAGES installs it)"
    folder = tmp_path / "export-host"
    X.export(["ml-kem-768", "ml-dsa-44"], "ref", get_platform("host"), folder)
    for scu in ("OFF", "ON"):
        bdir = tmp_path / f"cmake-{scu}"
        for cmd in (
            [
                cmake,
                "-S",
                str(EXAMPLES / "export-host"),
                "-B",
                str(bdir),
                f"-DPQLAB_EXPORT={folder}",
                f"-DPQLAB_SCU={scu}",
            ],
            [cmake, "--build", str(bdir)],
        ):
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
            assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
        r = subprocess.run([str(bdir / "kem_sign")], capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, r.stdout + r.stderr
        assert "ML-KEM-768: shared secrets agree" in r.stdout
        assert "ML-DSA-44: 2420-byte signature verifies, a changed one does not" in r.stdout


@pytest.mark.slow
def test_makefile_fragment(tmp_path: Path) -> None:
    """pqlab.mk builds the folder's static library with the user's make and compiler."""
    folder = tmp_path / "f"
    m = X.export(["ml-kem-768"], "ref", get_platform("host"), folder, X.Options(prefix="mk_"))
    (tmp_path / "Makefile").write_text(f"include {folder}/pqlab.mk\nall: $(MK_LIB)\n")
    r = subprocess.run(
        ["make", "-C", str(tmp_path), "CFLAGS=-O2 -Wall -Wextra -Werror"], capture_output=True, text=True, timeout=600
    )
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    lib = tmp_path / "build-mk" / "libmk.a"
    members = subprocess.run(["ar", "t", str(lib)], capture_output=True, text=True, check=True).stdout.split()
    assert len(members) == len(m["c_sources"] + m["asm_sources"])
    assert "mk_mlkem768_ref_crypto_kem_keypair" in symbols("host", lib)


@pytest.mark.parametrize(
    "args, message",
    [
        (["ml-kem-769", "-i", "ref", "-p", "host"], "unknown scheme 'ml-kem-769'"),
        (["ml-kem-768", "-i", "fast", "-p", "host"], "has no implementation 'fast'"),
        (["ml-kem-768", "-i", "ref", "-p", "nosuchboard"], "nosuchboard"),
        (["fn-dsa-512", "-i", "fpu", "-p", "mps2-an386"], "does not run on platform mps2-an386"),
        (["ml-kem-768", "-i", "ref", "-p", "host", "--prefix", "9x"], "not a C identifier"),
    ],
)
def test_cli_errors(args: list[str], message: str, tmp_path: Path) -> None:
    r = subprocess.run(
        [sys.executable, "-m", "pqlab", "export", *args, "-o", str(tmp_path / "out")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    assert r.returncode == 2, r.stdout + r.stderr
    assert message in r.stderr


def test_refuses_foreign_folder(tmp_path: Path) -> None:
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "keep.txt").write_text("user data")
    with pytest.raises(PqlabError, match="not empty"):
        X.export(["ml-kem-768"], "ref", get_platform("host"), tmp_path / "x")


# every own implementation on every platform of the two it runs on (pqlab.toml, fpr)
OWN = [(i, p) for p in ("host", "mps2-an386") for i in discover() if i.own and i.runs_on(get_platform(p))]


@pytest.mark.slow
@pytest.mark.parametrize("impl, plat_name", OWN, ids=[f"{i.id}@{p}" for i, p in OWN])
def test_every_own_implementation(impl, plat_name: str, tmp_path: Path) -> None:
    plat = get_platform(plat_name)
    X.export([impl.scheme], impl.name, plat, tmp_path / "e")
    # clang where supported: FN-DSA ref on Cortex-M inlines GNU-as syntax that clang's integrated
    # assembler rejects (docs/toolchains.md), in the tree as in an export
    if not (impl.scheme.startswith("fn-dsa") and plat.arch == "armv7e-m"):
        X.export([impl.scheme], impl.name, toolchains.apply(plat, "clang"), tmp_path / "c")
    run_harness(tmp_path / "e", plat_name)


@pytest.mark.slow
def test_contract_checks_option(tmp_path: Path) -> None:
    """--contract-checks: the folder's dispatchers check their bounds and report through the
    application's pqlab_contract_failed (here the harness's); without it nothing calls it."""
    on = X.export(["ml-kem-768"], "ref", get_platform("host"), tmp_path / "on", X.Options(contract_checks=True))
    assert "pqlab_contract_failed" in on["needs"]
    assert "#define PQLAB_CONFIG_CONTRACT_CHECKS\n" in (tmp_path / "on" / X.CONFIG).read_text()
    plat = get_platform("host")
    # the contract-checking build of the harness: the tree's libpqlab carries the reporter
    opts = B.BuildOptions(contract_checks=True)
    for o in J.execute([(i, plat) for i in X.implementations(tmp_path / "on")], "test", 1, opts):
        assert o.ok, o.error
    off = X.export(["ml-kem-768"], "ref", get_platform("host"), tmp_path / "off")
    assert "pqlab_contract_failed" not in off["needs"]


@pytest.mark.slow
def test_m4_example_with_make_as_documented(tmp_path: Path) -> None:
    """docs/export.md's hand-made build of the Cortex-M4 example (the two Makefile fragments and
    the user's own make rule), run on QEMU."""
    doc = (ROOT / "docs" / "export.md").read_text()
    mk = re.search(r"cat > build/Makefile.m4 <<'MK'\n(.*?)\nMK\n", doc, re.S)
    assert mk, "docs/export.md: the Makefile of the Cortex-M4 example is missing"
    build_dir = tmp_path / "build"
    plat = get_platform("mps2-an386")
    X.export(["ml-kem-768"], "ref", plat, build_dir / "kem", X.Options(prefix="kem_"))
    X.export(["ml-dsa-44"], "ref", plat, build_dir / "sig", X.Options(prefix="sig_"))
    text = mk.group(1).replace("../platforms", str(ROOT / "platforms")).replace("../examples", str(EXAMPLES))
    (build_dir / "Makefile.m4").write_text(text + "\n")
    r = subprocess.run(
        ["make", "-C", str(build_dir), "-f", "Makefile.m4", "example.elf"], capture_output=True, text=True
    )
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    r = subprocess.run(command(plat, build_dir / "example.elf"), capture_output=True, text=True, timeout=600)
    assert r.returncode == 0 and "ML-DSA-44 signature verifies" in r.stdout, r.stdout + r.stderr
