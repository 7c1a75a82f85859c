"""Board platforms without a board.

1. Each board platform builds and links the ML-KEM-768 test program, and the link map puts
   the vector table, code, data and stack where the part's reference manual says (the
   addresses below are from the manuals, docs/boards.md, not from our linker scripts), with
   the board's own clock set-up linked in and no semihosting call left.
2. The board path of the serial runner (open the port, flash with bounded attempts and a
   time limit, handshake, run) with a fake flasher (tests/fakeboard.py) whose "board" is
   QEMU's mps2-an386 behind a stable pseudo-terminal, as a board sits behind its ST-LINK's
   virtual COM port.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from cli_runner import pqlab
from fakeboard import Relay

from pqlab import PqlabError
from pqlab import jobs as J
from pqlab.build import BuildOptions
from pqlab.platforms import all_platforms, clear_platform_paths, get_platform
from pqlab.registry import discover, select

FOREIGN = Path(__file__).parent / "foreign"

# part -> (flash origin as linked, flash bytes, RAM origin, RAM bytes), from the manuals
MEMORY = {
    # RM0090 3.3 (1 MiB flash at 0x08000000), 2.3.1 (SRAM1 112 KiB + SRAM2 16 KiB at 0x20000000)
    "stm32f4discovery": (0x08000000, 1 << 20, 0x20000000, 128 << 10),
    # RM0432 3.3.1 (2 MiB flash), 2.4 (SRAM1 192 KiB + SRAM2 64 KiB + SRAM3 384 KiB from 0x20000000)
    "nucleo-l4r5zi": (0x08000000, 2 << 20, 0x20000000, 640 << 10),
    # RM0410 2.2 (flash on the ITCM interface at 0x00200000; DTCM 128 KiB at 0x20000000)
    "nucleo-f767zi": (0x00200000, 2 << 20, 0x20000000, 128 << 10),
    # RM0433 2.3.2 (flash bank 1 at 0x08000000, 2 MiB; DTCM 128 KiB at 0x20000000)
    "nucleo-h743zi": (0x08000000, 2 << 20, 0x20000000, 128 << 10),
}
# part -> (ITCM RAM origin, bytes) where the code runs from it: RM0433 2.3.2 and ST's CMSIS
# stm32h743xx.h (D1_ITCMRAM_BASE, "64KB RAM reserved for CPU execution/instruction")
ITCM = {"nucleo-h743zi": (0x00000000, 64 << 10)}


@pytest.fixture(scope="module")
def elfs() -> dict[str, Path]:
    impls = select(discover([]), ["ml-kem-768"], ["ref"])
    plats = [get_platform(b) for b in MEMORY]
    res = J.build_all(J.pairs(impls, plats), ("test",), 2, BuildOptions())
    out = {}
    for (_iid, plat), b in res.items():
        assert not b.error, b.error
        out[plat] = Path(b.elf["test"])
    return out


def sections(elf: Path) -> dict[str, tuple[int, int, str]]:
    text = subprocess.run(["arm-none-eabi-readelf", "-S", "-W", str(elf)], capture_output=True, text=True).stdout
    out = {}
    for m in re.finditer(r"\]\s+(\.\S+)\s+(\w+)\s+([0-9a-f]{8})\s+[0-9a-f]+\s+([0-9a-f]+)\s+\S+\s+(\S*)", text):
        out[m.group(1)] = (int(m.group(3), 16), int(m.group(4), 16), m.group(5))
    return out


def load_addresses(elf: Path) -> dict[str, tuple[int, int, int]]:
    """section -> (VMA, LMA, size), from objdump -h."""
    text = subprocess.run(["arm-none-eabi-objdump", "-h", str(elf)], capture_output=True, text=True).stdout
    out = {}
    for m in re.finditer(r"^\s*\d+\s+(\.\S+)\s+([0-9a-f]{8})\s+([0-9a-f]{8})\s+([0-9a-f]{8})", text, re.M):
        out[m.group(1)] = (int(m.group(3), 16), int(m.group(4), 16), int(m.group(2), 16))
    return out


def symbols(elf: Path) -> dict[str, tuple[int, str]]:
    text = subprocess.run(["arm-none-eabi-nm", str(elf)], capture_output=True, text=True).stdout
    return {p[2]: (int(p[0], 16), p[1]) for p in (line.split() for line in text.splitlines()) if len(p) == 3}


@pytest.mark.parametrize("board", sorted(MEMORY))
def test_board_links_where_the_manual_says(elfs, board):
    flash, flash_n, ram, ram_n = MEMORY[board]
    elf = elfs[board]
    sec = sections(elf)
    sym = symbols(elf)
    # the vector table first in flash: the core boots from it
    assert sym["pqlab_armv7m_vectors"][0] == flash
    assert sec[".text"][0] == flash
    for name, (addr, size, flags) in sec.items():
        if "A" not in flags or size == 0:
            continue
        where = (flash, flash + flash_n) if "W" not in flags else (ram, ram + ram_n)
        if name == ".itcm":
            where = (ITCM[board][0], ITCM[board][0] + ITCM[board][1])
        assert where[0] <= addr and addr + size <= where[1], f"{name} at {addr:#x}+{size:#x} outside {where}"
    if board in ITCM:
        # the code runs from ITCM and is loaded from flash; the reset path stays in flash
        vma, lma, size = load_addresses(elf)[".itcm"]
        assert vma == ITCM[board][0] and flash <= lma and lma + size <= flash + flash_n
        assert sym["main"][0] < ITCM[board][0] + ITCM[board][1]
        assert (sym["__itcm_start"][0], sym["__itcm_end"][0], sym["__itcm_load"][0]) == (vma, vma + size, lma)
        assert flash <= sym["pqlab_armv7m_reset"][0] < flash + flash_n
    else:
        assert ".itcm" not in sec
    assert sym["__stack_top"][0] == ram + ram_n
    head = subprocess.run(["arm-none-eabi-readelf", "-h", str(elf)], capture_output=True, text=True).stdout
    entry = int(re.search(r"Entry point address:\s+(0x[0-9a-f]+)", head).group(1), 16)
    assert flash <= entry < flash + flash_n
    # the board's clock set-up replaces the weak default; the serial HAL, not semihosting
    assert sym["pqlab_armv7m_clock_init"][1] == "T"
    assert "pqlab_serial_start" in sym and "pqlab_armv7m_semihost" not in sym
    dis = subprocess.run(["arm-none-eabi-objdump", "-d", str(elf)], capture_output=True, text=True).stdout
    assert "bkpt\t0x00ab" not in dis and "bkpt 0x00ab" not in dis
    plat = get_platform(board)
    assert plat.needs_board and plat.timer_name == "dwt" and plat.clock_hz > 0


def test_h743_code_in_itcm_where_it_fits_else_flash():
    """ML-DSA-87's speed program fits the 64 KiB ITCM; its driver (all operations and the
    ACVP parser) does not: its ITCM link overflows and it is linked with its code in flash.
    Each program's placement is what its run records (jobs.context)."""
    plat = get_platform("nucleo-h743zi")
    impls = select(discover([]), ["ml-dsa-87"], ["ref"])
    res = J.build_all(J.pairs(impls, [plat]), ("speed", "driver"), 2, BuildOptions())
    ((_, b),) = res.items()
    assert not b.error, b.error
    itcm_n = ITCM["nucleo-h743zi"][1]
    for prog, want in (("speed", "itcm"), ("driver", "flash")):
        elf = Path(b.elf[prog])
        assert b.placement[prog] == want, prog
        sec = load_addresses(elf)
        if want == "itcm":
            assert sec[".itcm"][0] == 0 and sec[".itcm"][2] <= itcm_n
        else:
            # the code really did not fit: it lies in flash and is larger than the ITCM
            assert ".itcm" not in sec and sec[".text"][0] == 0x08000000 and sec[".text"][2] > itcm_n
        assert (
            J.context(impls[0], plat, prog, b, iterations=1, timer="dwt", unit="cycles", command="").code_placement
            == want
        )
    # a one-placement platform records none
    assert get_platform("nucleo-f767zi").placement == ""


