/// How a step of a curve moves between its two values.
///
/// The UIWebView progress article names the steps after Core Animation's timing functions, so `easeIn` and `easeOut` are the same cubic
/// Béziers (`kCAMediaTimingFunctionEaseIn` = (0.42, 0, 1, 1), `kCAMediaTimingFunctionEaseOut` = (0, 0, 0.58, 1)):
/// a curve file written against the article's table looks here as it did on iOS.
public enum Easing: String, Codable, Sendable, CaseIterable {
    /// Constant speed.
    case linear
    /// Fast, then slowing down: Core Animation's ease-out, (0, 0, 0.58, 1).
    case easeOut
    /// Slow, then speeding up: Core Animation's ease-in, (0.42, 0, 1, 1).
    case easeIn

    /// The eased share of the step at `progress` (0…1 of the step's duration), itself in 0…1.
    public func callAsFunction(_ progress: Double) -> Double {
        let p = min(max(progress, 0), 1)
        switch self {
        case .linear: return p
        case .easeOut: return Easing.cubicBezier(x1: 0, y1: 0, x2: 0.58, y2: 1, at: p)
        case .easeIn: return Easing.cubicBezier(x1: 0.42, y1: 0, x2: 1, y2: 1, at: p)
        }
    }

    /// Solves x(s) = `x` for the Bézier parameter s (x is monotonic for these control points), then returns y(s).
    private static func cubicBezier(x1: Double, y1: Double, x2: Double, y2: Double, at x: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        func coordinate(_ s: Double, _ c1: Double, _ c2: Double) -> Double {
            let u = 1 - s
            return 3 * u * u * s * c1 + 3 * u * s * s * c2 + s * s * s
        }
        var low = 0.0, high = 1.0
        for _ in 0..<60 {
            let mid = (low + high) / 2
            if coordinate(mid, x1, x2) < x { low = mid } else { high = mid }
        }
        return coordinate((low + high) / 2, y1, y2)
    }
}
