import Foundation

/// Learning rate as a function of the optimizer step (0-based).
public protocol LearningRateSchedule {
    func learningRate(atStep step: Int) -> Float
}

/// Linear warm-up from `warmupStartFactor`·base to base, then cosine decay to `finalFactor`·base.
public struct WarmupCosineSchedule: LearningRateSchedule {
    public let baseRate: Float, warmupSteps: Int, totalSteps: Int, finalFactor: Float, warmupStartFactor: Float

    public init(baseRate: Float, warmupSteps: Int, totalSteps: Int, finalFactor: Float = 0.01, warmupStartFactor: Float = 0.1) {
        self.baseRate = baseRate
        self.warmupSteps = max(0, warmupSteps)
        self.totalSteps = max(totalSteps, warmupSteps + 1)
        self.finalFactor = finalFactor
        self.warmupStartFactor = warmupStartFactor
    }

    public func learningRate(atStep step: Int) -> Float {
        if step < warmupSteps {
            let t = Float(step) / Float(warmupSteps)
            return baseRate * (warmupStartFactor + (1 - warmupStartFactor) * t)
        }
        let t = min(1, Float(step - warmupSteps) / Float(totalSteps - warmupSteps))
        let cosine = 0.5 * (1 + cos(Float.pi * t))
        return baseRate * (finalFactor + (1 - finalFactor) * cosine)
    }
}

/// Linear warm-up, then linear decay to `finalFactor`·base (Ultralytics' default "linear" lrf).
public struct WarmupLinearSchedule: LearningRateSchedule {
    public let baseRate: Float, warmupSteps: Int, totalSteps: Int, finalFactor: Float, warmupStartFactor: Float

    public init(baseRate: Float, warmupSteps: Int, totalSteps: Int, finalFactor: Float = 0.01, warmupStartFactor: Float = 0.1) {
        self.baseRate = baseRate
        self.warmupSteps = max(0, warmupSteps)
        self.totalSteps = max(totalSteps, warmupSteps + 1)
        self.finalFactor = finalFactor
        self.warmupStartFactor = warmupStartFactor
    }

    public func learningRate(atStep step: Int) -> Float {
        if step < warmupSteps {
            return baseRate * (warmupStartFactor + (1 - warmupStartFactor) * Float(step) / Float(warmupSteps))
        }
        let t = min(1, Float(step - warmupSteps) / Float(totalSteps - warmupSteps))
        return baseRate * (1 - (1 - finalFactor) * t)
    }
}
