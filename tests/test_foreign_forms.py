"""Drop-in fidelity for pqm4/mupq/PQClean folders as they are today (issue 15).

- Sources are compiled at the path through which their folder reaches them: a folder whose
  sources are symbolic links to another parameter set's folder, with its own params.h beside
  them, builds its own set (a small linked layout of our own, built through pqlab's build).
- Every NIST signature API form of pqm4, mupq and PQClean heads builds and passes the target
  tests: plain names (size_t and NIST unsigned long long), PQClean prefixes, MUPQ_NAMESPACE,
  the FIPS 204 `_ctx` functions with context-free functions, with context-free names as
  macros, and alone; a non-empty context is exercised (a toy that ignores it fails).
- The measuring programs carry the functional self-check: a wrong implementation's bench
  fails with the check's name and stores nothing.
- pqm4 itself (PQLAB_THIRDPARTY/pqm4-cc2c1b9.tar.gz, docs/vectors.md): the linked ML-KEM variants and
  ML-DSA with the context API pass `pqlab test` on m4-sim.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from extdata import pqm4_tree

import pqlab.build as build_module
from pqlab.build import build, impl_flags
from pqlab.cli import main
from pqlab.platforms import get_platform
from pqlab.registry import discover
from pqlab.runner import run

TOYSIG = Path(__file__).parent / "data" / "apiforms" / "toysig.c"


def pqlab(*args) -> tuple[int, str]:
    res = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    return res.exit_code, res.output


# --- a linked layout of our own -----------------------------------------------------------------

# An INSECURE toy KEM (the public key is the secret key). The sizes come from params.h; kem.c
# reaches them only through toy.h, so both a linked source and a linked header must see the
# folder's own params.h.
KEM_API = """#ifndef API_H
#define API_H
#include "params.h"
#define CRYPTO_SECRETKEYBYTES 32
#define CRYPTO_PUBLICKEYBYTES 32
#define CRYPTO_CIPHERTEXTBYTES TOY_CTBYTES
#define CRYPTO_BYTES TOY_SSBYTES
#define CRYPTO_ALGNAME TOY_NAME
int crypto_kem_keypair(unsigned char *pk, unsigned char *sk);
int crypto_kem_enc(unsigned char *ct, unsigned char *ss, const unsigned char *pk);
int crypto_kem_dec(unsigned char *ss, const unsigned char *ct, const unsigned char *sk);
#endif
"""
KEM_PARAMS = """#ifndef PARAMS_H
#define PARAMS_H
#define TOY_CTBYTES {ct}
#define TOY_SSBYTES {ss}
#define TOY_NAME "{name}"
#endif
"""
KEM_TOY_H = """#ifndef TOY_H
#define TOY_H
#include "params.h"
#define TOY_USED_CTBYTES (TOY_CTBYTES - TOY_SKIP_LAST)
#endif
"""
KEM_C = """#include <string.h>
#include "api.h"
#include "fips202.h"
#include "randombytes.h"
#include "toy.h"
/* ss = SHAKE256(key || ct[0..TOY_USED_CTBYTES)) */
static void derive(unsigned char *ss, const unsigned char *ct, const unsigned char *key) {
    unsigned char in[32 + TOY_CTBYTES];
    memcpy(in, key, 32);
    memcpy(in + 32, ct, TOY_USED_CTBYTES);
    shake256(ss, TOY_SSBYTES, in, 32 + TOY_USED_CTBYTES);
}
int crypto_kem_keypair(unsigned char *pk, unsigned char *sk) { randombytes(sk, 32); memcpy(pk, sk, 32); return 0; }
int crypto_kem_enc(unsigned char *ct, unsigned char *ss, const unsigned char *pk) {
    randombytes(ct, TOY_CTBYTES); derive(ss, ct, pk); return 0; }
int crypto_kem_dec(unsigned char *ss, const unsigned char *ct, const unsigned char *sk) {
    derive(ss, ct, sk); return 0; }