def test_board_platforms_listed_with_their_flasher():
    plats = all_platforms()
    flashers = {b: plats[b].raw["runner"]["flasher"] for b in MEMORY}
    assert flashers == {
        "stm32f4discovery": "st-flash",
        "nucleo-l4r5zi": "openocd",
        "nucleo-f767zi": "openocd",
        "nucleo-h743zi": "pyocd",
    }


# ---- the board path with a fake flasher ----

FAKE = """\
name = "fakeboard"
description = "QEMU mps2-an386 behind a stable pty, flashed by tests/fakeboard.py"
arch = "armv7e-m"
core = "cortex-m4"
cc = "arm-none-eabi-gcc"
tools_prefix = "arm-none-eabi-"
cflags = ["-mcpu=cortex-m4", "-mthumb", "-mfloat-abi=hard", "-mfpu=fpv4-sp-d16", "--specs=picolibc.specs", "-O2",
          "-ffunction-sections", "-fdata-sections", "-DPQLAB_HAL_SERIAL"]
ldflags = ["-T{{root}}/platforms/mps2-an386/link.ld", "-L{{root}}/platforms/armv7m", "-nostartfiles", "-Wl,--gc-sections"]
sources = ["{{root}}/platforms/armv7m/startup.c", "{{root}}/platforms/armv7m/hal.c", "{{root}}/platforms/armv7m/string.c",
           "{{root}}/platforms/armv7m/libc.c", "{{root}}/platforms/armv7m/serial.c", "{{root}}/platforms/armv7m/uart_cmsdk.c"]
clock_hz = 24000000

[runner]
kind = "serial"
flasher = "fake"
flash = ["{python}", "{fake}", "{state}", "{{elf}}"]
port = "{port}"
flash_attempts = {attempts}
flash_timeout_s = {flash_timeout}
attempts = 1
timeout_s = 60

[timer]
name = "systick-icount"
unit = "instructions"
"""


