import Foundation

/// The relay's first line to a window: its channel to the daemon opened, or why not — ssh's exit
/// status and what it said, which ``SSHTransport/failure(status:said:target:)`` puts in words.
///
/// The relay writes it, and ``RelayLink`` reads it before anything of the daemon's, so a window
/// learns at once why a server cannot be reached rather than waiting out its timeout.
///
/// ```swift
/// RelayAnswer.opened.line                        // {"relay":"opened"} and a newline
/// RelayAnswer(line: Array(#"{"relay":"opened"}"#.utf8))   // .opened
/// ```
public enum RelayAnswer: Equatable, Sendable {
  /// The channel to the daemon is open: the daemon's welcome follows on the same connection.
  case opened
  /// The channel could not be opened: ssh's exit status and the last of what it wrote on
  /// standard error.
  case failed(status: Int32, said: String)

  /// The longest answer read: ssh's words are cut to fit.
  public static let maximumBytes = 8192

  /// The answer as the relay writes it: one line of JSON, newline included, ssh's words cut so
  /// that it stays under ``maximumBytes``.
  public var line: [UInt8] {
    let object: [String: Any] =
      switch self {
      case .opened: ["relay": "opened"]
      case let .failed(status, said): ["relay": "failed", "status": Int(status), "said": Self.lastBytes(of: said)]
      }
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
    return Array(data) + [UInt8(ascii: "\n")]
  }

  /// The end of `text` in at most 1,200 bytes of UTF-8 (ssh's last lines say why), so that the
  /// line stays under ``maximumBytes`` whatever JSON's escapes make of it.
  static func lastBytes(of text: String) -> String {
    let bytes = Array(text.utf8)
    guard bytes.count > 1200 else { return text }
    var tail = bytes.suffix(1200)
    // Not from the middle of a character.
    while let first = tail.first, first & 0xC0 == 0x80 { tail = tail.dropFirst() }
    return String(decoding: tail, as: UTF8.self)
  }

  /// Reads an answer from its line (without the newline); nil when the line is no relay answer.
  ///
  /// - Parameter line: the bytes of the relay's first line.
  public init?(line: some Collection<UInt8>) {
    guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else { return nil }
    switch object["relay"] as? String {
    case "opened": self = .opened
    case "failed":
      guard let status = object["status"] as? Int, let said = object["said"] as? String else { return nil }
      self = .failed(status: Int32(clamping: status), said: said)
    default: return nil
    }
  }
}
