extension BinaryInteger {
  /// The number as reasons and messages write it, in thousands: `1,061,891`, whatever the
  /// locale, since a refusal's reason is kept in the log and compared by people and scripts.
  ///
  /// ```swift
  /// 1204.grouped          // "1,204"
  /// (-1048576).grouped    // "-1,048,576"
  /// ```
  public var grouped: String {
    let digits = Array(String(magnitude))
    var text = self < 0 ? "-" : ""
    for (index, digit) in digits.enumerated() {
      if index > 0, (digits.count - index) % 3 == 0 { text += "," }
      text.append(digit)
    }
    return text
  }
}
