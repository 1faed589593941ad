import Autograd
import Foundation
import Support
import Tensor

/// A loss as the step sees it: the differentiable total and its named terms (for logs and for
/// naming the term that went non-finite).
public struct StepLoss {
    public var total: Variable
    public var terms: [(name: String, value: Float)]

    public init(total: Variable, terms: [(name: String, value: Float)]) {
        self.total = total
        self.terms = terms
    }
}

/// Wall-clock seconds of one step's phases.
public struct StepPhases: Equatable {
    public var forward = 0.0, backward = 0.0, optimizer = 0.0
    public init(forward: Double = 0, backward: Double = 0, optimizer: Double = 0) {
        self.forward = forward; self.backward = backward; self.optimizer = optimizer
    }
    public var total: Double { forward + backward + optimizer }
}

public struct StepResult {
    public var loss: Float
    public var terms: [(name: String, value: Float)]
    public var phases: StepPhases
    public var gradientNorm: Float?
}

public enum TrainingError: Error, CustomStringConvertible, Equatable {
    case nonFiniteLoss(term: String, value: Float, step: Int)
    case nonFiniteGradient(detail: String, step: Int)

    public var description: String {
        switch self {
        case let .nonFiniteLoss(term, value, step):
            return "loss term '\(term)' is \(value) at step \(step); the run stopped and keeps its last good checkpoint (lower optimizer.lr, or check the data)"
        case let .nonFiniteGradient(detail, step):
            return "non-finite gradient at step \(step): \(detail); the run stopped and keeps its last good checkpoint (lower optimizer.lr or set optimizer.gradient_clip)"
        }
    }
}

/// How the ranks of a data-parallel run stay one model within a step (nil: one process).
public protocol StepSynchronization {
    /// The loss terms summed over ranks, the same on every rank: each rank's loss is its share of
    /// the global batch's, so the sum is the global loss, and a term that is not finite on one rank
    /// stops every rank at the same step.
    func sumTerms(_ terms: [(name: String, value: Float)]) throws -> [(name: String, value: Float)]
    /// After backward: every rank's gradients replaced by their sum over ranks (and anything
    /// else the step changed per rank, such as batch-norm statistics, made equal).
    func synchronizeAfterBackward() throws
}

/// The one training step the trainer, `bench engine` and the tests all run: zero gradients,
/// forward on a fresh tape, the objective, non-finite checks, backward, optional global-norm
/// clipping, the optimizer update and the EMA update. Nothing is updated when a loss term or a
/// gradient is not finite, so the model stays at its last good state.
public enum TrainingStep {
    public static func run<Output>(images: Tensor, step: Int, forward: (Variable) throws -> Output, objective: (Output) throws -> StepLoss,
                                   optimizer: Optimizer, gradientClip: Float? = nil, ema: (average: ExponentialMovingAverage, model: Module)? = nil,
                                   synchronization: StepSynchronization? = nil, profile: OpProfile? = nil) throws -> StepResult {
        var phases = StepPhases()
        var clock = Stopwatch()
        optimizer.zeroGradients()
        let tape = Tape()
        tape.profile = profile
        let loss = try objective(try forward(tape.constant(images)))
        let terms = try synchronization?.sumTerms(loss.terms) ?? loss.terms
        for (name, value) in terms where !value.isFinite { throw TrainingError.nonFiniteLoss(term: name, value: value, step: step) }
        let total = synchronization == nil ? loss.total.value.scalarValue : terms.reduce(0) { $0 + $1.value }
        guard total.isFinite else { throw TrainingError.nonFiniteLoss(term: "total", value: total, step: step) }
        phases.forward = clock.lap()
        try tape.backward(loss.total)
        try synchronization?.synchronizeAfterBackward()
        phases.backward = clock.lap()
        var norm: Float?
        do {
            if let gradientClip, gradientClip > 0 {
                norm = try GradientClipping.clipGlobalNorm(optimizer.parameters.filter { !$0.parameter.isFrozen }, maxNorm: gradientClip)
            } else {
                try NonFiniteCheck.checkGradients(optimizer.parameters)
            }
        } catch {
            optimizer.zeroGradients()
            throw TrainingError.nonFiniteGradient(detail: "\(error)", step: step)
        }
        try optimizer.step()
        if let ema { try ema.average.update(from: ema.model) }
        phases.optimizer = clock.lap()
        return StepResult(loss: total, terms: terms, phases: phases, gradientNorm: norm)
    }
}
