/* SPDX-License-Identifier: MIT */
/* An INSECURE toy KEM, the smallest reproduction of memcheck's view of a shift by a secret
 * count (tests/test_ct.py, docs/ct.md): pk = sk ^ 0x5a..., ct = m ^ pk, and the shared
 * secret is the four 64-bit lanes of m shifted left by k = pk[0] mod 32. Encapsulation
 * takes k from the public key, decapsulation from the secret key (the same value, secret
 * there), so decapsulation shifts by a secret count: constant time on x86-64, Cortex-M and
 * RV32 cores with a barrel shifter. Built auto-vectorised, the loop becomes SSE psllq with
 * the count in an xmm register, which memcheck reports; built scalar, it does not. TOY_LEAK
 * adds a real leak at the same place: a table load indexed by k and a branch on k. */
#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "randombytes.h"

#define N 32
#define LANES (N / 8)

static void pk_of(unsigned char *pk, const unsigned char *sk)
{
    for (size_t i = 0; i < N; i++) {
        pk[i] = sk[i] ^ 0x5a;
    }
}

static void shift_lanes(unsigned char *ss, const unsigned char *m, unsigned k)
{
    uint64_t w[LANES], o[LANES];
    for (size_t j = 0; j < LANES; j++) {
        w[j] = 0;
        for (size_t b = 0; b < 8; b++) {
            w[j] |= (uint64_t)m[8 * j + b] << (8 * b);
        }
    }
    for (size_t j = 0; j < LANES; j++) {
        o[j] = w[j] << k;
#ifdef TOY_LEAK
        {
            static volatile uint64_t table[32];
            static volatile unsigned sink;
            o[j] ^= table[k]; /* all zero: a secret-indexed load that changes nothing */
            if (k & 1) {      /* a secret-dependent branch */
                sink++;
            }
        }
#endif
    }
    for (size_t j = 0; j < LANES; j++) {
        for (size_t b = 0; b < 8; b++) {
            ss[8 * j + b] = (unsigned char)(o[j] >> (8 * b));
        }
    }
}

int crypto_kem_keypair(unsigned char *pk, unsigned char *sk)
{
    randombytes(sk, N);
    pk_of(pk, sk);
    return 0;
}

int crypto_kem_enc(unsigned char *ct, unsigned char *ss, const unsigned char *pk)
{
    unsigned char m[N];
    randombytes(m, N);
    for (size_t i = 0; i < N; i++) {
        ct[i] = m[i] ^ pk[i];
    }
    shift_lanes(ss, m, pk[0] & 31u);
    return 0;
}

int crypto_kem_dec(unsigned char *ss, const unsigned char *ct, const unsigned char *sk)
{
    unsigned char pk[N], m[N];
    pk_of(pk, sk);
    for (size_t i = 0; i < N; i++) {
        m[i] = ct[i] ^ pk[i];
    }
    shift_lanes(ss, m, pk[0] & 31u);
    return 0;
}
