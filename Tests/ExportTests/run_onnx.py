"""Runs an exported ScreenLab ONNX model with ONNX Runtime for ExportTests.

Usage: run_onnx.py MODEL.onnx INPUT.bin N C H W OUT_DIR
INPUT.bin holds N*C*H*W little-endian float32 values (NCHW). Every model output is written to
OUT_DIR/<name>.bin as float32, and one line per output, "<name> d0 d1 ...", is printed.
Needs onnxruntime and numpy; when the onnx package is there too, its checker runs first.
"""
import os
import sys

import numpy as np
import onnxruntime as ort


def main():
    model, data, n, c, h, w, out = sys.argv[1:8]
    shape = tuple(int(v) for v in (n, c, h, w))
    images = np.fromfile(data, dtype="<f4").reshape(shape)
    try:
        import onnx
    except ImportError:
        onnx = None
    if onnx is not None:
        # The ONNX checker, when installed, also checks types and shapes through the whole graph.
        onnx.checker.check_model(onnx.load(model), full_check=True)
    options = ort.SessionOptions()
    # The graph as written, not ORT's fused rewrite of it: the test checks what we export.
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    session = ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])
    name = session.get_inputs()[0].name
    results = session.run(None, {name: images})
    for info, value in zip(session.get_outputs(), results):
        value = np.ascontiguousarray(value, dtype="<f4")
        value.tofile(os.path.join(out, info.name + ".bin"))
        print(info.name, *value.shape)


if __name__ == "__main__":
    main()
