# SPDX-License-Identifier: MIT
"""`pqlab list` of a dropped-in folder whose api.h gives a size as an expression pqlab does not
evaluate (pqm4's BIKE gives them as sizeof of its types): the size shows as '?', the listing
does not fail."""

from __future__ import annotations

from pathlib import Path

from cli_runner import pqlab


def test_list_shows_unknown_size_as_question_mark(tmp_path: Path) -> None:
    d = tmp_path / "crypto_kem" / "toykem-sizes" / "ref"
    d.mkdir(parents=True)
    (d / "api.h").write_text(
        "#define CRYPTO_SECRETKEYBYTES 32\n"
        "#define CRYPTO_PUBLICKEYBYTES sizeof(pk_t)\n"
        "#define CRYPTO_CIPHERTEXTBYTES sizeof(pk_t)\n"
        "#define CRYPTO_BYTES sizeof(ss_t)\n"
        '#define CRYPTO_ALGNAME "toykem-sizes"\n'
        "int crypto_kem_keypair(unsigned char *pk, unsigned char *sk);\n"
    )
    # pk_t, ss_t are the implementation's own types, declared where its sources see it, not in api.h
    (d / "types.h").write_text(
        "typedef struct { unsigned char raw[1541]; } pk_t;\ntypedef struct { unsigned char raw[32]; } ss_t;\n"
    )
    (d / "kem.c").write_text(
        '#include "types.h"\n#include "api.h"\nint crypto_kem_keypair(unsigned char *pk, unsigned char *sk) { return 0; }\n'
    )
    code, out = pqlab("list", "toykem-sizes", "--impl-path", tmp_path)
    assert code == 0, out
    row = [line for line in out.splitlines() if line.startswith("toykem-sizes")]
    assert len(row) == 1 and row[0].split()[3:7] == ["?", "32", "?", "?"], out  # pk sk ct ss
