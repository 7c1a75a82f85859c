# SPDX-License-Identifier: MIT
"""Candidate Cortex-M4 timing rules (issue 23; docs/sim.md "Diagnosis of the pqm4 corpus
misses"): micro-benchmarks in tests/data/m4rules/rules.S, built through pqlab's build
(simfw.build_fw: build.build_program with the mps2-an386 compiler and flags) and timed with
DWT CYCCNT on m4-sim.

For every sequence the table gives the cycles a Cortex-M4 takes according to the cited
source (`board`: a number, or a (low, high) range where the source gives no figure) and the
cycles the models m4-v4, m4-v5 and m4-v6 give. The test asserts the simulated value equals
the m4-v6 column, which m4-v7 without a memory set-up keeps, so the table in docs/sim.md, which
says which rules the model lacks, stays true: a model change that adds one of the rules fails
here until the table and the docs are updated with the rule's effect on the corpus table
(`pqlab calibrate --pqm4`).

m4-v7 adds the memory set-up `stm32l4r5` (`pqlab-sim --memory stm32l4r5`, sim/src/timing/m4mem.rs:
the flash and SRAM1/SRAM2/SRAM3 blocks of pqm4's NUCLEO-L4R5ZI, the stack at the top of its
640 KiB), under which loads and stores pipeline only within one block (docs/sim.md "Model
m4-v7"); `BLOCK_RULES` gives each sequence's cycles per source and what m4-v7 gives without and
with the set-up, and the whole firmware runs once more with it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "sim" / "tests"))
import simfw

DATA = Path(__file__).resolve().parent / "data" / "m4rules"
J = "jnk0le, pipeline cycle test, doc/cortex_m3m4.md (STM32F407)"
TRM = "Cortex-M4 TRM DDI 0439B"
C = "compendium.i-0.nl, Alignment rules (STM32 Cortex-M4)"

# name: (board cycles per source (int or (lo, hi)), model m4-v4, m4-v5 and m4-v6 cycles, rule,
# source, in model (m4-v6))
RULES = {
    "ldr_same_block": (11, 11, 11, 11, "10 independent loads, one RAM block: 2 + 9", f"{TRM} 3.3.1", True),
    "ldr_flash_ram": (20, 11, 11, 11, "loads alternating flash/SRAM do not pipeline: 10 x 2", J, False),
    "ldr_data_stack": (
        20,
        11,
        11,
        11,
        "loads alternating SRAM1 (.data) / SRAM3 (stack) on pqm4's board: 10 x 2",
        J,
        False,
    ),
    "ldr_literal": ((13, 22), 13, 13, 13, "10 literal loads + B: 'might add a cycle' each", f"{TRM} 3.3.1", False),
    "ldrw_unaligned": (
        (14, 23),
        14,
        23,
        23,
        "10 LDR.W at 2 mod 4 'may fail to pipeline' (+ 2 NOPs, +1 group): m4-v5 takes 'fail', 10 x 2",
        J,
        True,
    ),
    "ldrw_aligned": (11, 11, 11, 11, "10 LDR.W word aligned: 2 + 9", f"{TRM} 3.3.1", True),
    "ldr_post_alternating": (11, 20, 20, 20, "post-indexed loads alternating two bases pipeline on the M4", J, False),
    "uw_group8": (11, 11, 11, 11, "NOP + 8 unaligned ADD.W (9 words fetched) + 1 + NOP", C, True),
    "uw_group_mixed": (
        (14, 16),
        13,
        15,
        15,
        "unaligned ADD.W group with an LDR.W inside: more than one delay cycle (m4-v5: +1 per change "
        "between memory and non-memory members after the third)",
        C,
        True,
    ),
    "shift_reg": (10, 10, 10, 10, "LSL.W by register: 1 cycle", f"{TRM} table 3-1", True),
    "bitfield": (10, 10, 10, 10, "UBFX/BFI: 1 cycle", f"{TRM} table 3-1", True),
    "ldm_after_base_write": (35, 35, 35, 35, "5 x (MOV 1 + LDM 1+4 + 1 address dependency)", f"{TRM} 3.3.1", True),
    "ldr_load_base": (
        21,
        16,
        21,
        21,
        "LDR r1,[sp]; LDR r2,[r1] x 5: base from the preceding load 1 cycle late: 5 + 4 x 4",
        f"{J}; {TRM} 3.3.1",
        True,
    ),
    "str_load_base": (
        24,
        19,
        24,
        24,
        "LDR r1,[sp]; STR r2,[r1] x 5: base from the preceding load 1 cycle late: 4 + 4 x 5",
        f"{J}; {TRM} 3.3.1",
        True,
    ),
    "str_ldrd": (
        25,
        20,
        25,
        25,
        "STR; LDRD x 5: a load after a store stalls, LDRD too: 5 x (1 + 3 + 1)",
        f"{J}; {TRM} 3.3.1",
        True,
    ),
    "strd_ldr": (
        30,
        25,
        30,
        30,
        "STRD; LDR x 5: STRD is a store a load cannot pipeline after: 5 x (3 + 2 + 1)",
        f"{J}; {TRM} 3.3.1",
        True,
    ),
    "str_post_chain": (
        19,
        10,
        10,
        19,
        "10 post-indexed STR.W on one base: 'cannot be chained back to back on same register base': 1 + 9 x 2",
        J,
        True,
    ),
    "str_post_alternating": (
        10,
        10,
        10,
        10,
        "post-indexed STR.W alternating two bases: 'alternating 2 different registers works': 10 x 1",
        J,
        True,
    ),
}


B = "jnk0le, pipeline cycle test, doc/cortex_m3m4.md (STM32F407): memory blocks"

# m4-v7's memory set-up stm32l4r5: name: (board cycles per source, m4-v7 without a set-up, m4-v7
# with stm32l4r5, rule); .data is in SRAM1, the stack's top 384 KiB in SRAM3, the code region
# (constants) in flash
BLOCK_RULES = {
    "ldr_same_block": (11, 11, 11, "10 loads from .data (SRAM1): 2 + 9"),
    "ldr_flash_ram": (20, 11, 20, "loads alternating flash / SRAM1 do not pipeline: 10 x 2"),
    "ldr_data_stack": (20, 11, 20, "loads alternating SRAM1 (.data) / SRAM3 (stack): 10 x 2"),
    "ldr_stack_deep": (20, 11, 20, "loads alternating SRAM3 (stack top) / SRAM2 (400 KiB below): 10 x 2"),
    "str_data_stack": (24, 19, 24, "LDR .data (SRAM1); STR stack (SRAM3) x 5: 19 + 1 per store"),
    "str_data_data": (19, 19, 19, "LDR; STR within .data x 5: 2 + 1 + 4 x (3 + 1)"),
    # m4-v5's sequences whose base register points into .data while the loads before read the
    # stack: the blocks alternate too
    "ldr_load_base": (25, 21, 25, "LDR r1,[sp] (SRAM3); LDR r2,[r1] (SRAM1) x 5: 21 + 1 per pipelined LDR [sp]"),
    "str_load_base": (29, 24, 29, "LDR r1,[sp] (SRAM3); STR r2,[r1] (SRAM1) x 5: 24 + 1 per store"),
}


def _run(elf: Path, *args: str) -> dict[str, int]:
    s = simfw.run_sim(elf, *args)
    assert s.returncode == 0, s.stderr.decode()
    out = {ln.split()[0]: int(ln.split()[1]) for ln in s.stdout.decode().splitlines() if ln.strip()}
    assert out["empty"] == 4, out  # LDR of CYCCNT 2 + two NOPs
    return {k: v - out["empty"] for k, v in out.items() if k != "empty"}


@pytest.fixture(scope="module")
def firmware() -> Path:
    simfw.build_sim()
    return simfw.build_fw("m4rules", [str(DATA / "rules_main.c"), str(DATA / "rules.S")], simfw.M4, ["-O2"])


@pytest.fixture(scope="module")
def measured(firmware: Path) -> dict[str, int]:
    return _run(firmware)


@pytest.fixture(scope="module")
def measured_l4r5(firmware: Path) -> dict[str, int]:
    return _run(firmware, "--memory", "stm32l4r5")


@pytest.mark.parametrize("name", sorted(BLOCK_RULES))
def test_memory_blocks_of_pqm4s_board(measured: dict[str, int], measured_l4r5: dict[str, int], name: str) -> None:
    board, plain, l4r5, rule = BLOCK_RULES[name]
    assert measured[name] == plain, f"{name} ({rule}): m4-v7 without a memory set-up gives {plain}"
    assert measured_l4r5[name] == l4r5 == board, f"{name} ({rule}; {B}): stm32l4r5 gives {l4r5}"


def test_the_set_up_changes_only_the_block_sequences(measured: dict[str, int], measured_l4r5: dict[str, int]) -> None:
    # every other sequence runs within one block (or has no load before its stores)
    assert measured.keys() == measured_l4r5.keys()
    for name in measured:
        if name not in BLOCK_RULES:
            assert measured_l4r5[name] == measured[name], name


@pytest.mark.parametrize("name", sorted(RULES))
def test_model_column_is_current(measured: dict[str, int], name: str) -> None:
    board, _, _, model, rule, source, in_model = RULES[name]
    assert measured[name] == model, (
        f"{name} ({rule}; {source}): table says m4-v6 gives {model}, simulated {measured[name]}"
    )


@pytest.mark.parametrize("name", sorted(n for n, r in RULES.items() if r[6]))
def test_rules_in_the_model_match_their_source(measured: dict[str, int], name: str) -> None:
    board, _, _, _, rule, source, _ = RULES[name]
    lo, hi = board if isinstance(board, tuple) else (board, board)
    assert lo <= measured[name] <= hi, f"{name}: {rule} ({source})"


def test_lacking_rules_are_outside_their_source() -> None:
    # a rule marked as lacking must differ from its source's figure (or lie at the edge of the
    # source's range), otherwise it is not lacking
    for name, (board, _, _, model, _, _, in_model) in RULES.items():
        if in_model:
            continue
        lo, hi = board if isinstance(board, tuple) else (board, board)
        assert not (lo < model <= hi) or model == lo, name


def test_memory_setup_is_recorded_and_checked() -> None:
    import subprocess

    sim = simfw.build_sim()
    v = subprocess.run([str(sim), "--memory", "stm32l4r5", "--version"], capture_output=True, text=True, check=True)
    assert "m4-v7" in v.stdout and "(memory stm32l4r5)" in v.stdout
    bad = subprocess.run(
        [str(sim), "--machine", "mps2-an500", "--memory", "stm32l4r5", "x.elf"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2 and "Cortex-M4" in bad.stderr
