"""FN-DSA (lib/fndsa) builds warning-free on every target compiler and exports only
namespaced symbols.

Every source is compiled by pqlab's build, with the registered implementations' flags and
-Wall -Wextra -Werror, for the host, Cortex-M4 (mps2-an386, emulated fpr, with and without
the armv7em backend), Cortex-M7 with FPv5-D16 (mps2-an500, native fpr), RV32IMC (rv32-qemu)
and AArch64 (aarch64-qemu, native fpr); `nm` on the objects
must show no global symbol without the pqlab_ prefix. The native build must not
call the compiler runtime's double->integer conversions (__aeabi_d2lz and friends,
which are not constant time).
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import firmware
import pytest
from hostlib import ROOT

from pqlab.platforms import get_platform
from pqlab.registry import discover

# target -> (platform, with the platform's native backends, extra flags); the sources and
# flags are those of the registered implementations fn-dsa-{512,1024}/{ref,fpu}
TARGETS = {
    "host": ("host", True, []),
    # portable C on the Cortex-M4 compiler, without the armv7em backend
    "m4": ("mps2-an386", False, []),
    # the armv7em backend: fpr add/mul as inline assembly, of/div/sqrt from fpr_emu.S
    "m4-asm": ("mps2-an386", True, []),
    # the same with add/mul as calls to fpr_emu.S (PQLAB_FNDSA_FPR_EMU_NO_INLINE: smaller code)
    "m4-asm-calls": ("mps2-an386", True, ["-DPQLAB_FNDSA_FPR_EMU_NO_INLINE"]),
    "m7-fpu": ("mps2-an500", True, []),
    # the rv32 backend: fpr of/add/addsub/mul/sqrt as calls to fpr_emu.S
    "rv32": ("rv32-qemu", True, []),
    "aarch64": ("aarch64-qemu", True, []),
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
FFT_CONTRACT = ROOT / "lib" / "native" / "fndsa_fft.h"
IMPLS = {(i.scheme, i.name): i for i in discover() if i.scheme.startswith("fn-dsa-")}


def compile_all(target: str, logn: int, native: bool, tmp: Path) -> list[Path]:
    platform, backend, extra = TARGETS[target]
    impl = IMPLS[(f"fn-dsa-{1 << logn}", "fpu" if native else "ref")]
    out = tmp / f"{target}-{logn}-{int(native)}"
    return firmware.impl_objects(platform, impl, out, extra, backend=backend)


@pytest.mark.parametrize("target", list(TARGETS))
def test_build_and_namespace(target: str, tmp_path: Path) -> None:
    plat = get_platform(TARGETS[target][0])
    nm = plat.tool("nm") if plat.tools_prefix else "nm"
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
            if target == "rv32" and not native:
                # the rv32 backend's fpr_emu.S (calls, no inline header); fpr_of32 must not
                # become libgcc's __clzsi2 (a table look-up) on RV32 without Zbb
                assert {"pqlab_fndsa_fpr_add_native", "pqlab_fndsa_fpr_mul_native"} <= set(undef), undef
                assert "__clzsi2" not in undef and "__clzdi2" not in undef, undef
                assert [ln for ln in out.splitlines() if ln.endswith("_fndsa_fpr_div_nr")], out
            if target == "aarch64":
                # the neon backend's FFT layer (every kernel of lib/native/fndsa_fft.h) is called
                # by fft.c in the native-double build only; the RCDT kernel by every build
                kernels = set(re.findall(r"int (pqlab_\w+)\(", FFT_CONTRACT.read_text()))
                assert len(kernels) == 17, kernels
                assert (kernels <= set(undef)) if native else not kernels & set(undef), undef
                assert "pqlab_fndsa_rcdt_count_native" in undef, undef
                # the mod-q work of complete_private and signing's end (lib/native/fndsa_modq.h):
                # every build; the conversion from doubles and BerExp's threshold
                # (fndsa_sampler.h) in the native-double build only
                modq = {"muldiv", "mul2add", "of_small", "norm"}
                assert {f"pqlab_fndsa_mq_{k}_native" for k in modq} <= set(undef), undef
                assert ("pqlab_fndsa_mq_of_rint_native" in undef) == native, undef
                assert ("pqlab_fndsa_berexp_threshold_native" in undef) == native, undef
                # the ffSampling leaf's pair sampler (two candidates in flight): native doubles only
                assert ("pqlab_fndsa_berexp_threshold3_native" in undef) == native, undef
            if native:
                conv = [u for u in undef if u.startswith("__aeabi_d2") or u in ("__fixdfdi", "__fixunsdfdi")]
                assert not conv, f"runtime double->int conversion used on {target}: {conv}"
