# SPDX-License-Identifier: MIT
"""Stores into the code region fail the run (issue 16). A generated foreign KEM (api.h in a
temporary --impl-path folder, built by pqlab's own build) whose key generation writes through
a NULL pointer, or into a function's code, must FAIL `pqlab test` naming the reason:
pqlab-sim faults on the store (the code region stands for flash), QEMU's machines, where that
memory is RAM, are caught by the harness's checksum of the read-only image at the end of the
run, the host by the operating system (SIGSEGV)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from pqlab.cli import main

API_H = """/* SPDX-License-Identifier: MIT */
/* faultkem: a test-only toy KEM whose key generation writes into the code region. */
#ifndef API_H
#define API_H
#define CRYPTO_SECRETKEYBYTES 32
#define CRYPTO_PUBLICKEYBYTES 32
#define CRYPTO_CIPHERTEXTBYTES 32
#define CRYPTO_BYTES 32
#define CRYPTO_ALGNAME "faultkem"
int crypto_kem_keypair(unsigned char *pk, unsigned char *sk);
int crypto_kem_enc(unsigned char *ct, unsigned char *ss, const unsigned char *pk);
int crypto_kem_dec(unsigned char *ss, const unsigned char *ct, const unsigned char *sk);
#endif
"""

# an (insecure) KEM that passes the harness's round-trip checks but for the stray store:
# pk = sk = SHA3-256(random), ct = m XOR pk, ss = SHA3-256(m)
KEM_C = """/* SPDX-License-Identifier: MIT */
#include <stdint.h>
#include <string.h>
#include "api.h"
#include "fips202.h"
#include "randombytes.h"

/* the NULL pointer comes from data, as in a real bug (a literal NULL store would be
 * compiled into a trap instruction by GCC) */
volatile uintptr_t faultkem_ptr = FAULTKEM_ADDR;

/* never called: its code is the target of the store into .text */
__attribute__((noinline)) int faultkem_spare(int x)
{
    return x * 3 + 1;
}

int crypto_kem_keypair(unsigned char *pk, unsigned char *sk)
{
    unsigned char s[32];
    randombytes(s, 32);
    sha3_256(pk, s, 32);
    memcpy(sk, pk, 32);
#if FAULTKEM_TARGET == 0
    *(volatile uint32_t *)faultkem_ptr = 0xdeadbeefu; /* through a NULL pointer */
#else
    volatile uint8_t *code = (volatile uint8_t *)((uintptr_t)&faultkem_spare & ~(uintptr_t)1);
    code[2] += 1u; /* into the code of a function (keypair runs several times: no XOR) */
#endif
    return 0;
}

int crypto_kem_enc(unsigned char *ct, unsigned char *ss, const unsigned char *pk)
{
    unsigned char m[32];
    randombytes(m, 32);
    for (int i = 0; i < 32; i++) {
        ct[i] = m[i] ^ pk[i];
    }
    sha3_256(ss, m, 32);
    return 0;
}

int crypto_kem_dec(unsigned char *ss, const unsigned char *ct, const unsigned char *sk)
{
    unsigned char m[32];
    for (int i = 0; i < 32; i++) {
        m[i] = ct[i] ^ sk[i];
    }
    sha3_256(ss, m, 32);
    return 0;
}
"""

VARIANTS = {"nullwrite": 0, "textwrite": 1}
# what each platform must name as the reason, per variant
SIM = r"bus fault in pqlab-sim: #fault sim-busfault pc=0x[0-9a-f]{8} addr=0x[0-9a-f]{8} in crypto_kem_keypair\+0x"
QEMU = r"code/vector region modified during the run .*#fault code-modified start=0x{:08x} end=0x"
REASON = {
    "m4-sim": {"nullwrite": SIM, "textwrite": SIM},
    "m7-sim": {"nullwrite": SIM, "textwrite": SIM},
    "mps2-an386": {"nullwrite": QEMU.format(0), "textwrite": QEMU.format(0)},
    "mps2-an500": {"nullwrite": QEMU.format(0), "textwrite": QEMU.format(0)},
    # QEMU virt has no memory at address 0 (store access fault); .text is RAM
    "rv32-qemu": {"nullwrite": r"#fault trap", "textwrite": QEMU.format(0x80000000)},
    # the operating system maps neither page 0 nor code writable
    "host": {"nullwrite": r"#fault signal sig=11", "textwrite": r"#fault signal sig=11"},
}


@pytest.fixture(scope="module")
def impl_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("faultkem")
    for name, target in VARIANTS.items():
        d = root / "crypto_kem" / f"faultkem-{name}" / "ref"
        d.mkdir(parents=True)
        (d / "api.h").write_text(API_H)
        (d / "kem.c").write_text(KEM_C)
        (d / "pqlab.toml").write_text(f'cflags = ["-DFAULTKEM_TARGET={target}", "-DFAULTKEM_ADDR=0"]\n')
    return root


@pytest.mark.parametrize("platform", sorted(REASON))
def test_store_into_code_region_fails(impl_root: Path, platform: str) -> None:
    res = CliRunner().invoke(
        main,
        ["test", *[f"faultkem-{v}" for v in VARIANTS], "--impl-path", str(impl_root), "-p", platform, "-j", "1"],
        catch_exceptions=False,
    )
    out = res.output
    assert res.exit_code != 0, out
    assert "ok   faultkem" not in out, out
    for v in VARIANTS:
        fail = re.search(rf"FAIL faultkem-{v}/ref on {platform}: (.*)", out)
        assert fail, out
        assert re.search(REASON[platform][v], fail.group(1)), fail.group(1)
        if v == "nullwrite" and platform.endswith("-sim"):
            assert "addr=0x00000000" in fail.group(1) and "NULL pointer" in out
