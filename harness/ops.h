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
 * PQLAB_KEYGEN_ITERATIONS() (key-generation attempts) after every keypair.
 *
 * The functional self-check: no program publishes numbers for an implementation
 * that computes wrong results. ops_result() checks an operation's return code
 * (test name: the operation's) and the canaries around every buffer
 * ("canary-<buffer>"); ops_check() checks each full sequence ("roundtrip",
 * "sign-length", "sign_tree-verify"); ops_selfcheck(), run once after the
 * measurements, checks that every ciphertext or signed-message byte counts: the
 * first and the last byte inverted must be rejected ("wrong-ciphertext",
 * "tampered-signed-message"), which a build with another parameter set's
 * shorter outputs fails. Results are "test <name> ok|fail" records
 * (pqlab_test_report); any failure ends the run with "#end fail", and the host
 * stores nothing of a failed run. */
#ifndef PQLAB_OPS_H
#define PQLAB_OPS_H

#include <stddef.h>
#include <stdint.h>

#include "../lib/common/randombytes.h"
#include "api_glue.h"
#include "harness.h"

/* checks the return code of operation op and every buffer's canaries */
static inline void ops_result(int op, int r);

#ifdef PQLAB_KIND_KEM

enum { OP_KEYPAIR, OP_ENCAPS, OP_DECAPS, OP_COUNT };
static const char *const op_names[OP_COUNT] = {"keypair", "encaps", "decaps"};

PQLAB_GUARDED(pk, CRYPTO_PUBLICKEYBYTES);
PQLAB_GUARDED(sk, CRYPTO_SECRETKEYBYTES);
PQLAB_GUARDED(ct, CRYPTO_CIPHERTEXTBYTES);
PQLAB_GUARDED(ss_a, CRYPTO_BYTES);
PQLAB_GUARDED(ss_b, CRYPTO_BYTES);

static inline void ops_init(void)
{
    pqlab_guard_register("pk", pk, CRYPTO_PUBLICKEYBYTES);
    pqlab_guard_register("sk", sk, CRYPTO_SECRETKEYBYTES);
    pqlab_guard_register("ct", ct, CRYPTO_CIPHERTEXTBYTES);
    pqlab_guard_register("ss", ss_a, CRYPTO_BYTES);
    pqlab_guard_register("ss-dec", ss_b, CRYPTO_BYTES);
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
static inline void ops_check(void)
{
    pqlab_test_result("roundtrip", pqlab_bytes_equal(ss_a, ss_b, CRYPTO_BYTES));
}

/* after the last full sequence: the first and the last ciphertext byte, inverted, must change
 * the shared secret (implicit rejection) or fail decapsulation */
static inline void ops_selfcheck(void)
{
    const size_t where[2] = {0, CRYPTO_CIPHERTEXTBYTES - 1};
    for (size_t i = 0; i < 2; i++) {
        ct[where[i]] ^= 0xff;
        int r = crypto_kem_dec(ss_b, ct, sk);
        ct[where[i]] ^= 0xff;
        pqlab_guard_check_all();
        pqlab_test_result("wrong-ciphertext", r != 0 || !pqlab_bytes_equal(ss_a, ss_b, CRYPTO_BYTES));
    }
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
PQLAB_GUARDED(esk, CRYPTO_EXPANDEDKEYBYTES);
PQLAB_GUARDED(sig, CRYPTO_BYTES);
static size_t siglen;
static int tree_verify_rc;
#else
enum { OP_KEYPAIR, OP_SIGN, OP_VERIFY, OP_COUNT };
static const char *const op_names[OP_COUNT] = {"keypair", "sign", "verify"};
#endif

PQLAB_GUARDED(pk, CRYPTO_PUBLICKEYBYTES);
PQLAB_GUARDED(sk, CRYPTO_SECRETKEYBYTES);
PQLAB_GUARDED(m, PQLAB_MLEN);
PQLAB_GUARDED(m2, PQLAB_MLEN + CRYPTO_BYTES);
PQLAB_GUARDED(sm, PQLAB_MLEN + CRYPTO_BYTES);
static size_t smlen, m2len;
static int verify_rc;

static inline void ops_init(void)
{
    pqlab_guard_register("pk", pk, CRYPTO_PUBLICKEYBYTES);
    pqlab_guard_register("sk", sk, CRYPTO_SECRETKEYBYTES);
    pqlab_guard_register("m", m, PQLAB_MLEN);
    pqlab_guard_register("m-open", m2, PQLAB_MLEN + CRYPTO_BYTES);
    pqlab_guard_register("sm", sm, PQLAB_MLEN + CRYPTO_BYTES);
#ifdef CRYPTO_EXPANDEDKEYBYTES
    pqlab_guard_register("esk", esk, CRYPTO_EXPANDEDKEYBYTES);
    pqlab_guard_register("sig", sig, CRYPTO_BYTES);
#endif
    pqlab_randombytes(m, PQLAB_MLEN);
}

static inline int op_run(int op)
{
    switch (op) {
    case OP_KEYPAIR:
        return crypto_sign_keypair(pk, sk);
    case OP_SIGN:
        return pqlab_api_sign(sm, &smlen, m, PQLAB_MLEN, sk);
    case OP_VERIFY:
        verify_rc = pqlab_api_open(m2, &m2len, sm, smlen, pk);
        return verify_rc;
#ifdef CRYPTO_EXPANDEDKEYBYTES
    case OP_EXPAND:
        return crypto_sign_expand(esk, sk);
    default: {
        int r = crypto_sign_signature_tree(sig, &siglen, m, PQLAB_MLEN, esk);
        tree_verify_rc = r == 0 ? crypto_sign_verify(sig, siglen, m, PQLAB_MLEN, pk) : r;
        return r;
    }
#else
    default:
        return -1;
#endif
    }
}

static inline int sm_in_bounds(void)
{
    return smlen >= PQLAB_MLEN && smlen <= PQLAB_MLEN + CRYPTO_BYTES;
}

static inline void ops_check(void)
{
    pqlab_test_result("sign-length", sm_in_bounds());
    pqlab_test_result("roundtrip", verify_rc == 0 && m2len == PQLAB_MLEN && pqlab_bytes_equal(m, m2, PQLAB_MLEN));
#ifdef CRYPTO_EXPANDEDKEYBYTES
    pqlab_test_result("sign_tree-verify", tree_verify_rc == 0);
#endif
}

/* after the last full sequence: the first and the last byte of the signed message, inverted,
 * must make opening fail (whether the byte belongs to the signature or to the message) */
static inline void ops_selfcheck(void)
{
    if (!sm_in_bounds()) {
        return; /* "sign-length" failed already */
    }
    const size_t where[2] = {0, smlen - 1};
    for (size_t i = 0; i < 2; i++) {
        size_t len = 0;
        sm[where[i]] ^= 0xff;
        int r = pqlab_api_open(m2, &len, sm, smlen, pk);
        sm[where[i]] ^= 0xff;
        pqlab_guard_check_all();
        pqlab_test_result("tampered-signed-message", r != 0);
    }
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

static inline void ops_result(int op, int r)
{
    pqlab_test_result(op_names[op], r == 0);
    pqlab_guard_check_all();
}

/* Operation selection (`pqlab bench --ops`, docs/interfaces.md section 3): bit i of PQLAB_OPS_MASK
 * selects op_names[i] for measurement; default all. An operation not selected runs once, in
 * the first iteration and unmeasured, when a selected one comes after it (it produces that
 * one's input: keys, ciphertext, signature, expanded key), and not at all otherwise. The
 * checks of ops_check() and ops_selfcheck() need the whole sequence, so they run only once
 * every operation has run at least once (ops_all_ran); without it only the return codes and
 * canaries of the operations that ran are checked. */
#ifndef PQLAB_OPS_MASK
#define PQLAB_OPS_MASK 0xFFFFFFFFu
#endif

static inline int op_selected(int op)
{
    return (int)(((unsigned long)(PQLAB_OPS_MASK) >> op) & 1u);
}

/* whether operation op runs in iteration it */
static inline int op_needed(int op, int it)
{
    if (op_selected(op)) {
        return 1;
    }
    if (it > 0) {
        return 0;
    }
    for (int k = op + 1; k < OP_COUNT; k++) {
        if (op_selected(k)) {
            return 1;
        }
    }
    return 0;
}

/* whether every operation runs in the first iteration (then the sequence checks apply) */
static inline int ops_all_ran(void)
{
    for (int op = 0; op < OP_COUNT; op++) {
        if (!op_needed(op, 0)) {
            return 0;
        }
    }
    return 1;
}

/* Prepared inputs (`pqlab bench --ops` on a platform with `prepare_on`, docs/interfaces.md section 3):
 * the prerequisite operations (not selected, needed by a selected one) run once, by the same
 * deterministic code and randomness stream, in the program prepare.c on a fast platform of the
 * same instruction set, which prints the state they leave (ops_state_export); a measuring
 * program built with PQLAB_OPS_INPUT reads that state from its input (pqlab_hal_read) in place
 * of running them. The state is every buffer the operations write, after a header that names
 * this build's sizes and operation mask: input of another build is refused
 * ("test prepared-input fail"). The sequence checks (round trip, tampered message or
 * ciphertext) then run on the prepared state as on a computed one. */
static inline uint32_t ops_state_parts(const uint8_t **part, size_t *len)
{
    uint32_t n = 0;
#define OPS_PART(buf, size) (part[n] = (const uint8_t *)(buf), len[n] = (size), n++)
    OPS_PART(pk, CRYPTO_PUBLICKEYBYTES);
    OPS_PART(sk, CRYPTO_SECRETKEYBYTES);
#ifdef PQLAB_KIND_KEM
    OPS_PART(ct, CRYPTO_CIPHERTEXTBYTES);
    OPS_PART(ss_a, CRYPTO_BYTES);
#else
    OPS_PART(m, PQLAB_MLEN);
    OPS_PART(sm, PQLAB_MLEN + CRYPTO_BYTES);
    OPS_PART(&smlen, sizeof smlen);
#ifdef CRYPTO_EXPANDEDKEYBYTES
    OPS_PART(esk, CRYPTO_EXPANDEDKEYBYTES);
    OPS_PART(sig, CRYPTO_BYTES);
    OPS_PART(&siglen, sizeof siglen);
#endif
#endif
#undef OPS_PART
    return n;
}

#define OPS_STATE_MAX_PARTS 8

/* header: "PQOS", the operation mask, the number of parts and each part's length (LE words) */
static inline size_t ops_state_header(uint8_t *h)
{
    const uint8_t *part[OPS_STATE_MAX_PARTS];
    size_t len[OPS_STATE_MAX_PARTS];
    uint32_t n = ops_state_parts(part, len);
    uint32_t w[2 + OPS_STATE_MAX_PARTS];
    w[0] = (uint32_t)(PQLAB_OPS_MASK);
    w[1] = n;
    for (uint32_t i = 0; i < n; i++) {
        w[2 + i] = (uint32_t)len[i];
    }
    h[0] = 'P', h[1] = 'Q', h[2] = 'O', h[3] = 'S';
    for (uint32_t i = 0; i < 2 + n; i++) {
        for (int b = 0; b < 4; b++) {
            h[4 + 4 * i + (uint32_t)b] = (uint8_t)(w[i] >> (8 * b));
        }
    }
    return 4 + 4 * (2 + (size_t)n);
}

/* "prepared <hex>" records, at most 128 bytes each, that concatenated give the state */
static inline void ops_state_export(void)
{
    uint8_t h[4 + 4 * (2 + OPS_STATE_MAX_PARTS)];
    const uint8_t *part[OPS_STATE_MAX_PARTS + 1];
    size_t len[OPS_STATE_MAX_PARTS + 1];
    part[0] = h;
    len[0] = ops_state_header(h);
    uint32_t n = 1 + ops_state_parts(part + 1, len + 1);
    for (uint32_t i = 0; i < n; i++) {
        for (size_t off = 0; off < len[i]; off += 128) {
            pqlab_rec_begin("prepared");
            pqlab_rec_hex(part[i] + off, len[i] - off < 128 ? len[i] - off : 128);
            pqlab_rec_end();
        }
    }
}

/* reads exactly n bytes of input into p; 0 on success */
static inline int ops_read_exact(uint8_t *p, size_t n)
{
    while (n > 0) {
        long r = pqlab_hal_read(p, n);
        if (r <= 0) {
            return -1;
        }
        p += r;
        n -= (size_t)r;
    }
    return 0;
}

/* reads the prepared state; "test prepared-input ok|fail" (a failure ends the run) */
static inline void ops_state_import(void)
{
    uint8_t h[4 + 4 * (2 + OPS_STATE_MAX_PARTS)], got[sizeof h];
    size_t hlen = ops_state_header(h);
    int ok = ops_read_exact(got, hlen) == 0 && pqlab_bytes_equal(h, got, hlen);
    if (ok) {
        const uint8_t *part[OPS_STATE_MAX_PARTS];
        size_t len[OPS_STATE_MAX_PARTS];
        uint32_t n = ops_state_parts(part, len);
        for (uint32_t i = 0; i < n && ok; i++) {
            ok = ops_read_exact((uint8_t *)(uintptr_t)part[i], len[i]) == 0;
        }
        uint8_t extra;
        ok = ok && pqlab_hal_read(&extra, 1) == 0; /* nothing after the state */
    }
    pqlab_test_result("prepared-input", ok);
    pqlab_guard_check_all();
    if (!ok) {
        pqlab_harness_end(pqlab_test_report());
    }
}

/* a prerequisite operation op (op_needed, not op_selected): run it, or with PQLAB_OPS_INPUT
 * read the state all prerequisites leave, once, at the first of them */
static inline void ops_prerequisite(int op)
{
#ifdef PQLAB_OPS_INPUT
    static int imported;
    (void)op;
    if (!imported) {
        imported = 1;
        ops_state_import();
    }
#else
    ops_result(op, op_run(op));
#endif
}

#endif
