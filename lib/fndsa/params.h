/* SPDX-License-Identifier: MIT */
/* FN-DSA / Falcon parameter sets (round-3 specification v1.2, table 3.3).
 * One source for both degrees: the build passes -DPQLAB_FNDSA_LOGN=9 or 10. */
#ifndef PQLAB_FNDSA_PARAMS_H
#define PQLAB_FNDSA_PARAMS_H

#ifndef PQLAB_FNDSA_LOGN
#define PQLAB_FNDSA_LOGN 9
#endif

#define FNDSA_LOGN PQLAB_FNDSA_LOGN
#define FNDSA_N (1u << FNDSA_LOGN)
#define FNDSA_Q 12289u
#define FNDSA_NONCELEN 40
#define FNDSA_SEEDLEN 48

#if FNDSA_LOGN == 9
#define FNDSA_FG_BITS 6  /* bits per f, g coefficient in the private key */
#define FNDSA_FFG_BITS 8 /* bits per F coefficient */
#define FNDSA_PKBYTES 897
#define FNDSA_SKBYTES 1281
#define FNDSA_SIGPAD 666      /* padded signature: header + nonce + 625 bytes */
#define FNDSA_BETA2 34034726u /* floor(beta^2), spec table 3.3 */
#define FNDSA_ALGNAME_PLAIN "Falcon-512"
#elif FNDSA_LOGN == 10
#define FNDSA_FG_BITS 5
#define FNDSA_FFG_BITS 8
#define FNDSA_PKBYTES 1793
#define FNDSA_SKBYTES 2305
#define FNDSA_SIGPAD 1280
#define FNDSA_BETA2 70265242u
#define FNDSA_ALGNAME_PLAIN "Falcon-1024"
#else
#error "PQLAB_FNDSA_LOGN must be 9 or 10"
#endif

/* NIST API (round-3 package): sm = siglen(2) || nonce(40) || m || 0x20+logn || comp(s2) */
#if FNDSA_LOGN == 9
#define FNDSA_CRYPTO_BYTES 690
#else
#define FNDSA_CRYPTO_BYTES 1330
#endif
/* the compressed s2 has to fit what the NIST format leaves: CRYPTO_BYTES - 2 - 40 - 1 */
#define FNDSA_COMP_MAX_NIST (FNDSA_CRYPTO_BYTES - 2 - FNDSA_NONCELEN - 1)
/* and what the padded format leaves */
#define FNDSA_COMP_MAX_PAD (FNDSA_SIGPAD - 1 - FNDSA_NONCELEN)

/* Signing attempts (PRNG seedings, spec alg. 10's restarts plus the padded format's
 * redraws) before signing gives up with an error. For a valid key an attempt fails
 * with probability below 1/2 (docs/fndsa.md, "Malformed private keys": about 2^-13
 * (Falcon-512) and 2^-27 (Falcon-1024) for the norm bound, far less in practice), so
 * 128 attempts all fail with probability below 2^-128; a malformed key that decodes
 * but never gives a short signature costs at most 128 attempts. */
#define FNDSA_SIGN_MAX_ATTEMPTS 128u

/* Expanded private key: B in FFT form (4 polynomials) and the LDL tree
 * ((logn + 1) * n values), each value an 8-byte fpr. */
#define FNDSA_TREE_SIZE(logn) (((size_t)(logn) + 1) << (logn))
#define FNDSA_EXPANDEDKEYBYTES ((4 * (size_t)FNDSA_N + FNDSA_TREE_SIZE(FNDSA_LOGN)) * 8)

/* Signing and expansion work areas, in fprs (lib/fndsa/sign.c): dynamic signing
 * 9n (target 2n, Gram matrix 3n, ffSampling 4n; B only before the sampling, over slots
 * the sampling uses later, and s formed modulo q at the end); tree signing 6n (target 2n,
 * ffSampling 4n); expansion 8n (B 4n, Gram 3n, FFT n). Dynamic signing takes the decoded
 * key (f, g, F, G: 4n bytes) in slot FNDSA_SIGN_DYN_KEY_SLOT (n fprs from that times n).
 * Signing writes s2 (n int16) in a slot of n fprs of its work area that the last step
 * leaves free: FNDSA_SIGN_DYN_S2_SLOT / FNDSA_SIGN_TREE_S2_SLOT. */
#define FNDSA_SIGN_DYN_FPRS(logn) ((size_t)9 << (logn))
#define FNDSA_SIGN_DYN_KEY_SLOT 8
#define FNDSA_SIGN_DYN_S2_SLOT 4
#define FNDSA_SIGN_TREE_S2_SLOT 4
#define FNDSA_SIGN_TREE_FPRS(logn) ((size_t)6 << (logn))
#define FNDSA_EXPAND_FPRS(logn) ((size_t)8 << (logn))

/* Key generation workspace (NTRU solver, big integers): words of 32 bits. Every size in
 * the solver is public and fixed per depth, so its need is a function of logn alone: the
 * highest point of its workspace (ntru_internal.h, ws_alloc), measured by
 * tests/test_fndsa.py::test_ntru_workspace_exact, which fails when this is not exactly the
 * need (a debug build, PQLAB_CONTRACT_CHECKS, stops if the solver would run out).
 * Falcon-512: 3,244 words (6.3 n), Falcon-1024: 6,444 (6.3 n), both in the reference
 * schedule of depth 2 (ref_schedule; docs/fndsa.md, "Key generation in less RAM").
 * Below these sizes the optional caches of the Babai steps (f, g in NTT form, root
 * tables) are left out where they do not fit. Hawk's schedule needs more: lib/hawk
 * passes its own size. */
#if defined(PQLAB_FNDSA_NTRU_TEST)
/* test builds (lib/fndsa/test/ntru_test.c) also run the floating-point Babai steps beside
 * the fixed-point ones (ntru.c, ref_schedule), with a babai_t of their own: the solver's
 * earlier, larger workspace leaves room for it (with the exact size every candidate would
 * fail for lack of room and key generation would never end) */
#if FNDSA_LOGN == 9
#define FNDSA_NTRU_WORDS ((size_t)12840)
#else
#define FNDSA_NTRU_WORDS ((size_t)26664)
#endif
#elif FNDSA_LOGN == 9
#define FNDSA_NTRU_WORDS ((size_t)3244)
#else
#define FNDSA_NTRU_WORDS ((size_t)6444)
#endif
#define FNDSA_KEYGEN_TMP (4 * FNDSA_NTRU_WORDS)

#endif
