#!/bin/sh
# SPDX-License-Identifier: MIT
# Builds the ML-DSA decoder fuzzers into build/fuzz/mldsa/: with clang, libFuzzer binaries
# (fuzz_mldsaNN); always, standalone mutation-loop binaries with gcc (fuzz_mldsaNN_loop).
# Both with AddressSanitizer + UBSan. Run by hand for a bounded time, e.g.
#   fuzz/mldsa/build.sh && build/fuzz/mldsa/fuzz_mldsa44 -max_total_time=600 -max_len=4700
#   build/fuzz/mldsa/fuzz_mldsa44_loop 2000000 1
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT="$ROOT/build/fuzz/mldsa"
mkdir -p "$OUT"
SRCS="$ROOT/lib/mldsa/ntt.c $ROOT/lib/mldsa/rounding.c $ROOT/lib/mldsa/sample.c $ROOT/lib/mldsa/pack.c
      $ROOT/lib/mldsa/sign.c $ROOT/lib/mldsa/prehash.c $ROOT/lib/common/fips202.c
      $ROOT/lib/common/fips202x4.c $ROOT/lib/common/sha2.c"
SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g -O1"
for M in 44 65 87; do
    DEFS="-DPQLAB_MLDSA_MODE=$M -DPQLAB_NS=pqlab_mldsa${M}_ref_ -I$ROOT/lib/common -I$ROOT/lib/mldsa"
    # shellcheck disable=SC2086
    gcc -std=c11 -Wall -Wextra -Werror $SAN $DEFS -DPQLAB_FUZZ_STANDALONE $SRCS \
        "$ROOT/fuzz/mldsa/fuzz_mldsa.c" -o "$OUT/fuzz_mldsa${M}_loop"
    CLANG=$(command -v clang || command -v clang-14 || true)
    if [ -n "$CLANG" ]; then
        # shellcheck disable=SC2086
        "$CLANG" -std=c11 -Wall -Wextra -Werror -fsanitize=fuzzer,address,undefined -g -O1 $DEFS $SRCS \
            "$ROOT/fuzz/mldsa/fuzz_mldsa.c" -o "$OUT/fuzz_mldsa${M}"
    fi
done
echo "built in $OUT"
