/* SPDX-License-Identifier: MIT */
/* Hawk parameter sets (Hawk specification v1.0, the round-1 submission of 2023-06-01,
 * table of parameters; the same values as the mupq/pqm4 hawk512 and hawk1024 folders).
 * One source for both degrees: the build passes -DPQLAB_HAWK_LOGN=9 or 10.
 * Float bounds of the specification (2 n sigma_krsec^2, 8 n sigma_verify^2) are kept as
 * the largest integer not above them, since the values they bound are integers. */
#ifndef PQLAB_HAWK_PARAMS_H
#define PQLAB_HAWK_PARAMS_H

#ifndef PQLAB_HAWK_LOGN
#define PQLAB_HAWK_LOGN 9
#endif

#define HAWK_LOGN PQLAB_HAWK_LOGN
#define HAWK_N (1u << HAWK_LOGN)

#if HAWK_LOGN == 9
#define HAWK_ALGNAME "Hawk-512"
#define HAWK_SKBYTES 184
#define HAWK_PKBYTES 1024
#define HAWK_SIGBYTES 555
#define HAWK_SALTLEN 24   /* 192 bits */
#define HAWK_KGSEEDLEN 24 /* 192 bits */
#define HAWK_HPUBLEN 32   /* 256 bits */
#define HAWK_LOW00 5
#define HAWK_HIGH00 9
#define HAWK_LOW01 9
#define HAWK_HIGH01 12
#define HAWK_HIGH11 15
#define HAWK_LOWS1 5
#define HAWK_HIGHS1 9
/* sigma_krsec = 1.425: 2 n sigma^2 = 2079.36 */
#define HAWK_KRSEC_BOUND 2079u
/* sigma_verify = 1.425: 8 n sigma^2 = 8317.44 */
#define HAWK_VERIFY_BOUND 8317u
/* beta_0 = 1/1000: restart when (1/q00)[0] >= 1/1000 */
#define HAWK_BETA0_INV 1000
#elif HAWK_LOGN == 10
#define HAWK_ALGNAME "Hawk-1024"
#define HAWK_SKBYTES 360
#define HAWK_PKBYTES 2440
#define HAWK_SIGBYTES 1221
#define HAWK_SALTLEN 40   /* 320 bits */
#define HAWK_KGSEEDLEN 40 /* 320 bits */
#define HAWK_HPUBLEN 64   /* 512 bits */
#define HAWK_LOW00 6
#define HAWK_HIGH00 10
#define HAWK_LOW01 10
#define HAWK_HIGH01 14
#define HAWK_HIGH11 17
#define HAWK_LOWS1 6
#define HAWK_HIGHS1 10
/* sigma_krsec = 1.974: 2 n sigma^2 = 7980.39 */
#define HAWK_KRSEC_BOUND 7980u
/* sigma_verify = 1.571: 8 n sigma^2 = 20218.19 */
#define HAWK_VERIFY_BOUND 20218u
#define HAWK_BETA0_INV 3000
#else
#error "PQLAB_HAWK_LOGN must be 9 or 10"
#endif

#define HAWK_HMLEN 64        /* M = SHAKE256(m || hpub), 512 bits */
#define HAWK_SIGN_SEEDRND 40 /* Rnd(320) of the sampler seed */

/* Signing attempts before giving up (each fails with small probability for a valid key;
 * a malformed private key that never gives an encodable signature stops here). */
#define HAWK_SIGN_MAX_ATTEMPTS 64u
/* Key generation candidates before crypto_sign_keypair gives up (about 1 in 4
 * candidates is accepted, so 1000 all failing is far below 2^-128). */
#define HAWK_KEYGEN_MAX_ATTEMPTS 1000u

#endif
