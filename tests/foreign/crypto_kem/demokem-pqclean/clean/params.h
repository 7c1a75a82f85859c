/* SPDX-License-Identifier: MIT */
#ifndef PQCLEAN_DEMOKEMPQCLEAN_CLEAN_PARAMS_H
#define PQCLEAN_DEMOKEMPQCLEAN_CLEAN_PARAMS_H

/* set by this folder's config.mk: proves that the build applies its CFLAGS */
#ifndef DEMOKEM_TAGBYTES
#error "DEMOKEM_TAGBYTES must come from config.mk"
#endif

#define DEMOKEM_MSGBYTES 32
#define DEMOKEM_SEEDBYTES 32

#endif
