"""The one helper through which tests reach external data (tests/extdata.py): a plain clone
skips with one reason naming the setting, a partial copy fails, and PQLAB_REQUIRE_EXTERNAL=1
(CI) turns every would-be skip into a failure."""

from __future__ import annotations

from pathlib import Path

import extdata
import pytest

from pqlab import external


@pytest.fixture
def where(monkeypatch, tmp_path: Path) -> Path:
    monkeypatch.delenv(extdata.REQUIRE_ENV, raising=False)
    monkeypatch.setenv(external.VECTORS_ENV, str(tmp_path / "vectors"))
    monkeypatch.setenv(external.THIRDPARTY_ENV, str(tmp_path / "thirdparty"))
    return tmp_path


def test_present_file_is_returned(where: Path) -> None:
    (where / "vectors" / "acvp").mkdir(parents=True)
    (where / "vectors" / "acvp" / "a.json").write_text("{}")
    assert extdata.vectors("acvp/a.json") == where / "vectors" / "acvp" / "a.json"
    assert extdata.vectors_params("acvp/a.json", lambda p: [p.read_text()]) == ["{}"]


def test_absent_folder_skips_with_one_reason(where: Path) -> None:
    with pytest.raises(pytest.skip.Exception) as a:
        extdata.vectors("acvp/a.json")
    with pytest.raises(pytest.skip.Exception) as b:
        extdata.vectors("wycheproof/testvectors_v1/b.json")
    assert str(a.value) == str(b.value)  # the same reason for every file of the folder
    assert "PQLAB_VECTORS" in str(a.value) and str(where / "vectors") in str(a.value)
    with pytest.raises(pytest.skip.Exception, match="PQLAB_THIRDPARTY"):
        extdata.thirdparty("pqm4-cc2c1b9.tar.gz")
    (param,) = extdata.vectors_params("acvp/a.json", lambda p: [1, 2], width=2)
    assert param.values == (None, None) and param.marks[0].name == "skip"


def test_partial_copy_fails_naming_file_source_and_setting(where: Path) -> None:
    (where / "vectors").mkdir()
    with pytest.raises(pytest.fail.Exception) as e:
        extdata.vectors("falcon-round3/KAT/falcon512-KAT.rsp")
    msg = str(e.value)
    assert "falcon-round3/KAT/falcon512-KAT.rsp" in msg and "falcon-sign.info" in msg and "PQLAB_VECTORS" in msg
    (param,) = extdata.vectors_params("acvp/a.json", lambda p: [1])
    assert param.marks[0].name == "external_missing" and "acvp/a.json" in param.marks[0].args[0]


def test_required_never_skips(where: Path, monkeypatch) -> None:
    monkeypatch.setenv(extdata.REQUIRE_ENV, "1")
    with pytest.raises(pytest.fail.Exception, match=extdata.REQUIRE_ENV):
        extdata.vectors("acvp/a.json")
    with pytest.raises(pytest.fail.Exception):
        extdata.thirdparty("pqm4-cc2c1b9.tar.gz")
    (param,) = extdata.vectors_params("acvp/a.json", lambda p: [1])
    assert param.marks[0].name == "external_missing"
    monkeypatch.setenv(extdata.REQUIRE_ENV, "0")
    with pytest.raises(pytest.skip.Exception):
        extdata.vectors("acvp/a.json")
