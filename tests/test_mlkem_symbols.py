"""Every global symbol that lib/mlkem defines carries the implementation's namespace
(pqlab_mlkem<N>_ref_, hence the pqlab_ prefix), for the host compiler and the Cortex-M4 and
RV32 cross compilers; the builds are -Wall -Wextra -Werror clean. The api.h of each
parameter set maps the plain NIST names onto exactly these symbols."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "mlkem"))
from support import PARAMS, ROOT

TOOLCHAINS = {
    "host": (["cc"], "nm"),
    "cortex-m4": (["arm-none-eabi-gcc", "-mcpu=cortex-m4", "-mthumb"], "arm-none-eabi-nm"),
    "rv32": (
        ["riscv64-unknown-elf-gcc", "--specs=picolibc.specs", "-misa-spec=2.2", "-march=rv32imc", "-mabi=ilp32"],
        "riscv64-unknown-elf-nm",
    ),
}
SOURCES = sorted((ROOT / "lib" / "mlkem").glob("*.c"))


@pytest.mark.parametrize("tc", list(TOOLCHAINS))
@pytest.mark.parametrize("name", list(PARAMS))
def test_only_namespaced_globals(name: str, tc: str, tmp_path: Path) -> None:
    cc, nm = TOOLCHAINS[tc]
    assert shutil.which(cc[0]) and shutil.which(nm), f"{cc[0]} / {nm} not installed"
    p = PARAMS[name]
    defined = []
    for src in SOURCES:
        obj = tmp_path / (src.stem + ".o")
        cmd = [
            *cc,
            "-std=c11",
            "-O3",
            "-Wall",
            "-Wextra",
            "-Werror",
            *p.cflags,
            f"-I{ROOT / 'lib/common'}",
            f"-I{ROOT / 'lib/mlkem'}",
            "-c",
            str(src),
            "-o",
            str(obj),
        ]
        res = subprocess.run(cmd, capture_output=True, text=True, check=False)
        assert res.returncode == 0, res.stderr
        out = subprocess.run([nm, "-g", "--defined-only", str(obj)], capture_output=True, text=True, check=True)
        defined += [line.split()[-1] for line in out.stdout.splitlines() if line.strip()]
    assert defined, "no symbols found"
    bad = [s for s in defined if not s.startswith(p.prefix)]
    assert not bad, f"global symbols outside {p.prefix}: {bad}"
    assert p.prefix + "crypto_kem_keypair" in defined


@pytest.mark.parametrize("name", list(PARAMS))
def test_api_header(name: str, tmp_path: Path) -> None:
    """api.h: FIPS 203 sizes, and each mapped name resolves to a defined symbol."""
    p = PARAMS[name]
    folder = ROOT / "lib" / "crypto_kem" / name.lower() / "ref"
    api = (folder / "api.h").read_text()
    sizes = dict(re.findall(r"#define (CRYPTO_\w*BYTES) (\d+)", api))
    assert sizes == {
        "CRYPTO_SECRETKEYBYTES": str(p.dk_len),
        "CRYPTO_PUBLICKEYBYTES": str(p.ek_len),
        "CRYPTO_CIPHERTEXTBYTES": str(p.ct_len),
        "CRYPTO_BYTES": "32",
    }
    assert f'#define CRYPTO_ALGNAME "{name}"' in api
    toml = (folder / "pqlab.toml").read_text()
    assert f"-DPQLAB_MLKEM_K={p.k}" in toml and f"-DPQLAB_NS={p.prefix}" in toml and 'driver = "mlkem"' in toml
    # compile a user of api.h without -DPQLAB_NS and with it; both must name the same symbols
    user = tmp_path / "user.c"
    user.write_text(
        '#include "api.h"\nvoid *f[] = {(void *)crypto_kem_keypair, (void *)crypto_kem_enc,\n'
        "(void *)crypto_kem_dec, (void *)crypto_kem_keypair_derand, (void *)crypto_kem_enc_derand,\n"
        "(void *)crypto_kem_dec_internal, (void *)crypto_kem_check_ek, (void *)crypto_kem_check_dk};\n"
    )
    for flags in ([], [f"-DPQLAB_NS={p.prefix}"]):
        obj = tmp_path / "user.o"
        res = subprocess.run(
            [
                "cc",
                "-std=c11",
                "-Wall",
                "-Wextra",
                "-Werror",
                *flags,
                f"-I{folder}",
                f"-I{ROOT / 'lib/common'}",
                "-c",
                str(user),
                "-o",
                str(obj),
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        assert res.returncode == 0, res.stderr
        out = subprocess.run(["nm", "-u", str(obj)], capture_output=True, text=True, check=True).stdout.split()
        undefined = sorted(s for s in out if s != "U")
        assert undefined == sorted(
            p.prefix + n
            for n in (
                "crypto_kem_keypair",
                "crypto_kem_enc",
                "crypto_kem_dec",
                "crypto_kem_keypair_derand",
                "crypto_kem_enc_derand",
                "crypto_kem_dec_internal",
                "crypto_kem_check_ek",
                "crypto_kem_check_dk",
            )
        )
