"""Every global symbol that lib/mlkem defines carries the implementation's namespace
(pqlab_mlkem<N>_ref_, hence the pqlab_ prefix), for the host compiler and the Cortex-M4 and
RV32 cross compilers (pqlab's build, the registered implementations' flags); the builds are
-Wall -Wextra -Werror clean. The api.h of each
parameter set maps the plain NIST names onto exactly these symbols."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import firmware
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "mlkem"))
from support import PARAMS, ROOT

PLATFORMS = ["host", "mps2-an386", "rv32-qemu"]  # gcc, arm-none-eabi-gcc, riscv64-unknown-elf-gcc


@pytest.mark.parametrize("platform", PLATFORMS)
@pytest.mark.parametrize("name", list(PARAMS))
def test_only_namespaced_globals(name: str, platform: str, tmp_path: Path) -> None:
    p = PARAMS[name]
    objs = firmware.impl_objects(platform, firmware.registered(name.lower(), "ref"), tmp_path)
    defined = firmware.symbols(platform, objs, "-g --defined-only")
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
        objs = firmware.build(
            "host", tmp_path / f"ns{len(flags)}", [user], include=[folder], cflags=flags, kind="objects"
        )
        out = firmware.symbols("host", objs, "-u")
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
