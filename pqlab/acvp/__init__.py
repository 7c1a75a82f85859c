"""ACVP: run NIST ACVP-Server prompt files through an implementation's driver program.

Per-family plugins (pqlab/acvp/<family>.py, docs/interfaces.md section 4) turn each test
case into driver requests and the driver's answers into result fields. The framework
batches all requests of one scheme into one driver run, writes the response in the
expectedResults layout and compares it with an expected file when given.
"""

from __future__ import annotations

import importlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from pqlab import PqlabError
from pqlab.acvp.fields import FieldError
from pqlab.build import BuildOptions
from pqlab.jobs import execute
from pqlab.platforms import Platform
from pqlab.registry import Implementation

FAMILIES = ("mlkem", "mldsa", "slhdsa")
DRIVER_MAXARG = 16384  # bytes per argument the driver accepts unless the implementation sets PQLAB_DRIVER_MAXARG


def driver_maxarg(impl: Implementation) -> int:
    """The driver's argument limit for an implementation (harness/driver.c PQLAB_DRIVER_MAXARG,
    which an implementation's pqlab.toml cflags may lower)."""
    for f in impl.cflags:
        if f.startswith("-DPQLAB_DRIVER_MAXARG="):
            return int(f.split("=", 1)[1])
    return DRIVER_MAXARG


def plugins() -> dict[tuple[str, str], object]:
    out = {}
    for fam in FAMILIES:
        try:
            mod = importlib.import_module(f"pqlab.acvp.{fam}")
        except ModuleNotFoundError as e:
            if e.name != f"pqlab.acvp.{fam}":
                raise
            continue
        for key in mod.ALGORITHMS:
            out[key] = mod
    return out


@dataclass
class AcvpRun:
    response: dict
    unsupported: list[str] = field(default_factory=list)  # "tgId N: reason"
    failed: list[str] = field(default_factory=list)  # errors of driver runs
    mismatches: list[str] = field(default_factory=list)
    compared: int = 0

    invalid: list[str] = field(default_factory=list)  # "tgId N tcId M: what is wrong with the input"

    @property
    def ok(self) -> bool:
        return not (self.unsupported or self.failed or self.mismatches or self.invalid)


def load(path: Path) -> dict:
    try:
        data = json.loads(Path(path).read_bytes().decode("utf-8"))
    except UnicodeDecodeError as e:
        raise PqlabError(f"cannot read ACVP file {path}: not UTF-8 text (byte {e.start}: {e.reason})") from e
    except (OSError, json.JSONDecodeError) as e:
        raise PqlabError(f"cannot read ACVP file {path}: {e}") from e
    if isinstance(data, list):  # [{"acvVersion": ...}, {vector set}]
        data = next((d for d in data if isinstance(d, dict) and "testGroups" in d), None)
    if not isinstance(data, dict) or not isinstance(data.get("testGroups"), list):
        raise PqlabError(f"{path}: not an ACVP vector set (no testGroups list)")
    for g in data["testGroups"]:
        if not isinstance(g, dict) or "tgId" not in g or not isinstance(g.get("tests"), list):
            raise PqlabError(f"{path}: a test group without tgId or tests list ({str(g)[:80]})")
        for t in g["tests"]:
            if not isinstance(t, dict) or "tcId" not in t:
                raise PqlabError(f"{path}: tgId {g['tgId']}: a test case without tcId ({str(t)[:80]})")
    return data


