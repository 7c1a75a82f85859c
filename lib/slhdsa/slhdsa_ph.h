/* SPDX-License-Identifier: MIT */
/* Pre-hash functions of HashSLH-DSA (FIPS 205 section 10.2.2). The identifiers are the
 * last byte of each function's object identifier 2.16.840.1.101.3.4.2.x (NIST CSOR
 * "hashAlgs" arc), which is also what goes into M' after the DER prefix
 * 06 09 60 86 48 01 65 03 04 02. */
#ifndef PQLAB_SLHDSA_PH_H
#define PQLAB_SLHDSA_PH_H

#define PQLAB_SLHDSA_PH_SHA256 0x01
#define PQLAB_SLHDSA_PH_SHA384 0x02
#define PQLAB_SLHDSA_PH_SHA512 0x03
#define PQLAB_SLHDSA_PH_SHA224 0x04
#define PQLAB_SLHDSA_PH_SHA512_224 0x05
#define PQLAB_SLHDSA_PH_SHA512_256 0x06
#define PQLAB_SLHDSA_PH_SHA3_224 0x07
#define PQLAB_SLHDSA_PH_SHA3_256 0x08
#define PQLAB_SLHDSA_PH_SHA3_384 0x09
#define PQLAB_SLHDSA_PH_SHA3_512 0x0A
#define PQLAB_SLHDSA_PH_SHAKE128 0x0B /* 256-bit output */
#define PQLAB_SLHDSA_PH_SHAKE256 0x0C /* 512-bit output */

#endif
