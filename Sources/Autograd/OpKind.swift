/// Every differentiable primitive, one case each: the tape records which op made each value,
/// which is what profiles and error messages name.
public enum OpKind: String, CaseIterable, Hashable {
    case add, subtract, multiply, divide, negate
    case matmul, conv2d, depthwiseConv2d
    case batchNorm, channelAffine, batchNormDepthwise
    case relu, relu6, sigmoid, silu
    case sum, mean
    case reshape, permute, concat, concatTransposed, slice, gather
    case upsampleNearest2x, maxPool2d
    case softmax, logSoftmax
    case exp, log
    case binaryCrossEntropyWithLogits, smoothL1, sumOfSquares
    case sigmoidFocalLoss, qualityFocalLoss, varifocalLoss
    case distributionFocalLoss, distributionExpectation, distancesToBoxes, generalizedIoULoss
}
