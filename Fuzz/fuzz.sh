#!/bin/sh
# Builds every harness (SwiftPM, release, `--sanitize=fuzzer`, `-enable-testing` so harnesses reach
# internal validators; overflow checks stay on as in every ScreenLab module outside the kernels)
# and fuzzes one: `sh Fuzz/fuzz.sh NAME [runs] [seconds] [libFuzzer flags...]`, NAME one of
# yaml coco yolo image-header weights resume-state registry. Single process at nice 19 (the
# machine is shared). The corpus starts from NAME/seeds/ and the repository files NAME/seeds.txt
# lists; logs, corpora and findings go to Fuzz/build/.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
NAME=${1:-}; RUNS=${2:-1000000}; SECONDS_TO_RUN=${3:-7200}
[ $# -gt 0 ] && shift; [ $# -gt 0 ] && shift; [ $# -gt 0 ] && shift
MAX_LEN=8192
case $NAME in
    yaml) HARNESS=YAMLFuzz ;;
    coco) HARNESS=COCOFuzz ;;
    yolo) HARNESS=YOLOFuzz ;;
    image-header) HARNESS=ImageHeaderFuzz ;;
    weights) HARNESS=WeightsFuzz ;;
    resume-state) HARNESS=ResumeStateFuzz ;;
    registry) HARNESS=RegistryFuzz; MAX_LEN=512 ;;
    *) echo "usage: sh Fuzz/fuzz.sh yaml|coco|yolo|image-header|weights|resume-state|registry [runs] [seconds] [libFuzzer flags]"; exit 2 ;;
esac
cd "$HERE"
mkdir -p "build/corpus-$NAME"
# SwiftPM kept planning from its last build plan when a file was added to a target of the
# root package (a path dependency here): the plan is remade at every build (seconds).
rm -f .build/release.yaml
nice -n 19 swift build -c release --sanitize=fuzzer -Xswiftc -enable-testing --product "$HARNESS" > build/build.log 2>&1 \
    || { tail -30 build/build.log; exit 1; }
[ -d "$NAME/seeds" ] && cp "$NAME"/seeds/* "build/corpus-$NAME/"
if [ -f "$NAME/seeds.txt" ]; then
    grep -v '^#' "$NAME/seeds.txt" | while read -r file; do [ -n "$file" ] && cp "$ROOT/$file" "build/corpus-$NAME/"; done
fi
# The registry harness reads its registry itself; its inputs are edit lists, seeded with one.
[ "$NAME" = registry ] && printf '\000\001\002\003\004\005\006\007' > build/corpus-registry/edits-seed
cd build
nice -n 19 "$HERE/.build/release/$HARNESS" -runs="$RUNS" -max_total_time="$SECONDS_TO_RUN" -max_len=$MAX_LEN -rss_limit_mb=2048 \
    -timeout=10 -print_final_stats=1 "$@" "corpus-$NAME" > "$NAME.log" 2>&1 || true
grep -E "^#[0-9]+ +(DONE|pulse)|ERROR|SUMMARY|stat::|Test unit written" "$NAME.log" | tail -12
