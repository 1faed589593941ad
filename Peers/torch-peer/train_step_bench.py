"""train_step_bench.py - times the PyTorch peer of ScreenLab's real training step (ui_detector.py).

Usage: python train_step_bench.py [--batch 8] [--classes 13] [--boxes 35] [--warmup 2] [--steps 6]
                                  [--threads 2] [--layouts NCHW,channels_last] [--seed 0]

Per layout: a fresh model (same seed), synthetic images N x 3 x 512 x 256 (standard normal, the
range of normalised pixels) and fixed random UI-like ground truth (ui_detector.synthetic_targets),
`--warmup` untimed steps, then `--steps` timed steps of forward + ATSS + QFL/GIoU/DFL + backward +
clipping + AdamW + EMA. As torch_bench.py in ../shared/peers/torch-reference: a header with torch's
version and threads, then per layout one human line "[NCHW] real train step batch 8 ...: median
... s -> 12.3 img/s" and one JSON line (what `screenlab bench train --real-peer` reads):

  {"peer": "torch-ui-detector", "layout": "NCHW", "batch": 8, "threads": 2, "classes": 13,
   "parameters": 1031495, "boxes_per_image": 35, "positives_per_image": 61.2, "steps": 6,
   "median_s": 0.65, "min_s": 0.61, "img_per_s": 12.3, "loss_first": 3.1, "loss_last": 2.9,
   "torch": "2.x"}

img_per_s = batch / median step time.
"""
import argparse
import json
import statistics
import time

import numpy as np
import torch

from ui_detector import DetectionLoss, TrainingStep, UIDetector, atss_assign, synthetic_targets, INPUT_H, INPUT_W

LAYOUTS = {"NCHW": torch.contiguous_format, "channels_last": torch.channels_last}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--classes", type=int, default=13)
    parser.add_argument("--boxes", type=int, default=35, help="ground-truth boxes per image")
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--steps", type=int, default=6)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--layouts", default="NCHW,channels_last")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    torch.set_num_threads(args.threads)
    print(f"torch {torch.__version__}, threads={torch.get_num_threads()}, "
          f"interop={torch.get_num_interop_threads()}, mkldnn={torch.backends.mkldnn.is_available()}", flush=True)
    targets = synthetic_targets(args.batch, args.boxes, args.classes, seed=args.seed)
    for name in args.layouts.split(","):
        fmt = LAYOUTS[name]
        torch.manual_seed(args.seed)
        model = UIDetector(classes=args.classes).to(memory_format=fmt).train()
        parameters = sum(p.numel() for p in model.parameters())
        loss = DetectionLoss(classes=args.classes)
        step = TrainingStep(model, loss)
        generator = torch.Generator().manual_seed(args.seed)
        images = torch.randn(args.batch, 3, INPUT_H, INPUT_W, generator=generator).to(memory_format=fmt)
        positives = int(sum((atss_assign(loss.grid, b) >= 0).sum() for b, _ in targets))
        losses, times = [], []
        for i in range(args.warmup + args.steps):
            start = time.perf_counter()
            total, _, _ = step(images, targets)
            elapsed = time.perf_counter() - start
            losses.append(total)
            if i >= args.warmup:
                times.append(elapsed)
        median = statistics.median(times)
        print(f"[{name}] real train step batch {args.batch} (fwd + ATSS + QFL/GIoU/DFL + bwd + clip + AdamW + EMA): "
              f"median {median:.3f} s, min {min(times):.3f} s -> {args.batch / median:.1f} img/s "
              f"(loss first {losses[0]:.3f}, last {losses[-1]:.3f})", flush=True)
        print(json.dumps({
            "peer": "torch-ui-detector", "layout": name, "batch": args.batch, "threads": torch.get_num_threads(),
            "classes": args.classes, "parameters": parameters, "boxes_per_image": args.boxes,
            "positives_per_image": round(positives / args.batch, 2), "steps": len(times),
            "median_s": round(median, 6), "min_s": round(min(times), 6), "img_per_s": round(args.batch / median, 3),
            "loss_first": round(losses[0], 5), "loss_last": round(losses[-1], 5), "torch": torch.__version__,
        }), flush=True)


if __name__ == "__main__":
    main()
