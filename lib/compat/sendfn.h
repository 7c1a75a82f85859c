/* SPDX-License-Identifier: MIT */
/* Compat: pqm4's sendfn.h helpers: print "label: value" lines through hal_send_str. */
#ifndef SENDFN_H
#define SENDFN_H

#include <stddef.h>

#include "hal.h"

/* decimal digits of v into the end of buf; returns the first digit */
static inline char *sendfn_utoa_(char *end, unsigned long long v)
{
    *--end = '\0';
    do {
        *--end = (char)('0' + (int)(v % 10u)); /* v is a public count, not a secret */
        v /= 10u;
    } while (v != 0);
    return end;
}

static inline void sendfn_send_(const char *label, unsigned long long value)
{
    char out[128];
    char digits[24];
    const char *d = sendfn_utoa_(digits + sizeof digits, value);
    size_t n = 0;
    while (*label != '\0' && n < sizeof out - sizeof digits - 3) {
        out[n++] = *label++;
    }
    out[n++] = ':';
    out[n++] = ' ';
    while (*d != '\0') {
        out[n++] = *d++;
    }
    out[n] = '\0';
    hal_send_str(out);
}

static inline void send_unsigned(const char *label, unsigned int value)
{
    sendfn_send_(label, value);
}

static inline void send_unsignedll(const char *label, unsigned long long value)
{
    sendfn_send_(label, value);
}

#endif
