/* SPDX-License-Identifier: MIT */
/* The serial transport of the bare-metal HAL (docs/protocol.md): program output, driver
 * input and the exit code travel as framed, checksummed lines over a plain UART, so a
 * board without a debugger's semihosting runs every harness program. The UART itself is
 * a platform file (uart_cmsdk.c, a board's uart_*.c) providing pqlab_serial_putc,
 * pqlab_serial_getc and pqlab_armv7m_uart_init.
 *
 * Frame: '!' SEQ(4 hex) TYPE(1 char) CRC(8 hex) PAYLOAD '\n'. The payload is escaped so
 * that '!' and '\n' appear on the wire only as frame delimiters: bytes below 0x20, above
 * 0x7e, '\\' and '!' are sent as '\\' and two hex digits. The CRC-32 (IEEE 802.3, the
 * reflected polynomial 0xEDB88320, initial value and final xor 0xFFFFFFFF) covers the
 * wire bytes of SEQ, TYPE and PAYLOAD. */
#include <stddef.h>
#include <stdint.h>

#include "pqlab_hal.h"

void pqlab_serial_putc(uint8_t c);
int pqlab_serial_getc(void); /* a received byte, or -1 when none is waiting */
void pqlab_serial_start(void);

#define PROTOCOL "pqlab-serial 1"
#define DATA_MAX 128u /* raw bytes per data frame */
/* polls of the receiver before a boot frame or a read request is sent again; on a board
 * at 115200 baud a byte takes 87 us, so this is well above a frame's round trip */
#ifndef PQLAB_SERIAL_POLLS
#define PQLAB_SERIAL_POLLS 2000000u
#endif
#define READ_TRIES 16  /* read requests for one block before the input counts as unreadable */
#define INPUT_MAX 192u /* raw bytes asked for per input frame */

static uint16_t seq;
static uint8_t out[DATA_MAX];
static size_t out_len;
static int started;

/* ---- CRC-32, four bits at a time (16-entry table) ---- */
static const uint32_t crc_nibble[16] = {
    0x00000000u, 0x1db71064u, 0x3b6e20c8u, 0x26d930acu, 0x76dc4190u, 0x6b6b51f4u, 0x4db26158u, 0x5005713cu,
    0xedb88320u, 0xf00f9344u, 0xd6d6a3e8u, 0xcb61b38cu, 0x9b64c2b0u, 0x86d3d2d4u, 0xa00ae278u, 0xbdbdf21cu,
};

static uint32_t crc_byte(uint32_t crc, uint8_t b)
{
    crc ^= b;
    crc = (crc >> 4) ^ crc_nibble[crc & 15u];
    return (crc >> 4) ^ crc_nibble[crc & 15u];
}

static const char hexdig[] = "0123456789abcdef";

/* ---- sending ---- */
static uint32_t tx_crc;

static void tx(uint8_t c)
{
    tx_crc = crc_byte(tx_crc, c);
    pqlab_serial_putc(c);
}

/* The CRC comes before the payload on the wire but covers it, so a frame is built in two
 * passes over the same bytes: one for the CRC, one to send. */
static uint32_t wire_crc(uint16_t s, char type, const uint8_t *p, size_t n)
{
    uint32_t c = 0xffffffffu;
    for (int i = 12; i >= 0; i -= 4) {
        c = crc_byte(c, (uint8_t)hexdig[(s >> i) & 15u]);
    }
    c = crc_byte(c, (uint8_t)type);
    for (size_t i = 0; i < n; i++) {
        uint8_t b = p[i];
        if (b < 0x20u || b > 0x7eu || b == '\\' || b == '!') {
            c = crc_byte(c, '\\');
            c = crc_byte(c, (uint8_t)hexdig[b >> 4]);
            c = crc_byte(c, (uint8_t)hexdig[b & 15u]);
        } else {
            c = crc_byte(c, b);
        }
    }
    return c ^ 0xffffffffu;
}

static void send_frame(uint16_t s, char type, const uint8_t *p, size_t n)
{
    uint32_t crc = wire_crc(s, type, p, n);
    pqlab_serial_putc('!');
    for (int i = 12; i >= 0; i -= 4) {
        tx((uint8_t)hexdig[(s >> i) & 15u]);
    }
    tx((uint8_t)type);
    for (int i = 28; i >= 0; i -= 4) {
        pqlab_serial_putc((uint8_t)hexdig[(crc >> i) & 15u]);
    }
    for (size_t i = 0; i < n; i++) {
        uint8_t b = p[i];
        if (b < 0x20u || b > 0x7eu || b == '\\' || b == '!') {
            tx('\\');
            tx((uint8_t)hexdig[b >> 4]);
            tx((uint8_t)hexdig[b & 15u]);
        } else {
            tx(b);
        }
    }
    pqlab_serial_putc('\n');
}

static void flush(void)
{
    if (out_len > 0) {
        send_frame(++seq, 'D', out, out_len);
        out_len = 0;
    }
}

void pqlab_hal_send(const char *buf, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        out[out_len++] = (uint8_t)buf[i];
        if (out_len == DATA_MAX || buf[i] == '\n') {
            flush();
        }
    }
}

