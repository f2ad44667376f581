extension Duration {
  /// The duration in whole nanoseconds, as the monotonic clock counts them (0 for a negative one).
  var nanoseconds: UInt64 {
    let (seconds, attoseconds) = components
    return UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
  }
}
