/* SPDX-License-Identifier: MIT */
/* Shared code of the pqlab harness programs: the output protocol (version 1,
 * docs/interfaces.md section 3), the sources of randomness behind
 * pqlab_randombytes(), canary-guarded buffers, test-result bookkeeping, and the
 * driver's output helpers. */
#ifndef PQLAB_HARNESS_H
#define PQLAB_HARNESS_H

#include <stddef.h>
#include <stdint.h>

/* common-layer headers by path: an implementation folder on the include path
 * may carry headers of the same names (fips202.h, randombytes.h, ...) */
#include "../lib/common/drbg.h"
#include "../platforms/include/pqlab_hal.h"

/* ---- output protocol ----
 * pqlab_harness_begin() sets the platform up and prints the header line
 * "#pqlab 1 <program> timer=<name>". A record is built from pieces:
 * pqlab_rec_begin(kind) then any number of fields, then pqlab_rec_end(), which
 * ends the line and counts the record. pqlab_harness_end() prints
 * "#end ok|fail <records>" and exits (code 0 only for ok). */
void pqlab_harness_begin(const char *program);
void pqlab_harness_end(int ok) __attribute__((noreturn));
void pqlab_rec_begin(const char *kind);
void pqlab_rec_str(const char *s);                    /* " s" */
void pqlab_rec_u64(uint64_t v);                       /* " <decimal>" */
void pqlab_rec_i64(int64_t v);                        /* " <signed decimal>" */
void pqlab_rec_hex(const uint8_t *p, size_t n);       /* " <lowercase hex>", "-" when n == 0 */
void pqlab_rec_hex_upper(const uint8_t *p, size_t n); /* " <UPPERCASE hex>", "00" when n == 0 (NIST fprintBstr) */
void pqlab_rec_end(void);
/* the number of records printed so far */
unsigned long pqlab_rec_count(void);
/* "info <key> <value>", spaces in the value replaced by '_' */
void pqlab_info(const char *key, const char *value);

/* ---- interval marks ----
 * pqlab_mark_begin(label) / pqlab_mark_end(label) bracket one measured operation
 * (speed, stack). They only store the label in pqlab_mark_current, so they cost a
 * few cycles and behave the same everywhere; pqlab-sim recognises them by their
 * symbols and reports cycles, instructions, instruction mix and stack high-water of
 * every interval between them (docs/sim.md). `label` must be a string that lives
 * until the end mark. */
extern const char *volatile pqlab_mark_current;
void pqlab_mark_begin(const char *label);
void pqlab_mark_end(const char *label);

/* ---- randomness ----
 * pqlab_randombytes() (randombytes.h) draws from the source selected last:
 *  - fixed (the default; test, speed, stack, hashing, driver): splitmix64 from the
 *    fixed seed 0x7071_6c61_622d_7631 ("pqlab-v1"). Cheap and not cryptographic,
 *    so that neither the timings nor the hashing share include an RNG's hashing.
 *  - shake (vectors): one SHAKE128 stream of the given seed, consumed in order.
 *  - drbg (kat): the NIST AES-256-CTR DRBG state passed in (randombytes of the
 *    NIST KAT generators). */
void pqlab_rng_fixed(void);
void pqlab_rng_shake(const uint8_t *seed, size_t seedlen);
void pqlab_rng_drbg(pqlab_drbg_state *st);
/* the HQC submission's KAT generator (harness/kat.c with PQLAB_KAT_RNG_HQC), whose PRNG is
 * SHAKE256(seed || 0x01) read as one stream: _init seeds the master stream with the
 * entropy; _record draws the next 48-byte seed from it and makes randombytes the stream of
 * that seed */
void pqlab_rng_hqc_init(const uint8_t *entropy, size_t len, uint8_t domain);
void pqlab_rng_hqc_record(uint8_t seed[48]);
/* a draw from the fixed stream regardless of the mode (buffer positions etc.) */
uint32_t pqlab_rng_u32(void);
/* with on != 0, every output of pqlab_randombytes() is marked PQLAB_SECRET (the ct program) */
void pqlab_rng_secret(int on);
/* bytes of randomness marked secret so far */
size_t pqlab_rng_secret_count(void);

/* ---- canary-guarded buffers ----
 * PQLAB_GUARDED(name, size) declares a static area of PQLAB_CANARY_LEN + size +
 * PQLAB_CANARY_LEN bytes and a pointer `name` to its middle; the buffer keeps the
 * 16-byte alignment of the area. pqlab_guard_register() writes the canaries and
 * lists the buffer; pqlab_guard_check_all() checks every listed buffer and
 * records a failure as test result "canary-<name>" (restoring the canary so
 * that one overrun is reported once per check). */
#define PQLAB_CANARY_LEN 16
#define PQLAB_GUARDED(name, size)                                                                                      \
    static uint8_t name##_area_[PQLAB_CANARY_LEN + (size) + PQLAB_CANARY_LEN] __attribute__((aligned(16)));            \
    static uint8_t *const name = name##_area_ + PQLAB_CANARY_LEN
void pqlab_guard_register(const char *name, uint8_t *buf, size_t size);
int pqlab_guard_check_all(void);

/* ---- test results ----
 * pqlab_test_result() accumulates results by name over the iterations;
 * pqlab_test_report() prints one "test <name> ok|fail" record per name, in the
 * order of first use, and returns 1 when all passed. */
void pqlab_test_result(const char *name, int ok);
int pqlab_test_report(void);

/* ---- driver ---- */
/* failure codes of the family drivers: the wrong number of arguments, an argument of the
 * wrong length (docs/interfaces.md section 3) */
#define PQLAB_DRV_ERR_LENGTH (-100)
#define PQLAB_DRV_ERR_ARGS (-101)
void pqlab_drv_ok(const char *tag, int n, const uint8_t *const *outs, const size_t *outlens);
void pqlab_drv_fail(const char *tag, int code);
/* "ok" with the n outputs when r == 0, "fail r" otherwise */
void pqlab_drv_answer(const char *tag, int r, int n, const uint8_t *const *outs, const size_t *outlens);
/* 1 when the request's command is `name` */
int pqlab_drv_is(const char *cmd, const char *name);
/* implemented by harness/driver_<family>.c; 0 when it handled (and printed) the
 * request, nonzero for an unknown command */
int pqlab_driver_dispatch(const char *tag, const char *cmd, int argc, const uint8_t *const *argv, const size_t *arglen);

/* ---- ct ----
 * implemented by harness/ct_<driver>.c (ct_none.c for implementations without one):
 * operations of the family beyond the NIST API that the ct program runs on secret data
 * (FN-DSA: key generation through the NTRU solver's rejection path); records its results
 * with pqlab_test_result like the rest of the ct program */
void pqlab_ct_family(void);

/* small helpers */
int pqlab_bytes_equal(const uint8_t *a, const uint8_t *b, size_t n); /* not constant time */

#endif
