"""Export: one of pqlab's own implementations, for one platform, as a self-contained folder a user
drops into a product (docs/export.md).

The folder holds exactly the files the implementation needs on that platform, found by building
them the way pqlab builds them: every candidate source (the implementation's sources from its
pqlab.toml, lib/common, the platform's native backend: the lists pqlab/build.py and
pqlab/registry.py use, not a copy of them) is compiled through build.build_program, the objects
the implementation's own objects reach through their undefined symbols are kept (a link-time
closure over `nm`), and the headers are those the compiler read for them (ninja's dependency
log). Around them the export writes:

- pqlab_config.h, the one configuration header (namespace prefix, randombytes function, hash
  provider, debug bound checks), and pqlab_export_symbols.h, the map that puts every global
  symbol of the folder under the prefix (so two exports link into one program);
- per scheme: <scheme>/api.h (the NIST API header of the tree), <scheme>/<family>_<file>.c (each
  family source with the parameter set and namespace of the implementation's pqlab.toml), and a
  public header <ns>.h declaring the NIST and the deterministic internal API under their
  namespaced names;
- pqlab_all.c (a single compilation unit), pqlab.mk (a Makefile fragment), CMakeLists.txt;
- EXPORT.json: pqlab commit and dirty flag, implementation, platform, compiler and flags, the
  files with sizes and SHA-256, the symbols the application must provide, and the checks run
  (the folder's own build warning-free, every global under the prefix, the single compilation
  unit defining the same symbols; with --verify the harness's test and KAT programs built
  against the folder and run on the platform).

`implementations(folder)` turns an export back into Implementation records whose sources are the
folder's (standalone: no lib/common, no backend flags), so that the harness is built against it
through build.build (tests/test_export.py).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from pqlab import ROOT, PqlabError, build
from pqlab.platforms import Platform
from pqlab.registry import Implementation, close_matches, discover
from pqlab.results import git_state

MANIFEST = "EXPORT.json"
CONFIG = "pqlab_config.h"
SYMBOLS = "pqlab_export_symbols.h"
SCU = "pqlab_all.c"
MAKE_FRAGMENT = "pqlab.mk"
CMAKE = "CMakeLists.txt"
COMMON = ROOT / "lib" / "common"
# the harness-side half of the debug bound checks (reports through the HAL): an application
# with PQLAB_CONFIG_CONTRACT_CHECKS provides pqlab_contract_failed itself (docs/export.md)
HARNESS_ONLY = ("contract.c", "pqlab_config.h")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# nm types of a global definition (W, V: weak; u: unique global; i: indirect function); lower-case
# w and v are weak references to undefined symbols, which count as undefined
_DEFINED = set("TDBRWVCSGiu")


@dataclass(frozen=True)
class Options:
    prefix: str | None = None  # namespace prefix; None: pqlab_<schemes>_
    randombytes: str = "pqlab_randombytes"
    keccak: str | None = None  # the application's Keccak-f[1600], void f(uint64_t s[25])
    sha2: tuple[str, str] | None = None  # the application's SHA-256 and SHA-512 compression functions
    contract_checks: bool = False

    def check(self) -> None:
        named = [("--prefix", self.prefix), ("--randombytes", self.randombytes), ("--keccak", self.keccak)]
        named += [("--sha2", f) for f in self.sha2 or ()]
        for what, value in named:
            if value is not None and not _IDENT.fullmatch(value):
                raise PqlabError(f"{what} {value!r}: not a C identifier")


# --- selection ---------------------------------------------------------------------------------


def resolve(schemes: list[str] | tuple[str, ...], impl_name: str, plat: Platform) -> list[Implementation]:
    """The implementation `impl_name` of every scheme, checked to be pqlab's own and to run on
    `plat`; an unknown or unsuitable combination is an error naming it."""
    if not schemes:
        raise PqlabError("export: name at least one scheme")
    if len(set(schemes)) != len(schemes):
        raise PqlabError(f"export: a scheme is named twice: {' '.join(schemes)}")
    found = discover()
    known = {i.scheme for i in found}
    out = []
    for s in schemes:
        if s not in known:
            raise PqlabError(f"export: unknown scheme '{s}'{close_matches(s, known)}")
        names = {i.name: i for i in found if i.scheme == s}
        if impl_name not in names:
            raise PqlabError(f"export: scheme {s} has no implementation '{impl_name}'{close_matches(impl_name, names)}")
        impl = names[impl_name]
        if not impl.own:
            raise PqlabError(f"export: {impl.id} is a foreign implementation ({impl.dir}); export takes pqlab's own")
        if not impl.runs_on(plat):
            raise PqlabError(f"export: {impl.id} does not run on platform {plat.name} (its pqlab.toml or fpr)")
        out.append(impl)
    return out


def short_name(impl: Implementation) -> str:
    """The implementation's namespace from its pqlab.toml, e.g. pqlab_mlkem768_ref."""
    for f in impl.cflags:
        m = re.fullmatch(r"-DPQLAB_NS=(\w+)", f)
        if m:
            return m.group(1).rstrip("_")
    raise PqlabError(f"{impl.dir / 'pqlab.toml'}: no -DPQLAB_NS in cflags; cannot export {impl.id}")


