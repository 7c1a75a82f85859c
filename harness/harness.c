/* SPDX-License-Identifier: MIT */
/* Shared code of the harness programs; see harness.h. */
#include "harness.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../lib/common/ct.h"
#include "../lib/common/ct.h"
#include "../lib/common/drbg.h"
#include "../lib/common/fips202.h"
#include "../lib/common/instrument.h"
#include "../lib/common/randombytes.h"

/* ---- output: a line buffer flushed at the end of every record (and when full,
 * for long hex fields), so a crash loses at most the current line ---- */

/* the instrumentation record (lib/common/instrument.h): the library reports, the harness keeps */
static unsigned int instr_sign_iterations;

void pqlab_instr_sign_iterations(unsigned int n)
{
    instr_sign_iterations = n;
}

unsigned int pqlab_instr_last_sign_iterations(void)
{
    return instr_sign_iterations;
}

static char obuf[256];
static size_t olen;
static unsigned long nrecords;

static void flush(void)
{
    if (olen > 0) {
        pqlab_hal_send(obuf, olen);
        olen = 0;
    }
}

static void put(char c)
{
    if (olen == sizeof obuf) {
        flush();
    }
    obuf[olen++] = c;
}

static void puts_(const char *s)
{
    while (*s != 0) {
        put(*s++);
    }
}

/* ---- the read-only image (vector table, code, constants; pqlab_hal_code_region) ----
 * On QEMU's MPS2 and virt machines it lies in RAM: a store through a NULL or wild
 * pointer silently overwrites the vector table or code. Its checksum at the start of
 * the run is compared at the end, and a difference fails the run with a '#fault
 * code-modified' line (docs/interfaces.md section 3). The checksum is FNV-1a over
 * 32-bit words: a step h -> (h ^ w) * 16777619 is a bijection of h for a fixed w and
 * of w for a fixed h (the multiplier is odd), so a change of any single word always
 * changes the result; the few bytes after the last whole word are folded in the same
 * way. */

static const uint8_t *code_start;
static size_t code_len;
static uint32_t code_sum0;

static uint32_t code_sum(void)
{
    uint32_t h = 2166136261u;
    size_t i = 0;
    for (; i + 4 <= code_len; i += 4) {
        uint32_t w;
        memcpy(&w, code_start + i, 4);
        h = (h ^ w) * 16777619u;
    }
    for (; i < code_len; i++) {
        h = (h ^ code_start[i]) * 16777619u;
    }
    return h;
}

static void put_hex32(uint32_t v)
{
    puts_("0x");
    for (int i = 28; i >= 0; i -= 4) {
        put("0123456789abcdef"[(v >> i) & 15u]);
    }
}

void pqlab_harness_begin(const char *program)
{
    pqlab_hal_setup();
    code_len = pqlab_hal_code_region(&code_start);
    code_sum0 = code_sum();
    pqlab_rng_fixed();
    puts_("#pqlab 1 ");
    puts_(program);
    puts_(" timer=");
    puts_(pqlab_hal_timer_name());
    put('\n');
    flush();
}

void pqlab_harness_end(int ok)
{
    const uint32_t sum = code_sum();
    if (sum != code_sum0) {
        /* instead of the trailer: the run is not trustworthy, whatever it printed */
        puts_("#fault code-modified start=");
        put_hex32((uint32_t)(uintptr_t)code_start);
        puts_(" end=");
        put_hex32((uint32_t)((uintptr_t)code_start + code_len));
        puts_(" checksum=");
        put_hex32(code_sum0);
        puts_(" now=");
        put_hex32(sum);
        put('\n');
        flush();
        pqlab_hal_exit(3);
    }
    puts_(ok ? "#end ok" : "#end fail");
    pqlab_rec_u64(nrecords);
    put('\n');
    flush();
    pqlab_hal_exit(ok ? 0 : 1);
}

void pqlab_rec_begin(const char *kind)
{
    puts_(kind);
}

void pqlab_rec_str(const char *s)
{
    put(' ');
    puts_(s);
}

void pqlab_rec_u64(uint64_t v)
{
    char b[20]; /* 2^64 - 1 has 20 digits */
    int i = 0;
    do {
        b[i++] = (char)('0' + (int)(v % 10u));
        v /= 10u;
    } while (v != 0);
    put(' ');
    while (i > 0) {
        put(b[--i]);
    }
}

void pqlab_rec_i64(int64_t v)
{
    if (v < 0) {
        put(' ');
        put('-');
        /* -(v+1)+1 avoids overflow for INT64_MIN */
        uint64_t m = (uint64_t)(-(v + 1)) + 1u;
        char b[20];
        int i = 0;
        do {
            b[i++] = (char)('0' + (int)(m % 10u));
            m /= 10u;
        } while (m != 0);
        while (i > 0) {
            put(b[--i]);
        }
    } else {
        pqlab_rec_u64((uint64_t)v);
    }
}

