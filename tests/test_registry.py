"""Registry: discovery under --impl-path, the three foreign styles, sizes, clear errors."""

from pathlib import Path

import pytest
from click.testing import CliRunner

from pqlab import PqlabError
from pqlab.cli import main
from pqlab.registry import discover, select


def make(root: Path, kind: str, scheme: str, impl: str, api: str, extra: dict | None = None) -> Path:
    d = root / kind / scheme / impl
    d.mkdir(parents=True)
    (d / "api.h").write_text(api)
    for name, text in (extra or {}).items():
        (d / name).write_text(text)
    return d


PLAIN = """#define CRYPTO_SECRETKEYBYTES (2*SKB)
#include "params.h"
#define CRYPTO_PUBLICKEYBYTES 800
#define CRYPTO_CIPHERTEXTBYTES 768u
#define CRYPTO_BYTES 32
int crypto_kem_keypair(unsigned char *pk, unsigned char *sk);
"""
PQCLEAN = """#define PQCLEAN_FOO_CLEAN_CRYPTO_SECRETKEYBYTES 1281
#define PQCLEAN_FOO_CLEAN_CRYPTO_PUBLICKEYBYTES 897
#define PQCLEAN_FOO_CLEAN_CRYPTO_BYTES 752
int PQCLEAN_FOO_CLEAN_crypto_sign_keypair(unsigned char *pk, unsigned char *sk);
"""
MUPQ = """#define CRYPTO_SECRETKEYBYTES 64
#define crypto_sign_keypair MUPQ_NAMESPACE(crypto_sign_keypair)
"""


@pytest.fixture
def root(tmp_path):
    make(
        tmp_path,
        "crypto_kem",
        "toy-kem",
        "m4",
        PLAIN,
        {"params.h": "#define SKB 816\n", "a.c": "", "b.S": "", "config.mk": "CFLAGS += -DFOO=1 -DBAR\n"},
    )
    make(tmp_path / "deep" / "x", "crypto_sign", "foo", "clean", PQCLEAN)
    make(tmp_path, "crypto_sign", "bar", "ref", MUPQ)
    (tmp_path / "crypto_kem" / "toy-kem" / "noapi").mkdir()
    return tmp_path


def test_discovery_styles_and_sizes(root):
    found = {i.id: i for i in discover([root])}
    kem = found["toy-kem/m4"]
    assert kem.kind == "kem" and kem.style == "plain"
    assert kem.sizes == {
        "CRYPTO_SECRETKEYBYTES": 1632,
        "CRYPTO_PUBLICKEYBYTES": 800,
        "CRYPTO_CIPHERTEXTBYTES": 768,
        "CRYPTO_BYTES": 32,
    }
    assert [p.name for p in kem.sources] == ["a.c", "b.S"]
    assert kem.cflags == ("-DFOO=1", "-DBAR")
    foo = found["foo/clean"]
    assert foo.style == "pqclean" and foo.api_prefix == "PQCLEAN_FOO_CLEAN_"
    assert foo.sizes["CRYPTO_BYTES"] == 752
    assert found["bar/ref"].style == "mupq"
    assert "toy-kem/noapi" not in found


def test_unknown_names_suggest_close_matches(root):
    impls = discover([root])
    with pytest.raises(PqlabError, match="unknown scheme 'toy-kam'; did you mean: toy-kem"):
        select(impls, ["toy-kam"], [])
    with pytest.raises(PqlabError, match="unknown implementation 'm3'.*did you mean: m4"):
        select(impls, ["toy-kem"], ["m3"])


def test_missing_impl_path(tmp_path):
    with pytest.raises(PqlabError, match="no such directory"):
        discover([tmp_path / "nope"])


def test_list_cli(root):
    res = CliRunner().invoke(main, ["list", "--impl-path", str(root)])
    assert res.exit_code == 0, res.output
    assert "toy-kem" in res.output and "foo" in res.output and "1632" in res.output
    res = CliRunner().invoke(main, ["list", "toy-kam", "--impl-path", str(root)])
    assert res.exit_code == 2 and "did you mean: toy-kem" in res.output


def test_unknown_platform():
    res = CliRunner().invoke(main, ["test", "-p", "mps2-an368"])
    assert res.exit_code == 2 and "unknown platform 'mps2-an368'" in res.output


def test_bare_define_does_not_swallow_next_line(tmp_path):
    make(tmp_path, "crypto_kem", "guarded", "ref", "#ifndef API_H\n#define API_H\n#define CRYPTO_SECRETKEYBYTES 64\n")
    (impl,) = [i for i in discover([tmp_path]) if i.scheme == "guarded"]
    assert impl.sizes == {"CRYPTO_SECRETKEYBYTES": 64}
