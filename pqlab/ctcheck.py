"""`pqlab ct`: which platforms can check constant time, and valgrind memcheck's findings as
readable records (kind, where, call stack, where the secret came from).

The ct program (harness/ct.c) marks every byte of randomness secret ("undefined" for
memcheck); memcheck then reports each conditional branch, memory address or system-call
argument that depends on a secret. A platform without a checker cannot see any of that, so
`pqlab ct` refuses it instead of calling its runs constant time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pqlab import PqlabError
from pqlab.platforms import Platform, all_platforms

_PREFIX = re.compile(r"^==\d+==\s?")
_FRAME = re.compile(r"^\s*(at|by) 0x[0-9A-Fa-f]+: (.*)$")
_SIZE = re.compile(r"Use of uninitialised value of size (\d+)")


@dataclass
class Finding:
    message: str  # memcheck's first line, e.g. "Conditional jump or move depends on uninitialised value(s)"
    stack: list[str] = field(default_factory=list)  # "function (file:line)", innermost first
    origin: list[str] = field(default_factory=list)  # where the secret was created (the client request)

    @property
    def kind(self) -> str:
        """What the report means for constant time."""
        if self.message.startswith("Conditional jump or move"):
            return "secret-dependent branch"
        if self.message.startswith("Syscall param"):
            return "secret reaches a system call"
        m = _SIZE.match(self.message)
        if m and int(m.group(1)) == 8:
            return "secret-dependent address (load, store or indirect jump)"
        if m:
            return f"secret operand memcheck requires public (size {m.group(1)}: a vector shift count or lane index)"
        return "other memcheck report"

    @property
    def where(self) -> str:
        return self.stack[0] if self.stack else "?"

    def as_dict(self) -> dict:
        return {"kind": self.kind, "message": self.message, "stack": self.stack, "origin": self.origin}


def check_platforms(plats: list[Platform]) -> None:
    """Refuse platforms that cannot see secret-dependent behaviour (a check that cannot check
    must not pass)."""
    bad = [p for p in plats if not p.ct_checker]
    if bad:
        able = sorted(name for name, p in all_platforms().items() if p.ct_checker)
        raise PqlabError(
            f"platform {', '.join(p.name for p in bad)} cannot check constant time: nothing there sees "
            f"secret-dependent branches, addresses or syscalls, so a run would prove nothing; "
            f"use -p {' or -p '.join(able) if able else '(no platform with a ct_checker is defined)'}"
        )


def parse_memcheck(stderr: str) -> list[Finding]:
    """memcheck's error records from its stderr (with or without -q), in order of report."""
    findings: list[Finding] = []
    cur: Finding | None = None
    in_origin = False
    for raw in stderr.splitlines():
        if not _PREFIX.match(raw):
            continue
        line = _PREFIX.sub("", raw, count=1)
        if not line.strip():
            cur, in_origin = None, False
            continue
        frame = _FRAME.match(line)
        if frame and cur is not None:
            (cur.origin if in_origin else cur.stack).append(frame.group(2).strip())
        elif line.lstrip().startswith("Uninitialised value was created") and cur is not None:
            in_origin = True
        elif not line.startswith(" ") and _is_error_head(line):
            cur, in_origin = Finding(line.strip()), False
            findings.append(cur)
    return findings


def _is_error_head(line: str) -> bool:
    return line.startswith(
        (
            "Conditional jump or move",
            "Use of uninitialised value",
            "Syscall param",
            "Invalid ",
            "Mismatched ",
            "Source and destination overlap",
            "Argument ",
        )
    )


def format_findings(findings: list[Finding], limit: int = 10, frames: int = 8) -> str:
    """Findings as indented text: kind and memcheck's words, the call stack, the secret's origin;
    reports at the same place are counted once."""
    groups: dict[tuple[str, str], list[Finding]] = {}
    for f in findings:
        groups.setdefault((f.message, f.where), []).append(f)
    lines = []
    for n, ((_, _), fs) in enumerate(groups.items(), 1):
        if n > limit:
            lines.append(f"  ... and {len(groups) - limit} more places (--json lists every finding)")
            break
        f = fs[0]
        times = f" ({len(fs)} reports)" if len(fs) > 1 else ""
        lines.append(f"  {n}. {f.kind}{times}: {f.message}")
        for i, fr in enumerate(f.stack[:frames]):
            lines.append(f"       {'at' if i == 0 else 'by'} {fr}")
        if len(f.stack) > frames:
            lines.append(f"       ... {len(f.stack) - frames} more frame(s)")
        if f.origin:
            lines.append(f"     secret from: {' <- '.join(f.origin[:3])}")
    return "\n".join(lines)
