"""The C text of FN-DSA's NTRU solver (lib/fndsa/ntru_internal.h and ntru*.c), for the tests
that compile pieces of it next to a native kernel (tests/test_native_armv7em_gcd.py,
test_native_armv7em_zint.py): the files in dependency order as one text, a function by name
(whatever its storage class: the solver's files export what they share), and the RNS prime
table as a static definition."""

from __future__ import annotations

import re
from pathlib import Path

FNDSA = Path(__file__).resolve().parent.parent / "lib" / "fndsa"
FILES = ("ntru_internal.h", "ntru_zint.c", "ntru_rns.c", "ntru_gcd.c", "ntru_babai.c", "ntru.c")


def source() -> str:
    return "\n".join((FNDSA / f).read_text() for f in FILES)


def function(src: str, name: str, ret: str, last: bool = False) -> str:
    """The definition of `name` (return type `ret`, with its qualifiers: static, inline,
    NTRU_NO_LIBCALL) from the signature to the closing brace; `last`: the last of several
    (the portable one after a native wrapper)."""
    pat = rf"^(?:NTRU_NO_LIBCALL )?(?:static )?(?:inline )?{re.escape(ret)} ?{name}\([^)]*\)\n\{{.*?\n\}}\n"
    found = list(re.finditer(pat, src, re.S | re.M))
    assert found, f"{name} not found in {', '.join(FILES)}"
    return found[-1 if last else 0].group(0)


def rns_table() -> str:
    """RNS_MAXP and the (p, g) table RNS_P, as a static table"""
    src = (FNDSA / "ntru_rns.c").read_text()
    i = src.index("const uint32_t RNS_P[RNS_MAXP][2] = {")
    j = src.index("};\n", i) + 3
    return "#define RNS_MAXP 40\nstatic " + src[i:j]
