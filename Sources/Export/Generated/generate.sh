#!/usr/bin/env bash
# Regenerates onnx.pb.swift from onnx.proto beside it. Not part of the build: the generated file
# is committed, so a build needs only the SwiftProtobuf runtime library.
#
# Needs protoc (Debian: apt-get install -y protobuf-compiler) and protoc-gen-swift of the same
# swift-protobuf release as Package.swift resolves (1.39.0), built outside this repository:
#   git clone https://github.com/apple/swift-protobuf /tmp/swift-protobuf
#   (cd /tmp/swift-protobuf && git checkout 1.39.0 && swift build -c release --product protoc-gen-swift)
# Usage: PROTOC_GEN_SWIFT=/tmp/swift-protobuf/.build/release/protoc-gen-swift Sources/Export/Generated/generate.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
plugin="${PROTOC_GEN_SWIFT:-/tmp/swift-protobuf/.build/release/protoc-gen-swift}"
[ -x "$plugin" ] || { echo "protoc-gen-swift not found at $plugin: build it as the comment above says, or set PROTOC_GEN_SWIFT" >&2; exit 1; }
command -v protoc >/dev/null || { echo "protoc not found: apt-get install -y protobuf-compiler" >&2; exit 1; }
# Public visibility: the Export target's API hands out Onnx_ModelProto (tests parse it back).
protoc --plugin=protoc-gen-swift="$plugin" --swift_opt=Visibility=Public --swift_out="$here" -I "$here" "$here/onnx.proto"
echo "wrote $here/onnx.pb.swift"
