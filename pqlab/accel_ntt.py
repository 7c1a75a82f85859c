"""Software model of the NTT unit (hw/accel/ntt/ntt_unit.sv, docs/accel.md "NTT unit").

The unit works on canonical residues in [0, q) for three moduli:

- ML-KEM (FIPS 203): q = 3329, zeta = 17 (a primitive 256-th root), the 7-layer incomplete
  NTT (Algorithm 9) and the base multiplication of degree-1 pairs (Algorithms 11, 12);
- ML-DSA (FIPS 204): q = 8380417, zeta = 1753 (a primitive 512-th root), the full 8-layer
  NTT (Algorithm 41);
- FN-DSA (Falcon): q = 12289, psi a primitive 2048-th root (the one of lib/fndsa/gen_tables.py),
  the full negacyclic NTT of n = 2^logn (logn 1..10) in bit-reversed order, as lib/fndsa/modq.c.

Twiddles: table T of the mode (N entries: 128, 256, 1024) with T[k] = root^brv(k) (root of order
2N, brv on log2 N bits). A forward layer with half-size `len` uses T[n / (2 len) + b] for block
b (Cooley-Tukey); the inverse uses the inverses of the same entries (Gentleman-Sande) and
multiplies the last layer's outputs by the SCALE register. Pointwise products are multiplied
by SCALE as well, so the Montgomery factors of the C kernels (2^-32, 2^16, ...) are one
register write. The RTL's twiddle ROM, hw/accel/ntt/ntt_zetas.sv, is written by `write_sv`
(`python -m pqlab.accel_ntt` regenerates it; a test checks that the committed one is current).
"""

from __future__ import annotations

import fcntl
import hashlib
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from . import PqlabError

HW_DIR = Path(__file__).resolve().parent.parent / "hw" / "accel" / "ntt"


@dataclass(frozen=True)
class Mode:
    sel: int  # the MODE register's modulus field
    name: str
    q: int
    root: int  # primitive 2N-th root of unity
    table: int  # N, entries of the twiddle table
    offset: int  # first entry in the unit's twiddle ROM
    min_len: int  # smallest butterfly half-size (2: ML-KEM's incomplete NTT)


