"""NIST submission packages dropped in unmodified.

A NIST PQC submission package holds its code as `Reference_Implementation/`,
`Optimized_Implementation/` and `Additional_Implementations/` folders with an `api.h`
each, one or two levels down (`Optimized_Implementation/falcon512/falcon512fpu/api.h`,
`Reference_Implementation/kyber512/api.h`), and its known answers as `KAT/*.rsp` at the
package root. The folders carry what the NIST tooling needs and pqlab replaces:

- `rng.c` (NIST's AES-256-CTR DRBG on OpenSSL, or another source of randomness) defines
  `randombytes`: left out, pqlab's harness supplies the randomness (its own NIST DRBG
  for `pqlab kat`). The seed expander of the same file is `lib/compat/nistseedexpander.h`
  (same context layout as rng.h's AES_XOF_struct);
- `PQCgenKAT_*.c` and other programs with a `main`: left out, the harness has its own;
- Makefiles and build outputs (objects, executables, `build/`) are never sources; the
  Makefile's target flags say where the folder runs (`-mcpu=cortex-m4`: Armv7E-M,
  `-mavx2`: x86-64);
- NIST's `int randombytes(unsigned char *x, unsigned long long xlen)`: on 32-bit Arm and
  RISC-V a 64-bit argument travels in a register pair (r2:r3, a2:a3), so it cannot reach
  the compat layer's `randombytes(uint8_t *, size_t)`. Every source file whose text, or
  a header of the folder it includes, declares that prototype is compiled with
  `-Drandombytes=pqlab_nist_randombytes` (lib/compat/compat_randombytes.c), which takes
  the NIST arguments; files written for PQClean/mupq keep the size_t symbol. The two
  prototypes never meet in one translation unit. Only unconditional text counts (outside
  #if blocks, include guards aside), for this and for `main` and OpenSSL includes below:
  a declaration in one branch of a configuration switch is not evaluated.

A folder that includes OpenSSL headers for its own hashing cannot be built for a target
without OpenSSL: it is found, listed, and its build is refused with that reason.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from pqlab import PqlabError

IMPL_DIR = re.compile(r"^(reference|optimi[sz]ed|additional)_implementations?$", re.IGNORECASE)
IMPL_NAMES = {"reference": "ref", "optimized": "opt", "optimised": "opt", "additional": "add"}

# -Dname=value added to a source file that declares the NIST randombytes
NIST_RANDOMBYTES_FLAGS = ("-Drandombytes=pqlab_nist_randombytes",)

_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.DOTALL)
_INCLUDE_Q = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', re.MULTILINE)
_INCLUDE_SSL = re.compile(r"^[ \t]*#[ \t]*include[ \t]*[<\"](openssl/[^>\"]+)[>\"]", re.MULTILINE)
_MAIN_DEF = re.compile(r"\b(?:int|void)\s+main\s*\([^;{)]*\)\s*\{")
_RNG_DEF = re.compile(r"\b(randombytes|randombytes_init|AES256_CTR_DRBG_Update)\s*\([^;{)]*\)\s*\{")
_NIST_RB_DECL = re.compile(r"\brandombytes\s*\([^;{)]*\bunsigned\s+long\s+long\b[^;{)]*\)\s*;")
# Makefile CFLAGS that name a target: the platform architectures the folder can run on
_ARCH_FLAGS = (
    (re.compile(r"-mcpu=cortex-m(4|7|33|35p|55|85)\b"), ("armv7e-m",)),
    (re.compile(r"-mcpu=cortex-m3\b"), ("armv7-m", "armv7e-m")),
    (re.compile(r"-march=armv7e?-m\b"), ("armv7e-m",)),
    (re.compile(r"-m(avx2?|avx512\w*|sse\d\w*|bmi2|aes|pclmul)\b"), ("x86_64",)),
    (re.compile(r"-march=rv32\w*"), ("riscv32",)),
)


@dataclass(frozen=True)
class Layout:
    """Where an api.h sits in a submission package: scheme and implementation names."""

    package: Path  # the package root (parent of the *_Implementation folder)
    scheme: str
    name: str


@dataclass(frozen=True)
class SourcePlan:
    """The folder's files sorted out: what to compile and how, what is left out and why."""

    sources: tuple[Path, ...]
    excluded: tuple[tuple[str, str], ...]  # (file name, reason)
    nist_randombytes: tuple[Path, ...]  # sources compiled with NIST_RANDOMBYTES_FLAGS
    openssl: tuple[str, ...]  # "file: <openssl/x.h>" of kept sources and headers
    arch: tuple[str, ...] | None  # from the Makefile's target flags; None: no restriction


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def layout(folder: Path, algname: str | None) -> Layout | None:
    """The scheme/implementation names of an api.h folder inside a NIST package, or None
    when no ancestor is a `*_Implementation` folder. The scheme is CRYPTO_ALGNAME made
    lower-case with dashes (Falcon-512 -> falcon-512), else the parameter-set folder's
    name; the implementation is the folder's name two levels down, else ref/opt/add."""
    parts = folder.resolve().parts
    idx = [i for i, p in enumerate(parts) if IMPL_DIR.match(p)]
    if not idx:
        return None
    i = idx[-1]
    below = parts[i + 1 :]
    package = Path(*parts[:i])
    kind = IMPL_NAMES[parts[i].split("_")[0].lower()]
    if len(below) >= 2:
        name, param = below[-1], below[-2]
    elif len(below) == 1:
        name, param = kind, below[0]
    else:
        name, param = kind, package.name
    scheme = _slug(algname) if algname and _slug(algname) else _slug(param)
    return Layout(package=package, scheme=scheme, name=name)


