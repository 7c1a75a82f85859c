"""Fault injection: hung targets, interrupts and kills of pqlab itself.

A test-only foreign KEM, generated here from tests/foreign's demokem-plain, hangs in its
key generation: always on the bare-metal platforms; on the host from the Nth program run
on (a counter file named by PQLAB_TEST_HANG_COUNTER, PQLAB_TEST_HANG_AT), so a bench can
finish some runs before it hangs. pqlab runs as a real process in its own session with
its own TMPDIR; each test checks what is left behind: child processes (by pid and by
process group), /tmp/pqlab-run-* folders, database rows.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pqlab import ROOT, limits
from pqlab.build import BuildOptions
from pqlab.limits import FACTOR, FLOOR_S, SIBLING_FACTOR, limit, record
from pqlab.platforms import get_platform
from pqlab.registry import discover
from pqlab.runner import sweep_stale

DEMO = Path(__file__).parent / "foreign" / "crypto_kem" / "demokem-plain" / "ref"
SCHEME = "hangkem"

HANG = r"""
#if defined(__linux__)
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
/* Host: hang from the PQLAB_TEST_HANG_AT-th process on (default: the first), counted in
 * the file PQLAB_TEST_HANG_COUNTER; sleeping, so the hang costs no CPU. */
static int hang_now(void)
{
    static int decided = -1;
    if (decided < 0) {
        const char *path = getenv("PQLAB_TEST_HANG_COUNTER"), *at = getenv("PQLAB_TEST_HANG_AT");
        int n = 0;
        if (path) {
            FILE *f = fopen(path, "r");
            if (f) {
                if (fscanf(f, "%d", &n) != 1) n = 0;
                fclose(f);
            }
            f = fopen(path, "w");
            if (f) {
                fprintf(f, "%d\n", n + 1);
                fclose(f);
            }
        }
        decided = n + 1 >= (at ? atoi(at) : 1);
    }
    return decided;
}
static void hang(void)
{
    for (;;) sleep(1);
}
#else
static int hang_now(void) { return 1; }
static void hang(void)
{
    for (volatile unsigned i = 0;; i++) {
    }
}
#endif
"""


@pytest.fixture(scope="module")
def impl_root(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("hangroot")
    d = root / "crypto_kem" / SCHEME / "ref"
    shutil.copytree(DEMO, d)
    src = (d / "kem.c").read_text()
    head = "int crypto_kem_keypair(unsigned char *pk, unsigned char *sk)\n{\n"
    assert head in src
    src = src.replace(head, HANG + head + "    if (hang_now()) hang();\n", 1)
    (d / "kem.c").write_text(src)
    return root


def env(tmp: Path, **extra: str) -> dict[str, str]:
    tmp.mkdir(exist_ok=True)
    return {**os.environ, "PYTHONPATH": str(ROOT), "TMPDIR": str(tmp), **extra}


def pqlab_proc(args: list[str], e: dict[str, str]) -> subprocess.Popen:
    """pqlab in a session of its own, like a command started from a shell."""
    return subprocess.Popen(
        [sys.executable, "-m", "pqlab", *map(str, args)],
        cwd=ROOT,
        env=e,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def pqlab_run(args: list[str], e: dict[str, str], timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pqlab", *map(str, args)],
        cwd=ROOT,
        env=e,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def stat(pid: int) -> tuple[int, str, int] | None:
    """(ppid, state, pgrp) of a process, None once it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return int(fields[1]), fields[0], int(fields[2])


def live(pid: int) -> bool:
    s = stat(pid)
    return s is not None and s[1] != "Z"  # a zombie has exited (its parent has not reaped it yet)


def children(pid: int) -> list[int]:
    out = []
    for p in Path("/proc").iterdir():
        if p.name.isdigit():
            s = stat(int(p.name))
            if s and s[0] == pid:
                out.append(int(p.name))
    return out


def in_groups(groups: set[int]) -> list[int]:
    out = []
    for p in Path("/proc").iterdir():
        if p.name.isdigit():
            s = stat(int(p.name))
            if s and s[2] in groups and s[1] != "Z":
                out.append(int(p.name))
    return out


