"""The NTT unit as a device of the CV32E40P machine: tests/accel/ntt_bench.c (the unit's
operations through its windows for every modulus, timed bus sequences, one call of every kernel
of lib/native/rv32ntt/ntt_acc.c) on cv32e40p-acc-sim against the software model
(pqlab/accel_ntt.py), and (slow: builds the Verilated core with the unit) the same ELF on
cv32e40p-acc-rtl: every line, cycles included, must be equal. Every access to the unit while it is busy waits (the slots'
rule, docs/accel.md); a partial-word access is a bus fault."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import firmware
import pytest
from hostlib import ROOT

from pqlab import accel_ntt as A

SRC = ROOT / "tests" / "accel" / "ntt_bench.c"
NATIVE = ROOT / "lib" / "native"


def run(platform: str, tmp: Path) -> list[str]:
    out = firmware.build_and_run(
        platform,
        tmp,
        [SRC, NATIVE / "rv32ntt" / "ntt_acc.c"],
        include=[NATIVE / "rv32ntt", NATIVE],
        timeout=3000,
    )
    lines = out.replace("\r", "").splitlines()
    assert lines and lines[-1] == "end", out[-800:]
    return lines


def fault(platform: str, tmp: Path) -> str:
    plat = firmware.get_platform(platform)
    elf = firmware.build(
        platform,
        tmp / "build",
        [SRC, NATIVE / "rv32ntt" / "ntt_acc.c"],
        include=[NATIVE / "rv32ntt", NATIVE],
        cflags=["-DNTT_BENCH_FAULT=5"],
    )
    r = subprocess.run(firmware.runner_command(plat, Path(elf)), capture_output=True, text=True, timeout=600)
    assert r.returncode != 0, r.stdout
    return r.stdout


def check_against_model(lines: list[str]) -> dict[str, int]:
    ins: dict[str, list[list[int]]] = {}
    outs: dict[str, list[list[int]]] = {}
    cyc: dict[str, int] = {}
    for ln in lines[:-1]:
        kind, tag, *vals = ln.split()
        v = [int(x) for x in vals]
        if kind == "in":
            ins.setdefault(tag, []).append(v)
        elif kind == "out":
            outs.setdefault(tag, []).append(v)
        else:
            cyc[tag] = v[0]
    cases = {
        "kem": (A.MLKEM, 8, 1234, "kem"),
        "dsa": (A.MLDSA, 8, 4567890, "pw"),
        "fn9": (A.FNDSA, 9, 777, "pw"),
        "fn10": (A.FNDSA, 10, 12288, "ntt_b"),
        "fn2": (A.FNDSA, 2, 5, "pw"),
    }
    for tag, (m, logn, scale, seq) in cases.items():
        q = m.q
        a = [x % q for x in ins[tag][0]]
        b = [x % q for x in ins[tag][1]]
        s = scale % q
        a, b = A.ntt(m, a, logn), A.ntt(m, b, logn)
        if seq == "kem":
            a = A.intt(m, A.basemul(a, b, s), s, logn)
        elif seq == "pw":
            a = A.intt(m, A.pwm(m, a, b, s, logn), s, logn)
            b = A.intt(m, b, s, logn)
        assert outs[tag][0] == a, tag
        assert [x - 2**32 if x >= 2**31 else x for x in outs[tag][1]] == [x - q if x > q // 2 else x for x in a]
        assert outs[tag][2] == b, tag
    return cyc


def test_sim_against_model(tmp_path: Path) -> None:
    cyc = check_against_model(run("cv32e40p-acc-sim", tmp_path))
    d = A.op_cycles(A.MLDSA, A.OP_NTT)
    # WAIT right after the start: the operation's cycles and the few instructions around it
    assert d <= cyc["wait0"] < d + 16
    assert cyc["wait0"] == cyc["wait100"]  # the wait absorbs a shorter delay loop
    # a delay loop longer than the operation leaves nothing to wait for: the loop's cycles alone
    # (4 per iteration: addi, taken bnez)
    assert cyc["wait400"] - cyc["wait300"] == 4 * 100
    assert cyc["wait300"] > cyc["wait0"]
    # the same timed sequence around operations of other lengths: the difference is the model's
    # busy cycles (ML-KEM's base multiplication: two issue cycles per pair)
    kem = A.MLKEM
    assert cyc["kem-basemul"] - cyc["kem-ntt"] == A.op_cycles(kem, A.OP_BASEMUL) - A.op_cycles(kem, A.OP_NTT)
    assert cyc["stale-bm"] == cyc["kem-basemul"]
    # every access while busy waits (the slots' one timing rule): the first STATUS load is
    # held until the end and reads idle, CYCLES read "while busy" gives the finished count
    # (both run in FN-DSA's mode, n = 512)
    d9 = A.op_cycles(A.FNDSA, A.OP_NTT, 9)
    assert cyc["polls"] == 1 and d9 <= cyc["poll"] < d9 + 16
    assert cyc["hazard-cycles-reg"] == d9
    # a memory load, a MODE store, a STATUS load right after the start: held as WAIT is
    for k in ("held-load", "held-mode", "held-status"):
        assert d < cyc[k] <= cyc["held-jump"], k
    assert cyc["held-status-value"] == 0 and cyc["held-jump-value"] == 0
    # the held load returns the finished operation's result
    assert cyc["held-load-value"] == A.ntt(A.MLDSA, list(range(256)), 8)[5]
    # the write pipeline (h71): an access right after a store of A or SCALE waits until the
    # word is stored and reads x mod q; a second store is not held; CTRL after a store is
    pvals = (-5, 2**31 - 1, -(2**31))
    for mi, m in enumerate((A.MLKEM, A.MLDSA, A.FNDSA)):
        for k in range(5):
            assert cyc[f"posted{mi}-{k}-value"] == pvals[(mi + k) % 3] % m.q, (mi, k)
        assert cyc[f"posted{mi}-1"] == cyc[f"posted{mi}-0"] + 1
        assert cyc[f"posted{mi}-3"] == cyc[f"posted{mi}-0"]  # two nops instead of two held cycles
        assert cyc[f"posted{mi}-2"] == cyc[f"posted{mi}-0"]
    print("\ncv32e40p-acc-sim:", " ".join(f"{k}={v}" for k, v in cyc.items()))


def test_sim_partial_access_is_a_bus_fault(tmp_path: Path) -> None:
    out = fault("cv32e40p-acc-sim", tmp_path)
    assert re.search(r"#fault bus pc=0x[0-9a-f]+ addr=0x10011014", out), out
    assert "not refused" not in out


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("verilator") is None, reason="verilator not installed")
def test_rtl_equals_sim(tmp_path: Path) -> None:
    sim = run("cv32e40p-acc-sim", tmp_path / "sim")
    rtl = run("cv32e40p-acc-rtl", tmp_path / "rtl")
    check_against_model(rtl)
    diff = [(a, b) for a, b in zip(sim, rtl, strict=True) if a != b]
    assert not diff, "\n".join(f"sim: {a[:200]}\nrtl: {b[:200]}" for a, b in diff[:10])
    assert (
        fault("cv32e40p-acc-rtl", tmp_path / "frtl").split("#fault")[1]
        == fault("cv32e40p-acc-sim", tmp_path / "fsim").split("#fault")[1]
    )
    print("\ncycles (RTL = sim):", " ".join(ln.split(" ", 1)[1] for ln in rtl if ln.startswith("cyc ")))
