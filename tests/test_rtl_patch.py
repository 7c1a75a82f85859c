# SPDX-License-Identifier: MIT
"""The build-time core patch of pqlab/rtl.py (`[rtl] patch`; hw/cv32e40p/keccak-insn.patch,
docs/accel.md "Keccak instructions"): it applies exactly to the installed core, only the files
it names are replaced by patched copies, a patch that does not apply or names a file outside
the core's file list is an error, and the patch's text is part of the model's cache key.
No Verilator build: the patch step alone."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest

from pqlab import PqlabError, rtl
from pqlab.platforms import get_platform

ACC = "cv32e40p-acc-rtl"

pytestmark = pytest.mark.skipif(shutil.which("patch") is None, reason="the patch program is not installed")


def setup() -> tuple[rtl.RtlSpec, rtl.Package, list[Path]]:
    s = rtl.spec(get_platform(ACC))
    assert s.patch is not None and s.patch.name == "keccak-insn.patch"
    pkg = rtl.package(s)
    return s, pkg, rtl.sources(s, pkg)[1]


def test_the_patch_applies_to_the_installed_core(tmp_path: Path) -> None:
    s, pkg, files = setup()
    out = rtl.apply_patch(s, pkg, files, tmp_path)
    changed = [(a, b) for a, b in zip(files, out) if a != b]
    assert sorted(b.name for _, b in changed) == [
        "cv32e40p_core.sv",
        "cv32e40p_decoder.sv",
        "cv32e40p_ex_stage.sv",
        "cv32e40p_id_stage.sv",
    ]
    for a, b in changed:
        assert b.is_relative_to(tmp_path) and a.read_text() != b.read_text()
    assert "keccak_insn kacc_i" in (tmp_path / "src/rtl/cv32e40p_ex_stage.sv").read_text()
    # the package itself is untouched
    assert "kacc" not in (pkg.data / "rtl/cv32e40p_ex_stage.sv").read_text()


def test_base_platforms_have_no_patch() -> None:
    for name in ("cv32e40p-rtl", "cv32e40p-nofpu-rtl"):
        assert rtl.spec(get_platform(name)).patch is None


def test_a_patch_that_does_not_apply_is_an_error(tmp_path: Path) -> None:
    s, pkg, files = setup()
    bad = tmp_path / "bad.patch"
    text = s.patch.read_text()
    # a context line of the EX stage's first hunk that the core does not have
    hunk = text.index("\n@@", text.index("+++ b/rtl/cv32e40p_ex_stage.sv"))
    line = text.index("\n ", hunk + 1)
    bad.write_text(text[: line + 2] + "changed " + text[line + 2 :])
    with pytest.raises(PqlabError, match="does not apply"):
        rtl.apply_patch(dataclasses.replace(s, patch=bad), pkg, files, tmp_path / "out")


def test_a_patch_outside_the_file_list_is_an_error(tmp_path: Path) -> None:
    s, pkg, files = setup()
    bad = tmp_path / "bad.patch"
    bad.write_text(
        s.patch.read_text().replace("+++ b/rtl/cv32e40p_core.sv", "+++ b/rtl/cv32e40p_register_file_latch.sv", 1)
    )
    with pytest.raises(PqlabError, match="not a source file"):
        rtl.apply_patch(dataclasses.replace(s, patch=bad), pkg, files, tmp_path / "out")


def test_the_patch_is_in_the_cache_key(tmp_path: Path) -> None:
    s, pkg, _ = setup()
    plat = get_platform(ACC)
    other = tmp_path / "keccak-insn.patch"
    other.write_text(s.patch.read_text() + "\n")
    assert rtl._key(plat, s, pkg) != rtl._key(plat, dataclasses.replace(s, patch=other), pkg)
    assert rtl._key(plat, s, pkg) != rtl._key(plat, dataclasses.replace(s, patch=None), pkg)
