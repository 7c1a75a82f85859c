"""`pqlab report --format pqm4`: pqm4's benchmarks.md / benchmarks.csv, line for line.

The published files of pqm4 (cc2c1b9, in the third-party tarball) are read back into a
results database (per row: executions whose truncated mean, minimum and maximum are the
published ones; stack, hashing share, sizes), rendered by pqlab, and compared with the
published files restricted to the same schemes: every line must be identical.
"""

import re
import tarfile

import pytest
from click.testing import CliRunner

from pqlab.cli import main
from pqlab.results import Store
from tests.test_results import ctx

PQM4 = "pqm4-cc2c1b9.tar.gz"
SAMPLE = re.compile(r"^(ml-kem-\d+|bikel1|ml-dsa-44|aimer128f|sphincs-shake-128f-simple|hqc-128)$")


@pytest.fixture(scope="module")
def published():
    from extdata import thirdparty

    with tarfile.open(thirdparty(PQM4)) as tar:
        md = tar.extractfile("pqm4/benchmarks.md").read().decode()
        csv = tar.extractfile("pqm4/benchmarks.csv").read().decode()
    return md, csv


def _rows(md: str):
    """(section, kind, cells) of every table row of pqm4's Markdown file."""
    section = kind = None
    for line in md.splitlines():
        if line.startswith("# "):
            section = line[2:]
        elif line.startswith("## "):
            kind = line[3:]
        elif line.startswith("| ") and not line.startswith("| -") and not line.lower().startswith("| scheme |"):
            yield section, kind, [c.strip() for c in line.strip("| ").split(" | ")]


def _num(s: str) -> int:
    return int(s.replace(",", ""))


def _database(md: str, path):
    ops = {"Key Encapsulation Schemes": ("keypair", "encaps", "decaps"), "Signature Schemes": ("keypair", "sign", "verify")}
    runs: dict[tuple[str, str], list] = {}
    for section, kind, cells in _rows(md):
        m = re.match(r"(\S+)(?: \((\d+) executions\))?$", cells[0])
        scheme, impl = m.group(1), cells[1]
        if not SAMPLE.match(scheme):
            continue
        vals = runs.setdefault((scheme, impl), [])
        if section == "Speed Evaluation":
            n = int(m.group(2))
            for op, cell in zip(ops[kind], cells[2:]):
                avg, lo, hi = (_num(x) for x in re.findall(r"[\d,]+", cell))
                rest = (n * avg + n / 2 - lo - hi) / (n - 2)  # truncated mean = avg
                vals += [("speed", op, lo), ("speed", op, hi)] + [("speed", op, rest)] * (n - 2)
        elif section == "Memory Evaluation":
            vals += [("stack", op, _num(c)) for op, c in zip(ops[kind], cells[2:])]
        elif section == "Hashing Evaluation":
            vals += [("hashing", op, float(c.rstrip("%"))) for op, c in zip(ops[kind], cells[2:])]
        elif section == "Size Evaluation":
            vals += [("size", k, _num(c)) for k, c in zip(("text", "data", "bss"), cells[2:5])]
    st = Store(path)
    for (scheme, impl), vals in runs.items():
        st.add_run(ctx(scheme=scheme, implementation=impl, platform="m4-sim", unit="cycles"), vals)
    st.close()
    return runs


def _restricted(text: str, csv: bool) -> list[str]:
    out = []
    for line in text.splitlines():
        first = line.split(",")[0] if csv else line.strip("| ").split(" | ")[0]
        name = first.split(" (")[0]
        is_row = (csv and line.count(",") == 10 and not line.endswith(",,,,,,,,,,") and not first.startswith("Scheme")) or (
            not csv and line.startswith("| ") and not line.startswith("| -") and name.lower() != "scheme")
        if not is_row or SAMPLE.match(name):
            out.append(line)
    return out


def test_pqm4_layout_line_for_line(published, tmp_path):
    md, csv = published
    runs = _database(md, tmp_path / "r.db")
    assert len(runs) >= 10  # the sample: ML-KEM x3 impls x3, BIKE, ML-DSA-44, ...
    res = CliRunner().invoke(main, ["report", "--db", str(tmp_path / "r.db"), "--format", "pqm4", "-o", str(tmp_path / "out")])
    assert res.exit_code == 0, res.output
    ours_md = (tmp_path / "out" / "benchmarks.md").read_text().splitlines()
    ours_csv = (tmp_path / "out" / "benchmarks.csv").read_text().splitlines()
    assert ours_md == _restricted(md, csv=False)
    assert ours_csv == _restricted(csv, csv=True)


def test_pqm4_format_needs_one_platform(tmp_path):
    st = Store(tmp_path / "r.db")
    for plat in ("m4-sim", "mps2-an386"):
        st.add_run(ctx(platform=plat), [("speed", op, 5) for op in ("keypair", "encaps", "decaps")])
    st.close()
    res = CliRunner().invoke(main, ["report", "--db", str(tmp_path / "r.db"), "--format", "pqm4-md"])
    assert res.exit_code == 2 and "choose one with -p" in res.output
    res = CliRunner().invoke(main, ["report", "--db", str(tmp_path / "r.db"), "--format", "pqm4-md", "-p", "mps2-an386"])
    assert res.exit_code == 0 and "| ml-kem-768 (1 executions) | ref | AVG: 5 <br /> MIN: 5 <br /> MAX: 5 |" in res.output
    assert "[instructions]" in res.output  # QEMU's counts are not labelled cycles
