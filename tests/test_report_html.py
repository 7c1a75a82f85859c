"""`pqlab report --format html`: a self-contained page whose charts a headless browser renders.

The checks read the DOM after chromium has run the page's JavaScript (plotly draws the
charts there): bars, min-max whiskers and axis labels exist only if the page rendered.
"""

import re
import shutil
import subprocess

import pytest
from click.testing import CliRunner

from pqlab.cli import main
from pqlab.results import Store
from tests.test_results import ctx

BROWSER = "chromium-headless-shell"  # Debian package of the same name; run.sh installs it


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    d = tmp_path_factory.mktemp("html")
    st = Store(d / "r.db")
    for plat, core, k in (("m4-sim", "cortex-m4", 1.0), ("m7-sim", "cortex-m7", 0.5)):
        for impl, f in (("ref", 1.0), ("fpu", 0.25)):
            if impl == "fpu" and core == "cortex-m4":
                continue  # native double precision does not run on the M4
            ops = (("keypair", 8e7), ("sign", 2e7), ("verify", 4e5))
            st.add_run(
                ctx(scheme="fn-dsa-512", implementation=impl, platform=plat, core=core, unit="cycles"),
                [("speed", op, b * k * f * x) for op, b in ops for x in (0.9, 1.0, 1.3)]
                + [("stack", op, 3000 + n) for n, (op, _) in enumerate(ops)]
                + [("ram", op, 9000 + n) for n, (op, _) in enumerate(ops)]
                + [("iterations", "sign", x) for x in (1, 1, 1, 2)],
            )
    st.add_run(
        ctx(scheme="ml-kem-768", implementation="ref", platform="m4-sim", core="cortex-m4", unit="cycles"),
        [("speed", op, v) for op, v in (("keypair", 7e5), ("encaps", 8e5), ("decaps", 9e5))],
    )
    st.close()
    out = d / "report.html"
    res = CliRunner().invoke(main, ["report", "--db", str(d / "r.db"), "--format", "html", "-o", str(out)])
    assert res.exit_code == 0, res.output
    return out


@pytest.fixture(scope="module")
def dom(page):
    exe = shutil.which(BROWSER)
    assert exe, f"{BROWSER} is not installed: run ./run.sh (it installs the Debian package {BROWSER})"
    res = subprocess.run(
        [exe, "--no-sandbox", "--disable-gpu", "--virtual-time-budget=15000", "--dump-dom", page.as_uri()],
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert res.returncode == 0, res.stderr[-2000:]
    return res.stdout


def test_page_is_self_contained_with_html_tables(page):
    text = page.read_text()
    assert text.startswith("<!DOCTYPE html>") and "<pre>" not in text
    assert "http://" not in text.split("<script>")[0] and 'src="http' not in text  # no network needed
    assert text.count("<table>") >= 6
    assert "<td>fn-dsa-512</td><td>ref</td><td>sign</td>" in text


def test_charts_render_in_a_browser(dom):
    # speed: one bar trace per implementation and platform (ref on m4; ref + fpu on m7)
    titles = re.findall(r'class="gtitle"[^>]*>([^<]*)', dom)
    assert [t for t in titles if "speed" in t] == [
        "m4-sim: KEM speed [cycles], mean with min-max",
        "m4-sim: signature speed [cycles], mean with min-max",
        "m7-sim: signature speed [cycles], mean with min-max",
    ]
    assert len(titles) == 7  # speed per kind, stack/RAM and iterations per platform
    assert dom.count('class="trace bars"') >= 1 + 1 + 2 + 2 + 4 + 2  # speed, stack+ram, iteration distributions
    assert dom.count('class="errorbar"') >= 3 + 3 * 3  # min-max whiskers on every speed bar
    # operations in the tables' order (FIPS 203: keypair, encaps, decaps), not alphabetical
    ticks = re.findall(r'class="xtick"><text[^>]*>([^<]*)', dom)
    assert ticks[:6] == ["keypair", "encaps", "decaps", "keypair", "sign", "verify"], ticks[:6]


def test_comparison_tables(dom):
    m4m7 = dom[dom.index("Cortex-M4 vs Cortex-M7") :]
    assert re.search(
        r"<td>fn-dsa-512</td><td>ref</td><td>sign</td><td[^>]*>m4-sim</td><td[^>]*>[\d,.]+</td>"
        r"<td[^>]*>m7-sim</td><td[^>]*>[\d,.]+</td><td[^>]*>2\.00</td>",
        m4m7,
    )
    fpu = dom[dom.index("Emulated vs native floating point") :]
    assert re.search(
        r"<td>fn-dsa-512</td><td>m7-sim</td><td>sign</td><td[^>]*>ref</td><td[^>]*>[\d,.]+</td>"
        r"<td[^>]*>fpu</td><td[^>]*>[\d,.]+</td><td[^>]*>4\.00</td>",
        fpu,
    )
