#!/bin/sh
# Builds CYaml + Yams, Support (with its JSON parser and YAML entry point), Tensor and Weights as
# static libraries into $OUT (default build/), with extra swiftc flags in $FLAGS (e.g. -O, or the
# sanitizers). Used by fuzz.sh and bench.sh; run from anywhere. (Shared with the other fuzzers:
# ../fuzz-common/build-modules.sh.)
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$HERE/build} MODULES="Yams Support Tensor Weights" sh "$HERE/../fuzz-common/build-modules.sh"
