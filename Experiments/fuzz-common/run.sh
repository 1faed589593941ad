#!/bin/sh
# Builds (once; REBUILD=1 to redo) the optimized (-O), sanitized reader modules and one harness, then fuzzes it with libFuzzer +
# AddressSanitizer: `sh run.sh NAME [seconds] [extra libFuzzer flags]`, NAME a folder
# Experiments/NAME-fuzz with FuzzTarget.swift and seeds/. Runs at nice 19, single process
# (the machine is shared). Log: Experiments/NAME-fuzz/build/fuzz.log.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
NAME=$1; SECONDS_TO_RUN=${2:-600}; shift; [ $# -gt 0 ] && shift
TARGET=$HERE/../$NAME-fuzz
MODULES_OUT=$HERE/build/fuzz
if [ ! -f "$MODULES_OUT/libAugment.a" ] || [ -n "${REBUILD:-}" ]; then
    OUT=$MODULES_OUT FLAGS="-O -g -enable-testing -sanitize=fuzzer,address" CFLAGS="-fsanitize=fuzzer-no-link,address" \
        nice -n 19 sh "$HERE/build-modules.sh"
fi
mkdir -p "$TARGET/build" "$TARGET/corpus"
nice -n 19 swiftc -O -g -parse-as-library -sanitize=fuzzer,address -I "$MODULES_OUT" -L "$MODULES_OUT" \
    -Xcc -DYAML_DECLARE_STATIC -I "$HERE/../../.build/checkouts/Yams/Sources/CYaml/include" \
    -I "$HERE/../../Sources/CPNG" -I "$HERE/../../Sources/CTurboJPEG" -I "$HERE/../../Sources/CFreeType" -Xcc -I/usr/include/freetype2 \
    -lAugment -lEvaluation -lData -lTypography -lPlotting -lImaging -lWeights -lTensor -lSupport -lYams -lCYaml -lpng16 -lturbojpeg -lfreetype \
    "$TARGET/FuzzTarget.swift" -o "$TARGET/build/$NAME-fuzz"
cp "$TARGET"/seeds/* "$TARGET/corpus/" 2>/dev/null || true
cd "$TARGET/build"
nice -n 19 "$TARGET/build/$NAME-fuzz" -max_total_time="$SECONDS_TO_RUN" -max_len=8192 -rss_limit_mb=2048 -timeout=10 \
    -print_final_stats=1 "$@" "$TARGET/corpus" > "$TARGET/build/fuzz.log" 2>&1 || true
grep -E "^#[0-9]+ +(DONE|pulse)|ERROR|SUMMARY|stat::|Test unit written" "$TARGET/build/fuzz.log" | tail -20
