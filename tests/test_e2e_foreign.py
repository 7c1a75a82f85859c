"""Drop-in compatibility end to end: foreign-style folders (pqm4 plain names, PQClean prefix,
MUPQ_NAMESPACE) build unmodified against lib/compat and pass the target tests; a broken folder
is reported with the compiler's message while the others go on."""

import json
import shutil
from pathlib import Path

import pytest
from cli_runner import pqlab, pqlab_stdout

from pqlab.registry import discover

FOREIGN = Path(__file__).parent / "foreign"


def foreign_impls():
    own = {i.id for i in discover()}
    return [i for i in discover([FOREIGN]) if i.id not in own]


def test_three_styles_present():
    styles = {i.style for i in foreign_impls()}
    assert styles == {"plain", "pqclean", "mupq"}, styles


@pytest.mark.parametrize("platform", ["host", "mps2-an386"])
def test_foreign_impls_pass_target_tests(platform):
    names = sorted({i.scheme for i in foreign_impls()})
    code, out = pqlab("test", *names, "--impl-path", FOREIGN, "-p", platform)
    assert code == 0, out
    assert out.count("ok   ") == len(names)


def test_broken_folder_reported_others_go_on(tmp_path):
    good = next(i for i in foreign_impls() if i.style == "plain")
    shutil.copytree(good.dir, tmp_path / "crypto_kem" / "demo-good" / "ref") if good.kind == "kem" else shutil.copytree(
        good.dir, tmp_path / "crypto_sign" / "demo-good" / "ref"
    )
    broken = tmp_path / good.dir.parent.parent.name / "demo-broken" / "ref"
    shutil.copytree(good.dir, broken)
    (broken / "broken.c").write_text("int this_does_not_compile( {\n")
    code, out = pqlab("test", "demo-good", "demo-broken", "--impl-path", tmp_path, "-p", "host")
    assert code == 1, out
    assert "FAIL demo-broken/ref on host: build of demo-broken/ref for host failed" in out
    assert "broken.c" in out and "error:" in out
    assert "ok   demo-good/ref on host" in out


def test_size_reports_objects_and_binary():
    names = sorted({i.scheme for i in foreign_impls()})
    code, out = pqlab_stdout("size", *names, "ml-kem-768", "--impl-path", FOREIGN, "-p", "mps2-an386", "--json")
    assert code == 0, out
    rows = json.loads(out)
    own_768 = [i for i in discover() if i.scheme == "ml-kem-768"]  # ref, smallstack
    assert len(rows) == len(names) + len(own_768)
    for r in rows:
        assert r["objects"]["text"] > 0 and r["test_binary"]["text"] > r["objects"]["text"]
