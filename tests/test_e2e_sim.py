"""pqlab-sim as a pqlab platform: tests, benchmarks with modelled cycles, per-operation profiles."""

import json
import subprocess

import pytest
from cli_runner import pqlab, pqlab_stdout

from pqlab import ROOT
from pqlab.platforms import default_platform

SIM = ROOT / "sim" / "target" / "release" / "pqlab-sim"


@pytest.fixture(scope="module", autouse=True)
def simulator():
    if not SIM.exists():  # ./run.sh builds it; a bare pytest run builds it here
        subprocess.run(
            ["cargo", "build", "--release", "-q", "--manifest-path", str(ROOT / "sim" / "Cargo.toml")], check=True
        )


def test_default_platform_is_the_simulated_m4():
    assert default_platform() == "m4-sim"


def test_target_tests_on_both_simulated_cores():
    code, out = pqlab("test", "ml-kem-512", "ml-dsa-44", "-i", "ref", "-p", "m4-sim", "-p", "m7-sim")
    assert code == 0, out
    assert out.count("ok   ") == 4


def test_bench_records_modelled_cycles(tmp_path):
    db = tmp_path / "r.db"
    code, out = pqlab("bench", "ml-kem-512", "-n", 2, "--db", db)  # default platform
    assert code == 0, out
    assert "Simulated: cycle counts from the timing model pqlab-sim" in out
    recs = json.loads(pqlab_stdout("report", "--db", db, "--format", "json")[1])
    speed = [r for r in recs if r["metric"] == "speed"]
    assert {r["platform"] for r in speed} == {"m4-sim"}
    assert all(r["unit"] == "cycles" and r["context"]["timer"] == "dwt" for r in speed)
    assert all("m4-v" in r["context"]["model"] for r in speed)
    # deterministic: the same operation costs the same modelled cycles on every iteration of encaps
    enc = next(r for r in speed if r["operation"] == "encaps")
    assert enc["min"] > 300_000 and enc["stdev"] < 0.01 * enc["mean"]


def test_bench_records_simulator_speed_next_to_qemu(tmp_path):
    """On a simulated platform the bench times the speed program under pqlab-sim (timing model
    on) and under QEMU -icount on the same binary, and reports both in instructions/s."""
    db = tmp_path / "r.db"
    code, out = pqlab("bench", "ml-kem-512", "-p", "m7-sim", "-n", 1, "--db", db)
    assert code == 0, out
    assert "Simulator speed [million instructions per second]" in out
    recs = json.loads(pqlab_stdout("report", "--db", db, "--format", "json")[1])
    sim = {r["operation"]: r for r in recs if r["metric"] == "simspeed"}
    assert set(sim) == {"pqlab-sim", "qemu (mps2-an500)"}
    assert all(r["mean"] > 1 and r["unit"] == "M instructions/s" for r in sim.values())
    assert all(r["context"]["program"] == "speed" for r in sim.values())


def test_profile_names_the_hot_functions():
    code, out = pqlab_stdout("profile", "ml-kem-512", "-i", "ref", "-p", "m4-sim", "--json", "--top", 5)
    assert code == 0, out
    rows = json.loads(out)
    assert [r["operation"] for r in rows] == ["keypair", "encaps", "decaps"]
    for r in rows:
        assert r["cycles"] > 100_000
        assert any("keccak" in f["name"].lower() for f in r["functions"]), r["functions"]
        assert sum(f["exclusive"] for f in r["functions"]) <= r["cycles"]
