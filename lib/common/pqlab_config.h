/* SPDX-License-Identifier: MIT */
/* Build configuration of the pqlab library, included first by every header of lib/common, by
 * namespace.h and lib/native/api.h, and by the native backends' assembly.
 *
 * In the tree this header is empty on purpose: pqlab's own build (pqlab/build.py) passes the
 * configuration on the command line (the backend's PQLAB_NATIVE_META_HEADER, PQLAB_NS, ...).
 * An export (`pqlab export`, docs/export.md) ships its own pqlab_config.h in its top folder in
 * place of this one, holding the namespace prefix, the randombytes function, the hash provider
 * and the debug bound checks; that header may only hold preprocessor definitions (assembly
 * includes it too). */
#ifndef PQLAB_CONFIG_TREE_H
#define PQLAB_CONFIG_TREE_H
#endif
