"""`pqlab calibrate`: pqlab-sim's Cortex-M4 model against pqm4's real-board figures.

The reference figures and their citations are in pqlab/data/calibration.toml. The
implementations are PQClean's clean folders from a pinned PyPI sdist, fetched at run time
into a cache directory, checked against the pinned size and SHA-256, extracted, and built
as foreign `--impl-path` folders (lib/compat) with the compiler whose code sizes match the
reference's (the Arm GNU Toolchain 13.2.1, a pinned PyPI wheel fetched the same way), or with
the platform's compiler.

Hashing confounder: pqm4's clean builds hash with pqm4's own Keccak (assembly) and SHA-2 (C),
pqlab's compat layer with pqlab's. pqm4 times every call of its fips202.h / sha2.h / aes.h /
sp800-185.h functions (mupq common/*.c, PROFILE_HASHING), so the comparable pqlab figure is the
same boundary: the cycles spent under any function those compat headers declare, taken from
the simulator's call-stack profile of the very run that produced the speed figures. The primary
comparison is on the non-hashing cycles, total x (1 - hashing share), on both sides.
"""

from __future__ import annotations

import math
import re
import shutil
import statistics
import tarfile
import tomllib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from pqlab import ROOT, PqlabError
from pqlab.build import BuildOptions, build, compiler_version, sizes
from pqlab.platforms import Platform, model
from pqlab.profile import API_FUNCTIONS, _is_api
from pqlab.registry import Implementation, discover
from pqlab.runner import run, temp_dir
from pqlab.toolchains import CACHE, fetch, reference_compiler

DATA_FILE = Path(__file__).parent / "data" / "calibration.toml"
DEFAULT_CACHE = CACHE
HASH_HEADERS = ("fips202.h", "sha2.h", "aes.h", "sp800-185.h")
OPS = {"kem": ("keypair", "encaps", "decaps"), "sign": ("keypair", "sign", "verify")}


@dataclass
class Scheme:
    name: str
    kind: str
    row: str
    match: str
    set: str
    iterations: int
    cycles: dict[str, int]
    hashing: dict[str, float]
    noisy: tuple[str, ...] = ()
    note: str = ""
    text: int = 0  # pqm4's .text size of the implementation [bytes]


@dataclass
class Reference:
    source: dict
    sdist: dict
    compiler: dict
    schemes: list[Scheme] = field(default_factory=list)


def load_reference(path: Path = DATA_FILE) -> Reference:
    """Parse and check calibration.toml (every scheme has cycles and a hashing share per operation)."""
    data = tomllib.loads(path.read_text())
    for key in ("source", "sdist", "compiler"):
        if key not in data:
            raise PqlabError(f"{path}: missing [{key}]")
    for key in ("url", "size", "sha256", "pqclean", "name"):
        if key not in data["sdist"]:
            raise PqlabError(f"{path}: [sdist] needs {key}")
    for key in ("url", "size", "sha256", "name", "gcc", "version"):
        if key not in data["compiler"]:
            raise PqlabError(f"{path}: [compiler] needs {key}")
    ref = Reference(data["source"], data["sdist"], data["compiler"])
    for s in data.get("scheme", []):
        sch = Scheme(
            name=s["name"],
            kind=s["kind"],
            row=s["row"],
            match=s["match"],
            set=s["set"],
            iterations=int(s.get("iterations", 1)),
            cycles=dict(s["cycles"]),
            hashing=dict(s["hashing"]),
            noisy=tuple(s.get("noisy", ())),
            note=s.get("note", ""),
            text=int(s.get("text", 0)),
        )
        if sch.kind not in OPS:
            raise PqlabError(f"{path}: scheme {sch.name}: kind must be kem or sign")
        if sch.set not in ("calibration", "held-out") or sch.match not in ("same", "comparable"):
            raise PqlabError(f"{path}: scheme {sch.name}: bad set or match")
        if set(sch.cycles) != set(OPS[sch.kind]) or set(sch.hashing) != set(OPS[sch.kind]):
            raise PqlabError(f"{path}: scheme {sch.name}: cycles and hashing need exactly {', '.join(OPS[sch.kind])}")
        ref.schemes.append(sch)
    if not ref.schemes:
        raise PqlabError(f"{path}: no [[scheme]] entries")
    return ref


