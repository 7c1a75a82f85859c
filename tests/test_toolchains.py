"""`--toolchain` (pqlab/toolchains.py): the same implementation built and run with Debian's GCC,
clang-19 and the Arm GNU Toolchain 13.2.1; the toolchain and the compiler's version recorded with
every run; reports and compare put the toolchains side by side; older databases stay readable."""

from __future__ import annotations

import sqlite3

import pytest
from cli_runner import pqlab, pqlab_stdout

from pqlab import PqlabError, toolchains
from pqlab.build import BUILD_ROOT
from pqlab.platforms import get_platform
from pqlab.results import SCHEMA_VERSION, Store


@pytest.mark.parametrize("tc", ["clang", "arm-gnu-13.2.1"])
def test_ml_kem_builds_and_passes_with_each_toolchain(tc):
    # arm-gnu-13.2.1: the pinned wheel, downloaded once into build/calibration (PyPI)
    status, out = pqlab("test", "ml-kem-512", "-i", "ref", "-p", "mps2-an386", "--toolchain", tc, "-j", "1")
    assert status == 0, out
    assert "ok   ml-kem-512/ref on mps2-an386 (14 checks)" in out
    plat = toolchains.apply(get_platform("mps2-an386"), tc)
    assert plat.build_name == f"mps2-an386+{tc}"
    assert list((BUILD_ROOT / plat.build_name / "impl" / "ml-kem-512").glob("ref-*/test.elf"))


def test_clang_cross_compiles_for_aarch64_with_the_neon_backend():
    # the published NEON Falcon figures are clang -O3: clang-19 --target=aarch64-linux-gnu compiles
    # (the backend's .S through the cross GCC), the cross GCC links; FN-DSA's native doubles stay
    # KAT-exact (no FMA contraction under clang's default either: the build sets it off)
    plat = toolchains.apply(get_platform("aarch64-qemu"), "clang")
    assert plat.cc == "clang-19" and plat.cflags[0] == "--target=aarch64-linux-gnu"
    assert plat.asm_cc == plat.link_cc == "aarch64-linux-gnu-gcc"
    status, out = pqlab("kat", "fn-dsa-512", "-i", "fpu", "-p", "aarch64-qemu", "--toolchain", "clang", "--count", "3")
    assert status == 0, out
    assert "ok        fn-dsa-512/fpu on aarch64-qemu: 3 records match" in out, out
    assert list((BUILD_ROOT / "aarch64-qemu+clang" / "impl" / "fn-dsa-512").glob("fpu-*/kat*.elf"))


def test_toolchain_is_recorded_and_compared_side_by_side(tmp_path):
    db = tmp_path / "r.db"
    for tc in ("gcc", "clang"):
        status, out = pqlab(
            "bench", "ml-kem-512", "-i", "ref", "-p", "mps2-an386", "-n", "1", "-j", "1", "--toolchain", tc, "--db", db
        )
        assert status == 0, out
    with sqlite3.connect(db) as c:
        ctx = {
            r[0]: r[1:] for r in c.execute("SELECT DISTINCT toolchain, compiler, compiler_version, cflags FROM runs")
        }
    assert set(ctx) == {"gcc", "clang"}
    assert ctx["gcc"][0] == "arm-none-eabi-gcc" and "12.2.1" in ctx["gcc"][1]
    assert ctx["clang"][0] == "clang-19" and "clang version 19" in ctx["clang"][1]
    assert "--target=arm-none-eabi" in ctx["clang"][2] and "--target" not in ctx["gcc"][2]

    status, out = pqlab_stdout("compare", "-s", "ml-kem-512", "--db", db, "--baseline", "ref@mps2-an386")
    assert status == 0, out
    head = next(line for line in out.splitlines() if line.startswith("| scheme"))
    assert "ref@mps2-an386[clang] / ref@mps2-an386" in head
    # both columns have figures of their own: the two compilers' binaries differ
    keypair = next(line for line in out.splitlines() if "| keypair |" in line).split("|")
    gcc_v, clang_v = keypair[3].strip(), keypair[4].strip()
    assert gcc_v != clang_v and gcc_v != "—" and clang_v != "—"
    status, out = pqlab_stdout("report", "-s", "ml-kem-512", "--db", db)
    assert "## mps2-an386 " in out and "## mps2-an386[clang] " in out
    # pqm4's layout holds one platform and one compiler: -p PLATFORM[TOOLCHAIN] picks it
    status, out = pqlab("report", "--format", "pqm4-md", "-p", "mps2-an386", "--db", db)
    assert status == 2 and "mps2-an386, mps2-an386[clang]" in out, out
    for sel in ("mps2-an386[clang]", "mps2-an386[gcc]"):
        status, out = pqlab_stdout("report", "--format", "pqm4-md", "-p", sel, "--db", db)
        assert status == 0 and "ml-kem-512 (1 executions)" in out, out


