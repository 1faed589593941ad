"""ui_detector.py - ScreenLab's default UI-element detector, its loss and its training step in PyTorch.

The PyTorch peer of the step `screenlab train` runs (Configs/models/ui-detector.yaml with the
experiments' loss and optimizer), written to do the same work per step so `screenlab bench train
--real-peer` can time both in one run. Every class names the ScreenLab file it mirrors.

Model (Sources/Detection/Models/UIDetector.swift), input N x 3 x 512 x 256 (H x W):
  MobileNetV1 width 0.5 (MobileNetV1.swift): stem conv3x3 s2 3->16 + BN + ReLU6, then 13
    depthwise-separable blocks (dw3x3 + BN + ReLU6, pw1x1 + BN + ReLU6, convolutions without
    bias); features tapped after block 5 (stride 8, 128 ch), 11 (stride 16, 256 ch) and 13
    (stride 32, 512 ch).
  FeaturePyramid (ReferenceDetector.swift): 1x1 laterals to 64 ch (bias), nearest 2x upsample +
    add top-down, 3x3 output conv per level (bias, no BN, no activation).
  AnchorFreeHead (Heads/AnchorFreeHead.swift): per level, NOT shared: two depthwise-separable
    blocks 64->64 (as the backbone's, BN + ReLU6), then a 1x1 conv (bias) to K class logits +
    4 x 16 distribution logits; output weights N(0, 0.01), class biases at the prior 0.01.
  Output: one matrix [N * 2688, K + 64], rows in (image, level, row, column) order (PointGrid).

Parameter and buffer names are ScreenLab's own (`backbone.stage3.0.depthwise.weight`,
`...depthwise.bn.running_mean`, `head.towers.2.1.pointwise.weight`, `head.outputs.0.bias`), so
`shapes()` can be compared with ScreenLab's tensor table name by name.

Loss (Sources/Detection/Losses/DetectionLoss.swift, anchor-free head, ATSS throughout):
  decode the detached head values (sigmoid, softmax expectation x stride: HeadDecoder.swift),
  ATSS per image on the CPU (Assignment/ATSSAssigner.swift, priors of PriorBoxes(points:)),
  quality focal loss (beta 2) with the predicted box's IoU as target over all N x P x K logits,
  / number of positives, weight 1; GIoU (weight 2) and DFL (weight 0.25, / 4) on positives,
  each positive weighted by its top predicted score, / the sum of those weights.
Step (Sources/NN/Step/TrainingStep.swift): zero grads, forward, loss, finite check of the loss,
  backward, global-norm clipping at 35, AdamW (lr 0.002, betas 0.9/0.999, eps 1e-8, weight
  decay 0.05 on tensors of rank > 1 only: Optimizer.swift exceptBiasesAndNormalization), EMA of
  parameters and BN statistics (decay 0.9998 * (1 - exp(-updates / 2000)): NN/Optim/
  ExponentialMovingAverage.swift).

Simplifications (documented in README.md): class weights are all 1 (vins-baseline uses
effective-number class balance: one more multiply per logit in ScreenLab); no task-aligned
assigner (the experiments keep ATSS throughout by default); no learning-rate schedule (a
constant rate costs the same).
"""
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

STRIDES = (8, 16, 32)
INPUT_H, INPUT_W = 512, 256
CLASS_PRIOR = 0.01  # AnchorFreeHead.classPrior


# ----------------------------------------------------------------------------------------------
# Model
# ----------------------------------------------------------------------------------------------

