/// Box geometry for anchor-free heads; boxes are rows of (x1, y1, x2, y2).
public enum BoxKernels {
    /// (px − l·s, py − t·s, px + r·s, py + b·s) from distances (l, t, r, b) in stride units,
    /// points (px, py) in pixels and one stride s per point.
    public static func distancesToBoxes(distances: UnsafePointer<Float>, points: UnsafePointer<Float>, strides: UnsafePointer<Float>,
                                        count: Int, boxes: UnsafeMutablePointer<Float>) {
        for m in 0..<count {
            let d = distances + 4 * m, b = boxes + 4 * m, s = strides[m]
            let px = points[2 * m], py = points[2 * m + 1]
            b[0] = px - d[0] * s
            b[1] = py - d[1] * s
            b[2] = px + d[2] * s
            b[3] = py + d[3] * s
        }
    }

    public static func distancesToBoxesBackward(gradBoxes: UnsafePointer<Float>, strides: UnsafePointer<Float>, count: Int,
                                                gradDistances: UnsafeMutablePointer<Float>) {
        for m in 0..<count {
            let g = gradBoxes + 4 * m, o = gradDistances + 4 * m, s = strides[m]
            o[0] = -g[0] * s
            o[1] = -g[1] * s
            o[2] = g[2] * s
            o[3] = g[3] * s
        }
    }
}

extension LossKernels {
    /// 1 − GIoU (Rezatofighi et al. 2019) of aligned box pairs, with union and enclosing area
    /// floored at `epsilon` as mmdetection's bbox_overlaps does. The predicted area uses widths
    /// clamped at 0 (mmdetection multiplies the signed widths): an inverted prediction, common
    /// early in training, then has area 0 instead of a negative area that would shrink the union
    /// below the overlap. `derivatives` ([count, 4]) gets d loss / d predicted coordinates; at a
    /// tie between a predicted and a target edge the predicted edge is taken to move the
    /// intersection and enclosing box (a subgradient; 0 for identical boxes).
    public static func generalizedIoU(predicted: UnsafePointer<Float>, targets: UnsafePointer<Float>, weights: UnsafePointer<Float>?,
                                      count: Int, epsilon: Float,
                                      losses: UnsafeMutablePointer<Float>, derivatives: UnsafeMutablePointer<Float>?) {
        for m in 0..<count {
            let a = predicted + 4 * m, b = targets + 4 * m
            let w = weights?[m] ?? 1
            let width = a[2] - a[0], height = a[3] - a[1]
            let (pw, ph) = (max(width, 0), max(height, 0))
            let targetArea = max(b[2] - b[0], 0) * max(b[3] - b[1], 0)
            let rawIW = min(a[2], b[2]) - max(a[0], b[0]), rawIH = min(a[3], b[3]) - max(a[1], b[1])
            let (iw, ih) = (max(rawIW, 0), max(rawIH, 0))
            let intersection = iw * ih
            let rawUnion = pw * ph + targetArea - intersection
            let union = max(rawUnion, epsilon)
            let (ew, eh) = (max(max(a[2], b[2]) - min(a[0], b[0]), 0), max(max(a[3], b[3]) - min(a[1], b[1]), 0))
            let rawEnclosing = ew * eh
            let enclosing = max(rawEnclosing, epsilon)
            let giou = intersection / union - (enclosing - union) / enclosing
            losses[m] = w * (1 - giou)
            guard let derivatives else { continue }
            // loss = 2 − I/U − U/C with U = A_p + A_t − I: the sensitivities to U, I, A_p and C.
            let kUnion: Float = rawUnion > epsilon ? intersection / (union * union) - 1 / enclosing : 0
            let kIntersection = -1 / union - kUnion, kArea = kUnion
            let kEnclosing: Float = rawEnclosing > epsilon ? union / (enclosing * enclosing) : 0
            func mask(_ condition: Bool) -> Float { condition ? 1 : 0 }
            // ∂(edge length)/∂(predicted edge) for the predicted box, the intersection and the enclosing box.
            let areaX = mask(width > 0) * ph, areaY = mask(height > 0) * pw
            let interX = mask(rawIW > 0) * ih, interY = mask(rawIH > 0) * iw
            let enclX = mask(ew > 0) * eh, enclY = mask(eh > 0) * ew
            let dx1 = -kArea * areaX - kIntersection * interX * mask(a[0] >= b[0]) - kEnclosing * enclX * mask(a[0] <= b[0])
            let dy1 = -kArea * areaY - kIntersection * interY * mask(a[1] >= b[1]) - kEnclosing * enclY * mask(a[1] <= b[1])
            let dx2 = kArea * areaX + kIntersection * interX * mask(a[2] <= b[2]) + kEnclosing * enclX * mask(a[2] >= b[2])
            let dy2 = kArea * areaY + kIntersection * interY * mask(a[3] <= b[3]) + kEnclosing * enclY * mask(a[3] >= b[3])
            let d = derivatives + 4 * m
            d[0] = w * dx1
            d[1] = w * dy1
            d[2] = w * dx2
            d[3] = w * dy2
        }
    }
}
