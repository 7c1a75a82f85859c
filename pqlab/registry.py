"""Registry: every `crypto_kem/<scheme>/<impl>/` or `crypto_sign/<scheme>/<impl>/` with an api.h,
and every api.h folder of a NIST submission package (`Reference_Implementation/...`,
`Optimized_Implementation/...`; pqlab/nistpkg.py).

pqlab's own implementations live under lib/ and carry a pqlab.toml; foreign ones
(pqm4, mupq, PQClean folders, submission packages) are found under every --impl-path
root and need no metadata. All end up as the same `Implementation` record.
"""

from __future__ import annotations

import ast
import difflib
import glob
import hashlib
import operator
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from pqlab import ROOT, PqlabError, nistpkg
from pqlab.platforms import Platform

KINDS = {"crypto_kem": "kem", "crypto_sign": "sign"}
OPERATIONS = {"kem": ["keypair", "encaps", "decaps"], "sign": ["keypair", "sign", "verify"]}
SIZE_KEYS = ("CRYPTO_PUBLICKEYBYTES", "CRYPTO_SECRETKEYBYTES", "CRYPTO_CIPHERTEXTBYTES", "CRYPTO_BYTES")


@dataclass(frozen=True)
class Implementation:
    scheme: str
    name: str
    kind: str  # "kem" | "sign"
    dir: Path
    style: str  # "own" | "plain" | "pqclean" | "mupq"
    api_prefix: str  # PQClean prefix, "" otherwise
    sources: tuple[Path, ...]
    include: tuple[Path, ...]
    cflags: tuple[str, ...]
    platforms: tuple[str, ...] | None
    exclude_platforms: tuple[str, ...]
    driver: str | None
    fpr: str | None
    extra_ops: tuple[str, ...]
    slow: bool  # left out of the default benchmark (pqlab bench --all includes it)
    sizes: dict = field(default_factory=dict, compare=False, hash=False)
    # what the signature API of api.h declares (PQLAB_API_* macros of harness/api_glue.h)
    api_forms: tuple[str, ...] = ()
    # foreign folders (pqlab/nistpkg.py): files left out with the reason, sources that
    # declare NIST's randombytes(unsigned long long), OpenSSL headers the code includes,
    # the architectures its Makefile targets (None: any), the submission package's root
    excluded: tuple[tuple[str, str], ...] = ()
    nist_randombytes: tuple[Path, ...] = ()
    openssl: tuple[str, ...] = ()
    arch: tuple[str, ...] | None = None
    package: Path | None = None
    # an export folder's implementation (pqlab/export.py): its sources bring their own common code,
    # backend and configuration header; built without the platform's backend flags and without
    # lib/common on the include path, so that the exported files are the ones compiled
    standalone: bool = False
    # the specification version it follows when that is not the scheme's default (pqlab.toml
    # `version`, e.g. HQC's "2025-08-22"): deterministic outputs are compared within a version
    version: str = ""

    @property
    def id(self) -> str:
        return f"{self.scheme}/{self.name}"

    @property
    def own(self) -> bool:
        return self.style == "own"

    @property
    def build_key(self) -> str:
        """A path-safe, unique folder name for this implementation's build outputs."""
        tag = hashlib.sha256(str(self.dir.resolve()).encode()).hexdigest()[:8]
        return f"{self.scheme}/{self.name}-{tag}"

    @property
    def operations(self) -> list[str]:
        return OPERATIONS[self.kind] + list(self.extra_ops)

    def runs_on(self, plat: Platform) -> bool:
        if self.platforms is not None and plat.name not in self.platforms:
            return False
        if plat.name in self.exclude_platforms:
            return False
        if self.fpr == "native" and plat.fpr != "native":
            return False
        return self.arch is None or plat.arch in self.arch

    def mupq_namespace(self) -> str:
        return "MUPQ_" + re.sub(r"\W", "_", f"{self.scheme}_{self.name}_").upper()


# --- api.h size evaluation ------------------------------------------------------------------

