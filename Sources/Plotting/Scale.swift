import Foundation

/// Maps a data interval onto a pixel interval (pixel ranges may run backwards, as the y axis does).
public struct LinearScale: Equatable {
    public var domain: ClosedRange<Double>
    public var pixelStart: Double
    public var pixelEnd: Double

    public init(domain: ClosedRange<Double>, pixelStart: Double, pixelEnd: Double) {
        self.domain = domain
        self.pixelStart = pixelStart
        self.pixelEnd = pixelEnd
    }

    public func pixel(_ value: Double) -> Double {
        let span = domain.upperBound - domain.lowerBound
        guard span > 0 else { return (pixelStart + pixelEnd) / 2 }
        return pixelStart + (value - domain.lowerBound) / span * (pixelEnd - pixelStart)
    }
}

/// "Nice" axis ticks (steps of 1, 2 or 5 × 10^k; Heckbert, Graphics Gems 1990).
public enum NiceTicks {
    public static func step(for span: Double, count: Int) -> Double {
        guard span > 0, span.isFinite, count > 0 else { return 1 }
        let raw = span / Double(count)
        let magnitude = pow(10, floor(log10(raw)))
        let fraction = raw / magnitude
        let nice: Double = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10
        return nice * magnitude
    }

    /// The data range widened outward to whole steps, and the tick values inside it.
    public static func axis(for range: ClosedRange<Double>, count: Int = 5) -> (range: ClosedRange<Double>, ticks: [Double], step: Double) {
        var low = range.lowerBound, high = range.upperBound
        if !(low.isFinite && high.isFinite) { low = 0; high = 1 }
        if high <= low { high = low + (low == 0 ? 1 : abs(low) * 0.1) }
        let step = self.step(for: high - low, count: count)
        let start = floor(low / step + 1e-9) * step
        let end = ceil(high / step - 1e-9) * step
        var ticks: [Double] = []
        var index = 0
        while true {
            let value = start + Double(index) * step
            if value > end + step * 1e-6 { break }
            ticks.append(abs(value) < step * 1e-9 ? 0 : value)
            index += 1
        }
        return (start...end, ticks, step)
    }
}