def argv(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace").split("\0")[:-1]
    except OSError:
        return []


def wait_for_child(proc: subprocess.Popen, elf: str, limit: float = 300) -> int:
    """The pid of pqlab's child that runs the program `elf` (not ninja building it)."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        for c in children(proc.pid):
            args = argv(c)
            if args and Path(args[0]).name != "ninja" and any(a.endswith("/" + elf) for a in args):
                return c
        if proc.poll() is not None:
            raise AssertionError(f"pqlab ended before running {elf}: {proc.communicate()}")
        time.sleep(0.05)
    raise AssertionError(f"no child running {elf} after {limit} s")


def run_folders(tmp: Path) -> list[Path]:
    return sorted(tmp.glob("pqlab-run-*"))


def prebuild(impl_root: Path, plat: str, programs: tuple[str, ...]) -> None:
    args = ["build", SCHEME, "--impl-path", impl_root, "-p", plat, "-j", "1"]
    for p in programs:
        args += ["--program", p]
    res = pqlab_run(args, env(impl_root / "tmp-build"))
    assert res.returncode == 0, res.stderr


# --- the time limit -----------------------------------------------------------------------------


@pytest.mark.parametrize("plat", ["host", "m4-sim"])
def test_hung_target_fails_once_at_its_timeout(impl_root, tmp_path, plat):
    """bench of a hung implementation: one FAIL naming the limit, the rule and the command,
    the other programs of that target not run, in seconds; the killed run's last output
    (the harness header, printed before key generation) is shown."""
    prebuild(impl_root, plat, ("speed", "stack", "hashing"))
    tmp = tmp_path / "tmp"
    t0 = time.monotonic()
    res = pqlab_run(
        [
            "bench",
            SCHEME,
            "--impl-path",
            impl_root,
            "-p",
            plat,
            "-j",
            "1",
            "-n",
            "2",
            "--timeout",
            "2",
            "--db",
            tmp_path / "r.db",
        ],
        env(tmp),
        timeout=120,
    )
    took = time.monotonic() - t0
    assert res.returncode == 1, res.stderr
    fails = [line for line in res.stderr.splitlines() if line.startswith("FAIL ")]
    assert len(fails) == 1, res.stderr
    assert fails[0].startswith(f"FAIL {SCHEME}/ref on {plat}: timeout after 2 s (--timeout): speed did not finish")
    assert "command: " in res.stderr and "speed-n2.elf" in res.stderr
    if plat == "m4-sim":
        assert "pqlab-sim" in res.stderr
    assert "not run after this timeout: stack, hashing" in res.stderr
    assert "#pqlab 1 speed" in res.stderr  # the last output of the killed run
    assert took < 20, took
    assert run_folders(tmp) == []
    with sqlite3.connect(tmp_path / "r.db") as db:
        assert db.execute("SELECT COUNT(*) FROM runs").fetchone()[0] == 0


def test_time_log_keeps_the_newest(tmp_path, monkeypatch):
    monkeypatch.setattr(limits, "MAX_ENTRIES", 2)
    plat, log = get_platform("host"), tmp_path / "times.json"
    impl = next(i for i in discover() if i.scheme == "ml-kem-512")
    for n, program in enumerate(("test", "speed", "stack")):
        record(impl, plat, program, BuildOptions(), 1.0 + n, log)
        time.sleep(1.01 if n == 0 else 0)  # dates have a resolution of a second
    kept = json.loads(log.read_text())
    assert len(kept) == 2 and not any(k.endswith("/test") for k in kept), kept


def test_default_limit_rule(tmp_path):
    """10 x the last complete run, scaled by iterations, at least 30 s; else timeout_s."""
    impl = next(i for i in discover() if i.scheme == "ml-kem-512")
    plat = get_platform("m4-sim")
    log = tmp_path / "times.json"
    first = limit(impl, plat, "speed", BuildOptions(iterations=10), log)
    assert first.seconds == plat.timeout_s and "timeout_s of platform m4-sim" in first.source
    record(impl, plat, "speed", BuildOptions(iterations=10), 12.0, log)
    assert limit(impl, plat, "speed", BuildOptions(iterations=10), log).seconds == FACTOR * 12.0
    assert limit(impl, plat, "speed", BuildOptions(iterations=40), log).seconds == FACTOR * 48.0
    assert limit(impl, plat, "speed", BuildOptions(iterations=2), log).seconds == FACTOR * 12.0
    record(impl, plat, "stack", BuildOptions(), 0.2, log)
    small = limit(impl, plat, "stack", BuildOptions(), log)
    assert small.seconds == FLOOR_S and "last run's 0.20 s" in small.source
    assert limit(impl, get_platform("host"), "speed", BuildOptions(), log).seconds == get_platform("host").timeout_s
    # another implementation of ml-kem-512: the slowest sibling's run, with a wider margin
    other = dataclasses.replace(impl, name="other")
    sib = limit(other, plat, "speed", BuildOptions(iterations=20), log)
    assert sib.seconds == SIBLING_FACTOR * 24.0 and "another ml-kem-512 implementation" in sib.source
    assert limit(other, plat, "kat", BuildOptions(), log).seconds == plat.timeout_s


def test_campaign_order_longest_first(tmp_path):
    """A campaign starts the pairs without a recorded run first, then the others by their last
    run's time, longest first, so that its slots finish together; ties keep their order."""
    plat, log = get_platform("m4-sim"), tmp_path / "times.json"
    impls = [i for i in discover() if i.scheme in ("ml-kem-512", "ml-kem-768", "ml-kem-1024", "ml-dsa-44")][:4]
    assert len(impls) == 4
    a, b, c, d = ((i, plat) for i in impls)
    record(a[0], plat, "test", BuildOptions(), 1.0, log)
    record(b[0], plat, "test", BuildOptions(), 30.0, log)
    record(d[0], plat, "test", BuildOptions(), 5.0, log)
    assert limits.longest_first([a, b, c, d], "test", BuildOptions(), log) == [c, b, d, a]
    assert limits.longest_first([a, c], "speed", BuildOptions(), log) == [a, c]  # no speed runs recorded


# --- interrupts and kills -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "plat,sig,status",
    [
        ("host", signal.SIGINT, 130),
        ("host", signal.SIGTERM, 143),
        ("m4-sim", signal.SIGINT, 130),
        ("mps2-an386", signal.SIGTERM, 143),
    ],
)
def test_signal_kills_children_and_removes_folders(impl_root, tmp_path, plat, sig, status):
    prebuild(impl_root, plat, ("test",))
    tmp = tmp_path / "tmp"
    proc = pqlab_proc(["test", SCHEME, "--impl-path", impl_root, "-p", plat, "-j", "1"], env(tmp))
    child = wait_for_child(proc, "test.elf")
    group = stat(child)[2]
    assert group == child and group != os.getpgid(proc.pid)  # a process group of its own
    assert len(run_folders(tmp)) == 1
    t0 = time.monotonic()
    os.kill(proc.pid, sig)
    _, err = proc.communicate(timeout=15)
    assert time.monotonic() - t0 < 5
    assert proc.returncode == status, err
    assert f"interrupted by {signal.Signals(sig).name}" in err and "Traceback" not in err
    assert not live(child) and in_groups({group}) == []
    assert run_folders(tmp) == []


