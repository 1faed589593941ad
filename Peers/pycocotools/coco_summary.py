#!/usr/bin/env python3
"""COCO's summary (mAP@0.5:0.95, AP50, AP75, AR@maxDets) from pycocotools for the committed fixture.

Reads gt.json and predictions.json from this folder (written by make_fixture.py; this script
does not change them) and writes expected_summary.json: for several maxDets lists, COCOeval's
default bbox parameters otherwise (iouThrs 0.50:0.05:0.95, 101 recall thresholds, area range
'all'), per class and mean:
- ap: mean of precision[:, :, k, 0, -1] over entries > -1 (null when the class has no ground truth),
- ap_per_iou: the same per IoU threshold, ap50 and ap75 picked from it,
- ar: recall[:, k, 0, m] averaged over IoU thresholds, one per maxDets value,
and the means exactly as COCOeval.summarize() reduces them (mean over entries > -1).
`stats` is summarize()'s own 12 numbers when the list has three caps (summarize reads maxDets[2]).
Usage: /tmp/cocoref/bin/python coco_summary.py [FOLDER]
"""
import importlib.metadata
import io
import json
import sys
from contextlib import redirect_stdout

import numpy as np
from pycocotools.coco import COCO
from pycocotools.cocoeval import COCOeval

CASES = {
    # COCO's defaults: the two 150-box screens have 162 detections of one class, so 100 cuts.
    "maxdets_1_10_100": [1, 10, 100],
    # ScreenLab's default cap (its post-processing keeps up to 300): nothing is cut; AR also at 100.
    "maxdets_1_10_100_300": [1, 10, 100, 300],
    # A cap that cuts on every busy screen.
    "maxdets_1_5": [1, 5],
}


def mean_valid(values):
    values = np.asarray(values)
    valid = values[values > -1]
    return float(np.mean(valid)) if valid.size else None


def run(gt_path, results_path, max_dets):
    with redirect_stdout(io.StringIO()):
        coco_gt = COCO(gt_path)
        coco_dt = coco_gt.loadRes(results_path)
        evaluator = COCOeval(coco_gt, coco_dt, "bbox")
        evaluator.params.maxDets = list(max_dets)
        evaluator.evaluate()
        evaluator.accumulate()
        stats = None
        if len(max_dets) == 3:
            evaluator.summarize()
            stats = [float(s) for s in evaluator.stats]
    precision = evaluator.eval["precision"]  # [T, R, K, A, M]
    recall = evaluator.eval["recall"]  # [T, K, A, M]
    ious = [round(float(t), 2) for t in evaluator.params.iouThrs]
    i50, i75 = ious.index(0.5), ious.index(0.75)
    classes = {}
    for k, category_id in enumerate(evaluator.params.catIds):
        name = coco_gt.cats[category_id]["name"]
        per_iou = [mean_valid(precision[t, :, k, 0, -1]) for t in range(len(ious))]
        classes[name] = {
            "ap": mean_valid(precision[:, :, k, 0, -1]),
            "ap_per_iou": per_iou,
            "ap50": per_iou[i50],
            "ap75": per_iou[i75],
            "ar": {str(m): mean_valid(recall[:, k, 0, j]) for j, m in enumerate(max_dets)},
        }
    means = {
        "map": mean_valid(precision[:, :, :, 0, -1]),
        "map50": mean_valid(precision[i50, :, :, 0, -1]),
        "map75": mean_valid(precision[i75, :, :, 0, -1]),
        "mar": {str(m): mean_valid(recall[:, :, 0, j]) for j, m in enumerate(max_dets)},
    }
    return {"max_dets": list(max_dets), "iou_thresholds": ious, "classes": classes, "mean": means, "stats": stats}


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else "."
    out = {
        "generator": "coco_summary.py", "pycocotools": importlib.metadata.version("pycocotools"),
        "numpy": np.__version__, "gt": "gt.json", "predictions": "predictions.json",
        "stats_order": ["AP", "AP50", "AP75", "AP_small", "AP_medium", "AP_large",
                        "AR@maxDets[0]", "AR@maxDets[1]", "AR@maxDets[2]", "AR_small", "AR_medium", "AR_large"],
    }
    for key, max_dets in CASES.items():
        out[key] = run(f"{folder}/gt.json", f"{folder}/predictions.json", max_dets)
    with open(f"{folder}/expected_summary.json", "w") as f:
        json.dump(out, f, indent=2, sort_keys=True)
    print(json.dumps({k: v["stats"] if isinstance(v, dict) and "stats" in v else v for k, v in out.items()}, indent=1))


if __name__ == "__main__":
    main()