static void hex(const uint8_t *p, size_t n, const char *digits)
{
    put(' ');
    for (size_t i = 0; i < n; i++) {
        put(digits[p[i] >> 4]);
        put(digits[p[i] & 15u]);
    }
}

void pqlab_rec_hex(const uint8_t *p, size_t n)
{
    if (n == 0) {
        pqlab_rec_str("-");
    } else {
        hex(p, n, "0123456789abcdef");
    }
}

void pqlab_rec_hex_upper(const uint8_t *p, size_t n)
{
    if (n == 0) {
        pqlab_rec_str("00");
    } else {
        hex(p, n, "0123456789ABCDEF");
    }
}

void pqlab_rec_end(void)
{
    put('\n');
    flush();
    nrecords++;
}

unsigned long pqlab_rec_count(void)
{
    return nrecords;
}

void pqlab_info(const char *key, const char *value)
{
    pqlab_rec_begin("info");
    pqlab_rec_str(key);
    put(' ');
    if (*value == 0) {
        put('-');
    }
    for (; *value != 0; value++) {
        put(*value == ' ' ? '_' : *value);
    }
    pqlab_rec_end();
}

/* ---- interval marks ----
 * Out of line and not cloned, so that the call is visible to pqlab-sim (which
 * hooks the first instruction of each function); the bodies differ, so that
 * identical-code folding cannot merge the two. */

const char *volatile pqlab_mark_current;

#if defined(__clang__) /* clang has no noclone attribute */
#define PQLAB_NOINLINE_NOCLONE __attribute__((noinline))
#else
#define PQLAB_NOINLINE_NOCLONE __attribute__((noinline, noclone))
#endif

PQLAB_NOINLINE_NOCLONE void pqlab_mark_begin(const char *label)
{
    pqlab_mark_current = label;
}

PQLAB_NOINLINE_NOCLONE void pqlab_mark_end(const char *label)
{
    (void)label;
    pqlab_mark_current = 0;
}

/* ---- randomness ---- */

enum rng_mode { RNG_FIXED, RNG_SHAKE, RNG_DRBG, RNG_STREAM };
static enum rng_mode mode;
static uint64_t fixed_state;
static pqlab_keccak_state shake_state;
static pqlab_drbg_state *drbg_state;
static pqlab_keccak_state hqc_master, hqc_record;

/* splitmix64 (Steele, Lea, Flood, "Fast splittable pseudorandom number
 * generators", OOPSLA 2014): Weyl sequence plus a 64-bit finaliser. */