@pytest.fixture
def board(tmp_path):
    state = tmp_path / "state"
    state.mkdir()
    relay = Relay(state)

    def make(mode: str, attempts: int = 3, flash_timeout: float = 30) -> tuple:
        (state / "mode").write_text(mode)
        d = tmp_path / "plat"
        d.mkdir(exist_ok=True)
        fake = Path(__file__).parent / "fakeboard.py"
        (d / "platform.toml").write_text(
            FAKE.format(
                python=sys.executable,
                fake=fake,
                state=state,
                port=relay.path,
                attempts=attempts,
                flash_timeout=flash_timeout,
            )  # fmt: skip
        )
        return ("demokem-plain", "--impl-path", FOREIGN, "-j", 1, "--platform-path", d, "-p", "fakeboard")

    yield make, state
    relay.close()
    clear_platform_paths()


def flashes(state: Path) -> int:
    return int((state / "count").read_text())


def test_fake_board_runs(board):
    make, state = board
    code, out = pqlab("test", *make("ok"))
    assert code == 0, out
    assert "ok   demokem-plain/ref on fakeboard" in out and flashes(state) == 1
    # a second program on the same port, re-flashed: the earlier program's bytes are not taken
    code, out = pqlab("test", *make("ok"))
    assert code == 0, out
    assert flashes(state) == 2


def test_flash_failure_is_tried_again(board):
    make, state = board
    code, out = pqlab("test", *make("fail-once"))
    assert code == 0, out
    assert flashes(state) == 2


def test_flash_failures_are_bounded(board, tmp_path):
    make, state = board
    db = tmp_path / "r.sqlite"
    code, out = pqlab("bench", *make("fail", attempts=3), "--db", db, "-n", 1)
    assert code != 0
    assert "flashing fakeboard failed 3 time(s)" in out and "unable to connect to the target" in out
    assert flashes(state) == 3  # the first program: a board that does not answer ends the bench
    assert "not run after this timeout: stack, hashing" in out


def test_hanging_flasher_is_stopped(board):
    make, state = board
    code, out = pqlab("test", *make("hang", attempts=2, flash_timeout=1.5))
    assert code != 0
    assert out.count("no answer within 1.5 s (flash_timeout_s)") == 2 and "failed 2 time(s)" in out


def test_board_that_does_not_answer(board):
    make, state = board
    code, out = pqlab("test", *make("dead"), "--timeout", 3)
    assert code != 0
    assert "target silent: no boot frame" in out and "timeout after 3 s" in out
    assert flashes(state) == 1


@pytest.mark.parametrize(
    ("board", "hint"),
    [
        ("nucleo-h743zi", "'pyocd' not found; install it with: pip install pyocd"),
        ("nucleo-l4r5zi", "'openocd' not found; install it with: apt-get install --no-install-recommends openocd"),
        (
            "stm32f4discovery",
            "'st-flash' not found; install it with: apt-get install --no-install-recommends stlink-tools",
        ),
    ],
)
def test_board_platform_without_its_tool_says_what_to_install(monkeypatch, tmp_path, board, hint):
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(PqlabError) as e:
        get_platform(board).check_runner()
    assert hint in str(e.value)
