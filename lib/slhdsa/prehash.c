/* SPDX-License-Identifier: MIT */
/* Pre-hash of HashSLH-DSA (FIPS 205 section 10.2.2): OID || PH(M).
 * Functions are those the ACVP SLH-DSA sigGen/sigVer specification lists: SHA2-224,
 * -256, -384, -512, -512/224, -512/256 (FIPS 180-4), SHA3-224, -256, -384, -512, and
 * SHAKE128 (256-bit output) / SHAKE256 (512-bit output) (FIPS 202), all from the
 * common layer (lib/common sha2.h, fips202.h). */
#include <string.h>

#include "fips202.h"
#include "sha2.h"
#include "slhdsa.h"

int slh_prehash(uint8_t *out, int ph, const uint8_t *m, size_t mlen)
{
    /* DER of OID 2.16.840.1.101.3.4.2.ph: tag 06, length 09, then the arcs */
    static const uint8_t oid_prefix[10] = {0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02};
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
        pqlab_sha512_224(d, m, mlen);
        dlen = 28;
        break;
    case PQLAB_SLHDSA_PH_SHA512_256:
        pqlab_sha512_256(d, m, mlen);
        dlen = 32;
        break;
    case PQLAB_SLHDSA_PH_SHA3_224:
        pqlab_sha3_224(d, m, mlen);
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
