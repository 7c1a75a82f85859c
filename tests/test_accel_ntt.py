"""The NTT unit (hw/accel/ntt/ntt_unit.sv) alone in its Verilator unit test bench
(hw/accel/ntt/tb_ntt.cpp) against the software model pqlab/accel_ntt.py: forward NTT, inverse
NTT and pointwise products for ML-KEM (with the base multiplication), ML-DSA and FN-DSA
(n = 512, 1024 and a small n), on random inputs and inputs at the edges of the int32 write
window; the busy cycles of every operation; the refusals (err_o). The model itself is checked
against FIPS 203's Python model (tests/mlkem/model.py) and against schoolbook negacyclic
products. The committed twiddle ROM must be the generator's output."""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pqlab import accel_ntt as A

sys.path.insert(0, str(Path(__file__).resolve().parent / "mlkem"))
import model  # noqa: E402

pytestmark = pytest.mark.skipif(shutil.which("verilator") is None, reason="verilator not installed")


@pytest.fixture(scope="module")
def tb() -> Path:
    return A.unit_tb(jobs=1)


def run(tb: Path, script: list[str]) -> list[str]:
    r = subprocess.run([str(tb)], input="\n".join(script) + "\n", capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr + r.stdout
    return r.stdout.split()


def load(addr: int, vals: list[int]) -> list[str]:
    return [f"W {addr + 4 * i:#x} {v & 0xFFFFFFFF:#x}" for i, v in enumerate(vals)]


def read(addr: int, n: int) -> list[str]:
    return [f"R {addr + 4 * i:#x}" for i in range(n)]


def test_mulmod_hw_is_exact_for_canonical_inputs() -> None:
    """The RTL's Barrett reducers (mulmod_hw, step by step) give a b mod q for a, b < q: every
    pair (every seventh b) for q = 3329, random pairs and the edges for the others."""
    q = A.MLKEM.q
    for a in range(q):
        for b in range(0, q, 7):
            assert A.mulmod_hw(a, b, q) == a * b % q
    rng = random.Random(3)
    for m in (A.MLDSA, A.FNDSA):
        q = m.q
        pairs = [(a, b) for a in (0, 1, q - 1, q // 2) for b in (0, 1, q - 1, q // 2)]
        pairs += [(rng.randrange(q), rng.randrange(q)) for _ in range(20000)]
        assert all(A.mulmod_hw(a, b, q) == a * b % q for a, b in pairs)


def test_rom_is_current() -> None:
    assert A.sv_path().read_text() == A.rom_sv(), "run python -m pqlab.accel_ntt"


def test_model_against_fips203_and_schoolbook() -> None:
    rng = random.Random(1)
    q = 3329
    f = [rng.randrange(q) for _ in range(256)]
    g = [rng.randrange(q) for _ in range(256)]
    assert A.ntt(A.MLKEM, f) == model.ntt(f)
    assert A.intt(A.MLKEM, f, pow(128, -1, q)) == model.invntt(f)
    assert A.basemul(f, g, 1) == model.multiply_ntts(f, g)
    for m, logn in ((A.MLDSA, 8), (A.FNDSA, 9), (A.FNDSA, 4)):
        n, q = A.n_of(m, logn), m.q
        a = [rng.randrange(q) for _ in range(n)]
        b = [rng.randrange(q) for _ in range(n)]
        c = [0] * n
        for i in range(n):
            for j in range(n):
                c[(i + j) % n] += a[i] * b[j] * (-1 if i + j >= n else 1)
        p = A.pwm(m, A.ntt(m, a, logn), A.ntt(m, b, logn), 1, logn)
        assert A.intt(m, p, pow(n, -1, q), logn) == [x % q for x in c]


# FN-DSA n = 2 .. 32 have gaps between layers (the pipeline's write latency, layer_gap)
CASES = [
    (A.MLKEM, 8),
    (A.MLDSA, 8),
    (A.FNDSA, 9),
    (A.FNDSA, 10),
    (A.FNDSA, 6),
    (A.FNDSA, 5),
    (A.FNDSA, 4),
    (A.FNDSA, 3),
    (A.FNDSA, 2),
    (A.FNDSA, 1),
]


@pytest.mark.parametrize("m,logn", CASES, ids=[f"{m.name}-{logn}" for m, logn in CASES])
def test_unit_against_model(tb: Path, m: A.Mode, logn: int) -> None:
    rng = random.Random(logn * 7 + m.sel)
    n, q = A.n_of(m, logn), m.q
    # int32 inputs (reduced on the write), edges included
    a = [rng.randrange(-(2**31), 2**31) for _ in range(n)]
    a[0], a[1 % n] = -(2**31), 2**31 - 1
    b = [rng.randrange(-q, q) for _ in range(n)]
    s1 = rng.randrange(1, q)
    s2 = rng.randrange(1, q)
    script = [f"W {A.MODE:#x} {A.mode_word(m, logn):#x}", f"W {A.SCALE:#x} {s1}"]
    script += load(A.WIN_A, a) + load(A.WIN_B, b)
    script += read(A.WIN_A, n)  # reduced on the write
    script += [f"W {A.CTRL:#x} {A.OP_NTT}", "T", f"R {A.CYCLES:#x}"] + read(A.WIN_A, n)
    script += [f"W {A.CTRL:#x} {A.OP_NTT | A.OP_ON_B}", "T"] + read(A.WIN_B, n)
    op = A.OP_BASEMUL if m is A.MLKEM else A.OP_PWM
    script += [f"W {A.CTRL:#x} {op}", "T"] + read(A.WIN_A, n)
    script += [f"W {A.SCALE:#x} {s2}", f"W {A.CTRL:#x} {A.OP_INTT}", "T"] + read(A.WIN_A, n) + read(A.WIN_A_CENTRED, n)
    script += [f"W {A.CTRL:#x} {A.OP_INTT | A.OP_ON_B}", "T"] + read(A.WIN_B, n)
    out = run(tb, script)
    ints = [int(x) for x in out]
    k = 0

    def take(cnt: int) -> list[int]:
        nonlocal k
        k += cnt
        return ints[k - cnt : k]

    ar = [x % q for x in a]
    assert take(n) == ar
    assert take(1) == [A.op_cycles(m, A.OP_NTT, logn)]
    assert take(1) == [A.op_cycles(m, A.OP_NTT, logn)]
    fa = A.ntt(m, ar, logn)
    assert take(n) == fa
    assert take(1) == [A.op_cycles(m, A.OP_NTT, logn)]
    fb = A.ntt(m, [x % q for x in b], logn)
    assert take(n) == fb
    assert take(1) == [A.op_cycles(m, op, logn)]
    prod = A.basemul(fa, fb, s1) if m is A.MLKEM else A.pwm(m, fa, fb, s1, logn)
    assert take(n) == prod
    assert take(1) == [A.op_cycles(m, A.OP_INTT, logn)]
    back = A.intt(m, prod, s2, logn)
    assert take(n) == back
    assert [v - 2**32 if v >= 2**31 else v for v in take(n)] == [v - q if v > q // 2 else v for v in back]
    assert take(1) == [A.op_cycles(m, A.OP_INTT, logn)]
    assert take(n) == A.intt(m, fb, s2, logn)
    assert k == len(ints)


def test_unit_refusals(tb: Path) -> None:
    script = [
        f"W {A.MODE:#x} 1",
        f"W {A.CTRL:#x} {A.OP_BASEMUL}",  # base multiplication outside ML-KEM
        f"W {A.CTRL:#x} 7",  # unknown operation
        f"W {A.CTRL:#x} {A.OP_PWM | A.OP_ON_B}",  # pointwise has no B variant
        "R 0x18",  # unknown register
        f"W {A.MODE:#x} 2",  # FN-DSA with logn 0
        f"W {A.CTRL:#x} {A.OP_NTT}",
        f"W {A.MODE:#x} {A.mode_word(A.MLDSA)}",
        f"W {A.CTRL:#x} {A.OP_NTT}",
        f"R {A.STATUS:#x}",  # busy
        f"R {A.WIN_A:#x}",  # memory while busy
        f"W {A.WIN_B:#x} 5",
        f"W {A.CTRL:#x} {A.OP_NTT}",  # CTRL while busy
        f"W {A.SCALE:#x} 5",
        "T",
        f"R {A.STATUS:#x}",
    ]
    assert run(tb, script) == [
        "E",
        "E",
        "E",
        "E",
        "E",
        "1",
        "E",
        "E",
        "E",
        "E",
        str(A.op_cycles(A.MLDSA, A.OP_NTT) - 5),
        "0",
    ]  # 5 cycles of refused requests
