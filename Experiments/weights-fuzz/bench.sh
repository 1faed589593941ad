#!/bin/sh
# Load time of a weights file in an optimized (-O) build of the reader.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$HERE/build/bench FLAGS=-O sh "$HERE/build-modules.sh"
swiftc -O -parse-as-library -I "$HERE/build/bench" -L "$HERE/build/bench" -lWeights -lTensor -lSupport -lYams -lCYaml \
    "$HERE/bench.swift" -o "$HERE/build/bench/weights-bench"
"$HERE/build/bench/weights-bench" "$1"