# --- fetch ----------------------------------------------------------------------------------------


# fetch, verify_download, reference_compiler: pqlab/toolchains.py (the wheel also serves
# `--toolchain arm-gnu-13.2.1`)


def extract(tarball: Path, sdist: dict, schemes: list[Scheme], root: Path) -> Path:
    """Extract crypto_<kind>/<name>/clean of every scheme into root (an --impl-path root)."""
    prefix = sdist["pqclean"].rstrip("/") + "/"
    wanted = {f"crypto_{s.kind}/{s.name}/clean/": s for s in schemes}
    found: set[str] = set()
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    with tarfile.open(tarball, "r:gz") as tf:
        for m in tf.getmembers():
            if not m.isfile() or not m.name.startswith(prefix):
                continue
            rel = m.name[len(prefix) :]
            key = next((w for w in wanted if rel.startswith(w)), None)
            if key is None or ".." in Path(rel).parts:
                continue
            found.add(key)
            out = root / rel
            out.parent.mkdir(parents=True, exist_ok=True)
            src = tf.extractfile(m)
            assert src is not None
            out.write_bytes(src.read())
    missing = sorted(set(wanted) - found)
    if missing:
        raise PqlabError(f"{tarball}: no {', '.join(prefix + m for m in missing)}")
    return root


# --- measure --------------------------------------------------------------------------------------


def hash_api_functions(compat_dir: Path = ROOT / "lib" / "compat") -> frozenset[str]:
    """Function names declared by the compat hashing headers (pqm4 times exactly these calls)."""
    names: set[str] = set()
    decl = re.compile(r"^\s*(?:void|int|uint\w*|size_t)\s+\**\s*(\w+)\s*\(", re.MULTILINE)
    for h in HASH_HEADERS:
        text = (compat_dir / h).read_text()
        names.update(decl.findall(text))
    if not names:
        raise PqlabError(f"no hashing functions found in {compat_dir}")
    return frozenset(names)


def hashing_cycles(folded: str, operations, api: frozenset[str]) -> dict[str, tuple[int, int]]:
    """op -> (cycles under the operation's API function, of which under a hashing function).

    A folded stack counts as hashing when any of its frames is a hashing API function, so
    nested calls (cshake128_simple -> cshake128_simple_absorb) are counted once, as pqm4's
    per-call timers do."""
    stacks = []
    for line in folded.splitlines():
        path, _, count = line.rpartition(" ")
        if path and count.isdigit():
            stacks.append((path.split(";"), int(count)))
    out = {}
    for op in operations:
        names = API_FUNCTIONS.get(op, (op,))
        total = inhash = 0
        for frames, cycles in stacks:
            idx = next((i for i, f in enumerate(frames) if _is_api(f, names)), None)
            if idx is None:
                continue
            total += cycles
            if any(f in api for f in frames[idx:]):
                inhash += cycles
        out[op] = (total, inhash)
    return out


@dataclass
class Measured:
    cycles: dict[str, float]  # mean speed record per operation
    hashing: dict[str, float]  # share [%] at pqm4's boundary
    runs: dict[str, list[int]]
    text: int = 0  # .text of the implementation's own objects [bytes]


def measure_one(impl: Implementation, plat: Platform, elf: Path, api: frozenset[str]) -> Measured:
    with temp_dir("cal") as d:
        prof = d / "profile.txt"
        out = run(plat, elf, "speed", extra=["--profile", str(prof)])
        folded = Path(str(prof) + ".folded")
        if not folded.exists():
            raise PqlabError(f"pqlab-sim wrote no folded stacks for {impl.id} ({folded})")
        split = hashing_cycles(folded.read_text(), impl.operations, api)
    runs: dict[str, list[int]] = {}
    for op, val in out.of("speed"):
        runs.setdefault(op, []).append(int(val))
    cycles, share = {}, {}
    for op in impl.operations:
        if op not in runs:
            raise PqlabError(f"{impl.id}: no speed record for {op}")
        cycles[op] = statistics.fmean(runs[op])
        total, inhash = split[op]
        if total == 0:
            raise PqlabError(f"{impl.id}: no profile cycles under the {op} API function")
        share[op] = 100.0 * inhash / total
    return Measured(cycles, share, runs)