def default_prefix(impls: list[Implementation]) -> str:
    return "pqlab_" + "_".join(re.sub(r"\W", "", i.scheme).lower() for i in impls) + "_"


def _defines(impl: Implementation) -> tuple[list[tuple[str, str]], list[str]]:
    """(the -D defines, the other flags) of an implementation's pqlab.toml cflags."""
    defs, other = [], []
    for f in impl.cflags:
        m = re.fullmatch(r"-D(\w+)(?:=(.*))?", f)
        if m:
            defs.append((m.group(1), m.group(2) if m.group(2) is not None else "1"))
        else:
            other.append(f)
    return defs, other


# --- generated files ---------------------------------------------------------------------------

_HEAD = "/* SPDX-License-Identifier: MIT */\n/* Generated by pqlab export (docs/export.md)"


def config_header(plat: Platform, opts: Options, prefix: str) -> str:
    meta = [d for d in build.backends(plat)[1] if d.startswith("-DPQLAB_NATIVE_META_HEADER=")]
    meta_line = ""
    if meta:
        meta_line = (
            f"#ifndef PQLAB_NATIVE_META_HEADER\n#define PQLAB_NATIVE_META_HEADER {meta[0].split('=', 1)[1]}\n#endif\n"
        )
    for x in build.core_defines(plat):  # a core's schedule of the backend (backend.toml [core.*])
        name, _, val = x.partition("=")
        meta_line += f"#ifndef {name}\n#define {name} {val or '1'}\n#endif\n"
    keccak = (
        f"#define PQLAB_CONFIG_KECCAKF1600 {opts.keccak}"
        if opts.keccak
        else "/* #define PQLAB_CONFIG_KECCAKF1600 my_keccakf1600 */"
    )
    sha2 = (
        f"#define PQLAB_CONFIG_SHA256_COMPRESS {opts.sha2[0]}\n#define PQLAB_CONFIG_SHA512_COMPRESS {opts.sha2[1]}"
        if opts.sha2
        else "/* #define PQLAB_CONFIG_SHA256_COMPRESS my_sha256_compress */\n"
        "/* #define PQLAB_CONFIG_SHA512_COMPRESS my_sha512_compress */"
    )
    checks = (
        "#define PQLAB_CONFIG_CONTRACT_CHECKS" if opts.contract_checks else "/* #define PQLAB_CONFIG_CONTRACT_CHECKS */"
    )
    return f"""{_HEAD}: the configuration of this folder, the one
 * header to edit. Preprocessor definitions only: the assembly includes it too. */
#ifndef PQLAB_CONFIG_H
#define PQLAB_CONFIG_H

/* 1. Namespace (set at export time: `pqlab export --prefix`). Every global symbol of this folder
 * is the prefix followed by its pqlab name without "pqlab_" (pqlab_shake256 ->
 * {prefix}shake256), through the map in {SYMBOLS}; the code keeps calling the pqlab names.
 * The map and the public headers spell the prefix out (so that the public headers of two exports
 * share a translation unit): to change it, export again with another --prefix. Two exports in
 * one program need two prefixes. */
#define PQLAB_CONFIG_PREFIX {prefix}

/* 2. Randomness. The function the library calls for random bytes (key generation,
 * encapsulation, hedged signing): int f(uint8_t *out, size_t n), 0 on success, nonzero on
 * failure (the operation then fails with its outputs zeroised). The application defines it. */
#define PQLAB_CONFIG_RANDOMBYTES {opts.randombytes}

/* 3. Hash provider. Undefined: pqlab's Keccak-f[1600] (portable C or the platform's assembly)
 * and SHA-2. Defined: the application's Keccak-f[1600] (a hardware SHA-3 unit, a ROM routine),
 * void f(uint64_t s[25]) on the standard state (lane x + 5y, little-endian, FIPS 202 3.1.2);
 * pqlab's sponge (SHA-3, SHAKE, the x4 variants) runs on it and none of pqlab's permutation
 * code is built. Exported with --keccak, the folder does not even hold the assembly. */
{keccak}

/* 3b. SHA-2 provider. Undefined: pqlab's. Defined (both; --sha2 F256,F512): the application's
 * compression functions (a hardware SHA-2 unit), FIPS 180-4 6.2.2 / 6.4.2 on whole blocks:
 *   void F256(uint32_t h[8], const uint8_t *blocks, size_t nblocks)   64-byte blocks
 *   void F512(uint64_t h[8], const uint8_t *blocks, size_t nblocks)   128-byte blocks
 * pqlab's padding and SHA-224/256/384/512 API run on them; its own compression code is not
 * built. Only schemes that use SHA-2 call them (HashML-DSA, SLH-DSA-SHA2). */
{sha2}

/* 4. Debug bound checks. Defined: every kernel dispatcher checks its contract's input and
 * output bounds (lib/native/api.h) and calls
 *   void pqlab_contract_failed(const char *kernel, const char *what)  (noreturn)
 * on the first violation, which the application defines. For testing, not for production. */
{checks}

/* ---- derived settings: not to be edited ---- */
{meta_line}#ifdef PQLAB_CONFIG_KECCAKF1600
#define PQLAB_KECCAKF1600_EXTERNAL PQLAB_CONFIG_KECCAKF1600
#endif
#if defined(PQLAB_CONFIG_SHA256_COMPRESS) != defined(PQLAB_CONFIG_SHA512_COMPRESS)
#error "pqlab_config.h: define both PQLAB_CONFIG_SHA256_COMPRESS and PQLAB_CONFIG_SHA512_COMPRESS, or neither"
#elif defined(PQLAB_CONFIG_SHA256_COMPRESS)
#define PQLAB_SHA2_COMPRESS_EXTERNAL
#endif
#if defined(PQLAB_CONFIG_CONTRACT_CHECKS) && !defined(PQLAB_CONTRACT_CHECKS)
#define PQLAB_CONTRACT_CHECKS
#endif
#define pqlab_randombytes PQLAB_CONFIG_RANDOMBYTES
#include "{SYMBOLS}"

#endif
"""


