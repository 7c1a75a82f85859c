/* SPDX-License-Identifier: MIT */
/* Pre-hash of HashSLH-DSA (FIPS 205 section 10.2.2): OID || PH(M).
 * Functions are those the ACVP SLH-DSA sigGen/sigVer specification lists: SHA2-224,
 * -256, -384, -512, -512/224, -512/256 (FIPS 180-4), SHA3-224, -256, -384, -512, and
 * SHAKE128 (256-bit output) / SHAKE256 (512-bit output) (FIPS 202).
 * The common layer has no SHA-512/t and no SHA3-224: SHA-512/t is SHA-512 with its own
 * initial value (FIPS 180-4 section 5.3.6) truncated, SHA3-224 is the Keccak sponge with
 * rate 144 and suffix 01 (FIPS 202 section 6.1). */
#include <string.h>

#include "fips202.h"
#include "sha2.h"
#include "slhdsa.h"

/* FIPS 180-4 section 5.3.6.1: SHA-512/224 initial hash value */
static const uint64_t iv_512_224[8] = {
    0x8C3D37C819544DA2ULL, 0x73E1996689DCD4D6ULL, 0x1DFAB7AE32FF9C82ULL, 0x679DD514582F9FCFULL,
    0x0F6D2B697BD44DA8ULL, 0x77E36F7304C48942ULL, 0x3F9D85A86A1D36C8ULL, 0x1112E6AD91D692A1ULL,
};
/* FIPS 180-4 section 5.3.6.2: SHA-512/256 initial hash value */
static const uint64_t iv_512_256[8] = {
    0x22312194FC2BF72CULL, 0x9F555FA3C84C64C2ULL, 0x2393B86B6F53B151ULL, 0x963877195940EABDULL,
    0x96283EE2A88EFFE3ULL, 0xBE5E1E2553863992ULL, 0x2B0199FC2C85B8AAULL, 0x0EB72DDC81C52CA2ULL,
};

static void sha512t(uint8_t *out, size_t outlen, const uint64_t iv[8], const uint8_t *m,
                    size_t mlen)
{
    pqlab_sha512_state st;
    uint8_t d[64];
    pqlab_sha512_init(&st);
    memcpy(st.h, iv, sizeof st.h);
    pqlab_sha512_update(&st, m, mlen);
    pqlab_sha512_final(d, &st);
    memcpy(out, d, outlen);
}

static void sha3_224(uint8_t out[28], const uint8_t *m, size_t mlen)
{
    uint64_t s[25];
    unsigned int pos;
    memset(s, 0, sizeof s);
    pos = pqlab_keccak_absorb(s, 0, 144, m, mlen);
    pqlab_keccak_finalize(s, pos, 144, 0x06);
    pqlab_keccak_squeeze(out, 28, s, 144, 144);
}

int slh_prehash(uint8_t *out, int ph, const uint8_t *m, size_t mlen)
{
    /* DER of OID 2.16.840.1.101.3.4.2.ph: tag 06, length 09, then the arcs */
    static const uint8_t oid_prefix[10] = {0x06, 0x09, 0x60, 0x86, 0x48,
                                           0x01, 0x65, 0x03, 0x04, 0x02};
    uint8_t *d = out + 11;
    size_t dlen;

    switch (ph) {
    case PQLAB_SLHDSA_PH_SHA224:
        pqlab_sha224(d, m, mlen);
        dlen = 28;
        break;
    case PQLAB_SLHDSA_PH_SHA256:
        pqlab_sha256(d, m, mlen);
        dlen = 32;
        break;
    case PQLAB_SLHDSA_PH_SHA384:
        pqlab_sha384(d, m, mlen);
        dlen = 48;
        break;
    case PQLAB_SLHDSA_PH_SHA512:
        pqlab_sha512(d, m, mlen);
        dlen = 64;
        break;
    case PQLAB_SLHDSA_PH_SHA512_224:
        sha512t(d, 28, iv_512_224, m, mlen);
        dlen = 28;
        break;
    case PQLAB_SLHDSA_PH_SHA512_256:
        sha512t(d, 32, iv_512_256, m, mlen);
        dlen = 32;
        break;
    case PQLAB_SLHDSA_PH_SHA3_224:
        sha3_224(d, m, mlen);
        dlen = 28;
        break;
    case PQLAB_SLHDSA_PH_SHA3_256:
        pqlab_sha3_256(d, m, mlen);
        dlen = 32;
        break;
    case PQLAB_SLHDSA_PH_SHA3_384:
        pqlab_sha3_384(d, m, mlen);
        dlen = 48;
        break;
    case PQLAB_SLHDSA_PH_SHA3_512:
        pqlab_sha3_512(d, m, mlen);
        dlen = 64;
        break;
    case PQLAB_SLHDSA_PH_SHAKE128:
        pqlab_shake128(d, 32, m, mlen);
        dlen = 32;
        break;
    case PQLAB_SLHDSA_PH_SHAKE256:
        pqlab_shake256(d, 64, m, mlen);
        dlen = 64;
        break;
    default:
        return -1;
    }
    memcpy(out, oid_prefix, sizeof oid_prefix);
    out[10] = (uint8_t)ph;
    return (int)(11 + dlen);
}