def measure(
    impls: list[Implementation], plat: Platform, iterations: dict[str, int], jobs: int, impl_cc: str | None = None
) -> dict[str, Measured]:
    """scheme -> Measured, one profiled speed run per implementation (its own sources built
    with `impl_cc`, None: the platform's compiler)."""
    api = hash_api_functions()
    by_n: dict[int, list[Implementation]] = {}
    for i in impls:
        by_n.setdefault(iterations.get(i.scheme, 1), []).append(i)
    elfs: dict[str, tuple[Implementation, Path]] = {}
    text: dict[str, int] = {}
    for n, group in by_n.items():
        res = build(plat, group, ("speed",), jobs=jobs, opts=BuildOptions(iterations=n, impl_cc=impl_cc))
        for i in group:
            b = res[i.id]
            if b.error:
                raise PqlabError(f"build of {i.id} for {plat.name} failed:\n{b.error}")
            elfs[i.scheme] = (i, b.elf["speed"])
            text[i.scheme] = sizes(plat, b.objects)["text"]
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as ex:
        futs = {s: ex.submit(measure_one, i, plat, e, api) for s, (i, e) in elfs.items()}
        out = {s: f.result() for s, f in futs.items()}
    for s, m in out.items():
        m.text = text[s]
    return out


# --- compare --------------------------------------------------------------------------------------


def error_pct(sim: float, ref: float) -> float:
    return 100.0 * (sim - ref) / ref


def compare(ref: Reference, measured: dict[str, Measured]) -> list[dict]:
    rows = []
    for s in ref.schemes:
        m = measured.get(s.name)
        if m is None:
            continue
        for op in OPS[s.kind]:
            pq, pq_h = s.cycles[op], s.hashing[op]
            sim, sim_h = m.cycles[op], m.hashing[op]
            pq_nh = pq * (1 - pq_h / 100)
            sim_nh = sim * (1 - sim_h / 100)
            rows.append(
                {
                    "scheme": s.name,
                    "pqm4_row": s.row,
                    "match": s.match,
                    "set": s.set,
                    "operation": op,
                    "pqm4_cycles": pq,
                    "pqm4_hashing_pct": pq_h,
                    "sim_cycles": round(sim),
                    "sim_hashing_pct": round(sim_h, 2),
                    "sim_runs": len(m.runs[op]),
                    "pqm4_nonhash": round(pq_nh),
                    "sim_nonhash": round(sim_nh),
                    "error_total_pct": round(error_pct(sim, pq), 2),
                    "error_nonhash_pct": round(error_pct(sim_nh, pq_nh), 2),
                    "noisy": op in s.noisy,
                    "pqm4_text": s.text,
                    "sim_text": m.text,
                }
            )
    return rows


def summary(rows: list[dict]) -> dict:
    """Mean absolute and largest errors per set (noisy operations left out)."""
    out = {}
    for name in ("calibration", "held-out", "all"):
        sel = [r for r in rows if not r["noisy"] and (name == "all" or r["set"] == name)]
        if not sel:
            continue
        entry = {"points": len(sel)}
        for k in ("error_total_pct", "error_nonhash_pct"):
            vals = [r[k] for r in sel]
            entry[k.replace("error_", "mae_")] = round(statistics.fmean(abs(v) for v in vals), 2)
            entry[k.replace("error_", "max_abs_")] = round(max(abs(v) for v in vals), 2)
            entry[k.replace("error_", "mean_")] = round(statistics.fmean(vals), 2)
        out[name] = entry
    return out


