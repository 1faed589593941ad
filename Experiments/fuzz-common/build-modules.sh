#!/bin/sh
# Builds ScreenLab's reader modules as static libraries with swiftc (libYAML with clang), for the
# libFuzzer harnesses in Experiments/*-fuzz: CYaml + Yams (Support's YAML entry point needs them),
# Support, Tensor, Weights, Imaging, Typography, Plotting, Data, Evaluation and Augment, into $OUT with extra
# swiftc flags in $FLAGS (e.g. "-Onone -g -enable-testing -sanitize=fuzzer,address") and C flags in
# $CFLAGS. $MODULES limits the list (default: all). Needs `swift build` to have fetched Yams once.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
OUT=${OUT:-$HERE/build}
FLAGS=${FLAGS:-}
CFLAGS=${CFLAGS:-}
MODULES=${MODULES:-"Yams Support Tensor Weights Imaging Typography Plotting Data Evaluation Augment"}
YAMS=$ROOT/.build/checkouts/Yams/Sources
[ -d "$YAMS" ] || { echo "run 'swift build' once first: Yams is fetched into .build/checkouts"; exit 1; }
mkdir -p "$OUT/cyaml"
module() {  # name, sources...
    name=$1; shift
    # shellcheck disable=SC2086
    swiftc $FLAGS -parse-as-library -module-name "$name" -emit-library -static -emit-module \
        -emit-module-path "$OUT/$name.swiftmodule" -I "$OUT" -L "$OUT" \
        -Xcc -DYAML_DECLARE_STATIC -I "$YAMS/CYaml/include" -I "$ROOT/Sources/CPNG" -I "$ROOT/Sources/CTurboJPEG" \
        -I "$ROOT/Sources/CFreeType" -Xcc -I/usr/include/freetype2 -o "$OUT/lib$name.a" "$@"
}
wanted() { case " $MODULES " in *" $1 "*) return 0;; *) return 1;; esac; }
if wanted Yams; then
    for c in "$YAMS"/CYaml/src/*.c; do
        # shellcheck disable=SC2086
        clang $CFLAGS -c -O1 -g -DYAML_DECLARE_STATIC -I "$YAMS/CYaml/include" "$c" -o "$OUT/cyaml/$(basename "$c" .c).o"
    done
    ar rcs "$OUT/libCYaml.a" "$OUT"/cyaml/*.o
    module Yams -DSWIFT_PACKAGE "$YAMS"/Yams/*.swift
fi
wanted Support && module Support $(find "$ROOT"/Sources/Support -name "*.swift" | sort)
wanted Tensor && module Tensor "$ROOT"/Sources/Tensor/*.swift
wanted Weights && module Weights "$ROOT"/Sources/Weights/*.swift
wanted Imaging && module Imaging $(find "$ROOT"/Sources/Imaging -name "*.swift" | sort)
wanted Typography && module Typography $(find "$ROOT"/Sources/Typography -name "*.swift" | sort)
wanted Plotting && module Plotting $(find "$ROOT"/Sources/Plotting -name "*.swift" | sort)
wanted Data && module Data $(find "$ROOT"/Sources/Data -name "*.swift" | sort)
wanted Evaluation && module Evaluation $(find "$ROOT"/Sources/Evaluation -name "*.swift" | sort)
wanted Augment && module Augment $(find "$ROOT"/Sources/Augment -name "*.swift" | sort)
echo "built $MODULES into $OUT"
