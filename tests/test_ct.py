"""`pqlab ct`: the one constant-time check. It finds a leaky foreign KEM (decapsulation
branching on a secret memcmp), passes a clean one, refuses platforms that cannot check,
prints memcheck's findings readably, and passes every own implementation and parameter set
(pqlab-sim's checker on m4-sim / m7-sim: tests/test_ct_sim.py)
(SLH-DSA 's' sets sampled in the default run, all of them with -m slow).

The toy implementations live in tests/ct/ (see the comments of their sources)."""

from __future__ import annotations

import json
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from pqlab.build import build
from pqlab.cli import main
from pqlab.jobs import execute
from pqlab.platforms import get_platform
from pqlab.registry import discover, select

TOYS = Path(__file__).resolve().parent / "ct"


def pqlab_ct(*args: str) -> tuple[int, str]:
    res = CliRunner().invoke(main, ["ct", "-j", "1", "--no-store", *args])  # results not stored
    return res.exit_code, res.output


def test_leaky_foreign_kem_is_caught_and_clean_one_passes():
    code, out = pqlab_ct("toykem-memcmp", "--impl-path", str(TOYS))
    assert code == 1, out
    assert "FAIL toykem-memcmp/leaky on host-ct" in out
    assert "secret-dependent branch" in out
    assert "Conditional jump or move depends on uninitialised value" in out
    assert "at crypto_kem_dec (toykem_memcmp.c:" in out  # the stack, readable
    assert "secret from: pqlab_randombytes" in out
    assert "\\n" not in out  # no Python repr of valgrind's output
    assert "ok   toykem-memcmp/clean on host-ct" in out


@pytest.mark.parametrize("platform", ["host", "mps2-an386", "mps2-an500"])
def test_platforms_that_cannot_check_refuse(platform):
    """the leaky KEM runs on these platforms, but nothing there sees a secret branch"""
    code, out = pqlab_ct("toykem-memcmp", "-i", "leaky", "-p", platform, "--impl-path", str(TOYS))
    assert code == 2, out
    assert f"platform {platform} cannot check constant time" in out
    assert "-p host-ct" in out
    assert "ok " not in out


def test_refusal_is_not_bypassed_by_a_checking_platform_beside_it():
    code, out = pqlab_ct("toykem-memcmp", "-i", "clean", "-p", "host-ct", "-p", "host", "--impl-path", str(TOYS))
    assert code == 2 and "platform host cannot check constant time" in out, out


def test_ct_program_refuses_outside_memcheck():
    """the ct binary run natively (marks are no-ops there) fails its own check"""
    plat = get_platform("host-ct")
    impl = select(discover([TOYS]), ["toykem-memcmp"], ["clean"])[0]
    res = build(plat, [impl], ["ct"], jobs=1)[impl.id]
    assert res.error is None, res.error
    run = subprocess.run([str(res.elf["ct"])], capture_output=True, text=True, timeout=60, check=False)
    assert run.returncode != 0
    assert "ct-under-memcheck fail" in run.stdout, run.stdout


def test_vector_shift_reproduction_and_negative_control():
    """memcheck's view of a shift by a secret count (docs/ct.md): auto-vectorised (SSE psllq,
    count in a register) it is reported as a size-1 use; scalar, as host-ct builds, it is not;
    a table load indexed by the same count and a branch on it are reported in the scalar
    build. Should a valgrind release stop reporting the vector case, this test says so."""
    code, out = pqlab_ct("toykem-shift", "--impl-path", str(TOYS), "--json")
    assert code == 1, out
    rows = {r["implementation"]: r for r in json.loads(out)}
    assert rows["scalar"]["ok"] and rows["scalar"]["findings"] == []
    vector = rows["vector"]["findings"]
    assert vector and all(f["message"] == "Use of uninitialised value of size 1" for f in vector), vector
    assert all("shift_lanes" in f["stack"][0] for f in vector)
    kinds = {f["kind"].split(" (")[0] for f in rows["leak"]["findings"] if "shift_lanes" in f["stack"][0]}
    assert kinds == {"secret-dependent address", "secret-dependent branch"}, rows["leak"]["findings"]


# --- every own implementation -------------------------------------------------------------------

OWN = [i for i in discover() if i.own and i.runs_on(get_platform("host-ct"))]
SLH_S = sorted(i.scheme for i in OWN if i.scheme.startswith("slh-dsa") and i.scheme.endswith("s"))
# the 's' sets take 1-3 CPU minutes each under memcheck (sha2-128s and shake-128s together: 3.1
# CPU minutes, measured): the default run checks one; their code is the 'f' sets' with other
# parameters, and the 'f' sets all run
SLH_S_SAMPLE = ["slh-dsa-sha2-128s"]
GROUPS = {
    "ml-kem": sorted({i.scheme for i in OWN if i.scheme.startswith("ml-kem")}),
    "ml-dsa": sorted({i.scheme for i in OWN if i.scheme.startswith("ml-dsa")}),
    "fn-dsa": sorted({i.scheme for i in OWN if i.scheme.startswith("fn-dsa")}),
    "slh-dsa-f": sorted({i.scheme for i in OWN if i.scheme.startswith("slh-dsa") and i.scheme.endswith("f")}),
    "slh-dsa-s-sample": SLH_S_SAMPLE,
    "hqc": sorted({i.scheme for i in OWN if i.scheme.startswith("hqc-")}),
    "hawk": sorted({i.scheme for i in OWN if i.scheme.startswith("hawk-")}),
}


