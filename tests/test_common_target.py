"""lib/common on the emulated targets: a self-test program built with each
platform's own compiler flags, start-up code and HAL (from platforms/<name>/
platform.toml) computes SHA-3/SHAKE/x4/SHA-2/AES/DRBG outputs on the target; the host
checks every output against hashlib / cryptography. The same run reports the timer
count and peak stack of each primitive (printed in the test log, bounded loosely)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import firmware
import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from hostlib import ROOT

PLATFORMS = ["mps2-an386", "mps2-an500", "rv32-qemu", "aarch64-qemu"]
LENGTHS = [0, 1, 3, 71, 72, 73, 103, 104, 105, 135, 136, 137, 167, 168, 169, 300, 1000]

SELFTEST = r"""
#include <stdio.h>
#include <string.h>
#include "pqlab_hal.h"
#include "aes.h"
#include "drbg.h"
#include "fips202.h"
#include "fips202x4.h"
#include "sha2.h"

static const size_t lengths[] = {@LENGTHS@};
static uint8_t msg[1024], out[1024], o4[4][300];

static void line(const char *name, size_t len, const uint8_t *p, size_t n)
{
    char b[2200];
    int k = snprintf(b, sizeof b, "%s %u ", name, (unsigned)len);
    for (size_t i = 0; i < n; i++) k += snprintf(b + k, sizeof b - (size_t)k, "%02x", p[i]);
    b[k++] = '\n';
    pqlab_hal_send(b, (size_t)k);
}

static void num(const char *kind, const char *name, unsigned long long v)
{
    char b[96];
    int k = snprintf(b, sizeof b, "%s %s %llu\n", kind, name, v);
    pqlab_hal_send(b, (size_t)k);
}

#define MEASURE(name, stmt)                                        \
    do {                                                           \
        pqlab_hal_stack_spray();                                   \
        stmt;                                                      \
        size_t used_ = pqlab_hal_stack_used();                     \
        uint64_t t0_ = pqlab_hal_cycles();                         \
        for (int r_ = 0; r_ < 4; r_++) { stmt; }                   \
        uint64_t t1_ = pqlab_hal_cycles();                         \
        num("stack", name, used_);                                 \
        num("timer", name, (t1_ - t0_) / 4);                       \
    } while (0)

