import Foundation

/// Latencies in nanoseconds over a measured interval.
public struct LatencySample {
  public var latencies: [UInt64]
  public var seconds: Double

  public init(latencies: [UInt64], seconds: Double) {
    self.latencies = latencies
    self.seconds = seconds
  }

  public var perSecond: Double { Double(latencies.count) / seconds }

  /// The `fraction` percentile in microseconds.
  public func percentile(_ fraction: Double) -> Double {
    guard !latencies.isEmpty else { return .nan }
    let sorted = latencies.sorted()
    let index = min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.down)))
    return Double(sorted[index]) / 1000
  }
}

/// Microseconds as a table shows them: `850 µs`, `1.42 ms`, or `–` when there is no figure
/// (the percentile of an empty sample).
public func micro(_ value: Double) -> String {
  value.isNaN ? "–" : value >= 1000 ? String(format: "%.2f ms", value / 1000) : String(format: "%.0f µs", value)
}

/// Nanoseconds on the monotonic clock.
public func monotonicNanoseconds() -> UInt64 {
  DispatchTime.now().uptimeNanoseconds
}
