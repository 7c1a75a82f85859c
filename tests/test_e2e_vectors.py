"""Deterministic outputs of every scheme agree across platforms and with the recorded hashes."""

import json

from click.testing import CliRunner

from pqlab.cli import main
from pqlab.registry import discover

OWN = [i for i in discover() if i.own]
FAST = sorted({i.scheme for i in OWN if not i.slow})
SLOW = sorted({i.scheme for i in OWN if i.slow})


def vectors(schemes, platforms):
    args = ["vectors", *schemes, "--json"] + [x for p in platforms for x in ("-p", p)]
    res = CliRunner().invoke(main, args, catch_exceptions=False)
    assert res.exit_code == 0, res.output
    return json.loads(res.output[res.output.index("[") :])


def test_every_scheme_has_a_recorded_hash():
    recorded = json.loads((__import__("pqlab").ROOT / "pqlab" / "data" / "vectors.json").read_text())
    assert set(FAST + SLOW) <= set(recorded)


def test_fast_schemes_across_platforms():
    rows = vectors(FAST, ["host", "mps2-an386", "mps2-an500"])
    assert {r["scheme"] for r in rows} == set(FAST)
    for r in rows:
        assert r["agree"] and r["matches_record"] and r["expected"], r


def test_slow_schemes_on_host():
    rows = vectors(SLOW, ["host"])
    assert {r["scheme"] for r in rows} == set(SLOW)
    assert all(r["matches_record"] and r["expected"] for r in rows)
