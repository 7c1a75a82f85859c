"""Runners report hung, crashing and garbled targets with the platform, binary and command."""

import os
import stat
from pathlib import Path

import pytest

from pqlab.platforms import Platform
from pqlab.runner import RunError, run


def fake_platform(**kw) -> Platform:
    base = dict(
        name="fake",
        dir=Path("/tmp"),
        description="",
        arch="x86_64",
        core="x",
        cc="cc",
        tools_prefix="",
        packages=(),
        cflags=(),
        ldflags=(),
        sources=(),
        clock_hz=1,
        flash_bytes=0,
        ram_bytes=0,
        fpr="native",
        runner_kind="native",
        runner_command=("{elf}",),
        runner_packages=(),
        timeout_s=5,
        timer_name="t",
        timer_unit="cycles",
        timer_note="",
    )
    base.update(kw)
    return Platform(**base)


def script(tmp_path: Path, body: str) -> Path:
    p = tmp_path / "prog.elf"
    p.write_text("#!/bin/sh\n" + body)
    p.chmod(p.stat().st_mode | stat.S_IEXEC)
    return p


def test_good_run_reads_stdin_and_input_file(tmp_path):
    elf = script(
        tmp_path,
        'read x; echo "#pqlab 1 driver timer=t"; echo "info stdin $x"; '
        'echo "info file $(cat pqlab.in)"; echo "#end ok 2"\n',
    )
    out = run(fake_platform(), elf, "driver", stdin=b"hello\n")
    assert out.of("info") == [["stdin", "hello"], ["file", "hello"]]


def test_timeout_is_reported(tmp_path):
    elf = script(tmp_path, 'echo "#pqlab 1 speed timer=t"; sleep 30\n')
    with pytest.raises(RunError, match=r"timeout after 1 s .*platform fake, binary .*prog.elf\n  command: "):
        run(fake_platform(), elf, "speed", timeout=1)


def test_crash_without_end_marker(tmp_path):
    elf = script(tmp_path, 'echo "#pqlab 1 speed timer=t"; echo "speed keypair 5"; kill -SEGV $$\n')
    with pytest.raises(RunError, match=r"truncated.*exit code -11"):
        run(fake_platform(), elf, "speed")


def test_nonzero_exit_after_complete_output(tmp_path):
    elf = script(tmp_path, 'echo "#pqlab 1 test timer=t"; echo "test roundtrip ok"; echo "#end ok 1"; exit 3\n')
    with pytest.raises(RunError, match="exit code 3"):
        run(fake_platform(), elf, "test")


def test_failed_checks_are_named(tmp_path):
    elf = script(tmp_path, 'echo "#pqlab 1 test timer=t"; echo "test canary-pk fail"; echo "#end fail 1"; exit 1\n')
    with pytest.raises(RunError, match="failed checks: canary-pk fail"):
        run(fake_platform(), elf, "test")


def test_garbled_output(tmp_path):
    elf = script(tmp_path, 'echo "#pqlab 1 speed timer=t"; echo "spe\x01ed keypair"; echo "#end ok 1"\n')
    with pytest.raises(RunError, match="unknown record"):
        run(fake_platform(), elf, "speed")


def test_missing_runner_names_package(tmp_path):
    plat = fake_platform(
        runner_kind="qemu-system",
        runner_command=("qemu-nonexistent-xyz", "{elf}"),
        runner_packages=("qemu-system-arm",),
    )
    with pytest.raises(RunError.__mro__[1], match="apt-get install --no-install-recommends qemu-system-arm"):
        run(plat, tmp_path / "x.elf", "test")


def test_missing_compiler_names_package():
    plat = fake_platform(cc="arm-none-eabi-gcc-nonexistent", packages=("gcc-arm-none-eabi",))
    with pytest.raises(Exception, match="apt-get install --no-install-recommends gcc-arm-none-eabi"):
        plat.check_toolchain()


assert os.name == "posix"
