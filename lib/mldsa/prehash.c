/* SPDX-License-Identifier: MIT */
/* Pre-hash functions of HashML-DSA (FIPS 204 section 5.4.1, Algorithm 4): the
 * hash and its DER-encoded OID. The common layer supplies SHA-224/256/384/512,
 * SHA3-256/384/512 and SHAKE; SHA-512/224 and SHA-512/256 (FIPS 180-4 section
 * 6.7, initial values of section 5.3.6) and SHA3-224 (FIPS 202 section 6.1) are
 * completed here. Public data only (the message). */
#include <string.h>

#include "fips202.h"
#include "mldsa.h"
#include "sha2.h"

/* OIDs 2.16.840.1.101.3.4.2.n (NIST hash algorithms arc), DER: 06 09 60 86 48 01 65
 * 03 04 02 n. n per FIPS 204 section 5.4.1: SHA-256 1, SHA-384 2, SHA-512 3, SHA-224
 * 4, SHA-512/224 5, SHA-512/256 6, SHA3-224 7, SHA3-256 8, SHA3-384 9, SHA3-512 10,
 * SHAKE128 11, SHAKE256 12. */

static const struct {
    uint8_t arc;    /* last OID byte */
    uint8_t outlen; /* digest bytes; SHAKE128 256 bits, SHAKE256 512 bits */
} ph_table[12] = {
    {4, 28},  /* SHA2-224 */
    {1, 32},  /* SHA2-256 */
    {2, 48},  /* SHA2-384 */
    {3, 64},  /* SHA2-512 */
    {5, 28},  /* SHA2-512/224 */
    {6, 32},  /* SHA2-512/256 */
    {7, 28},  /* SHA3-224 */
    {8, 32},  /* SHA3-256 */
    {9, 48},  /* SHA3-384 */
    {10, 64}, /* SHA3-512 */
    {11, 32}, /* SHAKE128 */
    {12, 64}, /* SHAKE256 */
};

/* FIPS 180-4 section 5.3.6.1 and 5.3.6.2: H(0) of SHA-512/224 and SHA-512/256 */
static const uint64_t iv_512_224[8] = {
    0x8C3D37C819544DA2ULL, 0x73E1996689DCD4D6ULL, 0x1DFAB7AE32FF9C82ULL, 0x679DD514582F9FCFULL,
    0x0F6D2B697BD44DA8ULL, 0x77E36F7304C48942ULL, 0x3F9D85A86A1D36C8ULL, 0x1112E6AD91D692A1ULL};
static const uint64_t iv_512_256[8] = {
    0x22312194FC2BF72CULL, 0x9F555FA3C84C64C2ULL, 0x2393B86B6F53B151ULL, 0x963877195940EABDULL,
    0x96283EE2A88EFFE3ULL, 0xBE5E1E2553863992ULL, 0x2B0199FC2C85B8AAULL, 0x0EB72DDC81C52CA2ULL};

#define SHA3_224_RATE 144 /* 1600 - 2 * 224 bits */

size_t mldsa_prehash_info(const uint8_t **oid, int hashalg)
{
    static const uint8_t oids[12][MLDSA_OID_BYTES] = {
#define OID(n) {0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, n}
        OID(4), OID(1), OID(2), OID(3), OID(5), OID(6),
        OID(7), OID(8), OID(9), OID(10), OID(11), OID(12),
#undef OID
    };
    if (hashalg < 1 || hashalg > 12) {
        return 0;
    }
    if (oid != NULL) {
        *oid = oids[hashalg - 1];
    }
    return ph_table[hashalg - 1].outlen;
}

static void sha512t(uint8_t *out, size_t outlen, const uint64_t iv[8], const uint8_t *m,
                    size_t mlen)
{
    pqlab_sha512_state st;
    uint8_t full[64];
    pqlab_sha512_init(&st);
    memcpy(st.h, iv, sizeof st.h);
    pqlab_sha512_update(&st, m, mlen);
    pqlab_sha512_final(full, &st);
    memcpy(out, full, outlen); /* the leftmost t bits (section 6.7) */
}

static void sha3_224(uint8_t out[28], const uint8_t *m, size_t mlen)
{
    uint64_t s[25] = {0};
    unsigned int pos = pqlab_keccak_absorb(s, 0, SHA3_224_RATE, m, mlen);
    pqlab_keccak_finalize(s, pos, SHA3_224_RATE, 0x06); /* SHA-3 suffix 01 + pad */
    (void)pqlab_keccak_squeeze(out, 28, s, SHA3_224_RATE, SHA3_224_RATE);
}

size_t mldsa_prehash(uint8_t ph[MLDSA_PH_MAXBYTES], const uint8_t **oid, int hashalg,
                     const uint8_t *m, size_t mlen)
{
    const size_t outlen = mldsa_prehash_info(oid, hashalg);
    switch (hashalg) {
    case PQLAB_MLDSA_PH_SHA2_224:
        pqlab_sha224(ph, m, mlen);
        break;
    case PQLAB_MLDSA_PH_SHA2_256:
        pqlab_sha256(ph, m, mlen);
        break;
    case PQLAB_MLDSA_PH_SHA2_384:
        pqlab_sha384(ph, m, mlen);
        break;
    case PQLAB_MLDSA_PH_SHA2_512:
        pqlab_sha512(ph, m, mlen);
        break;
    case PQLAB_MLDSA_PH_SHA2_512_224:
        sha512t(ph, 28, iv_512_224, m, mlen);
        break;
    case PQLAB_MLDSA_PH_SHA2_512_256:
        sha512t(ph, 32, iv_512_256, m, mlen);
        break;
    case PQLAB_MLDSA_PH_SHA3_224:
        sha3_224(ph, m, mlen);
        break;
    case PQLAB_MLDSA_PH_SHA3_256:
        pqlab_sha3_256(ph, m, mlen);
        break;
    case PQLAB_MLDSA_PH_SHA3_384:
        pqlab_sha3_384(ph, m, mlen);
        break;
    case PQLAB_MLDSA_PH_SHA3_512:
        pqlab_sha3_512(ph, m, mlen);
        break;
    case PQLAB_MLDSA_PH_SHAKE128:
        pqlab_shake128(ph, 32, m, mlen);
        break;
    case PQLAB_MLDSA_PH_SHAKE256:
        pqlab_shake256(ph, 64, m, mlen);
        break;
    default:
        return 0;
    }
    return outlen;
}