def _text(path: Path) -> str:
    return _COMMENT.sub(" ", path.read_text(errors="replace"))


_DIRECTIVE = re.compile(r"^[ \t]*#[ \t]*(\w+)[ \t]*(\w*)")


def _unconditional(text: str) -> str:
    """The lines of (comment-free) text outside every #if/#ifdef/#ifndef block, a header's
    include guard not counting as one: what the file says whatever the configuration.
    A `main` under `#if defined(DEBUGTEST)` (pqm4's BIKE) or an OpenSSL include in one
    branch of a configuration switch (pqm4's UOV) is not the file's unconditional content."""
    lines = text.splitlines()
    guard = None
    directives = [(i, m.group(1), m.group(2)) for i, line in enumerate(lines) if (m := _DIRECTIVE.match(line))]
    if len(directives) >= 2 and directives[0][1] == "ifndef" and directives[1][1:] == ("define", directives[0][2]):
        guard = directives[0][0]
    out, depth, guard_depth = [], 0, None
    for i, line in enumerate(lines):
        m = _DIRECTIVE.match(line)
        if m and m.group(1) in ("if", "ifdef", "ifndef"):
            if i == guard:
                guard_depth = depth + 1
            depth += 1
            continue
        if m and m.group(1) == "endif":
            depth -= 1
            continue
        if depth == 0 or depth == guard_depth:
            out.append(line)
    return "\n".join(out)


class _Files:
    """One plan's reads: each file's comment-free text and its unconditional part, and each
    quoted include's resolution, computed once per plan (a folder's sources share most of
    their headers; over pqm4's corpus, discovery read every header once per source before)."""

    def __init__(self) -> None:
        self._text: dict[Path, str] = {}
        self._uncond: dict[Path, str] = {}
        self._found: dict[tuple[Path, str], Path | None] = {}
        self._decl: dict[Path, bool] = {}
        self._ssl: dict[Path, list[str]] = {}

    def text(self, path: Path) -> str:
        if path not in self._text:
            self._text[path] = _text(path)
        return self._text[path]

    def unconditional(self, path: Path) -> str:
        if path not in self._uncond:
            self._uncond[path] = _unconditional(self.text(path))
        return self._uncond[path]

    def nist_decl(self, path: Path) -> bool:
        """The file declares NIST's randombytes outside every #if block."""
        if path not in self._decl:
            self._decl[path] = bool(_NIST_RB_DECL.search(self.unconditional(path)))
        return self._decl[path]

    def ssl_includes(self, path: Path) -> list[str]:
        if path not in self._ssl:
            self._ssl[path] = _INCLUDE_SSL.findall(self.unconditional(path))
        return self._ssl[path]

    def find(self, d: Path, inc: str) -> Path | None:
        key = (d, inc)
        if key not in self._found:
            cand = (d / inc).resolve()
            self._found[key] = cand if cand.is_file() else None
        return self._found[key]


