/* SPDX-License-Identifier: MIT */
/* The contract between a fuzz target (fuzz/<driver family>.c) and the mutation loop
 * (fuzz/loop.c). Both are built by pqlab's build as the program "fuzz" of an
 * implementation, on the platform host-fuzz (ASan + UBSan): see docs/fuzzing.md.
 *
 * A target checks properties beyond "no crash" and calls pqlab_fuzz_fail() when one
 * does not hold; a sanitizer finding aborts the process by itself. The entry point
 * has libFuzzer's name and signature, so a target also links with clang's
 * -fsanitize=fuzzer in place of loop.c. */
#ifndef PQLAB_FUZZ_H
#define PQLAB_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/* One input. Byte 0 selects the operation (modulo the target's number of operations),
 * the rest is its payload. The input lies in a heap buffer of exactly `size` bytes. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Seed input k (a valid or canonical input of one operation) into buf (cap bytes);
 * returns its length, or 0 when there is no seed k. Called after the first call of
 * LLVMFuzzerTestOneInput, so the target's fixed keys and signatures exist. */
size_t pqlab_fuzz_seed(unsigned k, uint8_t *buf, size_t cap);

/* pqlab_fuzz_seed for a target whose seeds are n fixed buffers: seed k is byte k then
 * src[k] (len[k] bytes); 0 when k >= n or it does not fit in cap. */
size_t pqlab_fuzz_seed_table(unsigned k, uint8_t *buf, size_t cap, const uint8_t *const *src, const size_t *len,
                             unsigned n);

/* A property failed: prints the reason and aborts. */
void pqlab_fuzz_fail(const char *what) __attribute__((noreturn));

#endif