"""


def kem_folder(root: Path, scheme: str, ct: int, ss: int, skip_last: int = 0) -> Path:
    d = root / "crypto_kem" / scheme / "ref"
    d.mkdir(parents=True)
    (d / "api.h").write_text(KEM_API)
    (d / "params.h").write_text(KEM_PARAMS.format(ct=ct, ss=ss, name=scheme))
    (d / "toy.h").write_text(KEM_TOY_H.replace("TOY_SKIP_LAST", str(skip_last)))
    (d / "kem.c").write_text(KEM_C)
    return d


def linked_layout(root: Path) -> tuple[Path, Path]:
    """linkkem-big/ref holds the sources; linkkem-small/ref has its own api.h and params.h and
    symbolic links to big's kem.c and toy.h (pqm4's layout, relative links)."""
    big = kem_folder(root, "linkkem-big", ct=64, ss=32)
    small = root / "crypto_kem" / "linkkem-small" / "ref"
    small.mkdir(parents=True)
    (small / "api.h").write_text(KEM_API)
    (small / "params.h").write_text(KEM_PARAMS.format(ct=24, ss=16, name="linkkem-small"))
    for name in ("kem.c", "toy.h"):
        (small / name).symlink_to(Path("..") / ".." / "linkkem-big" / "ref" / name)
    assert (small / "kem.c").resolve().parent == big.resolve()
    return big, small


def test_linked_sources_build_their_folders_parameter_set(tmp_path, monkeypatch):
    # a private build folder: its build.ninja is not rewritten by a parallel test's host build
    monkeypatch.setattr(build_module, "BUILD_ROOT", tmp_path / "build")
    big, small = linked_layout(tmp_path)
    impls = {i.scheme: i for i in discover([tmp_path]) if i.scheme.startswith("linkkem-")}
    assert impls["linkkem-small"].sources == (small.absolute() / "kem.c",)  # the link path, not its target
    assert impls["linkkem-small"].sizes["CRYPTO_CIPHERTEXTBYTES"] == 24
    plat = get_platform("host")
    res = build(plat, list(impls.values()), ("test",), jobs=1)
    for scheme, impl in impls.items():
        assert res[impl.id].error is None, res[impl.id].error
        # with big's params.h, small's kem.c would write 64-byte ciphertexts and 32-byte secrets
        # into its 24- and 16-byte buffers: the canaries would fail the run (RunError)
        out = run(plat, res[impl.id].elf["test"], "test")
        assert out.ok and ["canary-ct", "ok"] in out.of("test") and ["roundtrip", "ok"] in out.of("test")
        assert [f for f in out.of("info") if f[0] == "algname"] == [["algname", scheme]]
    # the compile line names the link, not its target
    ninja = (tmp_path / "build" / "host" / "build.ninja").read_text()
    assert f"cc {small.absolute() / 'kem.c'}" in ninja
    assert f"cc {big.resolve() / 'kem.c'}\n" not in ninja.replace(str(big.absolute() / "kem.c"), "")


# --- every signature API form -----------------------------------------------------------------

PQCLEAN_PREFIX = "PQCLEAN_TOYSIGPQCLEAN_CLEAN_"
FORMS = {
    # name: (prefix, mupq, ctx, plain: "functions" | "macros" | "none", TOY_LEN)
    "plain": ("", False, False, "functions", "size_t"),
    "plain-nist": ("", False, False, "functions", "unsigned long long"),
    "pqclean": (PQCLEAN_PREFIX, False, False, "functions", "size_t"),
    "mupq": ("", True, False, "functions", "size_t"),
    "ctx-functions": ("", False, True, "functions", "size_t"),
    "ctx-macros": ("", False, True, "macros", "size_t"),
    "ctx-macros-pqclean": (PQCLEAN_PREFIX, False, True, "macros", "size_t"),
    "ctx-macros-mupq": ("", True, True, "macros", "size_t"),
    "ctx-only": ("", False, True, "none", "size_t"),
}
EXPECTED_FORMS = {
    "plain": (),
    "plain-nist": (),
    "pqclean": (),
    "mupq": (),
    "ctx-functions": ("PQLAB_API_SIGN_CTX", "PQLAB_API_SIGNATURE_CTX"),
    "ctx-macros": ("PQLAB_API_SIGN_CTX", "PQLAB_API_SIGNATURE_CTX", "PQLAB_API_PLAIN_MACROS"),
    "ctx-macros-pqclean": ("PQLAB_API_SIGN_CTX", "PQLAB_API_SIGNATURE_CTX", "PQLAB_API_PLAIN_MACROS"),
    "ctx-macros-mupq": ("PQLAB_API_SIGN_CTX", "PQLAB_API_SIGNATURE_CTX", "PQLAB_API_PLAIN_MACROS"),
    "ctx-only": ("PQLAB_API_SIGN_CTX", "PQLAB_API_SIGNATURE_CTX", "PQLAB_API_NO_PLAIN"),
}
SIG = "uint8_t *sig, size_t *siglen, const uint8_t *m, size_t mlen"
VER = "const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen"
ATT = "uint8_t *sm, size_t *smlen, const uint8_t *m, size_t mlen"
OPN = "uint8_t *m, size_t *mlen, const uint8_t *sm, size_t smlen"
CTX = "const uint8_t *ctx, size_t ctxlen"


def sign_api(form: str, extra: str = "") -> str:
    p, mupq, ctx, plain, length = FORMS[form]
    guard = f"{p}API_H" if p else "API_H"
    out = [f"#ifndef {guard}", f"#define {guard}", "#include <stddef.h>", "#include <stdint.h>", extra]
    out += [
        f"#define {p}CRYPTO_SECRETKEYBYTES 32",
        f"#define {p}CRYPTO_PUBLICKEYBYTES 32",
        f"#define {p}CRYPTO_BYTES 32",
        f'#define {p}CRYPTO_ALGNAME "toysig-{form}"',
    ]
    out.append(f"#define TOY_LEN {length}")
    names = ["crypto_sign_keypair"]
    if ctx:
        out.append("#define TOY_CTX 1")
        names += ["crypto_sign_signature_ctx", "crypto_sign_verify_ctx", "crypto_sign_ctx", "crypto_sign_open_ctx"]
    if plain == "functions":
        out.append("#define TOY_PLAIN 1")
        names += ["crypto_sign_signature", "crypto_sign_verify", "crypto_sign", "crypto_sign_open"]
    if mupq:  # the plain names mapped through the namespace the build gives
        out += [
            "#ifndef MUPQ_NAMESPACE",
            "#define MUPQ_NAMESPACE",
            "#endif",
            "#define TOY_PASTE(a, b) a##b",
            "#define TOY_EVAL(a, b) TOY_PASTE(a, b)",
            "#define TOY_NS(s) TOY_EVAL(MUPQ_NAMESPACE, s)",
            "#define TOY_NAME(x) x",
        ]
        out += [f"#define {n} TOY_NS({n})" for n in names]
    elif p:
        out.append(f"#define TOY_NAME(x) {p}##x")
    else:
        out.append("#define TOY_NAME(x) x")
    out.append(f"int {p}crypto_sign_keypair(uint8_t *pk, uint8_t *sk);")
    if ctx:
        out += [
            f"int {p}crypto_sign_signature_ctx({SIG}, {CTX}, const uint8_t *sk);",
            f"int {p}crypto_sign_verify_ctx({VER}, {CTX}, const uint8_t *pk);",
            f"int {p}crypto_sign_ctx({ATT}, {CTX}, const uint8_t *sk);",
            f"int {p}crypto_sign_open_ctx({OPN}, {CTX}, const uint8_t *pk);",
        ]
    if plain == "functions":
        att = ATT.replace("size_t", length)
        opn = OPN.replace("size_t", length)
        out += [
            f"int {p}crypto_sign_signature({SIG}, const uint8_t *sk);",
            f"int {p}crypto_sign_verify({VER}, const uint8_t *pk);",
            f"int {p}crypto_sign({att}, const uint8_t *sk);",
            f"int {p}crypto_sign_open({opn}, const uint8_t *pk);",
        ]
    elif plain == "macros":  # pqm4's and PQClean's ML-DSA api.h
        out += [
            (
                f"#define {p}crypto_sign_signature(sig, siglen, m, mlen, sk) "
                f"{p}crypto_sign_signature_ctx(sig, siglen, m, mlen, NULL, 0, sk)"
            ),
            (
                f"#define {p}crypto_sign_verify(sig, siglen, m, mlen, pk) "
                f"{p}crypto_sign_verify_ctx(sig, siglen, m, mlen, NULL, 0, pk)"
            ),
            f"#define {p}crypto_sign(sm, smlen, m, mlen, sk) {p}crypto_sign_ctx(sm, smlen, m, mlen, NULL, 0, sk)",
            (
                f"#define {p}crypto_sign_open(m, mlen, sm, smlen, pk) "
                f"{p}crypto_sign_open_ctx(m, mlen, sm, smlen, NULL, 0, pk)"
            ),
        ]
    out.append("#endif")
    return "\n".join(out) + "\n"


def sign_folder(root: Path, form: str, scheme: str | None = None, extra: str = "") -> Path:
    d = root / "crypto_sign" / (scheme or f"toysig-{form}") / ("clean" if FORMS[form][0] else "ref")
    d.mkdir(parents=True)
    (d / "api.h").write_text(sign_api(form, extra))
    shutil.copy(TOYSIG, d / "sign.c")
    return d


def test_every_signature_api_form_builds_and_passes(tmp_path):
    for form in FORMS:
        sign_folder(tmp_path, form)
    impls = {i.scheme.removeprefix("toysig-"): i for i in discover([tmp_path]) if i.scheme.startswith("toysig-")}
    assert set(impls) == set(FORMS)
    for form, impl in impls.items():
        assert impl.api_forms == EXPECTED_FORMS[form], form
    assert impls["pqclean"].style == "pqclean" and impls["mupq"].style == "mupq"
    code, out = pqlab(
        "test", *(f"toysig-{f}" for f in FORMS), "--impl-path", tmp_path, "-p", "host", "-j", "1", "--json"
    )
    assert code == 0, out
    rows = {r["scheme"]: r for r in json.loads(out)}
    assert all(r["ok"] for r in rows.values()), out
    # the context checks ran where there is a context API, and only there
    plat = get_platform("host")
    res = build(plat, list(impls.values()), ("test",), jobs=1)
    for form, impl in impls.items():
        names = {f[0] for f in run(plat, res[impl.id].elf["test"], "test").of("test")}
        has_ctx = bool(EXPECTED_FORMS[form])
        assert ("ctx-wrong-context" in names) == has_ctx, form
        assert ("ctx-verify-wrong-context" in names) == has_ctx, form
        assert ("ctx-too-long" in names) == has_ctx, form


@pytest.mark.parametrize("form", ["ctx-macros", "ctx-only"])
def test_context_that_is_ignored_fails(tmp_path, form):
    sign_folder(tmp_path, form, scheme="toysig-noctx", extra="#define TOY_IGNORES_CONTEXT 1")
    code, out = pqlab("test", "toysig-noctx", "--impl-path", tmp_path, "-p", "host", "-j", "1")
    assert code == 1, out
    assert "ctx-wrong-context fail" in out and "ctx-verify-wrong-context fail" in out


# --- the benchmark's self-check ---------------------------------------------------------------


def runs_in(db: Path) -> int:
    if not db.exists():
        return 0
    with sqlite3.connect(db) as c:
        return c.execute("SELECT count(*) FROM runs").fetchone()[0]


@pytest.mark.parametrize(
    ("kind", "make", "check"),
    [
        ("kem", lambda root: kem_folder(root, "wrongkem", ct=40, ss=32, skip_last=1), "wrong-ciphertext"),
        (
            "sign",
            lambda root: sign_folder(root, "ctx-macros", scheme="wrongsig", extra="#define TOY_IGNORES_LAST_BYTE 1"),
            "tampered-signed-message",
        ),
    ],
)
def test_bench_of_a_wrong_implementation_fails_and_stores_nothing(tmp_path, kind, make, check):
    folder = make(tmp_path / "impls")
    scheme = folder.parent.name
    db = tmp_path / "results.db"
    code, out = pqlab(
        "bench", scheme, "--impl-path", tmp_path / "impls", "-p", "host", "-j", "1", "-n", "2", "--db", db
    )
    assert code == 1, out
    for program in ("speed", "stack", "hashing"):
        assert f"{program} failed" in out, out
    assert out.count(f"failed checks: {check} fail") == 3, out
    assert runs_in(db) == 0


def test_bench_of_a_correct_implementation_stores(tmp_path):
    kem_folder(tmp_path / "impls", "rightkem", ct=40, ss=32)
    sign_folder(tmp_path / "impls", "ctx-macros", scheme="rightsig")
    db = tmp_path / "results.db"
    code, out = pqlab(
        "bench",
        "rightkem",
        "rightsig",
        "--impl-path",
        tmp_path / "impls",
        "-p",
        "host",
        "-j",
        "1",
        "-n",
        "2",
        "--db",
        db,
    )
    assert code == 0, out
    assert runs_in(db) == 6  # speed, stack, hashing of each


# --- pqm4 as it is ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def pqm4(tmp_path_factory) -> Path:
    tree = pqm4_tree(tmp_path_factory.mktemp("pqm4"))
    assert (tree / "crypto_kem" / "ml-kem-1024" / "m4fspeed" / "kem.c").is_symlink()
    return tree


def test_pqm4_linked_and_ctx_variants_pass_on_m4_sim(pqm4):
    code, out = pqlab(
        "test",
        "ml-kem-512",
        "ml-kem-1024",
        "ml-dsa-44",
        "-i",
        "m4fspeed",
        "-i",
        "m4f",
        "--impl-path",
        pqm4,
        "-p",
        "m4-sim",
        "-j",
        "1",
    )
    assert code == 0, out
    for iid in ("ml-kem-512/m4fspeed", "ml-kem-1024/m4fspeed", "ml-dsa-44/m4f"):
        assert f"ok   {iid} on m4-sim" in out, out


@pytest.mark.slow
def test_pqm4_more_variants_pass_on_m4_sim(pqm4):
    """The other linked layouts and context-API folders of pqm4 and PQClean."""
    code, out = pqlab(
        "test",
        "ml-kem-512",
        "ml-kem-768",
        "ml-kem-1024",
        "ml-dsa-65",
        "ml-dsa-87",
        "-i",
        "m4fstack",
        "-i",
        "m4f",
        "-i",
        "clean",
        "--impl-path",
        pqm4,
        "-p",
        "m4-sim",
        "-j",
        "1",
    )
    assert code == 0, out
    assert out.count("ok   ") == 3 * 2 + 2 * 3, out


@pytest.mark.slow
def test_pqm4_ml_kem_1024_bench_is_its_own(pqm4, tmp_path):
    """ML-KEM-1024 m4fspeed links ML-KEM-768's sources: its cycles must be its own (more)."""
    db = tmp_path / "results.db"
    code, out = pqlab(
        "bench",
        "ml-kem-768",
        "ml-kem-1024",
        "-i",
        "m4fspeed",
        "--impl-path",
        pqm4,
        "-p",
        "m4-sim",
        "-j",
        "1",
        "-n",
        "2",
        "--db",
        db,
    )
    assert code == 0, out
    with sqlite3.connect(db) as c:
        rows = c.execute(
            "SELECT r.scheme, m.operation, min(m.value) FROM measurements m JOIN runs r ON m.run_id = r.id "
            "WHERE m.metric = 'speed' GROUP BY r.scheme, m.operation"
        ).fetchall()
    cyc = {(s, op): v for s, op, v in rows}
    for op in ("keypair", "encaps", "decaps"):
        assert cyc[("ml-kem-1024", op)] > 1.3 * cyc[("ml-kem-768", op)], cyc


