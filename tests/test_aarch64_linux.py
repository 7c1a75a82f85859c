"""Platform aarch64-linux (platforms/aarch64-linux; docs/platforms.md): the PMU cycle counter
through perf_event_open, and its labelled fallback to CLOCK_MONOTONIC.

This machine is x86-64, so the platform's own programs are built here with the cross compiler
and run under qemu-aarch64 user mode, which does not implement perf_event_open: the fallback
path. The test checks that the program then says so on stderr, reports `timer=clock-monotonic`
in its header, and that pqlab stores the run with that timer and unit "ns" (never "cycles").
The counter path itself needs an AArch64 machine with a PMU (not available here)."""

from __future__ import annotations

import platform as _platform
import subprocess
from dataclasses import replace

import pytest

from pqlab import PqlabError, build
from pqlab import jobs as J
from pqlab.platforms import get_platform
from pqlab.registry import discover
from pqlab.runner import command


@pytest.fixture(scope="module")
def under_qemu():
    """aarch64-linux's sources and flags, cross-compiled and run under qemu-aarch64."""
    p = get_platform("aarch64-linux")
    return replace(
        p,
        name="aarch64-linux-under-qemu",
        cc="aarch64-linux-gnu-gcc",
        tools_prefix="aarch64-linux-gnu-",
        ldflags=("-static",),
        runner_kind="qemu-user",
        runner_command=("qemu-aarch64", "-cpu", "cortex-a72", "{elf}"),
        raw={k: v for k, v in p.raw.items() if k != "machines"},
    )


def test_platform_definition():
    p = get_platform("aarch64-linux")
    assert (p.timer_name, p.timer_unit) == ("perf-cycles", "cycles")
    assert p.unit_of("perf-cycles") == "cycles" and p.unit_of("clock-monotonic") == "ns"
    assert p.runner_kind == "native" and p.cc == "gcc"
    assert p.runs_here == (_platform.machine() in ("aarch64", "arm64"))


def test_fallback_under_qemu_is_labelled(under_qemu):
    impl = {i.id: i for i in discover()}["ml-kem-512/ref"]
    opts = build.BuildOptions(iterations=2)
    b = build.build(under_qemu, [impl], ("speed",), 1, opts)[impl.id]
    assert not b.error, b.error
    proc = subprocess.run(command(under_qemu, b.elf["speed"]), capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[0].endswith("timer=clock-monotonic")
    assert "PMU cycle counter is unavailable" in proc.stderr
    assert "timer falls back to clock-monotonic: nanoseconds, not cycles" in proc.stderr
    o = J.run_program(impl, under_qemu, b, "speed", opts)
    assert o.ok, o.error
    assert (o.context.timer, o.context.unit) == ("clock-monotonic", "ns")
    assert "perf-cycles" not in proc.stdout


@pytest.mark.skipif(_platform.machine() in ("aarch64", "arm64"), reason="checks the refusal on other machines")
def test_native_build_refused_on_other_machines():
    """On a machine that is not AArch64 the platform's native build stops with a clear error
    instead of building host code with an AArch64 timer."""
    impl = {i.id: i for i in discover()}["ml-kem-512/ref"]
    with pytest.raises(PqlabError, match="builds and runs natively on aarch64 / arm64 machines only"):
        build.build(get_platform("aarch64-linux"), [impl], ("speed",), 1, build.BuildOptions(iterations=1))