def test_unknown_or_unsupported_toolchain_is_refused():
    status, out = pqlab("build", "ml-kem-512", "-p", "host", "--toolchain", "icc")
    assert status == 2 and "icc" in out
    with pytest.raises(PqlabError, match="arm-gnu-13.2.1 does not build for platform host"):
        toolchains.apply(get_platform("host"), "arm-gnu-13.2.1")
    with pytest.raises(PqlabError, match="clang does not build for platform rv32-qemu"):
        toolchains.apply(get_platform("rv32-qemu"), "clang")


V2_RUNS = """CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE runs(id INTEGER PRIMARY KEY, date TEXT NOT NULL, program TEXT NOT NULL, scheme TEXT NOT NULL,
    implementation TEXT NOT NULL, impl_dir TEXT NOT NULL, platform TEXT NOT NULL, core TEXT NOT NULL,
    clock_hz INTEGER NOT NULL, compiler TEXT NOT NULL, compiler_version TEXT NOT NULL, cflags TEXT NOT NULL,
    pqlab_commit TEXT NOT NULL, dirty INTEGER NOT NULL, iterations INTEGER NOT NULL, timer TEXT NOT NULL,
    unit TEXT NOT NULL, runner TEXT NOT NULL, command TEXT NOT NULL, model TEXT NOT NULL);
CREATE TABLE measurements(run_id INTEGER NOT NULL REFERENCES runs(id), metric TEXT NOT NULL,
    operation TEXT NOT NULL, idx INTEGER NOT NULL, value REAL NOT NULL);
INSERT INTO meta VALUES('schema_version', '2');
INSERT INTO runs VALUES(1, '2026-11-01T00:00:00+00:00', 'speed', 'ml-kem-512', 'ref', '/x', 'mps2-an386',
    'cortex-m4', 24000000, 'arm-none-eabi-gcc', '12.2.1', '-O3', 'abc', 0, 1, 'systick-icount',
    'instructions', 'qemu-system', 'qemu', '');
INSERT INTO measurements VALUES(1, 'speed', 'keypair', 0, 1234);"""


def test_a_version_2_database_is_read_as_is_and_migrated_on_write(tmp_path):
    db = tmp_path / "old.db"
    with sqlite3.connect(db) as c:
        c.executescript(V2_RUNS)
    ro = Store(db, readonly=True)
    (row,) = ro.latest()
    assert (row["value"], row["toolchain"], row["worker"]) == (1234, "gcc", "")
    ro.close()
    with sqlite3.connect(db) as c:  # reading changed nothing
        assert c.execute("SELECT value FROM meta").fetchone()[0] == "2"
    rw = Store(db)
    (row,) = rw.latest()
    assert (row["value"], row["toolchain"], row["host"], row["worker"], row["code_placement"]) == (
        1234,
        "gcc",
        "",
        "",
        "",
    )
    assert rw.db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0] == SCHEMA_VERSION == "4"
    rw.close()