def _falcon_psi(q: int = 12289) -> int:
    g = next(a for a in range(2, q) if all(pow(a, (q - 1) // p, q) != 1 for p in (2, 3)))
    return pow(g, (q - 1) // 2048, q)


MLKEM = Mode(0, "ml-kem", 3329, 17, 128, 0, 2)
MLDSA = Mode(1, "ml-dsa", 8380417, 1753, 256, 128, 1)
FNDSA = Mode(2, "fn-dsa", 12289, _falcon_psi(), 1024, 384, 1)
MODES = (MLKEM, MLDSA, FNDSA)
ROM_WORDS = 2048  # 128 + 256 + 1024 = 1408 used

# operations (CTRL register)
OP_NTT, OP_INTT, OP_PWM, OP_BASEMUL = 1, 2, 3, 4
OP_ON_B = 8  # NTT / INTT on memory B instead of A


def brv(k: int, bits: int) -> int:
    return int(format(k, f"0{bits}b")[::-1], 2) if bits else 0


def zetas(m: Mode) -> list[int]:
    bits = m.table.bit_length() - 1
    return [pow(m.root, brv(k, bits), m.q) for k in range(m.table)]


def check_roots() -> None:
    for m in MODES:
        if pow(m.root, m.table, m.q) != m.q - 1:
            raise ValueError(f"{m.name}: {m.root} is not a primitive {2 * m.table}-th root mod {m.q}")


def n_of(m: Mode, logn: int) -> int:
    if m is FNDSA:
        if not 1 <= logn <= 10:
            raise ValueError(f"fn-dsa: logn {logn} outside 1..10")
        return 1 << logn
    return 256


def ntt(m: Mode, a: list[int], logn: int = 8) -> list[int]:
    n, q, z = n_of(m, logn), m.q, zetas(m)
    a = [x % q for x in a[:n]]
    length = n // 2
    while length >= m.min_len:
        base = n // (2 * length)
        for b in range(base):
            w = z[base + b]
            for j in range(2 * length * b, 2 * length * b + length):
                t = w * a[j + length] % q
                a[j + length] = (a[j] - t) % q
                a[j] = (a[j] + t) % q
        length //= 2
    return a


def intt(m: Mode, a: list[int], scale: int, logn: int = 8) -> list[int]:
    """ntt()'s exact inverse times 2^layers times scale (the unit does not divide by 2^layers
    itself: SCALE carries that factor with any Montgomery factor the caller wants)."""
    n, q, z = n_of(m, logn), m.q, zetas(m)
    a = [x % q for x in a[:n]]
    length = m.min_len
    while length <= n // 2:
        base = n // (2 * length)
        last = length == n // 2
        for b in range(base):
            w = pow(z[base + b], q - 2, q)
            for j in range(2 * length * b, 2 * length * b + length):
                x0, x1 = a[j], a[j + length]
                y0, y1 = (x0 + x1) % q, (x0 - x1) * w % q
                if last:
                    y0, y1 = y0 * scale % q, y1 * scale % q
                a[j], a[j + length] = y0, y1
        length *= 2
    return a


def pwm(m: Mode, a: list[int], b: list[int], scale: int, logn: int = 8) -> list[int]:
    n, q = n_of(m, logn), m.q
    return [a[i] * b[i] % q * scale % q for i in range(n)]


def basemul(a: list[int], b: list[int], scale: int) -> list[int]:
    q, z = MLKEM.q, zetas(MLKEM)
    out = [0] * 256
    for i in range(128):
        g = z[64 + i // 2] if i % 2 == 0 else q - z[64 + i // 2]
        a0, a1, b0, b1 = a[2 * i], a[2 * i + 1], b[2 * i], b[2 * i + 1]
        out[2 * i] = (a0 * b0 + a1 * b1 % q * g) % q * scale % q
        out[2 * i + 1] = (a0 * b1 + a1 * b0) % q * scale % q
    return out


def layers(m: Mode, logn: int = 8) -> int:
    n = n_of(m, logn)
    return (n // (2 * m.min_len)).bit_length()


PIPE_DW = 5  # ntt_unit.sv's DW: cycles from a step's issue to its write (1 read + 4 the product)
BM_STEPS = 5  # steps per ML-KEM pair: a1 b1, a0 b1, a1 b0, a0 b0, (a1 b1) zeta on one multiplier


def layer_gap(n: int) -> int:
    """Idle issue cycles between two layers (ntt_unit.sv): a layer's step p needs the previous
    layer's steps up to p + n/4, written PIPE_DW cycles after their issue."""
    return max(0, PIPE_DW + 1 - n // 4)


def scale_gap(op: int, n: int) -> int:
    """Idle issue cycles before the scale pass (ntt_unit.sv's gap_s): its step p reads the word
    the product pass's step p (pointwise) or the inverse's last-layer step p mod n/2 wrote."""
    kind = op & 7
    if kind == OP_INTT:
        return max(0, PIPE_DW + 1 - n // 2)
    if kind == OP_PWM:
        return max(0, PIPE_DW + 1 - n)
    return 0


def op_cycles(m: Mode, op: int, logn: int = 8) -> int:
    """Busy cycles of one operation (the RTL's pipeline on its one multiplier: one butterfly,
    one product or one scaled word issued per cycle, five steps per base-multiplication pair,
    the gaps between layers of small transforms and before the scale pass, then PIPE_DW
    cycles until the last step's write). The inverse NTT, the pointwise product and the base
    multiplication end with a scale pass (every word times SCALE, n steps)."""
    n = n_of(m, logn)
    kind = op & 7
    if kind == OP_NTT:
        k = layers(m, logn)
        return k * (n // 2) + (k - 1) * layer_gap(n) + PIPE_DW
    if kind == OP_INTT:
        k = layers(m, logn)
        return k * (n // 2) + (k - 1) * layer_gap(n) + scale_gap(op, n) + n + PIPE_DW
    if kind == OP_PWM:
        return n + scale_gap(op, n) + n + PIPE_DW
    if kind == OP_BASEMUL:
        if m is not MLKEM:
            raise ValueError("basemul is ML-KEM's")
        return BM_STEPS * 128 + 256 + PIPE_DW
    raise ValueError(f"unknown operation {op}")


BARRETT_K = {MLKEM.q: 12, MLDSA.q: 23, FNDSA.q: 14}  # bits of q


def mulmod_hw(a: int, b: int, q: int) -> int:
    """ntt_unit.sv's ntt_mulmod / ntt_barrett3 on 24-bit words, step by step: Barrett's reduction
    (HAC Algorithm 14.42, b = 2, k = K bits of q) of p = a b with a K+1-bit quotient estimate, a
    K+2-bit remainder and at most two subtractions of q. Equal to a b mod q for a, b < q (and for
    every p < 2^(2K)); for words >= q (left by another mode) it is what the hardware computes.
    Since h82 ML-DSA uses the same steps (K = 23) instead of its special-form folds."""
    k = BARRETT_K[q]
    mu = (1 << (2 * k)) // q
    p = (a & 0xFFFFFF) * (b & 0xFFFFFF)
    q1 = (p >> (k - 1)) & ((1 << (k + 1)) - 1)
    q3 = (q1 * mu) >> (k + 1)
    r = (p - q3 * q) & ((1 << (k + 2)) - 1)
    for _ in range(2):
        if r >= q:
            r -= q
    return r & 0xFFFFFF


def rom(inverse: bool) -> list[int]:
    words = [0] * ROM_WORDS
    for m in MODES:
        for k, v in enumerate(zetas(m)):
            words[m.offset + k] = pow(v, m.q - 2, m.q) if inverse else v
    return words


def rom_sv() -> str:
    """hw/accel/ntt/ntt_zetas.sv: the twiddle ROM as a combinational module (a case table), one
    24-bit word per address: T[idx] at idx, T[idx]^-1 at 2048 + idx (since h82 one output, the
    inverse chosen by the address's top bit, instead of two)."""
    fwd, inv = rom(False), rom(True)
    used = [i for i in range(ROM_WORDS) if fwd[i]]
    lines = [
        "// SPDX-License-Identifier: MIT",
        "// Generated by pqlab/accel_ntt.py (python -m pqlab.accel_ntt); do not edit.",
        "// Twiddle ROM of the NTT unit: w = T[idx] at idx, T[idx]^-1 mod q at 2048 + idx, where T",
        "// holds the ML-KEM table (entries 0-127: 17^brv7(k) mod 3329), the ML-DSA table (128-383:",
        "// 1753^brv8(k) mod 8380417) and the FN-DSA table (384-1407: psi^brv10(k) mod 12289,",
        f"// psi = {FNDSA.root}).",
        "module ntt_zetas (",
        "    input logic [11:0] idx_i,",
        "    output logic [23:0] w_o",
        ");",
        "  always_comb begin",
        "    unique case (idx_i)",
    ]
    for i in used:
        lines.append(f"      12'd{i}: w_o = 24'd{fwd[i]};")
    for i in used:
        lines.append(f"      12'd{ROM_WORDS + i}: w_o = 24'd{inv[i]};")
    lines += [
        "      default: w_o = 24'd0;",
        "    endcase",
        "  end",
        "endmodule",
        "",
    ]
    return "\n".join(lines)


def sv_path() -> Path:
    return HW_DIR / "ntt_zetas.sv"


def write_sv() -> None:
    check_roots()
    sv_path().write_text(rom_sv())


UNIT_SOURCES = ("ntt_unit.sv", "ntt_zetas.sv", "tb_ntt.cpp")


def unit_tb(jobs: int = 1) -> Path:
    """The unit test bench (ntt_unit.sv alone, driven by tb_ntt.cpp), built with Verilator once
    and cached under the RTL cache (pqlab/rtl.py's) keyed by its sources and Verilator's version."""
    from . import rtl

    files = [HW_DIR / f for f in UNIT_SOURCES]
    h = hashlib.sha256(rtl.verilator_version().encode())
    for f in files:
        h.update(f.name.encode() + b"\0" + f.read_bytes())
    root = rtl.cache_root()
    final = root / f"ntt-unit-{h.hexdigest()[:16]}"
    exe = final / "tb_ntt"
    if exe.is_file():
        return exe
    root.mkdir(parents=True, exist_ok=True)
    with open(root / ".ntt-unit.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if exe.is_file():
            return exe
        tmp = Path(tempfile.mkdtemp(prefix=".ntt-unit-", dir=root))
        try:
            cmd = ["verilator", "--cc", "--exe", "--build", "-j", str(jobs), "-O3", "--top-module", "ntt_unit"]
            cmd += ["-Mdir", str(tmp / "obj"), "-o", str((tmp / "tb_ntt").resolve()), "-Wno-fatal"]
            cmd += [str(f) for f in files]
            r = subprocess.run(cmd, capture_output=True, text=True)
            (tmp / "build.log").write_text(f"$ {' '.join(cmd)}\n{r.stdout}\n{r.stderr}")
            if r.returncode != 0 or not (tmp / "tb_ntt").is_file():
                raise PqlabError(f"building the NTT unit test bench failed:\n{r.stderr[-3000:]}")
            shutil.rmtree(tmp / "obj", ignore_errors=True)
            if final.exists():
                shutil.rmtree(final)
            tmp.rename(final)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    return exe


# register offsets
MODE, CTRL, STATUS, WAIT, SCALE, CYCLES = 0x0, 0x4, 0x8, 0xC, 0x10, 0x14
WIN_A, WIN_A_CENTRED, WIN_B = 0x1000, 0x2000, 0x3000


def mode_word(m: Mode, logn: int = 8) -> int:
    return m.sel | ((logn if m is FNDSA else 0) << 8)


if __name__ == "__main__":
    write_sv()
    print(f"wrote {sv_path()}", file=sys.stderr)
