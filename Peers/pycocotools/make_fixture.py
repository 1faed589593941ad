#!/usr/bin/env python3
"""Builds the pycocotools reference fixture for ScreenLab's coco101 AP.

Writes gt.json (COCO annotations, images in ascending id order), gt_shuffled.json (the
same with the images list shuffled), predictions.json (COCO results with numeric ids),
predictions_by_name.json (the same with file names and class names as ids) and
expected.json (per-class AP from pycocotools COCOeval with iouThrs=[0.5], one area
range, maxDets=[10000] and maxDets=[5]; the same for gt_shuffled.json; plus all-point AP
computed from COCOeval's own matches). Deterministic for the seed. Usage: see README.md
in this folder.
"""
import importlib.metadata
import json
import random
import sys

import numpy as np
from pycocotools.coco import COCO
from pycocotools.cocoeval import COCOeval

SEED = 20210508
# Category ids are deliberately not 0..n-1. "Slider" has detections but no ground truth;
# "Checkbox (Selected)" has ground truth but no detections.
CATEGORIES = [(1, "Text"), (2, "Icon"), (4, "Picture"), (7, "Checkbox (Selected)"), (9, "Slider")]
WIDTH, HEIGHT = 400, 800


def r1(value):
    return round(value, 1)


def make(rng):
    images, annotations, results = [], [], []
    image_ids = [3, 5, 8, 10, 11, 14, 20, 21, 30, 31, 40, 41]
    crowded = {30, 31}
    for image_id in image_ids:
        images.append({"id": image_id, "file_name": "screen_%02d.png" % image_id, "width": WIDTH, "height": HEIGHT})
        count = 150 if image_id in crowded else rng.randint(6, 20)
        boxes = []
        for k in range(count):
            if image_id in crowded:
                category = 1
                x, y = (k % 10) * 40 + rng.uniform(0, 4), (k // 10) * 52 + rng.uniform(0, 4)
                w, h = rng.uniform(20, 36), rng.uniform(14, 40)
            else:
                category = rng.choice([1, 1, 1, 2, 2, 4, 7])
                w, h = rng.uniform(12, 160), rng.uniform(12, 120)
                x, y = rng.uniform(0, WIDTH - w), rng.uniform(0, HEIGHT - h)
            boxes.append((category, [r1(x), r1(y), r1(w), r1(h)]))
        if image_id in (5, 20):
            # Equal-IoU trap: a detection overlaps two boxes with the same IoU (9/11); pycocotools
            # gives it the one listed later, which leaves the earlier box for the next detection.
            boxes += [(2, [100.0, 600.0, 10.0, 10.0]), (2, [102.0, 600.0, 10.0, 10.0])]
            results.append({"image_id": image_id, "category_id": 2, "bbox": [101.0, 600.0, 10.0, 10.0], "score": 0.77})
            results.append({"image_id": image_id, "category_id": 2, "bbox": [97.0, 600.0, 10.0, 10.0], "score": 0.66})
        for category, bbox in boxes:
            annotations.append({"id": len(annotations) + 1, "image_id": image_id, "category_id": category,
                                "bbox": bbox, "area": bbox[2] * bbox[3], "iscrowd": 0})
        for category, (x, y, w, h) in boxes:
            if category == 7:
                continue  # never detected
            found = rng.random() < (0.9 if image_id in crowded else 0.8)
            if found:
                jitter = 0.25 * min(w, h)
                predicted = category if rng.random() > 0.1 else rng.choice([1, 2, 4, 9])
                bbox = [r1(x + rng.uniform(-jitter, jitter)), r1(y + rng.uniform(-jitter, jitter)),
                        r1(max(1.0, w * rng.uniform(0.7, 1.3))), r1(max(1.0, h * rng.uniform(0.7, 1.3)))]
                # Two decimals make many exact score ties, within and across images.
                results.append({"image_id": image_id, "category_id": predicted, "bbox": bbox,
                                "score": round(rng.uniform(0.05, 1.0), 2)})
                if rng.random() < 0.15:  # a lower-scored duplicate
                    results.append({"image_id": image_id, "category_id": predicted,
                                    "bbox": [r1(bbox[0] + 1), r1(bbox[1] + 1), bbox[2], bbox[3]],
                                    "score": round(rng.uniform(0.05, 0.6), 2)})
        background = 40 if image_id in crowded else rng.randint(1, 6)
        for _ in range(background):  # false positives on empty space or partial overlaps
            w, h = rng.uniform(10, 120), rng.uniform(10, 90)
            results.append({"image_id": image_id, "category_id": rng.choice([1, 2, 4, 9]),
                            "bbox": [r1(rng.uniform(0, WIDTH - w)), r1(rng.uniform(0, HEIGHT - h)), r1(w), r1(h)],
                            "score": round(rng.uniform(0.01, 0.9), 2)})
    gt = {"images": images, "annotations": annotations,
          "categories": [{"id": cid, "name": name} for cid, name in CATEGORIES]}
    return gt, results


def evaluate(gt_path, results, max_dets):
    coco_gt = COCO(gt_path)
    coco_dt = coco_gt.loadRes(results)
    evaluator = COCOeval(coco_gt, coco_dt, "bbox")
    evaluator.params.iouThrs = np.array([0.5])
    evaluator.params.areaRng = [[0, 1e10]]
    evaluator.params.areaRngLbl = ["all"]
    evaluator.params.maxDets = [max_dets]
    evaluator.evaluate()
    evaluator.accumulate()
    coco101, all_point = {}, {}
    for k, category_id in enumerate(evaluator.params.catIds):
        name = coco_gt.cats[category_id]["name"]
        curve = evaluator.eval["precision"][0, :, k, 0, 0]
        coco101[name] = float(np.mean(curve[curve > -1])) if (curve > -1).any() else None
        all_point[name] = all_point_ap(evaluator, k, max_dets)
    return coco101, all_point


def all_point_ap(evaluator, k, max_dets):
    """VOC all-point AP over COCOeval's own matches, ranked exactly as accumulate() ranks them."""
    images = len(evaluator.params.imgIds)
    entries = [evaluator.evalImgs[k * images + i] for i in range(images)]
    entries = [e for e in entries if e is not None]
    if not entries:
        return None
    scores = np.concatenate([e["dtScores"][0:max_dets] for e in entries])
    order = np.argsort(-scores, kind="mergesort")
    matched = np.concatenate([e["dtMatches"][:, 0:max_dets] for e in entries], axis=1)[0, order]
    positives = sum(int(np.count_nonzero(e["gtIgnore"] == 0)) for e in entries)
    if positives == 0:
        return None
    tp = np.cumsum(matched > 0).astype(float)
    fp = np.cumsum(matched == 0).astype(float)
    if len(tp) == 0:
        return 0.0
    recall = np.concatenate([[0.0], tp / positives, [1.0]])
    precision = np.concatenate([[0.0], tp / (tp + fp), [0.0]])
    for i in range(len(precision) - 2, -1, -1):
        precision[i] = max(precision[i], precision[i + 1])
    steps = np.where(recall[1:] != recall[:-1])[0]
    return float(np.sum((recall[steps + 1] - recall[steps]) * precision[steps + 1]))


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "."
    rng = random.Random(SEED)
    gt, results = make(rng)
    with open(f"{out}/gt.json", "w") as f:
        json.dump(gt, f, indent=None, separators=(",", ":"))
    with open(f"{out}/predictions.json", "w") as f:
        json.dump(results, f, indent=None, separators=(",", ":"))
    names = {c["id"]: c["name"] for c in gt["categories"]}
    files = {i["id"]: i["file_name"] for i in gt["images"]}
    by_name = [dict(r, image_id=files[r["image_id"]], category_id=names[r["category_id"]]) for r in results]
    with open(f"{out}/predictions_by_name.json", "w") as f:
        json.dump(by_name, f, indent=None, separators=(",", ":"))
    # The images list in a shuffled order: pycocotools ranks score ties across images by sorted
    # image id, not by file order, so an evaluator keyed on file position would drift here.
    shuffled = dict(gt, images=list(gt["images"]))
    random.Random(SEED + 1).shuffle(shuffled["images"])
    with open(f"{out}/gt_shuffled.json", "w") as f:
        json.dump(shuffled, f, indent=None, separators=(",", ":"))
    large, large_all_point = evaluate(f"{out}/gt.json", results, 10000)
    capped, _ = evaluate(f"{out}/gt.json", results, 5)
    large_shuffled, large_all_point_shuffled = evaluate(f"{out}/gt_shuffled.json", results, 10000)
    capped_shuffled, _ = evaluate(f"{out}/gt_shuffled.json", results, 5)
    per_image_class = {}
    for r in results:
        key = (r["image_id"], r["category_id"])
        per_image_class[key] = per_image_class.get(key, 0) + 1
    expected = {
        "generator": "make_fixture.py", "seed": SEED, "pycocotools": importlib.metadata.version("pycocotools"),
        "numpy": np.__version__, "iou_threshold": 0.5,
        "images": len(gt["images"]), "ground_truth": len(gt["annotations"]), "detections": len(results),
        "max_detections_per_image_and_class_in_input": max(per_image_class.values()),
        "ap_coco101_maxdets_10000": large,
        "ap_coco101_maxdets_5": capped,
        "ap_all_point_from_cocoeval_matches": large_all_point,
        "gt_shuffled_image_ids": [image["id"] for image in shuffled["images"]],
        "ap_coco101_maxdets_10000_gt_shuffled": large_shuffled,
        "ap_coco101_maxdets_5_gt_shuffled": capped_shuffled,
        "ap_all_point_from_cocoeval_matches_gt_shuffled": large_all_point_shuffled,
    }
    with open(f"{out}/expected.json", "w") as f:
        json.dump(expected, f, indent=2, sort_keys=True)
    print(json.dumps(expected, indent=2, sort_keys=True))


if __name__ == "__main__":
    main()
