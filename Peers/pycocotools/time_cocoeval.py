#!/usr/bin/env python3
"""Times pycocotools COCOeval (iouThrs=[0.5], one area range, maxDets=[10000]) on the input
written by `screenlab bench evaluate --write-json DIR`. Usage: time_cocoeval.py DIR [RUNS]."""
import contextlib
import io
import statistics
import sys
import time

import numpy as np
from pycocotools.coco import COCO
from pycocotools.cocoeval import COCOeval


def run(folder):
    with contextlib.redirect_stdout(io.StringIO()):
        start = time.perf_counter()
        gt = COCO(f"{folder}/gt.json")
        dt = gt.loadRes(f"{folder}/predictions.json")
        loaded = time.perf_counter()
        evaluator = COCOeval(gt, dt, "bbox")
        evaluator.params.iouThrs = np.array([0.5])
        evaluator.params.areaRng = [[0, 1e10]]
        evaluator.params.areaRngLbl = ["all"]
        evaluator.params.maxDets = [10000]
        evaluator.evaluate()
        evaluator.accumulate()
        done = time.perf_counter()
    precision = evaluator.eval["precision"][0, :, :, 0, 0]
    per_class = [float(np.mean(p[p > -1])) for p in precision.T if (p > -1).any()]
    return loaded - start, done - loaded, float(np.mean(per_class))


def main():
    folder = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    results = [run(folder) for _ in range(runs)]
    load = statistics.median(r[0] for r in results)
    evaluate = statistics.median(r[1] for r in results)
    print(f"pycocotools: load JSON {load:.2f} s, evaluate+accumulate {evaluate:.2f} s (median of {runs}); mAP50 (101-point) {results[0][2]:.4f}")


if __name__ == "__main__":
    main()
