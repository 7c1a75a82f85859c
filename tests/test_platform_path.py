"""Platforms outside the tree: --platform-path and $PQLAB_PLATFORM_PATH (docs/platforms.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pqlab import PqlabError
from pqlab.platforms import PATH_ENV, add_platform_path, all_platforms, clear_platform_paths, get_platform
from tests.cli_runner import pqlab

FOREIGN = Path(__file__).parent / "foreign"

MINE = """\
name = "{name}"
description = "my copy of mps2-an386, outside the tree"
arch = "armv7e-m"
core = "cortex-m4"
cc = "arm-none-eabi-gcc"
tools_prefix = "arm-none-eabi-"
cflags = ["-mcpu=cortex-m4", "-mthumb", "-mfloat-abi=hard", "-mfpu=fpv4-sp-d16", "--specs=picolibc.specs", "-O2"]
ldflags = ["-T{{platform_dir}}/link.ld", "-L{{root}}/platforms/armv7m", "-nostartfiles", "-Wl,--gc-sections"]
sources = ["{{root}}/platforms/armv7m/startup.c", "{{root}}/platforms/armv7m/hal.c",
           "{{root}}/platforms/armv7m/string.c", "{{root}}/platforms/armv7m/libc.c"]
clock_hz = 24000000

[runner]
kind = "qemu-system"
command = ["qemu-system-arm", "-M", "mps2-an386", "-nographic", "-semihosting", "-icount", "shift=0", "-kernel", "{{elf}}"]
timeout_s = 60

[timer]
name = "systick-icount"
unit = "instructions"
"""

LINK = """\
MEMORY
{
    FLASH (rx) : ORIGIN = 0x00000000, LENGTH = 4M
    RAM (rwx) : ORIGIN = 0x20000000, LENGTH = 4M
}
INCLUDE armv7m.ld
"""


def make(folder: Path, name: str = "my-an386", text: str | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "platform.toml").write_text(text if text is not None else MINE.format(name=name))
    (folder / "link.ld").write_text(LINK)
    return folder


@pytest.fixture(autouse=True)
def _clean(monkeypatch):
    monkeypatch.delenv(PATH_ENV, raising=False)
    clear_platform_paths()
    yield
    clear_platform_paths()


def test_platform_folder_and_folder_of_folders(tmp_path, monkeypatch):
    make(tmp_path / "a" / "one", "one")
    make(tmp_path / "a" / "two", "two")
    make(tmp_path / "three", "three")
    assert "one" not in all_platforms()
    add_platform_path(tmp_path / "a")
    monkeypatch.setenv(PATH_ENV, f"{tmp_path / 'three'}:")
    plats = all_platforms()
    assert {"one", "two", "three", "mps2-an386"} <= set(plats)
    assert plats["one"].dir == tmp_path / "a" / "one"
    # {root} in sources names the tree's shared start-up code
    assert plats["three"].sources[0].name == "startup.c" and plats["three"].sources[0].is_file()


def test_cli_option_and_environment(tmp_path, monkeypatch):
    make(tmp_path / "mine")
    code, out = pqlab("list", "demokem-plain", "--impl-path", FOREIGN, "--platform-path", tmp_path / "mine")
    assert code == 0, out
    assert "my-an386" in out
    code, out = pqlab("list", "demokem-plain", "--impl-path", FOREIGN)
    assert "my-an386" not in out  # the option lasts for one command
    monkeypatch.setenv(PATH_ENV, str(tmp_path / "mine"))
    code, out = pqlab("list", "demokem-plain", "--impl-path", FOREIGN)
    assert code == 0 and "my-an386" in out


def test_errors(tmp_path, monkeypatch):
    code, out = pqlab("list", "--platform-path", tmp_path / "nope")
    assert code == 2 and "does not exist" in out and "--platform-path" in out
    (tmp_path / "empty").mkdir()
    monkeypatch.setenv(PATH_ENV, str(tmp_path / "empty"))
    code, out = pqlab("list")
    assert code == 2 and "holds no platform.toml" in out and PATH_ENV in out
    monkeypatch.delenv(PATH_ENV)
    make(tmp_path / "clash", "mps2-an386")
    code, out = pqlab("list", "--platform-path", tmp_path / "clash")
    assert code == 2 and "clashes with a built-in platform" in out
    make(tmp_path / "twice1", "same")
    make(tmp_path / "twice2", "same")
    with pytest.raises(PqlabError, match="clashes with another platform"):
        add_platform_path(tmp_path / "twice1")
        add_platform_path(tmp_path / "twice2")
        all_platforms()


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda t: t.replace('cc = "arm-none-eabi-gcc"\n', ""), "missing key 'cc'"),
        (lambda t: t.replace('cflags = ["-mcpu', 'cflags = "-mcpu').replace('"-O2"]', '"-O2"'), "invalid TOML"),
        (lambda t: t.replace("clock_hz = 24000000", 'clock_hz = "24 MHz"'), "'clock_hz' must be a non-negative"),
        (lambda t: t.replace('kind = "qemu-system"', 'kind = "jtag"'), "unknown runner kind 'jtag'"),
        (lambda t: t.replace("timeout_s = 60", "timeout_s = 0"), "timeout_s must be a positive number"),
        (
            lambda t: t.replace("armv7m/libc.c", "armv7m/nolibc.c"),
            "source '{root}/platforms/armv7m/nolibc.c' not found",
        ),
        (lambda t: t.replace('name = "my-an386"', 'name = "my an386"'), "must be letters, digits"),
        (
            lambda t: t.replace('cflags = ["-mcpu=cortex-m4"', 'cflags = [1, "-mcpu=cortex-m4"'),
            "'cflags' must be a list",
        ),
        (
            lambda t: t.replace("clock_hz = 24000000", 'clock_hz = 24000000\nfallback_ldflags = ["-Tflash.ld"]'),
            "'fallback_ldflags' needs 'placement' and 'fallback_placement'",
        ),
        (
            lambda t: t.replace("clock_hz = 24000000", 'clock_hz = 24000000\nplacement = ""'),
            "'placement' must be a non-empty string",
        ),
        (
            lambda t: t.replace("clock_hz = 24000000", 'clock_hz = 24000000\nbackends_on_machine = ["aarch64"]'),
            "'backends_on_machine' must be a table",
        ),
        (
            lambda t: t.replace("clock_hz = 24000000", 'clock_hz = 24000000\nbackends_on_machine = { aarch64 = "x" }'),
            "'aarch64' must be a list of strings",
        ),
    ],
)
def test_schema_errors_name_the_file(tmp_path, edit, message):
    d = make(tmp_path / "bad", text=edit(MINE.format(name="my-an386")))
    add_platform_path(d)
    with pytest.raises(PqlabError, match="platform.toml") as e:
        get_platform("my-an386")
    assert message in str(e.value)


def test_outside_platform_builds_and_runs(tmp_path):
    """The whole path with a platform the user wrote: build, run under QEMU, parse."""
    make(tmp_path / "mine")
    code, out = pqlab(
        "test", "demokem-plain", "--impl-path", FOREIGN, "-p", "my-an386", "--platform-path", tmp_path / "mine", "-j", 1
    )
    assert code == 0, out
    assert "my-an386" in out