def symbols_header(names: list[str], prefix: str) -> str:
    lines = [
        f"{_HEAD}: every global symbol the folder defines,",
        " * mapped under the prefix (PQLAB_CONFIG_PREFIX, pqlab_config.h). Not to be edited. */",
        "#ifndef PQLAB_EXPORT_SYMBOLS_H",
        "#define PQLAB_EXPORT_SYMBOLS_H",
        "",
    ]
    lines += [f"#define {n} {prefix}{n[len('pqlab_') :]}" for n in names]
    return "\n".join([*lines, "", "#endif", ""])


def wrapper(impl: Implementation, src: Path, rel: str) -> str:
    defs, _ = _defines(impl)
    lines = [
        f"{_HEAD}: {rel} built as {impl.scheme} ({impl.name});",
        " * the defines are the implementation's pqlab.toml cflags. */",
        *(f"#define {k} {v}" for k, v in defs),
        f'#include "../{rel}"',
        "",
    ]
    return "\n".join(lines)


_PROTO = re.compile(r"\bint\s+(crypto_\w+)\s*\(([^;{}]*)\)\s*;")
_NUMDEF = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(PQLAB_\w+)[ \t]+(\d+)\b", re.M)


def _api_chain(impl: Implementation) -> list[Path]:
    """The headers from the implementation's api.h to the one that declares its crypto_*
    functions, following quoted includes (the small-stack variants include their ref's api.h;
    Hawk's api.h includes lib/hawk/hawk_api.h from the implementation's include folders)."""
    path = impl.dir / "api.h"
    chain = [path]
    dirs = [impl.dir, *(Path(d) for d in impl.include)]
    for _ in range(4):
        text = re.sub(r"/\*.*?\*/|//[^\n]*", " ", path.read_text(), flags=re.S)
        if _PROTO.search(text):
            return chain
        inc = re.findall(r'^\s*#\s*include\s+"([^"]+)"', text, re.M)
        # the including folder first (as the compiler searches), then the include folders
        found = [d / i for i in inc for d in [path.parent, *dirs] if (d / i).is_file()]
        # an api.h first: the small-stack variants' own chain
        nxt = sorted(found, key=lambda f: f.name != "api.h")
        nxt = [f for f in nxt if f.resolve() not in {c.resolve() for c in chain}]
        if not nxt:
            break
        path = nxt[0]
        chain.append(path)
    raise PqlabError(f"{impl.dir / 'api.h'}: no crypto_* prototypes found")


def api_source(impl: Implementation) -> Path:
    """The header that declares the implementation's API: its api.h, or the header that one
    includes (the small-stack variants include their ref's api.h, with their own PQLAB_NS)."""
    return _api_chain(impl)[-1]


def tree_api(impl: Implementation) -> str:
    return (impl.dir / "api.h").relative_to(ROOT).as_posix()


def nist_header(impl: Implementation) -> str:
    ns = short_name(impl) + "_"
    return "\n".join(
        [
            f"{_HEAD}: the NIST API of {impl.scheme} ({impl.name}),",
            f" * {tree_api(impl)} (the tree's, at its tree path) under the implementation's namespace. One scheme",
            " * per translation unit (the plain crypto_* names); the public header <namespace>.h in the",
            " * folder above declares the same functions under namespaced names. */",
            "#ifndef PQLAB_NS",
            f"#define PQLAB_NS {ns}",
            "#endif",
            f'#include "../{tree_api(impl)}"',
            "",
        ]
    )