_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)[ \t]+(.+?)[ \t]*(?://.*|/\*.*)?$", re.M)
_INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
_OPS = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.FloorDiv: operator.floordiv,
    ast.Div: operator.floordiv,
    ast.LShift: operator.lshift,
}


def _collect_defines(path: Path, dirs: list[Path], seen: set[Path], out: dict[str, str]) -> None:
    """The #defines of `path` and of the headers it includes, found as the compiler finds them:
    a quoted include in the including file's folder as reached (links kept), then in `dirs`."""
    if path in seen or len(seen) > 200 or not path.is_file():
        return
    seen.add(path)
    text = path.read_text(errors="replace")
    for inc in _INCLUDE.findall(text):
        for d in [path.parent, *dirs]:
            if (d / inc).is_file():
                _collect_defines(d / inc, dirs, seen, out)
                break
    for name, value in _DEFINE.findall(text):
        out.setdefault(name, value)


def _evaluate(expr: str, defs: dict[str, str], depth: int = 0) -> int | None:
    if depth > 20:
        return None
    expr = re.sub(r"\b(\d+)[uUlL]+\b", r"\1", expr).replace("/", "//").replace("////", "//")

    def ev(node):
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return node.value
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            a, b = ev(node.left), ev(node.right)
            return None if a is None or b is None else _OPS[type(node.op)](a, b)
        if isinstance(node, ast.Name):
            return _evaluate(defs[node.id], defs, depth + 1) if node.id in defs else None
        return None

    try:
        return ev(ast.parse(expr, mode="eval").body)
    except (SyntaxError, ValueError):
        return None


def api_sizes(api: Path, include: list[Path], prefix: str, cflags: tuple[str, ...]) -> dict[str, int]:
    defs: dict[str, str] = {}
    for flag in cflags:
        m = re.match(r"-D(\w+)=(.*)", flag)
        if m:
            defs[m.group(1)] = m.group(2)
    _collect_defines(api.absolute(), include, set(), defs)
    sizes = {}
    for key in SIZE_KEYS:
        name = prefix + key
        if name in defs:
            v = _evaluate(defs[name], defs)
            if v is not None:
                sizes[key] = v
    return sizes


# --- signature API forms ------------------------------------------------------------------------


def _header_text(path: Path, dirs: list[Path], seen: set[Path] | None = None) -> str:
    """`path` and the headers it includes (quoted, found as _collect_defines finds them)."""
    seen = set() if seen is None else seen
    if path in seen or len(seen) > 200 or not path.is_file():
        return ""
    seen.add(path)
    text = path.read_text(errors="replace")
    parts = [text]
    for inc in _INCLUDE.findall(text):
        for d in [path.parent, *dirs]:
            if (d / inc).is_file():
                parts.append(_header_text(d / inc, dirs, seen))
                break
    return "\n".join(parts)


def _strip_comments(text: str) -> str:
    return re.sub(r"/\*.*?\*/|//[^\n]*", " ", text, flags=re.DOTALL)


def sign_api_forms(api: Path, include: list[Path], prefix: str) -> tuple[str, ...]:
    """The signature API forms api.h declares, as the PQLAB_API_* names harness/api_glue.h reads:
    the FIPS 204/205 context functions (attached crypto_sign_ctx/crypto_sign_open_ctx, detached
    crypto_sign_signature_ctx/crypto_sign_verify_ctx), and whether the context-free
    crypto_sign/crypto_sign_open are function-like macros (pqm4's and PQClean's ML-DSA) or
    absent. Names may carry the PQClean prefix."""
    text = _strip_comments(_header_text(api.absolute(), include))
    p = re.escape(prefix)

    def used(name: str) -> bool:  # declared, called from a macro, or mapped by a namespacing macro
        return re.search(rf"\b{p}{name}\b", text) is not None

    def fn_macro(name: str) -> bool:
        return re.search(rf"^[ \t]*#[ \t]*define[ \t]+{p}{name}\(", text, re.MULTILINE) is not None

    forms = []
    if used("crypto_sign_ctx") and used("crypto_sign_open_ctx"):
        forms.append("PQLAB_API_SIGN_CTX")
    if used("crypto_sign_signature_ctx") and used("crypto_sign_verify_ctx"):
        forms.append("PQLAB_API_SIGNATURE_CTX")
    if fn_macro("crypto_sign") or fn_macro("crypto_sign_open"):
        forms.append("PQLAB_API_PLAIN_MACROS")
    elif not (used("crypto_sign") or used("crypto_sign_open")):
        forms.append("PQLAB_API_NO_PLAIN")
    return tuple(forms)


