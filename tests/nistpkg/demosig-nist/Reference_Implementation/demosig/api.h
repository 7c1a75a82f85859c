/* SPDX-License-Identifier: MIT */
/* demosig-nist: an INSECURE toy signature written the way NIST PQC submission packages
 * write their api.h: sizes, CRYPTO_ALGNAME and the NIST prototypes with unsigned long
 * long lengths. The "signature" is a SHAKE256 tag keyed with the public key: anyone
 * can forge it. It exists to test pqlab's drop-in of submission packages only. */
#define CRYPTO_SECRETKEYBYTES 64
#define CRYPTO_PUBLICKEYBYTES 32
#define CRYPTO_BYTES 72
#define CRYPTO_ALGNAME "DemoSig-NIST"

int crypto_sign_keypair(unsigned char *pk, unsigned char *sk);

int crypto_sign(unsigned char *sm, unsigned long long *smlen, const unsigned char *m, unsigned long long mlen,
                const unsigned char *sk);

int crypto_sign_open(unsigned char *m, unsigned long long *mlen, const unsigned char *sm, unsigned long long smlen,
                     const unsigned char *pk);