def _closure(src: Path, folder: Path, extra: list[Path], files: _Files | None = None) -> list[Path]:
    """src and the headers it includes with quotes that live in the folder or its include dirs."""
    files = files or _Files()
    out, todo = [], [src]
    seen: set[Path] = set()
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        out.append(p)
        for inc in _INCLUDE_Q.findall(files.text(p)):
            for d in [p.parent, folder, *extra]:
                cand = files.find(d, inc)
                if cand is not None:
                    todo.append(cand)
                    break
    return out


def _makefile_arch(folder: Path) -> tuple[str, ...] | None:
    flags = ""
    for mk in ("Makefile", "makefile", "GNUmakefile"):
        if (folder / mk).is_file():
            for line in (folder / mk).read_text(errors="replace").splitlines():
                if re.match(r"\s*(CFLAGS|CPPFLAGS|ARCHFLAGS)\s*[+:?]?=", line):
                    flags += " " + line
    for pat, arches in _ARCH_FLAGS:
        if pat.search(flags):
            return arches
    return None


def plan_sources(folder: Path, sources: list[Path], include: list[Path]) -> SourcePlan:
    """Sort the folder's sources: keep, leave out (programs, NIST rng.c), map randombytes."""
    kept, excluded, nist, ssl = [], [], [], []
    files = _Files()
    for src in sources:
        if src.suffix not in (".c",):
            kept.append(src)
            continue
        text = files.text(src)
        if _MAIN_DEF.search(files.unconditional(src)):
            excluded.append(
                (src.name, "a program (defines main), e.g. NIST's KAT generator; pqlab's harness replaces it")
            )
            continue
        m = _RNG_DEF.search(text)
        if m:
            excluded.append(
                (
                    src.name,
                    f"defines {m.group(1)}() (NIST rng.c or another randomness source); pqlab's DRBG replaces it",
                )
            )
            continue
        kept.append(src)
    seen_ssl: set[str] = set()
    for src in kept:
        if src.suffix != ".c":
            continue
        closure = _closure(src, folder, include, files)
        if any(files.nist_decl(f) for f in closure):
            nist.append(src)
        for f in closure:
            for hdr in files.ssl_includes(f):
                key = f"{f.name}: <{hdr}>"
                if key not in seen_ssl:
                    seen_ssl.add(key)
                    ssl.append(key)
    return SourcePlan(tuple(kept), tuple(excluded), tuple(nist), tuple(ssl), _makefile_arch(folder))


# --- the package's own KAT files ---------------------------------------------------------------


def _kat_dirs(folder: Path) -> list[Path]:
    """KAT folders next to the implementation: in it, and up to the package root."""
    folder = folder.resolve()
    stops = [folder]
    lay = layout(folder, None)
    if lay is not None:
        p = folder.parent
        while True:
            stops.append(p)
            if p == lay.package or p == p.parent:
                break
            p = p.parent
    out = []
    for d in stops:
        for k in sorted(d.iterdir()) if d.is_dir() else []:
            if k.is_dir() and k.name.lower() == "kat":
                out.append(k)
        if d == folder and any(folder.glob("*.rsp")):
            out.append(folder)
    return out


