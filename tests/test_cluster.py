"""`--cluster ADDRESS` (pqlab/cluster.py): a local Dask cluster of two worker processes builds and
runs a small campaign; the client stores every run, with the worker that made it, in the one
database, and the stored figures equal those of the same campaign run locally."""

from __future__ import annotations

import socket
import sqlite3

import distributed  # the [test] extra installs it (./run.sh)
import pytest
from cli_runner import pqlab

from pqlab import cluster as cluster_mod

QUERY = """SELECT r.platform, r.program, r.toolchain, m.metric, m.operation, m.idx, m.value
           FROM runs r JOIN measurements m ON m.run_id = r.id"""


def rows(db) -> dict[tuple, float]:
    with sqlite3.connect(db) as c:
        return {tuple(r[:-1]): r[-1] for r in c.execute(QUERY)}


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(
        n_workers=2, processes=True, threads_per_worker=1, dashboard_address="127.0.0.1:0", host="127.0.0.1"
    ) as lc:
        yield lc


def test_bench_on_a_cluster_equals_the_local_run(tmp_path, cluster):
    args = ["bench", "ml-kem-512", "-i", "ref", "-p", "host", "-p", "mps2-an386", "-n", "2", "-j", "1"]
    status, out = pqlab(*args, "--db", tmp_path / "local.db")
    assert status == 0, out
    status, out = pqlab(*args, "--db", tmp_path / "cluster.db", "--cluster", cluster.scheduler_address)
    assert status == 0, out
    local, remote = rows(tmp_path / "local.db"), rows(tmp_path / "cluster.db")
    assert local and set(local) == set(remote)  # the same runs and measurements, none lost or added
    # QEMU's -icount figures, stack peaks, hashing shares and sizes are deterministic: equal values;
    # the host's are rdtsc cycles (timing), equal in what was measured, not in value
    exact = {k for k in local if k[0] == "mps2-an386"}
    assert len(exact) > 20
    assert {k: local[k] for k in exact} == {k: remote[k] for k in exact}
    assert {k for k in local if k[3] == "size"} and all(local[k] == remote[k] for k in local if k[3] == "size")

    workers = set(cluster.scheduler_info["workers"])
    with sqlite3.connect(tmp_path / "cluster.db") as c:
        got = c.execute("SELECT DISTINCT host, worker FROM runs").fetchall()
    with sqlite3.connect(tmp_path / "local.db") as c:
        mine = c.execute("SELECT DISTINCT host, worker FROM runs").fetchall()
    assert got and all(h == socket.gethostname() and w in workers for h, w in got), (got, workers)
    assert mine == [(socket.gethostname(), "")]


def test_test_command_on_a_cluster_reports_each_pair(cluster):
    status, out = pqlab(
        "test",
        "ml-kem-512",
        "-i",
        "ref",
        "-p",
        "mps2-an386",
        "--toolchain",
        "clang",
        "--cluster",
        cluster.scheduler_address,
    )
    assert status == 0, out
    assert "ok   ml-kem-512/ref on mps2-an386 (14 checks)" in out


def test_unreachable_scheduler_is_a_clear_error(monkeypatch):
    monkeypatch.setattr(cluster_mod, "CONNECT_TIMEOUT_S", 2)
    with socket.socket() as s:  # a port with nothing listening
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    status, out = pqlab("test", "ml-kem-512", "-i", "ref", "-p", "host", "--cluster", f"tcp://127.0.0.1:{port}")
    assert status == 2 and "cannot connect to the Dask scheduler" in out, out


def test_a_worker_on_another_checkout_or_commit_refuses():
    from pqlab import ROOT
    from pqlab.results import git_state

    with pytest.raises(cluster_mod.PqlabError, match="same checkout at the same path"):
        cluster_mod._check_checkout("/elsewhere/pqlab", git_state()[0])
    with pytest.raises(cluster_mod.PqlabError, match="has pqlab commit"):
        cluster_mod._check_checkout(str(ROOT), "0" * 40)
    cluster_mod._check_checkout(str(ROOT), git_state()[0])  # the same: runs


def test_a_scheduler_without_workers_is_a_clear_error(monkeypatch):
    monkeypatch.setattr(cluster_mod, "CONNECT_TIMEOUT_S", 2)
    with distributed.LocalCluster(n_workers=0, processes=True, dashboard_address="127.0.0.1:0", host="127.0.0.1") as lc:
        status, out = pqlab("test", "ml-kem-512", "-i", "ref", "-p", "host", "--cluster", lc.scheduler_address)
    assert status == 2 and "has no worker" in out, out
