import Foundation

/// Learning rate as a function of the optimizer step (0-based).
public protocol LearningRateSchedule {
    func learningRate(atStep step: Int) -> Float
}

/// Linear warm-up from `warmupStartFactor`·base to base over `warmupSteps`, then a decay to
/// `finalFactor`·base at `totalSteps`: cosine (SGDR-style) or linear (Ultralytics' default).
public struct WarmupSchedule: LearningRateSchedule {
    public enum Decay { case cosine, linear }

    public let baseRate: Float, warmupSteps: Int, totalSteps: Int, finalFactor: Float, warmupStartFactor: Float
    public let decay: Decay

    public init(baseRate: Float, warmupSteps: Int, totalSteps: Int, decay: Decay = .cosine, finalFactor: Float = 0.01,
                warmupStartFactor: Float = 0.1) {
        self.baseRate = baseRate
        self.warmupSteps = max(0, warmupSteps)
        self.totalSteps = max(totalSteps, warmupSteps + 1)
        self.decay = decay
        self.finalFactor = finalFactor
        self.warmupStartFactor = warmupStartFactor
    }

    public func learningRate(atStep step: Int) -> Float {
        if step < warmupSteps {
            return baseRate * (warmupStartFactor + (1 - warmupStartFactor) * Float(step) / Float(warmupSteps))
        }
        let t = min(1, Float(step - warmupSteps) / Float(totalSteps - warmupSteps))
        let remaining: Float = decay == .cosine ? 0.5 * (1 + cos(Float.pi * t)) : 1 - t
        return baseRate * (finalFactor + (1 - finalFactor) * remaining)
    }
}