def public_header(impl: Implementation, prefix: str) -> str:
    """The scheme's NIST and deterministic internal API under namespaced names (several schemes
    in one translation unit), with the sizes; taken from the implementation's api.h."""
    # the names from the header that declares them, ALGNAME and constants from the whole chain
    texts = [re.sub(r"/\*.*?\*/|//[^\n]*", " ", h.read_text(), flags=re.S) for h in _api_chain(impl)]
    plain = texts[-1]
    every = "\n".join(texts)
    ns = short_name(impl)
    up = ns.upper()
    protos = _PROTO.findall(plain)
    if not protos:
        raise PqlabError(f"{impl.dir / 'api.h'}: no crypto_* prototypes found")
    alg = re.search(r'#\s*define\s+CRYPTO_ALGNAME\s+("[^"]*")', every)
    lines = [
        f"{_HEAD}: {impl.scheme} ({impl.name}), the",
        f" * functions of {impl.scheme}/api.h under their namespaced names (the folder's symbols, prefix",
        f" * {prefix}), so that several schemes, of this export or of others, share a translation unit.",
        " * Return values and arguments: that api.h. */",
        f"#ifndef {up}_H",
        f"#define {up}_H",
        "",
        "#include <stddef.h>",
        "#include <stdint.h>",
        "",
    ]
    if alg:
        lines.append(f"#define {up}_ALGNAME {alg.group(1)}")
    for key, value in sorted(impl.sizes.items()):
        lines.append(f"#define {up}_{key.removeprefix('CRYPTO_')} {value}")
    consts = [(k, v) for k, v in _NUMDEF.findall(every) if not k.endswith("_H") and k != "PQLAB_NS"]
    if consts:
        lines += ["", "/* constants of the API (pre-hash identifiers) */"]
        lines += [f"#ifndef {k}\n#define {k} {v}\n#endif" for k, v in consts]
    lines.append("")
    link = prefix + ns.removeprefix("pqlab_")
    for name, args in protos:
        args = " ".join(args.split())
        lines.append(f"#define {ns}_{name} {link}_{name}")
        lines.append(f"int {link}_{name}({args});")
    return "\n".join([*lines, "", "#endif", ""])


def makefile(
    name: str, c_srcs: list[str], asm_srcs: list[str], inc: list[str], flags: list[str], plat: Platform
) -> str:
    v = name.upper()  # the variables carry the library's name: several exports in one Makefile

    def var(items: list[str]) -> str:
        return "".join(f" \\\n    $({v}_DIR)/{s}" for s in items)

    incs = " ".join(f"-I$({v}_DIR)" + ("" if d == "." else f"/{d}") for d in inc)
    return f"""# SPDX-License-Identifier: MIT
# Generated by pqlab export (docs/export.md): the Makefile fragment of this folder.
#   include path/to/this/folder/{MAKE_FRAGMENT}
# then link $({v}_LIB), which the rules below build with your $(CC) $(CFLAGS) into
# $({v}_BUILD), or compile $({v}_SOURCES) (or $({v}_SCU_SOURCES): the single compilation
# unit plus the assembly) with $({v}_CFLAGS) in your own rules. Each export needs its own
# flags: compile the files of two folders separately.
# Checked with {plat.cc} {" ".join(plat.cflags)} (EXPORT.json).
{v}_DIR := $(patsubst %/,%,$(dir $(abspath $(lastword $(MAKEFILE_LIST)))))
{v}_C_SOURCES :={var(c_srcs)}
{v}_ASM_SOURCES :={var(asm_srcs)}
{v}_SOURCES := $({v}_C_SOURCES) $({v}_ASM_SOURCES)
{v}_SCU_SOURCES := $({v}_DIR)/{SCU} $({v}_ASM_SOURCES)
{v}_CFLAGS := -std=c11 {" ".join(flags)} {incs}
{v}_BUILD ?= build-{name}
{v}_OBJECTS := $(patsubst $({v}_DIR)/%,$({v}_BUILD)/%.o,$({v}_SOURCES))
{v}_LIB := $({v}_BUILD)/lib{name}.a

$({v}_BUILD)/%.o: $({v}_DIR)/%
\t@mkdir -p $(dir $@)
\t$(CC) $(CFLAGS) $({v}_CFLAGS) -c $< -o $@

$({v}_LIB): $({v}_OBJECTS)
\t$(AR) rcs $@ $^
"""


def cmakelists(name: str, c_srcs: list[str], asm_srcs: list[str], inc: list[str], flags: list[str]) -> str:
    langs = "C ASM" if asm_srcs else "C"
    srcs = "\n".join(f"    {s}" for s in c_srcs)
    asm = "\n".join(f"    {s}" for s in asm_srcs)
    incs = " ".join("${CMAKE_CURRENT_SOURCE_DIR}" + ("" if d == "." else f"/{d}") for d in inc)
    opts = f"target_compile_options({name} PRIVATE {' '.join(flags)})\n" if flags else ""
    return f"""# SPDX-License-Identifier: MIT
# Generated by pqlab export (docs/export.md). In your project:
#   add_subdirectory(path/to/this/folder)
#   target_link_libraries(your_target PRIVATE {name})
# -DPQLAB_SCU=ON builds the single compilation unit ({SCU}) instead of the separate files.
cmake_minimum_required(VERSION 3.13)
project({name} LANGUAGES {langs})

option(PQLAB_SCU "build {name} from the single compilation unit {SCU}" OFF)
set({name.upper()}_ASM_SOURCES
{asm}
)
if(PQLAB_SCU)
  add_library({name} STATIC {SCU} ${{{name.upper()}_ASM_SOURCES}})
else()
  add_library({name} STATIC
{srcs}
    ${{{name.upper()}_ASM_SOURCES}})
endif()
target_include_directories({name} PUBLIC {incs})
set_target_properties({name} PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF)
{opts}# the target's name for the including project
set(PQLAB_EXPORT_LIBRARY {name} PARENT_SCOPE)
"""


