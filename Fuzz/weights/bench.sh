#!/bin/sh
# Load time of a weights file in an optimized build of the reader (no sanitizer, its own build
# folder): `sh Fuzz/weights/bench.sh FILE.slw`.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
FILE=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$HERE/.."
swift build -c release --product WeightsLoadBench --scratch-path .build-bench > /dev/null
.build-bench/release/WeightsLoadBench "$FILE"