# --- discovery ---------------------------------------------------------------------------------


def _style(api_text: str) -> tuple[str, str]:
    m = re.search(r"\b(PQCLEAN_\w+?_)CRYPTO_SECRETKEYBYTES\b", api_text)
    if m:
        return "pqclean", m.group(1)
    if "MUPQ_NAMESPACE" in api_text:
        return "mupq", ""
    return "plain", ""


def _config_mk_flags(folder: Path) -> list[str]:
    mk = folder / "config.mk"
    flags: list[str] = []
    if mk.is_file():
        for line in mk.read_text().splitlines():
            m = re.match(r"\s*CFLAGS\s*\+?:?=\s*(.*)", line)
            if m:
                flags += m.group(1).split()
    return flags


def _nist_kind(api_text: str) -> str | None:
    if re.search(r"\bcrypto_kem_keypair\b|CRYPTO_CIPHERTEXTBYTES", api_text):
        return "kem"
    if re.search(r"\bcrypto_sign(_keypair)?\b", api_text):
        return "sign"
    return None


def load_implementation(folder: Path, package: nistpkg.Layout | None = None) -> Implementation:
    folder = folder.absolute()  # absolute, links kept (not resolve())
    api = folder / "api.h"
    if package is None:
        kind = KINDS[folder.parent.parent.name]
        scheme, name = folder.parent.name, folder.name
    else:
        k = _nist_kind(api.read_text(errors="replace"))
        if k is None:
            raise PqlabError(f"{api}: declares neither crypto_kem_* nor crypto_sign_* functions")
        kind, scheme, name = k, package.scheme, package.name
    toml_path = folder / "pqlab.toml"
    cfg: dict = {}
    if toml_path.is_file():
        try:
            cfg = tomllib.loads(toml_path.read_text())
        except tomllib.TOMLDecodeError as e:
            raise PqlabError(f"{toml_path}: invalid TOML: {e}") from e
    api_text = api.read_text(errors="replace")
    style, prefix = ("own", "") if cfg.get("own") else _style(api_text)
    # Sources keep the path through which the folder reaches them: a symbolic link to another
    # parameter set's source is compiled as <this folder>/<name>, so that its `#include "params.h"`
    # finds this folder's params.h first, as pqm4's make does (links are never resolved).
    if "sources" in cfg:
        sources = sorted({Path(p) for pat in cfg["sources"] for p in glob.glob(str(folder / pat))})
        if not sources:
            raise PqlabError(f"{toml_path}: source patterns {cfg['sources']} match no file")
    else:
        sources = sorted(p for ext in ("*.c", "*.s", "*.S") for p in folder.glob(ext))
    include = tuple(folder / d for d in cfg.get("include", []))
    cflags = tuple(cfg.get("cflags", [])) + tuple(_config_mk_flags(folder))
    plats = cfg.get("platforms")
    plan = None if style == "own" else nistpkg.plan_sources(folder.resolve(), sources, list(include))
    if plan is not None:
        sources = list(plan.sources)
    return Implementation(
        scheme=scheme,
        name=name,
        kind=kind,
        dir=folder,
        style=style,
        api_prefix=prefix,
        sources=tuple(sources),
        include=include,
        cflags=cflags,
        platforms=tuple(plats) if plats is not None else None,
        exclude_platforms=tuple(cfg.get("exclude_platforms", [])),
        driver=cfg.get("driver"),
        fpr=cfg.get("fpr"),
        extra_ops=tuple(cfg.get("extra_ops", [])),
        slow=bool(cfg.get("slow", False)),
        version=str(cfg.get("version", "")),
        sizes=api_sizes(api, [folder, *include, ROOT / "lib" / "common"], prefix, cflags),
        api_forms=sign_api_forms(api, [folder, *include], prefix) if kind == "sign" else (),
        excluded=plan.excluded if plan else (),
        nist_randombytes=plan.nist_randombytes if plan else (),
        openssl=plan.openssl if plan else (),
        arch=None if plan is None or "platforms" in cfg else plan.arch,
        package=package.package if package else None,
    )


