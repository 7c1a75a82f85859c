/* SPDX-License-Identifier: MIT */
/* The custom Keccak instructions (lib/native/rv32acc/keccak_insn.h, docs/accel.md) on
 * cv32e40p-acc-rtl and pqlab-sim's cv32e40p-acc machine. Prints
 *   perm <state in> <state out>     (50 words each, hex, word 0 first): ksw x 50, kperm, klw x 50
 * for pseudo-random states, which tests/test_accel_keccak.py checks against its FIPS 202 model,
 * then "check <name> <0|1>" lines for the addressing rules checked here (1 = as documented),
 * then "#end ok". */
#include <stddef.h>
#include <stdint.h>

#include "keccak_insn.h"
#include "pqlab_hal.h"

static uint32_t rng = 0x19u;

static uint32_t next(void)
{
    /* xorshift32 (Marsaglia 2003): only a source of varied words */
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

static void puts_(const char *s)
{
    size_t n = 0;
    while (s[n] != 0) {
        n++;
    }
    pqlab_hal_send(s, n);
}

static void hex(const uint32_t *w)
{
    static const char digits[] = "0123456789abcdef";
    char buf[401];
    for (unsigned int i = 0; i < 50; i++) {
        for (unsigned int k = 0; k < 8; k++) {
            buf[8 * i + k] = digits[(w[i] >> (28 - 4 * k)) & 15u];
        }
    }
    buf[400] = 0;
    puts_(buf);
}

static void check(const char *name, int ok)
{
    puts_("check ");
    puts_(name);
    puts_(ok ? " 1\n" : " 0\n");
}

/* the offsets come through a volatile so that they are run-time register values */
static volatile uint32_t zero = 0;

static void write_all(const uint32_t *w)
{
    uint32_t p = zero;
    for (unsigned int i = 0; i < 50; i++, p += 4) {
        PQLAB_KSW(w[i], 0, p);
    }
}

static void read_all(uint32_t *w)
{
    uint32_t p = zero;
    for (unsigned int i = 0; i < 50; i++, p += 4) {
        PQLAB_KLW(w[i], 0, p);
    }
}

int main(void)
{
    uint32_t in[50], out[50], x[50];
    pqlab_hal_setup();
    for (unsigned int t = 0; t < 6; t++) {
        for (unsigned int i = 0; i < 50; i++) {
            in[i] = t == 0 ? 0u : t == 1 ? 0xffffffffu : next();
        }
        write_all(in);
        PQLAB_KPERM();
        read_all(out);
        puts_("perm ");
        hex(in);
        puts_(" ");
        hex(out);
        puts_("\n");
    }
    /* kxw: the state becomes in ^ x */
    for (unsigned int i = 0; i < 50; i++) {
        in[i] = next();
        x[i] = next();
    }
    write_all(in);
    {
        uint32_t p = zero;
        for (unsigned int i = 0; i < 50; i++, p += 4) {
            PQLAB_KXW(x[i], 0, p);
        }
    }
    read_all(out);
    int ok = 1;
    for (unsigned int i = 0; i < 50; i++) {
        ok &= out[i] == (in[i] ^ x[i]);
    }
    check("kxw", ok);
    /* the index is (rs1 + imm) bits 7..2: immediate and register add, the low bits and the
       bits above 7 are ignored */
    uint32_t v, b = zero;
    PQLAB_KLW(v, 12, b + 4);
    check("imm_plus_reg", v == out[4]);
    PQLAB_KLW(v, 3, b + 4);
    check("low_bits_ignored", v == out[1]);
    PQLAB_KLW(v, 0, b + 256 + 8);
    check("high_bits_ignored", v == out[2]);
    PQLAB_KLW(v, -4, b + 12);
    check("negative_imm", v == out[2]);
    /* words 50..63 read as 0 and ignore writes */
    PQLAB_KLW(v, 200, b);
    check("word50_reads_0", v == 0u);
    PQLAB_KSW(0x12345678u, 252, b);
    PQLAB_KXW(0x12345678u, 200, b);
    PQLAB_KLW(v, 252, b);
    read_all(x);
    ok = v == 0u;
    for (unsigned int i = 0; i < 50; i++) {
        ok &= x[i] == out[i];
    }
    check("beyond_ignored", ok);
    /* klw with rd = rs1, right after kperm (it waits) */
    {
        uint32_t r = 8u + zero;
        PQLAB_KPERM();
        __asm__ volatile(".insn i 0x0b, 2, %0, %0, 0" : "+r"(r));
        uint32_t s[50];
        read_all(s);
        check("rd_is_rs1", r == s[2]);
    }
    puts_("#end ok\n");
    pqlab_hal_exit(0);
    return 0;
}
