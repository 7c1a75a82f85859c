# SPDX-License-Identifier: MIT
"""Memory set-ups of the pqlab-sim Cortex-M7 estimate (`--memory`, sim/src/timing/m7mem.rs,
docs/sim.md "Memory set-up of the Cortex-M7 estimate"): the firmware sim/tests/fw/membench.S
times a code body and four loads, each twice (cold, then warm caches), and every set-up
must charge exactly its rule: an STM32F76x at 216 MHz fetches a missing 32-byte line from
flash in 7 wait states + 1 = 8 cycles (RM0410 flash latency at 216 MHz; STM32CubeF7's
FLASH_LATENCY_7), behind the 16 KB 2-way instruction cache and the 16 KB 4-way data cache
(STM32F76x datasheet; Cortex-M7 TRM), the first 128 KB of RAM is DTCM (no cache, no wait),
other RAM fills a data-cache line in 6 cycles (assumed); with a cache off, the bus keeps
the last line (assumed)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "sim" / "tests"))
import simfw

FLASH_MISS = 8  # 7 wait states + 1
SRAM_FILL = 6  # assumed
LINES_CODE = 3  # new lines fetched in the timed part of the code body
LINES_DATA = 4  # one line per load
# a stalled load issues alone: the first and the last load lose their pairing with the
# NOPs around them (in the warm body they dual issue)
PAIRS_LOST = 2

# set-up -> name -> (cold - warm, warm - warm on TCM): the cycles each rule adds
EXPECTED = {
    "tcm": {"code": (0, 0), "flash": (0, 0), "sram": (0, 0), "dtcm": (0, 0)},
    "stm32f7": {
        "code": (LINES_CODE * FLASH_MISS, 0),
        "flash": (LINES_DATA * FLASH_MISS + PAIRS_LOST, 0),
        "sram": (LINES_DATA * SRAM_FILL + PAIRS_LOST, 0),
        "dtcm": (0, 0),
    },
    # D-cache off: every load to a new line pays again, warm or not
    "stm32f7-icache": {
        "code": (LINES_CODE * FLASH_MISS, 0),
        "flash": (0, LINES_DATA * FLASH_MISS + PAIRS_LOST),
        "sram": (0, LINES_DATA * SRAM_FILL + PAIRS_LOST),
        "dtcm": (0, 0),
    },
    # both caches off (reset state): the code body's lines are fetched again on every call
    "stm32f7-nocache": {
        "code": (0, LINES_CODE * FLASH_MISS),
        "flash": (0, LINES_DATA * FLASH_MISS + PAIRS_LOST),
        "sram": (0, LINES_DATA * SRAM_FILL + PAIRS_LOST),
        "dtcm": (0, 0),
    },
}


@pytest.fixture(scope="module")
def elf() -> Path:
    simfw.build_sim()
    return simfw.build_fw("membench-m7", ["membench_main.c", "membench.S"], simfw.M7, ["-O2"])


def _run(elf: Path, memory: str) -> dict[str, int]:
    s = simfw.run_sim(elf, "--memory", memory, machine="mps2-an500")
    assert s.returncode == 0, s.stderr.decode()
    return {ln.split()[0]: int(ln.split()[1]) for ln in s.stdout.decode().splitlines()}


@pytest.fixture(scope="module")
def tcm(elf: Path) -> dict[str, int]:
    return _run(elf, "tcm")


@pytest.mark.parametrize("memory", sorted(EXPECTED))
def test_memory_setup_rules(elf: Path, tcm: dict[str, int], memory: str) -> None:
    out = _run(elf, memory)
    for name, (cold_extra, warm_extra) in EXPECTED[memory].items():
        got = (out[f"{name}_cold"] - out[f"{name}_warm"], out[f"{name}_warm"] - tcm[f"{name}_warm"])
        assert got == (cold_extra, warm_extra), f"{memory} {name}: (cold - warm, warm - TCM warm) {got}"


def test_tcm_bodies(tcm: dict[str, int]) -> None:
    # TCM: 62 NOPs dual issue in 31 cycles, + the CYCCNT load; the same cold and warm;
    # four loads to even words, one per cycle (the first and last pair with the NOPs)
    assert tcm["code_cold"] == tcm["code_warm"] == 32
    for name in ("flash", "sram", "dtcm"):
        assert tcm[f"{name}_cold"] == tcm[f"{name}_warm"] == 4


def test_memory_setup_is_recorded_and_checked() -> None:
    sim = simfw.build_sim()
    v = subprocess.run([str(sim), "--machine", "mps2-an500", "--memory", "stm32f7", "--version"],
                       capture_output=True, text=True, check=True)  # fmt: skip
    assert "(memory stm32f7)" in v.stdout
    bad = subprocess.run([str(sim), "--memory", "stm32f7", "x.elf"], capture_output=True, text=True, check=False)
    assert bad.returncode == 2 and "Cortex-M7" in bad.stderr
    bad = subprocess.run([str(sim), "--machine", "mps2-an500", "--memory", "sdram", "x.elf"],
                         capture_output=True, text=True, check=False)  # fmt: skip
    assert bad.returncode == 2 and "unknown memory set-up" in bad.stderr
