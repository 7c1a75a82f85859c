"""The harness output protocol, version 1 (docs/interfaces.md section 3), parsed strictly.

A run is accepted only with a correct header, well-formed records and an
`#end ok N` trailer whose N matches the records seen; anything else is an error
carrying the reason, so a truncated or garbled run can never pass as a zero.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

VERSION = "1"
RECORD_FIELDS = {  # record type -> minimum number of fields after the type
    "test": 2,
    "speed": 2,
    "stack": 2,
    "hashing": 3,
    "vector": 2,
    "kat": 0,
    "iterations": 2,
    "drv": 2,
    "info": 1,
    "prepared": 1,
}


class ProtocolError(Exception):
    pass


# '#fault <kind> ...' lines (in place of the trailer): what each kind means
FAULT_KINDS = {
    "code-modified": "code/vector region modified during the run (its checksum changed: "
    "a store through a NULL or wild pointer?)",
    "stack-overflow": "stack overflow (store into the stack guard)",
    "sim-busfault": "bus fault in pqlab-sim",
    # the cv32e40p-rtl test bench (hw/cv32e40p/tb_main.cpp)
    "bus": "bus fault in the RTL test bench (access to unmapped memory)",
    "code-write": "store into the code region (read-only in the RTL test bench)",
    "fetch": "instruction fetch outside the code region (a jump or trap to a wild address)",
    "timeout": "the target did not finish within its cycle limit (hung core?)",
    "sleep": "the core sleeps with no interrupt to wake it",
}


def describe_fault(line: str) -> str:
    kind = line.split()[1] if len(line.split()) > 1 else ""
    what = FAULT_KINDS.get(kind)
    return f"{what}: {line.strip()}" if what else line.strip()


@dataclass
class Output:
    program: str
    timer: str
    records: list[tuple[str, list[str]]] = field(default_factory=list)
    ok: bool = False
    raw: str = ""

    def of(self, rtype: str) -> list[list[str]]:
        return [f for t, f in self.records if t == rtype]


def parse(text: str, expect_program: str | None = None) -> Output:
    lines = text.replace("\r\n", "\n").split("\n")
    # bare-metal targets may print start-up noise before the header; nothing may follow #end
    try:
        start = next(i for i, line in enumerate(lines) if line.startswith("#pqlab "))
    except StopIteration:
        raise ProtocolError("no '#pqlab' header line: the program did not start or its output is garbled") from None
    head = lines[start].split()
    if len(head) < 3 or head[1] != VERSION:
        raise ProtocolError(f"unsupported protocol header: {lines[start]!r}")
    timer = next((h.split("=", 1)[1] for h in head[3:] if h.startswith("timer=")), "unknown")
    out = Output(program=head[2], timer=timer, raw=text)
    if expect_program and out.program != expect_program:
        raise ProtocolError(f"expected program {expect_program}, got {out.program}")
    end = None
    for n, line in enumerate(lines[start + 1 :], start + 2):
        if end is not None:
            if line.strip():
                raise ProtocolError(f"line {n}: output after '#end': {line[:80]!r}")
            continue
        if not line:
            continue
        if line.startswith("#fault"):
            raise ProtocolError(f"target fault: {describe_fault(line)}")
        if line.startswith("#end"):
            m = re.fullmatch(r"#end (ok|fail) (\d+)", line.strip())
            if not m:
                raise ProtocolError(f"line {n}: malformed trailer {line!r}")
            if int(m.group(2)) != len(out.records):
                raise ProtocolError(
                    f"trailer says {m.group(2)} records, {len(out.records)} received: output truncated or garbled"
                )
            end = m.group(1)
            continue
        if line.startswith("#"):
            continue  # comments from the harness
        rtype, _, rest = line.partition(" ")
        if rtype not in RECORD_FIELDS:
            raise ProtocolError(f"line {n}: unknown record {line[:80]!r}")
        fields = rest.split(" ") if rtype != "kat" else [rest]
        if rtype != "kat" and len(fields) < RECORD_FIELDS[rtype]:
            raise ProtocolError(f"line {n}: record {rtype} needs {RECORD_FIELDS[rtype]} fields: {line[:80]!r}")
        if rtype in ("speed", "stack", "iterations") and not fields[1].isdigit():
            raise ProtocolError(f"line {n}: value is not a number: {line[:80]!r}")
        if rtype == "hashing" and not (fields[1].isdigit() and fields[2].isdigit()):
            raise ProtocolError(f"line {n}: values are not numbers: {line[:80]!r}")
        out.records.append((rtype, fields))
    if end is None:
        raise ProtocolError("missing '#end' line: the run was truncated (crash, hang or lost output)")
    out.ok = end == "ok"
    return out
