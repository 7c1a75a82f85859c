"""Platforms and runners: every platform builds a harness program from its
platform.toml, runs it under its runner, speaks protocol version 1, exits 0 on
success, reports faults with a '#fault' line and a non-zero exit, has a timer
that advances (and is deterministic and calibrated under -icount), and measures
stack depth within a small tolerance."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "data" / "harness"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import hbuild as H

from pqlab import protocol

PLATFORMS = H.PLATFORMS
BARE_METAL = {"mps2-an386": "hardfault", "mps2-an500": "hardfault", "rv32-qemu": "trap"}
ICOUNT = {"mps2-an386", "mps2-an500", "rv32-qemu"}
TIMERS = {
    "host": ("rdtsc", "cycles"),
    "mps2-an386": ("systick-icount", "instructions"),
    "mps2-an500": ("systick-icount", "instructions"),
    "rv32-qemu": ("minstret", "instructions"),
    "aarch64-qemu": ("clock-monotonic", "ns"),
}
KEYS = {
    "name",
    "description",
    "arch",
    "core",
    "cc",
    "tools_prefix",
    "packages",
    "cflags",
    "ldflags",
    "sources",
    "clock_hz",
    "flash_bytes",
    "ram_bytes",
    "fpr",
    "runner",
    "timer",
}


@pytest.mark.parametrize("plat", PLATFORMS)
def test_platform_toml(plat):
    p = H.platform(plat)
    assert KEYS <= set(p), f"missing keys {KEYS - set(p)}"
    assert p["name"] == plat
    assert p["arch"] in {"armv7e-m", "riscv32", "aarch64", "x86_64"}
    assert p["fpr"] in {"native", "emulated"}
    assert p["runner"]["kind"] in {"native", "qemu-system", "qemu-user"}
    assert "{elf}" in p["runner"]["command"]
    assert p["runner"]["timeout_s"] > 0
    assert (p["timer"]["name"], p["timer"]["unit"]) == TIMERS[plat]
    assert p["timer"]["note"]
    for s in p["sources"]:
        assert (p["dir"] / s).is_file(), s
    for f in p["ldflags"]:
        if f.startswith("-T"):
            assert Path(f[2:].format(platform_dir=p["dir"])).is_file()
    if p["runner"]["kind"] == "qemu-system":
        assert "-icount" in p["runner"]["command"] and "-semihosting" in p["runner"]["command"]


@pytest.mark.parametrize("plat", PLATFORMS)
def test_test_program_runs(plat, tmp_path):
    elf = H.build(plat, "test", H.KEM, "kem")
    r = H.run(plat, elf, tmp_path)
    assert r.rc == 0, (r.cmd, r.stdout, r.stderr)
    body = H.check_protocol(r, "test", TIMERS[plat][0])
    assert r.stdout.rstrip("\n").endswith(f"#end ok {len(body)}")
    assert all(f[1] == "ok" for f in r.records("test"))
    assert len(r.records("test")) >= 10
    out = protocol.parse(r.stdout, "test")  # the host tool's own parser accepts it
    assert out.ok and out.timer == TIMERS[plat][0]


@pytest.mark.parametrize("plat", PLATFORMS)
def test_fault_is_reported(plat, tmp_path):
    elf = H.build(plat, "test", H.KEM, "kem", ["-DDUMMY_CRASH"])
    r = H.run(plat, elf, tmp_path)
    assert r.rc != 0
    assert "#end" not in r.stdout
    assert r.stdout.startswith("#pqlab 1 test ")
    if plat in BARE_METAL:
        faults = [ln for ln in r.lines() if ln.startswith("#fault")]
        assert len(faults) == 1, r.stdout
        assert faults[0].startswith(f"#fault {BARE_METAL[plat]} pc=0x"), faults[0]
        assert r.rc == 3
        if plat != "rv32-qemu":
            assert "bfar=0xf0000000" in faults[0]  # the address the dummy stored to
        else:
            assert "mtval=0xf0000000" in faults[0]
    else:
        assert r.rc == 3
        assert [ln for ln in r.lines() if ln.startswith("#fault")] == ["#fault signal sig=11 addr=0x00000000f0000000"]
    with pytest.raises(protocol.ProtocolError):
        protocol.parse(r.stdout, "test")


@pytest.mark.parametrize("plat", PLATFORMS)
def test_stack_overflow_is_reported(plat, tmp_path):
    """Unbounded recursion: bare metal hits the MPU/PMP guard below the stack and
    reports '#fault stack-overflow' instead of overwriting .bss; hosted programs
    report the SIGSEGV from their alternate signal stack."""
    elf = H.build(plat, "test", H.KEM, "kem", ["-DDUMMY_RECURSE=100000000"])
    r = H.run(plat, elf, tmp_path)
    assert r.rc != 0
    assert "#end" not in r.stdout
    if plat in BARE_METAL:
        faults = [ln for ln in r.lines() if ln.startswith("#fault")]
        assert len(faults) == 1 and faults[0].startswith("#fault stack-overflow pc=0x"), r.stdout
    else:
        faults = [ln for ln in r.lines() if ln.startswith("#fault")]
        assert len(faults) == 1 and faults[0].startswith("#fault signal sig=11 addr=0x"), r.stdout
    assert r.rc == 3


@pytest.mark.parametrize("plat", PLATFORMS)
def test_timer_advances_and_is_deterministic(plat, tmp_path):
    elf = H.build(plat, "speed", H.SIGN, "sign", ["-DPQLAB_ITERATIONS=3"])
    runs = [H.run(plat, elf, tmp_path) for _ in range(2)]
    for r in runs:
        assert r.rc == 0, r.stdout + r.stderr
        H.check_protocol(r, "speed", TIMERS[plat][0])
        speeds = r.records("speed")
        assert [f[0] for f in speeds] == ["keypair", "sign", "verify"] * 3
        assert all(int(f[1]) > 0 for f in speeds)
    if plat in ICOUNT:
        assert runs[0].records("speed") == runs[1].records("speed")


@pytest.mark.parametrize("plat", sorted(ICOUNT))
def test_timer_counts_instructions(plat, tmp_path):
    """Under -icount the timer reports instructions: a loop of 2N instructions
    measures 2N plus the few instructions of the timer reads."""
    n = 1_000_000
    elf = H.build_raw(plat, [H.DATA / "calib.c"], [f"-DCALIB_N={n}"])
    r = H.run(plat, elf, tmp_path)
    assert r.rc == 0, r.stdout + r.stderr
    vals = [int(f[1]) for f in r.records("calib")]
    assert [f[0] for f in r.records("calib")] == [TIMERS[plat][0]] * 2
    granularity = 40 if TIMERS[plat][0] == "systick-icount" else 1
    for k, v in enumerate(vals, 1):
        assert abs(v - 2 * k * n) <= 100 + granularity, (k, v)


@pytest.mark.parametrize("plat", ["host", "aarch64-qemu"])
def test_hosted_timer_advances(plat, tmp_path):
    elf = H.build_raw(plat, [H.DATA / "calib.c"], ["-DCALIB_N=10000000"])
    r = H.run(plat, elf, tmp_path)
    assert r.rc == 0
    vals = [int(f[1]) for f in r.records("calib")]
    assert len(vals) == 2 and all(v > 0 for v in vals)


@pytest.mark.parametrize("plat", PLATFORMS)
@pytest.mark.parametrize("depth", [3000, 20000])
def test_stack_measurement(plat, depth, tmp_path):
    """The dummy's keypair touches the lowest byte of a `depth`-byte local array;
    the measurement must see it, plus at most a small frame overhead."""
    elf = H.build(plat, "stack", H.KEM, "kem", [f"-DDUMMY_STACK_BYTES={depth}"])
    r = H.run(plat, elf, tmp_path)
    assert r.rc == 0, r.stdout + r.stderr
    H.check_protocol(r, "stack")
    st = {f[0]: int(f[1]) for f in r.records("stack")}
    assert set(st) == {"keypair", "encaps", "decaps"}
    assert depth <= st["keypair"] <= depth + 96, st
    assert 0 < st["encaps"] < 1024 and 0 < st["decaps"] < 1024, st


@pytest.mark.parametrize("plat", PLATFORMS)
def test_driver_input(plat, tmp_path):
    """Requests reach the dispatcher through stdin or the semihosting file."""
    elf = H.build(plat, "driver", H.KEM, "kem", extra_sources=[H.DATA / "driver_echo.c"])
    r = H.run(plat, elf, tmp_path, stdin=b"a echo 00ff -\nb rev 010203\nc fail\n")
    assert r.rc == 0, r.stdout + r.stderr
    H.check_protocol(r, "driver")
    assert r.records("drv") == [["a", "ok", "00ff", "-"], ["b", "ok", "030201"], ["c", "fail", "7"]]


@pytest.mark.parametrize("plat", ["mps2-an386", "rv32-qemu"])
def test_driver_missing_input_file(plat, tmp_path):
    elf = H.build(plat, "driver", H.KEM, "kem", extra_sources=[H.DATA / "driver_echo.c"])
    p = H.platform(plat)
    import subprocess

    cmd = [c.format(elf=str(elf)) for c in p["runner"]["command"]]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=60, cwd=tmp_path, check=False)
    assert res.returncode == 1
    assert "info driver-input unreadable" in res.stdout
    assert res.stdout.rstrip().endswith("#end fail 1")


def test_fpu_double_precision_on_an500(tmp_path):
    """an500 is built for FPv5-D16: double-precision instructions run natively
    (an ELF with them faults on the single-precision an386)."""
    src = tmp_path / "dp.c"
    src.write_text(
        '#include "pqlab_hal.h"\n'
        "volatile double x = 1.25, y = 3.0;\n"
        'int main(void) { pqlab_hal_setup(); double z = x * y; pqlab_hal_send(z == 3.75 ? "ok\\n" : "bad\\n", z == 3.75 ? 3 : 4);'
        " return 0; }\n"
    )
    elf = H.build_raw("mps2-an500", [src])
    objdump = H.platform("mps2-an500")["tools_prefix"] + "objdump"
    import subprocess

    dis = subprocess.run([objdump, "-d", str(elf)], capture_output=True, text=True, check=False).stdout
    assert "vmul.f64" in dis
    r = H.run("mps2-an500", elf, tmp_path)
    assert r.rc == 0 and r.stdout == "ok\n", r.stdout + r.stderr


# ---- the ARMv7-M HAL on pqlab-sim: the DWT path (QEMU has no DWT) ----


@pytest.fixture(scope="module")
def simulator() -> Path:
    """pqlab-sim, built with cargo when missing (sim/ is the simulator's crate)."""
    import subprocess

    exe = H.ROOT / "sim" / "target" / "release" / "pqlab-sim"
    r = subprocess.run(
        ["cargo", "build", "--release", "--quiet"],
        cwd=H.ROOT / "sim",
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert r.returncode == 0, r.stderr
    assert exe.is_file()
    return exe


def _sim(simulator: Path, elf: Path, tmp_path: Path) -> H.Run:
    import subprocess

    cmd = [str(simulator), "--machine", "mps2-an386", str(elf)]
    res = subprocess.run(cmd, capture_output=True, timeout=300, cwd=tmp_path, check=False)
    return H.Run(res.returncode, res.stdout.decode(errors="replace"), res.stderr.decode(errors="replace"), cmd)


def test_armv7m_hal_on_simulator(simulator, tmp_path):
    """The same mps2-an386 binaries on pqlab-sim: DWT is detected and counts
    cycles (deterministically), stack measurement and fault reporting work."""
    elf = H.build("mps2-an386", "speed", H.KEM, "kem", ["-DPQLAB_ITERATIONS=2"])
    a, b = _sim(simulator, elf, tmp_path), _sim(simulator, elf, tmp_path)
    assert a.rc == 0, a.stdout + a.stderr
    H.check_protocol(a, "speed", "dwt")
    assert a.records("speed") == b.records("speed")
    n = 200_000
    cal = _sim(simulator, H.build_raw("mps2-an386", [H.DATA / "calib.c"], [f"-DCALIB_N={n}"]), tmp_path)
    vals = [int(f[1]) for f in cal.records("calib")]
    assert [f[0] for f in cal.records("calib")] == ["dwt", "dwt"]
    for k, v in enumerate(vals, 1):
        assert 2 * k * n <= v <= 6 * k * n, (k, v)  # subs (1 cycle) + taken bne (2..4 cycles)
    st = _sim(simulator, H.build("mps2-an386", "stack", H.KEM, "kem", ["-DDUMMY_STACK_BYTES=3000"]), tmp_path)
    assert st.rc == 0
    assert 3000 <= {f[0]: int(f[1]) for f in st.records("stack")}["keypair"] <= 3096
    crash = _sim(simulator, H.build("mps2-an386", "test", H.KEM, "kem", ["-DDUMMY_CRASH"]), tmp_path)
    # pqlab-sim stops at the fault itself (it does not enter the firmware's handler)
    assert crash.rc != 0 and "#end" not in crash.stdout
    assert "HardFault" in crash.stderr or any(ln.startswith("#fault ") for ln in crash.lines()), crash.stderr
