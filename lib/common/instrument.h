/* SPDX-License-Identifier: MIT */
/* The instrumentation interface: facts an operation reports about itself for whoever
 * measures it (the harness prints them as "iterations sign <n>" records, docs/interfaces.md).
 * The library keeps none of it: it calls the hook, and the measuring side (harness/harness.c,
 * a test's shim) defines the hook and keeps the record. Without one, the weak default in
 * lib/common/instrument.c ignores the report. */
#ifndef PQLAB_INSTRUMENT_H
#define PQLAB_INSTRUMENT_H

#include "pqlab_config.h" /* an export's configuration (docs/export.md); empty in the tree */

/* called by a signing operation with its number of attempts (ML-DSA: iterations of the
 * rejection loop of FIPS 204 Algorithm 7), after the attempts are decided; a public count */
void pqlab_instr_sign_iterations(unsigned int n);

/* the measuring side's record: the n of the last pqlab_instr_sign_iterations call (0 before
 * any); defined by whoever defines the hook (the harness), not by the library */
unsigned int pqlab_instr_last_sign_iterations(void);

#endif
