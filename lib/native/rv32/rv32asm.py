# SPDX-License-Identifier: MIT
"""What every generator in this folder writes the same way: the head of an RV32 assembly
function (its prototype as a comment, its own .text section for --gc-sections, global symbol,
function type, 4-byte alignment, label). Imported by the gen_*.py scripts, which run from this
folder."""

from __future__ import annotations


def function_head(o: list[str], name: str, proto: str) -> None:
    o.append("")
    o.append(f"/* {proto} */")
    o.append(f'    .section .text.{name},"ax",@progbits')
    o.append(f"    .globl {name}")
    o.append(f"    .type {name}, @function")
    o.append("    .p2align 2")
    o.append(f"{name}:")