def scu_source(common: list[str], impls: list[Implementation], families: dict[str, list[str]]) -> str:
    """One .c including every C source: the common code, then each scheme's family sources with
    its defines (set before, removed after, so the next scheme gets its own)."""
    lines = [f"{_HEAD}: the single compilation unit: every C", " * source of the folder in one file. */"]
    lines += [f'#include "{s}"' for s in common]
    for impl in impls:
        defs, _ = _defines(impl)
        lines.append(f"/* {impl.scheme} ({impl.name}) */")
        lines += [f"#define {k} {v}" for k, v in defs]
        lines += [f'#include "{s}"' for s in families[impl.scheme]]
        lines += [f"#undef {k}" for k, _ in defs]
    return "\n".join([*lines, ""])


# --- the closure -------------------------------------------------------------------------------


def _nm(plat: Platform, obj: Path) -> tuple[set[str], set[str], set[str]]:
    """(defined globals, weak definitions, undefined) of an object file."""
    tool = plat.tool("nm") if plat.tools_prefix else "nm"
    out = subprocess.run([tool, str(obj)], capture_output=True, text=True)
    if out.returncode != 0:
        raise PqlabError(f"{tool} {obj}: {out.stderr.strip()}")
    defined, weak, undef = set(), set(), set()
    for line in out.stdout.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] in ("U", "w", "v"):
            undef.add(parts[1])
        elif len(parts) == 3 and parts[1] in _DEFINED:
            defined.add(parts[2])
            if parts[1] in "WVwv":
                weak.add(parts[2])
    return defined, weak, undef


def _header_deps(out_dir: Path, objs: list[Path]) -> set[Path]:
    """The headers the compiler read for `objs` (ninja's dependency log; -MMD: no system headers)."""
    proc = subprocess.run(
        [build.ninja_exe(), "-C", str(out_dir), "-t", "deps", *map(str, objs)], capture_output=True, text=True
    )
    if proc.returncode != 0:
        raise PqlabError(f"ninja -t deps in {out_dir}: {proc.stderr.strip()}")
    deps = set()
    for line in proc.stdout.splitlines():
        if line.startswith("    "):
            deps.add(Path(line.strip()).resolve())
    return deps


@dataclass
class Stage:
    root: Path
    c_sources: list[str]  # folder-relative: common C, then wrappers
    asm_sources: list[str]
    includes: list[str]  # folder-relative include directories ("." = the folder)


def _stage(folder: Path, impls: list[Implementation], plat: Platform, opts: Options, prefix: str) -> tuple[Stage, dict]:
    """Write every candidate file (and the generated ones) into `folder`; returns the stage and
    per scheme the wrapper files and the family sources they include."""
    copies: dict[Path, str] = {}

    def take(src: Path) -> str:
        rel = src.resolve().relative_to(ROOT).as_posix()
        copies[src.resolve()] = rel
        return rel

    common_c = [take(s) for s in build._sources([COMMON]) if s.name not in HARNESS_ONLY]
    for h in sorted(COMMON.glob("*.h")):
        if h.name not in HARNESS_ONLY:
            take(h)
    for h in sorted((ROOT / "lib" / "native").glob("*.h")):
        take(h)
    backend_srcs = build.backends(plat)[0]
    asm = []
    for s in backend_srcs:
        if s.suffix == ".c":
            common_c.append(take(s))
        else:
            asm.append(take(s))
    backend_dirs = sorted({s.parent.resolve() for s in backend_srcs} | _backend_dirs(plat))
    for d in backend_dirs:
        for h in sorted(d.glob("*.h")):
            take(h)
    per_scheme: dict[str, dict] = {}
    for impl in impls:
        fam = []
        for src in impl.sources:
            fam.append(take(src))
        for d in impl.include:
            for h in sorted(Path(d).glob("*.h")):
                take(h)
        for h in {impl.dir / "api.h", api_source(impl)}:
            take(h)
        per_scheme[impl.scheme] = {"family": fam}
    for src, rel in copies.items():
        dst = folder / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, dst)
    wrappers: list[str] = []
    for impl in impls:
        sdir = folder / impl.scheme
        sdir.mkdir(parents=True, exist_ok=True)
        (sdir / "api.h").write_text(nist_header(impl))
        # a translation unit that includes it: the headers it reads join the folder
        (folder.parent / "probe").mkdir(exist_ok=True)
        (folder.parent / "probe" / f"{impl.scheme}.c").write_text(f'#include "{sdir / "api.h"}"\n')
        ws = []
        for rel in per_scheme[impl.scheme]["family"]:
            p = Path(rel)
            name = f"{impl.scheme}/{p.parent.name}_{p.stem}.c"
            (folder / name).write_text(wrapper(impl, p, rel))
            ws.append(name)
        per_scheme[impl.scheme]["wrappers"] = ws
        wrappers += ws
        (folder / f"{short_name(impl)}.h").write_text(public_header(impl, prefix))
    (folder / CONFIG).write_text(config_header(plat, opts, prefix))
    (folder / SYMBOLS).write_text(symbols_header([], prefix))
    # the implementations' include folders (Hawk's sources read lib/fndsa's headers)
    impl_incs = [Path(d).resolve().relative_to(ROOT).as_posix() for i in impls for d in i.include]
    incs = [".", "lib/common", *(d.relative_to(ROOT).as_posix() for d in backend_dirs)]
    incs += [d for d in dict.fromkeys(impl_incs) if d not in incs]
    return Stage(folder, common_c + wrappers, asm, incs), per_scheme