def _algname(api: Path) -> str | None:
    defs: dict[str, str] = {}
    _collect_defines(api.resolve(), [], set(), defs)
    m = re.fullmatch(r'"([^"]*)"', defs.get("CRYPTO_ALGNAME", ""))
    return m.group(1) if m else None


def _package_folders(root: Path, taken: set[Path]) -> list[tuple[Path, nistpkg.Layout]]:
    """api.h folders of NIST submission packages under root (not already found as crypto_*)."""
    out = []
    for api in sorted(root.glob("**/api.h")):
        folder = api.parent.resolve()
        if folder in taken:
            continue
        lay = nistpkg.layout(folder, _algname(api))
        if lay is not None:
            out.append((folder, lay))
    return out


def discover(impl_paths: list[Path] | tuple[Path, ...] = ()) -> list[Implementation]:
    """All implementations under the project's lib/ and every extra root, in a stable order."""
    roots = [ROOT / "lib", *[Path(p) for p in impl_paths]]
    found: dict[str, Implementation] = {}
    for root in roots:
        if not root.is_dir():
            raise PqlabError(f"--impl-path {root}: no such directory")
        for api in sorted(root.glob("**/crypto_*/*/*/api.h")):
            folder = api.parent
            if folder.parent.parent.name not in KINDS:
                continue
            impl = load_implementation(folder)
            if impl.id in found and found[impl.id].dir.resolve() != impl.dir.resolve():
                raise PqlabError(
                    f"implementation {impl.id} found twice: {found[impl.id].dir} and {impl.dir}; "
                    "rename one of the folders"
                )
            found[impl.id] = impl
        if root == ROOT / "lib":
            continue
        for folder, lay in _package_folders(root, {i.dir for i in found.values()}):
            impl = load_implementation(folder, lay)
            if impl.id in found and found[impl.id].dir != impl.dir:
                raise PqlabError(
                    f"implementation {impl.id} found twice: {found[impl.id].dir} and {impl.dir}; "
                    "rename one of the folders"
                )
            found[impl.id] = impl
    return sorted(found.values(), key=lambda i: (i.kind, i.scheme, i.name))


def close_matches(name: str, choices) -> str:
    near = difflib.get_close_matches(name, list(choices), n=5, cutoff=0.5)
    if near:
        return "; did you mean: " + ", ".join(near) + "?"
    return "; known: " + ", ".join(sorted(choices))


def select(
    impls: list[Implementation], schemes: list[str] | tuple[str, ...], impl_names: list[str] | tuple[str, ...]
) -> list[Implementation]:
    """Filter by scheme names and implementation names; unknown names are errors with suggestions."""
    known_schemes = {i.scheme for i in impls}
    for s in schemes:
        if s not in known_schemes:
            raise PqlabError(f"unknown scheme '{s}'{close_matches(s, known_schemes)}")
    out = [i for i in impls if not schemes or i.scheme in schemes]
    known_names = {i.name for i in out}
    for n in impl_names:
        if n not in known_names:
            where = f" of {', '.join(schemes)}" if schemes else ""
            raise PqlabError(f"unknown implementation '{n}'{where}{close_matches(n, known_names)}")
    return [i for i in out if not impl_names or i.name in impl_names]
