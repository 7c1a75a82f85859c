"""FN-DSA (lib/fndsa) builds warning-free on every target compiler and exports only
namespaced symbols.

Every source is compiled with -Wall -Wextra -Werror for the host, Cortex-M4
(arm-none-eabi, emulated fpr), Cortex-M7 with FPv5-D16 (native fpr), RV32IMC
(riscv64-unknown-elf -march=rv32imc) and AArch64 (native fpr); `nm` on the objects
must show no global symbol without the pqlab_ prefix. The native build must not
call the compiler runtime's double->integer conversions (__aeabi_d2lz and friends,
which are not constant time).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from hostlib import ROOT

SRCS = sorted((ROOT / "lib" / "fndsa").glob("*.c"))
META = ['-DPQLAB_NATIVE_META_HEADER="armv7em/meta.h"', f"-I{ROOT / 'lib' / 'native' / 'armv7em'}"]
WARN = ["-std=c11", "-Wall", "-Wextra", "-Werror", "-O2", "-ffp-contract=off"]
TARGETS = {
    "host": (["gcc"], [], "nm"),
    "m4": (["arm-none-eabi-gcc"], ["-mcpu=cortex-m4", "-mthumb"], "arm-none-eabi-nm"),
    # the armv7em backend's meta header (lib/native/api.h): fpr add/mul as inline assembly,
    # of/div/sqrt from fpr_emu.S, the key generation kernels
    "m4-asm": (
        ["arm-none-eabi-gcc"],
        ["-mcpu=cortex-m4", "-mthumb", *META],
        "arm-none-eabi-nm",
    ),
    # the same with add/mul as calls to fpr_emu.S (PQLAB_FNDSA_FPR_EMU_NO_INLINE: smaller code)
    "m4-asm-calls": (
        ["arm-none-eabi-gcc"],
        ["-mcpu=cortex-m4", "-mthumb", *META, "-DPQLAB_FNDSA_FPR_EMU_NO_INLINE"],
        "arm-none-eabi-nm",
    ),
    "m7-fpu": (
        ["arm-none-eabi-gcc"],
        ["-mcpu=cortex-m7", "-mthumb", "-mfpu=fpv5-d16", "-mfloat-abi=hard"],
        "arm-none-eabi-nm",
    ),
    "rv32": (
        ["riscv64-unknown-elf-gcc"],
        ["--specs=picolibc.specs", "-misa-spec=2.2", "-march=rv32imc", "-mabi=ilp32"],
        "riscv64-unknown-elf-nm",
    ),
    "aarch64": (["aarch64-linux-gnu-gcc"], [], "aarch64-linux-gnu-nm"),
}
NATIVE = {
    "host": True,
    "m4": False,
    "m4-asm": False,
    "m4-asm-calls": False,
    "m7-fpu": True,
    "rv32": False,
    "aarch64": True,
}


def compile_all(target: str, logn: int, native: bool, tmp: Path) -> list[Path]:
    cc, arch, _ = TARGETS[target]
    if shutil.which(cc[0]) is None:
        pytest.fail(f"{cc[0]} not installed")
    ns = f"pqlab_fndsa{1 << logn}_{'fpu' if native else 'ref'}_"
    flags = [f"-DPQLAB_FNDSA_LOGN={logn}", f"-DPQLAB_NS={ns}"]
    if native:
        flags += ["-DPQLAB_FNDSA_FPR_NATIVE", "-fno-math-errno"]
    jobs = []
    for src in SRCS:
        obj = tmp / f"{target}-{logn}-{int(native)}-{src.stem}.o"
        cmd = (
            cc
            + arch
            + WARN
            + flags
            + [f"-I{ROOT / 'lib/common'}", f"-I{ROOT / 'lib/fndsa'}", "-c", str(src), "-o", str(obj)]
        )
        jobs.append((obj, cmd, subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)))
    objs = []
    for obj, cmd, p in jobs:
        _, err = p.communicate()
        assert p.returncode == 0, f"{' '.join(cmd)}\n{err}"
        objs.append(obj)
    return objs


@pytest.mark.parametrize("target", list(TARGETS))
def test_build_and_namespace(target: str, tmp_path: Path) -> None:
    nm = TARGETS[target][2]
    # one degree is enough for symbols and warnings on cross targets; both on the host
    for logn in (9, 10) if target == "host" else (9,):
        for native in sorted({False, NATIVE[target]}):
            objs = compile_all(target, logn, native, tmp_path)
            out = subprocess.run([nm, "-g", *map(str, objs)], capture_output=True, text=True, check=True).stdout
            bad, undef = [], []
            for line in out.splitlines():
                parts = line.split()
                if len(parts) == 3 and not parts[2].startswith("pqlab_"):
                    bad.append(parts[2])
                if len(parts) == 2 and parts[0] == "U":
                    undef.append(parts[1])
            assert not bad, f"un-prefixed globals on {target}: {bad}"
            if target.startswith("m4-asm"):
                assert "pqlab_fndsa_fpr_sqrt_native" in undef, undef
                # the division is the C one by a reciprocal (fpr_emu.c), not the restoring one
                assert [ln for ln in out.splitlines() if ln.endswith("_fndsa_fpr_div_nr")], out
                assert not [ln for ln in out.splitlines() if ln.endswith("_fndsa_fpr_div")], out
                assert not [ln for ln in out.splitlines() if ln.endswith("_fndsa_fpr_add")], out
                assert ("pqlab_fndsa_fpr_add_native" in undef) == (target == "m4-asm-calls"), undef
            if native:
                conv = [u for u in undef if u.startswith("__aeabi_d2") or u in ("__fixdfdi", "__fixunsdfdi")]
                assert not conv, f"runtime double->int conversion used on {target}: {conv}"