def _backend_dirs(plat: Platform) -> set[Path]:
    return {(build.NATIVE / n).resolve() for n in plat.raw.get("backends", [])}


def _compile(plat: Platform, stage: Stage, sources: list[str], out: Path, extra: list[str]) -> list[Path]:
    objs = build.build_program(
        plat,
        out,
        [stage.root / s for s in sources],
        include=[stage.root / d for d in stage.includes],
        cflags=extra,
        kind="objects",
        standalone=True,
    )
    assert isinstance(objs, list)
    return objs


def _closure(plat: Platform, roots: list[Path], candidates: list[Path]) -> tuple[list[Path], set[str]]:
    """Objects reached from `roots` through undefined symbols; returns them and the symbols
    nothing in the candidates defines (the application's and the C library's)."""
    info = {o: _nm(plat, o) for o in candidates}
    strong: dict[str, Path] = {}
    weak: dict[str, Path] = {}
    for o, (defined, weaks, _) in info.items():
        for s in defined:
            (weak if s in weaks else strong).setdefault(s, o)
    keep = list(dict.fromkeys(roots))
    todo = list(keep)
    missing: set[str] = set()
    while todo:
        o = todo.pop()
        for s in info[o][2]:
            d = strong.get(s) or weak.get(s)
            if d is None:
                missing.add(s)
            elif d not in keep:
                keep.append(d)
                todo.append(d)
    return keep, missing


# --- export ------------------------------------------------------------------------------------


def export(
    schemes: list[str] | tuple[str, ...],
    impl_name: str,
    plat: Platform,
    out: Path,
    opts: Options = Options(),
    force: bool = False,
    verify: bool = False,
    jobs: int = 1,
) -> dict:
    """Write the export folder `out`; returns its manifest (also out/EXPORT.json)."""
    opts.check()
    impls = resolve(schemes, impl_name, plat)
    for impl in impls:
        short_name(impl)
    plat.check_toolchain()
    prefix = opts.prefix or default_prefix(impls)
    out = Path(out).absolute()
    if out.exists():
        if not out.is_dir():
            raise PqlabError(f"export: {out} exists and is not a folder")
        if any(out.iterdir()):
            if not force and not (out / MANIFEST).is_file():
                raise PqlabError(f"export: {out} is not empty and holds no {MANIFEST}; choose another folder")
            shutil.rmtree(out)
    flags = sorted({f for i in impls for f in _defines(i)[1]})
    with tempfile.TemporaryDirectory(prefix="pqlab-export-") as tmp:
        tmpd = Path(tmp)
        stage, per_scheme = _stage(tmpd / "stage", impls, plat, opts, prefix)
        probes = [str(tmpd / "probe" / f"{i.scheme}.c") for i in impls]
        objs = _compile(plat, stage, stage.c_sources + stage.asm_sources + probes, tmpd / "obj", flags)
        probe_objs, objs = objs[len(objs) - len(probes) :], objs[: len(objs) - len(probes)]
        by_src = dict(zip(stage.c_sources + stage.asm_sources, objs, strict=True))
        roots = [by_src[w] for s in per_scheme.values() for w in s["wrappers"]]
        keep, missing = _closure(plat, roots, objs)
        kept_src = [s for s, o in by_src.items() if o in keep]
        headers = _header_deps(tmpd / "obj", keep + probe_objs)
        stage_root = stage.root.resolve()
        names = sorted({s for o in keep for s in _nm(plat, o)[0]})
        bad = [n for n in names if not n.startswith("pqlab_")]
        if bad:
            raise PqlabError(f"export: global symbols without the pqlab_ prefix: {', '.join(bad)}")
        # the final folder: the kept sources, the headers they read, the generated files
        files = set(kept_src)
        for h in headers:
            if h.is_relative_to(stage_root):
                files.add(h.relative_to(stage_root).as_posix())
        out.mkdir(parents=True, exist_ok=True)
        for f in sorted(files):
            (out / f).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(stage.root / f, out / f)
        for impl in impls:
            shutil.copyfile(stage.root / impl.scheme / "api.h", out / impl.scheme / "api.h")
            shutil.copyfile(stage.root / f"{short_name(impl)}.h", out / f"{short_name(impl)}.h")
        (out / CONFIG).write_text(config_header(plat, opts, prefix))
        (out / SYMBOLS).write_text(symbols_header(names, prefix))
    c_srcs = [s for s in kept_src if s.endswith(".c")]
    asm_srcs = [s for s in kept_src if not s.endswith(".c")]
    families = {i.scheme: per_scheme[i.scheme]["family"] for i in impls}
    fam_dirs = [Path(f[0]).parent for f in families.values()]
    # a family's headers are guarded once per translation unit: two parameter sets of one family
    # (ML-KEM-512 and ML-KEM-768) cannot share one; such a folder has no single compilation unit
    scu_ok = len(set(fam_dirs)) == len(fam_dirs)
    if scu_ok:
        (out / SCU).write_text(scu_source([s for s in c_srcs if s.split("/")[0] not in schemes], impls, families))
    incs = [d for d in stage.includes if (out / d).is_dir()]
    lib_name = prefix.rstrip("_")
    (out / MAKE_FRAGMENT).write_text(makefile(lib_name, c_srcs, asm_srcs, incs, flags, plat))
    (out / CMAKE).write_text(cmakelists(lib_name, c_srcs, asm_srcs, incs, flags))
    final = Stage(out, c_srcs, asm_srcs, incs)
    checks = check_folder(plat, final, flags, prefix, scu_ok, tuple(f"{short_name(i)}.h" for i in impls))
    commit, dirty = git_state()
    manifest = {
        "pqlab": {"commit": commit, "dirty": bool(dirty)},
        "implementation": impl_name,
        "schemes": [
            {
                "scheme": i.scheme,
                "id": i.id,
                "namespace": short_name(i),
                "public_header": f"{short_name(i)}.h",
                "nist_header": f"{i.scheme}/api.h",
                "sources": per_scheme[i.scheme]["wrappers"],
                "defines": [f"{k}={v}" for k, v in _defines(i)[0]],
            }
            for i in impls
        ],
        "platform": plat.name,
        "toolchain": plat.toolchain,
        "compiler": plat.cc,
        "compiler_version": build.compiler_version(plat.cc),
        "platform_cflags": list(plat.cflags),
        "cflags": ["-std=c11", *flags],
        "library": lib_name,
        "config": {
            "prefix": prefix,
            "randombytes": opts.randombytes,
            "keccak": opts.keccak or "pqlab",
            "sha2": list(opts.sha2) if opts.sha2 else "pqlab",
            "contract_checks": opts.contract_checks,
        },
        "includes": incs,
        "c_sources": c_srcs,
        "asm_sources": asm_srcs,
        "single_compilation_unit": [SCU, *asm_srcs] if scu_ok else None,
        "needs": sorted(missing),
        "checks": checks,
        "verification": {"status": "not run", "detail": "export without --verify"},
    }
    manifest["files"] = _files(out)
    _write_manifest(out, manifest)
    if verify:
        manifest["verification"] = verify_folder(out, plat, jobs)
        manifest["files"] = _files(out)
        _write_manifest(out, manifest)
    return manifest


