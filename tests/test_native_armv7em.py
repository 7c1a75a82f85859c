"""Native Keccak-f[1600] for ARMv7E-M (lib/native/armv7em) against the portable C and
against a Python model of FIPS 202, on the emulated Cortex-M4 (QEMU mps2-an386) and on
pqlab-sim (m4-sim, modelled cycles). A small firmware built with the platform's own
flags, start-up code and HAL applies both permutations to the same states (all-zero,
all-ones, single bits, random) and prints inputs and outputs; it also reports the
timer count and the stack of one native call, which are recorded in docs/native.md."""

from __future__ import annotations

import random
import subprocess
import tomllib
from pathlib import Path

import firmware
import pytest
from hostlib import ROOT

NATIVE = ROOT / "lib" / "native" / "armv7em"
NRANDOM = 40

FIRMWARE = r"""
#include <stdio.h>
#include <string.h>
#include "pqlab_hal.h"
#include "fips202.h"

void pqlab_keccakf1600_native(uint64_t s[25]);

static uint64_t rng = 0x0123456789ABCDEFull;
static uint64_t next(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng; }

static void hex(char *b, int *k, const uint64_t *s)
{
    const uint8_t *p = (const uint8_t *)s;
    *k += snprintf(b + *k, 8, " ");
    for (int i = 0; i < 200; i++) *k += snprintf(b + *k, 4, "%02x", p[i]);
}

static void check(int idx, const uint64_t in[25])
{
    static uint64_t a[25], c[25];
    static char b[1400];
    memcpy(a, in, 200);
    memcpy(c, in, 200);
    pqlab_keccakf1600_native(a);
    pqlab_keccakf1600(c);
    int k = snprintf(b, 32, "case %d", idx);
    hex(b, &k, in);
    hex(b, &k, a);
    hex(b, &k, c);
    b[k++] = '\n';
    pqlab_hal_send(b, (size_t)k);
}

int main(void)
{
    static uint64_t s[25];
    char b[96];
    int idx = 0;
    pqlab_hal_setup();
    memset(s, 0, sizeof s);
    check(idx++, s);
    memset(s, 0xFF, sizeof s);
    check(idx++, s);
    for (int bit = 0; bit < 1600; bit += 97) {  /* single bits in lanes and halves */
        memset(s, 0, sizeof s);
        s[bit / 64] = 1ull << (bit % 64);
        check(idx++, s);
    }
    for (int i = 0; i < @NRANDOM@; i++) {
        for (int j = 0; j < 25; j++) s[j] = next();
        check(idx++, s);
    }
    /* chained: 100 native permutations against 100 portable ones */
    static uint64_t x[25], y[25];
    for (int j = 0; j < 25; j++) x[j] = y[j] = next();
    for (int i = 0; i < 100; i++) { pqlab_keccakf1600_native(x); pqlab_keccakf1600(y); }
    pqlab_hal_send(memcmp(x, y, 200) == 0 ? "chain ok\n" : "chain fail\n",
                   memcmp(x, y, 200) == 0 ? 9 : 11);
    pqlab_hal_stack_spray();
    pqlab_keccakf1600_native(s);
    size_t used = pqlab_hal_stack_used();
    uint64_t t0 = pqlab_hal_cycles();
    for (int i = 0; i < 10; i++) pqlab_keccakf1600_native(s);
    uint64_t t1 = pqlab_hal_cycles();
    for (int i = 0; i < 10; i++) pqlab_keccakf1600(s);
    uint64_t t2 = pqlab_hal_cycles();
    int k = snprintf(b, sizeof b, "stats %u %llu %llu\n", (unsigned)used,
                     (unsigned long long)((t1 - t0) / 10), (unsigned long long)((t2 - t1) / 10));
    pqlab_hal_send(b, (size_t)k);
    /* constant time: one call on all-zero, all-ones and random states takes the same count */
    static uint64_t st[4][25];
    for (int j = 0; j < 25; j++) {
        st[0][j] = 0;
        st[1][j] = ~0ull;
        st[2][j] = next();
        st[3][j] = next();
    }
    k = snprintf(b, sizeof b, "ct");
    for (int c = 0; c < 4; c++) {
        if (@WARM@) {
            memcpy(s, st[c], sizeof s);
            pqlab_keccakf1600_native(s);
        }
        memcpy(s, st[c], sizeof s);
        uint64_t u0 = pqlab_hal_cycles();
        pqlab_keccakf1600_native(s);
        uint64_t u1 = pqlab_hal_cycles();
        k += snprintf(b + k, sizeof b - (size_t)k, " %llu", (unsigned long long)(u1 - u0));
    }
    b[k++] = '\n';
    pqlab_hal_send(b, (size_t)k);
    pqlab_hal_send("end\n", 4);
    pqlab_hal_exit(0);
}
"""