static uint64_t splitmix64(void)
{
    uint64_t z = (fixed_state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

void pqlab_rng_fixed(void)
{
    mode = RNG_FIXED;
    fixed_state = 0x70716c61622d7631u; /* "pqlab-v1" */
}

void pqlab_rng_shake(const uint8_t *seed, size_t seedlen)
{
    mode = RNG_SHAKE;
    pqlab_shake128_init(&shake_state);
    pqlab_shake128_absorb(&shake_state, seed, seedlen);
    pqlab_shake128_finalize(&shake_state);
}

void pqlab_rng_drbg(pqlab_drbg_state *st)
{
    mode = RNG_DRBG;
    drbg_state = st;
}

static uint8_t hqc_domain;

static void hqc_prng_init(pqlab_keccak_state *st, const uint8_t *seed, size_t len)
{
    pqlab_shake256_init(st);
    pqlab_shake256_absorb(st, seed, len);
    pqlab_shake256_absorb(st, &hqc_domain, 1);
    pqlab_shake256_finalize(st);
}

void pqlab_rng_hqc_init(const uint8_t *entropy, size_t len, uint8_t domain)
{
    hqc_domain = domain;
    hqc_prng_init(&hqc_master, entropy, len);
}

void pqlab_rng_hqc_record(uint8_t seed[48])
{
    pqlab_shake256_squeeze(seed, 48, &hqc_master);
    hqc_prng_init(&hqc_record, seed, 48);
    mode = RNG_STREAM;
}

uint32_t pqlab_rng_u32(void)
{
    return (uint32_t)(splitmix64() >> 32);
}

static int rng_secret;
static size_t rng_secret_bytes;

void pqlab_rng_secret(int on)
{
    rng_secret = on;
}

size_t pqlab_rng_secret_count(void)
{
    return rng_secret_bytes;
}

int pqlab_randombytes(uint8_t *out, size_t n)
{
    uint8_t *const start = out;
    const size_t len = n;
    switch (mode) {
    case RNG_SHAKE:
        pqlab_shake128_squeeze(out, n, &shake_state);
        break;
    case RNG_DRBG:
        pqlab_drbg_generate(drbg_state, out, n);
        break;
    case RNG_STREAM:
        pqlab_shake256_squeeze(out, n, &hqc_record);
        break;
    default:
        while (n > 0) {
            uint64_t r = splitmix64();
            for (int i = 0; i < 8 && n > 0; i++, n--) {
                *out++ = (uint8_t)(r >> (8 * i));
            }
        }
        break;
    }
    if (rng_secret) {
        PQLAB_SECRET(start, len);
        rng_secret_bytes += len;
    }
    return 0;
}

/* ---- canaries ---- */

#define MAX_GUARDS 16
static const uint8_t canary[PQLAB_CANARY_LEN] = {0xc3, 0x5a, 0x96, 0x3c, 0xa5, 0x0f, 0x69, 0xf0,
                                                 0x5c, 0xe1, 0x2d, 0x87, 0x1e, 0xb4, 0x78, 0x4b};
static struct {
    const char *name;
    uint8_t *buf;
    size_t size;
} guards[MAX_GUARDS];
static int nguards;

static void copy(uint8_t *d, const uint8_t *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        d[i] = s[i];
    }
}

void pqlab_guard_register(const char *name, uint8_t *buf, size_t size)
{
    if (nguards < MAX_GUARDS) {
        guards[nguards].name = name;
        guards[nguards].buf = buf;
        guards[nguards].size = size;
        nguards++;
    } else {
        pqlab_test_result("guard-table-full", 0);
    }
    copy(buf - PQLAB_CANARY_LEN, canary, PQLAB_CANARY_LEN);
    copy(buf + size, canary, PQLAB_CANARY_LEN);
}

int pqlab_guard_check_all(void)
{
    static char names[MAX_GUARDS][32];
    int ok_all = 1;
    for (int g = 0; g < nguards; g++) {
        uint8_t *b = guards[g].buf;
        int ok = pqlab_bytes_equal(b - PQLAB_CANARY_LEN, canary, PQLAB_CANARY_LEN) &&
                 pqlab_bytes_equal(b + guards[g].size, canary, PQLAB_CANARY_LEN);
        if (names[g][0] == 0) {
            const char *p = "canary-";
            size_t i = 0;
            for (; *p != 0; p++) {
                names[g][i++] = *p;
            }
            for (p = guards[g].name; *p != 0 && i < sizeof names[g] - 1; p++) {
                names[g][i++] = *p;
            }
            names[g][i] = 0;
        }
        pqlab_test_result(names[g], ok);
        if (!ok) {
            ok_all = 0;
            copy(b - PQLAB_CANARY_LEN, canary, PQLAB_CANARY_LEN);
            copy(b + guards[g].size, canary, PQLAB_CANARY_LEN);
        }
    }
    return ok_all;
}

/* ---- test results ---- */

#define MAX_TESTS 48
static struct {
    const char *name;
    unsigned long fails;
} tests[MAX_TESTS];
static int ntests;
static unsigned long lost_results;

static int streq(const char *a, const char *b)
{
    while (*a != 0 && *a == *b) {
        a++;
        b++;
    }
    return *a == *b;
}

void pqlab_test_result(const char *name, int ok)
{
    for (int i = 0; i < ntests; i++) {
        if (streq(tests[i].name, name)) {
            tests[i].fails += ok ? 0u : 1u;
            return;
        }
    }
    if (ntests < MAX_TESTS) {
        tests[ntests].name = name;
        tests[ntests].fails = ok ? 0u : 1u;
        ntests++;
    } else {
        lost_results++;
    }
}

int pqlab_test_report(void)
{
    int ok_all = lost_results == 0;
    for (int i = 0; i < ntests; i++) {
        pqlab_rec_begin("test");
        pqlab_rec_str(tests[i].name);
        pqlab_rec_str(tests[i].fails == 0 ? "ok" : "fail");
        pqlab_rec_end();
        ok_all &= tests[i].fails == 0;
    }
    if (lost_results != 0) {
        pqlab_rec_begin("test");
        pqlab_rec_str("harness-result-table");
        pqlab_rec_str("fail");
        pqlab_rec_end();
    }
    return ok_all;
}

/* ---- driver output ---- */

void pqlab_drv_ok(const char *tag, int n, const uint8_t *const *outs, const size_t *outlens)
{
    pqlab_rec_begin("drv");
    pqlab_rec_str(tag);
    pqlab_rec_str("ok");
    for (int i = 0; i < n; i++) {
        pqlab_rec_hex(outs[i], outlens[i]);
    }
    pqlab_rec_end();
}

void pqlab_drv_fail(const char *tag, int code)
{
    pqlab_rec_begin("drv");
    pqlab_rec_str(tag);
    pqlab_rec_str("fail");
    pqlab_rec_i64(code);
    pqlab_rec_end();
}

void pqlab_drv_answer(const char *tag, int r, int n, const uint8_t *const *outs, const size_t *outlens)
{
    if (r != 0) {
        pqlab_drv_fail(tag, r);
    } else {
        pqlab_drv_ok(tag, n, outs, outlens);
    }
}

int pqlab_drv_is(const char *cmd, const char *name)
{
    return strcmp(cmd, name) == 0;
}

int pqlab_bytes_equal(const uint8_t *a, const uint8_t *b, size_t n)
{
    uint8_t d = 0;
    for (size_t i = 0; i < n; i++) {
        d |= (uint8_t)(a[i] ^ b[i]);
    }
    return d == 0;
}
