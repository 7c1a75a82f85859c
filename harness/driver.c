/* SPDX-License-Identifier: MIT */
/* driver: answers requests for the internal/ACVP functions of an implementation.
 * Input (pqlab_hal_read: stdin, or the file pqlab.in through semihosting), one
 * request per line: "<tag> <command> <hex-or-dash>...", "-" being the empty
 * string. The arguments are hex-decoded into static buffers of
 * PQLAB_DRIVER_MAXARG bytes (default 16 KiB) each, at most PQLAB_DRIVER_MAXARGS
 * (8) of them, and handed to pqlab_driver_dispatch() (harness/driver_<family>.c),
 * which answers with pqlab_drv_ok / pqlab_drv_fail. The line is read as a stream,
 * so it is never held whole.
 * Errors of the driver itself are answered "drv <tag> fail <code>" and make the
 * run end with "#end fail":
 *   -1000 unknown command (dispatch returned nonzero)
 *   -1001 malformed request (missing command, bad hex, tag or command too long)
 *   -1002 too many arguments or an argument longer than PQLAB_DRIVER_MAXARG
 *   -1003 the dispatcher printed no answer
 * An input that cannot be read at all gives "info driver-input unreadable" and
 * "#end fail". */
#include <stddef.h>
#include <stdint.h>

#include "harness.h"

#ifndef PQLAB_DRIVER_MAXARG
#define PQLAB_DRIVER_MAXARG 16384
#endif
#ifndef PQLAB_DRIVER_MAXARGS
#define PQLAB_DRIVER_MAXARGS 8
#endif
#define NAME_MAX_ 64

#define DRV_ERR_UNKNOWN (-1000)
#define DRV_ERR_MALFORMED (-1001)
#define DRV_ERR_TOOBIG (-1002)
#define DRV_ERR_NOANSWER (-1003)

static uint8_t args[PQLAB_DRIVER_MAXARGS][PQLAB_DRIVER_MAXARG];
static size_t arglen[PQLAB_DRIVER_MAXARGS];
static char tag[NAME_MAX_], cmd[NAME_MAX_];

/* ---- buffered input ---- */
static uint8_t inbuf[512];
static long inlen, inpos;
static int in_error, in_eof;

static int next_char(void)
{
    if (inpos == inlen) {
        if (in_eof) {
            return -1;
        }
        inlen = pqlab_hal_read(inbuf, sizeof inbuf);
        inpos = 0;
        if (inlen <= 0) {
            in_error |= inlen < 0;
            in_eof = 1;
            inlen = 0;
            return -1;
        }
    }
    return inbuf[inpos++];
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

/* Reads one request line. Returns -1 at the end of the input, 0 for an empty
 * line, else the number of fields read (tag, command, arguments) and in *err
 * the first error code of the line (0 if none). */
static int read_request(int *argc, int *err)
{
    int c = next_char();
    int field = 0; /* index of the field being read */
    int in_field = 0;
    int nib = -1; /* pending high nibble of the current hex argument */
    int dash = 0; /* the current argument is "-" */
    size_t len = 0;
    *err = 0;
    *argc = 0;
    tag[0] = cmd[0] = 0;
    if (c < 0) {
        return -1;
    }
    for (;; c = next_char()) {
        if (c < 0 || c == '\n' || c == ' ' || c == '\t' || c == '\r') {
            if (in_field) {
                if (field == 0) {
                    tag[len] = 0;
                } else if (field == 1) {
                    cmd[len] = 0;
                } else if (field - 2 < PQLAB_DRIVER_MAXARGS) {
                    if (nib >= 0) {
                        *err = *err ? *err : DRV_ERR_MALFORMED; /* odd number of digits */
                    }
                    arglen[field - 2] = len;
                }
                field++;
                in_field = 0;
            }
            if (c < 0 || c == '\n') {
                break;
            }
            continue;
        }
        if (!in_field) {
            in_field = 1;
            len = 0;
            nib = -1;
            dash = 0;
            if (field - 2 >= PQLAB_DRIVER_MAXARGS) {
                *err = *err ? *err : DRV_ERR_TOOBIG;
            }
        }
        if (field < 2) {
            char *dst = field == 0 ? tag : cmd;
            if (len + 1 < NAME_MAX_) {
                dst[len++] = (char)c;
            } else {
                *err = *err ? *err : DRV_ERR_MALFORMED;
            }
        } else if (field - 2 < PQLAB_DRIVER_MAXARGS) {
            if (c == '-' && len == 0 && nib < 0 && !dash) {
                dash = 1; /* "-": the empty string */
                continue;
            }
            int v = hexval(c);
            if (v < 0 || dash) {
                *err = *err ? *err : DRV_ERR_MALFORMED;
            } else if (nib < 0) {
                nib = v;
            } else if (len < PQLAB_DRIVER_MAXARG) {
                args[field - 2][len++] = (uint8_t)(nib << 4 | v);
                nib = -1;
            } else {
                *err = *err ? *err : DRV_ERR_TOOBIG;
                nib = -1;
            }
        }
    }
    if (field == 0) {
        return 0;
    }
    if (field < 2) {
        *err = *err ? *err : DRV_ERR_MALFORMED;
    }
    int na = field - 2;
    *argc = na < 0 ? 0 : na > PQLAB_DRIVER_MAXARGS ? PQLAB_DRIVER_MAXARGS : na;
    return field;
}

int main(void)
{
    const uint8_t *argv[PQLAB_DRIVER_MAXARGS];
    for (int i = 0; i < PQLAB_DRIVER_MAXARGS; i++) {
        argv[i] = args[i];
    }
    pqlab_harness_begin("driver");
    int ok = 1, argc, err, n;
    while ((n = read_request(&argc, &err)) >= 0) {
        if (n == 0) {
            continue;
        }
        const char *t = tag[0] != 0 ? tag : "-";
        if (err != 0) {
            pqlab_drv_fail(t, err);
            ok = 0;
            continue;
        }
        unsigned long before = pqlab_rec_count();
        pqlab_rng_fixed(); /* every request sees the same randomness */
        if (pqlab_driver_dispatch(t, cmd, argc, argv, arglen) != 0) {
            pqlab_drv_fail(t, DRV_ERR_UNKNOWN);
            ok = 0;
        } else if (pqlab_rec_count() == before) {
            pqlab_drv_fail(t, DRV_ERR_NOANSWER);
            ok = 0;
        }
    }
    if (in_error) {
        pqlab_info("driver-input", "unreadable");
        ok = 0;
    }
    pqlab_harness_end(ok);
}