def run_prompt(prompt: dict, impls: list[Implementation], plat: Platform, impl_name: str | None, jobs: int) -> AcvpRun:
    key = (prompt.get("algorithm"), prompt.get("mode"))
    plugin = plugins().get(key)
    resp = {k: prompt[k] for k in ("vsId", "algorithm", "mode", "revision") if k in prompt}
    resp["testGroups"] = []
    result = AcvpRun(resp)
    if plugin is None:
        result.unsupported.append(f"algorithm {key[0]} mode {key[1]}: no pqlab support")
        return result
    # group -> scheme -> implementation
    plan: dict[str, list[tuple[dict, dict, list]]] = {}
    for group in prompt["testGroups"]:
        scheme = plugin.scheme(group)
        rgroup = {"tgId": group["tgId"], "tests": []}
        resp["testGroups"].append(rgroup)
        if scheme is None:
            result.unsupported.append(f"tgId {group['tgId']}: options not supported ({_opts(group)})")
            continue
        cands = [i for i in impls if i.scheme == scheme and i.driver == plugin.DRIVER and i.runs_on(plat)]
        if impl_name:
            cands = [i for i in cands if i.name == impl_name]
        if not cands:
            result.unsupported.append(
                f"tgId {group['tgId']}: no implementation of {scheme}"
                + (f" named {impl_name}" if impl_name else "")
                + f" with an ACVP driver runs on {plat.name}"
            )
            continue
        impl = cands[0]
        for test in group["tests"]:
            where = f"tgId {group['tgId']} tcId {test['tcId']}"
            try:
                reqs = plugin.requests(group, test)
            except FieldError as e:
                result.invalid.append(f"{where}: {e}")
                continue
            except KeyError as e:  # a value outside the ones the standard names (e.g. hashAlg)
                result.invalid.append(f"{where}: missing or unknown value {e}")
                continue
            if reqs is None:
                result.unsupported.append(f"{where}: not supported")
                continue
            limit = driver_maxarg(impl)
            big = [len(a) for _, args in reqs for a in args if len(a) > limit]
            if big:
                result.invalid.append(f"{where}: an input of {max(big):,} bytes, more than the driver's {limit:,}")
                continue
            plan.setdefault(impl.id, []).append((group, test, reqs, rgroup))
    by_id = {i.id: i for i in impls}
    lines: dict[str, bytes] = {}
    for iid, items in plan.items():
        buf = []
        for n, (_, _, reqs, _) in enumerate(items):
            for m, (cmd, args) in enumerate(reqs):
                buf.append(f"t{n}.{m} {cmd} " + " ".join(a.hex() if a else "-" for a in args))
        lines[iid] = ("\n".join(buf) + "\n").encode()
    if not plan:  # every test case was unsupported or invalid, each already named
        return result
    outcomes = execute(
        [(by_id[iid], plat) for iid in plan],
        "driver",
        jobs,
        BuildOptions(),
        stdin=lambda impl, _p: lines[impl.id],
        desc="acvp",
    )
    for o in outcomes:
        items = plan[o.impl.id]
        if not o.ok:
            result.failed.append(o.error or "driver failed")
            continue
        answers: dict[str, list[bytes] | int] = {}
        for f in o.output.of("drv"):
            tag, status = f[0], f[1]
            if status == "ok":
                answers[tag] = [b"" if x == "-" else bytes.fromhex(x) for x in f[2:]]
            else:
                answers[tag] = int(f[2]) if len(f) > 2 else -1
        for n, (group, test, reqs, rgroup) in enumerate(items):
            outs = []
            for m in range(len(reqs)):
                tag = f"t{n}.{m}"
                if tag not in answers:
                    result.failed.append(f"{o.impl.id} on {plat.name}: no answer for tcId {test['tcId']} ({tag})")
                    break
                outs.append(answers[tag])
            else:
                fields = plugin.result(group, test, outs)
                refused = [k for k, v in fields.items() if v == ""]
                if refused:  # an answer with empty fields is an error, never a response
                    status = next((a for a in outs if isinstance(a, int)), None)
                    result.failed.append(
                        f"{o.impl.id} on {plat.name}: tgId {group['tgId']} tcId {test['tcId']}: "
                        f"the implementation refused the input (status {status}); no {', '.join(refused)}"
                    )
                rgroup["tests"].append({"tcId": test["tcId"], **fields})
    return result


def _opts(group: dict) -> str:
    return ", ".join(
        f"{k}={v}" for k, v in group.items() if k not in ("tests", "tgId") and not isinstance(v, (list, dict))
    )


def compare(result: AcvpRun, expected: dict) -> None:
    """Compare every result field with the expected file; record each mismatching tcId."""
    exp = {(g["tgId"], t["tcId"]): t for g in expected.get("testGroups", []) for t in g.get("tests", [])}
    for g in result.response["testGroups"]:
        for t in g["tests"]:
            e = exp.get((g["tgId"], t["tcId"]))
            if e is None:
                result.mismatches.append(f"tgId {g['tgId']} tcId {t['tcId']}: not in the expected file")
                continue
            for k, v in t.items():
                if k == "tcId" or k not in e:
                    continue
                ev = e[k]
                if isinstance(v, str) and isinstance(ev, str):
                    same = v.lower() == ev.lower()
                else:
                    same = v == ev
                if not same:
                    result.mismatches.append(f"tgId {g['tgId']} tcId {t['tcId']}: field {k} differs")
                    break
            result.compared += 1