def table(rows: list[dict], summ: dict) -> str:
    lines = [
        "| scheme | op | set | pqm4 cycles | m4-sim cycles | error total % | pqm4 hash % | sim hash % | error non-hashing % |",
        "|---|---|---|--:|--:|--:|--:|--:|--:|",
    ]
    for r in rows:
        flag = " (noisy, not counted)" if r["noisy"] else ""
        lines.append(
            f"| {r['scheme']} | {r['operation']}{flag} | {r['set']} | {r['pqm4_cycles']:,} | {r['sim_cycles']:,} | "
            f"{r['error_total_pct']:+.1f} | {r['pqm4_hashing_pct']:.1f} | {r['sim_hashing_pct']:.1f} | {r['error_nonhash_pct']:+.1f} |"
        )
    lines += ["", "| scheme | pqm4 .text | built .text |", "|---|--:|--:|"]
    for scheme in dict.fromkeys(r["scheme"] for r in rows):
        r = next(x for x in rows if x["scheme"] == scheme)
        lines.append(f"| {scheme} | {r['pqm4_text']:,} | {r['sim_text']:,} |")
    lines.append("")
    for name, e in summ.items():
        lines.append(
            f"{name}: {e['points']} points, non-hashing error mean abs {e['mae_nonhash_pct']:.2f}% "
            f"(max {e['max_abs_nonhash_pct']:.2f}%, mean {e['mean_nonhash_pct']:+.2f}%), total error mean abs "
            f"{e['mae_total_pct']:.2f}% (max {e['max_abs_total_pct']:.2f}%, mean {e['mean_total_pct']:+.2f}%)"
        )
    return "\n".join(lines) + "\n"


def select_schemes(ref: Reference, names=(), which: str = "all") -> list[Scheme]:
    chosen = [s for s in ref.schemes if (which == "all" or s.set == which)]
    if names:
        known = {s.name for s in ref.schemes}
        bad = [n for n in names if n not in known]
        if bad:
            raise PqlabError(f"no calibration entry for {', '.join(bad)}; known: {', '.join(sorted(known))}")
        chosen = [s for s in chosen if s.name in names]
    if not chosen:
        raise PqlabError("no calibration scheme selected")
    return chosen


def calibrate(
    plat: Platform,
    cache: Path = DEFAULT_CACHE,
    names=(),
    which: str = "all",
    jobs: int = 2,
    iterations: int | None = None,
    ref: Reference | None = None,
    compiler: str = "reference",
) -> dict:
    """Fetch, build, run and compare; returns {"source", "rows", "summary", ...}. `compiler`:
    "reference" builds the implementations with the compiler of the reference figures
    ([compiler] in calibration.toml), "platform" with the platform's."""
    if plat.runner_kind != "pqlab-sim":
        raise PqlabError(f"calibration needs a pqlab-sim platform (m4-sim), not {plat.name}")
    ref = ref or load_reference()
    schemes = select_schemes(ref, names, which)
    if compiler not in ("reference", "platform"):
        raise PqlabError(f"compiler must be 'reference' or 'platform', not {compiler!r}")
    impl_cc = reference_compiler(ref.compiler, cache) if compiler == "reference" else None
    tarball = fetch(ref.sdist, cache, "the PQClean sources")
    root = extract(tarball, ref.sdist, schemes, cache / "impls")
    impls = [i for i in discover([root]) if i.dir.is_relative_to(root)]
    by_name = {i.scheme: i for i in impls}
    missing = [s.name for s in schemes if s.name not in by_name]
    if missing:
        raise PqlabError(f"extracted folders not recognised as implementations: {', '.join(missing)}")
    its = {s.name: (iterations or s.iterations) for s in schemes}
    measured = measure([by_name[s.name] for s in schemes], plat, its, jobs, impl_cc)
    rows = compare(ref, measured)
    if any(math.isnan(r["error_total_pct"]) for r in rows):
        raise PqlabError("calibration produced NaN errors")
    return {
        "source": ref.source,
        "sdist": {k: ref.sdist[k] for k in ("url", "sha256")},
        "platform": plat.name,
        "model": model(plat),
        "compiler": compiler_version(impl_cc or plat.cc),
        "rows": rows,
        "summary": summary(rows),
    }
