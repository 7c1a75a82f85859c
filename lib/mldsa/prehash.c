/* SPDX-License-Identifier: MIT */
/* Pre-hash functions of HashML-DSA (FIPS 204 section 5.4.1, Algorithm 4): the
 * hash and its DER-encoded OID. Every hash function comes from the common layer
 * (lib/common sha2.h, fips202.h). Public data only (the message). */
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

size_t mldsa_prehash_info(const uint8_t **oid, int hashalg)
{
    static const uint8_t oids[12][MLDSA_OID_BYTES] = {
#define OID(n) {0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, n}
        OID(4), OID(1), OID(2), OID(3), OID(5), OID(6), OID(7), OID(8), OID(9), OID(10), OID(11), OID(12),
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

size_t mldsa_prehash(uint8_t ph[MLDSA_PH_MAXBYTES], const uint8_t **oid, int hashalg, const uint8_t *m, size_t mlen)
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
        pqlab_sha512_224(ph, m, mlen);
        break;
    case PQLAB_MLDSA_PH_SHA2_512_256:
        pqlab_sha512_256(ph, m, mlen);
        break;
    case PQLAB_MLDSA_PH_SHA3_224:
        pqlab_sha3_224(ph, m, mlen);
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
