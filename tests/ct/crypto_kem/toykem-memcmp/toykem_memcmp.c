/* SPDX-License-Identifier: MIT */
/* An INSECURE toy KEM shaped like a Fujisaki-Okamoto decapsulation, for the tests of
 * `pqlab ct` (tests/test_ct.py): pk = sk ^ 0x5a..., ct = (m ^ pk) || tag(m), ss = m;
 * decapsulation recovers m, recomputes the tag and returns m, or a value derived from sk
 * when the tag differs (implicit rejection). With TOY_LEAKY the tags are compared with
 * memcmp and the result is chosen with a branch, both on secret data, the classic leak;
 * without, with a mask. Anyone holding pk can decapsulate: never use it. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "api.h"
#include "randombytes.h"

#define N 32
#define TAG 16

static void pk_of(unsigned char *pk, const unsigned char *sk)
{
    for (size_t i = 0; i < N; i++) {
        pk[i] = sk[i] ^ 0x5a;
    }
}

static void tag_of(unsigned char *t, const unsigned char *m)
{
    for (size_t i = 0; i < TAG; i++) {
        t[i] = (unsigned char)(m[i] ^ m[i + TAG] ^ (m[(i + 1) % N] << 1));
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
    tag_of(ct + N, m);
    memcpy(ss, m, N);
    return 0;
}

int crypto_kem_dec(unsigned char *ss, const unsigned char *ct, const unsigned char *sk)
{
    unsigned char pk[N], m[N], t[TAG];
    pk_of(pk, sk);
    for (size_t i = 0; i < N; i++) {
        m[i] = ct[i] ^ pk[i];
    }
    tag_of(t, m);
#ifdef TOY_LEAKY
    if (memcmp(t, ct + N, TAG) != 0) { /* branches on secret bytes */
        for (size_t i = 0; i < N; i++) {
            ss[i] = sk[i] ^ 0xa5;
        }
    } else {
        memcpy(ss, m, N);
    }
#else
    unsigned d = 0;
    for (size_t i = 0; i < TAG; i++) {
        d |= (unsigned)(t[i] ^ ct[N + i]);
    }
    unsigned char reject = (unsigned char)(0u - ((d | (0u - d)) >> 31)); /* 0xff when d != 0 */
    for (size_t i = 0; i < N; i++) {
        ss[i] = (unsigned char)(m[i] ^ ((m[i] ^ sk[i] ^ 0xa5) & reject));
    }
#endif
    return 0;
}
