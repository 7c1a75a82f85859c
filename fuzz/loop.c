/* SPDX-License-Identifier: MIT */
/* The mutation loop of the fuzz program (fuzz/fuzz.h): without coverage feedback, it
 * takes a seed input of the target, applies one to four random mutations (bit flips,
 * bytes set to random or boundary values, truncation, extension, a copied block) and
 * runs the target on a heap copy of exactly the input's length, so AddressSanitizer
 * sees every read past its end. About one input in sixteen is a seed unmodified.
 *
 * An input that runs longer than PQLAB_FUZZ_HANG_S seconds is a finding too (a hang):
 * SIGALRM prints its operation byte, length and first bytes, and the run fails.
 *
 * Input (stdin, one line): "<seconds> <seed> [<max executions>]". Output: the harness
 * protocol (docs/interfaces.md section 3) with info records of the executions and
 * their rate, and "test fuzz ok" when no property failed. */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "api.h"
#include "fuzz.h"
#include "harness.h"

#define MAX_SEEDS 64
#define MAX_LEN (1u << 17)
#ifndef PQLAB_FUZZ_HANG_S
#define PQLAB_FUZZ_HANG_S 20u
#endif

static uint64_t rs = 0x9E3779B97F4A7C15u;

static uint32_t rnd(void)
{
    /* xorshift64 (Marsaglia 2003) */
    rs ^= rs << 13;
    rs ^= rs >> 7;
    rs ^= rs << 17;
    return (uint32_t)(rs >> 16);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void pqlab_fuzz_fail(const char *what)
{
    fprintf(stderr, "fuzz: property failed: %s\n", what);
    fflush(stderr);
    abort();
}

static const uint8_t *volatile current;
static volatile size_t current_len;

/* async-signal-safe: write(2) and _exit only */
static void on_hang(int sig)
{
    static const char msg[] = "fuzz: an input ran longer than the hang limit: length ";
    static const char hex[] = "0123456789abcdef";
    char b[32 + 2 * 64];
    size_t n = 0, len = current_len;
    char d[24];
    int k = 0;
    (void)sig;
    do {
        d[k++] = (char)('0' + len % 10);
        len /= 10;
    } while (len != 0);
    while (k > 0) {
        b[n++] = d[--k];
    }
    b[n++] = ',';
    b[n++] = ' ';
    b[n++] = 'b';
    b[n++] = 'y';
    b[n++] = 't';
    b[n++] = 'e';
    b[n++] = 's';
    b[n++] = ' ';
    for (size_t i = 0; i < current_len && i < 64; i++) {
        b[n++] = hex[current[i] >> 4];
        b[n++] = hex[current[i] & 15u];
    }
    b[n++] = '\n';
    if (write(2, msg, sizeof msg - 1) < 0 || write(2, b, n) < 0) {
        _exit(2);
    }
    _exit(2);
}

static uint8_t *seeds[MAX_SEEDS];
static size_t seed_len[MAX_SEEDS];
static uint8_t work[MAX_LEN];

/* one mutation of work[0..*len); byte 0 (the operation) is left alone */
static void mutate(size_t *len, unsigned nseeds)
{
    static const uint8_t edge[] = {0x00, 0x01, 0x7f, 0x80, 0xfe, 0xff, 0x0d, 0xd0};
    size_t n = *len;
    size_t at = n > 1 ? 1 + rnd() % (n - 1) : 1;
    switch (rnd() % 8) {
    case 0:
    case 1:
        if (n > 1) {
            work[at] ^= (uint8_t)(1u << (rnd() % 8));
        }
        break;
    case 2:
        if (n > 1) {
            work[at] = (uint8_t)rnd();
        }
        break;
    case 3:
        if (n > 1) {
            work[at] = edge[rnd() % sizeof edge];
        }
        break;
    case 4: /* two bytes at their largest: a 12-bit or 16-bit field out of range */
        if (n > 2) {
            work[at] = 0xff;
            work[at + 1 < n ? at + 1 : at] = 0xff;
        }
        break;
    case 5: /* shorter */
        if (n > 1) {
            *len = rnd() % 4 == 0 ? 1 + rnd() % n : n - 1 - rnd() % (n - 1 < 16 ? n - 1 : 16);
            if (*len < 1) {
                *len = 1;
            }
        }
        break;
    case 6: /* longer */
        for (unsigned k = 1 + rnd() % 16; k > 0 && *len < MAX_LEN; k--) {
            work[(*len)++] = (uint8_t)rnd();
        }
        break;
    default: { /* a block of another seed at the same offset (crossover) */
        const unsigned s = rnd() % nseeds;
        for (size_t i = at, k = rnd() % 64; k > 0 && i < n && i < seed_len[s]; i++, k--) {
            work[i] = seeds[s][i];
        }
        break;
    }
    }
}

int main(void)
{
    pqlab_harness_begin("fuzz");
    char line[128] = {0};
    long got = pqlab_hal_read((uint8_t *)line, sizeof line - 1);
    double seconds = 0;
    unsigned long long seed = 0, max_execs = 0;
    if (got <= 0 || sscanf(line, "%lf %llu %llu", &seconds, &seed, &max_execs) < 2 || !(seconds >= 0)) {
        fprintf(stderr, "fuzz: input must be '<seconds> <seed> [<max executions>]'\n");
        pqlab_harness_end(0);
    }
    rs ^= seed * 0xD1B54A32D192ED03u;
    if (rs == 0) {
        rs = 1;
    }
    /* the first call sets the target up (keys, signatures); then take its seeds */
    static const uint8_t empty = 0;
    LLVMFuzzerTestOneInput(&empty, 0);
    unsigned nseeds = 0;
    for (; nseeds < MAX_SEEDS; nseeds++) {
        size_t n = pqlab_fuzz_seed(nseeds, work, MAX_LEN);
        if (n == 0) {
            break;
        }
        seeds[nseeds] = malloc(n);
        if (seeds[nseeds] == NULL) {
            pqlab_fuzz_fail("out of memory");
        }
        memcpy(seeds[nseeds], work, n);
        seed_len[nseeds] = n;
    }
    if (nseeds == 0) {
        pqlab_fuzz_fail("the target has no seed inputs");
    }
    signal(SIGALRM, on_hang);
    const double t0 = now();
    double t = t0;
    unsigned long long execs = 0;
    while ((max_execs == 0 || execs < max_execs) && t - t0 < seconds) {
        const unsigned s = rnd() % nseeds;
        size_t len = seed_len[s];
        memcpy(work, seeds[s], len);
        if (rnd() % 16 != 0) {
            for (unsigned m = 1 + rnd() % 4; m > 0; m--) {
                mutate(&len, nseeds);
            }
        }
        uint8_t *in = malloc(len);
        if (in == NULL) {
            pqlab_fuzz_fail("out of memory");
        }
        memcpy(in, work, len);
        current = in;
        current_len = len;
        alarm(PQLAB_FUZZ_HANG_S);
        LLVMFuzzerTestOneInput(in, len);
        alarm(0);
        free(in);
        execs++;
        if (execs % 8 == 0 || seconds < 1) {
            t = now();
        }
    }
    t = now();
    char num[64];
    pqlab_info("fuzz-target", CRYPTO_ALGNAME);
    snprintf(num, sizeof num, "%u", nseeds);
    pqlab_info("seeds", num);
    snprintf(num, sizeof num, "%llu", execs);
    pqlab_info("executions", num);
    snprintf(num, sizeof num, "%.3f", t - t0);
    pqlab_info("seconds", num);
    snprintf(num, sizeof num, "%.1f", (double)execs / (t - t0 > 1e-9 ? t - t0 : 1e-9));
    pqlab_info("executions_per_s", num);
    pqlab_test_result("fuzz", execs > 0);
    pqlab_harness_end(pqlab_test_report());
}

size_t pqlab_fuzz_seed_table(unsigned k, uint8_t *buf, size_t cap, const uint8_t *const *src, const size_t *len,
                             unsigned n)
{
    if (k >= n || cap < 1 + len[k]) {
        return 0;
    }
    buf[0] = (uint8_t)k;
    memcpy(buf + 1, src[k], len[k]);
    return 1 + len[k];
}