int main(void)
{
    pqlab_hal_setup();
    for (size_t i = 0; i < sizeof msg; i++) msg[i] = (uint8_t)(i * 31 + 7);
    for (size_t j = 0; j < sizeof lengths / sizeof lengths[0]; j++) {
        size_t n = lengths[j];
        pqlab_sha3_256(out, msg, n); line("sha3_256", n, out, 32);
        pqlab_sha3_384(out, msg, n); line("sha3_384", n, out, 48);
        pqlab_sha3_512(out, msg, n); line("sha3_512", n, out, 64);
        pqlab_shake128(out, 200, msg, n); line("shake128", n, out, 200);
        pqlab_shake256(out, 200, msg, n); line("shake256", n, out, 200);
        pqlab_sha224(out, msg, n); line("sha224", n, out, 28);
        pqlab_sha256(out, msg, n); line("sha256", n, out, 32);
        pqlab_sha384(out, msg, n); line("sha384", n, out, 48);
        pqlab_sha512(out, msg, n); line("sha512", n, out, 64);
        if (n <= 700) {
            pqlab_shake256x4(o4[0], o4[1], o4[2], o4[3], 300, msg, msg + 1, msg + 2, msg + 3, n);
            for (int i = 0; i < 4; i++) line("shake256x4", n, o4[i], 300);
        }
    }
    pqlab_aes_ctx ctx;
    for (size_t kl = 16; kl <= 32; kl += 8) {
        pqlab_aes_keyexp(&ctx, msg, kl);
        pqlab_aes_ecb(out, msg + 32, 5, &ctx); line("aes_ecb", kl, out, 80);
        pqlab_aes_ctr(out, 77, msg + 100, &ctx); line("aes_ctr", kl, out, 77);
    }
    pqlab_drbg_state d;
    uint8_t e[48];
    for (int i = 0; i < 48; i++) e[i] = (uint8_t)i;
    pqlab_drbg_init(&d, e, NULL);
    pqlab_drbg_generate(&d, out, 48); line("drbg", 48, out, 48);

    static uint64_t st[25];
    static pqlab_keccakx4_state x4;
    MEASURE("keccakf1600", pqlab_keccakf1600(st));
    MEASURE("sha3_256_32B", pqlab_sha3_256(out, msg, 32));
    MEASURE("shake128_absorb32_squeeze504", pqlab_shake128(out, 504, msg, 32));
    MEASURE("shake128x4_absorb34_1block",
            (pqlab_shake128x4_absorb_once(&x4, msg, msg + 1, msg + 2, msg + 3, 34),
             pqlab_shake128x4_squeezeblocks(o4[0], o4[1], o4[2], o4[3], 1, &x4)));
    MEASURE("sha256_64B", pqlab_sha256(out, msg, 64));
    MEASURE("sha512_128B", pqlab_sha512(out, msg, 128));
    MEASURE("aes256_keyexp", pqlab_aes_keyexp(&ctx, msg, 32));
    MEASURE("aes256_ecb_2blocks", pqlab_aes_ecb(out, msg, 2, &ctx));
    MEASURE("aes256_ctr_256B", pqlab_aes_ctr(out, 256, msg, &ctx));
    MEASURE("drbg_generate_32B", pqlab_drbg_generate(&d, out, 32));
    pqlab_hal_send("end\n", 4);
    pqlab_hal_exit(0);
}
"""

COMMON = sorted((ROOT / "lib" / "common").glob("*.c"))
MSG = bytes((i * 31 + 7) & 0xFF for i in range(1024))


def expected(name: str, n: int) -> list[bytes]:
    m = MSG[:n]
    simple = {
        "sha3_256": hashlib.sha3_256,
        "sha3_384": hashlib.sha3_384,
        "sha3_512": hashlib.sha3_512,
        "sha224": hashlib.sha224,
        "sha256": hashlib.sha256,
        "sha384": hashlib.sha384,
        "sha512": hashlib.sha512,
    }
    if name in simple:
        return [simple[name](m).digest()]
    if name == "shake128":
        return [hashlib.shake_128(m).digest(200)]
    if name == "shake256":
        return [hashlib.shake_256(m).digest(200)]
    if name == "shake256x4":
        return [hashlib.shake_256(MSG[i : i + n]).digest(300) for i in range(4)]
    key = MSG[:n]
    if name == "aes_ecb":
        return [Cipher(algorithms.AES(key), modes.ECB()).encryptor().update(MSG[32:112])]
    if name == "aes_ctr":
        iv = MSG[100:112] + bytes(4)
        return [Cipher(algorithms.AES(key), modes.CTR(iv)).encryptor().update(bytes(77))]
    if name == "drbg":
        return [
            bytes.fromhex(
                "061550234D158C5EC95595FE04EF7A25767F2E24CC2BC479D09D86DC9ABCFDE7056A8C266F9EF97ED08541DBD2E1FFA1"
            )
        ]
    raise AssertionError(f"unknown record {name}")


def build_and_run(platform: str, tmp: Path) -> str:
    src = tmp / "selftest.c"
    src.write_text(SELFTEST.replace("@LENGTHS@", ", ".join(map(str, LENGTHS))))
    return firmware.build_and_run(platform, tmp, [src, *COMMON])


@pytest.mark.parametrize("platform", PLATFORMS)
def test_common_layer_on_target(platform: str, tmp_path: Path) -> None:
    text = build_and_run(platform, tmp_path)
    lines = text.replace("\r", "").splitlines()
    assert lines and lines[-1] == "end", text[-500:]
    got: dict[tuple[str, int], list[bytes]] = {}
    stats: list[str] = []
    for ln in lines[:-1]:
        parts = ln.split()
        if parts[0] in ("stack", "timer"):
            stats.append(ln)
            continue
        name, n, hexval = parts[0], int(parts[1]), parts[2] if len(parts) > 2 else ""
        got.setdefault((name, n), []).append(bytes.fromhex(hexval))
    checked = 0
    for (name, n), outs in got.items():
        assert outs == expected(name, n), (platform, name, n)
        checked += len(outs)
    assert checked == 9 * len(LENGTHS) + 4 * sum(n <= 700 for n in LENGTHS) + 7
    print(f"\n{platform}: {checked} outputs agree; " + "; ".join(stats))
    stack = {ln.split()[1]: int(ln.split()[2]) for ln in stats if ln.startswith("stack")}
    assert len(stack) == 10
    # loose regression bounds on the peak stack of one call (bytes)
    assert all(v < 2048 for v in stack.values()), stack
