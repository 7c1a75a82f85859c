"""`pqlab ct`: the constant-time check finds a secret-dependent branch and passes pqlab's own code."""

from pathlib import Path

import pytest
from click.testing import CliRunner

from pqlab.cli import main

API = """#define CRYPTO_SECRETKEYBYTES 32
#define CRYPTO_PUBLICKEYBYTES 32
#define CRYPTO_CIPHERTEXTBYTES 32
#define CRYPTO_BYTES 32
#define CRYPTO_ALGNAME "toy"
int crypto_kem_keypair(unsigned char *pk, unsigned char *sk);
int crypto_kem_enc(unsigned char *ct, unsigned char *ss, const unsigned char *pk);
int crypto_kem_dec(unsigned char *ss, const unsigned char *ct, const unsigned char *sk);
"""
# An insecure toy KEM (pk = sk, ct = m xor pk, ss = m): correct, and leaky when LEAK is set.
KEM = """#include <stdint.h>
#include <string.h>
#include "api.h"
#include "randombytes.h"
int crypto_kem_keypair(unsigned char *pk, unsigned char *sk) {
    randombytes(sk, 32); memcpy(pk, sk, 32); return 0; }
int crypto_kem_enc(unsigned char *ct, unsigned char *ss, const unsigned char *pk) {
    randombytes(ss, 32); for (int i = 0; i < 32; i++) ct[i] = ss[i] ^ pk[i]; return 0; }
int crypto_kem_dec(unsigned char *ss, const unsigned char *ct, const unsigned char *sk) {
    for (int i = 0; i < 32; i++) ss[i] = ct[i] ^ sk[i];
#ifdef LEAK
    if (sk[0] == 0x42) ss[0] ^= 1;   /* branch on a secret byte */
#endif
    return 0; }
"""


def toy(root: Path, name: str, leak: bool) -> None:
    d = root / "crypto_kem" / name / "ref"
    d.mkdir(parents=True)
    (d / "api.h").write_text(API)
    (d / "kem.c").write_text(("#define LEAK\n" if leak else "") + KEM)


def test_leak_is_found_and_clean_code_passes(tmp_path):
    toy(tmp_path, "toy-leaky", True)
    toy(tmp_path, "toy-clean", False)
    # the toy's pk = sk is not secret-safe either: keep only dec's branch as the finding
    res = CliRunner().invoke(main, ["ct", "toy-leaky", "toy-clean", "--impl-path", str(tmp_path)])
    assert res.exit_code == 1, res.output
    assert "FAIL toy-leaky/ref on host-ct" in res.output
    assert "Conditional jump or move depends on uninitialised value" in res.output
    assert "ok   toy-clean/ref on host-ct" in res.output


@pytest.mark.parametrize("scheme", ["ml-kem-512", "ml-kem-768", "ml-kem-1024", "ml-dsa-44", "ml-dsa-65", "ml-dsa-87"])
def test_own_implementations_are_constant_time(scheme):
    res = CliRunner().invoke(main, ["ct", scheme, "-i", "ref"])
    assert res.exit_code == 0, res.output
