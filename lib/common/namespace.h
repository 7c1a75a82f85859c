/* SPDX-License-Identifier: MIT */
/* Symbol namespacing for pqlab implementations.
 * The build passes -DPQLAB_NS=<prefix> (from the implementation's pqlab.toml), e.g.
 * -DPQLAB_NS=pqlab_mlkem768_ref_; PQLAB_NAMESPACE(keypair) then names
 * pqlab_mlkem768_ref_keypair. Every exported symbol of an implementation goes
 * through this macro so that several implementations can be linked together. */
#ifndef PQLAB_NAMESPACE_H
#define PQLAB_NAMESPACE_H

#include "pqlab_config.h" /* an export's configuration (docs/export.md); empty in the tree */

#ifndef PQLAB_NS
#error "PQLAB_NS must be defined by the build (see the implementation's pqlab.toml)"
#endif

#define PQLAB_CAT_(a, b) a##b
#define PQLAB_CAT(a, b) PQLAB_CAT_(a, b)
#define PQLAB_NAMESPACE(s) PQLAB_CAT(PQLAB_NS, s)

#endif
