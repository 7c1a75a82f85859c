"""pqlab/m7study.py's build options (docs/sim.md, "Against the published Falcon study"): the
optimisation level, further flags, the toolchain and the driver's calls reach the compiler and
are recorded in the output. Fast: no simulation (the runs are in tests/test_calibrate_pqm4.py's
slow set); one compile of the driver in each calls mode."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from extdata import thirdparty

from pqlab import PqlabError
from pqlab import m7study as M
from pqlab.build import build_program, compiler_version
from pqlab.platforms import get_platform


def test_level_comes_after_the_platform_flags_and_overrides_them() -> None:
    flags = M.build_flags(9, "FPU", 1, 2, "O2")
    assert flags[-1] == "-O2"
    assert "-DFALCON_FPNATIVE=1" in flags and "-DLOGN=9" in flags
    assert M.build_flags(9, "EMU", 1, 2, "-Os")[-1] == "-Os"
    assert not any(f.startswith("-O") for f in M.build_flags(10, "EMU", 1, 2))  # the platform's -O3
    more = ["-fno-ipa-modref", "-fno-ipa-pure-const"]
    assert M.build_flags(9, "FPU", 1, 2, "O2", "study", more)[-3:] == ["-O2", *more]
    plat = get_platform("m7-sim")
    assert "-O3" in plat.cflags  # what --opt overrides


def test_calls_select_the_study_or_the_speed_test() -> None:
    assert "-DSTUDY_CALLS=1" in M.build_flags(9, "FPU", 1, 1)  # default: the study's calls
    assert "-DSTUDY_CALLS=0" in M.build_flags(9, "FPU", 1, 1, calls="speed")


@pytest.mark.parametrize(
    "args",
    [("O4", "study", "FPU"), ("O2", "ct", "FPU"), ("O2", "study", "SOFT")],
)
def test_bad_options_are_refused(args) -> None:
    opt, calls, fp = args
    with pytest.raises(PqlabError):
        M.build_flags(9, fp, 1, 1, opt, calls)


def test_main_records_the_build(tmp_path, monkeypatch) -> None:
    seen = []

    def fake_build(plat, extra, work, logn, fp, keygens, runs, opt=None, calls="study", cflags=()):
        seen.append((plat.toolchain, logn, fp, opt, calls, tuple(cflags)))
        return tmp_path / "program.elf"

    def fake_run(plat, elf, timeout=0.0, memory="tcm"):
        return {op: [1000 * (i + 1)] for i, op in enumerate(M.OPS)}

    monkeypatch.setattr(M, "build", fake_build)
    monkeypatch.setattr(M, "run", fake_run)
    monkeypatch.setattr(M, "extract", lambda tarball, work: tmp_path)
    monkeypatch.setattr("pqlab.external.path", lambda kind, name: tmp_path / name)
    argv = ["--logn", "9", "--fp", "FPU", "--opt", "O2", "--cflags=-fno-ipa-modref", "--work", str(tmp_path)]
    assert M.main(argv) == 0
    assert seen == [("gcc", 9, "FPU", "O2", "study", ("-fno-ipa-modref",))]
    (table,) = tmp_path.glob("table-m7-sim-O2-x*-study-tcm.json")
    res = json.loads(table.read_text())
    assert res["toolchain"] == "gcc" and res["opt"] == "-O2" and res["calls"] == "study"
    assert res["compiler"].startswith("arm-none-eabi-gcc")
    assert res["more_cflags"] == ["-fno-ipa-modref"]
    flags = res["cflags"]["Falcon-512 FPU"]
    assert flags.index("-O3") < flags.index("-O2") < flags.index("-fno-ipa-modref")
    assert [r["op"] for r in res["rows"]] == list(M.OPS)


def test_unknown_toolchain_is_refused() -> None:
    with pytest.raises(SystemExit):
        M.main(["--toolchain", "icc"])


@pytest.mark.parametrize("calls", list(M.CALLS))
def test_driver_compiles_in_both_modes(tmp_path, calls) -> None:
    extra = M.extract(thirdparty(M.TARBALL), tmp_path)
    plat = get_platform("m7-sim")
    flags = M.build_flags(9, "FPU", 1, 1, "O2", calls)
    objs = build_program(
        plat, tmp_path / calls, [M.DATA / "falcon_extra_speed.c"], include=[extra], cflags=flags, kind="objects"
    )
    assert isinstance(objs, list) and all(Path(o).stat().st_size > 0 for o in objs)


def test_gcc12_at_o2_is_refused_without_the_workaround() -> None:
    plat = get_platform("m7-sim")
    gcc12 = " 12." in compiler_version(plat.cc)
    for opt in ("O2", "-O1"):
        if gcc12:
            with pytest.raises(PqlabError, match="1288"):
                M.check_compiler(plat, opt)
        else:
            M.check_compiler(plat, opt)
        M.check_compiler(plat, opt, M.GCC12_WORKAROUND)
    M.check_compiler(plat, "O3")
    M.check_compiler(plat, "Os")
    M.check_compiler(plat, None)
