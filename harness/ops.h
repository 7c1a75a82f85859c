/* SPDX-License-Identifier: MIT */
/* The operations that speed, stack and hashing measure, on static buffers (so
 * that the buffers do not count as an operation's stack). Included by exactly
 * one program per binary.
 * KEM: keypair, encaps, decaps. Signatures: keypair, sign (crypto_sign of a
 * PQLAB_MLEN-byte message, 59 by default as in pqm4), verify (crypto_sign_open),
 * and when api.h defines CRYPTO_EXPANDEDKEYBYTES: expand
 * (int crypto_sign_expand(uint8_t *esk, const uint8_t *sk)) and sign_tree
 * (int crypto_sign_signature_tree(uint8_t *sig, size_t *siglen, const uint8_t *m,
 * size_t mlen, const uint8_t *esk)), whose detached signature is checked with
 * crypto_sign_verify. When api.h defines the function-like macro
 * PQLAB_SIGN_ITERATIONS() (signing attempts of the last signature), the
 * programs print "iterations <op> <n>" after every sign / sign_tree; likewise
 * PQLAB_KEYGEN_ITERATIONS() (key-generation attempts) after every keypair. */
#ifndef PQLAB_OPS_H
#define PQLAB_OPS_H

#include <stddef.h>
#include <stdint.h>

#include "../lib/common/randombytes.h"
#include "api_glue.h"
#include "harness.h"

#ifdef PQLAB_KIND_KEM

enum { OP_KEYPAIR, OP_ENCAPS, OP_DECAPS, OP_COUNT };
static const char *const op_names[OP_COUNT] = {"keypair", "encaps", "decaps"};

static uint8_t pk[CRYPTO_PUBLICKEYBYTES], sk[CRYPTO_SECRETKEYBYTES], ct[CRYPTO_CIPHERTEXTBYTES];
static uint8_t ss_a[CRYPTO_BYTES], ss_b[CRYPTO_BYTES];

static inline void ops_init(void)
{
}

/* Runs operation op (they are meant to run in order); returns 0 on success. */
static inline int op_run(int op)
{
    switch (op) {
    case OP_KEYPAIR:
        return crypto_kem_keypair(pk, sk);
    case OP_ENCAPS:
        return crypto_kem_enc(ct, ss_a, pk);
    default:
        return crypto_kem_dec(ss_b, ct, sk);
    }
}

/* checks the results of one full sequence */
static inline int ops_check(void)
{
    return pqlab_bytes_equal(ss_a, ss_b, CRYPTO_BYTES);
}

static inline int op_sign_iterations(int op, unsigned long *n)
{
    (void)op;
    (void)n;
    return 0;
}

#else

#ifndef PQLAB_MLEN
#define PQLAB_MLEN 59
#endif

#ifdef CRYPTO_EXPANDEDKEYBYTES
enum { OP_KEYPAIR, OP_SIGN, OP_VERIFY, OP_EXPAND, OP_SIGN_TREE, OP_COUNT };
static const char *const op_names[OP_COUNT] = {"keypair", "sign", "verify", "expand", "sign_tree"};
static uint8_t esk[CRYPTO_EXPANDEDKEYBYTES];
static uint8_t sig[CRYPTO_BYTES];
static size_t siglen;
#else
enum { OP_KEYPAIR, OP_SIGN, OP_VERIFY, OP_COUNT };
static const char *const op_names[OP_COUNT] = {"keypair", "sign", "verify"};
#endif

static uint8_t pk[CRYPTO_PUBLICKEYBYTES], sk[CRYPTO_SECRETKEYBYTES];
static uint8_t m[PQLAB_MLEN], m2[PQLAB_MLEN + CRYPTO_BYTES], sm[PQLAB_MLEN + CRYPTO_BYTES];
static size_t smlen, m2len;
static int verify_rc, tree_verify_rc;

static inline void ops_init(void)
{
    pqlab_randombytes(m, sizeof m);
}

static inline int op_run(int op)
{
    switch (op) {
    case OP_KEYPAIR:
        return crypto_sign_keypair(pk, sk);
    case OP_SIGN:
        return pqlab_api_sign(sm, &smlen, m, sizeof m, sk);
    case OP_VERIFY:
        verify_rc = pqlab_api_open(m2, &m2len, sm, smlen, pk);
        return verify_rc;
#ifdef CRYPTO_EXPANDEDKEYBYTES
    case OP_EXPAND:
        return crypto_sign_expand(esk, sk);
    default: {
        int r = crypto_sign_signature_tree(sig, &siglen, m, sizeof m, esk);
        tree_verify_rc = r == 0 ? crypto_sign_verify(sig, siglen, m, sizeof m, pk) : r;
        return r;
    }
#else
    default:
        return -1;
#endif
    }
}

static inline int ops_check(void)
{
    return verify_rc == 0 && tree_verify_rc == 0 && smlen <= sizeof sm && m2len == sizeof m &&
           pqlab_bytes_equal(m, m2, sizeof m);
}

/* 1 and the attempt count in *n after a signing operation (PQLAB_SIGN_ITERATIONS())
 * or a key generation (PQLAB_KEYGEN_ITERATIONS(), e.g. Falcon's NTRU restarts), when
 * the implementation reports it */
static inline int op_sign_iterations(int op, unsigned long *n)
{
#ifdef PQLAB_KEYGEN_ITERATIONS
    if (op == OP_KEYPAIR) {
        *n = (unsigned long)(PQLAB_KEYGEN_ITERATIONS());
        return 1;
    }
#endif
#ifdef PQLAB_SIGN_ITERATIONS
#ifdef CRYPTO_EXPANDEDKEYBYTES
    if (op == OP_SIGN || op == OP_SIGN_TREE) {
#else
    if (op == OP_SIGN) {
#endif
        *n = (unsigned long)(PQLAB_SIGN_ITERATIONS());
        return 1;
    }
#endif
    (void)op;
    (void)n;
    return 0;
}

#endif

#endif