def _first_record(path: Path) -> dict[str, str]:
    rec: dict[str, str] = {}
    with path.open(errors="replace") as fh:
        for line in fh:
            line = line.strip()
            if not line:
                if rec:
                    break
                continue
            if "=" in line and not line.startswith("#"):
                k, v = line.split("=", 1)
                rec[k.strip()] = v.strip()
    return rec


def kat_reference(folder: Path, scheme: str, name: str, sizes: dict[str, int]) -> Path | None:
    """The package's own .rsp for this implementation: among the KAT folders next to it,
    the .rsp files whose first record has this api.h's public and secret key sizes; if
    several do, the one whose path names the scheme or implementation. None: no KAT file.
    Several different candidates left: an error naming them."""
    pk, sk = sizes.get("CRYPTO_PUBLICKEYBYTES"), sizes.get("CRYPTO_SECRETKEYBYTES")
    cands = []
    for d in _kat_dirs(folder):
        for rsp in sorted(d.rglob("*.rsp")):
            rec = _first_record(rsp)
            if pk is not None and len(rec.get("pk", "")) != 2 * pk:
                continue
            if sk is not None and len(rec.get("sk", "")) != 2 * sk:
                continue
            cands.append(rsp)
    if len(cands) > 1:
        keys = {_slug(scheme).replace("-", ""), _slug(name).replace("-", "")}
        named = [c for c in cands if any(k and k in _slug(str(c)).replace("-", "") for k in keys)]
        cands = named or cands
    if len({c.read_bytes() for c in cands}) > 1:
        raise PqlabError(
            f"{folder}: several KAT files fit this implementation's key sizes: {', '.join(map(str, cands))}"
        )
    return cands[0] if cands else None


def parse_rsp(text: str) -> tuple[list[str], list[list[tuple[str, str]]]]:
    """(header lines before the first record, records as (name, value) lists in file order)."""
    header: list[str] = []
    records: list[list[tuple[str, str]]] = []
    cur: list[tuple[str, str]] = []
    for line in text.splitlines():
        s = line.strip()
        if not s:
            if cur:
                records.append(cur)
                cur = []
            continue
        if "=" in s and not s.startswith("#"):
            k, v = s.split("=", 1)
            cur.append((k.strip(), v.strip()))
        elif not records and not cur:
            header.append(s)
        else:
            raise PqlabError(f"unexpected line in a .rsp record: {s[:80]!r}")
    if cur:
        records.append(cur)
    return header, records


def compare_rsp(got: str, ref_path: Path, count: int) -> tuple[bool, str]:
    """Compare generated KAT output with the package's .rsp on the first `count` records:
    (equal, what was compared or where the first difference is)."""
    ref_header, ref_recs = parse_rsp(ref_path.read_text(errors="replace"))
    header, recs = parse_rsp(got)
    where = f"{ref_path.parent.name}/{ref_path.name}"
    if len(recs) < count:
        return False, f"the run gave {len(recs)} records, {count} asked; vs {where}"
    if len(ref_recs) < count:
        return False, f"{where} has only {len(ref_recs)} records, {count} asked"
    if header != ref_header:
        return False, f"header {header!r} differs from {where}'s {ref_header!r}"
    for i in range(count):
        a = dict(recs[i])
        label = dict(ref_recs[i]).get("count", str(i))
        if [k for k, _ in recs[i]] != [k for k, _ in ref_recs[i]]:
            return (
                False,
                f"record count = {label}: fields {[k for k, _ in recs[i]]} vs {[k for k, _ in ref_recs[i]]} in {where}",
            )
        for k, v in ref_recs[i]:
            if a[k].upper() != v.upper():
                pos = next(
                    (j for j, (x, y) in enumerate(zip(a[k].upper(), v.upper())) if x != y), min(len(a[k]), len(v))
                )
                return False, (
                    f"first differing record count = {label}: field {k} differs at character {pos} "
                    f"(lengths {len(a[k])} / {len(v)}) vs {where}"
                )
    return True, f"{count} records equal to the package's {where}"