def test_groups_cover_every_own_implementation():
    covered = {s for g in GROUPS.values() for s in g} | set(SLH_S)
    assert {i.scheme for i in OWN} == covered
    assert set(SLH_S_SAMPLE) <= set(SLH_S)


def _own_ct(schemes: list[str]) -> list[dict]:
    code, out = pqlab_ct(*schemes, "--json")
    rows = json.loads(out)
    bad = [r for r in rows if not r["ok"]]
    assert code == 0 and not bad, json.dumps(bad, indent=1)
    assert {r["scheme"] for r in rows} == set(schemes)
    assert len(rows) == sum(1 for i in OWN if i.scheme in schemes)
    return rows


@pytest.mark.parametrize("group", GROUPS)
def test_own_implementations_are_constant_time(group):
    rows = _own_ct(GROUPS[group])
    for r in rows:
        assert {"ct-keypair", "ct-under-memcheck", "ct-secret-input"} <= set(r["operations"]), r
    if group == "fn-dsa":  # the FN-DSA part: expanded key, and the NTRU solver's rejection path
        for r in rows:
            assert {"ct-sign_tree", "ct-keypair-kat-seed", "ct-keypair-rejection-path"} <= set(r["operations"]), r
    if group == "ml-dsa":  # the ML-DSA part (harness/ct_mldsa.c): FIPS 204's other interfaces
        for r in rows:
            assert {
                "ct-keypair_internal",
                "ct-sign_ctx",
                "ct-sign_internal",
                "ct-sign_extmu",
                "ct-sign_prehash",
            } <= set(r["operations"]), r


# compilers turn masks into branches at some optimisation levels: the lattice families' ct
# programs also at the levels users build with besides host-ct's -O3 (the implementations under
# another name, so their builds do not share a folder with the plain ones)
OPT_LEVELS = {"O2": ("-O2",), "O3-unroll": ("-O3", "-funroll-loops")}


@pytest.mark.parametrize("level", OPT_LEVELS)
@pytest.mark.parametrize("group", ["ml-kem", "ml-dsa", "hqc"])
def test_own_implementations_at_other_optimisation_levels(group, level):
    plat = get_platform("host-ct")
    impls = [
        replace(i, name=f"{i.name}-{level}", cflags=(*i.cflags, *OPT_LEVELS[level]))
        for i in OWN
        if i.scheme in GROUPS[group]
    ]
    outs = execute([(i, plat) for i in impls], "ct", jobs=1)
    bad = [f"{o.impl.id}: {o.error}\n{o.data.get('stderr', '')[-3000:]}" for o in outs if not o.ok]
    assert impls and len(outs) == len(impls) and not bad, "\n".join(bad)


@pytest.mark.slow
def test_own_slh_dsa_s_sets_are_constant_time():
    _own_ct([s for s in SLH_S if s not in SLH_S_SAMPLE])


def test_memcheck_reports_are_parsed_into_findings():
    from pqlab.ctcheck import format_findings, parse_memcheck

    lines = (
        "==7== Syscall param write(buf) points to uninitialised byte(s)",
        "==7==    at 0x4A1: write (write.c:26)",
        "==7==    by 0x109: hal_send (hal.c:12)",
        '==7==  Address 0x4a5 is 0 bytes inside data symbol "buf"',
        "==7==  Uninitialised value was created by a client request",
        "==7==    at 0x10A: pqlab_randombytes (harness.c:253)",
        "==7== ",
        "==7== Use of uninitialised value of size 8",
        "==7==    at 0x1F2: lookup (t.c:5)",
        "==7==  Uninitialised value was created by a client request",
        "==7==    at 0x10A: pqlab_randombytes (harness.c:253)",
        "==7== ",
        "not a memcheck line",
    )
    f = parse_memcheck("\n".join(lines))
    assert [x.kind for x in f] == [
        "secret reaches a system call",
        "secret-dependent address (load, store or indirect jump)",
    ]
    assert f[0].stack == ["write (write.c:26)", "hal_send (hal.c:12)"]
    assert f[0].origin == f[1].origin == ["pqlab_randombytes (harness.c:253)"]
    text = format_findings(f)
    assert "1. secret reaches a system call" in text and "at lookup (t.c:5)" in text