@pytest.mark.parametrize("plat", ["host", "m4-sim", "mps2-an386"])
def test_sigkill_children_die_folders_swept_next_start(impl_root, tmp_path, plat):
    prebuild(impl_root, plat, ("test",))
    tmp = tmp_path / "tmp"
    proc = pqlab_proc(["test", SCHEME, "--impl-path", impl_root, "-p", plat, "-j", "1"], env(tmp))
    child = wait_for_child(proc, "test.elf")
    group = stat(child)[2]
    os.kill(proc.pid, signal.SIGKILL)
    proc.communicate(timeout=15)
    end = time.monotonic() + 5
    while (live(child) or in_groups({group})) and time.monotonic() < end:
        time.sleep(0.05)
    assert not live(child) and in_groups({group}) == []
    left = run_folders(tmp)
    assert len(left) == 1 and left[0].name.startswith(f"pqlab-run-{proc.pid}-")
    res = pqlab_run(["list", SCHEME, "--impl-path", impl_root], env(tmp), timeout=60)
    assert res.returncode == 0, res.stderr
    assert run_folders(tmp) == []


def test_sweep_keeps_live_and_foreign_folders(tmp_path):
    p = subprocess.Popen(["true"])  # its pid: a process that has surely exited
    p.wait()
    gone = tmp_path / f"pqlab-run-{p.pid}-abc"
    mine = tmp_path / f"pqlab-run-{os.getpid()}-abc"
    legacy = tmp_path / "pqlab-run-abcdef"
    for d in (gone, mine, legacy):
        d.mkdir()
        (d / "pqlab.in").write_text("x")
    assert sweep_stale(tmp_path) == [gone]
    assert not gone.exists() and mine.exists() and legacy.exists()