def test_pqm4_macro_on_cortex_m_only(tmp_path):
    """pqm4 defines PQM4 for its Cortex-M4 builds, and its folders choose their assembly with it."""
    kem_folder(tmp_path, "pqm4flag", ct=40, ss=32)
    impl = next(i for i in discover([tmp_path]) if i.scheme == "pqm4flag")
    for plat, expected in (("m4-sim", True), ("mps2-an386", True), ("host", False)):
        src_flags, h_flags = impl_flags(get_platform(plat), impl)
        assert ("-DPQM4" in src_flags, "-DPQM4" in h_flags) == (expected, expected), plat
    own = next(i for i in discover() if i.own and i.kind == "kem")
    assert "-DPQM4" not in impl_flags(get_platform("m4-sim"), own)[0]


# --- the corpus campaign's summary --------------------------------------------------------------


def test_campaign_summarises_each_outcome_with_its_cause(tmp_path):
    corpus = tmp_path / "corpus"
    kem_folder(corpus, "camp-good", ct=40, ss=32)
    kem_folder(corpus, "camp-wrong", ct=40, ss=32, skip_last=1)  # the last ciphertext byte is unread
    broken = kem_folder(corpus, "camp-broken", ct=40, ss=32)
    (broken / "broken.c").write_text("int this_does_not_compile( {\n")
    crash = kem_folder(corpus, "camp-crash", ct=40, ss=32)
    (crash / "kem.c").write_text(
        (crash / "kem.c").read_text().replace("derive(ss, ct, sk); return 0;", "*(volatile int *)0 = 1; return 0;")
    )
    arm = kem_folder(corpus, "camp-arm", ct=40, ss=32)
    (arm.parent / "META.yml").write_text(
        "name: camp-arm\nimplementations:\n    - name: ref\n      supported_platforms:\n"
        "        - architecture: arm_8\n          required_flags:\n              - asimd\n"
    )
    out_file = tmp_path / "summary.json"
    code, out = pqlab("campaign", "--impl-path", corpus, "-p", "host", "-j", "1", "--json", "--output", out_file)
    assert code == 1, out
    summary = json.loads(out_file.read_text())
    by = {r["scheme"]: r for r in summary["runs"]}
    assert set(by) == {"camp-good", "camp-wrong", "camp-broken", "camp-crash", "camp-arm"}  # only the corpus
    assert (by["camp-good"]["status"], by["camp-wrong"]["status"]) == ("ok", "test-failed")
    assert by["camp-wrong"]["cause"] == "wrong-ciphertext"
    assert by["camp-broken"]["status"] == "build-failed" and "broken.c" in by["camp-broken"]["cause"]
    assert by["camp-crash"]["status"] == "crashed"
    assert by["camp-arm"] == {**by["camp-arm"], "status": "not-for-platform", "cause": "META.yml: aarch64 only"}
    assert summary["counts"]["ok"] == 1 and sum(summary["counts"].values()) == 5
    code, out = pqlab("campaign", "camp-good", "camp-arm", "--impl-path", corpus, "-p", "host", "-j", "1")
    assert code == 0, out
    assert "| ok | 1 |" in out and "| not-for-platform | 1 |" in out
