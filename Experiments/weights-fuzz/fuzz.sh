#!/bin/sh
# Fuzzes the .slw and safetensors readers with libFuzzer + AddressSanitizer for $1 seconds
# (default 180), single process, seeded with the committed fixtures. Log: build/fuzz.log.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
SECONDS_TO_RUN=${1:-180}
OUT=$HERE/build/fuzz FLAGS="-Onone -g -enable-testing -sanitize=fuzzer,address" CFLAGS="-fsanitize=fuzzer-no-link,address" sh "$HERE/build-modules.sh"
swiftc -Onone -g -parse-as-library -sanitize=fuzzer,address -I "$HERE/build/fuzz" -L "$HERE/build/fuzz" \
    -lWeights -lTensor -lSupport -lYams -lCYaml "$HERE/FuzzTarget.swift" -o "$HERE/build/fuzz/weights-fuzz"
mkdir -p "$HERE/corpus"
cp "$ROOT"/Tests/WeightsTests/Fixtures/*.slw "$ROOT"/Tests/WeightsTests/Fixtures/*.safetensors "$HERE/corpus/"
cd "$HERE/build"
"$HERE/build/fuzz/weights-fuzz" -max_total_time="$SECONDS_TO_RUN" -max_len=8192 -rss_limit_mb=2048 \
    -print_final_stats=1 "$HERE/corpus" 2>&1 | tee "$HERE/build/fuzz.log" | grep -E "^#[0-9]+ +(DONE|pulse)|ERROR|SUMMARY|stat::" || true