def test_interrupted_bench_keeps_every_completed_run(impl_root, tmp_path):
    """The third program (hashing) hangs: speed and stack of the same target finished and
    must be in the database; nothing of hashing."""
    prebuild(impl_root, "host", ("speed", "stack", "hashing"))
    tmp = tmp_path / "tmp"
    db = tmp_path / "r.db"
    e = env(tmp, PQLAB_TEST_HANG_COUNTER=str(tmp_path / "count"), PQLAB_TEST_HANG_AT="3")
    proc = pqlab_proc(["bench", SCHEME, "--impl-path", impl_root, "-p", "host", "-j", "1", "-n", "2", "--db", db], e)
    child = wait_for_child(proc, "hashing-n2.elf")
    time.sleep(0.3)
    os.kill(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=15)
    assert proc.returncode == 130, err
    assert not live(child) and run_folders(tmp) == []
    with sqlite3.connect(db) as c:
        runs = dict(c.execute("SELECT program, COUNT(*) FROM runs GROUP BY program").fetchall())
        assert runs == {"speed": 1, "stack": 1}, (runs, err)
        metrics = {m for (m,) in c.execute("SELECT DISTINCT metric FROM measurements")}
        assert {"speed", "size", "stack", "ram"} <= metrics and "hashing" not in metrics
        cmds = [cmd for (cmd,) in c.execute("SELECT command FROM runs")]
    assert all(re.search(r"(speed|stack)-?n?\d*\.elf", cmd) for cmd in cmds), cmds


def test_interrupted_ct_keeps_every_verdict_reached(impl_root, tmp_path):
    """`pqlab ct` on m4-sim over two implementations, the second hanging: the first one's verdict
    is in the database before the interrupt and stays there; nothing is stored of the second."""
    root = tmp_path / "root"
    shutil.copytree(impl_root, root)
    shutil.copytree(DEMO, root / "crypto_kem" / SCHEME / "done")  # "done" runs before "ref"
    db = tmp_path / "r.db"
    proc = pqlab_proc(["ct", SCHEME, "--impl-path", root, "-p", "m4-sim", "-j", "1", "--db", db], env(tmp_path / "tmp"))
    end = time.monotonic() + 600
    stored: list = []
    while not stored and time.monotonic() < end and proc.poll() is None:
        time.sleep(0.2)
        if db.exists():
            with sqlite3.connect(db) as c:
                if c.execute("SELECT name FROM sqlite_master WHERE name = 'runs'").fetchone():
                    stored = c.execute("SELECT implementation, program FROM runs").fetchall()
    assert stored == [("done", "ct")], (stored, proc.poll())
    time.sleep(0.5)
    os.kill(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    with sqlite3.connect(db) as c:
        assert c.execute("SELECT implementation, program FROM runs").fetchall() == [("done", "ct")]
        assert c.execute("SELECT COUNT(*) FROM measurements WHERE metric = 'ct'").fetchone()[0] >= 5
    assert "1 ct result(s) stored" in err, err
