"""Build checks of lib/mldsa, built by pqlab's build as the registered implementations are:
-Wall -Wextra -Werror clean with gcc (host), arm-none-eabi-gcc (Cortex-M4, mps2-an386) and
riscv64-unknown-elf-gcc (rv32imc, rv32-qemu), for the three parameter sets; every global
symbol of the objects carries the parameter set's namespace (pqlab_mldsaNN_ref_), so that the
three sets link into one program; api.h of each implementation folder agrees with lib/mldsa's
own prototypes and sizes (both are included in one translation unit, where a mismatch is a
compile error); the iteration counter is exposed as PQLAB_SIGN_ITERATIONS()."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import firmware
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_mldsa_support import MODES, ROOT, mldsa

PLATFORMS = ["host", "mps2-an386", "rv32-qemu"]  # gcc, arm-none-eabi-gcc, riscv64-unknown-elf-gcc


def compile_objs(platform: str, mode: int, out: Path) -> list[Path]:
    return firmware.impl_objects(platform, firmware.registered(f"ml-dsa-{mode}", "ref"), out / f"{platform}-{mode}")


@pytest.mark.parametrize("platform", PLATFORMS)
def test_werror_and_namespace(platform: str, tmp_path: Path) -> None:
    for mode in MODES:
        syms = firmware.symbols(platform, compile_objs(platform, mode, tmp_path), "-g --defined-only")
        assert len(syms) > 40
        bad = [s for s in syms if not s.startswith(f"pqlab_mldsa{mode}_ref_")]
        assert not bad, f"{platform} ML-DSA-{mode}: symbols outside the namespace: {bad}"


def test_three_sets_link_together_and_api_headers_agree(tmp_path: Path) -> None:
    objs: list[Path] = []
    main = ["#include <stdio.h>"]
    for mode in MODES:
        impl = firmware.registered(f"ml-dsa-{mode}", "ref")
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
        objs += firmware.build(
            "host",
            tmp_path / f"check{mode}",
            [tu],
            include=[*impl.include, impl.dir],
            cflags=impl.cflags,
            kind="objects",
        )
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
    exe = firmware.build("host", tmp_path / "all", [*objs, *common, rng, tmp_path / "main.c"])
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
