# extra flags for this implementation (read by the build like a pqm4 config.mk)
CFLAGS += -DDEMOKEM_TAGBYTES=16