class ConvBatchNormActivation(nn.Module):
    """Sources/NN/Layers/Sequential.swift, ConvBatchNormActivation: conv (no bias) -> BN -> ReLU6.

    The convolution's weight is this module's own `weight`, the norm the child `bn`, as in
    ScreenLab's tensor names. Weight init: PyTorch's Conv2d default, U(+-1/sqrt(fan_in)), which is
    ScreenLab's Initialization.kaimingUniform bound.
    """

    def __init__(self, cin, cout, kernel, stride=1, groups=1):
        super().__init__()
        self.stride, self.padding, self.groups = stride, kernel // 2, groups
        fan_in = cin // groups * kernel * kernel
        bound = 1 / math.sqrt(fan_in)
        self.weight = nn.Parameter(torch.empty(cout, cin // groups, kernel, kernel).uniform_(-bound, bound))
        self.bn = nn.BatchNorm2d(cout)  # eps 1e-5, momentum 0.1, unbiased running variance: as BatchNorm2d.swift

    def forward(self, x):
        x = F.conv2d(x, self.weight, None, self.stride, self.padding, 1, self.groups)
        return F.relu6(self.bn(x))


class DepthwiseSeparableBlock(nn.Module):
    """Sources/Detection/Models/MobileNetV1.swift: depthwise 3x3 + BN + ReLU6, pointwise 1x1 + BN + ReLU6."""

    def __init__(self, cin, cout, stride):
        super().__init__()
        self.depthwise = ConvBatchNormActivation(cin, cin, 3, stride, groups=cin)
        self.pointwise = ConvBatchNormActivation(cin, cout, 1)

    def forward(self, x):
        return self.pointwise(self.depthwise(x))


class MobileNetV1(nn.Module):
    """Sources/Detection/Models/MobileNetV1.swift (Howard et al. 2017, Table 1)."""

    BLOCKS = [(64, 1), (128, 2), (128, 1), (256, 2), (256, 1),
              (512, 2), (512, 1), (512, 1), (512, 1), (512, 1), (512, 1),
              (1024, 2), (1024, 1)]

    def __init__(self, width=0.5):
        super().__init__()
        scaled = lambda c: int(c * width)
        self.stem = ConvBatchNormActivation(3, scaled(32), 3, 2)
        blocks, channels = [], scaled(32)
        for c, s in self.BLOCKS:
            blocks.append(DepthwiseSeparableBlock(channels, scaled(c), s))
            channels = scaled(c)
        self.stage3 = nn.Sequential(*blocks[0:5])    # stride 8, 128 ch
        self.stage4 = nn.Sequential(*blocks[5:11])   # stride 16, 256 ch
        self.stage5 = nn.Sequential(*blocks[11:13])  # stride 32, 512 ch
        self.output_channels = [scaled(256), scaled(512), scaled(1024)]

    def forward(self, x):
        c3 = self.stage3(self.stem(x))
        c4 = self.stage4(c3)
        return [c3, c4, self.stage5(c4)]


class FeaturePyramid(nn.Module):
    """Sources/Detection/Models/ReferenceDetector.swift, FeaturePyramid."""

    def __init__(self, in_channels, channels=64):
        super().__init__()
        self.lateral = nn.ModuleList([nn.Conv2d(c, channels, 1) for c in in_channels])
        self.output = nn.ModuleList([nn.Conv2d(channels, channels, 3, padding=1) for _ in in_channels])

    def forward(self, features):
        merged = [self.lateral[-1](features[-1])]
        for level in range(len(features) - 2, -1, -1):
            merged.insert(0, self.lateral[level](features[level]) + F.interpolate(merged[0], scale_factor=2, mode="nearest"))
        return [conv(m) for conv, m in zip(self.output, merged)]


class AnchorFreeHead(nn.Module):
    """Sources/Detection/Heads/AnchorFreeHead.swift: per level (not shared) two depthwise-separable
    blocks, then a 1x1 conv to K class-and-quality logits + 4 x bins side logits."""

    def __init__(self, levels, channels, convolutions, classes, bins):
        super().__init__()
        self.towers = nn.ModuleList([
            nn.Sequential(*[DepthwiseSeparableBlock(channels, channels, 1) for _ in range(convolutions)])
            for _ in range(levels)])
        self.outputs = nn.ModuleList()
        for _ in range(levels):
            conv = nn.Conv2d(channels, classes + 4 * bins, 1)
            with torch.no_grad():
                conv.weight.normal_(0, 0.01)
                conv.bias.zero_()
                conv.bias[:classes] = -math.log((1 - CLASS_PRIOR) / CLASS_PRIOR)
            self.outputs.append(conv)

    def forward(self, features):
        return [out(tower(f)) for tower, out, f in zip(self.towers, self.outputs, features)]


class UIDetector(nn.Module):
    """Sources/Detection/Models/UIDetector.swift with UIDetectorConfiguration's defaults."""

    def __init__(self, classes=13, width=0.5, fpn_channels=64, head_convolutions=2, bins=16):
        super().__init__()
        self.classes, self.bins = classes, bins
        self.backbone = MobileNetV1(width)
        self.fpn = FeaturePyramid(self.backbone.output_channels, fpn_channels)
        self.head = AnchorFreeHead(len(STRIDES), fpn_channels, head_convolutions, classes, bins)

    def forward(self, images):
        levels = self.head(self.fpn(self.backbone(images)))
        # UIDetector's "head flatten": [N, C, H, W] per level -> [N * P, C], rows (image, level, y, x).
        # permute + reshape is a view for channels_last and one copy for NCHW (ScreenLab copies too).
        n = images.shape[0]
        flat = [o.permute(0, 2, 3, 1).reshape(n, -1, o.shape[1]) for o in levels]
        return torch.cat(flat, dim=1).reshape(-1, levels[0].shape[1])


def shapes(model):
    """Name -> shape of every parameter and BN statistic, in ScreenLab's naming (stateTensors)."""
    return {name: list(t.shape) for name, t in model.state_dict().items() if not name.endswith("num_batches_tracked")}


# ----------------------------------------------------------------------------------------------
# Prior points and ATSS (Sources/Detection/Assignment)
# ----------------------------------------------------------------------------------------------

class PointGrid:
    """Assignment/PointGrid.swift + PriorBoxes(points:): one point per cell at ((j+0.5)s, (i+0.5)s),
    level by level, row-major; ATSS's prior box is a square of side 8 * stride on it."""

    def __init__(self, height=INPUT_H, width=INPUT_W, strides=STRIDES, anchor_scale=8.0):
        xs, ys, ss, ranges = [], [], [], []
        for s in strides:
            h, w = -(-height // s), -(-width // s)
            i, j = np.meshgrid(np.arange(h), np.arange(w), indexing="ij")
            ranges.append((sum(len(x) for x in xs), sum(len(x) for x in xs) + h * w))
            xs.append(((j.ravel() + 0.5) * s).astype(np.float32))
            ys.append(((i.ravel() + 0.5) * s).astype(np.float32))
            ss.append(np.full(h * w, s, np.float32))
        self.x, self.y, self.stride = np.concatenate(xs), np.concatenate(ys), np.concatenate(ss)
        self.level_ranges = ranges
        half = self.stride * anchor_scale / 2
        # ScreenLab keeps prior boxes in Float and computes distances and IoUs in Double.
        self.boxes = np.stack([self.x - half, self.y - half, self.x + half, self.y + half], 1).astype(np.float64)
        self.count = len(self.x)
        # Torch copies for the loss.
        self.xy_t = torch.from_numpy(np.stack([self.x, self.y], 1))
        self.stride_t = torch.from_numpy(self.stride)


def box_iou(a, b):
    """IoU of boxes a [A, 4] with b [B, 4] (x1, y1, x2, y2) in float64: TargetAssignment.swift's
    intersectionOverUnion (0 when the boxes do not overlap)."""
    iw = np.minimum(a[:, None, 2], b[None, :, 2]) - np.maximum(a[:, None, 0], b[None, :, 0])
    ih = np.minimum(a[:, None, 3], b[None, :, 3]) - np.maximum(a[:, None, 1], b[None, :, 1])
    inter = np.where((iw > 0) & (ih > 0), iw * ih, 0.0)
    area_a = np.maximum(a[:, 2] - a[:, 0], 0) * np.maximum(a[:, 3] - a[:, 1], 0)
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    union = area_a[:, None] + area_b[None, :] - inter
    return np.where(union > 0, inter / np.where(union > 0, union, 1), 0.0)


def atss_assign(grid, gt_boxes, candidates_per_level=9, margin=0.01):
    """Assignment/ATSSAssigner.swift for one image: per prior, the index of its ground truth or -1.

    1. per ground truth and level, the 9 points nearest its centre (ties: lower point index, via a
       stable sort); 2. threshold = mean + sample std (n - 1) of those candidates' IoUs; 3. positive
       when IoU >= threshold and the point lies inside the box by > 0.01 px; a point claimed by
       several ground truths goes to the highest IoU (ties: lower ground-truth index); 4. ScreenLab's
       rescue: a ground truth left without positives takes its unclaimed candidate of highest IoU > 0.
    """
    g = len(gt_boxes)
    assigned = np.full(grid.count, -1, np.int64)
    if g == 0:
        return assigned
    cx = (gt_boxes[:, 0] + gt_boxes[:, 2]) / 2
    cy = (gt_boxes[:, 1] + gt_boxes[:, 3]) / 2
    candidates = []
    for lo, hi in grid.level_ranges:
        dx = grid.x[None, lo:hi].astype(np.float64) - cx[:, None]
        dy = grid.y[None, lo:hi].astype(np.float64) - cy[:, None]
        order = np.argsort(dx * dx + dy * dy, axis=1, kind="stable")[:, :min(candidates_per_level, hi - lo)]
        candidates.append(order + lo)
    candidates = np.concatenate(candidates, 1)                             # [G, 27]
    ious = box_iou(grid.boxes, gt_boxes)                                   # [P, G]
    cand_iou = np.take_along_axis(ious.T, candidates, 1)                   # [G, 27]
    threshold = cand_iou.mean(1) + (cand_iou.std(1, ddof=1) if candidates.shape[1] > 1 else 0)
    px, py = grid.x[candidates].astype(np.float64), grid.y[candidates].astype(np.float64)
    inside = ((px - gt_boxes[:, None, 0] > margin) & (gt_boxes[:, None, 2] - px > margin)
              & (py - gt_boxes[:, None, 1] > margin) & (gt_boxes[:, None, 3] - py > margin))
    positive = (cand_iou >= threshold[:, None]) & inside
    # Highest IoU wins; argmax takes the first (lowest ground-truth index) on ties.
    claim = np.full((g, grid.count), -1.0)
    rows = np.repeat(np.arange(g), candidates.shape[1])
    claim[rows[positive.ravel()], candidates[positive]] = cand_iou[positive]
    best = claim.argmax(0)
    claimed = claim[best, np.arange(grid.count)] >= 0
    assigned[claimed] = best[claimed]
    # Rescue pass, in ground-truth order (an earlier rescue can take a later one's candidate).
    has_positive = np.zeros(g, bool)
    has_positive[assigned[assigned >= 0]] = True
    for gi in np.nonzero(~has_positive)[0]:
        best_p, best_iou = -1, 0.0
        for p, iou in zip(candidates[gi], cand_iou[gi]):
            if assigned[p] == -1 and iou > 0 and (iou > best_iou or (iou == best_iou and p < best_p)):
                best_p, best_iou = p, iou
        if best_p >= 0:
            assigned[best_p] = gi
    return assigned


# ----------------------------------------------------------------------------------------------
# Loss (Sources/Detection/Losses/DetectionLoss.swift)
# ----------------------------------------------------------------------------------------------

def quality_focal_loss(logits, targets, beta=2.0):
    """GFL's QFL |y - sigmoid(x)|^beta * BCE(x, y), summed (LossKernels.qualityFocal)."""
    modulation = (targets - logits.sigmoid()).abs().pow(beta)
    return (F.binary_cross_entropy_with_logits(logits, targets, reduction="none") * modulation).sum()


def giou_loss(pred, target, weights, eps=1e-7):
    """Weighted sum of 1 - GIoU (BoxKernels.swift generalizedIoU: predicted widths clamped at 0,
    union and enclosing area floored at eps)."""
    pw = (pred[:, 2] - pred[:, 0]).clamp(min=0)
    ph = (pred[:, 3] - pred[:, 1]).clamp(min=0)
    target_area = (target[:, 2] - target[:, 0]).clamp(min=0) * (target[:, 3] - target[:, 1]).clamp(min=0)
    iw = (torch.min(pred[:, 2], target[:, 2]) - torch.max(pred[:, 0], target[:, 0])).clamp(min=0)
    ih = (torch.min(pred[:, 3], target[:, 3]) - torch.max(pred[:, 1], target[:, 1])).clamp(min=0)
    inter = iw * ih
    union = (pw * ph + target_area - inter).clamp(min=eps)
    ew = (torch.max(pred[:, 2], target[:, 2]) - torch.min(pred[:, 0], target[:, 0])).clamp(min=0)
    eh = (torch.max(pred[:, 3], target[:, 3]) - torch.min(pred[:, 1], target[:, 1])).clamp(min=0)
    enclosing = (ew * eh).clamp(min=eps)
    giou = inter / union - (enclosing - union) / enclosing
    return ((1 - giou) * weights).sum()


def distribution_focal_loss(logits, targets, weights):
    """GFL's DFL (DistributionKernels.swift distributionFocal): logits [M, 4, R+1], continuous
    targets [M, 4] in [0, R]; cross-entropy to the two bins around the target, linearly weighted;
    one weight per box shared by its four sides; summed."""
    bins = logits.shape[-1]
    left = targets.floor().long().clamp(max=bins - 2)
    right = left + 1
    w_left = right.float() - targets
    w_right = targets - left.float()
    log_p = F.log_softmax(logits, dim=-1)
    loss = -(log_p.gather(-1, left[..., None])[..., 0] * w_left + log_p.gather(-1, right[..., None])[..., 0] * w_right)
    return (loss * weights[:, None]).sum()


class DetectionLoss:
    """DetectionLoss.swift, anchor-free head, quality focal classification, ATSS, class weights 1."""

    def __init__(self, classes=13, bins=16, cls_weight=1.0, box_weight=2.0, dfl_weight=0.25, beta=2.0):
        self.k, self.bins = classes, bins
        self.cls_weight, self.box_weight, self.dfl_weight, self.beta = cls_weight, box_weight, dfl_weight, beta
        self.grid = PointGrid()
        self.bin_index = torch.arange(bins, dtype=torch.float32)

    def decode(self, values):
        """HeadDecoder.swift on the detached values [N * P, K + 4 * bins]: class probabilities and
        boxes (x1, y1, x2, y2) from each side's softmax expectation times the point's stride."""
        n = values.shape[0] // self.grid.count
        probabilities = values[:, :self.k].sigmoid()
        distances = values[:, self.k:].reshape(-1, 4, self.bins).softmax(-1) @ self.bin_index    # [N*P, 4]
        distances = distances.reshape(n, self.grid.count, 4) * self.grid.stride_t[None, :, None]
        xy = self.grid.xy_t[None]
        boxes = torch.cat([xy - distances[..., :2], xy + distances[..., 2:]], -1)
        return probabilities.reshape(n, self.grid.count, self.k), boxes

    def __call__(self, outputs, targets):
        """outputs [N * P, K + 4 * bins]; targets: per image (boxes float64 [G, 4] in input pixels,
        classes int64 [G]). Returns the total and the (cls, giou, dfl) terms."""
        k, count = self.k, self.grid.count
        with torch.no_grad():
            probabilities, predicted = self.decode(outputs.detach())
            probabilities, predicted = probabilities.numpy(), predicted.numpy().astype(np.float64)
        classification = np.zeros((outputs.shape[0], k), np.float32)
        rows, boxes, points, strides, weights = [], [], [], [], []
        for image, (gt_boxes, gt_classes) in enumerate(targets):
            assigned = atss_assign(self.grid, gt_boxes)
            positives = np.nonzero(assigned >= 0)[0]
            if len(positives) == 0:
                continue
            gts = assigned[positives]
            # GFL's quality target: IoU of the current prediction with its ground truth.
            quality = box_iou(predicted[image, positives], gt_boxes)[np.arange(len(positives)), gts]
            classification[image * count + positives, gt_classes[gts]] = np.clip(quality, 0, 1)
            rows.append(image * count + positives)
            boxes.append(gt_boxes[gts])
            points.append(positives)
            # Each positive's box losses count by how sure the head already is (GFL's weight_targets).
            weights.append(probabilities[image, positives].max(1))
        positives_total = sum(len(r) for r in rows)
        cls = quality_focal_loss(outputs[:, :k], torch.from_numpy(classification), self.beta)
        total = cls * (self.cls_weight / max(positives_total, 1))
        terms = {"cls": total.item()}
        if positives_total == 0:
            return total, dict(terms, giou=0.0, dfl=0.0)
        rows = torch.from_numpy(np.concatenate(rows))
        points = torch.from_numpy(np.concatenate(points))
        target_boxes = torch.from_numpy(np.concatenate(boxes).astype(np.float32))
        weights = torch.from_numpy(np.concatenate(weights))
        weight_sum = max(weights.sum().item(), 1e-6)
        xy, s = self.grid.xy_t[points], self.grid.stride_t[points]
        distributions = outputs[rows, k:].reshape(-1, 4, self.bins)
        expected = distributions.softmax(-1) @ self.bin_index * s[:, None]
        pred_boxes = torch.cat([xy - expected[:, :2], xy + expected[:, 2:]], 1)
        target_distances = torch.cat([xy - target_boxes[:, :2], target_boxes[:, 2:] - xy], 1) / s[:, None]
        target_distances = target_distances.clamp(0, self.bins - 1 - 0.01)
        giou = giou_loss(pred_boxes, target_boxes, weights) * (self.box_weight / weight_sum)
        dfl = distribution_focal_loss(distributions, target_distances, weights) * (self.dfl_weight / (4 * weight_sum))
        total = total + giou + dfl
        terms.update(giou=giou.item(), dfl=dfl.item())
        return total, terms


# ----------------------------------------------------------------------------------------------
# Training step (Sources/NN/Step/TrainingStep.swift)
# ----------------------------------------------------------------------------------------------

class TrainingStep:
    """zero grads, forward, loss, finite check, backward, clip at global norm 35, AdamW, EMA."""

    def __init__(self, model, loss, lr=0.002, weight_decay=0.05, clip=35.0, ema_decay=0.9998, ema_ramp=2000.0):
        self.model, self.loss, self.clip = model, loss, clip
        decay = [p for p in model.parameters() if p.ndim > 1]
        no_decay = [p for p in model.parameters() if p.ndim <= 1]
        self.optimizer = torch.optim.AdamW([{"params": decay, "weight_decay": weight_decay},
                                            {"params": no_decay, "weight_decay": 0.0}],
                                           lr=lr, betas=(0.9, 0.999), eps=1e-8)
        # EMA of every state tensor (parameters and BN statistics), as ScreenLab's stateTensors().
        self.ema_decay, self.ema_ramp, self.ema_updates = ema_decay, ema_ramp, 0
        # detach() shares storage, so these views follow the in-place updates of step and BN.
        self.ema_source = [t.detach() for name, t in model.state_dict(keep_vars=True).items() if not name.endswith("num_batches_tracked")]
        self.ema_shadow = [t.clone() for t in self.ema_source]

    def __call__(self, images, targets):
        self.optimizer.zero_grad(set_to_none=True)
        total, terms = self.loss(self.model(images), targets)
        if not all(math.isfinite(v) for v in terms.values()) or not math.isfinite(total.item()):
            raise FloatingPointError(f"non-finite loss {terms}")
        total.backward()
        norm = torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.clip, error_if_nonfinite=True)
        self.optimizer.step()
        with torch.no_grad():
            self.ema_updates += 1
            d = self.ema_decay * (1 - math.exp(-self.ema_updates / self.ema_ramp))
            torch._foreach_lerp_(self.ema_shadow, self.ema_source, 1 - d)  # shadow += (1 - d)(current - shadow)
        return total.item(), terms, norm.item()


def synthetic_targets(images, boxes_per_image=35, classes=13, seed=0):
    """Fixed random UI-like ground truth per image (float64 boxes [G, 4], int64 classes [G]):
    60 % small elements (icons, checkboxes: sides 20-60 px), 25 % wide thin text lines (80-240 x
    12-28 px), 15 % larger blocks (pictures, containers: 60-240 x 40-200 px), all inside 256 x 512."""
    rng = np.random.default_rng(seed)
    result = []
    for _ in range(images):
        kind = rng.random(boxes_per_image)
        w = np.where(kind < 0.6, rng.uniform(20, 60, boxes_per_image),
                     np.where(kind < 0.85, rng.uniform(80, 240, boxes_per_image), rng.uniform(60, 240, boxes_per_image)))
        h = np.where(kind < 0.6, rng.uniform(20, 60, boxes_per_image),
                     np.where(kind < 0.85, rng.uniform(12, 28, boxes_per_image), rng.uniform(40, 200, boxes_per_image)))
        w, h = np.minimum(w, INPUT_W - 1), np.minimum(h, INPUT_H - 1)
        x1 = rng.uniform(0, INPUT_W - w)
        y1 = rng.uniform(0, INPUT_H - h)
        boxes = np.stack([x1, y1, x1 + w, y1 + h], 1)
        result.append((boxes, rng.integers(0, classes, boxes_per_image)))
    return result


if __name__ == "__main__":
    import json
    import sys
    classes = int(sys.argv[sys.argv.index("--classes") + 1]) if "--classes" in sys.argv else 13
    model = UIDetector(classes=classes)
    count = sum(p.numel() for p in model.parameters())
    print(f"ui-detector, {classes} classes: {count} parameters ({count * 4 / 1e6:.2f} MB fp32)")
    if "--shapes" in sys.argv:
        print(json.dumps({"peer": "torch-ui-detector", "classes": classes, "parameters": count, "shapes": shapes(model)}))
