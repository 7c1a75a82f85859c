"""The kernel dispatch of lib/mldsa/kernels.h: a build with a stand-in backend
(lib/mldsa/testing/fake_backend.h: native NTT and 4-way RejNTTPoly that count their calls and
run the C kernels) uses the declared native kernels, still gives byte-exact ACVP keyGen and
sigGen results, and exports the portable <name>_c kernels next to the native ones."""

from __future__ import annotations

import ctypes
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_mldsa_support import MLDSA, MODES, ROOT, acvp

from pqlab.acvp import mldsa as plugin


def test_fake_backend_dispatch() -> None:
    for mode in MODES:
        lib = MLDSA(
            mode,
            ('-DPQLAB_MLDSA_BACKEND_HEADER="fake_backend.h"', f"-I{ROOT / 'lib/mldsa/testing'}"),
            ("lib/mldsa/testing/fake_backend.c",),
        )
        calls = lib.fn("fake_backend_calls")
        calls.restype = ctypes.c_ulong
        assert calls() == 0
        data = json.loads(acvp("975de31/ML-DSA-keyGen-FIPS204/expectedResults.json").read_text())
        prompt = json.loads(acvp("975de31/ML-DSA-keyGen-FIPS204/prompt.json").read_text())
        g = next(g for g in prompt["testGroups"] if g["parameterSet"] == f"ML-DSA-{mode}")
        exp = {t["tcId"]: t for eg in data["testGroups"] for t in eg["tests"]}
        for t in g["tests"][:5]:
            r, pk, sk = lib.keypair_internal(bytes.fromhex(t["seed"]))
            assert r == 0 and pk.hex().upper() == exp[t["tcId"]]["pk"] and sk.hex().upper() == exp[t["tcId"]]["sk"]
        n = calls()
        assert n % 1000000 > 0, "native NTT not called"
        assert n // 1000000 > 0, "native 4-way RejNTTPoly not called"
        sg = json.loads(acvp("v1.1.0.35/ML-DSA-sigGen-FIPS204/internalProjection.json").read_text())
        for g in sg["testGroups"]:
            if g["parameterSet"] != f"ML-DSA-{mode}":
                continue
            for t in g["tests"][:3]:
                ((cmd, args),) = plugin.requests(g, t)
                assert plugin.result(g, t, [lib.drive(cmd, args)]) == {"signature": t["signature"]}
        # the portable kernels stay available for differential tests of native ones
        assert hasattr(lib.lib, f"pqlab_mldsa{mode}_ref_ntt_c") and hasattr(
            lib.lib, f"pqlab_mldsa{mode}_ref_ntt_native"
        )