# ---- FIPS 202 model (sections 3.2.1-3.2.5), lanes A[x + 5y] as Python ints ----
M64 = (1 << 64) - 1
RHO = [0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14]


def _rc(t: int) -> int:  # Algorithm 5
    if t % 255 == 0:
        return 1
    r = [1, 0, 0, 0, 0, 0, 0, 0]
    for _ in range(t % 255):
        r = [0] + r
        r[0] ^= r[8]
        r[4] ^= r[8]
        r[5] ^= r[8]
        r[6] ^= r[8]
        r = r[:8]
    return r[0]


RCS = [sum(_rc(j + 7 * ir) << ((1 << j) - 1) for j in range(7)) for ir in range(24)]


def _rol(v: int, n: int) -> int:
    return ((v << n) | (v >> (64 - n))) & M64 if n else v


def keccak_f(a: list[int]) -> list[int]:
    a = list(a)
    for ir in range(24):
        c = [a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20] for x in range(5)]
        d = [c[(x - 1) % 5] ^ _rol(c[(x + 1) % 5], 1) for x in range(5)]
        a = [a[i] ^ d[i % 5] for i in range(25)]
        b = [0] * 25
        for x in range(5):
            for y in range(5):  # pi: A'[x, y] = A[(x + 3y) mod 5, x] after rho
                src = (x + 3 * y) % 5 + 5 * x
                b[x + 5 * y] = _rol(a[src], RHO[src])
        a = [b[i] ^ (~b[(i % 5 + 1) % 5 + 5 * (i // 5)] & b[(i % 5 + 2) % 5 + 5 * (i // 5)]) for i in range(25)]
        a[0] ^= RCS[ir]
    return a


def lanes(raw: bytes) -> list[int]:
    return [int.from_bytes(raw[8 * i : 8 * i + 8], "little") for i in range(25)]


def test_model_matches_hashlib() -> None:
    """The Python model is itself checked: SHAKE128 of the empty string via the model."""
    import hashlib

    st = [0] * 25
    st[0] ^= 0x1F
    st[20] ^= 0x80 << 56  # byte 167 of the 168-byte rate
    out = b"".join(v.to_bytes(8, "little") for v in keccak_f(st))[:168]
    assert out == hashlib.shake_128(b"").digest(168)


# the two schedules of the permutation: keccakf1600.S (Cortex-M4) and keccakf1600_m7.S
# (Cortex-M7, assembled only with the define that backend.toml gives Cortex-M7 platforms)
SCHEDULES = {"m4": ("keccakf1600.S", []), "m7": ("keccakf1600_m7.S", ["-DPQLAB_ARMV7EM_CORTEX_M7=1"])}


def build_and_run(platform: str, tmp: Path, schedule: str = "m4") -> str:
    src = tmp / "fw.c"
    # the M7 estimate's cycles also depend on the branch predictor (shared with the
    # firmware's own loops) and the DTCM banks: the constant-time check times each state
    # after a first, untimed call on the same buffer
    src.write_text(FIRMWARE.replace("@NRANDOM@", str(NRANDOM)).replace("@WARM@", str(int(schedule == "m7"))))
    asm, defines = SCHEDULES[schedule]
    # fips202.c without PQLAB_KECCAKF1600_NATIVE: pqlab_keccakf1600 is the portable code
    return firmware.build_and_run(
        platform, tmp, [src, ROOT / "lib/common/fips202.c", NATIVE / asm], cflags=defines, timeout=120
    )


@pytest.mark.parametrize("args, asm", [([], "keccakf1600.S"), (["--m7"], "keccakf1600_m7.S")])
def test_generator_output_is_committed(args: list[str], asm: str) -> None:
    """keccakf1600.S and keccakf1600_m7.S are exactly what gen_keccakf1600.py writes."""
    gen = [str(NATIVE / "gen_keccakf1600.py"), *args]
    res = subprocess.run(["python3", *gen], capture_output=True, check=True, text=True)
    assert res.stdout == (NATIVE / asm).read_text()


def test_m7_schedule_has_the_m4_instructions() -> None:
    """The M7 file is a reordering: the same multiset of instructions as the M4 file, apart
    from the lane conversions' second scratch register (r5 for r7's delta swaps)."""

    def ins(asm: str) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        fn = ""
        for ln in (NATIVE / asm).read_text().splitlines():
            t = ln.split("/*")[0].strip()
            if t.startswith(".type "):
                fn = t.split()[1].rstrip(",")
            elif t and not t.startswith((".", "#", "*")) and not t.endswith(":"):
                t = t.split(":", 1)[1].strip() if t[:1].isdigit() and ":" in t else t
                if fn != "pqlab_keccakf1600_armv7em_core":  # conversions: r5 is r7's scratch
                    t = t.replace("r5", "r10")
                out.setdefault(fn, []).append(t)
        return {f: sorted(v) for f, v in out.items()}

    m4, m7 = ins("keccakf1600.S"), ins("keccakf1600_m7.S")
    assert len(m4) >= 4 and m4 == m7


@pytest.mark.parametrize(
    "platform, schedule",
    [
        ("mps2-an386", "m4"),
        ("m4-sim", "m4"),
        ("mps2-an500", "m4"),
        ("m7-sim", "m4"),
        ("mps2-an500", "m7"),
        ("m7-sim", "m7"),
    ],
)
def test_native_keccakf1600(platform: str, schedule: str, tmp_path: Path) -> None:
    text = build_and_run(platform, tmp_path, schedule)
    lines = text.replace("\r", "").splitlines()
    assert lines and lines[-1] == "end", text[-500:]
    cases = [ln.split() for ln in lines if ln.startswith("case ")]
    assert len(cases) == 2 + len(range(0, 1600, 97)) + NRANDOM
    for parts in cases:
        idx, inp, nat, port = int(parts[1]), *map(bytes.fromhex, parts[2:5])
        assert nat == port, f"{platform}: case {idx}: native differs from portable"
        assert lanes(nat) == keccak_f(lanes(inp)), f"{platform}: case {idx}: differs from FIPS 202 model"
    assert lanes(bytes.fromhex(cases[0][2])) == [0] * 25
    assert lanes(bytes.fromhex(cases[1][2])) == [M64] * 25
    assert "chain ok" in lines
    stats = [ln.split() for ln in lines if ln.startswith("stats ")]
    assert len(stats) == 1
    stack, native, portable = map(int, stats[0][1:])
    print(
        f"\n{platform}: {len(cases)} states agree; native {native}, portable {portable} "
        f"({cfg_unit(platform)}), native stack {stack} bytes"
    )
    ct = [ln.split()[1:] for ln in lines if ln.startswith("ct ")]
    assert len(ct) == 1, ct
    # same cycles for every state; on the M7 estimate after a first call (WARM), which the
    # M7 schedule's firmware makes
    if firmware.timing_shows_data_independence(platform) or (platform == "m7-sim" and schedule == "m7"):
        assert len(set(ct[0])) == 1, ct
    print(f"{platform} ({schedule} schedule): cycles of one call per state {' '.join(ct[0])}")
    assert stack <= 320, stack
    # regression bounds (docs/native.md has the figures): modelled M4 cycles at least 20% below
    # the portable C, QEMU instruction counts (loads count as one) at least 10% below; on the
    # M7 estimate (m7-estimate-v3) the portable C's loads pair on the two DTCM banks and the
    # kernel, scheduled for the M4, is only a few percent faster (7,780 vs 7,991 cycles)
    # In the M7 order (keccakf1600_m7.S) it is about 22 % faster there (6,215 vs 7,991).
    factor = {"m4-sim": 0.8, "m7-sim": 0.85 if schedule == "m7" else 1.0}.get(platform, 0.9)
    assert native < factor * portable, (native, portable)
    if platform == "m4-sim":
        assert native < 13500, native


def cfg_unit(platform: str) -> str:
    cfg = tomllib.loads((ROOT / "platforms" / platform / "platform.toml").read_text())
    return cfg["timer"]["unit"]


def test_random_model_self_consistency() -> None:
    """The model is a permutation step that differs from the identity on random input."""
    rnd = random.Random(1)
    st = [rnd.getrandbits(64) for _ in range(25)]
    assert keccak_f(st) != st
