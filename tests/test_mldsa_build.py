"""Build checks of lib/mldsa: -Wall -Wextra -Werror clean with gcc (host), arm-none-eabi-gcc
(Cortex-M4) and riscv64-unknown-elf-gcc (rv32imc), for the three parameter sets; every global
symbol of the objects carries the parameter set's namespace (pqlab_mldsaNN_ref_), so that the
three sets link into one program; api.h of each implementation folder agrees with lib/mldsa's
own prototypes and sizes (both are included in one translation unit, where a mismatch is a
compile error); the iteration counter is exposed as PQLAB_SIGN_ITERATIONS()."""

from __future__ import annotations

import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_mldsa_support import MLDSA_SOURCES, MODES, ROOT, mldsa

WARN = ["-std=c11", "-Wall", "-Wextra", "-Werror"]
TOOLCHAINS = {
    "host": ("gcc", "nm", ["-O2"]),
    "cortex-m4": ("arm-none-eabi-gcc", "arm-none-eabi-nm", ["-mcpu=cortex-m4", "-mthumb", "-O3"]),
    "rv32": (
        "riscv64-unknown-elf-gcc",
        "riscv64-unknown-elf-nm",
        ["-misa-spec=2.2", "-march=rv32imc", "-mabi=ilp32", "-O3", "--specs=picolibc.specs"],
    ),
}


def compile_objs(tc: str, mode: int, out: Path) -> list[Path]:
    cc, _, flags = TOOLCHAINS[tc]
    if shutil.which(cc) is None:
        pytest.fail(f"{cc} not installed (apt-get install gcc-arm-none-eabi gcc-riscv64-unknown-elf)")
    cmds = []
    for src in MLDSA_SOURCES:
        obj = out / f"{tc}-{mode}-{Path(src).stem}.o"
        cmds.append(
            (
                obj,
                [
                    cc,
                    *flags,
                    *WARN,
                    f"-DPQLAB_MLDSA_MODE={mode}",
                    f"-DPQLAB_NS=pqlab_mldsa{mode}_ref_",
                    f"-I{ROOT / 'lib/common'}",
                    f"-I{ROOT / 'lib/mldsa'}",
                    "-c",
                    str(ROOT / src),
                    "-o",
                    str(obj),
                ],
            )
        )
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda c: subprocess.run(c[1], capture_output=True, text=True, check=False), cmds))
    for (_, cmd), r in zip(cmds, results):
        assert r.returncode == 0, f"{' '.join(cmd)}\n{r.stderr}"
    objs = [obj for obj, _ in cmds]
    return objs


@pytest.mark.parametrize("tc", list(TOOLCHAINS))
def test_werror_and_namespace(tc: str, tmp_path: Path) -> None:
    nm = TOOLCHAINS[tc][1]
    for mode in MODES:
        objs = compile_objs(tc, mode, tmp_path)
        out = subprocess.run([nm, "-g", "--defined-only", *map(str, objs)], capture_output=True, text=True, check=True)
        syms = [ln.split()[-1] for ln in out.stdout.splitlines() if ln.strip() and not ln.endswith(":")]
        assert len(syms) > 40
        bad = [s for s in syms if not s.startswith(f"pqlab_mldsa{mode}_ref_")]
        assert not bad, f"{tc} ML-DSA-{mode}: symbols outside the namespace: {bad}"


def test_three_sets_link_together_and_api_headers_agree(tmp_path: Path) -> None:
    objs = []
    main = ["#include <stdio.h>"]
    for mode in MODES:
        objs += compile_objs("host", mode, tmp_path)
        # api.h and mldsa.h in one TU: conflicting prototypes or sizes fail to compile
        tu = tmp_path / f"check{mode}.c"
        tu.write_text(
            f'#include "api.h"\n#include "mldsa.h"\n'
            '_Static_assert(CRYPTO_PUBLICKEYBYTES == MLDSA_PUBLICKEYBYTES, "pk");\n'
            '_Static_assert(CRYPTO_SECRETKEYBYTES == MLDSA_SECRETKEYBYTES, "sk");\n'
            '_Static_assert(CRYPTO_BYTES == MLDSA_SIGBYTES, "sig");\n'
            f"unsigned int iterations{mode}(void) {{ return PQLAB_SIGN_ITERATIONS(); }}\n"
        )
        obj = tmp_path / f"check{mode}.o"
        cmd = [
            "gcc",
            "-O2",
            *WARN,
            f"-DPQLAB_MLDSA_MODE={mode}",
            f"-DPQLAB_NS=pqlab_mldsa{mode}_ref_",
            f"-I{ROOT / 'lib/common'}",
            f"-I{ROOT / 'lib/mldsa'}",
            f"-I{ROOT / f'lib/crypto_sign/ml-dsa-{mode}/ref'}",
            "-c",
            str(tu),
            "-o",
            str(obj),
        ]
        r = subprocess.run(cmd, capture_output=True, text=True, check=False)
        assert r.returncode == 0, r.stderr
        objs.append(obj)
        main.append(f"unsigned int iterations{mode}(void);")
    # instrument_record.c: the measuring side of the instrumentation interface, whose
    # record PQLAB_SIGN_ITERATIONS() reads
    common = [ROOT / f"lib/common/{f}.c" for f in ("fips202", "fips202x4", "sha2", "instrument")]
    common.append(ROOT / "lib/mldsa/testing/instrument_record.c")
    rng = tmp_path / "rng.c"
    rng.write_text(
        "#include <stddef.h>\n#include <stdint.h>\n#include <string.h>\n"
        "int pqlab_randombytes(uint8_t *o, size_t n) { memset(o, 7, n); return 0; }\n"
    )
    main.append("int main(void) { return (int)(iterations44() + iterations65() + iterations87()); }")
    (tmp_path / "main.c").write_text("\n".join(main) + "\n")
    exe = tmp_path / "all"
    r = subprocess.run(
        [
            "gcc",
            "-O2",
            *WARN,
            f"-I{ROOT / 'lib/common'}",
            *map(str, objs),
            *map(str, common),
            str(rng),
            str(tmp_path / "main.c"),
            "-o",
            str(exe),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert r.returncode == 0, r.stderr
    assert subprocess.run([str(exe)], check=False).returncode == 0  # no signature made yet


@pytest.mark.parametrize("mode", MODES)
def test_iteration_counter(mode: int) -> None:
    """the counter reports the loop count of the last signature: >= 1, and over many signatures a
    mean close to FIPS 204's expected repetitions (4.25 / 5.1 / 3.85, Table 1), with some spread"""
    lib = mldsa(mode)
    r, _pk, sk = lib.keypair_internal(bytes(32))
    assert r == 0
    counts = []
    for i in range(60):
        r, _ = lib.sign(sk, i.to_bytes(4, "little"), b"", bytes(32))
        assert r == 0
        counts.append(lib.iterations())
    assert min(counts) >= 1 and max(counts) > min(counts)
    mean = sum(counts) / len(counts)
    assert 2.0 < mean < 9.0, mean
