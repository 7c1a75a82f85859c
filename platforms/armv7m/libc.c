/* SPDX-License-Identifier: MIT */
/* C library support of the ARMv7-M bare-metal platforms for foreign code (pqm4, mupq and
 * PQClean folders): the streams and process calls picolibc leaves to the application.
 *
 * - stdout and stderr: each line written to them goes out as a protocol comment line
 *   ("#impl stdout: ..." / "#impl stderr: ..."), so a folder's printf can never be taken
 *   for a record; stdin is always at end of file.
 * - assert() and abort(): picolibc's assert prints its message on stderr and calls
 *   abort(), which raises SIGABRT through kill(getpid(), sig) and then calls _exit(). Here
 *   kill() ends the run at once with a "#fault abort" line carrying the last stderr line
 *   (the assertion's text) and exit code 3, like a processor fault: the host reports a
 *   crash with that cause, never a hang and never a pass.
 * - _exit() (exit() from foreign code; the harness itself returns from main) also ends the
 *   run as a fault, "#fault exit status=N": a program that stops in the middle of a test
 *   has not passed it.
 * Unused pieces are dropped by --gc-sections. */
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "pqlab_hal.h"

#define PQLAB_LINE_MAX 512

struct pqlab_line {
    char buf[PQLAB_LINE_MAX];
    size_t n;
};

static struct pqlab_line out_line, err_line;
static char last_err[PQLAB_LINE_MAX];
static size_t last_err_n;

static void send_str(const char *s)
{
    size_t n = 0;
    while (s[n] != 0) {
        n++;
    }
    pqlab_hal_send(s, n);
}

static void line_flush(struct pqlab_line *l, const char *tag)
{
    if (l->n == 0) {
        return;
    }
    send_str("#impl ");
    send_str(tag);
    pqlab_hal_send(l->buf, l->n);
    pqlab_hal_send("\n", 1);
    if (l == &err_line) {
        for (size_t i = 0; i < l->n; i++) {
            last_err[i] = l->buf[i];
        }
        last_err_n = l->n;
    }
    l->n = 0;
}

static int line_put(struct pqlab_line *l, const char *tag, char c)
{
    if (c == '\n') {
        line_flush(l, tag);
    } else if (c != '\r') {
        if (l->n == sizeof l->buf) {
            line_flush(l, tag); /* a long line continues on the next comment line */
        }
        l->buf[l->n++] = c;
    }
    return (unsigned char)c;
}

static int put_out(char c, FILE *f)
{
    (void)f;
    return line_put(&out_line, "stdout: ", c);
}

static int put_err(char c, FILE *f)
{
    (void)f;
    return line_put(&err_line, "stderr: ", c);
}

static int flush_out(FILE *f)
{
    (void)f;
    line_flush(&out_line, "stdout: ");
    return 0;
}

static int flush_err(FILE *f)
{
    (void)f;
    line_flush(&err_line, "stderr: ");
    return 0;
}

static int get_none(FILE *f)
{
    (void)f;
    return _FDEV_EOF;
}

static FILE out_stream = FDEV_SETUP_STREAM(put_out, NULL, flush_out, _FDEV_SETUP_WRITE);
static FILE err_stream = FDEV_SETUP_STREAM(put_err, NULL, flush_err, _FDEV_SETUP_WRITE);
static FILE in_stream = FDEV_SETUP_STREAM(NULL, get_none, NULL, _FDEV_SETUP_READ);

FILE *const stdout = &out_stream;
FILE *const stderr = &err_stream;
FILE *const stdin = &in_stream;

static void put_decimal(int v)
{
    char b[12];
    size_t i = sizeof b;
    unsigned int u = v < 0 ? 0u - (unsigned int)v : (unsigned int)v;
    do {
        b[--i] = (char)('0' + u % 10u);
        u /= 10u;
    } while (u != 0 && i > 1);
    if (v < 0) {
        b[--i] = '-';
    }
    pqlab_hal_send(b + i, sizeof b - i);
}

pid_t getpid(void)
{
    return 1;
}

/* the only process is this one: any signal sent to it ends the run as a fault */
int kill(pid_t pid, int sig)
{
    (void)pid;
    line_flush(&out_line, "stdout: ");
    line_flush(&err_line, "stderr: ");
    send_str("\n#fault ");
    send_str(sig == SIGABRT ? "abort" : "signal");
    send_str(" sig=");
    put_decimal(sig);
    if (last_err_n != 0) {
        send_str(" stderr: ");
        pqlab_hal_send(last_err, last_err_n);
    }
    send_str("\n");
    pqlab_hal_exit(3);
}

void _exit(int status)
{
    line_flush(&out_line, "stdout: ");
    line_flush(&err_line, "stderr: ");
    send_str("\n#fault exit status=");
    put_decimal(status);
    send_str("\n");
    pqlab_hal_exit(3);
}