/* ---- receiving: one frame from the host, checked ---- */
static int hexval(int c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Waits up to PQLAB_SERIAL_POLLS polls for a frame. Returns its payload length (decoded
 * into buf, at most cap bytes) with *s and *type set; -1 when nothing valid arrived in
 * time (no frame, a bad CRC, a malformed or too long frame: the caller asks again). */
static long recv_frame(uint16_t *s, char *type, uint8_t *buf, size_t cap)
{
    uint32_t polls = 0;
    int c;
    for (;;) { /* skip to the start of a frame */
        c = pqlab_serial_getc();
        if (c == '!') {
            break;
        }
        if (c < 0 && ++polls >= PQLAB_SERIAL_POLLS) {
            return -1;
        }
    }
    uint32_t crc = 0xffffffffu, want = 0;
    uint16_t sv = 0;
    size_t n = 0;
    int pos = 0, esc = 0, hi = 0;
    char t = 0;
    for (;;) {
        c = pqlab_serial_getc();
        if (c < 0) {
            if (++polls >= PQLAB_SERIAL_POLLS) {
                return -1;
            }
            continue;
        }
        if (c == '!' || c == '\n') {
            if (c == '!' || pos < 13 || esc != 0 || (crc ^ 0xffffffffu) != want) {
                return -1;
            }
            *s = sv;
            *type = t;
            return (long)n;
        }
        if (pos < 4) {
            int v = hexval(c);
            if (v < 0) {
                return -1;
            }
            sv = (uint16_t)((sv << 4) | (uint16_t)v);
            crc = crc_byte(crc, (uint8_t)c);
        } else if (pos == 4) {
            t = (char)c;
            crc = crc_byte(crc, (uint8_t)c);
        } else if (pos < 13) {
            int v = hexval(c);
            if (v < 0) {
                return -1;
            }
            want = (want << 4) | (uint32_t)v;
        } else {
            crc = crc_byte(crc, (uint8_t)c);
            if (esc == 0 && c == '\\') {
                esc = 1;
            } else if (esc != 0) {
                int v = hexval(c);
                if (v < 0) {
                    return -1;
                }
                if (esc == 1) {
                    hi = v;
                    esc = 2;
                } else {
                    if (n == cap) {
                        return -1;
                    }
                    buf[n++] = (uint8_t)(hi << 4 | v);
                    esc = 0;
                }
            } else {
                if (n == cap) {
                    return -1;
                }
                buf[n++] = (uint8_t)c;
            }
        }
        pos++;
    }
}

/* Boot frame until the host answers 'G': the host may open the port after the target
 * started (a board after reset, QEMU's pty before anyone listens). */
void pqlab_serial_start(void)
{
    if (started) {
        return;
    }
    for (;;) {
        send_frame(0, 'B', (const uint8_t *)PROTOCOL, sizeof PROTOCOL - 1);
        uint16_t s;
        char t;
        uint8_t b[8];
        if (recv_frame(&s, &t, b, sizeof b) >= 0 && t == 'G') {
            break;
        }
    }
    started = 1;
}

/* ---- driver input ---- */
static uint32_t in_offset;
static int in_failed;

long pqlab_hal_read(uint8_t *buf, size_t n)
{
    if (in_failed) {
        return -1;
    }
    if (n == 0) {
        return 0;
    }
    if (n > INPUT_MAX) {
        n = INPUT_MAX;
    }
    flush();
    for (int tries = 0; tries < READ_TRIES; tries++) {
        /* request: offset and length in hex, "oooooooo llll" */
        uint8_t req[13];
        for (int i = 0; i < 8; i++) {
            req[i] = (uint8_t)hexdig[(in_offset >> (28 - 4 * i)) & 15u];
        }
        req[8] = ' ';
        for (int i = 0; i < 4; i++) {
            req[9 + i] = (uint8_t)hexdig[(n >> (12 - 4 * i)) & 15u];
        }
        uint16_t mine = ++seq;
        send_frame(mine, 'R', req, sizeof req);
        for (;;) {
            uint16_t s;
            char t;
            long got = recv_frame(&s, &t, buf, n);
            if (got < 0) {
                break; /* nothing (valid) in time: ask again */
            }
            if (t == 'I' && s == mine) {
                in_offset += (uint32_t)got;
                return got;
            }
            /* a stale answer (to an earlier request) or a repeated 'G': skip it */
        }
    }
    in_failed = 1;
    return -1;
}

void pqlab_hal_exit(int code)
{
    char b[12];
    size_t n = 0;
    uint32_t v = code < 0 ? (uint32_t)(-(int64_t)code) : (uint32_t)code;
    char d[10];
    size_t k = 0;
    do {
        d[k++] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v != 0);
    if (code < 0) {
        b[n++] = '-';
    }
    while (k > 0) {
        b[n++] = d[--k];
    }
    flush();
    send_frame(++seq, 'X', (const uint8_t *)b, n);
    /* nothing more to do: the host resets or stops the target */
    for (;;) {
        __asm__ volatile("wfi");
    }
}
