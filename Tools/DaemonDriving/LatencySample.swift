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

/// Nanoseconds on the monotonic clock.
public func monotonicNanoseconds() -> UInt64 {
  DispatchTime.now().uptimeNanoseconds
}
