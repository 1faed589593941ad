#!/bin/sh
# Builds Support (with its JSON parser), Tensor and the Yams-free part of Weights as static libraries with swiftc,
# into $OUT (default build/), with extra swiftc flags in $FLAGS (e.g. -O, or the sanitizers).
# Used by fuzz.sh and bench.sh; run from anywhere.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
OUT=${OUT:-$HERE/build}
FLAGS=${FLAGS:-}
mkdir -p "$OUT"
module() {  # name, sources...
    name=$1; shift
    # shellcheck disable=SC2086
    swiftc $FLAGS -parse-as-library -module-name "$name" -emit-library -static -emit-module \
        -emit-module-path "$OUT/$name.swiftmodule" -I "$OUT" -L "$OUT" -o "$OUT/lib$name.a" "$@"
}
module Support $(find "$ROOT"/Sources/Support -name "*.swift" | sort)
module Tensor "$ROOT"/Sources/Tensor/*.swift
# ModelConfig.swift and ModelImport.swift need Yams (config files only, not file parsing).
module Weights $(ls "$ROOT"/Sources/Weights/*.swift | grep -v -e ModelConfig.swift -e ModelImport.swift)