def _files(out: Path) -> dict:
    rows = []
    for p in sorted(out.rglob("*")):
        if p.is_file() and p.name != MANIFEST:
            data = p.read_bytes()
            rows.append(
                {"path": p.relative_to(out).as_posix(), "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
            )
    # the folder's files besides EXPORT.json itself
    return {"count": len(rows), "bytes": sum(r["bytes"] for r in rows), "list": rows}


def _write_manifest(out: Path, manifest: dict) -> None:
    (out / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n")


def check_folder(
    plat: Platform, stage: Stage, flags: list[str], prefix: str, scu: bool = True, public: tuple[str, ...] = ()
) -> dict:
    """Build the folder as a user would (every file, warnings as errors; the single compilation
    unit) and check that every global symbol carries the prefix and that both builds define the
    same globals."""
    with tempfile.TemporaryDirectory(prefix="pqlab-export-check-") as tmp:
        objs = _compile(plat, stage, stage.c_sources + stage.asm_sources, Path(tmp) / "files", flags)
        files_syms = sorted({s for o in objs for s in _nm(plat, o)[0]})
        if public:  # the public headers of all schemes in one translation unit, alone
            probe = Path(tmp) / "public.c"
            probe.write_text("".join(f'#include "{stage.root / h}"\n' for h in public) + "int pqlab_probe;\n")
            build.build_program(plat, Path(tmp) / "public", [probe], kind="objects", standalone=True)
        scu_syms = files_syms
        if scu:
            scu_objs = _compile(plat, stage, [SCU, *stage.asm_sources], Path(tmp) / "scu", flags)
            scu_syms = sorted({s for o in scu_objs for s in _nm(plat, o)[0]})
    outside = [s for s in files_syms if not s.startswith(prefix)]
    if outside:
        raise PqlabError(f"export: globals outside the prefix {prefix}: {', '.join(outside)}")
    if files_syms != scu_syms:
        diff = sorted(set(files_syms) ^ set(scu_syms))
        raise PqlabError(f"export: the single compilation unit defines other globals than the files: {diff[:10]}")
    return {
        "build": f"{len(objs)} files built warning-free (-Wall -Wextra -Werror -std=c11) with {plat.cc}",
        "scu": f"{SCU} + {len(stage.asm_sources)} assembly files built warning-free; same {len(scu_syms)} globals"
        if scu
        else "no single compilation unit: two parameter sets of one family share its headers",
        "symbols": f"all {len(files_syms)} global symbols start with {prefix}",
        "public_headers": f"{', '.join(public)} compiled together in one translation unit" if public else "none",
    }


# --- the harness against an export -------------------------------------------------------------


def load_manifest(folder: Path) -> dict:
    path = Path(folder) / MANIFEST
    try:
        return json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise PqlabError(f"{path}: not an export manifest: {e}") from e


def implementations(folder: Path, extra_sources: list[Path] | tuple[Path, ...] = ()) -> list[Implementation]:
    """The export's schemes as Implementation records built from the folder's files only
    (`standalone`): the harness programs link them instead of the tree's. `extra_sources`: the
    application's files that join every scheme's build (a Keccak-f[1600] of its own)."""
    folder = Path(folder).absolute()
    m = load_manifest(folder)
    tree = {i.id: i for i in discover()}
    common = [
        folder / s
        for s in m["c_sources"] + m["asm_sources"]
        if s.split("/")[0] not in {x["scheme"] for x in m["schemes"]}
    ]
    out = []
    for s in m["schemes"]:
        if s["id"] not in tree:
            raise PqlabError(f"{folder / MANIFEST}: {s['id']} is not an implementation of this tree")
        out.append(
            dataclasses.replace(
                tree[s["id"]],
                dir=folder / s["scheme"],
                sources=tuple([*(folder / w for w in s["sources"]), *common, *map(Path, extra_sources)]),
                include=tuple(folder / d for d in m["includes"]),
                cflags=tuple(f for f in m["cflags"] if f != "-std=c11"),
                standalone=True,
            )
        )
    return out


def verify_folder(folder: Path, plat: Platform, jobs: int = 1) -> dict:
    """The harness's test and KAT programs built against the folder and run on `plat`; the KAT
    program generates as few records as the published reference can check (kat_count)."""
    from pqlab import jobs as J
    from pqlab import katref

    if plat.needs_board:
        return {"status": "not run", "detail": f"platform {plat.name} needs a board"}
    impls = implementations(folder)
    rows = []
    ok = True
    refs = katref.load_refs()
    tests = J.execute([(i, plat) for i in impls], "test", jobs)
    kats = run_kats(impls, plat, refs, jobs)
    tree_kat = tree_kats([i for i in impls if not katref.ref_for(refs, i.scheme, i.name)], plat, jobs)
    for t, k in zip(tests, kats, strict=True):
        row = {"scheme": t.impl.scheme, "test": "ok" if t.ok else f"FAIL: {(t.error or '')[:300]}"}
        ok &= t.ok
        if k.ok:
            verdict, detail = kat_verdict(k, refs, tree_kat)
            row["kat"] = f"{verdict}: {detail}"
            ok &= verdict == "ok"
        else:
            row["kat"] = f"FAIL: {(k.error or '')[:300]}"
            ok = False
        if t.ok:
            row["test_checks"] = len(t.output.of("test"))
        rows.append(row)
    return {"status": "passed" if ok else "failed", "platform": plat.name, "programs": ["test", "kat"], "schemes": rows}


def run_kats(impls: list[Implementation], plat: Platform, refs: dict, jobs: int = 1) -> list:
    """The KAT program of each implementation with kat_count records; outcomes in order."""
    from pqlab import jobs as J
    from pqlab import katref

    counts = {i.id: kat_count(katref.ref_for(refs, i.scheme, i.name)) for i in impls}
    by_id = {}
    for n in sorted(set(counts.values())):
        group = [i for i in impls if counts[i.id] == n]
        for k in J.execute([(i, plat) for i in group], "kat", jobs, build.BuildOptions(kat_count=n)):
            by_id[k.impl.id] = k
    return [by_id[i.id] for i in impls]


def kat_count(ref: dict) -> int:
    """The fewest KAT records the published reference can check: 1 when it has per-record or
    first-record hashes (or a one-record file hash), else the smallest file it has a hash of
    (none since pqlab/katderive.py gave Hawk and HQC 2025 per-record hashes); 1 without a
    reference (the tree's build decides)."""
    if not ref or ref.get("record_sha256") or "first_record_sha256" in ref:
        return 1
    prefixes = sorted(int(n) for n in ref.get("rsp_prefix_sha256", {}))
    return prefixes[0] if prefixes else 1


def tree_kats(impls: list[Implementation], plat: Platform, jobs: int = 1) -> dict[str, str]:
    """The KAT record (count 1) of the tree's build of each implementation: the reference for
    schemes without published KAT hashes in pqlab/data/kat.toml (SLH-DSA)."""
    from pqlab import jobs as J

    if not impls:
        return {}
    tree = {i.id: i for i in discover()}
    outs = J.execute([(tree[i.id], plat) for i in impls], "kat", jobs, build.BuildOptions(kat_count=1))
    bad = [o for o in outs if not o.ok]
    if bad:
        raise PqlabError(f"the tree's KAT program of {bad[0].impl.id} failed: {bad[0].error}")
    return {o.impl.id: J.kat_text(o.output) for o in outs}


def kat_verdict(k, refs: dict, tree_kat: dict[str, str]) -> tuple[str, str]:
    """An export's KAT outcome against the published hash, or, without one, against the tree."""
    from pqlab import jobs as J
    from pqlab import katref

    text = J.kat_text(k.output)
    ref = katref.ref_for(refs, k.impl.scheme, k.impl.name)
    if ref:
        v = katref.check(text, ref, kat_count(ref))
        return v.verdict, v.detail
    if tree_kat.get(k.impl.id) is None:
        return "unchecked", "no reference"
    same = text == tree_kat[k.impl.id]
    return ("ok" if same else "FAIL"), "identical to the tree's build" if same else "differs from the tree's build"
