"""Native Keccak-f[1600] of the RV32 backend (lib/native/rv32) against the portable C and the
FIPS 202 model of test_native_armv7em, on rv32-qemu (instruction counts) and, marked slow, on
the CV32E40P RTL (exact cycles): the same firmware as the armv7em test (all-zero, all-ones,
single bits, random and chained states; stack and timer count of one native call; the count
on four kinds of state). The native entry on the standard layout converts to the interleaved
layout, runs keccakf1600.S and converts back, so the lane conversions are checked too."""

from __future__ import annotations

import subprocess
from pathlib import Path

import firmware
import pytest
from hostlib import ROOT
from test_native_armv7em import FIRMWARE, NRANDOM, keccak_f, lanes

NATIVE = ROOT / "lib" / "native" / "rv32"


def run(platform: str, tmp: Path) -> tuple[list[str], int, int, int]:
    src = tmp / "fw.c"
    src.write_text(FIRMWARE.replace("@NRANDOM@", str(NRANDOM)).replace("@WARM@", "0"))
    # fips202.c without PQLAB_KECCAKF1600_NATIVE: pqlab_keccakf1600 is the portable code
    text = firmware.build_and_run(
        platform,
        tmp,
        [src, ROOT / "lib/common/fips202.c", NATIVE / "keccakf1600.S", NATIVE / "keccak_std.c"],
        timeout=900,
    )
    lines = text.replace("\r", "").splitlines()
    assert lines and lines[-1] == "end", text[-500:]
    cases = [ln.split() for ln in lines if ln.startswith("case ")]
    assert len(cases) == 2 + len(range(0, 1600, 97)) + NRANDOM
    for parts in cases:
        idx, inp, nat, port = int(parts[1]), *map(bytes.fromhex, parts[2:5])
        assert nat == port, f"{platform}: case {idx}: native differs from portable"
        assert lanes(nat) == keccak_f(lanes(inp)), f"{platform}: case {idx}: differs from FIPS 202 model"
    assert "chain ok" in lines
    stats = [ln.split() for ln in lines if ln.startswith("stats ")]
    assert len(stats) == 1
    stack, native, portable = map(int, stats[0][1:])
    ct = [ln.split()[1:] for ln in lines if ln.startswith("ct ")]
    assert len(ct) == 1 and len(set(ct[0])) == 1, ct  # same count for every state
    print(f"\n{platform}: {len(cases)} states agree; native {native}, portable {portable}, stack {stack} bytes")
    return lines, stack, native, portable


CONV_FIRMWARE = r"""
#include <stdio.h>
#include <string.h>
#include "pqlab_hal.h"
#include "native/api.h"

static uint32_t rng = 12345u;
static uint32_t next(void) { rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5; return rng; }

int main(void)
{
    static uint8_t in[220], out[220];
    static uint64_t s[25];
    static char b[1000];
    pqlab_hal_setup();
    for (int off = 0; off < 4; off++) {
        for (int i = 0; i < 220; i++) in[i] = (uint8_t)next();
        memset(s, 0, sizeof s);
        memset(out, 0, sizeof out);
        pqlab_keccak_native_xor_il(s, in + off, 21);
        pqlab_keccak_native_xor_il(s, in + off, 0);
        pqlab_keccak_native_extract_il(out + (3 - off), s, 21);
        pqlab_keccak_native_extract_il(out, s, 0);
        int k = snprintf(b, 16, "conv %d ", off);
        for (int i = 0; i < 168; i++) k += snprintf(b + k, 4, "%02x", in[off + i]);
        b[k++] = ' ';
        const uint8_t *p = (const uint8_t *)s;
        for (int i = 0; i < 168; i++) k += snprintf(b + k, 4, "%02x", p[i]);
        k += snprintf(b + k, 16, " %d\n", memcmp(out + (3 - off), in + off, 168) == 0);
        pqlab_hal_send(b, (size_t)k);
    }
    uint64_t t0 = pqlab_hal_cycles();
    pqlab_keccakf1600_native_il(s);
    uint64_t t1 = pqlab_hal_cycles();
    pqlab_keccak_native_xor_il(s, in, 21);
    uint64_t t2 = pqlab_hal_cycles();
    pqlab_keccak_native_extract_il(out, s, 21);
    uint64_t t3 = pqlab_hal_cycles();
    int k = snprintf(b, 96, "timing %llu %llu %llu\n", (unsigned long long)(t1 - t0),
                     (unsigned long long)(t2 - t1), (unsigned long long)(t3 - t2));
    pqlab_hal_send(b, (size_t)k);
    pqlab_hal_send("end\n", 4);
    pqlab_hal_exit(0);
}
"""


def il_model(raw: bytes) -> bytes:
    """lane v -> E | O << 32 (E: even bits of v, O: odd bits), little-endian words"""
    res = b""
    for i in range(0, len(raw), 8):
        v = int.from_bytes(raw[i : i + 8], "little")
        e = sum(((v >> (2 * k)) & 1) << k for k in range(32))
        o = sum(((v >> (2 * k + 1)) & 1) << k for k in range(32))
        res += e.to_bytes(4, "little") + o.to_bytes(4, "little")
    return res


def run_conv(platform: str, tmp: Path) -> tuple[int, int, int]:
    tmp.mkdir(parents=True, exist_ok=True)
    src = tmp / "conv.c"
    src.write_text(CONV_FIRMWARE)
    text = firmware.build_and_run(platform, tmp, [src, NATIVE / "keccakf1600.S"], include=[ROOT / "lib"], timeout=300)
    lines = text.replace("\r", "").splitlines()
    assert lines and lines[-1] == "end", text[-500:]
    conv = [ln.split() for ln in lines if ln.startswith("conv ")]
    assert len(conv) == 4
    for parts in conv:
        raw, st = bytes.fromhex(parts[2]), bytes.fromhex(parts[3])
        assert st == il_model(raw), f"offset {parts[1]}: interleaving differs from the model"
        assert parts[4] == "1", f"offset {parts[1]}: extract(xor(in)) != in"
    timing = [ln.split() for ln in lines if ln.startswith("timing ")]
    perm, xor21, ext21 = map(int, timing[0][1:])
    print(f"\n{platform}: permutation (interleaved) {perm}, xor 21 lanes {xor21}, extract 21 lanes {ext21}")
    return perm, xor21, ext21


def test_lane_conversions_rv32_qemu(tmp_path: Path) -> None:
    perm, _x, _e = run_conv("rv32-qemu", tmp_path)
    assert perm < 13000, perm  # instructions; the portable C takes 15,771


def test_generator_output_is_committed() -> None:
    """keccakf1600.S is exactly what gen_keccakf1600.py writes."""
    res = subprocess.run(["python3", str(NATIVE / "gen_keccakf1600.py")], capture_output=True, check=True, text=True)
    assert res.stdout == (NATIVE / "keccakf1600.S").read_text()


def test_native_keccakf1600_rv32_qemu(tmp_path: Path) -> None:
    # the standard-layout entry converts the whole state twice around the permutation; the
    # Keccak module calls the interleaved one (test_lane_conversions_rv32_qemu times it)
    _lines, stack, _native, _portable = run("rv32-qemu", tmp_path)
    assert stack <= 600, stack


@pytest.mark.slow
def test_native_keccakf1600_cv32e40p(tmp_path: Path) -> None:
    _lines, _stack, _native, portable = run("cv32e40p-nofpu-rtl", tmp_path)
    perm, _x, _e = run_conv("cv32e40p-nofpu-rtl", tmp_path / "conv")
    assert perm < 0.85 * portable, (perm, portable)
