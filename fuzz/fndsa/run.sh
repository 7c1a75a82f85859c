#!/bin/sh
# SPDX-License-Identifier: MIT
# Bounded fuzzing of the FN-DSA decoders (run by hand): standalone mutation loop
# under ASan+UBSan for both degrees, then libFuzzer for SECONDS when clang is present.
# usage: fuzz/fndsa/run.sh [iterations] [seconds]
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
IT=${1:-20000}
SECS=${2:-60}
OUT=${TMPDIR:-/tmp}/pqlab-fuzz-fndsa
mkdir -p "$OUT"
SRC="$ROOT/lib/fndsa/api.c $ROOT/lib/fndsa/codec.c $ROOT/lib/fndsa/fft.c $ROOT/lib/fndsa/fpr_emu.c $ROOT/lib/fndsa/keygen.c $ROOT/lib/fndsa/modq.c $ROOT/lib/fndsa/ntru.c $ROOT/lib/fndsa/sampler.c $ROOT/lib/fndsa/sign.c $ROOT/lib/common/fips202.c"
for LOGN in 9 10; do
  gcc -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -std=c11 -Wall -Wextra -Werror \
    -DPQLAB_FNDSA_LOGN=$LOGN -DPQLAB_NS=fz_ -I"$ROOT/lib/common" -I"$ROOT/lib/fndsa" \
    "$ROOT/fuzz/fndsa/fuzz_decode.c" $SRC -o "$OUT/fuzz_decode_$LOGN"
  "$OUT/fuzz_decode_$LOGN" "$IT"
done
if command -v clang-14 >/dev/null 2>&1; then
  clang-14 -O1 -g -fsanitize=fuzzer,address,undefined -DFNDSA_LIBFUZZER -DPQLAB_FNDSA_LOGN=9 \
    -DPQLAB_NS=fz_ -I"$ROOT/lib/common" -I"$ROOT/lib/fndsa" "$ROOT/fuzz/fndsa/fuzz_decode.c" $SRC \
    -o "$OUT/libfuzz_decode_9" && "$OUT/libfuzz_decode_9" -max_total_time="$SECS" -max_len=2048 || exit 1
fi
