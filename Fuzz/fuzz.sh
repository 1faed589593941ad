#!/bin/sh
# Builds the two harnesses (SwiftPM, release, `--sanitize=fuzzer`, `-enable-testing` so they
# reach the validators) and fuzzes one: `sh fuzz.sh resume-state|registry [runs] [seconds]`.
# Single process at nice 19 (the machine is shared with training). Logs and corpora in build/.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
NAME=$1; RUNS=${2:-1000000}; SECONDS_TO_RUN=${3:-7200}
case $NAME in
    resume-state) HARNESS=ResumeStateFuzz; MAX_LEN=8192 ;;
    registry) HARNESS=RegistryFuzz; MAX_LEN=512 ;;
    *) echo "usage: sh fuzz.sh resume-state|registry [runs] [seconds]"; exit 2 ;;
esac
cd "$HERE"
mkdir -p build/corpus-$NAME
nice -n 19 swift build -c release --sanitize=fuzzer -Xswiftc -enable-testing > build/build.log 2>&1 || { tail -30 build/build.log; exit 1; }
cp seeds-$NAME/* build/corpus-$NAME/ 2>/dev/null || true
# The registry harness reads its seed registry itself; its inputs are edit lists, seeded with one.
[ "$NAME" = registry ] && printf '\000\001\002\003\004\005\006\007' > build/corpus-registry/edits-seed
cd build
nice -n 19 "$HERE/.build/release/$HARNESS" -runs="$RUNS" -max_total_time="$SECONDS_TO_RUN" -max_len=$MAX_LEN -rss_limit_mb=2048 \
    -timeout=10 -print_final_stats=1 "corpus-$NAME" > "$NAME.log" 2>&1 || true
grep -E "^#[0-9]+ +(DONE|pulse)|ERROR|SUMMARY|stat::|Test unit written" "$NAME.log" | tail -12
