#!/usr/bin/env python3
"""safetensors interop checks for ScreenLab weights (run in a scratch venv, never at run time).

    python3 -m venv /tmp/stvenv && /tmp/stvenv/bin/pip install safetensors numpy
    /tmp/stvenv/bin/python interop.py make-fixture  OUT.safetensors   # Python-written fixture for the Swift test
    /tmp/stvenv/bin/python interop.py validate      IN.safetensors    # open a file ScreenLab exported
    /tmp/stvenv/bin/python interop.py make-model    OUT.safetensors   # reference-detector-sized file (~5 MB) for timing

`validate` opens the file with the reference `safetensors` library, checks every tensor is
float32 with the shape the header claims, that `__metadata__` carries the ScreenLab header
(format, format_version, and JSON text for each header key), and when the file is the export
of Tests/WeightsTests/Fixtures/weights-v1.1.slw, that every value is bit-identical to that
fixture's content (VersionFixtureTests.v1_1Content()).
"""
import json
import sys

import numpy as np
from safetensors import safe_open
from safetensors.numpy import load_file, save_file

# Content of the Python-written fixture; PythonInteropTests in Swift asserts the same values.
def fixture_tensors():
    return {
        # Python's writer sorts by name; ScreenLab imports in data-offset order.
        "backbone.conv1.weight": (np.arange(6, dtype=np.float32).reshape(2, 1, 1, 3) * 0.25 - 0.5),
        "backbone.bn1.running_var": np.array([1.0, 0.25], dtype=np.float32),
        "head.cls.bias": np.full((3,), -4.59512, dtype=np.float32),
    }

# VersionFixtureTests.v1_1Content() tensors (the 1.1 fixture), for checking an export bit-exactly.
V1_1_TENSORS = {
    "backbone.conv1.weight": np.array([1, -2, 0.5, -0.0, 1e-3, 65504], dtype=np.float32).reshape(2, 1, 1, 3),
    "backbone.bn1.running_var": np.array([1, 0.25], dtype=np.float32),
    "head.cls.bias": np.array([-4.59512] * 3, dtype=np.float32),
}
HEADER_KEYS = {"architecture", "input", "normalization", "classes", "thresholds", "provenance", "training"}


def make_fixture(path):
    save_file(fixture_tensors(), path, metadata={"format": "pt", "source": "interop.py make-fixture"})
    print(f"wrote {path}")


def validate(path):
    tensors = load_file(path)
    with safe_open(path, framework="numpy") as handle:
        metadata = handle.metadata() or {}
        keys = list(handle.keys())
    assert metadata.get("format") == "screenlab-weights", f"__metadata__.format is {metadata.get('format')!r}"
    major, minor = (int(part) for part in metadata["format_version"].split("."))
    header = {}
    for key, text in metadata.items():
        if key in ("format", "format_version"):
            continue
        assert key in HEADER_KEYS, f"unexpected metadata key {key}"
        header[key] = json.loads(text)
    for required in ("architecture", "input", "normalization", "classes", "provenance"):
        assert required in header, f"header key {required} missing from __metadata__"
    for name, array in tensors.items():
        assert array.dtype == np.float32, f"{name} is {array.dtype}"
    print(f"{path}: format {major}.{minor}, {len(keys)} tensors, "
          f"{sum(a.size for a in tensors.values())} values, architecture {header['architecture']['name']}, "
          f"{len(header['classes'])} classes")
    if set(tensors) == set(V1_1_TENSORS):
        for name, expected in V1_1_TENSORS.items():
            got = tensors[name]
            assert got.shape == expected.shape, f"{name}: shape {got.shape} != {expected.shape}"
            assert np.array_equal(got.view(np.uint32), expected.view(np.uint32)), f"{name}: values differ"
        assert header["training"]["seed"] == "20261122"
        print("  matches VersionFixtureTests.v1_1Content() bit for bit")


def make_model(path):
    """Reference-detector-like tensors (MobileNetV1 0.5 + FPN 64 + head), ~5 MB of float32."""
    rng = np.random.default_rng(20261122)
    tensors = {}
    channels = [16, 32, 64, 64, 128, 128, 256, 256, 256, 256, 256, 256, 512, 512]
    tensors["backbone.stem.conv.weight"] = rng.standard_normal((16, 3, 3, 3), dtype=np.float32)
    previous = 16
    for index, out in enumerate(channels[1:]):
        prefix = f"backbone.blocks.{index}"
        tensors[f"{prefix}.depthwise.weight"] = rng.standard_normal((previous, 1, 3, 3), dtype=np.float32)
        tensors[f"{prefix}.pointwise.weight"] = rng.standard_normal((out, previous, 1, 1), dtype=np.float32)
        for bn in ("depthwise_bn", "pointwise_bn"):
            width = previous if bn == "depthwise_bn" else out
            for field in ("weight", "bias", "running_mean"):
                tensors[f"{prefix}.{bn}.{field}"] = rng.standard_normal((width,), dtype=np.float32)
            tensors[f"{prefix}.{bn}.running_var"] = rng.uniform(0.5, 2, (width,)).astype(np.float32)
        previous = out
    for level, width in enumerate([128, 256, 512]):
        tensors[f"fpn.lateral.{level}.weight"] = rng.standard_normal((64, width, 1, 1), dtype=np.float32)
        tensors[f"fpn.output.{level}.weight"] = rng.standard_normal((64, 64, 3, 3), dtype=np.float32)
    tensors["head.conv1.weight"] = rng.standard_normal((64, 64, 3, 3), dtype=np.float32)
    tensors["head.conv2.weight"] = rng.standard_normal((3 * 17, 64, 1, 1), dtype=np.float32)
    # Pad to ~5 MB with an extra tensor so the timing uses the size the issue names.
    total = sum(a.nbytes for a in tensors.values())
    tensors["extra.padding"] = rng.standard_normal(((5_000_000 - total) // 4,), dtype=np.float32)
    save_file(tensors, path, metadata={"format": "pt"})
    print(f"wrote {path}: {len(tensors)} tensors, {sum(a.nbytes for a in tensors.values())} bytes")


if __name__ == "__main__":
    commands = {"make-fixture": make_fixture, "validate": validate, "make-model": make_model}
    if len(sys.argv) != 3 or sys.argv[1] not in commands:
        sys.exit(__doc__)
    commands[sys.argv[1]](sys.argv[2])
