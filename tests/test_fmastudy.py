"""The FMA study (pqlab/fmastudy.py, docs/fndsa.md "FMA study"): the build option changes only
what it should, the study program sees the fused arithmetic, and the fused build is kept apart
from the KAT-exact default."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from pqlab import build as B
from pqlab import fmastudy
from pqlab.platforms import get_platform
from pqlab.registry import discover

IMPLS = {i.id: i for i in discover()}


def test_fma_flags_only_for_native_doubles() -> None:
    fpu, ref = IMPLS["fn-dsa-512/fpu"], IMPLS["fn-dsa-512/ref"]
    flags = list(fpu.cflags)
    assert "-ffp-contract=off" in flags
    fused = B.fma_flags(fpu, flags)
    assert "-ffp-contract=fast" in fused and "-ffp-contract=off" not in fused
    assert len(fused) == len(flags)
    # the integer emulation (ref) and Hawk's ref keep their flags
    assert B.fma_flags(ref, list(ref.cflags)) == list(ref.cflags)
    assert B.fma_flags(IMPLS["hawk-512/ref"], list(IMPLS["hawk-512/ref"].cflags)) == list(IMPLS["hawk-512/ref"].cflags)
    assert "-ffp-contract=fast" in B.fma_flags(IMPLS["hawk-512/fpu"], list(IMPLS["hawk-512/fpu"].cflags))
    # off by default
    assert B.BuildOptions().fma is False


def test_sampler_study_sees_the_fused_reduction(tmp_path: Path) -> None:
    """1,000 inputs on aarch64-qemu: fndsa_expm_p63 is integer arithmetic (no output may change
    on the same inputs), while BerExp's reduction x - s ln 2 is fused (FMSUB) and moves the
    threshold for a share of x >= ln 2; a study that saw no difference there would not be
    comparing two different builds."""
    d = fmastudy.sampler_differences(get_platform("aarch64-qemu"), 1000, tmp_path)
    assert d.n == 1000
    assert d.expm_p63 == 0
    assert 100 < d.threshold < 1000, d


def test_sampler_study_refuses_emulated_platform(tmp_path: Path) -> None:
    with pytest.raises(Exception, match="double precision"):
        fmastudy.sampler_differences(get_platform("m4-sim"), 10, tmp_path)


def test_kat_records_parse() -> None:
    rsp = "# x\n\ncount = 0\nseed = AA\nsm = 01\n\ncount = 1\nseed = BB\nsm = 02\n"
    assert fmastudy._records(rsp) == {0: {"seed": "AA", "sm": "01"}, 1: {"seed": "BB", "sm": "02"}}


@pytest.mark.slow
def test_fused_kat_build_is_a_different_binary(tmp_path: Path) -> None:
    """kat_differences builds the default and the fused KAT program (5 records of FN-DSA-512
    fpu): the fused one has fused instructions, the default none; the records are compared."""
    plat = get_platform("aarch64-qemu")
    impl = IMPLS["fn-dsa-512/fpu"]
    res = fmastudy.kat_differences(plat, impl, 5)
    assert res["count"] == 5 and set(res["changed"]) <= set(range(5))
    fused = {}
    for fma in (False, True):
        b = B.build(plat, [impl], ("kat",), 1, B.BuildOptions(kat_count=5, fma=fma))[impl.id]
        dis = subprocess.run(
            [plat.tool("objdump"), "-d", str(b.elf["kat"])], capture_output=True, text=True, check=True
        ).stdout
        fused[fma] = len(re.findall(r"\tf(?:n)?m(?:add|sub|la|ls)\t", dis))
    assert fused[False] == 0 and fused[True] > 0, fused
